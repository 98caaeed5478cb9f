//! `hase trace stats --check-index`: validate a trace's `.idx` sidecar against the trace itself.
//! The index is rebuilt by one scan of the trace with the sidecar's own checkpoint spacing and
//! compared entry by entry; the first difference is reported with the sidecar's line, so a
//! corrupt, truncated or stale index is noticed before anything seeks with it.

use std::path::Path;

use super::error::TraceError;
use super::file::{TraceForm, index_file};
use super::index::{IndexEntry, TraceIndex};

/// What a valid index holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct IndexCheck {
    /// Checkpoints in the index.
    pub checkpoints: usize,
    /// Records between checkpoints.
    pub every: u64,
    /// Records in the trace.
    pub records: u64,
}

/// Check the sidecar index of the trace at `path`: it must exist, parse, describe a file of the
/// trace's length with its record count, and list exactly the checkpoints a fresh scan finds.
pub fn check_index(path: &Path) -> Result<IndexCheck, TraceError> {
    let sidecar = TraceIndex::sidecar_path(path);
    let shown = sidecar.display().to_string();
    let fail = |message: String| TraceError::file(shown.clone(), message);
    if TraceForm::of_path(path) == TraceForm::GzipText {
        return Err(fail("a gzip-compressed trace has no index to check".into()));
    }
    if !sidecar.exists() {
        return Err(fail("no index beside the trace".into()));
    }
    let saved = TraceIndex::load(&sidecar)?;
    let bytes = std::fs::metadata(path).map_err(|e| TraceError::io(&path.display().to_string(), e))?.len();
    if saved.file_bytes != bytes {
        return Err(fail(format!(
            "line 4: the index is for a file of {} bytes; the trace has {bytes}",
            saved.file_bytes
        )));
    }
    let fresh = index_file(path, saved.every)?;
    if saved.records != fresh.records {
        return Err(fail(format!(
            "line 3: the index counts {} records; the trace has {}",
            saved.records, fresh.records
        )));
    }
    // Entry i is on line 5 + i of the sidecar.
    let describe =
        |e: &IndexEntry| format!("time {} ps, byte {}, record {}", e.time.as_ps(), e.offset, e.ordinal);
    for (i, pair) in saved.entries.iter().zip(&fresh.entries).enumerate() {
        if pair.0 != pair.1 {
            return Err(fail(format!(
                "line {}: checkpoint `{}` does not match the trace, which has `{}` there",
                i + 5,
                describe(pair.0),
                describe(pair.1)
            )));
        }
    }
    if saved.entries.len() != fresh.entries.len() {
        return Err(fail(format!(
            "the index has {} checkpoints; a scan of the trace finds {}",
            saved.entries.len(),
            fresh.entries.len()
        )));
    }
    Ok(IndexCheck { checkpoints: saved.entries.len(), every: saved.every, records: saved.records })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::trace::text_tests::read_all;
    use crate::trace::{TraceSink, create_trace};

    /// A trace of 300 records written as `name` with an index every 16 records.
    fn written(dir: &Path, name: &str) -> std::path::PathBuf {
        let (header, mut records) = read_all(crate::trace::text_tests::EXAMPLE).unwrap();
        let template = records[0].clone();
        records = (0..300).map(|_| template.clone()).collect();
        let path = dir.join(name);
        let mut w = create_trace(&path, Some(16)).unwrap();
        w.header(&header).unwrap();
        for r in &records {
            w.record(r).unwrap();
        }
        w.finish().unwrap();
        path
    }

    fn edit_index(path: &Path, edit: impl FnOnce(String) -> String) {
        let sidecar = TraceIndex::sidecar_path(path);
        let text = std::fs::read_to_string(&sidecar).unwrap();
        std::fs::write(&sidecar, edit(text)).unwrap();
    }

    #[test]
    fn a_written_index_checks_out_in_both_forms() {
        let dir = tempfile::tempdir().unwrap();
        for name in ["t.trace", "t.htb"] {
            let path = written(dir.path(), name);
            let ok = check_index(&path).unwrap();
            assert_eq!(ok.records, 300, "{name}");
            assert!(ok.checkpoints >= 1, "{name}");
        }
    }

    #[test]
    fn corrupt_truncated_or_missing_indexes_are_reported_with_their_line() {
        let dir = tempfile::tempdir().unwrap();
        let path = written(dir.path(), "t.trace");
        let good = std::fs::read_to_string(TraceIndex::sidecar_path(&path)).unwrap();
        let line6 = good.lines().nth(5).unwrap().to_string();
        let (time, rest) = line6.split_once(' ').unwrap();
        let (offset, ordinal) = rest.split_once(' ').unwrap();
        let moved = format!("{time} {} {ordinal}", offset.parse::<u64>().unwrap() + 1);
        edit_index(&path, |t| t.replacen(&line6, &moved, 1));
        let err = check_index(&path).unwrap_err().to_string();
        assert!(err.contains("t.trace.idx: line 6: checkpoint `time"), "{err}");

        edit_index(&path, |_| good.replace("records 300", "records 299"));
        let err = check_index(&path).unwrap_err().to_string();
        assert!(err.contains("line 3: the index counts 299 records; the trace has 300"), "{err}");

        let truncated = good.lines().take(6).collect::<Vec<_>>().join("\n") + "\n";
        edit_index(&path, |_| truncated);
        let err = check_index(&path).unwrap_err().to_string();
        assert!(err.contains("the index has 2 checkpoints; a scan of the trace finds"), "{err}");

        edit_index(&path, |_| good.replace("bytes ", "bytes 1"));
        let err = check_index(&path).unwrap_err().to_string();
        assert!(err.contains("line 4: the index is for a file of 1"), "{err}");

        std::fs::remove_file(TraceIndex::sidecar_path(&path)).unwrap();
        let err = check_index(&path).unwrap_err().to_string();
        assert!(err.contains("no index beside the trace"), "{err}");
    }
}
