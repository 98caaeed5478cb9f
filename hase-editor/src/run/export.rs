//! Simulate ▸ Export trace: a trace file written in another viewer's format through the exporter
//! registry (`hase_engine::trace::EXPORTERS`), streamed from the file as `hase trace export` does.

use std::path::{Path, PathBuf};

use hase_engine::trace::{ExportError, ExportOptions, TraceError, exporter, open_trace};

/// Why a trace could not be exported.
#[derive(Debug, thiserror::Error)]
pub enum ExportTraceError {
    /// No exporter has this name.
    #[error("no export format `{0}`")]
    UnknownFormat(String),
    /// The trace file could not be opened.
    #[error("cannot read {}: {source}", path.display())]
    Open {
        /// The trace file.
        path: PathBuf,
        /// What went wrong.
        #[source]
        source: TraceError,
    },
    /// The export failed.
    #[error(transparent)]
    Export(#[from] ExportError),
}

/// Export the trace file `source` as `format` to `output` (for formats of several files, the base
/// name or anchor the format takes); returns `output`.
pub fn export_trace(format: &str, source: &Path, output: &Path) -> Result<PathBuf, ExportTraceError> {
    let exporter = exporter(format).ok_or_else(|| ExportTraceError::UnknownFormat(format.to_string()))?;
    let mut reader = open_trace(source).map_err(|source_error| ExportTraceError::Open {
        path: source.to_path_buf(),
        source: source_error,
    })?;
    (exporter.export)(reader.as_mut(), &ExportOptions::default(), output)?;
    Ok(output.to_path_buf())
}
