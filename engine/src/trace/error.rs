//! Errors of trace reading and writing. Every error about a trace's content names the file and
//! either the line and column (text form) or the byte offset (compact form), and says what was
//! expected there.

use thiserror::Error;

use crate::file_error::FilePlace;

/// Why a trace could not be read (or an index used).
#[derive(Debug, Error)]
pub enum TraceError {
    /// Malformed or inconsistent text: `trace.txt:57:9: expected a state index after entity 3`.
    #[error("{place}: {message}")]
    Text {
        /// The file as given to the reader, with the 1-based line and column (in characters).
        place: FilePlace,
        /// What was wrong or expected.
        message: String,
    },
    /// Malformed or inconsistent compact (binary) data.
    #[error("{place}: byte {offset}: {message}")]
    Binary {
        /// The file as given to the reader.
        place: FilePlace,
        /// Byte offset from the start of the file.
        offset: u64,
        /// What was wrong or expected.
        message: String,
    },
    /// A problem with the file as a whole (a stale index, a compressed file that cannot seek).
    #[error("{place}: {message}")]
    File {
        /// The file.
        place: FilePlace,
        /// What was wrong.
        message: String,
    },
    /// The operating system failed to read or write.
    #[error("{file}: {source}")]
    Io {
        /// File name.
        file: String,
        /// The underlying error.
        #[source]
        source: std::io::Error,
    },
}

impl TraceError {
    /// The 1-based line of a text error, if this is one.
    pub fn line(&self) -> Option<u64> {
        match self {
            TraceError::Text { place, .. } => Some(place.line as u64),
            _ => None,
        }
    }
    /// The message without its location.
    pub fn message(&self) -> String {
        match self {
            TraceError::Text { message, .. }
            | TraceError::Binary { message, .. }
            | TraceError::File { message, .. } => message.clone(),
            TraceError::Io { source, .. } => source.to_string(),
        }
    }
    pub(crate) fn io(file: &str, source: std::io::Error) -> Self {
        TraceError::Io { file: file.to_string(), source }
    }
    /// A problem with `file` as a whole.
    pub(crate) fn file(file: impl Into<String>, message: impl Into<String>) -> Self {
        TraceError::File { place: FilePlace::file(file), message: message.into() }
    }
}

/// An error found while parsing one line, located by byte position within the line; the reader
/// turns it into a [`TraceError::Text`] with the line number and a character column.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct LineError {
    /// Byte position in the line where the problem starts.
    pub byte: usize,
    /// What was wrong or expected.
    pub message: String,
}

impl LineError {
    pub(crate) fn new(byte: usize, message: impl std::fmt::Display) -> Self {
        LineError { byte, message: message.to_string() }
    }
    /// Locate the error in `file` at `line_no`, given the text of the line.
    pub(crate) fn locate(self, file: &str, line_no: u64, line: &str) -> TraceError {
        let byte = self.byte.min(line.len());
        let column = line.get(..byte).map_or(byte, |s| s.chars().count()) + 1;
        let place = FilePlace::at(file, usize::try_from(line_no).unwrap_or(usize::MAX), column);
        TraceError::Text { place, message: self.message }
    }
}
