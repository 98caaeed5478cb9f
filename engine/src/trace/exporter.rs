//! What a trace exporter is: a format another viewer reads, with its name, the extensions of the
//! files it writes, one line of description and the function that writes a trace read one record
//! at a time. The exporters themselves are listed in `exporters`.

use std::fs::File;
use std::io::BufWriter;
use std::path::Path;

use super::error::TraceError;
use super::paraver_date::ParaverDate;
use super::read::{TraceRead, records};
use super::record::{Record, TraceHeader};

/// What an exporter may need besides the trace.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ExportOptions {
    /// The date of the run, for formats whose header carries one (Paraver).
    pub date: ParaverDate,
}

/// One export format.
#[derive(Clone, Copy, Debug)]
pub struct Exporter {
    /// The name `hase trace export --format` takes (`chrome`).
    pub name: &'static str,
    /// Extensions of the files written, without the dot: one file (`json`) or one per extension
    /// beside the output's base name (`prv`, `pcf`, `row`).
    pub extensions: &'static [&'static str],
    /// One line for help texts.
    pub description: &'static str,
    /// Writes the remaining records of `reader` to `output`, as they are read, in constant memory.
    pub export:
        fn(reader: &mut dyn TraceRead, options: &ExportOptions, output: &Path) -> Result<(), ExportError>,
}

/// Why an export failed.
#[derive(Debug, thiserror::Error)]
pub enum ExportError {
    /// The trace could not be read.
    #[error(transparent)]
    Read(#[from] TraceError),
    /// An output file could not be created.
    #[error("cannot create {path}")]
    Create {
        /// The output as shown to the user.
        path: String,
        /// The operating system's error.
        #[source]
        source: std::io::Error,
    },
    /// Writing the output failed.
    #[error("cannot write {path}")]
    Write {
        /// The output (or outputs) as shown to the user.
        path: String,
        /// What failed.
        #[source]
        source: ExportFailure,
    },
}

/// What failed while an output was written: reading the trace, writing the file or encoding FST.
#[derive(Debug, thiserror::Error)]
pub enum ExportFailure {
    /// The trace could not be read.
    #[error(transparent)]
    Read(#[from] TraceError),
    /// The operating system could not write.
    #[error(transparent)]
    Io(#[from] std::io::Error),
    /// The FST writer refused a value or could not write.
    #[error(transparent)]
    Fst(#[from] fst_writer::FstWriteError),
}

/// Write the remaining records of `reader` into the one file `output` with `export`, which gets the
/// trace header, the records as they are read and the file; failures name `output`.
pub(crate) fn export_to_file<T>(
    reader: &mut dyn TraceRead,
    output: &Path,
    export: impl FnOnce(
        &TraceHeader,
        &mut dyn Iterator<Item = Result<Record, ExportFailure>>,
        BufWriter<File>,
    ) -> Result<T, ExportFailure>,
) -> Result<(), ExportError> {
    let header = reader.header().clone();
    let path = output.display().to_string();
    let file = File::create(output).map_err(|source| ExportError::Create { path: path.clone(), source })?;
    let mut read = records(reader).map(|r| r.map_err(ExportFailure::from));
    export(&header, &mut read, BufWriter::new(file))
        .map(drop)
        .map_err(|source| ExportError::Write { path, source })
}
