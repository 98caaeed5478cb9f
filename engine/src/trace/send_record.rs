//! A level-2 send as the kernel hands it to a sink: the fields of [`Record::Send`] with the label
//! borrowed. A run that traces every message writes one per packet hop; handing the label as a
//! `&str` lets the writers encode it straight from the kernel's buffer, without the allocation a
//! shared `Arc<str>` label takes.

use std::sync::Arc;

use super::record::Record;
use crate::time::SimTime;

/// [`Record::Send`] with a borrowed label: the same fields, meaning the same.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SendRecord<'a> {
    /// When the send was issued (the record's place in time order).
    pub time: SimTime,
    /// Departure: first bit on the wire.
    pub depart: SimTime,
    /// Sending entity.
    pub from: u32,
    /// Sending port.
    pub from_port: u16,
    /// Receiving entity.
    pub to: u32,
    /// Receiving port.
    pub to_port: u16,
    /// Delivery time at the receiver.
    pub arrive: SimTime,
    /// Message size.
    pub bytes: u64,
    /// Short description (`data r0>r5 2/8 4096B`).
    pub label: &'a str,
}

impl SendRecord<'_> {
    /// The same send with `label` as its label.
    pub fn with_label<'b>(&self, label: &'b str) -> SendRecord<'b> {
        let &SendRecord { time, depart, from, from_port, to, to_port, arrive, bytes, .. } = self;
        SendRecord { time, depart, from, from_port, to, to_port, arrive, bytes, label }
    }

    /// The owned record, its label copied into a new shared string.
    pub fn to_record(&self) -> Record {
        let &SendRecord { time, depart, from, from_port, to, to_port, arrive, bytes, label } = self;
        Record::Send { time, depart, from, from_port, to, to_port, arrive, bytes, label: Arc::from(label) }
    }
}

impl Record {
    /// A send record's fields with its label borrowed; `None` for every other kind.
    pub fn as_send(&self) -> Option<SendRecord<'_>> {
        match self {
            &Record::Send { time, depart, from, from_port, to, to_port, arrive, bytes, ref label } => {
                Some(SendRecord { time, depart, from, from_port, to, to_port, arrive, bytes, label })
            }
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;
    use crate::trace::record::TraceHeader;
    use crate::trace::sink::TraceSink;
    use crate::trace::{BinaryTraceWriter, FingerprintSink, MemorySink, TeeSink, TextTraceWriter, testgen};

    /// Write `records` to `sink`, sends through [`TraceSink::send`] when `borrowed`.
    fn write_all(sink: &mut dyn TraceSink, header: &TraceHeader, records: &[Record], borrowed: bool) {
        sink.header(header).unwrap();
        for record in records {
            match record.as_send() {
                Some(send) if borrowed => sink.send(&send),
                _ => sink.record(record),
            }
            .unwrap();
        }
        sink.finish().unwrap();
    }

    fn binary_bytes(header: &TraceHeader, records: &[Record], borrowed: bool) -> Vec<u8> {
        let mut writer = BinaryTraceWriter::new(Vec::new()).with_block_records(7);
        write_all(&mut writer, header, records, borrowed);
        writer.into_inner().unwrap()
    }

    fn text_bytes(header: &TraceHeader, records: &[Record], borrowed: bool) -> Vec<u8> {
        let mut writer = TextTraceWriter::new(Vec::new());
        write_all(&mut writer, header, records, borrowed);
        writer.into_inner().unwrap()
    }

    fn fingerprint_and_records(
        header: &TraceHeader,
        records: &[Record],
        borrowed: bool,
    ) -> (String, Vec<Record>) {
        let fingerprint = std::sync::Arc::new(std::sync::Mutex::new(FingerprintSink::new()));
        let memory = std::sync::Arc::new(std::sync::Mutex::new(MemorySink::default()));
        let mut tee = TeeSink(vec![Box::new(fingerprint.clone()), Box::new(memory.clone())]);
        write_all(&mut tee, header, records, borrowed);
        let hex = fingerprint.lock().unwrap().hex();
        let kept = std::mem::take(&mut memory.lock().unwrap().records);
        (hex, kept)
    }

    proptest! {
        /// Every writer writes a send handed over borrowed exactly as it writes the send's record.
        #[test]
        fn borrowed_sends_are_written_as_their_records((header, records) in testgen::full_trace(40)) {
            prop_assert_eq!(binary_bytes(&header, &records, true), binary_bytes(&header, &records, false));
            prop_assert_eq!(text_bytes(&header, &records, true), text_bytes(&header, &records, false));
            let (borrowed, kept) = fingerprint_and_records(&header, &records, true);
            prop_assert_eq!(&borrowed, &fingerprint_and_records(&header, &records, false).0);
            prop_assert_eq!(kept, records);
        }
    }

    proptest! {
        /// A send is accepted or refused, and with the same error, whether handed over borrowed
        /// or as its record: entities and ports in and out of the header, times in and out of order.
        #[test]
        fn borrowed_sends_are_checked_as_their_records(
            header in testgen::header(),
            from in 0u32..6, to in 0u32..6, from_port in 0u16..4, to_port in 0u16..4,
            time in 0u64..3, depart in 0u64..3, arrive in 0u64..3,
        ) {
            let header = TraceHeader { level: 2, ..header };
            let send = SendRecord {
                time: SimTime(time),
                depart: SimTime(depart),
                from,
                from_port,
                to,
                to_port,
                arrive: SimTime(arrive),
                bytes: 1,
                label: "m",
            };
            let mut binary = BinaryTraceWriter::new(Vec::new());
            let mut text = TextTraceWriter::new(Vec::new());
            for writer in [&mut binary as &mut dyn TraceSink, &mut text] {
                writer.header(&header).unwrap();
                let borrowed = writer.send(&send).map_err(|e| e.to_string());
                let owned = writer.record(&send.to_record()).map_err(|e| e.to_string());
                prop_assert_eq!(borrowed, owned);
            }
        }
    }

    /// A send the header does not allow is refused with the same error either way.
    #[test]
    fn a_borrowed_send_is_checked_as_its_record() {
        let header = TraceHeader { level: 2, ..TraceHeader::default() };
        let stray = testgen::port0_send(1, 0, 0, 2, 8, "stray");
        let send = stray.as_send().unwrap();
        for borrowed in [false, true] {
            let mut binary = BinaryTraceWriter::new(Vec::new());
            let mut text = TextTraceWriter::new(Vec::new());
            for writer in [&mut binary as &mut dyn TraceSink, &mut text] {
                let before_header = if borrowed { writer.send(&send) } else { writer.record(&stray) }
                    .unwrap_err()
                    .to_string();
                assert!(before_header.contains("header"), "{before_header}");
                writer.header(&header).unwrap();
                let unknown = if borrowed { writer.send(&send) } else { writer.record(&stray) }
                    .unwrap_err()
                    .to_string();
                assert!(unknown.contains("entity 0"), "{unknown}");
            }
        }
        let summary_only = TraceHeader { level: 5, ..TraceHeader::default() };
        let mut writer = BinaryTraceWriter::new(Vec::new());
        writer.header(&summary_only).unwrap();
        assert_eq!(
            writer.send(&send).unwrap_err().to_string(),
            writer.record(&stray).unwrap_err().to_string()
        );
    }

    #[test]
    fn a_send_goes_to_its_borrowed_form_and_back_unchanged() {
        let record = Record::Send {
            time: SimTime(5),
            depart: SimTime(7),
            from: 1,
            from_port: 2,
            to: 3,
            to_port: 4,
            arrive: SimTime(19),
            bytes: 64,
            label: Arc::from("data r0>r1 1/1 64B"),
        };
        let send = record.as_send().expect("a send");
        assert_eq!(send.label, "data r0>r1 1/1 64B");
        assert_eq!((send.from, send.to_port, send.arrive), (1, 4, SimTime(19)));
        assert_eq!(send.to_record(), record);
        assert_eq!(send.with_label("x").to_record().as_send(), Some(SendRecord { label: "x", ..send }));
        assert_eq!(Record::State { time: SimTime(1), entity: 0, state: 0 }.as_send(), None);
    }
}
