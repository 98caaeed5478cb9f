//! Real MPI programs: the C tools bundled under `assets/mpi/` (benchmark, PMPI logger, reverse
//! profiler, sample programs) built with `mpicc` into a cache keyed by their source, and the three
//! loops that use them — characterise an MPI library (`bench`), record a program as SimGrid
//! time-independent traces (`record`), and predict a program's time from a data sheet while it
//! runs (`predict`, seed `000`'s reverse profiling). Nothing here is compiled by `cargo build`; the
//! C is built on first use. See `docs/datasheets.md`.

pub mod bench;
pub mod build;
pub mod command;
pub mod predict;
pub mod record;
pub mod ti_convert;

pub use build::{CTool, SAMPLES, ToolBuild, build_tool, cache_dir, sample};
pub use command::MpiRun;

/// Why an MPI tool could not be built or run, or its output not understood.
#[derive(Debug, thiserror::Error)]
pub enum MpiError {
    /// A program hase needs (`mpicc`, `mpirun`) could not be started.
    #[error(
        "cannot run `{program}`: {message} (is Open MPI installed? Debian: apt-get install openmpi-bin libopenmpi-dev)"
    )]
    Tool {
        /// The program.
        program: String,
        /// Why.
        message: String,
    },
    /// `mpicc` refused a bundled source.
    #[error("mpicc could not build {source_name}:\n{stderr}")]
    Compile {
        /// The bundled source.
        source_name: String,
        /// What mpicc said.
        stderr: String,
    },
    /// A run ended with a failure status.
    #[error("`{command}` failed ({status}){}", if stderr.is_empty() { String::new() } else { format!(":\n{stderr}") })]
    Failed {
        /// The command line.
        command: String,
        /// Its exit status.
        status: String,
        /// The end of what it wrote to stderr.
        stderr: String,
    },
    /// A file could not be read or written.
    #[error("{path}: {message}")]
    Io {
        /// The file or directory.
        path: String,
        /// Why.
        message: String,
    },
    /// A line written by a shim or the benchmark is malformed.
    #[error("{path}:{line}: {message}")]
    Output {
        /// The file.
        path: String,
        /// 1-based line.
        line: usize,
        /// What is wrong.
        message: String,
    },
    /// The program did something a time-independent trace cannot hold.
    #[error("{path}:{line}: {message}")]
    Unsupported {
        /// The rank's log.
        path: String,
        /// 1-based line.
        line: usize,
        /// What, and why.
        message: String,
    },
    /// A bad argument (sizes, functions, process counts).
    #[error("{0}")]
    Argument(String),
    /// The data sheet cannot be used.
    #[error(transparent)]
    Sheet(#[from] hase_entities::netmodel::datasheet::DataSheetError),
    /// The predicted trace could not be written.
    #[error(transparent)]
    Trace(#[from] hase_engine::trace::TraceError),
}

impl MpiError {
    /// An I/O error on `path`.
    pub fn io(path: &std::path::Path, e: &std::io::Error) -> Self {
        MpiError::Io { path: path.display().to_string(), message: e.to_string() }
    }
}
