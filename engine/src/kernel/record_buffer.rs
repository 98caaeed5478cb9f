//! A partition's trace records of one window, kept until the barrier has put them in the
//! sequential order and a thread has written them.

use super::message::Message;
use crate::trace::{Record, SendRecord, TraceSink};

/// One kept record: a send's fields (its label lies in the buffer's text), or any other record.
enum Kept {
    /// A send, its `label` left empty.
    Send(SendRecord<'static>),
    Other(Record),
}

/// A partition's records of one window. Sends' labels are written into one string, so a window
/// of records holds no heap block per send, and writing hands each label to the sink borrowed.
#[derive(Default)]
pub(crate) struct RecordBuffer {
    records: Vec<Kept>,
    /// Per record: where its label lies in `labels` (empty but for sends).
    label_at: Vec<(u32, u32)>,
    labels: String,
}

impl RecordBuffer {
    /// Keep `record`.
    pub(crate) fn push(&mut self, record: Record) {
        if let Some(send) = record.as_send() {
            let start = self.labels.len();
            self.labels.push_str(send.label);
            self.keep_send(send, start);
        } else {
            let end = self.labels.len() as u32;
            self.label_at.push((end, end));
            self.records.push(Kept::Other(record));
        }
    }

    /// Keep the send `send` of `msg`, its label written from `msg` (`send.label` is not read).
    pub(crate) fn push_send<M: Message>(&mut self, send: SendRecord<'_>, msg: &M) {
        let start = self.labels.len();
        msg.write_label(&mut self.labels);
        self.keep_send(send, start);
    }

    /// Keep `send`, whose label was written into `labels` from `start` on.
    fn keep_send(&mut self, send: SendRecord<'_>, start: usize) {
        self.label_at.push((start as u32, self.labels.len() as u32));
        self.records.push(Kept::Send(send.with_label("")));
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

    /// Write record `i` to `sink`, a send with its label.
    pub(crate) fn write(&self, i: usize, sink: &mut dyn TraceSink) -> std::io::Result<()> {
        match self.records.get(i) {
            None => Ok(()),
            Some(Kept::Other(record)) => sink.record(record),
            Some(Kept::Send(send)) => {
                let (start, end) = self.label_at.get(i).copied().unwrap_or_default();
                let label = self.labels.get(start as usize..end as usize).unwrap_or_default();
                sink.send(&send.with_label(label))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::time::SimTime;
    use crate::trace::MemorySink;

    /// A message whose label is its number.
    struct Numbered(u32);

    impl Message for Numbered {
        fn size_bytes(&self) -> u64 {
            8
        }
        fn write_label(&self, out: &mut String) {
            out.push('n');
            out.push_str(&self.0.to_string());
        }
    }

    fn send(n: u32, label: &str) -> SendRecord<'_> {
        let t = SimTime(u64::from(n));
        SendRecord {
            time: t,
            depart: t,
            from: n,
            from_port: 0,
            to: n + 1,
            to_port: 1,
            arrive: t,
            bytes: 8,
            label,
        }
    }

    #[test]
    fn kept_records_are_written_with_their_labels_in_order_and_cleared() {
        let mut buffer = RecordBuffer::default();
        buffer.push_send(send(1, "ignored"), &Numbered(1));
        buffer.push(Record::State { time: SimTime(2), entity: 3, state: 1 });
        buffer.push(send(3, "kept whole").to_record());
        buffer.push_send(send(4, ""), &Numbered(40));
        assert_eq!(buffer.len(), 4);
        let mut sink = MemorySink::default();
        for i in 0..=buffer.len() {
            buffer.write(i, &mut sink).unwrap();
        }
        let expected = vec![
            send(1, "n1").to_record(),
            Record::State { time: SimTime(2), entity: 3, state: 1 },
            send(3, "kept whole").to_record(),
            send(4, "n40").to_record(),
        ];
        assert_eq!(sink.records, expected);
        buffer.clear();
        assert_eq!(buffer.len(), 0);
        buffer.push_send(send(5, ""), &Numbered(5));
        let mut sink = MemorySink::default();
        buffer.write(0, &mut sink).unwrap();
        assert_eq!(sink.records, vec![send(5, "n5").to_record()]);
    }
}
