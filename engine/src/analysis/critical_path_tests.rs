//! The critical path of runs written by hand, whose path is known step by step, and properties
//! every path keeps on random traces: contiguous segments from zero to the makespan.

use std::sync::Arc;

use proptest::prelude::*;

use super::critical_path::{CriticalPath, CriticalPathError, Step, critical_path};
use super::critical_path_blame::CriticalPathReport;
use super::phases::find_phases_choosing_window;
use crate::time::SimTime;
use crate::trace::{EntityInfo, Record, Trace, TraceHeader};

const STATES: [&str; 6] = ["IDLE", "COMPUTE", "SEND", "RECV", "WAIT", "DONE"];
const IDLE: u16 = 0;
const COMPUTE: u16 = 1;
const SEND: u16 = 2;
const RECV: u16 = 3;
const DONE: u16 = 5;

fn processor(path: &str) -> EntityInfo {
    EntityInfo {
        path: path.into(),
        type_name: "Processor".into(),
        states: STATES.iter().map(|s| (*s).to_string()).collect(),
        ports: Arc::from(["net".to_string()]),
        ..Default::default()
    }
}

fn router(path: &str, ports: &[&str]) -> EntityInfo {
    EntityInfo {
        path: path.into(),
        type_name: "Router".into(),
        ports: ports.iter().map(|p| (*p).to_string()).collect(),
        ..Default::default()
    }
}

fn header(entities: Vec<EntityInfo>, level: u8) -> TraceHeader {
    TraceHeader { version: 2, project: "t".into(), level, entities, ..Default::default() }
}

fn state(time: u64, entity: u32, state: u16) -> Record {
    Record::State { time: SimTime(time), entity, state }
}

/// A hop issued at `time`, leaving at `depart`, arriving at `arrive`.
fn hop(time: u64, depart: u64, from: (u32, u16), to: (u32, u16), arrive: u64, label: &str) -> Record {
    Record::Send {
        time: SimTime(time),
        depart: SimTime(depart),
        from: from.0,
        from_port: from.1,
        to: to.0,
        to_port: to.1,
        arrive: SimTime(arrive),
        bytes: 0,
        label: label.into(),
    }
}

/// Records sorted into time order, ties kept in the order given (as the kernel emits them).
fn sorted(mut records: Vec<Record>) -> Vec<Record> {
    records.sort_by_key(Record::time);
    records
}

/// p0 (entity 0) → router r (entity 1) → p1 (entity 2).
/// - p0 computes 0–100, pays a send overhead 100–110 and injects 50 B: on the link 110–160.
/// - r holds it 160–170 (routing), the packet waits for r's busy output 170–190 and crosses to p1
///   190–240; r's credit back to p0 (175) must not count.
/// - p1 computed 0–50 while an earlier 8-byte packet reached it (40: not waited for), waits in RECV
///   from 50, takes the packet in 240–270 (receive overhead), computes 270–300 and is done.
fn one_message() -> Trace {
    let (p0, r, p1) = ((0, 0), (1, 0), (2, 0));
    let r_out = (1, 1);
    let records = sorted(vec![
        state(0, 0, IDLE),
        state(0, 2, IDLE),
        state(0, 0, COMPUTE),
        state(0, 2, COMPUTE),
        hop(0, 0, p0, r, 20, "data r0>r1 1/1 8B"),
        hop(25, 25, r_out, p1, 40, "data r0>r1 1/1 8B"),
        state(50, 2, RECV),
        state(100, 0, SEND),
        hop(110, 110, p0, r, 160, "data r0>r1 1/1 50B"),
        state(110, 0, DONE),
        hop(170, 190, r_out, p1, 240, "data r0>r1 1/1 50B"),
        hop(170, 170, r, p0, 175, "credit 1"),
        state(270, 2, COMPUTE),
        state(300, 2, DONE),
    ]);
    Trace { header: header(vec![processor("p0"), router("r", &["p0", "p1"]), processor("p1")], 2), records }
}

fn spans(path: &CriticalPath) -> Vec<(u64, u64, Step)> {
    path.segments.iter().map(|s| (s.start.0, s.end.0, s.step)).collect()
}

fn index_of(trace: &Trace, time: u64, label: &str) -> usize {
    trace
        .records
        .iter()
        .position(|r| matches!(r, Record::Send { time: t, label: l, .. } if t.0 == time && &**l == label))
        .unwrap()
}

#[test]
fn one_message_through_a_router_is_walked_step_by_step() {
    let trace = one_message();
    let path = critical_path(&trace).unwrap();
    let injected = index_of(&trace, 110, "data r0>r1 1/1 50B");
    let forwarded = index_of(&trace, 170, "data r0>r1 1/1 50B");
    let local = |entity, state, after| Step::Local { entity, state: Some(state), after };
    assert_eq!(
        spans(&path),
        [
            (0, 100, local(0, COMPUTE, None)),
            (100, 110, local(0, SEND, None)),
            (110, 160, Step::Transit { from: (0, 0), to: (1, 0), record: injected }),
            (160, 170, Step::Forward { entity: 1, record: forwarded }),
            (170, 190, Step::Queue { from: (1, 1), to: (2, 0), record: forwarded }),
            (190, 240, Step::Transit { from: (1, 1), to: (2, 0), record: forwarded }),
            (240, 270, local(2, RECV, Some(forwarded))),
            (270, 300, local(2, COMPUTE, None)),
        ]
    );
    assert_eq!((path.makespan, path.length()), (SimTime(300), SimTime(300)));
    assert_eq!(path.longest().map(|s| s.start), Some(SimTime(0)));

    let report = CriticalPathReport::of(&trace, &path, &find_phases_choosing_window(&trace));
    let rows = |rows: &[super::BlameRow]| -> Vec<(String, u64, Option<u64>)> {
        rows.iter().map(|r| (r.name.clone(), r.time.0, r.of_which.map(|t| t.0))).collect()
    };
    assert_eq!(rows(&report.ranks), [("p0".into(), 110, Some(100)), ("p1".into(), 60, Some(30))]);
    assert_eq!(
        rows(&report.links),
        [("r.p1 -> p1.net".into(), 70, Some(20)), ("p0.net -> r.p0".into(), 50, Some(0))]
    );
    assert_eq!(rows(&report.routers), [("r".into(), 10, None)]);
    let t = report.totals;
    assert_eq!((t.ranks.0, t.computing.0, t.links.0, t.queueing.0, t.routers.0), (170, 130, 120, 20, 10));
    assert_eq!(report.phases.iter().map(|r| r.time.0).sum::<u64>(), 300);
    assert_eq!(report.segments[6].what, "p1 RECV after data r0>r1 1/1 50B from r");
    let text = report.to_string();
    assert!(text.starts_with("critical path 300 ps (makespan 300 ps), 8 segments\n"), "{text}");
    assert!(text.contains("  r.p1 -> p1.net  "), "{text}");
}

/// A message that arrived while the receiver computed is not on the path; the receiver's
/// computation is.
#[test]
fn a_message_that_waited_for_its_receiver_leaves_the_path_on_the_receiver() {
    let records = sorted(vec![
        state(0, 0, COMPUTE),
        state(0, 1, COMPUTE),
        hop(10, 10, (0, 0), (1, 0), 30, "data r0>r1 1/1 8B"),
        state(10, 0, DONE),
        state(80, 1, RECV),
        state(95, 1, DONE),
    ]);
    let trace = Trace { header: header(vec![processor("p0"), processor("p1")], 1), records };
    let path = critical_path(&trace).unwrap();
    let local = |state| Step::Local { entity: 1, state: Some(state), after: None };
    assert_eq!(spans(&path), [(0, 80, local(COMPUTE)), (80, 95, local(RECV))]);
}

/// Cut-through: the router forwards the head before the tail has arrived. The earlier hop is cut
/// where the later one starts, so the path stays contiguous.
#[test]
fn cut_through_overlap_is_cut_at_the_next_hop() {
    let records = sorted(vec![
        state(0, 0, SEND),
        state(0, 2, RECV),
        hop(0, 0, (0, 0), (1, 0), 100, "data r0>r1 1/1 64B"),
        state(0, 0, DONE),
        hop(30, 30, (1, 1), (2, 0), 130, "data r0>r1 1/1 64B"),
        state(130, 2, DONE),
    ]);
    let trace = Trace {
        header: header(vec![processor("p0"), router("r", &["a", "b"]), processor("p1")], 2),
        records,
    };
    let path = critical_path(&trace).unwrap();
    let kinds: Vec<(u64, u64)> = path.segments.iter().map(|s| (s.start.0, s.end.0)).collect();
    assert_eq!(kinds, [(0, 30), (30, 130)]);
    assert!(matches!(path.segments[0].step, Step::Transit { from: (0, 0), .. }));
}

#[test]
fn traces_without_messages_are_refused_with_the_level_to_use() {
    for level in [3, 4, 5] {
        let trace =
            Trace { header: header(vec![processor("p0")], level), records: vec![state(0, 0, COMPUTE)] };
        let err = critical_path(&trace).unwrap_err();
        assert_eq!(err, CriticalPathError::LevelTooHigh { level });
        assert!(err.to_string().contains("trace level 2 or 1"), "{err}");
    }
}

fn assert_covers(path: &CriticalPath) -> Result<(), TestCaseError> {
    prop_assert_eq!(path.length(), path.makespan);
    let mut at = SimTime::ZERO;
    for s in &path.segments {
        prop_assert_eq!(s.start, at, "segments are contiguous");
        prop_assert!(s.end > s.start, "no empty segment");
        at = s.end;
    }
    prop_assert_eq!(at, path.makespan);
    Ok(())
}

/// Packets between ranks 0..4 through one router (entity 4, a port per rank), with random
/// delays: waits for the link, routing, cut-through overlap, and random states on the ranks.
fn packet_trace() -> impl Strategy<Value = Trace> {
    let packet = (0u32..4, 0u32..4, 0u64..1000, 0u64..50, 1u64..100, 0u64..60, 0u64..50, 1u64..100);
    let states = (0u32..4, 0u64..1500, 0u16..6);
    (prop::collection::vec(packet, 0..12), prop::collection::vec(states, 0..20)).prop_map(
        |(packets, states)| {
            let mut records = Vec::new();
            for (i, (src, dst, t, q1, w1, fwd, q2, w2)) in packets.into_iter().enumerate() {
                let label = format!("data r{src}>r{dst} 1/1 {i}B");
                let arrive = t + q1 + w1;
                records.push(hop(t, t + q1, (src, 0), (4, src as u16), arrive, &label));
                // `fwd` may be shorter than the transit: cut-through forwards before the tail is in.
                let out = t + q1 + fwd;
                records.push(hop(
                    out,
                    out + q2,
                    (4, dst as u16),
                    (dst, 0),
                    (out + q2 + w2).max(arrive),
                    &label,
                ));
            }
            records.extend(states.into_iter().map(|(e, t, s)| state(t, e, s)));
            let mut entities: Vec<EntityInfo> = (0..4).map(|r| processor(&format!("p{r}"))).collect();
            entities.push(router("r", &["p0", "p1", "p2", "p3"]));
            Trace { header: header(entities, 2), records: sorted(records) }
        },
    )
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    #[test]
    fn a_path_covers_zero_to_the_makespan_on_packet_traces(trace in packet_trace()) {
        let path = critical_path(&trace).unwrap();
        assert_covers(&path)?;
        let report = CriticalPathReport::of(&trace, &path, &find_phases_choosing_window(&trace));
        let t = report.totals;
        prop_assert_eq!(t.ranks + t.links + t.routers, path.makespan);
        prop_assert_eq!(report.phases.iter().map(|r| r.time.0).sum::<u64>(), path.makespan.0);
    }

    #[test]
    fn a_path_covers_zero_to_the_makespan_on_any_trace((header, records) in crate::trace::testgen::full_trace(40)) {
        let path = critical_path(&Trace { header, records }).unwrap();
        assert_covers(&path)?;
    }
}
