//! The sink trait the kernel writes trace records through, and the sinks that keep records in
//! memory, share one sink with the caller, or write to several at once.

use super::record::{Record, TraceHeader};
use super::send_record::SendRecord;

/// Where the kernel writes records. Implementations: in memory, streaming text file, compact
/// binary file, fingerprint, or several at once.
pub trait TraceSink: Send {
    /// Called once before any record.
    fn header(&mut self, header: &TraceHeader) -> std::io::Result<()>;
    /// One record, in time order (ties in the kernel's event order).
    fn record(&mut self, record: &Record) -> std::io::Result<()>;
    /// One send record, its label borrowed: the kernel writes every traced message this way. The
    /// same as [`TraceSink::record`] of [`SendRecord::to_record`]; writers that can encode the
    /// label from the borrowed text do so without building the record.
    fn send(&mut self, send: &SendRecord<'_>) -> std::io::Result<()> {
        self.record(&send.to_record())
    }
    /// Called once at the end of the run; flush everything.
    fn finish(&mut self) -> std::io::Result<()>;
}

/// Keeps every record in memory.
#[derive(Debug, Default)]
pub struct MemorySink {
    /// The header, once written.
    pub header: TraceHeader,
    /// The records so far.
    pub records: Vec<Record>,
}

impl TraceSink for MemorySink {
    fn header(&mut self, header: &TraceHeader) -> std::io::Result<()> {
        self.header = header.clone();
        Ok(())
    }
    fn record(&mut self, record: &Record) -> std::io::Result<()> {
        self.records.push(record.clone());
        Ok(())
    }
    fn finish(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// A sink shared with the caller: the kernel writes, the caller reads after the run.
impl<S: TraceSink> TraceSink for std::sync::Arc<std::sync::Mutex<S>> {
    fn header(&mut self, header: &TraceHeader) -> std::io::Result<()> {
        self.lock().map_err(|_| std::io::Error::other("trace sink poisoned"))?.header(header)
    }
    fn record(&mut self, record: &Record) -> std::io::Result<()> {
        self.lock().map_err(|_| std::io::Error::other("trace sink poisoned"))?.record(record)
    }
    fn send(&mut self, send: &SendRecord<'_>) -> std::io::Result<()> {
        self.lock().map_err(|_| std::io::Error::other("trace sink poisoned"))?.send(send)
    }
    fn finish(&mut self) -> std::io::Result<()> {
        self.lock().map_err(|_| std::io::Error::other("trace sink poisoned"))?.finish()
    }
}

/// Writes to several sinks.
pub struct TeeSink(pub Vec<Box<dyn TraceSink>>);

impl TraceSink for TeeSink {
    fn header(&mut self, header: &TraceHeader) -> std::io::Result<()> {
        self.0.iter_mut().try_for_each(|s| s.header(header))
    }
    fn record(&mut self, record: &Record) -> std::io::Result<()> {
        self.0.iter_mut().try_for_each(|s| s.record(record))
    }
    fn send(&mut self, send: &SendRecord<'_>) -> std::io::Result<()> {
        self.0.iter_mut().try_for_each(|s| s.send(send))
    }
    fn finish(&mut self) -> std::io::Result<()> {
        self.0.iter_mut().try_for_each(|s| s.finish())
    }
}
