//! The records of a window, in the order the merge found, waiting to be written while the next
//! window runs. Writing is a large part of a traced run (a fourth of the 256×256 torus halo's time
//! at level 2) and must keep its order, so it cannot be split; it can move off the barrier: the
//! first thread to finish the next window writes the backlog, and the barrier writes what is left.

use std::ops::Range;

use crate::trace::{Record, TraceSink};

/// The trace sink of a run on several threads, with the records not yet written.
pub(crate) struct Backlog {
    pub(crate) sink: Option<Box<dyn TraceSink>>,
    /// The first write failure (the sink is dropped then, as `Core::write` does).
    pub(crate) error: Option<std::io::Error>,
    /// Per partition: its records of the window merged last.
    records: Vec<Vec<Record>>,
    /// The merged order: runs of one partition's records.
    order: Vec<(usize, Range<usize>)>,
}

impl Backlog {
    pub(crate) fn new(sink: Option<Box<dyn TraceSink>>, parts: usize) -> Self {
        Backlog { sink, error: None, records: (0..parts).map(|_| Vec::new()).collect(), order: Vec::new() }
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
    pub(crate) fn take_records(&mut self, part: usize, records: &mut Vec<Record>) {
        if let Some(mine) = self.records.get_mut(part) {
            std::mem::swap(mine, records);
        }
    }

    /// Write every waiting record in the merged order. The buffers keep them: each goes back to its
    /// partition at the next barrier, whose thread frees them where they were made.
    pub(crate) fn write(&mut self) {
        for (part, range) in self.order.drain(..) {
            let Some(records) = self.records.get(part) else { continue };
            for record in records.get(range).unwrap_or_default() {
                if let Some(sink) = self.sink.as_mut()
                    && let Err(e) = sink.record(record)
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
