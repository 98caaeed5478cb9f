//! One error for "this file, at this line and column": every reader of a user's file (projects,
//! instruction streams, TI traces, data sheets, sweep specs, result files, platforms, hostfiles)
//! names the place the same way, `path:line:column: what is wrong`, through [`FilePlace`] and
//! [`FileError`]. Readers with reasons of their own keep an enum of reasons and a [`FilePlace`].

use std::fmt;

/// A place in a file: its path as shown to the user, and a 1-based line and column. Line 0 means
/// the file as a whole, column 0 the line as a whole.
#[derive(Clone, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct FilePlace {
    /// The file as shown to the user (or `<text>`, `<argument>` for text that came from no file).
    pub path: String,
    /// 1-based line; 0 for the file as a whole.
    pub line: usize,
    /// 1-based column; 0 for the line as a whole.
    pub column: usize,
}

impl FilePlace {
    /// The file as a whole.
    pub fn file(path: impl Into<String>) -> Self {
        FilePlace { path: path.into(), line: 0, column: 0 }
    }

    /// A line of the file.
    pub fn line(path: impl Into<String>, line: usize) -> Self {
        FilePlace { path: path.into(), line, column: 0 }
    }

    /// A line and column of the file.
    pub fn at(path: impl Into<String>, line: usize, column: usize) -> Self {
        FilePlace { path: path.into(), line, column }
    }
}

impl fmt::Display for FilePlace {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.line, self.column) {
            (0, _) => f.write_str(&self.path),
            (line, 0) => write!(f, "{}:{line}", self.path),
            (line, column) => write!(f, "{}:{line}:{column}", self.path),
        }
    }
}

/// A file that could not be read or written, or whose text is wrong at a place.
#[derive(Debug, thiserror::Error)]
pub enum FileError {
    /// The operating system refused to read or write the file.
    #[error("{path}: {source}")]
    Io {
        /// The file as shown to the user.
        path: String,
        /// The operating system's error.
        source: std::io::Error,
    },
    /// The text is wrong at a place.
    #[error("{place}: {message}")]
    At {
        /// Where.
        place: FilePlace,
        /// What is wrong there (quoting at most [`crate::limits::MAX_QUOTED_CHARS`] of the input).
        message: String,
    },
}

impl FileError {
    /// An I/O error on `path`.
    pub fn io(path: impl Into<String>, source: std::io::Error) -> Self {
        FileError::Io { path: path.into(), source }
    }

    /// A problem at a place.
    pub fn at(place: FilePlace, message: impl Into<String>) -> Self {
        FileError::At { place, message: message.into() }
    }

    /// The place the error names (the file as a whole for an I/O error).
    pub fn place(&self) -> FilePlace {
        match self {
            FileError::Io { path, .. } => FilePlace::file(path.clone()),
            FileError::At { place, .. } => place.clone(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_place_shows_only_the_parts_it_has() {
        assert_eq!(FilePlace::file("a.ron").to_string(), "a.ron");
        assert_eq!(FilePlace::line("a.ron", 3).to_string(), "a.ron:3");
        assert_eq!(FilePlace::at("a.ron", 3, 7).to_string(), "a.ron:3:7");
        // A column without a line is meaningless and is not shown.
        assert_eq!(FilePlace::at("a.ron", 0, 7).to_string(), "a.ron");
    }

    #[test]
    fn errors_name_their_place_first() {
        let at = FileError::at(FilePlace::at("s.stream", 2, 5), "unknown operation `FOO`");
        assert_eq!(at.to_string(), "s.stream:2:5: unknown operation `FOO`");
        assert_eq!(at.place(), FilePlace::at("s.stream", 2, 5));
        let io = FileError::io("gone.ron", std::io::Error::from(std::io::ErrorKind::NotFound));
        assert!(io.to_string().starts_with("gone.ron: "), "{io}");
        assert_eq!(io.place(), FilePlace::file("gone.ron"));
    }
}
