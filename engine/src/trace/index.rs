//! The time index for seeking in a trace file: checkpoints `(time, byte offset, record ordinal)`
//! every N records, built while writing or by one scan of a file, saved as a `<file>.idx` sidecar.
//!
//! Record times need not be monotone (a message's departure can be later than records emitted
//! after it, when its link is busy), so a checkpoint's `time` is the latest time of any record up
//! to and including the checkpoint's record. That running maximum is monotone, which makes
//! [`TraceIndex::seek`] exact: it starts at the last checkpoint whose time is before the target
//! (every earlier record is then before it too) and skips at most one interval of records.

use std::io::{BufRead, Read, Write};
use std::path::{Path, PathBuf};

use super::error::{LineError, TraceError};
use super::read::{Reposition, RestartPoint, SeekedReader, TraceRead};
use super::tokens::Tokens;
use crate::limits::MAX_LINE_BYTES;
use crate::model::atomic::Replacement;
use crate::time::SimTime;

/// One checkpoint of a [`TraceIndex`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct IndexEntry {
    /// Latest record time up to and including record `ordinal` (its own time if times are monotone).
    pub time: SimTime,
    /// Byte offset where record `ordinal` starts (its line, or its block in the compact form).
    pub offset: u64,
    /// Ordinal of the record.
    pub ordinal: u64,
}

/// Checkpoints for seeking by time in one trace file.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TraceIndex {
    /// Requested records between checkpoints (compact files round up to whole blocks).
    pub every: u64,
    /// Records in the trace.
    pub records: u64,
    /// Length of the indexed file in bytes, to detect a stale sidecar.
    pub file_bytes: u64,
    /// The checkpoints, by ordinal.
    pub entries: Vec<IndexEntry>,
}

/// Collects checkpoints as records go by.
#[derive(Debug)]
pub(crate) struct IndexBuilder {
    every: u64,
    latest: SimTime,
    entries: Vec<IndexEntry>,
}

impl IndexBuilder {
    pub(crate) fn new(every: u64) -> Self {
        IndexBuilder { every: every.max(1), latest: SimTime::ZERO, entries: Vec::new() }
    }

    /// Record `ordinal` at `time`, which can be re-read from `at`.
    pub(crate) fn observe(&mut self, at: RestartPoint, ordinal: u64, time: SimTime) {
        self.latest = self.latest.max(time);
        let due = self.entries.last().is_none_or(|e| ordinal - e.ordinal >= self.every);
        if at.ordinal == ordinal && due {
            self.entries.push(IndexEntry { time: self.latest, offset: at.offset, ordinal });
        }
    }

    pub(crate) fn finish(self, records: u64, file_bytes: u64) -> TraceIndex {
        TraceIndex { every: self.every, records, file_bytes, entries: self.entries }
    }
}

impl TraceIndex {
    /// Build an index by reading every remaining record of `reader` (freshly opened);
    /// `file_bytes` is the length of the file.
    pub fn scan<R: TraceRead + ?Sized>(
        reader: &mut R,
        every: u64,
        file_bytes: u64,
    ) -> Result<Self, TraceError> {
        let mut builder = IndexBuilder::new(every);
        while let Some(record) = reader.next_record()? {
            builder.observe(reader.restart_point(), reader.records_read() - 1, record.time());
        }
        Ok(builder.finish(reader.records_read(), file_bytes))
    }

    /// The checkpoint to start from to find the first record at or after `time`.
    pub fn checkpoint(&self, time: SimTime) -> Option<&IndexEntry> {
        let before = self.entries.partition_point(|e| e.time < time);
        self.entries.get(before.saturating_sub(1))
    }

    /// Position `reader` (freshly opened on the indexed file) at the first record whose time is at
    /// or after `time`; the returned reader yields exactly the records a linear scan would from
    /// there on.
    pub fn seek<R: Reposition>(&self, mut reader: R, time: SimTime) -> Result<SeekedReader<R>, TraceError> {
        if let Some(entry) = self.checkpoint(time) {
            reader.reposition(RestartPoint { offset: entry.offset, ordinal: entry.ordinal })?;
        }
        SeekedReader::skip_until(reader, time)
    }

    /// The sidecar path of a trace file: `<file>.idx`.
    pub fn sidecar_path(trace: &Path) -> PathBuf {
        let mut name = trace.as_os_str().to_owned();
        name.push(".idx");
        PathBuf::from(name)
    }

    /// Write the index as text: `$hase-trace-index 1`, `every`, `records`, `bytes`, then one
    /// `<time_ps> <offset> <ordinal>` line per checkpoint.
    pub fn write_to(&self, mut out: impl Write) -> std::io::Result<()> {
        write!(
            out,
            "$hase-trace-index 1\nevery {}\nrecords {}\nbytes {}\n",
            self.every, self.records, self.file_bytes
        )?;
        for e in &self.entries {
            writeln!(out, "{} {} {}", e.time.as_ps(), e.offset, e.ordinal)?;
        }
        out.flush()
    }

    /// Save as a file, which replaces one already at `path` only once it is written.
    pub fn save(&self, path: &Path) -> Result<(), TraceError> {
        let name = path.display().to_string();
        let (replacement, file) = Replacement::create(path).map_err(|e| TraceError::io(&name, e))?;
        self.write_to(std::io::BufWriter::new(file)).map_err(|e| TraceError::io(&name, e))?;
        replacement.commit().map_err(|e| TraceError::io(&name, e))
    }

    /// Read an index written by [`TraceIndex::write_to`]; `file` names it in errors.
    /// Lines longer than [`MAX_LINE_BYTES`] are refused, so a corrupt sidecar cannot fill memory.
    pub fn read_from(mut input: impl BufRead, file: &str) -> Result<Self, TraceError> {
        let mut index = TraceIndex::default();
        let mut lines = 0;
        let mut bytes = Vec::new();
        for i in 0.. {
            bytes.clear();
            let n = (&mut input)
                .take(MAX_LINE_BYTES as u64 + 1)
                .read_until(b'\n', &mut bytes)
                .map_err(|e| TraceError::io(file, e))?;
            if n == 0 {
                break;
            }
            let line_no = i as u64 + 1;
            if n > MAX_LINE_BYTES {
                let message = format!("a line longer than the limit of {MAX_LINE_BYTES} bytes");
                return Err(LineError::new(0, message).locate(file, line_no, ""));
            }
            if bytes.last() == Some(&b'\n') {
                bytes.pop();
            }
            let line = std::str::from_utf8(&bytes)
                .map_err(|_| LineError::new(0, "the line is not UTF-8 text").locate(file, line_no, ""))?;
            parse_index_line(&mut index, i, line).map_err(|e| e.locate(file, line_no, line))?;
            lines += 1;
        }
        if lines < 4 {
            return Err(TraceError::file(file, "the index is incomplete"));
        }
        Ok(index)
    }

    /// Load a sidecar file.
    pub fn load(path: &Path) -> Result<Self, TraceError> {
        let name = path.display().to_string();
        let file = std::fs::File::open(path).map_err(|e| TraceError::io(&name, e))?;
        Self::read_from(std::io::BufReader::new(file), &name)
    }
}

fn parse_index_line(index: &mut TraceIndex, i: usize, line: &str) -> Result<(), LineError> {
    let mut t = Tokens::new(line);
    let keyword = |t: &mut Tokens<'_>, word: &str| -> Result<u64, LineError> {
        let found = t.expect(format_args!("`{word} <number>`"))?;
        if found.text != word {
            return Err(LineError::new(found.byte, format!("expected `{word} <number>`")));
        }
        let v = t.number::<u64>(format_args!("a number after `{word}`"))?.0;
        t.end("the number")?;
        Ok(v)
    };
    match i {
        0 => {
            if line != "$hase-trace-index 1" {
                return Err(LineError::new(0, "expected `$hase-trace-index 1`"));
            }
        }
        1 => index.every = keyword(&mut t, "every")?.max(1),
        2 => index.records = keyword(&mut t, "records")?,
        3 => index.file_bytes = keyword(&mut t, "bytes")?,
        _ => {
            let (time, _) = t.number::<u64>("a checkpoint time in picoseconds")?;
            let (offset, _) = t.number::<u64>("a byte offset after the time")?;
            let (ordinal, at) = t.number::<u64>("a record ordinal after the offset")?;
            t.end("the ordinal")?;
            if index.entries.last().is_some_and(|e| e.ordinal >= ordinal || e.time > SimTime(time)) {
                return Err(LineError::new(at, "checkpoints must go forward in ordinal and time"));
            }
            index.entries.push(IndexEntry { time: SimTime(time), offset, ordinal });
        }
    }
    Ok(())
}

#[cfg(test)]
#[path = "index_tests.rs"]
mod tests;
