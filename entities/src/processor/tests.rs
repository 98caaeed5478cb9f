//! Processor + router on hand-built flat models, against hand-worked times.

use std::collections::BTreeMap;
use std::sync::Arc;

use hase_engine::elaborate::{Endpoint, FlatEntity, FlatLink, FlatModel};
use hase_engine::time::SimTime;
use hase_engine::{Behaviour, RunControl, RunOutcome, SimConfig, Simulation};

use super::action::CpuModel;
use super::mpi::MpiLimits;
use super::{ProcessorBehaviour, ProcessorConfig};
use crate::catalogue::{PROCESSOR_STATES, ROUTER_STATES};
use crate::message::NetMsg;
use crate::mpi::op::{Op, Source, TagSel};
use crate::router::switch::{RouterBehaviour, RouterConfig, Switching};
use crate::workload::program::OpList;

fn entity(path: &str, ports: usize, states: &[&str]) -> FlatEntity {
    FlatEntity::new(path, "x", (0..ports).map(|i| format!("p{i}")), "packet", states)
}

/// p0 — r — p1 with 100 ns, 1 B/ns links.
fn line() -> Arc<FlatModel> {
    let mut p0 = entity("p0", 1, &PROCESSOR_STATES);
    let mut p1 = entity("p1", 1, &PROCESSOR_STATES);
    let mut r = entity("r", 2, &ROUTER_STATES);
    p0.set_link(0, Some(0));
    r.set_link(0, Some(0));
    r.set_link(1, Some(1));
    p1.set_link(0, Some(1));
    let link = |a: u32, ap: u16, b: u32, bp: u16| FlatLink {
        ends: [Endpoint { entity: a, port: ap }, Endpoint { entity: b, port: bp }],
        latency: SimTime::from_ns(100),
        bandwidth_bytes_per_s: 1_000_000_000,
        forward: true,
        backward: true,
    };
    Arc::new(FlatModel {
        project: "line".into(),
        entities: vec![p0, r, p1],
        links: vec![link(0, 0, 1, 0), link(1, 1, 2, 0)],
        groups: vec![],
        scopes: vec![],
    })
}

fn processor(rank: u32, ops: Vec<Op>) -> Box<dyn Behaviour<NetMsg>> {
    processor_with(rank, ops, MpiLimits::new(4096, 1000))
}

/// A processor of the `line` with these limits; direct rendezvous reaches p0.p0 and p1.p0.
fn processor_with(rank: u32, ops: Vec<Op>, limits: MpiLimits) -> Box<dyn Behaviour<NetMsg>> {
    Box::new(ProcessorBehaviour::new(config_with(rank, ops, limits)))
}

fn config_with(rank: u32, ops: Vec<Op>, limits: MpiLimits) -> ProcessorConfig {
    let peers = (limits.rendezvous == super::mpi::Rendezvous::Direct)
        .then(|| Arc::new(vec![Endpoint { entity: 0, port: 0 }, Endpoint { entity: 2, port: 0 }]));
    ProcessorConfig {
        rank,
        size: 2,
        tx: 0,
        rx: 0,
        cpu: CpuModel::for_tests(SimTime::ZERO),
        recv_overhead: SimTime::from_ns(500),
        limits,
        nic_sharing: super::outbox::NicSharing::InTurn,
        route_latency: None,
        algorithms: BTreeMap::new(),
        downstream_credits: None,
        sheet: None,
        program: Box::new(OpList::new(ops)),
        addresses: None,
        peers,
    }
}

/// The `line`'s router: 20 ns routing delay, unbounded buffers, rank 0 on port 0.
fn router_config(switching: Switching) -> RouterConfig {
    RouterConfig {
        switching,
        routing_delay: SimTime::from_ns(20),
        buffer_packets: None,
        downstream_credits: vec![None, None],
        route: Box::new(|dst: u32, _src: u32| Some(u16::from(dst != 0))),
    }
}

fn router(switching: Switching) -> Box<dyn Behaviour<NetMsg>> {
    Box::new(RouterBehaviour::new(router_config(switching)))
}

fn run(switching: Switching, bytes: u64) -> (RunOutcome, u64) {
    let send = vec![Op::Send { dst: 1, bytes, tag: 0 }];
    let recv = vec![Op::Recv { src: Source::Rank(0), tag: TagSel::Any }];
    let behaviours = vec![processor(0, send), router(switching), processor(1, recv)];
    let mut sim = Simulation::new(line(), behaviours, SimConfig::default()).unwrap();
    let outcome = sim.run(RunControl::default());
    let report = sim.finish(outcome.clone());
    (outcome, report.stats.makespan_ps)
}

/// A behaviour as it is, with two more end-of-run figures: `queue_room`, the room its queues'
/// buffers still hold, and `kept_room`, the room of the buffer it keeps on purpose.
struct Held<B> {
    inner: B,
    room: fn(&B) -> (usize, usize),
}

impl<B: Behaviour<NetMsg>> Behaviour<NetMsg> for Held<B> {
    fn init(&mut self, ctx: &mut hase_engine::Ctx<'_, NetMsg>) {
        self.inner.init(ctx);
    }
    fn on_message(&mut self, ctx: &mut hase_engine::Ctx<'_, NetMsg>, port: u16, msg: NetMsg) {
        self.inner.on_message(ctx, port, msg);
    }
    fn head_delivery(&self, port: u16) -> bool {
        self.inner.head_delivery(port)
    }
    fn on_timer(&mut self, ctx: &mut hase_engine::Ctx<'_, NetMsg>, key: u64) {
        self.inner.on_timer(ctx, key);
    }
    fn is_finished(&self) -> bool {
        self.inner.is_finished()
    }
    fn traced_params(&self) -> Vec<String> {
        self.inner.traced_params()
    }
    fn summary(&self) -> Vec<(String, hase_engine::trace::TraceValue)> {
        let mut s = self.inner.summary();
        let (queued, kept) = (self.room)(&self.inner);
        s.push(("queue_room".into(), hase_engine::trace::TraceValue::Int(queued as i64)));
        s.push(("kept_room".into(), hase_engine::trace::TraceValue::Int(kept as i64)));
        s
    }
}

/// Queues give their buffers back once empty: after a message of three packets has crossed, no
/// router output and no outbox or action queue still holds room (a buffer kept by each of the
/// several queues of every entity was most of a large network's running memory). What is kept on
/// purpose: a router's one spare buffer, shared by its outputs, and a network interface's buffer
/// for the one packet it makes ahead. The times are unchanged.
#[test]
fn emptied_queues_hold_no_buffer() {
    let send = vec![Op::Send { dst: 1, bytes: 3000, tag: 0 }];
    let recv = vec![Op::Recv { src: Source::Rank(0), tag: TagSel::Any }];
    let watched = |ops| -> Box<dyn Behaviour<NetMsg>> {
        Box::new(Held {
            inner: ProcessorBehaviour::new(config_with(0, ops, MpiLimits::new(4096, 1000))),
            room: ProcessorBehaviour::queue_room,
        })
    };
    let receiver = config_with(1, recv, MpiLimits::new(4096, 1000));
    let router = RouterBehaviour::new(router_config(Switching::StoreAndForward));
    let behaviours: Vec<Box<dyn Behaviour<NetMsg>>> = vec![
        watched(send),
        Box::new(Held { inner: router, room: RouterBehaviour::queue_room }),
        Box::new(Held { inner: ProcessorBehaviour::new(receiver), room: ProcessorBehaviour::queue_room }),
    ];
    let mut sim = Simulation::new(line(), behaviours, SimConfig::default()).unwrap();
    let outcome = sim.run(RunControl::default());
    let report = sim.finish(outcome.clone());
    assert_eq!((outcome, report.stats.makespan_ps), (RunOutcome::Completed, SimTime::from_ns(5220).as_ps()));
    let forwarded = report.stats.entities["r"].extra.get("packets_forwarded").copied();
    assert_eq!(forwarded, Some(3.0));
    let room = |name: &str, figure: &str| report.stats.entities[name].extra.get(figure).copied();
    for name in ["p0", "r", "p1"] {
        assert_eq!(room(name, "queue_room"), Some(0.0), "{name}");
    }
    assert_eq!(room("r", "kept_room"), Some(1.0), "the router's spare");
    assert_eq!(room("p0", "kept_room"), Some(1.0), "the sender's interface");
    assert_eq!(room("p1", "kept_room"), Some(0.0), "the receiver sent nothing");
}

/// A rank waiting keeps room for the actions of the operation it is in, not for the four a growing
/// queue makes: p1 waits (`WAITALL`, one action) for a message p0 never sends, and the run ends
/// stuck with p1 in that wait.
#[test]
fn a_waiting_rank_holds_room_for_its_wait_alone() {
    let waiting = |rank, ops| -> Box<dyn Behaviour<NetMsg>> {
        Box::new(Held {
            inner: ProcessorBehaviour::new(config_with(rank, ops, MpiLimits::new(4096, 1000))),
            room: ProcessorBehaviour::queue_room,
        })
    };
    let recv = vec![Op::Irecv { src: Source::Rank(0), tag: TagSel::Any, req: 0 }, Op::WaitAll];
    let router = RouterBehaviour::new(router_config(Switching::StoreAndForward));
    let behaviours: Vec<Box<dyn Behaviour<NetMsg>>> =
        vec![waiting(0, vec![]), Box::new(router), waiting(1, recv)];
    let mut sim = Simulation::new(line(), behaviours, SimConfig::default()).unwrap();
    let outcome = sim.run(RunControl::default());
    assert!(matches!(outcome, RunOutcome::Deadlock(_)), "{outcome:?}");
    let report = sim.finish(outcome);
    let room = |name: &str| report.stats.entities[name].extra.get("queue_room").copied();
    assert_eq!(room("p1"), Some(1.0), "the WAITALL's one action");
    assert_eq!(room("p0"), Some(0.0), "finished");
}

#[test]
fn store_and_forward_pipelines_packets() {
    // o_s + h(L + P/B) + (h-1)o + (k-1)P/B + o_r with h = 2 links, k = 3 packets of P = 1000 B:
    // 500 + 2(100 + 1000) + 20 + 2·1000 + 500 = 5220 ns.
    assert_eq!(
        run(Switching::StoreAndForward, 3000),
        (RunOutcome::Completed, SimTime::from_ns(5220).as_ps())
    );
}

#[test]
fn cut_through_saves_one_serialisation_per_hop() {
    // o_s + hL + (h-1)o + kP/B + o_r = 500 + 200 + 20 + 3000 + 500 = 4220 ns.
    assert_eq!(run(Switching::CutThrough, 3000), (RunOutcome::Completed, SimTime::from_ns(4220).as_ps()));
}

#[test]
fn rendezvous_adds_a_round_trip_of_control_packets() {
    // 5000 B > eager limit: RTS (0 B) p0→p1 takes 2L + o = 220 ns after o_s; CTS back 220 ns; then
    // data as store-and-forward of 5 packets: 2(100+1000) + 20 + 4·1000 = 6220; plus o_s, o_r.
    // 500 + 220 + 220 + 6220 + 500 = 7660 ns.
    assert_eq!(
        run(Switching::StoreAndForward, 5000),
        (RunOutcome::Completed, SimTime::from_ns(7660).as_ps())
    );
}

/// Makespan of p0 sending `bytes` to p1, which computes `delay` first, with `limits` on both.
fn run_limits(limits: MpiLimits, bytes: u64, delay: SimTime) -> u64 {
    let send = vec![Op::Send { dst: 1, bytes, tag: 0 }];
    let recv = vec![
        Op::Compute(crate::mpi::op::Work::Time(delay)),
        Op::Recv { src: Source::Rank(0), tag: TagSel::Any },
    ];
    let behaviours = vec![
        processor_with(0, send, limits),
        router(Switching::StoreAndForward),
        processor_with(1, recv, limits),
    ];
    let mut sim = Simulation::new(line(), behaviours, SimConfig::default()).unwrap();
    let outcome = sim.run(RunControl::default());
    assert_eq!(outcome, RunOutcome::Completed);
    sim.finish(outcome).stats.makespan_ps
}

#[test]
fn direct_rendezvous_meets_at_no_cost_and_waits_for_the_later_side() {
    let direct = MpiLimits { rendezvous: super::mpi::Rendezvous::Direct, ..MpiLimits::new(4096, 1000) };
    // The receive is posted at once: the data leaves after o_s, no RTS/CTS round trip (the
    // handshake's 440 ns in `rendezvous_adds_a_round_trip_of_control_packets`):
    // 500 + 6220 + 500 = 7220 ns.
    assert_eq!(run_limits(direct, 5000, SimTime::ZERO), SimTime::from_ns(7220).as_ps());
    // The receiver posts at 10 us: the data leaves then: 10 000 + 6220 + 500 = 16 720 ns.
    assert_eq!(run_limits(direct, 5000, SimTime::from_us(10)), SimTime::from_ns(16_720).as_ps());
    // With the handshake the RTS waits as unexpected; the CTS leaves at 10 us and takes 220 ns.
    let handshake = MpiLimits::new(4096, 1000);
    assert_eq!(run_limits(handshake, 5000, SimTime::from_us(10)), SimTime::from_ns(16_940).as_ps());
}

#[test]
fn a_header_adds_its_bytes_to_every_message_on_the_wire() {
    // 3000 B + 100 B of header in packets of 1000 B: 4 packets, the last of 100 B, which leaves the
    // router at 4120 ns and arrives 100 + 100 ns later: 500 + 4320 + 500 = 5320 ns (5220 without).
    let header = MpiLimits { header_bytes: 100, ..MpiLimits::new(4096, 1000) };
    assert_eq!(run_limits(header, 3000, SimTime::ZERO), SimTime::from_ns(5320).as_ps());
    assert_eq!(run_limits(MpiLimits::new(4096, 1000), 3000, SimTime::ZERO), SimTime::from_ns(5220).as_ps());
}

#[test]
fn a_receive_without_a_sender_is_reported() {
    let recv = vec![Op::Recv { src: Source::Rank(0), tag: TagSel::Tag(9) }];
    let behaviours = vec![processor(0, vec![]), router(Switching::StoreAndForward), processor(1, recv)];
    let mut sim = Simulation::new(line(), behaviours, SimConfig::default()).unwrap();
    let RunOutcome::Deadlock(report) = sim.run(RunControl::default()) else { panic!("expected a deadlock") };
    assert_eq!(report.blocked.len(), 1);
    assert_eq!(report.blocked[0].path, "p1");
    assert_eq!(report.blocked[0].state, "RECV");
    assert!(
        report.blocked[0].waiting_for.contains("receive from rank 0, tag 9"),
        "{}",
        report.blocked[0].waiting_for
    );
}

/// (time ns, entity, param name, element, value) of the level-3 records of a run; reads have no value.
type Live = Vec<(u64, u32, String, Option<u32>, Option<String>)>;

fn live_values(behaviours: Vec<Box<dyn Behaviour<NetMsg>>>) -> Live {
    use hase_engine::trace::{MemorySink, Record, TraceLevel};
    let sink = Arc::new(std::sync::Mutex::new(MemorySink::default()));
    let config = SimConfig {
        seed: 1,
        level: TraceLevel::UPDATES,
        sink: Some(Box::new(sink.clone())),
        live_values: true,
    };
    let mut sim = Simulation::new(line(), behaviours, config).unwrap();
    let outcome = sim.run(RunControl::default());
    assert!(sim.finish(outcome).trace_error.is_none());
    let sink = sink.lock().unwrap();
    let name = |e: u32, p: u16| sink.header.entities[e as usize].params[usize::from(p)].clone();
    sink.records
        .iter()
        .filter_map(|r| match r {
            Record::Param { time, entity, param, value } => {
                Some((time.as_ps() / 1000, *entity, name(*entity, *param), None, Some(value.to_string())))
            }
            Record::Array { time, entity, param, index, value } => Some((
                time.as_ps() / 1000,
                *entity,
                name(*entity, *param),
                Some(*index),
                Some(value.to_string()),
            )),
            Record::ArrayRead { time, entity, param, index } => {
                Some((time.as_ps() / 1000, *entity, name(*entity, *param), Some(*index), None))
            }
            _ => None,
        })
        .collect()
}

#[test]
fn router_and_processors_trace_their_live_values() {
    // p0 sends 3000 B (3 packets) to p1, which computes 10 us before receiving: the message waits
    // as unexpected. Packets reach the router at 1600, 2600, 3600 ns and leave 20 ns later.
    let send = vec![Op::Send { dst: 1, bytes: 3000, tag: 0 }];
    let recv = vec![
        Op::Compute(crate::mpi::op::Work::Time(SimTime::from_us(10))),
        Op::Recv { src: Source::Rank(0), tag: TagSel::Any },
    ];
    let live = live_values(vec![processor(0, send), router(Switching::StoreAndForward), processor(1, recv)]);
    let of = |e: u32, name: &str, reads: bool| -> Vec<(u64, Option<u32>, Option<String>)> {
        live.iter()
            .filter(|(_, en, n, _, v)| *en == e && n == name && v.is_none() == reads)
            .map(|(t, _, _, i, v)| (*t, *i, v.clone()))
            .collect()
    };
    let int = |v: i64| Some(v.to_string());
    // Router: every output starts empty; port 1's queue goes 1, 0 per packet.
    let out_queue: Vec<(u64, Option<u32>, Option<String>)> = of(1, "out_queue", false);
    assert_eq!(
        out_queue,
        [
            (0, Some(0), int(0)),
            (0, Some(1), int(0)),
            (1600, Some(1), int(1)),
            (1620, Some(1), int(0)),
            (2600, Some(1), int(1)),
            (2620, Some(1), int(0)),
            (3600, Some(1), int(1)),
            (3620, Some(1), int(0)),
        ]
    );
    let queued: Vec<Option<String>> = of(1, "queued", false).into_iter().map(|(_, _, v)| v).collect();
    assert_eq!(queued, [int(0), int(0), int(1), int(0), int(1), int(0), int(1), int(0)]);
    // The arbiter reads port 1's queue at each arrival and before each departure, never port 0's.
    let reads = of(1, "out_queue", true);
    assert!(reads.iter().all(|(_, i, _)| *i == Some(1)), "{reads:?}");
    for t in [1600, 1620, 2600, 2620, 3600, 3620] {
        assert!(reads.iter().any(|(rt, _, _)| *rt == t), "no read at {t} ns: {reads:?}");
    }
    // Sender: one message of 3000 B, posted after the 500 ns send overhead.
    assert_eq!(of(0, "sent_msgs", false), [(0, None, int(0)), (500, None, int(1))]);
    assert_eq!(of(0, "sent_bytes", false), [(0, None, int(0)), (500, None, int(3000))]);
    assert_eq!(of(0, "op", false), [(0, None, Some("send 3000 B → 1".into()))]);
    // Receiver: the message is unexpected from its arrival until the receive at 10 us reads it.
    let unexpected = of(2, "unexpected", false);
    assert_eq!(unexpected.len(), 2, "{unexpected:?}");
    assert!(unexpected[0].0 <= 4720 && unexpected[0].1 == Some(0) && unexpected[0].2 == int(1));
    assert_eq!(unexpected[1], (10_000, Some(0), int(0)));
    assert_eq!(of(2, "unexpected", true), [(10_000, Some(0), None)]);
    assert_eq!(of(2, "recv_msgs", false), [(0, None, int(0)), (10_000, None, int(1))]);
    let ops: Vec<String> = of(2, "op", false).into_iter().filter_map(|(_, _, v)| v).collect();
    assert_eq!(ops.len(), 2);
    assert!(ops[0].starts_with("compute "), "{ops:?}");
    assert_eq!(ops[1], "recv ← 0");
}

#[test]
fn live_values_cost_nothing_above_level_3() {
    use hase_engine::trace::{MemorySink, TraceLevel};
    let sink = Arc::new(std::sync::Mutex::new(MemorySink::default()));
    let config = SimConfig {
        seed: 1,
        level: TraceLevel::STATES,
        sink: Some(Box::new(sink.clone())),
        live_values: true,
    };
    let send = vec![Op::Send { dst: 1, bytes: 3000, tag: 0 }];
    let recv = vec![Op::Recv { src: Source::Rank(0), tag: TagSel::Any }];
    let behaviours = vec![processor(0, send), router(Switching::StoreAndForward), processor(1, recv)];
    let mut sim = Simulation::new(line(), behaviours, config).unwrap();
    let outcome = sim.run(RunControl::default());
    sim.finish(outcome);
    let sink = sink.lock().unwrap();
    assert!(sink.records.iter().all(|r| r.level() >= TraceLevel::STATES));
    // The header still names them, so a level-3 run of the same model lines up.
    assert_eq!(*sink.header.entities[1].params, ["queued", "out_queue"]);
}

#[test]
fn a_receive_searching_a_source_with_nothing_waiting_shows_it_as_zero_first() {
    // p1 receives at once: it looks for messages from rank 0 before any has arrived, so the trace
    // gives element 0 the value 0 and then the read; the message later matches the posted
    // receive and never waits as unexpected.
    let send = vec![Op::Send { dst: 1, bytes: 100, tag: 0 }];
    let recv = vec![Op::Recv { src: Source::Rank(0), tag: TagSel::Any }];
    let live = live_values(vec![processor(0, send), router(Switching::StoreAndForward), processor(1, recv)]);
    let unexpected: Vec<(u64, Option<u32>, Option<String>)> = live
        .iter()
        .filter(|(_, e, n, _, _)| *e == 2 && n == "unexpected")
        .map(|(t, _, _, i, v)| (*t, *i, v.clone()))
        .collect();
    assert_eq!(unexpected, [(0, Some(0), Some("0".into())), (0, Some(0), None)]);
}

/// One per processor, half the entities of a network: the size is a large part of the set-up
/// memory `cargo bench -p hase-library --bench scale` tracks, so growing it should be a decision,
/// not an accident. What is kept small: settings alike processors share sit behind one `Arc`; the
/// MPI engine's requests and messages in flight, sheet mode's state and collective wait, an error
/// and the live values each sit behind one pointer made on first use; so do the collective
/// numbers of communicators other than the world, the messages waiting their route's latency
/// (`route_latency_per_*_link`, SimGrid's flow latency) and the virtual finish times of a
/// latency-weighted interface (`nic_sharing = "latency_weighted"`). 16 bytes are the pending
/// wait's last look at its requests (`wait_check.rs`), which saves looking again at every packet.
#[test]
fn a_processor_stays_small() {
    assert_eq!(std::mem::size_of::<ProcessorBehaviour>(), 432);
}

#[test]
fn processors_configured_alike_share_their_settings() {
    let limits = MpiLimits::new(4096, 1024);
    let mut shared = None;
    let p0 = ProcessorBehaviour::sharing(config_with(0, vec![], limits), &mut shared);
    let p1 = ProcessorBehaviour::sharing(config_with(1, vec![], limits), &mut shared);
    assert!(Arc::ptr_eq(&p0.settings, &p1.settings));
    let mut slower = config_with(2, vec![], limits);
    slower.recv_overhead = SimTime::from_ns(600);
    let p2 = ProcessorBehaviour::sharing(slower, &mut shared);
    assert!(!Arc::ptr_eq(&p1.settings, &p2.settings));
    assert_eq!(p2.settings.recv_overhead, SimTime::from_ns(600));
    // The next processor like the first ones no longer finds their settings to share.
    let p3 = ProcessorBehaviour::sharing(config_with(3, vec![], limits), &mut shared);
    assert!(!Arc::ptr_eq(&p2.settings, &p3.settings));
    assert_eq!(p3.settings.recv_overhead, SimTime::from_ns(500));
}

#[path = "sharing_tests.rs"]
mod sharing;

/// A fixed program that counts how often its location is asked for.
struct CountingLocations {
    ops: OpList,
    asked: Arc<std::sync::atomic::AtomicUsize>,
}

impl crate::workload::program::RankProgram for CountingLocations {
    fn next(&mut self, ctx: &mut crate::workload::program::ProgramCtx<'_>) -> Option<Op> {
        self.ops.next(ctx)
    }
    fn location(&self) -> Option<String> {
        self.asked.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        self.ops.location()
    }
}

/// Run the `line` at `level` with p0 sending from a located program; how often p0's location was
/// asked for, and the comments written.
fn run_located(level: hase_engine::trace::TraceLevel) -> (usize, Vec<String>) {
    use hase_engine::trace::{MemorySink, Record};
    let asked = Arc::new(std::sync::atomic::AtomicUsize::new(0));
    let program = OpList::located(vec![
        (Op::Compute(crate::mpi::op::Work::Time(SimTime::from_ns(50))), Some("p0.txt:1".into())),
        (Op::Send { dst: 1, bytes: 64, tag: 0 }, Some("p0.txt:2".into())),
    ]);
    let config = ProcessorConfig {
        program: Box::new(CountingLocations { ops: program, asked: asked.clone() }),
        ..config_with(0, vec![], MpiLimits::new(4096, 1000))
    };
    let recv = vec![Op::Recv { src: Source::Rank(0), tag: TagSel::Any }];
    let behaviours: Vec<Box<dyn Behaviour<NetMsg>>> = vec![
        Box::new(ProcessorBehaviour::new(config)),
        router(Switching::StoreAndForward),
        processor(1, recv),
    ];
    let sink = Arc::new(std::sync::Mutex::new(MemorySink::default()));
    let config = SimConfig { seed: 1, level, sink: Some(Box::new(sink.clone())), live_values: false };
    let mut sim = Simulation::new(line(), behaviours, config).unwrap();
    let outcome = sim.run(RunControl::default());
    assert_eq!(outcome, RunOutcome::Completed);
    sim.finish(outcome);
    let comments = sink
        .lock()
        .unwrap()
        .records
        .iter()
        .filter_map(|r| match r {
            Record::Comment { entity: 0, text, .. } => Some(text.clone()),
            _ => None,
        })
        .collect();
    (asked.load(std::sync::atomic::Ordering::Relaxed), comments)
}

#[test]
fn a_program_location_is_made_only_when_comments_are_kept() {
    use hase_engine::trace::TraceLevel;
    let (asked, comments) = run_located(TraceLevel::MESSAGES);
    assert_eq!((asked, comments.len()), (0, 0));
    let (asked, comments) = run_located(TraceLevel::COMMENTS);
    assert_eq!(asked, 2);
    assert_eq!(comments.len(), 2, "{comments:?}");
    assert!(comments[0].starts_with("p0.txt:1: Compute"), "{comments:?}");
    assert!(comments[1].starts_with("p0.txt:2: Send"), "{comments:?}");
}
