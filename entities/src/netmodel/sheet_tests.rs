//! The data-sheet network level on hand-built flat models (processors in sheet mode around one
//! `SheetModel`), against times worked out by hand from the sheets' equations.

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex};

use hase_engine::elaborate::{Endpoint, FlatEntity, FlatLink, FlatModel};
use hase_engine::model::{Direction, ParamValue, StreamSource, Workload};
use hase_engine::stats::RunStats;
use hase_engine::time::SimTime;
use hase_engine::trace::{MemorySink, Record, TraceLevel, TraceValue};
use hase_engine::{Behaviour, RunControl, RunOutcome, SimConfig, Simulation};

use super::SheetModel;
use crate::catalogue::{NETWORK_MODEL, NETWORK_MODEL_STATES, PROCESSOR, PROCESSOR_STATES, builtin_registry};
use crate::factory::{BuildInputs, build_behaviours};
use crate::message::NetMsg;
use crate::mpi::op::{Collective, CollectiveKind, Op, Source, TagSel, Work};
use crate::netmodel::datasheet::{self, Estimate};
use crate::processor::action::CpuModel;
use crate::processor::mpi::MpiLimits;
use crate::processor::sheet::SheetTiming;
use crate::processor::{ProcessorBehaviour, ProcessorConfig};
use crate::store::NetBehaviours;
use crate::workload::program::OpList;

const US: u64 = 1_000_000;

fn entity(path: &str, behaviour: &str, ports: &[&str], states: &[&str]) -> FlatEntity {
    FlatEntity::new(path, behaviour, ports.iter().copied(), "packet", states)
}

/// Processors `p0…` (entities 0…n−1), each linked by its `net` port to port `p[i]` of the network
/// model `fabric` (entity n) over a link of `latency` and 1 GB/s.
fn star(n: usize, latency: SimTime, fabric_params: &[(&str, &str)]) -> FlatModel {
    let port_names: Vec<String> = (0..n).map(|i| format!("p[{i}]")).collect();
    let port_refs: Vec<&str> = port_names.iter().map(String::as_str).collect();
    let mut entities: Vec<FlatEntity> =
        (0..n).map(|i| entity(&format!("p{i}"), PROCESSOR, &["net"], &PROCESSOR_STATES)).collect();
    let mut fabric = entity("fabric", NETWORK_MODEL, &port_refs, &NETWORK_MODEL_STATES);
    for (k, v) in fabric_params {
        fabric.params.insert(k, ParamValue::Text((*v).to_string()));
    }
    entities.push(fabric);
    let mut links = Vec::new();
    for i in 0..n {
        entities[i].set_link(0, Some(i as u32));
        entities[n].set_link(i as u16, Some(i as u32));
        links.push(FlatLink {
            ends: [Endpoint { entity: i as u32, port: 0 }, Endpoint { entity: n as u32, port: i as u16 }],
            latency,
            bandwidth_bytes_per_s: 1_000_000_000,
            forward: true,
            backward: true,
        });
    }
    FlatModel { project: "sheet".into(), entities, links, groups: vec![], scopes: vec![] }
}

fn timing(sheet: &str, estimate: Estimate) -> SheetTiming {
    SheetTiming::new(Arc::new(datasheet::builtin(sheet).expect("built-in sheet")), estimate)
}

/// A processor in sheet mode. Its send/receive overheads are 500 ns and must not show: the sheet's
/// times already include them.
fn processor(rank: u32, size: u32, timing: &SheetTiming, ops: Vec<Op>) -> Box<dyn Behaviour<NetMsg>> {
    Box::new(ProcessorBehaviour::new(ProcessorConfig {
        rank,
        size,
        tx: 0,
        rx: 0,
        cpu: CpuModel::for_tests(SimTime::from_ns(500)),
        recv_overhead: SimTime::from_ns(500),
        limits: MpiLimits::new(4096, 1000),
        nic_sharing: crate::processor::outbox::NicSharing::InTurn,
        route_latency: None,
        algorithms: BTreeMap::new(),
        downstream_credits: None,
        sheet: Some(timing.clone()),
        program: Box::new(OpList::new(ops)),
        addresses: None,
        peers: None,
    }))
}

/// Run `programs` (one per rank) on a star of links of `latency` around a sheet model.
fn run_traced(
    timing: &SheetTiming,
    latency: SimTime,
    programs: Vec<Vec<Op>>,
) -> (RunOutcome, RunStats, Vec<Record>) {
    let n = programs.len();
    let size = n as u32;
    let mut behaviours: Vec<Box<dyn Behaviour<NetMsg>>> =
        programs.into_iter().enumerate().map(|(r, ops)| processor(r as u32, size, timing, ops)).collect();
    let rank_port = (0..n).map(|i| Some(i as u16)).collect();
    behaviours.push(Box::new(SheetModel::new(
        timing.sheet.clone(),
        timing.estimate,
        size,
        rank_port,
        vec![latency; n],
    )));
    let sink = Arc::new(Mutex::new(MemorySink::default()));
    let config = SimConfig {
        seed: 1,
        level: TraceLevel::COMMENTS,
        sink: Some(Box::new(sink.clone())),
        live_values: true,
    };
    let mut sim = Simulation::new(Arc::new(star(n, latency, &[])), behaviours, config).expect("model builds");
    let outcome = sim.run(RunControl::default());
    let report = sim.finish(outcome.clone());
    let records = sink.lock().map(|s| s.records.clone()).unwrap_or_default();
    (outcome, report.stats, records)
}

fn run(timing: &SheetTiming, latency: SimTime, programs: Vec<Vec<Op>>) -> (RunOutcome, RunStats) {
    let (outcome, stats, _) = run_traced(timing, latency, programs);
    (outcome, stats)
}

fn state_ps(stats: &RunStats, path: &str, state: &str) -> u64 {
    stats.entities[path].state_time_ps[state]
}

/// µs (possibly fractional) to whole picoseconds, as the sheets round.
fn ps(us: f64) -> u64 {
    (us * 1e6).round() as u64
}

fn send(dst: u32, bytes: u64) -> Op {
    Op::Send { dst, bytes, tag: 0 }
}

fn recv(src: u32) -> Op {
    Op::Recv { src: Source::Rank(src), tag: TagSel::Any }
}

fn compute_us(us: u64) -> Op {
    Op::Compute(Work::Time(SimTime::from_us(us)))
}

fn collective(kind: CollectiveKind, root: u32, bytes: u64) -> Op {
    Op::Collective(Collective { kind, root, bytes, algorithm: None })
}

// Cray T3D, d = 64 B = 8 elements (small fits), in µs:
//   send = 30 + 0·8 = 30;   recv = 60 + 0.7·8 = 65.6;   recvmin = 30 + 0.9·8 = 37.2
//   isend1 = 30 + 0.2·8 = 31.6;   isend2 = 10;   irecv1 = 30;   irecv2 = 40

#[test]
fn ping_pong_round_trip_is_twice_the_receive_time() {
    // r1's receive (posted at 0) completes at max(0 + 37.2, 0 + 65.6) = 65.6; it replies at once and
    // stays in SEND for 30. r0 sends for 30, then receives: max(30 + 37.2, 65.6 + 65.6) = 131.2.
    // The 1 µs links are compensated by the model, and the 500 ns overheads are not added.
    let t3d = timing("cray_t3d", Estimate::Avg);
    let programs = vec![vec![send(1, 64), recv(1)], vec![recv(0), send(0, 64)]];
    let (outcome, stats) = run(&t3d, SimTime::from_us(1), programs);
    assert_eq!(outcome, RunOutcome::Completed);
    assert_eq!(stats.makespan_ps, ps(131.2));
    assert_eq!(state_ps(&stats, "p0", "SEND"), ps(30.0));
    assert_eq!(state_ps(&stats, "p0", "RECV"), ps(101.2));
    assert_eq!(state_ps(&stats, "p1", "RECV"), ps(65.6));
    assert_eq!(state_ps(&stats, "p1", "SEND"), ps(30.0));
    assert_eq!(state_ps(&stats, "p1", "DONE"), ps(131.2 - 95.6));
}

#[test]
fn a_receive_posted_long_after_the_send_costs_recvmin() {
    // max(200 + 37.2, 0 + 65.6) = 237.2.
    let t3d = timing("cray_t3d", Estimate::Avg);
    let programs = vec![vec![send(1, 64)], vec![compute_us(200), recv(0)]];
    let (outcome, stats) = run(&t3d, SimTime::from_us(1), programs);
    assert_eq!(outcome, RunOutcome::Completed);
    assert_eq!(stats.makespan_ps, ps(237.2));
    assert_eq!(state_ps(&stats, "p1", "RECV"), ps(37.2));
}

#[test]
fn a_late_sender_delays_the_receiver_by_the_difference() {
    // max(0 + 37.2, 100 + 65.6) = 165.6: RECV from 0 to 165.6.
    let t3d = timing("cray_t3d", Estimate::Avg);
    let programs = vec![vec![compute_us(100), send(1, 64)], vec![recv(0)]];
    let (outcome, stats) = run(&t3d, SimTime::ZERO, programs);
    assert_eq!(outcome, RunOutcome::Completed);
    assert_eq!(stats.makespan_ps, ps(165.6));
    assert_eq!(state_ps(&stats, "p1", "RECV"), ps(165.6));
}

#[test]
fn outer_latency_longer_than_the_sheet_time_delays_delivery() {
    // Links of 50 µs: the message cannot arrive before 0 + 50 + 50 = 100 > 65.6, so the receive
    // completes at max(37.2, 65.6, 100) = 100.
    let t3d = timing("cray_t3d", Estimate::Avg);
    let programs = vec![vec![send(1, 64)], vec![recv(0)]];
    let (outcome, stats) = run(&t3d, SimTime::from_us(50), programs);
    assert_eq!(outcome, RunOutcome::Completed);
    assert_eq!(stats.makespan_ps, ps(100.0));
}

#[test]
fn non_blocking_calls_cost_their_post_and_wait_times() {
    // r0: ISEND posts for isend1 = 31.6 (SEND), completes at 31.6 + 10 = 41.6 (WAIT 10).
    // r1: IRECV posts for irecv1 = 30 (RECV); completes at max(0 + 37.2, 0 + 30 + 40) = 70 (WAIT 40).
    let t3d = timing("cray_t3d", Estimate::Avg);
    let programs = vec![
        vec![Op::Isend { dst: 1, bytes: 64, tag: 3, req: 0 }, Op::Wait { req: 0 }],
        vec![Op::Irecv { src: Source::Any, tag: TagSel::Tag(3), req: 7 }, Op::Wait { req: 7 }],
    ];
    let (outcome, stats) = run(&t3d, SimTime::from_us(1), programs);
    assert_eq!(outcome, RunOutcome::Completed);
    assert_eq!(stats.makespan_ps, ps(70.0));
    assert_eq!(state_ps(&stats, "p0", "SEND"), ps(31.6));
    assert_eq!(state_ps(&stats, "p0", "WAIT"), ps(10.0));
    assert_eq!(state_ps(&stats, "p1", "RECV"), ps(30.0));
    assert_eq!(state_ps(&stats, "p1", "WAIT"), ps(40.0));
}

// Cray T3D, d = 8000 B = 1000 elements (large fits), in µs:
//   recv = 60 + 0.5·1000 = 560, recv(0) = 60 (small fit): transfer part 500;
//   isend1 = 30 + 0.09·1000 = 120;   isend2 = 10 + 0.001·1000 = 11;   irecv1(0) = 30;
//   irecv1 + irecv2 = 40 + 5 + 0.5·1000 = 545;   recvmin = 30 + 0.4·1000 = 430

/// `messages` Isends of `bytes` from rank 0 to each rank in `to`, each answered by an Irecv; all
/// ranks then wait for everything.
fn isends_to(to: &[u32], messages: u32, bytes: u64) -> Vec<Vec<Op>> {
    let ranks = to.iter().copied().max().unwrap_or(0) as usize + 1;
    let mut programs = vec![Vec::new(); ranks];
    for (k, dst) in (0..messages).flat_map(|k| to.iter().map(move |d| (k, *d))) {
        programs[0].push(Op::Isend { dst, bytes, tag: k as i32, req: k * 64 + dst });
        programs[dst as usize].push(Op::Irecv { src: Source::Rank(0), tag: TagSel::Tag(k as i32), req: k });
    }
    for program in &mut programs {
        program.push(Op::WaitAll);
    }
    programs
}

#[test]
fn messages_in_flight_to_one_rank_follow_one_another() {
    // K Isends posted back to back (starts 0, 120, 240, …): message k's transfer starts at
    // max(its send, the previous transfer's end − recv(0)) and lasts recv(d) = 560, so the k-th
    // ends at 60 + k·500. The last receive completes then (its recvmin and irecv1 + irecv2 end
    // earlier): start + recv(0) + K·(recv(d) − recv(0)). One message is the plain receive rule.
    let t3d = timing("cray_t3d", Estimate::Avg);
    for messages in [1u32, 2, 4] {
        let (outcome, stats) = run(&t3d, SimTime::from_us(1), isends_to(&[1], messages, 8000));
        assert_eq!(outcome, RunOutcome::Completed, "K = {messages}");
        assert_eq!(stats.makespan_ps, ps(60.0 + f64::from(messages) * 500.0), "K = {messages}");
        assert_eq!(state_ps(&stats, "p1", "RECV"), u64::from(messages) * ps(30.0), "K = {messages}");
    }
}

/// Ranks 0 and 1 each post `messages` Irecvs from the other, then `messages` Isends of `bytes` to
/// it, then wait for everything: the pair moves data both ways at once.
fn exchanges(messages: u32, bytes: u64) -> Vec<Vec<Op>> {
    (0..2u32)
        .map(|rank| {
            let peer = 1 - rank;
            let tags = 0..messages as i32;
            let recvs = tags.clone().map(|k| Op::Irecv {
                src: Source::Rank(peer),
                tag: TagSel::Tag(k),
                req: k as u32,
            });
            let sends = tags.map(|k| Op::Isend { dst: peer, bytes, tag: k, req: 64 + k as u32 });
            recvs.chain(sends).chain([Op::WaitAll]).collect()
        })
        .collect()
}

#[test]
fn messages_that_meet_traffic_the_other_way_take_the_sendrecv_time() {
    // Both ranks post K Irecvs (irecv1(0) = 30 each), then K Isends of 8000 B from 30·K, 120 apart:
    // message k's transfer starts at 30·K + 500·k (the chain, as one way) and overlaps the other
    // rank's message k, so it is received sendrecv(d) = 90 + 0.6·1000 = 690 after its start in
    // place of recv(d) = 560 (its recvmin and irecv1 + irecv2 end earlier). The last one:
    // 30·K + 500·(K − 1) + 690.
    let t3d = timing("cray_t3d", Estimate::Avg);
    for messages in [1u32, 2, 4] {
        let (outcome, stats) = run(&t3d, SimTime::from_us(1), exchanges(messages, 8000));
        assert_eq!(outcome, RunOutcome::Completed, "K = {messages}");
        let k = f64::from(messages);
        assert_eq!(stats.makespan_ps, ps(30.0 * k + 500.0 * (k - 1.0) + 690.0), "K = {messages}");
    }
}

#[test]
fn a_message_after_the_other_way_has_arrived_is_timed_one_way() {
    // Rank 1 answers rank 0's message of 8000 B once it is received (at 560): the answer's transfer
    // [560, 1120) does not overlap the first's [0, 560), so both take recv(d) = 560. A message to
    // oneself has no other way: rank 0's to itself, sent at 1120, is received at 1120 + 560.
    let t3d = timing("cray_t3d", Estimate::Avg);
    let programs = vec![
        vec![
            Op::Isend { dst: 1, bytes: 8000, tag: 0, req: 0 },
            Op::Recv { src: Source::Rank(1), tag: TagSel::Tag(1) },
            Op::Isend { dst: 0, bytes: 8000, tag: 2, req: 1 },
            Op::Recv { src: Source::Rank(0), tag: TagSel::Tag(2) },
            Op::WaitAll,
        ],
        vec![
            Op::Recv { src: Source::Rank(0), tag: TagSel::Tag(0) },
            Op::Send { dst: 0, bytes: 8000, tag: 1 },
        ],
    ];
    let (outcome, stats) = run(&t3d, SimTime::from_us(1), programs);
    assert_eq!(outcome, RunOutcome::Completed);
    assert_eq!(state_ps(&stats, "p1", "RECV"), ps(560.0));
    assert_eq!(stats.makespan_ps, ps(3.0 * 560.0));
}

/// The T3D sheet with `selfsend`(d) = 5 + 0.01·d µs (d in its 8-byte elements): 15 µs at 8000 B.
fn t3d_with_selfsend() -> SheetTiming {
    let extra = r#"(name: "extra", machine: "test", element_bytes: 8, small_limit_elements: 32, log_base: Natural,
        functions: {"selfsend": (small: (avg: (constant_us: 5, data_coeff: 0.01, data: D)))})"#;
    let mut sheet = datasheet::builtin("cray_t3d").expect("built in");
    let selfsend =
        datasheet::from_ron(extra, "extra.ron").expect("test sheet parses").functions["selfsend"].clone();
    sheet.functions.insert("selfsend".into(), selfsend);
    SheetTiming::new(Arc::new(sheet), Estimate::Avg)
}

/// Rank 0 sends 8000 B to itself three ways — Irecv, Send, Wait; Isend, Recv, Wait; Send, Recv —
/// then 8000 B to rank 1, which only receives it.
fn messages_to_oneself() -> Vec<Vec<Op>> {
    let tag = |t| TagSel::Tag(t);
    vec![
        vec![
            Op::Irecv { src: Source::Rank(0), tag: tag(0), req: 0 },
            Op::Send { dst: 0, bytes: 8000, tag: 0 },
            Op::Wait { req: 0 },
            Op::Isend { dst: 0, bytes: 8000, tag: 1, req: 1 },
            Op::Recv { src: Source::Rank(0), tag: tag(1) },
            Op::Wait { req: 1 },
            Op::Send { dst: 0, bytes: 8000, tag: 2 },
            Op::Recv { src: Source::Rank(0), tag: tag(2) },
            Op::Send { dst: 1, bytes: 8000, tag: 3 },
        ],
        vec![Op::Recv { src: Source::Rank(0), tag: tag(3) }],
    ]
}

#[test]
fn a_message_to_oneself_is_one_selfsend_copy_made_by_the_sender() {
    // selfsend(8000 B) = 15 µs; the Irecv from itself costs nothing. Each message to oneself keeps
    // the sender in SEND for 15 and is received when the send ends: 15, 30, 45. The message to
    // rank 1 is timed as before: SEND for send(8000) = 30 + 0.09·1000 = 120 (45 … 165), and rank
    // 1's receive, posted at 0, ends at max(0 + recvmin 430, 45 + recv 560) = 605.
    let (outcome, stats) = run(&t3d_with_selfsend(), SimTime::from_us(1), messages_to_oneself());
    assert_eq!(outcome, RunOutcome::Completed);
    assert_eq!(state_ps(&stats, "p0", "SEND"), ps(3.0 * 15.0 + 120.0));
    assert_eq!(stats.entities["p0"].state_time_ps.get("RECV").copied().unwrap_or(0), 0);
    assert_eq!(state_ps(&stats, "p0", "DONE"), ps(605.0 - 165.0));
    assert_eq!(stats.makespan_ps, ps(605.0));
}

#[test]
fn a_sheet_without_selfsend_times_a_message_to_oneself_as_to_another_rank() {
    // The same program on the T3D sheet as it is (µs; 8000 B is 1000 elements, the large fits):
    // Irecv post irecv1(0) = 30; Send 30 … 150 (send = 120), its transfer 30 … 590 (recv = 560),
    // so the Wait ends at 590 (irecv1 40 + irecv2 505 after the send, 575, is earlier). Isend at 590
    // posts for isend1 = 120; its transfer follows the first (max(590, 590 − recv(0) 60)) and ends
    // at 1150, where the Recv ends (710 + recvmin 430 = 1140 is earlier). Send 1150 … 1270, its
    // transfer 1150 … 1710, Recv to 1710 (1270 + 430 = 1700). The message to rank 1: SEND 1710 …
    // 1830, received at 1710 + 560 = 2270.
    let (outcome, stats) =
        run(&timing("cray_t3d", Estimate::Avg), SimTime::from_us(1), messages_to_oneself());
    assert_eq!(outcome, RunOutcome::Completed);
    assert_eq!(state_ps(&stats, "p0", "SEND"), ps(4.0 * 120.0));
    assert_eq!(stats.makespan_ps, ps(2270.0));
}

#[test]
fn messages_to_different_ranks_do_not_wait_for_one_another() {
    // Rank 0 posts one Isend to rank 1 (start 0) and one to rank 2 (start 120): each is timed on
    // its own, so rank 2's receive completes at 120 + 560 = 680.
    let t3d = timing("cray_t3d", Estimate::Avg);
    let (outcome, stats) = run(&t3d, SimTime::from_us(1), isends_to(&[1, 2], 1, 8000));
    assert_eq!(outcome, RunOutcome::Completed);
    assert_eq!(stats.makespan_ps, ps(680.0));
    assert_eq!(state_ps(&stats, "p1", "DONE"), ps(120.0));
}

#[test]
fn allreduce_releases_every_rank_when_the_last_has_entered_plus_the_sheet_time() {
    // Rank i enters at 10·i µs. T3D allreduce, small fit, p = 4, d = 8 elements:
    // 300 + 6·4 + 2·ln(4)·8 = 324 + 16 ln 4 µs after the last entry (30 µs).
    let t3d = timing("cray_t3d", Estimate::Avg);
    let programs: Vec<Vec<Op>> =
        (0..4).map(|i| vec![compute_us(10 * i), collective(CollectiveKind::Allreduce, 0, 64)]).collect();
    let (outcome, stats) = run(&t3d, SimTime::from_us(1), programs);
    assert_eq!(outcome, RunOutcome::Completed);
    let sheet_ps = ps(324.0 + 16.0 * 4f64.ln());
    assert_eq!(stats.makespan_ps, 30 * US + sheet_ps);
    for i in 0..4u64 {
        let path = format!("p{i}");
        assert_eq!(state_ps(&stats, &path, "ALLREDUCE"), (30 - 10 * i) * US + sheet_ps, "{path}");
        assert_eq!(state_ps(&stats, &path, "DONE"), 0, "{path} is released at the end");
    }
    assert_eq!(stats.entities["fabric"].extra.get("collectives_completed"), Some(&1.0));
}

#[test]
fn barriers_follow_one_another_by_sequence_number() {
    // Network of workstations: barrier = 9000·p µs = 36 ms for p = 4. Rank 3 enters the first
    // barrier at 5 ms; the second barrier is entered by everyone at its release, 41 ms.
    let now = timing("network_of_workstations", Estimate::Avg);
    let programs: Vec<Vec<Op>> = (0..4)
        .map(|i| {
            let late = if i == 3 { 5000 } else { 0 };
            vec![
                compute_us(late),
                collective(CollectiveKind::Barrier, 0, 0),
                collective(CollectiveKind::Barrier, 0, 0),
            ]
        })
        .collect();
    let (outcome, stats) = run(&now, SimTime::from_us(2), programs);
    assert_eq!(outcome, RunOutcome::Completed);
    assert_eq!(stats.makespan_ps, (5000 + 36_000 + 36_000) * US);
    assert_eq!(state_ps(&stats, "p0", "BARRIER"), (5000 + 72_000) * US);
    assert_eq!(state_ps(&stats, "p3", "BARRIER"), 72_000 * US);
}

#[test]
fn mismatched_collectives_are_a_deadlock_naming_the_ranks() {
    let t3d = timing("cray_t3d", Estimate::Avg);
    let programs = vec![
        vec![collective(CollectiveKind::Allreduce, 0, 64)],
        vec![collective(CollectiveKind::Bcast, 2, 64)],
        vec![collective(CollectiveKind::Allreduce, 0, 64)],
        vec![],
    ];
    let (outcome, _, records) = run_traced(&t3d, SimTime::from_us(1), programs);
    let RunOutcome::Deadlock(report) = outcome else { panic!("expected a deadlock, got {outcome:?}") };
    let fabric = report.blocked.iter().find(|b| b.path == "fabric").expect("the model is blocked");
    assert_eq!(
        fabric.waiting_for,
        "error: collective #0 does not match across ranks: ranks 0, 2 called ALLREDUCE of 64 B; \
         rank 1 called BCAST of 64 B from root 2; rank 3 did not enter"
    );
    let p1 = report.blocked.iter().find(|b| b.path == "p1").expect("rank 1 is blocked");
    assert_eq!(p1.state, "BCAST");
    assert!(p1.waiting_for.contains("rank 1 waits in BCAST (collective #0)"), "{}", p1.waiting_for);
    let comments: Vec<&str> = records
        .iter()
        .filter_map(|r| match r {
            Record::Comment { text, .. } => Some(text.as_str()),
            _ => None,
        })
        .collect();
    assert!(
        comments.iter().any(|c| c.starts_with("error: collective #0 does not match across ranks: rank 0")),
        "{comments:?}"
    );
}

#[test]
fn a_rank_that_never_enters_is_named() {
    let t3d = timing("cray_t3d", Estimate::Avg);
    let programs: Vec<Vec<Op>> = (0..6)
        .map(|i| if i == 4 { vec![] } else { vec![collective(CollectiveKind::Barrier, 0, 0)] })
        .collect();
    let (outcome, _) = run(&t3d, SimTime::ZERO, programs);
    let RunOutcome::Deadlock(report) = outcome else { panic!("expected a deadlock") };
    let fabric = report.blocked.iter().find(|b| b.path == "fabric").expect("the model is blocked");
    assert_eq!(fabric.waiting_for, "collective #0 (BARRIER): ranks 0-3, 5 entered; rank 4 did not enter");
}

/// A sheet whose min, avg and max equations differ (µs; d in bytes; log base 2).
const BANDED: &str = r#"(
    name: "banded", machine: "test", element_bytes: 1, small_limit_elements: 1000000, log_base: Two,
    functions: {
        "send": (small: (min: (constant_us: 5), avg: (constant_us: 10), max: (constant_us: 20))),
        "recv": (small: (
            min: (constant_us: 20, data_coeff: 0.01, data: D),
            avg: (constant_us: 40, data_coeff: 0.02, data: D),
            max: (constant_us: 80, data_coeff: 0.04, data: D))),
        "recvmin": (small: (min: (constant_us: 10), avg: (constant_us: 20), max: (constant_us: 40))),
        "allreduce": (small: (
            min: (constant_us: 100, startup_coeff: 10, startup: LogP, data_coeff: 0.01, data: LogPD),
            avg: (constant_us: 200, startup_coeff: 20, startup: LogP, data_coeff: 0.02, data: LogPD),
            max: (constant_us: 400, startup_coeff: 40, startup: LogP, data_coeff: 0.04, data: LogPD))),
    },
)"#;

#[test]
fn bands_order_the_makespan() {
    // Ranks 0 and 1 ping-pong 1000 B, then all 4 allreduce 1000 B (log2 4 = 2).
    //        send  recv(1000)  r1 enters  r0 enters (2·recv)  allreduce               makespan
    //   min   5     30          35         60                100 + 20 + 20  = 140    200
    //   avg  10     60          70        120                200 + 40 + 40  = 280    400
    //   max  20    120         140        240                400 + 80 + 80  = 560    800
    let sheet = Arc::new(datasheet::from_ron(BANDED, "banded.ron").expect("test sheet parses"));
    let allreduce = || collective(CollectiveKind::Allreduce, 0, 1000);
    let mut makespans = Vec::new();
    for estimate in [Estimate::Min, Estimate::Avg, Estimate::Max] {
        let programs = vec![
            vec![send(1, 1000), recv(1), allreduce()],
            vec![recv(0), send(0, 1000), allreduce()],
            vec![allreduce()],
            vec![allreduce()],
        ];
        let (outcome, stats) = run(&SheetTiming::new(sheet.clone(), estimate), SimTime::from_us(1), programs);
        assert_eq!(outcome, RunOutcome::Completed, "{estimate:?}");
        makespans.push(stats.makespan_ps);
    }
    assert_eq!(makespans, vec![200 * US, 400 * US, 800 * US]);
    assert!(makespans.windows(2).all(|w| w[0] <= w[1]));
}

// ---- through the factory --------------------------------------------------------------------

fn build(model: &FlatModel, streams: &[&str]) -> Result<NetBehaviours, String> {
    let registry = builtin_registry();
    let workload = Workload::Streams {
        streams: streams
            .iter()
            .enumerate()
            .map(|(r, s)| (r as u32, StreamSource::Inline((*s).into())))
            .collect(),
    };
    let inputs = BuildInputs {
        model,
        registry: &registry,
        workload: &workload,
        base_dir: std::path::Path::new("."),
        placement: &hase_engine::model::Placement::All,
    };
    build_behaviours(&inputs).map(|b| b.behaviours).map_err(|e| e.to_string())
}

#[test]
fn the_factory_puts_processors_on_a_datasheet_network_into_sheet_mode() {
    // Network of workstations, max band (= avg: the sheet has one equation), p = 3:
    // allreduce = 10000 + 500·9 + 2·9·(16 B / 4 B) = 14572 µs after the last entry (rank 2, 1 ms).
    let model = star(
        3,
        SimTime::from_us(1),
        &[("model", "datasheet"), ("sheet", "network_of_workstations"), ("band", "max")],
    );
    let streams = ["ALLREDUCE 16", "ALLREDUCE 16", "COMPUTE 1ms\nALLREDUCE 16"];
    let behaviours = build(&model, &streams).expect("builds");
    let mut sim =
        Simulation::with_store(Arc::new(model), behaviours, SimConfig::default()).expect("model builds");
    let outcome = sim.run(RunControl::default());
    let stats = sim.finish(outcome.clone()).stats;
    assert_eq!(outcome, RunOutcome::Completed);
    assert_eq!(stats.makespan_ps, (1000 + 14_572) * US);
}

/// Processors with separate `tx` and `rx` ports on one-way links: model port 2i leads to rank i's
/// `rx`, port 2i+1 comes from its `tx` (so messages must leave by the even ports).
fn split_star(n: usize, latency: SimTime) -> FlatModel {
    let mut model = star(n, latency, &[("model", "datasheet")]);
    let port_names: Vec<String> = (0..2 * n).map(|i| format!("p[{i}]")).collect();
    let port_refs: Vec<&str> = port_names.iter().map(String::as_str).collect();
    let mut fabric = entity("fabric", NETWORK_MODEL, &port_refs, &NETWORK_MODEL_STATES);
    fabric.params = model.entities[n].params.clone();
    model.entities[n] = fabric;
    model.links.clear();
    let fabric_id = n as u32;
    for i in 0..n {
        let mut p = entity(&format!("p{i}"), PROCESSOR, &["tx", "rx"], &PROCESSOR_STATES);
        let mut ports = p.ports().to_vec();
        ports[0].direction = Direction::Out;
        ports[1].direction = Direction::In;
        p.set_ports(ports);
        let (to_rx, from_tx) = (2 * i as u32, 2 * i as u32 + 1);
        p.set_link(1, Some(to_rx));
        p.set_link(0, Some(from_tx));
        model.entities[n].set_link((2 * i) as u16, Some(to_rx));
        model.entities[n].set_link((2 * i + 1) as u16, Some(from_tx));
        model.entities[i] = p;
        let one_way = |from: Endpoint, to: Endpoint| FlatLink {
            ends: [from, to],
            latency,
            bandwidth_bytes_per_s: 1_000_000_000,
            forward: true,
            backward: false,
        };
        let me = i as u32;
        model.links.push(one_way(
            Endpoint { entity: fabric_id, port: 2 * i as u16 },
            Endpoint { entity: me, port: 1 },
        ));
        model.links.push(one_way(
            Endpoint { entity: me, port: 0 },
            Endpoint { entity: fabric_id, port: 2 * i as u16 + 1 },
        ));
    }
    model
}

#[test]
fn split_transmit_and_receive_ports_work_in_sheet_mode() {
    // The T3D ping-pong of 64 B (round trip 2 · 65.6 µs), then a two-rank barrier entered by both
    // at 131.2 µs (rank 1 finished its reply send at 95.6 but waits for rank 0): 10 + 8 ln 2 µs.
    let model = split_star(2, SimTime::from_us(3));
    let streams = ["SEND 1 64\nRECV 1\nBARRIER", "RECV 0\nSEND 0 64\nBARRIER"];
    let behaviours = build(&model, &streams).expect("builds");
    let mut sim =
        Simulation::with_store(Arc::new(model), behaviours, SimConfig::default()).expect("model builds");
    let outcome = sim.run(RunControl::default());
    let stats = sim.finish(outcome.clone()).stats;
    assert_eq!(outcome, RunOutcome::Completed);
    assert_eq!(stats.makespan_ps, ps(131.2) + ps(10.0 + 8.0 * 2f64.ln()));
}

#[test]
fn a_sheet_without_a_function_the_program_needs_is_a_program_error() {
    // The network-of-workstations model has no `isend2`.
    let now = timing("network_of_workstations", Estimate::Avg);
    let programs =
        vec![vec![Op::Isend { dst: 1, bytes: 8, tag: 0, req: 0 }, Op::Wait { req: 0 }], vec![recv(0)]];
    let (outcome, _) = run(&now, SimTime::ZERO, programs);
    let RunOutcome::Deadlock(report) = outcome else { panic!("expected the run to stop") };
    let p0 = report.blocked.iter().find(|b| b.path == "p0").expect("rank 0 stopped");
    assert!(p0.waiting_for.starts_with("program error: "), "{}", p0.waiting_for);
    assert!(p0.waiting_for.contains("has no function `isend2`"), "{}", p0.waiting_for);
}

#[test]
fn a_sheet_file_relative_to_the_project_is_used_like_a_built_in() {
    // The banded test sheet as a file beside the "project" (`sheets/banded.ron`), max band: a
    // one-byte message started with its receive completes at max(recvmin 40, recv 80 + 0.04·1) µs.
    let dir = tempfile::tempdir().expect("temporary directory");
    std::fs::create_dir(dir.path().join("sheets")).expect("sheets directory");
    std::fs::write(dir.path().join("sheets/banded.ron"), BANDED).expect("sheet written");
    let model =
        star(2, SimTime::ZERO, &[("model", "datasheet"), ("sheet", "sheets/banded.ron"), ("band", "max")]);
    let registry = builtin_registry();
    let workload = Workload::Streams {
        streams: [(0, StreamSource::Inline("SEND 1 1".into())), (1, StreamSource::Inline("RECV 0".into()))]
            .into_iter()
            .collect(),
    };
    let inputs = BuildInputs {
        model: &model,
        registry: &registry,
        workload: &workload,
        base_dir: dir.path(),
        placement: &hase_engine::model::Placement::All,
    };
    let behaviours = build_behaviours(&inputs).map(|b| b.behaviours).expect("the file sheet loads");
    let mut sim =
        Simulation::with_store(Arc::new(model), behaviours, SimConfig::default()).expect("model builds");
    let outcome = sim.run(RunControl::default());
    assert_eq!(outcome, RunOutcome::Completed);
    assert_eq!(sim.finish(outcome).stats.makespan_ps, ps(80.04));

    // A malformed file is named with its line and column.
    std::fs::write(dir.path().join("sheets/broken.ron"), "(name: \"x\",\n  oops)").expect("written");
    let broken = star(2, SimTime::ZERO, &[("model", "datasheet"), ("sheet", "sheets/broken.ron")]);
    let inputs = BuildInputs {
        model: &broken,
        registry: &registry,
        workload: &workload,
        base_dir: dir.path(),
        placement: &hase_engine::model::Placement::All,
    };
    let err = build_behaviours(&inputs).err().expect("a broken sheet is refused").to_string();
    assert!(err.starts_with("fabric: parameter `sheet`: "), "{err}");
    assert!(err.contains("sheets/broken.ron:2:"), "{err}");
}

#[test]
fn factory_errors_name_the_network_model() {
    let unknown = star(2, SimTime::ZERO, &[("model", "datasheet"), ("sheet", "cray_t4e")]);
    let err = build(&unknown, &["", ""]).err().expect("unknown sheet is refused");
    assert!(
        err.starts_with(
            "fabric: parameter `sheet`: no built-in data sheet `cray_t4e` and no sheet file `./cray_t4e`"
        ),
        "{err}"
    );
    assert!(err.contains("cray_t3d, network_of_workstations"), "{err}");

    let band = star(2, SimTime::ZERO, &[("model", "datasheet"), ("band", "median")]);
    let err = build(&band, &["", ""]).err().expect("unknown band is refused");
    assert_eq!(err, "fabric: parameter `band`: unknown band `median`; choose min, avg, max or measured");

    let mut detached = star(3, SimTime::ZERO, &[("model", "datasheet")]);
    detached.entities[2].set_link(0, None);
    detached.entities[3].set_link(2, None);
    detached.links.pop();
    let err = build(&detached, &["", "", ""]).err().expect("a rank off the network is refused");
    assert_eq!(
        err,
        "fabric: a data-sheet network model must be linked to every rank's processor; rank(s) 2 are not"
    );
}

#[test]
fn the_model_traces_each_sheet_lookup_as_a_read_then_a_use_count() {
    // Rank 0 sends to rank 1 and back, then both enter one allreduce.
    let t3d = timing("cray_t3d", Estimate::Avg);
    let allreduce = collective(CollectiveKind::Allreduce, 0, 64);
    let programs = vec![vec![send(1, 64), recv(1), allreduce.clone()], vec![recv(0), send(0, 64), allreduce]];
    let (outcome, _, records) = run_traced(&t3d, SimTime::from_us(1), programs);
    assert_eq!(outcome, RunOutcome::Completed);
    let fabric = 2;
    let lookups: Vec<(u32, Option<i64>)> = records
        .iter()
        .filter_map(|r| match r {
            Record::ArrayRead { entity, param: 2, index, .. } if *entity == fabric => Some((*index, None)),
            Record::Array { entity, param: 2, index, value: TraceValue::Int(v), .. } if *entity == fabric => {
                Some((*index, Some(*v)))
            }
            _ => None,
        })
        .collect();
    // Entry 0 (point-to-point) twice, then allreduce (1 + its place in CollectiveKind::ALL = 4).
    assert_eq!(lookups, [(0, None), (0, Some(1)), (0, None), (0, Some(2)), (4, None), (4, Some(1))]);
    let entered: Vec<i64> = records
        .iter()
        .filter_map(|r| match r {
            Record::Param { entity, param: 1, value: TraceValue::Int(v), .. } if *entity == fabric => {
                Some(*v)
            }
            _ => None,
        })
        .collect();
    // The second entry releases both in the same event, so `entered` never shows 2.
    assert_eq!(entered, [0, 1, 0]);
}
