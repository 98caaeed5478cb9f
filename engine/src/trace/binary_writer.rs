//! The streaming writer of the compact (binary) trace form. Records are encoded into a block of at
//! most N records (4096 by default) which is written out when full, so memory stays bounded; a
//! time index with one checkpoint per block is built as it goes.

use std::io::{BufWriter, Write};

use super::binary::{BINARY_MAGIC, BlockEncoder, DEFAULT_BLOCK_RECORDS, encode_header};
use super::check;
use super::index::{IndexBuilder, TraceIndex};
use super::read::RestartPoint;
use super::record::{Record, TraceHeader};
use super::send_record::SendRecord;
use super::sink::TraceSink;
use super::varint::put_u64;
use crate::time::SimTime;

/// Writes the compact trace form to any `Write`, implementing [`TraceSink`].
pub struct BinaryTraceWriter<W: Write> {
    out: BufWriter<W>,
    header: Option<TraceHeader>,
    /// The header's port counts, for checking sends.
    sends: check::SendCheck,
    block: Vec<u8>,
    block_len: u64,
    block_records: u64,
    encoder: BlockEncoder,
    bytes_written: u64,
    records: u64,
    index: IndexBuilder,
    built_index: Option<TraceIndex>,
}

impl<W: Write> BinaryTraceWriter<W> {
    /// A writer to `out` (buffered internally) with blocks of 4096 records.
    pub fn new(out: W) -> Self {
        BinaryTraceWriter {
            out: BufWriter::with_capacity(1 << 16, out),
            header: None,
            sends: check::SendCheck::default(),
            block: Vec::with_capacity(1 << 16),
            block_len: 0,
            block_records: DEFAULT_BLOCK_RECORDS,
            encoder: BlockEncoder::default(),
            bytes_written: 0,
            records: 0,
            index: IndexBuilder::new(DEFAULT_BLOCK_RECORDS),
            built_index: None,
        }
    }

    /// Use blocks of `records` records (at least 1): smaller blocks seek more finely, larger ones
    /// compress labels better.
    #[must_use]
    pub fn with_block_records(mut self, records: u64) -> Self {
        self.block_records = records.max(1);
        self.index = IndexBuilder::new(self.block_records);
        self
    }

    /// The index (one checkpoint per block), available after [`TraceSink::finish`].
    pub fn index(&self) -> Option<&TraceIndex> {
        self.built_index.as_ref()
    }

    /// Bytes written so far.
    pub fn bytes_written(&self) -> u64 {
        self.bytes_written
    }

    /// Flush and return the inner writer.
    pub fn into_inner(self) -> std::io::Result<W> {
        self.out.into_inner().map_err(std::io::IntoInnerError::into_error)
    }

    fn write(&mut self, bytes: &[u8]) -> std::io::Result<()> {
        self.out.write_all(bytes)?;
        self.bytes_written += bytes.len() as u64;
        Ok(())
    }

    /// Give the index the record about to be encoded.
    fn observe(&mut self, time: SimTime) {
        let block_start = RestartPoint { offset: self.bytes_written, ordinal: self.records - self.block_len };
        self.index.observe(block_start, self.records, time);
    }

    /// Count the record just encoded, and write the block out when it is full.
    fn counted(&mut self) -> std::io::Result<()> {
        self.block_len += 1;
        self.records += 1;
        if self.block_len >= self.block_records {
            self.flush_block()?;
        }
        Ok(())
    }

    fn flush_block(&mut self) -> std::io::Result<()> {
        if self.block_len == 0 {
            return Ok(());
        }
        let mut prefix = Vec::with_capacity(16);
        put_u64(&mut prefix, self.block_len);
        put_u64(&mut prefix, self.block.len() as u64);
        self.write(&prefix)?;
        let block = std::mem::take(&mut self.block);
        self.write(&block)?;
        self.block = block;
        self.block.clear();
        self.block_len = 0;
        self.encoder.reset();
        Ok(())
    }
}

impl<W: Write + Send> TraceSink for BinaryTraceWriter<W> {
    fn header(&mut self, header: &TraceHeader) -> std::io::Result<()> {
        check::writable_header(self.header.as_ref(), header)?;
        let body = encode_header(header);
        let mut prefix = BINARY_MAGIC.to_vec();
        put_u64(&mut prefix, body.len() as u64);
        self.write(&prefix)?;
        self.write(&body)?;
        self.sends = check::SendCheck::new(header);
        self.header = Some(header.clone());
        Ok(())
    }

    fn record(&mut self, record: &Record) -> std::io::Result<()> {
        check::writable_record(self.header.as_ref(), record)?;
        self.observe(record.time());
        self.encoder.encode(&mut self.block, record);
        self.counted()
    }

    fn send(&mut self, send: &SendRecord<'_>) -> std::io::Result<()> {
        check::writable_send(self.header.as_ref(), &self.sends, send)?;
        self.observe(send.time);
        self.encoder.encode_send(&mut self.block, send);
        self.counted()
    }

    fn finish(&mut self) -> std::io::Result<()> {
        check::writable_end(self.header.as_ref())?;
        self.flush_block()?;
        let mut end = vec![0];
        put_u64(&mut end, self.records);
        self.write(&end)?;
        self.out.flush()?;
        let index = std::mem::replace(&mut self.index, IndexBuilder::new(self.block_records));
        self.built_index = Some(index.finish(self.records, self.bytes_written));
        Ok(())
    }
}
