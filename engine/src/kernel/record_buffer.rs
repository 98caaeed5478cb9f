//! A partition's trace records of one window, kept until the barrier has put them in the
//! sequential order and a thread has written them.

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
    pub(crate) fn write(&self, i: usize, sink: &mut dyn TraceSink) -> std::io::Result<()> {
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
