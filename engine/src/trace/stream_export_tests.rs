//! OTF2, VCD and FST exports of long traces made on the fly: what the writers hold stays bounded by
//! the messages in flight (not the trace's length), an OTF2 location whose events fill several
//! chunks is read back whole by `otf2-print` with the events the trace implies, a VCD with every
//! kind of signal survives `vcd2fst` and a parser round trip, and an FST of several sections, each
//! ended at its size bound, reads back through `fst2vcd` as the VCD of the same trace.

use super::fst::{FST_SECTION_BYTES, export_fst};
use super::fst_check::{check_fst_against_vcd, fst2vcd};
use super::otf2::{export_otf2_records, otf2_anchor, otf2_event_counts};
use super::otf2_check::check_otf2;
use super::record::{EntityInfo, LinkInfo, Record, TraceHeader, TraceValue};
use super::vcd::export_vcd;
use super::vcd_check::{check_vcd_round_trip, check_vcd2fst};
use crate::time::SimTime;

/// Eight entities with a user state and a collective one, a live value, and a link from each
/// entity's port 0 to entity 0.
fn header() -> TraceHeader {
    let entity = |i: u32| EntityInfo {
        path: format!("fabric/e{i}"),
        type_name: "Node".into(),
        states: vec!["IDLE".into(), "ALLREDUCE".into()].into(),
        params: vec!["queue".into()].into(),
        ports: (0..8).map(|p| format!("p{p}")).collect::<Vec<_>>().into(),
        group: None,
    };
    TraceHeader {
        version: 2,
        project: "long".into(),
        level: 2,
        entities: (0..8).map(entity).collect(),
        links: (1..8).map(|i| LinkInfo { a: (i, 0), b: (0, i as u16) }).collect(),
        ..Default::default()
    }
}

/// Record `i` of a long trace: state changes, integer and real live values, and messages to
/// entity 0 (half a step in flight), one every 1000 ps.
fn long_record(i: u64) -> Record {
    let time = SimTime(i * 1000);
    let entity = 1 + (i % 7) as u32;
    match i % 6 {
        0 => Record::State { time, entity, state: ((i / 6) % 2) as u16 },
        1 => Record::Param { time, entity, param: 0, value: TraceValue::Int(i as i64) },
        2 => Record::Param { time, entity, param: 0, value: TraceValue::Float(i as f64 / 8.0) },
        _ => Record::Send {
            time,
            depart: time + SimTime(100),
            from: entity,
            from_port: 0,
            to: 0,
            to_port: entity as u16,
            arrive: time + SimTime(600),
            bytes: 64 + i,
            label: "".into(),
        },
    }
}

#[test]
fn a_long_trace_exports_to_otf2_in_several_chunks_that_otf2_print_reads() {
    let header = header();
    let records: Vec<Record> = (0..300_000).map(long_record).collect();
    let dir = tempfile::tempdir().unwrap();
    let anchor = otf2_anchor(&dir.path().join("long.otf2"));
    let stats =
        export_otf2_records::<std::io::Error>(&header, records.iter().cloned().map(Ok), &anchor).unwrap();
    // One receive at a time is in flight: held state does not grow with the trace.
    assert!(stats.max_in_flight <= 1, "{stats:?}");
    // Entity 0 receives half the records: its events span three 1 MiB chunks or more.
    let receiver = std::fs::metadata(dir.path().join("long/0.evt")).unwrap().len();
    assert!(receiver > 2 << 20, "location 0 holds {receiver} bytes");
    let expected = otf2_event_counts(&header, &records);
    let written: std::collections::BTreeMap<String, u64> =
        stats.events.iter().map(|(k, v)| ((*k).to_string(), *v)).collect();
    assert_eq!(written, expected);
    assert_eq!(check_otf2(&anchor).unwrap(), expected);
}

#[test]
fn a_long_trace_exports_to_vcd_with_bounded_state_and_reads_back() {
    let header = header();
    // Long: only the held state is checked (the output is dropped).
    let stats =
        export_vcd::<std::io::Error>(&header, (0..1_000_000).map(long_record).map(Ok), std::io::sink())
            .unwrap();
    assert!(stats.max_pending_edges <= 2, "{stats:?}");
    assert_eq!(stats.signals, 8 * 2 + 14, "a state and a value per entity, a wire per link direction");
    // Shorter: parsed back and converted.
    let records: Vec<Record> = (0..20_000).map(long_record).collect();
    let mut text = Vec::new();
    export_vcd::<std::io::Error>(&header, records.iter().cloned().map(Ok), &mut text).unwrap();
    let text = String::from_utf8(text).unwrap();
    let changing = check_vcd_round_trip(&text, &header, &records).unwrap();
    assert_eq!(changing, 8 + 7 + 14, "every state and wire (from its start value), the senders' values");
    let dir = tempfile::tempdir().unwrap();
    let vcd = dir.path().join("long.vcd");
    std::fs::write(&vcd, &text).unwrap();
    check_vcd2fst(&vcd).unwrap();
}

#[test]
fn a_long_trace_exports_to_fst_in_bounded_sections_that_read_back_as_its_vcd() {
    let header = header();
    let records = || (0..1_500_000).map(long_record).map(Ok::<_, super::exporter::ExportFailure>);
    let dir = tempfile::tempdir().unwrap();
    let fst = dir.path().join("long.fst");
    let file = std::io::BufWriter::new(std::fs::File::create(&fst).unwrap());
    let stats = export_fst(&header, records(), file).unwrap();
    assert!(stats.sections >= 2, "{stats:?}");
    // A section ends at the first timestamp after it reaches its bound: it overshoots by one
    // timestamp's changes at most.
    assert!(stats.max_section_bytes < FST_SECTION_BYTES + 4096, "{stats:?}");
    assert!(stats.waves.max_pending_edges <= 2, "{stats:?}");
    let mut vcd = Vec::new();
    let vcd_stats = export_vcd(&header, records(), &mut vcd).unwrap();
    assert_eq!(stats.waves, vcd_stats, "the same changes go to both formats");
    let vcd = String::from_utf8(vcd).unwrap();
    let changing = check_fst_against_vcd(&fst2vcd(&fst).unwrap(), &vcd, &header).unwrap();
    assert_eq!(changing, 8 + 7 + 14, "every state and wire, the senders' values");
}
