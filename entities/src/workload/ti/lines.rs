//! TI trace lines: splitting (blank lines and lines starting with `#` are skipped, as SimGrid's
//! reader does), rank tokens (`3` or `p3`), list-file detection and the choice between the legacy
//! and the tagged form of the point-to-point actions.

use hase_engine::FilePlace;

use super::error::{TiError, TiErrorKind};
use crate::workload::tokens::{WorkloadToken, split};

/// Ranks beyond this are refused, so a stray huge rank number cannot exhaust memory.
pub const MAX_TI_RANKS: u32 = hase_engine::limits::MAX_RANKS;

/// Which generation of SimGrid's format a trace uses.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum TiDialect {
    /// Decide from the trace: `send`/`recv` with two arguments or `wait` with none mean legacy;
    /// four arguments or `wait` with three mean tagged; with no such line, tagged.
    #[default]
    Auto,
    /// SimGrid before the tagged form: `send <dst> <size> [datatype]`, `wait` pops the last request.
    Legacy,
    /// Current SimGrid: `send <dst> <tag> <size> [datatype]`, `wait <src> <dst> <tag>`.
    Tagged,
}

impl TiDialect {
    fn word(self) -> &'static str {
        match self {
            TiDialect::Auto => "automatic",
            TiDialect::Legacy => "legacy (untagged)",
            TiDialect::Tagged => "tagged",
        }
    }
}

/// One action line.
pub(super) struct TiLine<'a> {
    /// Line, from 1.
    pub line: usize,
    /// The rank the line belongs to.
    pub rank: u32,
    /// The action word.
    pub action: WorkloadToken<'a>,
    /// The arguments after it.
    pub args: Vec<WorkloadToken<'a>>,
}

/// The action lines of one file.
pub(super) struct TiFile<'a> {
    /// The file's name, as shown in locations.
    pub file: &'a str,
    /// The lines.
    pub lines: Vec<TiLine<'a>>,
}

impl TiFile<'_> {
    /// An error at `line:column` of this file.
    pub fn error(&self, line: usize, column: usize, kind: TiErrorKind) -> TiError {
        TiError::At { place: FilePlace::at(self.file, line, column), kind }
    }
}

/// A rank token: `3` or `p3` (SMPI names actors by rank; SimGrid's MSG examples use `p3`).
pub(super) fn rank_token(text: &str) -> Option<u32> {
    let digits = text.strip_prefix('p').unwrap_or(text);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    digits.parse().ok()
}

/// Split a file into action lines. `owner` is the rank a per-rank file belongs to.
pub(super) fn read_lines<'a>(
    text: &'a str,
    file: &'a str,
    owner: Option<u32>,
) -> Result<TiFile<'a>, TiError> {
    let mut result = TiFile { file, lines: Vec::new() };
    for (index, raw) in text.lines().enumerate() {
        let line = index + 1;
        if raw.trim().is_empty() || raw.trim_start().starts_with('#') {
            continue;
        }
        let tokens = split(raw, 1);
        let rank_word = tokens[0];
        let rank = rank_token(rank_word.text).ok_or_else(|| {
            result.error(
                line,
                rank_word.column,
                TiErrorKind::BadRank(hase_engine::limits::quote(rank_word.text)),
            )
        })?;
        if rank >= MAX_TI_RANKS {
            let kind = TiErrorKind::RankTooLarge { rank, limit: MAX_TI_RANKS };
            return Err(result.error(line, rank_word.column, kind));
        }
        if let Some(expected) = owner
            && rank != expected
        {
            return Err(result.error(
                line,
                rank_word.column,
                TiErrorKind::RankMismatch { expected, found: rank },
            ));
        }
        let Some(&action) = tokens.get(1) else {
            return Err(result.error(line, rank_word.end_column() + 1, TiErrorKind::MissingAction));
        };
        result.lines.push(TiLine { line, rank, action, args: tokens[2..].to_vec() });
    }
    Ok(result)
}

/// One path in a list file.
pub(super) struct ListEntry<'a> {
    /// The path as written.
    pub text: &'a str,
    /// Its line.
    pub line: usize,
    /// Its column.
    pub column: usize,
}

/// The entries of `text` if it is a list file: at least one line, every non-comment line a single word.
pub(super) fn list_entries(text: &str) -> Option<Vec<ListEntry<'_>>> {
    let mut entries = Vec::new();
    for (index, raw) in text.lines().enumerate() {
        if raw.trim().is_empty() || raw.trim_start().starts_with('#') {
            continue;
        }
        match split(raw, 1).as_slice() {
            [only] => entries.push(ListEntry { text: only.text, line: index + 1, column: only.column }),
            _ => return None,
        }
    }
    (!entries.is_empty()).then_some(entries)
}

/// What a line says about the dialect, from its action and argument count.
fn evidence(line: &TiLine<'_>) -> Option<TiDialect> {
    let action = line.action.text.to_ascii_lowercase();
    match (action.as_str(), line.args.len()) {
        ("send" | "isend" | "recv" | "irecv", 2) | ("wait" | "test", 0) => Some(TiDialect::Legacy),
        ("send" | "isend" | "recv" | "irecv", 4) | ("wait" | "test", 3) => Some(TiDialect::Tagged),
        _ => None,
    }
}

/// The dialect to read `files` in: `requested`, or for `Auto` the one the lines show.
pub(super) fn resolve_dialect(files: &[TiFile<'_>], requested: TiDialect) -> Result<TiDialect, TiError> {
    if requested != TiDialect::Auto {
        return Ok(requested);
    }
    let mut first: Option<(TiDialect, String)> = None;
    for file in files {
        for line in &file.lines {
            let Some(this) = evidence(line) else { continue };
            match &first {
                None => first = Some((this, format!("{}:{}", file.file, line.line))),
                Some((seen, at)) if *seen != this => {
                    return Err(file.error(
                        line.line,
                        line.action.column,
                        TiErrorKind::DialectConflict {
                            this: this.word(),
                            first: seen.word(),
                            other: at.clone(),
                        },
                    ));
                }
                Some(_) => {}
            }
        }
    }
    Ok(first.map_or(TiDialect::Tagged, |(d, _)| d))
}
