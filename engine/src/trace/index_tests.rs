//! The time index: checkpoints, the sidecar text, and seeking in both trace forms against a
//! linear scan.

use std::io::Cursor;

use proptest::prelude::*;

use super::*;
use crate::trace::read::records;
use crate::trace::record::{Record, TraceHeader};
use crate::trace::sink::TraceSink;
use crate::trace::testgen;
use crate::trace::{BinaryTraceReader, BinaryTraceWriter, TextTraceReader, TextTraceWriter};

/// Write `header` and `records` through `w`, which indexes as it writes.
fn write_all(w: &mut impl TraceSink, header: &TraceHeader, records: &[Record]) {
    w.header(header).unwrap();
    for r in records {
        w.record(r).unwrap();
    }
    w.finish().unwrap();
}

fn write_text(header: &TraceHeader, records: &[Record], every: u64) -> (Vec<u8>, TraceIndex) {
    let mut w = TextTraceWriter::new(Vec::new()).with_index(every);
    write_all(&mut w, header, records);
    let index = w.index().unwrap().clone();
    (w.into_inner().unwrap(), index)
}

fn write_binary(header: &TraceHeader, records: &[Record], block: u64) -> (Vec<u8>, TraceIndex) {
    let mut w = BinaryTraceWriter::new(Vec::new()).with_block_records(block);
    write_all(&mut w, header, records);
    let index = w.index().unwrap().clone();
    (w.into_inner().unwrap(), index)
}

/// What a linear scan yields from the first record at or after `time`.
fn suffix(records: &[Record], time: SimTime) -> Vec<Record> {
    let first = records.iter().position(|r| r.time() >= time).unwrap_or(records.len());
    records[first..].to_vec()
}

fn collect<R: crate::trace::TraceRead>(mut r: R) -> Vec<Record> {
    records(&mut r).collect::<Result<_, _>>().unwrap()
}

#[test]
fn checkpoints_hold_the_running_maximum_time() {
    let mut b = IndexBuilder::new(2);
    for (i, t) in [5_u64, 9, 7, 8, 8, 20].into_iter().enumerate() {
        let at = RestartPoint { offset: 100 + i as u64, ordinal: i as u64 };
        b.observe(at, i as u64, SimTime(t));
    }
    let index = b.finish(6, 200);
    let got: Vec<(u64, u64, u64)> = index.entries.iter().map(|e| (e.time.0, e.offset, e.ordinal)).collect();
    assert_eq!(got, [(5, 100, 0), (9, 102, 2), (9, 104, 4)]);
    // Time 9 may be reached no later than ordinal 1, which only checkpoint 0 precedes.
    assert_eq!(index.checkpoint(SimTime(9)).unwrap().ordinal, 0);
    assert_eq!(index.checkpoint(SimTime(10)).unwrap().ordinal, 4);
    assert_eq!(index.checkpoint(SimTime(0)).unwrap().ordinal, 0);
}

#[test]
fn sidecar_text_round_trips_and_rejects_garbage() {
    let index = TraceIndex {
        every: 3,
        records: 7,
        file_bytes: 99,
        entries: vec![
            IndexEntry { time: SimTime(0), offset: 10, ordinal: 0 },
            IndexEntry { time: SimTime(40), offset: 50, ordinal: 3 },
        ],
    };
    let mut out = Vec::new();
    index.write_to(&mut out).unwrap();
    assert_eq!(TraceIndex::read_from(&out[..], "t.idx").unwrap(), index);
    let text = String::from_utf8(out).unwrap().replace("40 50 3", "40 50 0");
    let err = TraceIndex::read_from(text.as_bytes(), "t.idx").unwrap_err();
    assert_eq!(err.line(), Some(6));
    let err = TraceIndex::read_from(&b"$hase-trace-index 1\nevery 3\n"[..], "t.idx").unwrap_err();
    assert_eq!(err.to_string(), "t.idx: the index is incomplete");
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(100))]
    #[test]
    fn seeking_yields_the_linear_scan_suffix(
        (header, recs) in testgen::trace(60),
        every in 1_u64..8,
        probes in prop::collection::vec(any::<prop::sample::Index>(), 1..6),
    ) {
        let (text, text_index) = write_text(&header, &recs, every);
        let (binary, binary_index) = write_binary(&header, &recs, every);
        let mut times: Vec<SimTime> = recs.iter().map(Record::time).collect();
        times.extend([SimTime(0), SimTime(u64::MAX)]);
        for probe in probes {
            let base = *probe.get(&times);
            for time in [base, base.saturating_add(SimTime(1)), base.saturating_sub(SimTime(1))] {
                let expected = suffix(&recs, time);
                let reader = TextTraceReader::new(Cursor::new(&text), "t").unwrap();
                prop_assert_eq!(&collect(text_index.seek(reader, time).unwrap()), &expected);
                let reader = BinaryTraceReader::new(Cursor::new(&binary), "t").unwrap();
                prop_assert_eq!(&collect(binary_index.seek(reader, time).unwrap()), &expected);
            }
        }
        // One scan of the file builds the same index as the writer did.
        let mut reader = TextTraceReader::new(Cursor::new(&text), "t").unwrap();
        prop_assert_eq!(&TraceIndex::scan(&mut reader, every, text.len() as u64).unwrap(), &text_index);
        let mut reader = BinaryTraceReader::new(Cursor::new(&binary), "t").unwrap();
        prop_assert_eq!(&TraceIndex::scan(&mut reader, every, binary.len() as u64).unwrap(), &binary_index);
    }
}
