//! Tests of the compact form and of files chosen by extension: random traces round-trip through
//! the binary and gzip forms to the same records as the text form; damaged binary data is
//! rejected with its byte offset; a stale index is refused.

use std::io::Cursor;

use proptest::prelude::*;

use super::read::records;
use super::record::{Record, TraceHeader, TraceValue};
use super::sink::TraceSink;
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

#[test]
fn a_trace_replaces_the_file_at_its_path_only_when_it_is_finished_whole() {
    let dir = tempfile::tempdir().unwrap();
    let (header, recs) = read_all(EXAMPLE).unwrap();
    let write = |path: &std::path::Path, records: &[Record]| {
        let mut w = create_trace(path, Some(2)).unwrap();
        w.header(&header).unwrap();
        for r in records {
            w.record(r).unwrap();
        }
        w.finish().unwrap();
        crate::model::atomic::wait_for_removals();
    };
    for name in ["t.htrace", "t.htrace.gz", "t.htb"] {
        let path = dir.path().join(name);
        let sidecar = TraceIndex::sidecar_path(&path);
        write(&path, &recs[..1]);
        let old = std::fs::read(&path).unwrap();
        let old_index = std::fs::read(&sidecar).ok();
        let files = crate::model::atomic::tests::names(dir.path());

        // While a run writes, the old trace is still there; dropped unfinished (the run failed
        // or stopped without finishing its trace), nothing changes.
        let mut w = create_trace(&path, Some(2)).unwrap();
        w.header(&header).unwrap();
        for r in &recs {
            w.record(r).unwrap();
        }
        assert_eq!(std::fs::read(&path).unwrap(), old, "{name}: untouched while written");
        drop(w);
        assert_eq!(crate::model::atomic::tests::names(dir.path()), files, "{name}: no temporary is left");
        assert_eq!(std::fs::read(&path).unwrap(), old, "{name}");

        // A record the writer refuses (an entity not in the header): finishing is refused too,
        // and says which file was kept.
        let mut w = create_trace(&path, Some(2)).unwrap();
        w.header(&header).unwrap();
        w.record(&recs[0]).unwrap();
        assert!(w.record(&Record::State { time: SimTime(5), entity: 99, state: 0 }).is_err());
        let err = w.finish().unwrap_err().to_string();
        assert!(err.contains(name) && err.contains("left as it was"), "{err}");
        drop(w);
        assert_eq!(crate::model::atomic::tests::names(dir.path()), files, "{name}: no temporary is left");
        assert_eq!(std::fs::read(&path).unwrap(), old, "{name}");
        assert_eq!(std::fs::read(&sidecar).ok(), old_index, "{name}: the index stays with its file");

        // Finished whole: the new trace and its index.
        write(&path, &recs);
        assert_eq!(
            Trace::load(&path).unwrap(),
            Trace { header: header.clone(), records: recs.clone() },
            "{name}"
        );
        if name != "t.htrace.gz" {
            let saved = TraceIndex::load(&sidecar).unwrap();
            assert_eq!(index_file(&path, saved.every).unwrap(), saved, "{name}");
        }
        assert_eq!(crate::model::atomic::tests::names(dir.path()), files, "{name}");
    }
}

#[test]
fn a_trace_written_to_a_pipe_goes_through_it_and_leaves_no_index() {
    let dir = tempfile::tempdir().unwrap();
    let (pipe, reader) = crate::model::atomic::tests::pipe_with_reader(dir.path(), "pipe.htrace");
    let (header, recs) = read_all(EXAMPLE).unwrap();
    let mut w = create_trace(&pipe, Some(2)).unwrap();
    w.header(&header).unwrap();
    for r in &recs {
        w.record(r).unwrap();
    }
    w.finish().unwrap();
    drop(w);
    let text = String::from_utf8(reader.join().unwrap()).unwrap();
    assert_eq!(read_all(&text).unwrap(), (header, recs));
    assert_eq!(crate::model::atomic::tests::names(dir.path()), ["pipe.htrace"], "no index beside a pipe");
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]
    #[test]
    fn binary_round_trip(
        (header, recs) in super::testgen::trace(40),
        block in 1_u64..10,
        capacity in 1_usize..300,
    ) {
        let bytes = write_binary(&header, &recs, block);
        let (h, r) = read_binary(&bytes).unwrap();
        prop_assert_eq!(&h, &header);
        prop_assert_eq!(&r, &recs);
        // Through a small buffer: some blocks are decoded in place, others copied out first.
        let mut reader =
            BinaryTraceReader::new(std::io::BufReader::with_capacity(capacity, bytes.as_slice()), "t.htb").unwrap();
        let r = records(&mut reader).collect::<Result<Vec<_>, _>>().unwrap();
        prop_assert_eq!(reader.header(), &header);
        prop_assert_eq!(r, recs);
        // Cut anywhere: an error, through either path.
        let cut = bytes.len() * capacity / 300;
        let mut reader = BinaryTraceReader::new(std::io::BufReader::with_capacity(capacity, &bytes[..cut]), "t.htb");
        if let Ok(reader) = &mut reader {
            prop_assert!(records(reader).collect::<Result<Vec<_>, _>>().is_err());
        }
    }
}

#[test]
fn repeated_labels_are_stored_once_per_block_and_evictions_still_decode() {
    let (header, _) = read_all(EXAMPLE).unwrap();
    let same: Vec<Record> = (0..100).map(|i| send(i, "a fairly long message label")).collect();
    let bytes = write_binary(&header, &same, 4096);
    // Each record: kind, time delta, 4 endpoint numbers, wait before departure, flight, size (1 byte
    // each) and a one-byte string reference, except the first, which defines the label (0, length
    // 27, text): 100 × 10 + 28 = 1028 payload bytes, plus the block's count (1 byte) and length (2).
    let header_only = write_binary(&header, &[], 4096).len();
    assert_eq!(bytes.len() - header_only, 1031);
    assert_eq!(read_binary(&bytes).unwrap().1, same);
    // More distinct labels than cache slots, repeated: collisions redefine strings, which must
    // still decode to the same records.
    let many: Vec<Record> = (0..6000).map(|i| send(i, &format!("L{}", i % 1500))).collect();
    assert_eq!(read_binary(&write_binary(&header, &many, 8192)).unwrap().1, many);
}

/// Sends (and comments sharing their text) drawn from a small pool of labels, so that labels are
/// defined, referenced within a block and met again in later blocks.
fn with_pooled_labels(header: &TraceHeader, recs: Vec<Record>, pool: &[String]) -> Vec<Record> {
    recs.into_iter()
        .enumerate()
        .map(|(i, r)| match r {
            Record::Send { time, depart, from, from_port, to, to_port, arrive, bytes, .. } => Record::Send {
                time,
                depart,
                from,
                from_port,
                to,
                to_port,
                arrive,
                bytes,
                label: pool[i % pool.len()].as_str().into(),
            },
            Record::Comment { time, entity, .. } if header.level <= 1 => {
                Record::Comment { time, entity, text: pool[(i / 2) % pool.len()].clone() }
            }
            other => other,
        })
        .collect()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(100))]
    /// Labels repeated within and across blocks read back equal through the label cache, in the
    /// binary and the text form alike.
    #[test]
    fn pooled_labels_round_trip_through_the_label_cache(
        (header, recs) in super::testgen::full_trace(120),
        pool in prop::collection::vec(super::testgen::name(), 1..4),
        block in 1_u64..6,
    ) {
        let recs = with_pooled_labels(&header, recs, &pool);
        let (h, r) = read_binary(&write_binary(&header, &recs, block)).unwrap();
        prop_assert_eq!(h, header.clone());
        prop_assert_eq!(&r, &recs);
        let text = String::from_utf8(super::text_tests::write_all(&header, &recs)).unwrap();
        let (h, r) = read_all(&text).unwrap();
        prop_assert_eq!(h, header);
        prop_assert_eq!(r, recs);
    }
}

fn send(i: u64, label: &str) -> Record {
    Record::Send {
        time: SimTime(i),
        depart: SimTime(i + 1),
        from: 0,
        from_port: 0,
        to: 1,
        to_port: 0,
        arrive: SimTime(i + 5),
        bytes: 8,
        label: label.into(),
    }
}

fn label_of(r: &Record) -> &std::sync::Arc<str> {
    match r {
        Record::Send { label, .. } => label,
        other => panic!("expected a send, got {other:?}"),
    }
}

#[test]
fn a_label_met_again_in_later_blocks_is_one_shared_string() {
    let (header, _) = read_all(EXAMPLE).unwrap();
    let recs: Vec<Record> =
        (0..2000).map(|i| send(i, ["data r0→r1 1/8", "ack", ""][(i % 3) as usize])).collect();
    let (_, back) = read_binary(&write_binary(&header, &recs, 16)).unwrap();
    assert_eq!(back, recs);
    let text = String::from_utf8(super::text_tests::write_all(&header, &recs)).unwrap();
    let (_, from_text) = read_all(&text).unwrap();
    assert_eq!(from_text, recs);
    for read in [&back, &from_text] {
        for (i, r) in read.iter().enumerate().skip(3) {
            assert!(std::sync::Arc::ptr_eq(label_of(r), label_of(&read[i % 3])), "record {i}");
        }
    }
}

#[test]
fn labels_that_hardly_repeat_read_back_while_the_cache_stands_aside() {
    let (header, _) = read_all(EXAMPLE).unwrap();
    // 20,000 distinct labels (the cache stands aside after a window of misses), then a few that
    // repeat: within a block they share one string whatever the cache does.
    let recs: Vec<Record> = (0..100_000_u64)
        .map(|i| if i < 20_000 { send(i, &format!("m{i}")) } else { send(i, &format!("r{}", i % 7)) })
        .collect();
    let (_, back) = read_binary(&write_binary(&header, &recs, 4096)).unwrap();
    assert_eq!(back, recs);
    let last = back.len() - 1;
    assert!(std::sync::Arc::ptr_eq(label_of(&back[last]), label_of(&back[last - 7])));
}

/// The block of a trace holding one send labelled `label`: its file bytes and the offset of the
/// label's text (after the block's count and length, the record's nine numbers, the string's
/// definition marker and length).
fn one_send(label: &str) -> (Vec<u8>, usize) {
    let (header, _) = read_all(EXAMPLE).unwrap();
    let bytes = write_binary(&header, &[send(0, label)], 4096);
    let at = bytes.windows(label.len()).rposition(|w| w == label.as_bytes()).unwrap();
    (bytes, at)
}

#[test]
fn a_label_that_is_not_utf8_is_rejected_at_its_text() {
    let (mut bytes, at) = one_send("data r0→r1");
    bytes[at + 2] = 0xff;
    let (offset, message) = offset_of(read_binary(&bytes).unwrap_err());
    assert_eq!((offset, message.as_str()), (at as u64, "a label is not valid UTF-8"));
    // The same damage in a label the cache has already seen valid: still refused.
    let (header, _) = read_all(EXAMPLE).unwrap();
    let recs = [send(0, "data r0→r1"), send(1, "data r0→r1")];
    let mut bytes = write_binary(&header, &recs, 1);
    let label = "data r0→r1".as_bytes();
    let at = bytes.windows(label.len()).rposition(|w| w == label).unwrap();
    bytes[at + 2] = 0xff;
    let (offset, message) = offset_of(read_binary(&bytes).unwrap_err());
    assert_eq!((offset, message.as_str()), (at as u64, "a label is not valid UTF-8"));
}

#[test]
fn a_label_referring_to_an_undefined_string_is_rejected_where_it_refers() {
    let (mut bytes, at) = one_send("x");
    // Replace the definition (0, length 1, "x") by a reference to string 5, keeping the length.
    bytes[at - 2] = 6;
    bytes[at - 1] = 0;
    let (offset, message) = offset_of(read_binary(&bytes).unwrap_err());
    assert_eq!((offset, message.as_str()), (at as u64 - 2, "a label: string 5 is not defined in this block"));
}

#[test]
fn numbers_cut_at_the_end_of_a_block_are_rejected_not_misread() {
    let (header, _) = read_all(EXAMPLE).unwrap();
    // A two-byte size (300) as the block's last number before the label: shorten the block by
    // the label so that the size's second byte is the last one.
    let mut r = send(0, "");
    if let Record::Send { bytes, .. } = &mut r {
        *bytes = 300;
    }
    let bytes = write_binary(&header, &[r], 4096);
    // Block: count 1, length 12, then kind, delta, from, port, to, port, wait, flight, size (2
    // bytes), label (0, 0), then the end marker (0, 1).
    let block = bytes.len() - 2 - 12;
    assert_eq!(&bytes[block - 2..block], &[1, 12]);
    for payload in 9..12 {
        let mut cut = bytes[..block - 1].to_vec();
        cut.push(payload as u8);
        cut.extend_from_slice(&bytes[block..block + payload]);
        cut.extend_from_slice(&[0, 1]);
        let (offset, message) = offset_of(read_binary(&cut).unwrap_err());
        assert!(
            offset >= block as u64 && offset <= (block + payload) as u64,
            "{payload}: {offset} {message}"
        );
    }
}

#[test]
fn entities_of_one_type_share_their_name_lists_in_both_forms() {
    // p0 and p1 are both of type Processor in the example; fabric/l0 is a Link.
    let (text_header, records) = read_all(EXAMPLE).unwrap();
    let (binary_header, _) = read_binary(&write_binary(&text_header, &records, 4)).unwrap();
    for header in [&text_header, &binary_header] {
        let [p0, p1, link] = &header.entities[..] else { panic!("three entities") };
        assert!(std::sync::Arc::ptr_eq(&p0.states, &p1.states));
        assert!(std::sync::Arc::ptr_eq(&p0.params, &p1.params));
        assert!(std::sync::Arc::ptr_eq(&p0.ports, &p1.ports));
        assert_eq!(*p1.states, ["IDLE", "BUSY"]);
        assert!(!std::sync::Arc::ptr_eq(&p0.ports, &link.ports));
        assert_eq!(*link.ports, ["a", "b"]);
    }
    assert_eq!(binary_header, text_header);
}
