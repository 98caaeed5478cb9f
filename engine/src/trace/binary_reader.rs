//! The streaming reader of the compact (binary) trace form: checks the magic and version, decodes
//! the header, then one block at a time (decoded in place in the input's buffer when it is all
//! there), checking every record against the header. Errors carry the file name and the byte
//! offset of the problem.

use std::io::{BufRead, Seek, SeekFrom};

use super::binary::{BINARY_MAGIC, MAX_BLOCK_BYTES, decode_header};
use super::binary_decode::BlockDecoder;
use super::check;
use super::error::TraceError;
use super::read::{Reposition, RestartPoint, TraceRead};
use super::record::{Record, TraceHeader};
use super::varint::Cursor;
use crate::file_error::FilePlace;

/// Reads the compact trace form from any `BufRead`.
pub struct BinaryTraceReader<R> {
    input: R,
    file: String,
    header: TraceHeader,
    /// Bytes consumed from `input`.
    offset: u64,
    /// The current block when it had to be copied out of the input's buffer.
    block: Vec<u8>,
    /// Length of the current block when it is decoded in place in the input's buffer (which is
    /// consumed after its last record), else 0.
    in_buffer: usize,
    block_pos: usize,
    block_left: u64,
    /// File offsets of the current block and of its payload; ordinal of its first record.
    block_offset: u64,
    payload_offset: u64,
    block_first: u64,
    decoder: BlockDecoder,
    ordinal: u64,
    ended: bool,
}

impl<R: BufRead> BinaryTraceReader<R> {
    /// Read the magic and header from `input`; `file` names the input in error messages.
    pub fn new(input: R, file: impl Into<String>) -> Result<Self, TraceError> {
        let mut reader = BinaryTraceReader {
            input,
            file: file.into(),
            header: TraceHeader::default(),
            offset: 0,
            block: Vec::new(),
            in_buffer: 0,
            block_pos: 0,
            block_left: 0,
            block_offset: 0,
            payload_offset: 0,
            block_first: 0,
            decoder: BlockDecoder::default(),
            ordinal: 0,
            ended: false,
        };
        let mut magic = [0_u8; 8];
        reader.read_exact(&mut magic, "the file magic")?;
        if magic != BINARY_MAGIC {
            return Err(reader.error(0, "not a compact hase trace (wrong magic bytes)"));
        }
        let len = reader.read_varint("the header length")?;
        if len > MAX_BLOCK_BYTES {
            return Err(reader.error(8, format!("header length {len} is implausible")));
        }
        let start = reader.offset;
        let mut body = vec![0_u8; len as usize];
        reader.read_exact(&mut body, "the header")?;
        let mut c = Cursor::new(&body);
        let header = decode_header(&mut c).map_err(|(at, m)| reader.error(start + at as u64, m))?;
        if !c.is_empty() {
            return Err(reader.error(start + c.pos as u64, "unexpected bytes after the header"));
        }
        check::header(&header).map_err(|m| reader.error(start, m))?;
        reader.header = header;
        Ok(reader)
    }

    fn error(&self, offset: u64, message: impl std::fmt::Display) -> TraceError {
        TraceError::Binary { place: FilePlace::file(self.file.clone()), offset, message: message.to_string() }
    }

    fn read_exact(&mut self, buf: &mut [u8], what: &str) -> Result<(), TraceError> {
        match self.input.read_exact(buf) {
            Ok(()) => {
                self.offset += buf.len() as u64;
                Ok(())
            }
            Err(e) if e.kind() == std::io::ErrorKind::UnexpectedEof => {
                Err(self.error(self.offset, format!("expected {what}: the trace is truncated")))
            }
            Err(e) => Err(TraceError::io(&self.file, e)),
        }
    }

    fn read_varint(&mut self, what: &str) -> Result<u64, TraceError> {
        let start = self.offset;
        let mut v = 0_u64;
        for shift in (0..64).step_by(7) {
            let mut b = [0_u8];
            self.read_exact(&mut b, what)?;
            if shift == 63 && b[0] > 1 {
                break;
            }
            v |= u64::from(b[0] & 0x7f) << shift;
            if b[0] & 0x80 == 0 {
                return Ok(v);
            }
        }
        Err(self.error(start, format!("{what} does not fit in 64 bits")))
    }

    /// Read the next block, or the end marker (then `false`).
    fn next_block(&mut self) -> Result<bool, TraceError> {
        self.block_offset = self.offset;
        self.block_first = self.ordinal;
        let count = self.read_varint("a block or the end marker")?;
        if count == 0 {
            let at = self.offset;
            let total = self.read_varint("the record count of the end marker")?;
            if total != self.ordinal {
                return Err(self.error(
                    at,
                    format!("the end marker says {total} records but the trace has {}", self.ordinal),
                ));
            }
            let mut extra = [0_u8];
            if self.input.read(&mut extra).map_err(|e| TraceError::io(&self.file, e))? != 0 {
                return Err(self.error(self.offset, "unexpected data after the end marker"));
            }
            return Ok(false);
        }
        let at = self.offset;
        let len = self.read_varint("the block length")?;
        if len > MAX_BLOCK_BYTES || count > len {
            return Err(self.error(at, format!("block of {count} records in {len} bytes is implausible")));
        }
        self.payload_offset = self.offset;
        let len = len as usize;
        // Decode in place when the whole block is already in the input's buffer (always for a
        // trace in memory, mostly for a file); else copy it out.
        if self.input.fill_buf().map_err(|e| TraceError::io(&self.file, e))?.len() >= len {
            self.in_buffer = len;
        } else {
            let mut block = std::mem::take(&mut self.block);
            block.resize(len, 0);
            self.read_exact(&mut block, "the block")?;
            self.block = block;
        }
        self.block_pos = 0;
        self.block_left = count;
        self.decoder.reset();
        Ok(true)
    }
}

impl<R: BufRead> TraceRead for BinaryTraceReader<R> {
    fn header(&self) -> &TraceHeader {
        &self.header
    }

    #[inline]
    fn next_record(&mut self) -> Result<Option<Record>, TraceError> {
        if self.ended {
            return Ok(None);
        }
        if self.block_left == 0 && !self.next_block()? {
            self.ended = true;
            return Ok(None);
        }
        let (decoded, pos, left) = {
            let data = if self.in_buffer > 0 {
                let buffer = self.input.fill_buf().map_err(|e| TraceError::io(&self.file, e))?;
                buffer.get(..self.in_buffer).ok_or_else(|| {
                    TraceError::file(
                        self.file.clone(),
                        "the input gave back less of a block than it had buffered",
                    )
                })?
            } else {
                &self.block
            };
            let mut c = Cursor::new(data);
            c.pos = self.block_pos;
            let decoded = self.decoder.decode(&mut c, &self.header);
            (decoded, c.pos, c.remaining())
        };
        let record = decoded.map_err(|(at, m)| self.error(self.payload_offset + at as u64, m))?;
        self.block_pos = pos;
        self.block_left -= 1;
        self.ordinal += 1;
        if self.block_left == 0 && self.in_buffer > 0 {
            self.input.consume(self.in_buffer);
            self.offset += self.in_buffer as u64;
            self.in_buffer = 0;
        }
        if self.block_left == 0 && left != 0 {
            return Err(self.error(
                self.payload_offset + pos as u64,
                format!("{left} bytes left in the block after its last record"),
            ));
        }
        Ok(Some(record))
    }

    fn restart_point(&self) -> RestartPoint {
        RestartPoint { offset: self.block_offset, ordinal: self.block_first }
    }

    fn records_read(&self) -> u64 {
        self.ordinal
    }
}

impl<R: BufRead + Seek> Reposition for BinaryTraceReader<R> {
    fn reposition(&mut self, at: RestartPoint) -> Result<(), TraceError> {
        self.input.seek(SeekFrom::Start(at.offset)).map_err(|e| TraceError::io(&self.file, e))?;
        self.offset = at.offset;
        self.ordinal = at.ordinal;
        self.block_left = 0;
        self.block.clear();
        self.in_buffer = 0;
        self.block_pos = 0;
        self.ended = false;
        Ok(())
    }
}
