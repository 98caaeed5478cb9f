//! Tests of the compact form and of files chosen by extension: random traces round-trip through
//! the binary and gzip forms to the same records as the text form; damaged binary data is
//! rejected with its byte offset; a stale index is refused.

use std::io::Cursor;

use proptest::prelude::*;

use super::read::records;
use super::record::{Record, TraceHeader, TraceSink, TraceValue};
use super::text_tests::{EXAMPLE, read_all};
use super::{
    BinaryTraceReader, BinaryTraceWriter, Trace, TraceError, TraceIndex, create_trace, index_file,
    open_trace, seek_file,
};
use crate::time::SimTime;

fn write_binary(header: &TraceHeader, records: &[Record], block: u64) -> Vec<u8> {
    let mut w = BinaryTraceWriter::new(Vec::new()).with_block_records(block);
    w.header(header).unwrap();
    for r in records {
        w.record(r).unwrap();
    }
    w.finish().unwrap();
    w.into_inner().unwrap()
}

fn read_binary(bytes: &[u8]) -> Result<(TraceHeader, Vec<Record>), TraceError> {
    let mut r = BinaryTraceReader::new(Cursor::new(bytes), "t.htb")?;
    let recs = records(&mut r).collect::<Result<Vec<_>, _>>()?;
    Ok((r.header().clone(), recs))
}

use super::read::TraceRead as _;

fn offset_of(e: TraceError) -> (u64, String) {
    match e {
        TraceError::Binary { offset, message, .. } => (offset, message),
        other => panic!("expected a binary error, got {other}"),
    }
}

#[test]
fn example_is_smaller_in_binary_and_reads_back() {
    let (header, recs) = read_all(EXAMPLE).unwrap();
    let bytes = write_binary(&header, &recs, 4);
    assert!(bytes.len() < EXAMPLE.len(), "{} >= {}", bytes.len(), EXAMPLE.len());
    assert_eq!(read_binary(&bytes).unwrap(), (header, recs));
}

#[test]
fn damaged_binary_is_rejected_at_its_offset() {
    let (header, recs) = read_all(EXAMPLE).unwrap();
    let bytes = write_binary(&header, &recs, 4);
    let mut bad = bytes.clone();
    bad[1] = b'X';
    assert_eq!(offset_of(read_binary(&bad).unwrap_err()).0, 0);
    // Truncated anywhere after the magic: an error, never a panic or a silent short read.
    for cut in 8..bytes.len() {
        let (offset, message) = offset_of(read_binary(&bytes[..cut]).unwrap_err());
        assert!(offset <= cut as u64, "cut {cut}: {offset} {message}");
    }
    // A newer version (first header byte after magic and length).
    let mut newer = bytes.clone();
    newer[9] = 3;
    let (offset, message) = offset_of(read_binary(&newer).unwrap_err());
    assert_eq!(offset, 9);
    assert_eq!(message, "trace format version 3 is not supported (this build reads 1 to 2)");
}

#[test]
fn out_of_range_state_in_binary_is_rejected() {
    let (header, _) = read_all(EXAMPLE).unwrap();
    let one = [Record::State { time: SimTime(3), entity: 1, state: 1 }];
    let mut bytes = write_binary(&header, &one, 4);
    // Block: count=1, len=4, then kind 0, delta 6 (zigzag of 3), entity 1, state 1.
    let tail = bytes.len() - 2 - 4;
    assert_eq!(&bytes[tail..tail + 4], &[0, 6, 1, 1]);
    bytes[tail + 3] = 9;
    let (offset, message) = offset_of(read_binary(&bytes).unwrap_err());
    assert_eq!(offset, tail as u64);
    assert_eq!(message, "state 9 does not exist for entity 1 `p1` (its type Processor has 2)");
}

#[test]
fn files_by_extension_round_trip_and_seek_with_their_sidecar() {
    let dir = tempfile::tempdir().unwrap();
    let (header, mut recs) = read_all(EXAMPLE).unwrap();
    for i in 0..500_u64 {
        recs.push(Record::Param {
            time: SimTime(100 + i * 10),
            entity: (i % 2) as u32,
            param: 0,
            value: TraceValue::Int(i as i64),
        });
    }
    for name in ["t.htrace", "t.htrace.gz", "t.htb"] {
        let path = dir.path().join(name);
        let mut w = create_trace(&path, Some(16)).unwrap();
        w.header(&header).unwrap();
        for r in &recs {
            w.record(r).unwrap();
        }
        w.finish().unwrap();
        assert_eq!(
            w.index().is_some(),
            std::path::Path::new(name).extension().is_none_or(|e| e != "gz"),
            "{name}"
        );
        let mut r = open_trace(&path).unwrap();
        assert_eq!(r.header(), &header);
        let back: Vec<Record> = records(&mut r).collect::<Result<_, _>>().unwrap();
        assert_eq!(back, recs, "{name}");
        let mut seeked = seek_file(&path, None, SimTime(2000)).unwrap();
        let first = seeked.next_record().unwrap().unwrap();
        assert_eq!(first.time(), SimTime(2000), "{name}");
        assert_eq!(records(&mut seeked).count(), 309, "{name}");
    }
    // One scan of a finished file gives the index its writer saved; the whole file loads.
    for name in ["t.htrace", "t.htb"] {
        let path = dir.path().join(name);
        let saved = TraceIndex::load(&TraceIndex::sidecar_path(&path)).unwrap();
        assert_eq!(index_file(&path, saved.every).unwrap(), saved, "{name}");
        assert_eq!(Trace::load(&path).unwrap(), Trace { header: header.clone(), records: recs.clone() });
    }
    assert!(index_file(&dir.path().join("t.htrace.gz"), 16).is_err());
    // A sidecar that no longer matches its file is refused.
    let path = dir.path().join("t.htrace");
    let stale = TraceIndex::load(&TraceIndex::sidecar_path(&path)).unwrap();
    std::fs::write(&path, EXAMPLE).unwrap();
    let err = seek_file(&path, Some(&stale), SimTime(0)).err().unwrap();
    assert!(err.to_string().contains("the index is stale"), "{err}");
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]
    #[test]
    fn binary_round_trip((header, recs) in super::testgen::trace(40), block in 1_u64..10) {
        let bytes = write_binary(&header, &recs, block);
        let (h, r) = read_binary(&bytes).unwrap();
        prop_assert_eq!(h, header);
        prop_assert_eq!(r, recs);
    }
}

#[test]
fn repeated_labels_are_stored_once_per_block_and_evictions_still_decode() {
    let (header, _) = read_all(EXAMPLE).unwrap();
    let send = |i: u64, label: String| Record::Send {
        time: SimTime(i),
        depart: SimTime(i + 1),
        from: 0,
        from_port: 0,
        to: 1,
        to_port: 0,
        arrive: SimTime(i + 5),
        bytes: 8,
        label: label.into(),
    };
    let label = "a fairly long message label".to_string();
    let same: Vec<Record> = (0..100).map(|i| send(i, label.clone())).collect();
    let bytes = write_binary(&header, &same, 4096);
    // Each record: kind, time delta, 4 endpoint numbers, wait before departure, flight, size (1 byte
    // each) and a one-byte string reference, except the first, which defines the label (0, length
    // 27, text): 100 × 10 + 28 = 1028 payload bytes, plus the block's count (1 byte) and length (2).
    let header_only = write_binary(&header, &[], 4096).len();
    assert_eq!(bytes.len() - header_only, 1031);
    assert_eq!(read_binary(&bytes).unwrap().1, same);
    // More distinct labels than cache slots, repeated: collisions redefine strings, which must
    // still decode to the same records.
    let many: Vec<Record> = (0..6000).map(|i| send(i, format!("L{}", i % 1500))).collect();
    assert_eq!(read_binary(&write_binary(&header, &many, 8192)).unwrap().1, many);
}
