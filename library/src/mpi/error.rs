//! Why an MPI tool could not be built or run, or its output not understood.

use hase_engine::FilePlace;

/// Why an MPI tool could not be built or run, or its output not understood.
#[derive(Debug, thiserror::Error)]
pub enum MpiError {
    /// A program hase needs (`mpicc`, `mpirun`) could not be started or waited for.
    #[error(
        "cannot run `{program}`: {source} (is Open MPI installed? Debian: apt-get install openmpi-bin libopenmpi-dev)"
    )]
    Tool {
        /// The program.
        program: String,
        /// The operating system's error.
        source: std::io::Error,
    },
    /// `mpicc` refused a bundled source.
    #[error("mpicc could not build {source_name}:\n{stderr}")]
    Compile {
        /// The bundled source.
        source_name: String,
        /// What mpicc said.
        stderr: String,
    },
    /// A command ended with a failure status.
    #[error("`{command}` failed ({status}){}", if stderr.is_empty() { String::new() } else { format!(":\n{stderr}") })]
    Failed {
        /// The command line.
        command: String,
        /// Its exit status.
        status: String,
        /// The end of what it wrote to stderr.
        stderr: String,
    },
    /// A file or directory could not be read or written.
    #[error("{path}: {source}")]
    Io {
        /// The file or directory.
        path: String,
        /// The operating system's error.
        source: std::io::Error,
    },
    /// A run left fewer rank files than it has ranks.
    #[error("{path}: {message}")]
    MissingRanks {
        /// The directory the ranks write to.
        path: String,
        /// What is missing, and the likely cause.
        message: String,
    },
    /// A tool's output (a log, a prediction, the benchmark's table) is malformed.
    #[error("{place}: {message}")]
    Output {
        /// The file and 1-based line.
        place: FilePlace,
        /// What is wrong.
        message: String,
    },
    /// A recorded call the time-independent format cannot express.
    #[error("{place}: {message}")]
    Unsupported {
        /// The rank's log and 1-based line.
        place: FilePlace,
        /// What, and why.
        message: String,
    },
    /// An argument that cannot be used (an empty command, an unknown sample, a bad size list).
    #[error("{0}")]
    Argument(String),
    /// The data sheet could not be read.
    #[error(transparent)]
    Sheet(#[from] hase_entities::netmodel::datasheet::DataSheetError),
    /// A trace could not be written.
    #[error(transparent)]
    Trace(#[from] hase_engine::trace::TraceError),
}

impl MpiError {
    /// An I/O error on `path`.
    pub fn io(path: &std::path::Path, source: std::io::Error) -> Self {
        MpiError::Io { path: path.display().to_string(), source }
    }

    /// Malformed output at `line` (1-based) of `path`.
    pub fn output(path: &str, line: usize, message: impl Into<String>) -> Self {
        MpiError::Output { place: FilePlace::line(path, line), message: message.into() }
    }
}
