//! SimGrid time-independent (TI) trace import: lines `<rank> <action> <args…>` as SMPI's replay
//! reads them, from one file holding every rank or from a list file naming one file per rank.
//! Both generations of the format are read: the legacy one (`send <dst> <size>`, `wait` with no
//! argument) and the tagged one of current SimGrid (`send <dst> <tag> <size>`, `wait <src> <dst>
//! <tag>`). The result is one [`OpList`](crate::workload::program::OpList) per rank. The format and the mapping are in
//! `docs/ti-traces.md`.

mod convert;
mod error;
mod lines;
mod list;
mod trace;

use std::path::Path;

use hase_engine::limits::{CappedReadError, MAX_WORKLOAD_FILE_BYTES, read_capped};

pub use error::{TiError, TiErrorKind};
pub use lines::{MAX_TI_RANKS, TiDialect};
pub use list::ListBase;
pub use trace::TiTrace;

/// Read a single trace file holding every rank's actions.
pub fn parse_ti_text(text: &str, file: &str, dialect: TiDialect) -> Result<TiTrace, TiError> {
    let parsed = lines::read_lines(text, file, None)?;
    convert::convert(&[parsed], dialect)
}

/// Read a trace from disk: a list file (every non-comment line a single path) or a trace file. A
/// list naming one file means that file holds every rank, as in SimGrid. Entries are looked for
/// relative to the list file and, failing that, relative to the working directory (SimGrid's own
/// rule); [`TiTrace::found`] says which was used.
/// All the files together are read with a cap of
/// [`MAX_WORKLOAD_FILE_BYTES`] bytes.
pub fn load_ti_trace(path: &Path, dialect: TiDialect) -> Result<TiTrace, TiError> {
    let mut budget = MAX_WORKLOAD_FILE_BYTES;
    load_ti_trace_with(path, dialect, &mut |p| {
        let text = read_capped(p, budget).map_err(CappedReadError::into_io)?;
        budget -= text.len() as u64;
        Ok(text)
    })
}

/// [`load_ti_trace`] with the file reader supplied (for tests and virtual file systems); a relative
/// path given to the reader is relative to the working directory.
pub fn load_ti_trace_with(
    path: &Path,
    dialect: TiDialect,
    read: &mut dyn FnMut(&Path) -> std::io::Result<String>,
) -> Result<TiTrace, TiError> {
    let shown = path.display().to_string();
    let text = read(path).map_err(|source| TiError::Read { path: shown.clone(), source })?;
    let Some(entries) = lines::list_entries(&text) else {
        return parse_ti_text(&text, &shown, dialect);
    };
    let (files, found) = list::read_entries(path, &entries, read)?;
    let per_rank = files.len() > 1;
    let parsed = files
        .iter()
        .enumerate()
        .map(|(rank, (file, text))| {
            let owner = per_rank.then(|| u32::try_from(rank).unwrap_or(u32::MAX));
            lines::read_lines(text, file, owner)
        })
        .collect::<Result<Vec<_>, _>>()?;
    let mut trace = convert::convert(&parsed, dialect)?;
    trace.found = found;
    Ok(trace)
}

#[cfg(test)]
mod tests;
