//! List files of a TI trace: each entry is looked for relative to the list file first and, failing
//! that, relative to the working directory — SimGrid's `smpirun -replay` reads entries relative to
//! the working directory, so lists written for it work unchanged — and the trace says which was used.

use std::path::{Path, PathBuf};

use hase_engine::FilePlace;
use hase_engine::limits::quote;

use super::error::{TiError, TiErrorKind};
use super::lines::ListEntry;

/// Where the entries of a list file were found.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum ListBase {
    /// The trace was a single file, not a list.
    #[default]
    NotAList,
    /// Every entry relative to the list file's directory (or absolute).
    ListDirectory,
    /// Every entry relative to the working directory (SimGrid's rule).
    WorkingDirectory,
    /// Some entries one way, some the other.
    Mixed,
}

impl ListBase {
    /// A sentence for the user, or `None` for a single trace file.
    pub fn describe(self) -> Option<&'static str> {
        match self {
            ListBase::NotAList => None,
            ListBase::ListDirectory => Some("list entries found relative to the list file"),
            ListBase::WorkingDirectory => {
                Some("list entries found relative to the working directory (SimGrid's rule)")
            }
            ListBase::Mixed => Some(
                "list entries found partly relative to the list file, partly relative to the working \
                 directory",
            ),
        }
    }

    fn with(self, other: ListBase) -> ListBase {
        match self {
            ListBase::NotAList => other,
            same if same == other => same,
            _ => ListBase::Mixed,
        }
    }
}

/// Read every entry of the list at `list`: `(shown path, text)` per entry, and where they were found.
pub(super) fn read_entries(
    list: &Path,
    entries: &[ListEntry<'_>],
    read: &mut dyn FnMut(&Path) -> std::io::Result<String>,
) -> Result<(Vec<(String, String)>, ListBase), TiError> {
    let dir = list.parent().map(Path::to_path_buf).unwrap_or_default();
    let mut files = Vec::with_capacity(entries.len());
    let mut found = ListBase::NotAList;
    for entry in entries {
        let beside: PathBuf = dir.join(entry.text);
        let working = Path::new(entry.text);
        let (path, base, text) = match read(&beside) {
            Ok(text) => (beside, ListBase::ListDirectory, text),
            // An absolute entry, or a list in the working directory: there is nowhere else to look.
            Err(e) if beside == working || working.is_absolute() => {
                return Err(at_entry(
                    list,
                    entry,
                    TiErrorKind::CannotRead { path: quote(entry.text), source: e },
                ));
            }
            Err(beside_error) => match read(working) {
                Ok(text) => (working.to_path_buf(), ListBase::WorkingDirectory, text),
                Err(working_error) => {
                    let kind = TiErrorKind::NotFound {
                        path: quote(entry.text),
                        beside: beside.display().to_string(),
                        beside_error,
                        working_error,
                    };
                    return Err(at_entry(list, entry, kind));
                }
            },
        };
        found = found.with(base);
        files.push((path.display().to_string(), text));
    }
    Ok((files, found))
}

/// A problem with `entry` of the list file `list`, at the entry's place in the list.
fn at_entry(list: &Path, entry: &ListEntry<'_>, kind: TiErrorKind) -> TiError {
    TiError::At { place: FilePlace::at(list.display().to_string(), entry.line, entry.column), kind }
}
