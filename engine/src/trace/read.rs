//! The reading side common to every trace form: the [`TraceRead`] trait (a header, then records
//! one at a time), repositioning at a restart point for seeking, and an iterator adaptor.

use super::error::TraceError;
use super::record::{Record, TraceHeader};

/// A place where a reader can start reading records.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RestartPoint {
    /// Byte offset of the record's line (text) or block (compact) in the (uncompressed) file.
    pub offset: u64,
    /// Ordinal of the first record read from there (0-based).
    pub ordinal: u64,
}

/// A source of one trace: its header, then its records in file order.
pub trait TraceRead {
    /// The trace's header (read when the reader was opened).
    fn header(&self) -> &TraceHeader;
    /// The next record, `None` at the end of the trace (after its end marker was checked).
    fn next_record(&mut self) -> Result<Option<Record>, TraceError>;
    /// Where reading must restart to get the record last returned again: the byte offset of its
    /// line (text) or of its block (compact), and the ordinal of the first record read from there.
    fn restart_point(&self) -> RestartPoint;
    /// Number of records returned so far, counting from the start of the trace.
    fn records_read(&self) -> u64;
}

/// A reader that can jump to a restart point taken from a [`super::TraceIndex`].
pub trait Reposition: TraceRead {
    /// Continue reading at `at` (offset and ordinal of a record that starts a line or block).
    fn reposition(&mut self, at: RestartPoint) -> Result<(), TraceError>;
}

impl<T: TraceRead + ?Sized> TraceRead for Box<T> {
    fn header(&self) -> &TraceHeader {
        (**self).header()
    }
    fn next_record(&mut self) -> Result<Option<Record>, TraceError> {
        (**self).next_record()
    }
    fn restart_point(&self) -> RestartPoint {
        (**self).restart_point()
    }
    fn records_read(&self) -> u64 {
        (**self).records_read()
    }
}

/// The remaining records of `reader` as an iterator (stops after the first error).
pub fn records<R: TraceRead + ?Sized>(
    reader: &mut R,
) -> impl Iterator<Item = Result<Record, TraceError>> + '_ {
    let mut failed = false;
    std::iter::from_fn(move || {
        if failed {
            return None;
        }
        match reader.next_record() {
            Ok(r) => r.map(Ok),
            Err(e) => {
                failed = true;
                Some(Err(e))
            }
        }
    })
}

/// A reader with one record pushed back in front: what [`super::TraceIndex::seek`] returns.
pub struct SeekedReader<R> {
    inner: R,
    pending: Option<Record>,
    pending_point: RestartPoint,
}

impl<R: TraceRead> SeekedReader<R> {
    /// Skip records of `inner` earlier than `time`, keeping the first one at or after it.
    pub(crate) fn skip_until(mut inner: R, time: crate::time::SimTime) -> Result<Self, TraceError> {
        loop {
            match inner.next_record()? {
                Some(r) if r.time() < time => {}
                pending => {
                    let pending_point = inner.restart_point();
                    return Ok(SeekedReader { inner, pending, pending_point });
                }
            }
        }
    }

    /// The underlying reader.
    pub fn into_inner(self) -> R {
        self.inner
    }
}

impl<R: TraceRead> TraceRead for SeekedReader<R> {
    fn header(&self) -> &TraceHeader {
        self.inner.header()
    }
    fn next_record(&mut self) -> Result<Option<Record>, TraceError> {
        match self.pending.take() {
            Some(r) => Ok(Some(r)),
            None => self.inner.next_record(),
        }
    }
    fn restart_point(&self) -> RestartPoint {
        if self.pending.is_some() { self.pending_point } else { self.inner.restart_point() }
    }
    fn records_read(&self) -> u64 {
        self.inner.records_read() - u64::from(self.pending.is_some())
    }
}
