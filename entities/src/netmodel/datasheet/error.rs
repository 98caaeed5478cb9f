//! Why a data sheet could not be read or used.

use hase_engine::FilePlace;

/// Why a data sheet could not be read or used.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum DataSheetError {
    /// No built-in sheet of that name.
    #[error("no built-in data sheet `{name}`; choose one of: {known}")]
    UnknownSheet {
        /// Name asked for.
        name: String,
        /// Built-in names.
        known: String,
    },
    /// The sheet has no such function.
    #[error("{origin}: data sheet `{sheet}` has no function `{function}`; it has: {known}")]
    UnknownFunction {
        /// File the sheet came from.
        origin: String,
        /// Sheet name.
        sheet: String,
        /// Function asked for (or the alternatives tried).
        function: String,
        /// Functions the sheet has.
        known: String,
    },
    /// Asked for a time with zero processes.
    #[error("{origin}: `{function}` asked for a group of 0 processes")]
    NoProcesses {
        /// File the sheet came from.
        origin: String,
        /// Function asked for.
        function: String,
    },
    /// The RON text is malformed or does not match the format.
    #[error("{place}: {}", hase_engine::limits::short_error(&.reason.to_string()))]
    Syntax {
        /// File the text came from, 1-based line and column.
        place: FilePlace,
        /// What is wrong.
        reason: ron::error::Error,
    },
    /// Well-formed, but a value makes no sense.
    #[error("{origin}: {field}: {message}")]
    Invalid {
        /// File the sheet came from.
        origin: String,
        /// The field, as a path into the file (`functions."bcast".small.avg`).
        field: String,
        /// What is wrong.
        message: String,
    },
    /// Serialisation failed.
    #[error("cannot write data sheet: {0}")]
    Write(ron::error::Error),
    /// Neither a built-in sheet nor an existing file.
    #[error("no built-in data sheet `{value}` and no sheet file `{path}`; built-in sheets: {known}")]
    NotFound {
        /// The parameter value.
        value: String,
        /// The file it was taken to mean.
        path: String,
        /// Built-in names.
        known: String,
    },
    /// A sheet file could not be read.
    #[error("cannot read data sheet `{path}`: {message}")]
    Read {
        /// The file, as resolved.
        path: String,
        /// Why.
        message: String,
    },
}
