//! SimGrid time-independent (TI) trace import: lines `<rank> <action> <args…>` as SMPI's replay
//! reads them, from one file holding every rank or from a list file naming one file per rank.
//! Both generations of the format are read: the legacy one (`send <dst> <size>`, `wait` with no
//! argument) and the tagged one of current SimGrid (`send <dst> <tag> <size>`, `wait <src> <dst>
//! <tag>`). The result is one [`OpList`] per rank. The format and the mapping are in
//! `docs/ti-traces.md`.

mod convert;
mod lines;
mod list;

use std::path::Path;

use hase_engine::limits::{CappedReadError, MAX_WORKLOAD_FILE_BYTES, read_capped};

use crate::workload::program::OpList;

pub use lines::TiDialect;
pub use list::ListBase;

/// Ranks beyond this are refused, so a stray huge rank number cannot exhaust memory.
pub const MAX_TI_RANKS: u32 = hase_engine::limits::MAX_RANKS;

/// A trace read into one operation list per rank.
#[derive(Clone, Debug, PartialEq)]
pub struct TiTrace {
    /// Rank `r`'s operations at index `r`, located at `file:line`.
    pub ranks: Vec<OpList>,
    /// The dialect the trace was read in (never `Auto`).
    pub dialect: TiDialect,
    /// Where a list file's entries were found (relative to the list, or to the working directory).
    pub found: ListBase,
}

/// Why a trace could not be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum TiError {
    /// A file could not be read.
    #[error("{path}: cannot read: {message}")]
    Read {
        /// The file.
        path: String,
        /// The system's reason.
        message: String,
    },
    /// A problem at `file:line:column`.
    #[error("{file}:{line}:{column}: {kind}")]
    At {
        /// The file.
        file: String,
        /// Line, from 1.
        line: usize,
        /// Column in characters, from 1.
        column: usize,
        /// What is wrong.
        kind: TiErrorKind,
    },
}

/// What is wrong at a place in a trace.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum TiErrorKind {
    /// The first word is not a rank.
    #[error("`{0}` is not a rank: lines start with a rank such as 0 or p0")]
    BadRank(String),
    /// A rank beyond [`MAX_TI_RANKS`].
    #[error("rank {rank} is beyond the {limit} ranks a trace may have")]
    RankTooLarge {
        /// The rank.
        rank: u32,
        /// The limit.
        limit: u32,
    },
    /// A line with a rank and no action.
    #[error("a rank with no action")]
    MissingAction,
    /// An action SimGrid does not define.
    #[error(
        "unknown action `{0}`; known actions: init, finalize, comm_size, comm_split, comm_dup, compute, sleep, \
         location, send, isend, recv, irecv, test, wait, waitall, barrier, bcast, reduce, allreduce, alltoall, \
         gather, allgather, scatter"
    )]
    UnknownAction(String),
    /// A SimGrid action hase does not model.
    #[error("action `{0}` (a variable-count collective) is not supported by hase yet")]
    UnsupportedAction(String),
    /// Too few arguments.
    #[error("`{action}` needs {usage}")]
    MissingArguments {
        /// The action.
        action: String,
        /// Its arguments.
        usage: &'static str,
    },
    /// Too many arguments.
    #[error("unexpected `{text}`: `{action}` takes {usage}")]
    ExtraArgument {
        /// The extra token.
        text: String,
        /// The action.
        action: String,
        /// Its arguments.
        usage: &'static str,
    },
    /// A message size beyond [`MAX_MESSAGE_BYTES`](hase_engine::limits::MAX_MESSAGE_BYTES).
    #[error("a message of {bytes} bytes is larger than the limit of {limit} bytes")]
    MessageTooLarge {
        /// The size asked for (as a number in scientific notation).
        bytes: String,
        /// The limit.
        limit: u64,
    },
    /// A value that cannot be read.
    #[error("`{text}` is not {expected}")]
    BadValue {
        /// The token.
        text: String,
        /// What was expected.
        expected: &'static str,
    },
    /// A datatype code outside SMPI's predefined types 0–24.
    #[error("unknown datatype code `{0}` (SMPI's predefined types are 0 to 24)")]
    UnknownDatatype(String),
    /// Legacy and tagged lines mixed.
    #[error("this line uses the {this} form but {other} uses the {first} form; a trace uses one form")]
    DialectConflict {
        /// This line's form.
        this: &'static str,
        /// The first form seen.
        first: &'static str,
        /// Where the first form was seen (`file:line`).
        other: String,
    },
    /// `wait` with no request to wait for.
    #[error("`wait` not preceded by any isend or irecv")]
    WaitWithoutRequest,
    /// A line for another rank in a per-rank file.
    #[error("this file holds rank {expected}'s actions but the line is for rank {found}")]
    RankMismatch {
        /// The rank the file belongs to.
        expected: u32,
        /// The rank on the line.
        found: u32,
    },
    /// A peer or root outside the trace's ranks.
    #[error("rank {rank} is not in the trace, which has ranks 0..={last}")]
    PeerOutOfRange {
        /// The rank named.
        rank: u32,
        /// The last rank of the trace.
        last: u32,
    },
    /// A list file entry that cannot be read.
    #[error("cannot read `{path}`: {message}")]
    CannotRead {
        /// The listed path.
        path: String,
        /// The system's reason.
        message: String,
    },
}

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
    let text = read(path).map_err(|e| TiError::Read { path: shown.clone(), message: e.to_string() })?;
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
