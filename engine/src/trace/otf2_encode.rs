//! The byte encoding of an OTF2 archive's files, as the OTF2 library (3.0) writes them on a
//! little-endian machine, so that its readers (`otf2-print`, Vampir, Scalasca) accept them.
//!
//! Every file is a run of fixed-size chunks. A chunk starts with a header (the byte 3, the byte
//! order mark `B`, then two 64-bit numbers: in event files the ordinals of the chunk's first and
//! last event counting from 1 over the file, in definition files 1 and 0) and is padded with zero
//! bytes to the chunk size; the file's last chunk ends with the end-of-file and end-of-buffer bytes
//! and is not padded. Records are an identifier byte, a length (one byte, or 255 and eight bytes),
//! then their fields; unsigned fields are "compressed": a byte count (0–8) and that many
//! little-endian bytes, 255 for "undefined". Events are preceded by a timestamp record whenever
//! their time differs from the previous event's, and always at the start of a chunk.
//!
//! [`ChunkedFile`] keeps one chunk's header position and a small buffer; the bytes go to the file
//! as the buffer fills, so a file of any length is written in constant memory, and the header's
//! last ordinal is written in place when the chunk is closed.

use std::fs::{File, OpenOptions};
use std::io::{Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

/// First byte of a chunk.
const CHUNK_HEADER: u8 = 3;
/// The byte-order mark the OTF2 library writes on little-endian machines.
const BYTE_ORDER_MARK: u8 = b'B';
/// Ends the data of a file.
pub(crate) const END_OF_FILE: u8 = 2;
/// Ends the last buffer of a file.
pub(crate) const END_OF_BUFFER: u8 = 1;
/// The record that sets the time of the events after it.
const TIMESTAMP: u8 = 5;
/// Bytes held before they are appended to the file.
const FLUSH_BYTES: usize = 16 * 1024;

/// Append `value` compressed: the count of its significant bytes, then those bytes.
pub(crate) fn put_u64(out: &mut Vec<u8>, value: u64) {
    if value == u64::MAX {
        out.push(0xff);
        return;
    }
    let bytes = value.to_le_bytes();
    let used = 8 - (value.leading_zeros() / 8) as usize;
    out.push(used as u8);
    out.extend_from_slice(&bytes[..used]);
}

/// Append a 32-bit field compressed (`u32::MAX` is "undefined").
pub(crate) fn put_u32(out: &mut Vec<u8>, value: u32) {
    if value == u32::MAX { out.push(0xff) } else { put_u64(out, u64::from(value)) }
}

/// Append a NUL-terminated string.
pub(crate) fn put_str(out: &mut Vec<u8>, text: &str) {
    out.extend_from_slice(text.as_bytes());
    out.push(0);
}

/// A record with its length: identifier, length, fields.
pub(crate) fn record(id: u8, fields: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(fields.len() + 10);
    out.push(id);
    if fields.len() < 255 {
        out.push(fields.len() as u8);
    } else {
        out.push(0xff);
        out.extend_from_slice(&(fields.len() as u64).to_le_bytes());
    }
    out.extend_from_slice(fields);
    out
}

/// What a chunked file holds: events (with ordinals and timestamps) or definitions.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum ChunkKind {
    /// A location's events.
    Events,
    /// Definitions (global or local).
    Definitions,
}

/// One OTF2 file being written chunk by chunk.
pub(crate) struct ChunkedFile {
    path: PathBuf,
    kind: ChunkKind,
    chunk_bytes: u64,
    /// Bytes not yet appended to the file.
    pending: Vec<u8>,
    /// Bytes already in the file.
    written: u64,
    /// Where the open chunk starts in the file (None before the first record).
    chunk_start: Option<u64>,
    /// Records written so far (events: the last ordinal).
    records: u64,
    last_time: Option<u64>,
}

impl ChunkedFile {
    /// Create (or empty) the file at `path`.
    pub(crate) fn create(path: &Path, kind: ChunkKind, chunk_bytes: u64) -> std::io::Result<Self> {
        File::create(path)?;
        Ok(ChunkedFile {
            path: path.to_path_buf(),
            kind,
            chunk_bytes,
            pending: Vec::new(),
            written: 0,
            chunk_start: None,
            records: 0,
            last_time: None,
        })
    }

    /// Records written so far.
    pub(crate) fn records(&self) -> u64 {
        self.records
    }

    fn position(&self) -> u64 {
        self.written + self.pending.len() as u64
    }

    fn used_in_chunk(&self) -> u64 {
        self.chunk_start.map_or(0, |start| self.position() - start)
    }

    fn start_chunk(&mut self) {
        self.chunk_start = Some(self.position());
        self.pending.push(CHUNK_HEADER);
        self.pending.push(BYTE_ORDER_MARK);
        let first = match self.kind {
            ChunkKind::Events => self.records + 1,
            ChunkKind::Definitions => 1,
        };
        self.pending.extend_from_slice(&first.to_le_bytes());
        self.pending.extend_from_slice(&0u64.to_le_bytes());
        self.last_time = None;
    }

    /// Write the open chunk's last ordinal into its header.
    fn patch_last(&mut self) -> std::io::Result<()> {
        let (Some(start), ChunkKind::Events) = (self.chunk_start, self.kind) else { return Ok(()) };
        let at = start + 10;
        let last = self.records.to_le_bytes();
        if at >= self.written {
            let i = (at - self.written) as usize;
            self.pending[i..i + 8].copy_from_slice(&last);
        } else {
            let mut file = OpenOptions::new().write(true).open(&self.path)?;
            file.seek(SeekFrom::Start(at))?;
            file.write_all(&last)?;
        }
        Ok(())
    }

    fn flush_pending(&mut self) -> std::io::Result<()> {
        if !self.pending.is_empty() {
            OpenOptions::new().append(true).open(&self.path)?.write_all(&self.pending)?;
            self.written += self.pending.len() as u64;
            self.pending.clear();
        }
        Ok(())
    }

    /// Make room for `bytes` more in the open chunk (closing it and opening the next if needed).
    /// Two bytes stay free for the end-of-file marks.
    fn room(&mut self, bytes: u64) -> std::io::Result<()> {
        if self.chunk_start.is_some() && self.used_in_chunk() + bytes + 2 > self.chunk_bytes {
            self.patch_last()?;
            let padding = self.chunk_bytes - self.used_in_chunk();
            self.pending.resize(self.pending.len() + padding as usize, 0);
            self.flush_pending()?;
            self.chunk_start = None;
        }
        if self.chunk_start.is_none() {
            self.start_chunk();
        }
        if self.pending.len() >= FLUSH_BYTES {
            self.flush_pending()?;
        }
        Ok(())
    }

    /// One event record at `time_ps`.
    pub(crate) fn event(&mut self, time_ps: u64, bytes: &[u8]) -> std::io::Result<()> {
        let stamp = |last: Option<u64>| if last == Some(time_ps) { 0 } else { 9 };
        // A fresh chunk always needs its timestamp.
        self.room(9 + bytes.len() as u64)?;
        if stamp(self.last_time) > 0 {
            self.pending.push(TIMESTAMP);
            self.pending.extend_from_slice(&time_ps.to_le_bytes());
            self.last_time = Some(time_ps);
        }
        self.pending.extend_from_slice(bytes);
        self.records += 1;
        Ok(())
    }

    /// One definition record.
    pub(crate) fn definition(&mut self, bytes: &[u8]) -> std::io::Result<()> {
        self.room(bytes.len() as u64)?;
        self.pending.extend_from_slice(bytes);
        self.records += 1;
        Ok(())
    }

    /// End the file (a file without records is one chunk with only its header).
    pub(crate) fn finish(mut self) -> std::io::Result<()> {
        if self.chunk_start.is_none() {
            self.start_chunk();
        }
        self.patch_last()?;
        self.pending.push(END_OF_FILE);
        self.pending.push(END_OF_BUFFER);
        self.flush_pending()
    }
}
