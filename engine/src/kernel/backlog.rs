//! The records of a window, in the order the merge found, waiting to be written while the next
//! window runs. Writing is a large part of a traced run (a fourth of the 256×256 torus halo's time
//! at level 2) and must keep its order, so it cannot be split; it can move off the barrier: the
//! first thread to finish the next window writes the backlog, and the barrier writes what is left.

use std::ops::Range;
use std::sync::Arc;

use crate::trace::{Record, TraceSink};

/// A partition's records of one window. A send's label is copied into one string, so a window of
/// records does not hold a heap block per send: kept for a window, those blocks made the
/// allocator's slow paths a sixth of a traced run's time on two threads, where a run on one thread
/// frees each label right after writing it.
pub(crate) struct RecordBuffer {
    records: Vec<Record>,
    /// What a kept send holds as its label: one shared empty string.
    empty: Arc<str>,
    /// Per record: where its label lies in `labels` (empty but for sends).
    label_at: Vec<(u32, u32)>,
    labels: String,
}

impl Default for RecordBuffer {
    fn default() -> Self {
        RecordBuffer {
            records: Vec::new(),
            empty: Arc::from(""),
            label_at: Vec::new(),
            labels: String::new(),
        }
    }
}

impl RecordBuffer {
    /// Keep `record`.
    pub(crate) fn push(&mut self, mut record: Record) {
        let start = self.labels.len();
        if let Record::Send { label, .. } = &mut record {
            self.labels.push_str(label);
            *label = Arc::clone(&self.empty);
        }
        self.label_at.push((start as u32, self.labels.len() as u32));
        self.records.push(record);
    }

    /// Records kept.
    pub(crate) fn len(&self) -> usize {
        self.records.len()
    }

    /// Forget every record, keeping the room.
    pub(crate) fn clear(&mut self) {
        self.records.clear();
        self.label_at.clear();
        self.labels.clear();
    }

    /// Write record `i` to `sink`, a send with its label put back.
    fn write(&self, i: usize, sink: &mut dyn TraceSink) -> std::io::Result<()> {
        let Some(record) = self.records.get(i) else { return Ok(()) };
        let &Record::Send { time, depart, from, from_port, to, to_port, arrive, bytes, .. } = record else {
            return sink.record(record);
        };
        let (start, end) = self.label_at.get(i).copied().unwrap_or_default();
        let label = self.labels.get(start as usize..end as usize).unwrap_or_default();
        // Made and freed at once, as a run on one thread makes and frees it.
        let send = Record::Send {
            time,
            depart,
            from,
            from_port,
            to,
            to_port,
            arrive,
            bytes,
            label: Arc::from(label),
        };
        sink.record(&send)
    }
}

/// The trace sink of a run on several threads, with the records not yet written.
pub(crate) struct Backlog {
    pub(crate) sink: Option<Box<dyn TraceSink>>,
    /// The first write failure (the sink is dropped then, as `Core::write` does).
    pub(crate) error: Option<std::io::Error>,
    /// Per partition: its records of the window merged last.
    records: Vec<RecordBuffer>,
    /// The merged order: runs of one partition's records.
    order: Vec<(usize, Range<usize>)>,
}

impl Backlog {
    pub(crate) fn new(sink: Option<Box<dyn TraceSink>>, parts: usize) -> Self {
        Backlog {
            sink,
            error: None,
            records: (0..parts).map(|_| RecordBuffer::default()).collect(),
            order: Vec::new(),
        }
    }

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

    /// Swap partition `part`'s record buffer with the backlog's (empty) one: the backlog keeps the
    /// window's records, the partition gets back room for its next window's.
    pub(crate) fn take_records(&mut self, part: usize, records: &mut RecordBuffer) {
        if let Some(mine) = self.records.get_mut(part) {
            std::mem::swap(mine, records);
        }
    }

    /// Write every waiting record in the merged order. The buffers keep them: each goes back to its
    /// partition at the next barrier, whose thread frees them where they were made.
    pub(crate) fn write(&mut self) {
        for (part, range) in self.order.drain(..) {
            let Some(records) = self.records.get(part) else { continue };
            for i in range {
                if let Some(sink) = self.sink.as_mut()
                    && let Err(e) = records.write(i, sink.as_mut())
                {
                    self.error.get_or_insert(e);
                    self.sink = None;
                }
            }
        }
    }

    /// True if nothing waits to be written.
    pub(crate) fn is_empty(&self) -> bool {
        self.order.is_empty()
    }
}
