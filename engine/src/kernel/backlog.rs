//! The records of the windows merged so far, waiting to be written while later windows run.
//! Writing is a large part of a traced run (a fourth of the 256×256 torus halo's time at level 2)
//! and must keep its order, so one thread writes at a time; it trails the windows instead of
//! holding up a barrier: a thread that waits (for the other partitions at the barrier, or for the
//! next window) writes a few records at a time until its signal comes, and the barrier itself
//! writes only when more than [`MAX_WAITING_WINDOWS`] windows wait, which bounds the memory.

use std::collections::VecDeque;
use std::ops::Range;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Mutex, MutexGuard, PoisonError};

use super::record_buffer::RecordBuffer;
use crate::trace::TraceSink;

/// Windows whose records may wait to be written before the barrier writes them itself.
pub(crate) const MAX_WAITING_WINDOWS: usize = 16;

/// Records a waiting thread writes before it looks at its signal again.
pub(crate) const CHUNK_RECORDS: usize = 256;

/// One window's records: every partition's buffer and the merged order, as runs of one
/// partition's records.
pub(crate) struct WindowRecords {
    buffers: Vec<RecordBuffer>,
    order: Vec<(usize, Range<usize>)>,
}

impl WindowRecords {
    /// Add a run of partition `part`'s records (`range` of its buffer) to the order.
    pub(crate) fn push_run(&mut self, part: usize, range: Range<usize>) {
        if range.is_empty() {
            return;
        }
        match self.order.last_mut() {
            Some((p, r)) if *p == part && r.end == range.start => r.end = range.end,
            _ => self.order.push((part, range)),
        }
    }

    /// Swap partition `part`'s record buffer with the one held here (written already): this
    /// keeps the window's records, the partition gets room for its next window's.
    pub(crate) fn take_records(&mut self, part: usize, records: &mut RecordBuffer) {
        if let Some(mine) = self.buffers.get_mut(part) {
            std::mem::swap(mine, records);
        }
    }
}

/// The sink and the window being written.
struct Writer {
    sink: Option<Box<dyn TraceSink>>,
    /// The first write failure (the sink is dropped then, as `Core::write` does).
    error: Option<std::io::Error>,
    current: Option<WindowRecords>,
    /// In `current`: the run being written and the records of it written so far.
    run: usize,
    written_in_run: usize,
}

/// Windows merged but not yet being written, and the buffers written, for reuse.
struct Queue {
    windows: VecDeque<WindowRecords>,
    /// Per partition: buffers whose records are written. Each goes back to its partition, whose
    /// thread frees the records where it made them.
    free: Vec<Vec<RecordBuffer>>,
}

/// The trace sink of a run on several threads, with the records not yet written.
pub(crate) struct Backlog {
    writer: Mutex<Writer>,
    queue: Mutex<Queue>,
    /// Windows not completely written (queued or being written).
    waiting: AtomicUsize,
    /// False once a write failed.
    sink_ok: AtomicBool,
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(PoisonError::into_inner)
}

impl Backlog {
    pub(crate) fn new(sink: Option<Box<dyn TraceSink>>, parts: usize) -> Self {
        let sink_ok = AtomicBool::new(sink.is_some());
        Backlog {
            writer: Mutex::new(Writer { sink, error: None, current: None, run: 0, written_in_run: 0 }),
            queue: Mutex::new(Queue {
                windows: VecDeque::new(),
                free: (0..parts).map(|_| Vec::new()).collect(),
            }),
            waiting: AtomicUsize::new(0),
            sink_ok,
        }
    }

    /// Room for a window's records: a written buffer per partition where there is one.
    pub(crate) fn fresh(&self) -> WindowRecords {
        let mut queue = lock(&self.queue);
        let buffers = queue.free.iter_mut().map(|free| free.pop().unwrap_or_default()).collect();
        WindowRecords { buffers, order: Vec::new() }
    }

    /// Queue a merged window's records for writing.
    pub(crate) fn push(&self, records: WindowRecords) {
        let mut queue = lock(&self.queue);
        if records.order.is_empty() {
            Self::recycle(&mut queue, records);
        } else {
            self.waiting.fetch_add(1, Ordering::AcqRel);
            queue.windows.push_back(records);
        }
    }

    fn recycle(queue: &mut Queue, records: WindowRecords) {
        for (free, buffer) in queue.free.iter_mut().zip(records.buffers) {
            free.push(buffer);
        }
    }

    /// True while some window's records wait to be written.
    pub(crate) fn has_waiting(&self) -> bool {
        self.waiting.load(Ordering::Acquire) > 0
    }

    /// True while the sink takes records (there is one and no write failed).
    pub(crate) fn sink_ok(&self) -> bool {
        self.sink_ok.load(Ordering::Acquire)
    }

    /// Write up to `records` waiting records, unless another thread is writing or nothing waits.
    /// True if something was written.
    pub(crate) fn write_some(&self, records: usize) -> bool {
        if !self.has_waiting() {
            return false;
        }
        match self.writer.try_lock() {
            Ok(mut writer) => self.write_chunk(&mut writer, records),
            Err(_) => false,
        }
    }

    /// Write, waiting for the sink if another thread writes, until at most `windows` windows wait.
    pub(crate) fn write_until(&self, windows: usize) {
        while self.waiting.load(Ordering::Acquire) > windows {
            let mut writer = lock(&self.writer);
            if !self.write_chunk(&mut writer, usize::MAX) {
                break;
            }
        }
    }

    /// Write everything and give back the sink and the first write failure.
    pub(crate) fn finish(self) -> (Option<Box<dyn TraceSink>>, Option<std::io::Error>) {
        self.write_until(0);
        let writer = self.writer.into_inner().unwrap_or_else(PoisonError::into_inner);
        (writer.sink, writer.error)
    }

    /// Write up to `limit` records of the window being written (taking the next one if none is).
    fn write_chunk(&self, writer: &mut Writer, limit: usize) -> bool {
        if writer.current.is_none() {
            writer.current = lock(&self.queue).windows.pop_front();
            writer.run = 0;
            writer.written_in_run = 0;
        }
        let Writer { sink, error, current, run, written_in_run } = writer;
        let Some(window) = current.as_ref() else { return false };
        let mut left = limit;
        while left > 0 {
            let Some((part, range)) = window.order.get(*run) else { break };
            let Some(records) = window.buffers.get(*part) else {
                *run += 1;
                *written_in_run = 0;
                continue;
            };
            let from = range.start + *written_in_run;
            let to = range.end.min(from.saturating_add(left));
            for i in from..to {
                if let Some(s) = sink.as_mut()
                    && let Err(e) = records.write(i, s.as_mut())
                {
                    error.get_or_insert(e);
                    *sink = None;
                    self.sink_ok.store(false, Ordering::Release);
                }
            }
            left -= to - from;
            if to == range.end {
                *run += 1;
                *written_in_run = 0;
            } else {
                *written_in_run = to - range.start;
            }
        }
        if *run >= window.order.len()
            && let Some(done) = current.take()
        {
            Self::recycle(&mut lock(&self.queue), done);
            self.waiting.fetch_sub(1, Ordering::AcqRel);
        }
        true
    }
}

#[cfg(test)]
#[path = "backlog_tests.rs"]
mod tests;
