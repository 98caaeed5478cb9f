//! Kernel tests on tiny hand-built models: link serialisation and latency against hand-worked times,
//! head vs tail delivery, `(time, seq)` order, deadlock reports, determinism, statistics and tracing.

use std::sync::{Arc, Mutex};

use super::*;
use crate::elaborate::{Endpoint, FlatEntity, FlatLink, FlatModel};
use crate::time::SimTime;
use crate::trace::{MemorySink, Record, TraceLevel, TraceValue};

/// A test message: `bytes` on the wire and an id.
#[derive(Clone, Debug, PartialEq)]
struct Msg {
    id: u32,
    bytes: u64,
}

impl Message for Msg {
    fn size_bytes(&self) -> u64 {
        self.bytes
    }
    fn write_label(&self, out: &mut String) {
        out.push('m');
        out.push_str(&self.id.to_string());
    }
}

fn entity(path: &str, ports: usize, states: &[&str]) -> FlatEntity {
    FlatEntity::new(path, "test", (0..ports).map(|i| format!("p{i}")), "x", states)
}

/// Two entities `a` and `b`, port 0 of each joined by one link.
fn pair(latency: SimTime, bandwidth: u64) -> FlatModel {
    let mut a = entity("a", 1, &["IDLE", "BUSY"]);
    let mut b = entity("b", 1, &["IDLE", "BUSY"]);
    a.set_link(0, Some(0));
    b.set_link(0, Some(0));
    FlatModel {
        project: "t".into(),
        entities: vec![a, b],
        links: vec![FlatLink {
            ends: [Endpoint { entity: 0, port: 0 }, Endpoint { entity: 1, port: 0 }],
            latency,
            bandwidth_bytes_per_s: bandwidth,
            forward: true,
            backward: true,
        }],
        groups: vec![],
        scopes: vec![],
    }
}

/// Sends a burst at init; records arrival times it observes.
struct Burst {
    sizes: Vec<u64>,
    head: bool,
    arrivals: Arc<Mutex<Vec<(u32, SimTime, SimTime)>>>,
}

impl Behaviour<Msg> for Burst {
    fn head_delivery(&self, _port: PortIndex) -> bool {
        self.head
    }
    fn init(&mut self, ctx: &mut Ctx<'_, Msg>) {
        for (i, b) in self.sizes.iter().enumerate() {
            ctx.send(0, Msg { id: i as u32, bytes: *b });
        }
    }
    fn on_message(&mut self, ctx: &mut Ctx<'_, Msg>, _port: PortIndex, msg: Msg) {
        self.arrivals.lock().unwrap().push((msg.id, ctx.now(), ctx.tail_arrival()));
    }
}

use crate::elaborate::PortIndex;

fn run_pair(sizes_a: Vec<u64>, head_at_b: bool) -> Vec<(u32, SimTime, SimTime)> {
    // 1 GB/s: 1 byte per ns. Latency 100 ns.
    let model = Arc::new(pair(SimTime::from_ns(100), 1_000_000_000));
    let seen = Arc::new(Mutex::new(Vec::new()));
    let a = Burst { sizes: sizes_a, head: false, arrivals: Arc::new(Mutex::new(Vec::new())) };
    let b = Burst { sizes: vec![], head: head_at_b, arrivals: seen.clone() };
    let mut sim = Simulation::new(model, vec![Box::new(a), Box::new(b)], SimConfig::default()).unwrap();
    assert_eq!(sim.run(RunControl::default()), RunOutcome::Completed);
    seen.lock().unwrap().clone()
}

#[test]
fn a_link_serialises_back_to_back_messages() {
    // Three messages of 1000, 500, 2000 bytes leave at 0, 1000 ns, 1500 ns; each arrives (tail) after
    // its own serialisation plus 100 ns latency: 1100, 1600, 3600 ns.
    let got = run_pair(vec![1000, 500, 2000], false);
    let ns = SimTime::from_ns;
    assert_eq!(got, vec![(0, ns(1100), ns(1100)), (1, ns(1600), ns(1600)), (2, ns(3600), ns(3600))]);
}

#[test]
fn head_delivery_arrives_a_serialisation_time_earlier() {
    // Heads arrive at start + latency: 100, 1100, 1600 ns; tails as before.
    let got = run_pair(vec![1000, 500, 2000], true);
    let ns = SimTime::from_ns;
    assert_eq!(got, vec![(0, ns(100), ns(1100)), (1, ns(1100), ns(1600)), (2, ns(1600), ns(3600))]);
}

/// Records the order in which timers fire.
struct Timers {
    order: Arc<Mutex<Vec<u64>>>,
}

impl Behaviour<Msg> for Timers {
    fn init(&mut self, ctx: &mut Ctx<'_, Msg>) {
        for (key, at) in [(1, 50), (2, 10), (3, 50), (4, 10), (5, 0)] {
            ctx.schedule(SimTime(at), key);
        }
    }
    fn on_message(&mut self, _: &mut Ctx<'_, Msg>, _: PortIndex, _: Msg) {}
    fn on_timer(&mut self, ctx: &mut Ctx<'_, Msg>, key: u64) {
        self.order.lock().unwrap().push(key);
        if key == 5 {
            // Scheduled during time 0 for time 10: after the two already waiting for 10.
            ctx.schedule(SimTime(10), 6);
        }
    }
}

#[test]
fn equal_times_run_in_scheduling_order() {
    let model = Arc::new(pair(SimTime::ZERO, 0));
    let order = Arc::new(Mutex::new(Vec::new()));
    let t = Timers { order: order.clone() };
    let idle = Burst { sizes: vec![], head: false, arrivals: Arc::new(Mutex::new(Vec::new())) };
    let mut sim = Simulation::new(model, vec![Box::new(t), Box::new(idle)], SimConfig::default()).unwrap();
    sim.run(RunControl::default());
    assert_eq!(*order.lock().unwrap(), vec![5, 2, 4, 6, 1, 3]);
}

/// Waits for a message that never comes.
struct Waiter;

impl Behaviour<Msg> for Waiter {
    fn init(&mut self, ctx: &mut Ctx<'_, Msg>) {
        ctx.set_state(1);
    }
    fn on_message(&mut self, _: &mut Ctx<'_, Msg>, _: PortIndex, _: Msg) {}
    fn is_finished(&self) -> bool {
        false
    }
    fn blocked_reason(&self) -> Option<String> {
        Some("RECV from b".into())
    }
}

#[test]
fn an_unfinishable_run_reports_who_waits_for_what() {
    let model = Arc::new(pair(SimTime::ZERO, 0));
    let idle = Burst { sizes: vec![], head: false, arrivals: Arc::new(Mutex::new(Vec::new())) };
    let mut sim =
        Simulation::new(model, vec![Box::new(Waiter), Box::new(idle)], SimConfig::default()).unwrap();
    let RunOutcome::Deadlock(report) = sim.run(RunControl::default()) else { panic!("expected deadlock") };
    assert_eq!(report.blocked.len(), 1);
    assert_eq!(report.blocked[0].path, "a");
    assert_eq!(report.blocked[0].state, "BUSY");
    assert_eq!(report.blocked[0].waiting_for, "RECV from b");
    assert!(report.to_string().contains("a [BUSY]: RECV from b"));
}

/// PHOLD-like churn between the two entities, with random delays and states, for determinism tests.
struct Churn {
    left: u32,
}

impl Behaviour<Msg> for Churn {
    fn init(&mut self, ctx: &mut Ctx<'_, Msg>) {
        for i in 0..4 {
            let d = SimTime(rand::Rng::next_u64(ctx.rng()) % 1000);
            ctx.send_after(0, d, Msg { id: i, bytes: 64 });
        }
    }
    fn on_message(&mut self, ctx: &mut Ctx<'_, Msg>, _: PortIndex, msg: Msg) {
        ctx.set_state((msg.id % 2) as u16);
        if self.left > 0 {
            self.left -= 1;
            let d = SimTime(rand::Rng::next_u64(ctx.rng()) % 1000);
            ctx.send_after(0, d, Msg { id: msg.id + 1, bytes: 64 + u64::from(msg.id % 7) });
        }
    }
}

fn churn_trace(seed: u64) -> (Vec<Record>, crate::stats::RunStats) {
    let model = Arc::new(pair(SimTime::from_ns(5), 10_000_000_000));
    let sink = Arc::new(Mutex::new(MemorySink::default()));
    let config = SimConfig {
        seed,
        level: TraceLevel::COMMENTS,
        sink: Some(Box::new(sink.clone())),
        live_values: true,
    };
    let mut sim =
        Simulation::new(model, vec![Box::new(Churn { left: 500 }), Box::new(Churn { left: 500 })], config)
            .unwrap();
    let outcome = sim.run(RunControl::default());
    let report = sim.finish(outcome);
    let records = sink.lock().unwrap().records.clone();
    (records, report.stats)
}

#[test]
fn same_seed_same_trace_other_seed_other_trace() {
    let (a, sa) = churn_trace(3);
    let (b, sb) = churn_trace(3);
    let (c, _) = churn_trace(4);
    assert_eq!(a, b);
    assert_eq!(sa.makespan_ps, sb.makespan_ps);
    assert_ne!(a, c);
    // Time never goes backwards in the trace, and every message sent is received once.
    assert!(a.windows(2).all(|w| w[0].time() <= w[1].time() || matches!(w[1], Record::Summary { .. })));
    let sent: u64 = sa.entities.values().flat_map(|e| e.ports.values()).map(|p| p.sent_msgs).sum();
    let recv: u64 = sa.entities.values().flat_map(|e| e.ports.values()).map(|p| p.recv_msgs).sum();
    assert_eq!(sent, recv);
    assert_eq!(sent, 2 * (4 + 500));
}

#[test]
fn statistics_add_up_state_times_and_link_busy_time() {
    let (records, stats) = churn_trace(9);
    let end = stats.makespan_ps;
    for e in stats.entities.values() {
        // The first state is entered at the first arrival, so state times sum to at most the makespan.
        assert!(e.state_time_ps.values().sum::<u64>() <= end);
    }
    // 10 GB/s: each byte costs 100 ps on the wire.
    for l in stats.links.values() {
        assert_eq!(l.busy_ps, l.bytes * 100);
    }
    let states = records.iter().filter(|r| matches!(r, Record::State { .. })).count();
    assert!(states > 0);
}

#[test]
fn step_until_stops_at_the_boundary_and_cancel_flag_stops_runs() {
    let model = Arc::new(pair(SimTime::from_ns(5), 10_000_000_000));
    let mut sim = Simulation::new(
        model.clone(),
        vec![Box::new(Churn { left: 50 }), Box::new(Churn { left: 50 })],
        SimConfig::default(),
    )
    .unwrap();
    sim.step_until(SimTime::from_ns(100));
    assert_eq!(sim.now(), SimTime::from_ns(100));
    let flag = std::sync::atomic::AtomicBool::new(true);
    let outcome = sim.run(RunControl { cancel: Some(&flag), check_every: 1, ..RunControl::default() });
    assert_eq!(outcome, RunOutcome::Cancelled);
    let mut calls = 0;
    let mut progress = |_: Progress| calls += 1;
    let outcome =
        sim.run(RunControl { progress: Some(&mut progress), check_every: 10, ..RunControl::default() });
    assert_eq!(outcome, RunOutcome::Completed);
    assert!(calls > 1);
}

/// Link directions keep an index into the model's few distinct latency and bandwidth pairs instead
/// of a copy of both: 40 bytes each, not 48 (over three million of them at a million entities).
#[test]
fn link_directions_share_their_link_kind() {
    assert_eq!(std::mem::size_of::<super::core_state::LinkDir>(), 40);
    let twin_links = |second_latency: SimTime| {
        let mut model = pair(SimTime::from_ns(5), 1_000_000_000);
        model.entities = vec![entity("a", 2, &["IDLE", "BUSY"]), entity("b", 2, &["IDLE", "BUSY"])];
        for e in &mut model.entities {
            e.set_link(0, Some(0));
            e.set_link(1, Some(1));
        }
        let mut second = model.links[0].clone();
        second.ends = [Endpoint { entity: 0, port: 1 }, Endpoint { entity: 1, port: 1 }];
        second.latency = second_latency;
        model.links.push(second);
        let idle = || -> Box<dyn Behaviour<Msg>> {
            Box::new(Burst { sizes: vec![], head: false, arrivals: Arc::default() })
        };
        let sim = Simulation::new(Arc::new(model), vec![idle(), idle()], SimConfig::default()).unwrap();
        (sim.core.link_dirs.len(), sim.core.link_kinds.len())
    };
    assert_eq!(twin_links(SimTime::from_ns(5)), (4, 1));
    assert_eq!(twin_links(SimTime::from_ns(7)), (4, 2));
}

/// Churn that notes in a shared log when it is dropped, and reports one summary figure.
struct LoggedChurn {
    churn: Churn,
    log: Arc<Mutex<Vec<&'static str>>>,
}

impl Behaviour<Msg> for LoggedChurn {
    fn init(&mut self, ctx: &mut Ctx<'_, Msg>) {
        self.churn.init(ctx);
    }
    fn on_message(&mut self, ctx: &mut Ctx<'_, Msg>, port: PortIndex, msg: Msg) {
        self.churn.on_message(ctx, port, msg);
    }
    fn summary(&self) -> Vec<(String, TraceValue)> {
        vec![("left".into(), TraceValue::Int(i64::from(self.churn.left)))]
    }
}

impl Drop for LoggedChurn {
    fn drop(&mut self) {
        self.log.lock().unwrap().push("behaviour dropped");
    }
}

/// A sink that notes the summary records in the same log.
struct LoggedSink(Arc<Mutex<Vec<&'static str>>>);

impl crate::trace::TraceSink for LoggedSink {
    fn header(&mut self, _: &crate::trace::TraceHeader) -> std::io::Result<()> {
        Ok(())
    }
    fn record(&mut self, record: &Record) -> std::io::Result<()> {
        if matches!(record, Record::Summary { .. }) {
            self.0.lock().unwrap().push("summary record");
        }
        Ok(())
    }
    fn finish(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// A run stopped with events pending gives its behaviours (and pending events) back before the
/// report is built: their summaries are taken first, and reach the report and the trace.
#[test]
fn finishing_gives_back_the_run_before_the_report() {
    let log = Arc::new(Mutex::new(Vec::new()));
    let behaviour = |left| -> Box<dyn Behaviour<Msg>> {
        Box::new(LoggedChurn { churn: Churn { left }, log: Arc::clone(&log) })
    };
    let model = Arc::new(pair(SimTime::from_ns(5), 10_000_000_000));
    let config = SimConfig { sink: Some(Box::new(LoggedSink(Arc::clone(&log)))), ..SimConfig::default() };
    let mut sim = Simulation::new(model, vec![behaviour(500), behaviour(500)], config).unwrap();
    let outcome = sim.run(RunControl { until: Some(SimTime::from_ns(100)), ..RunControl::default() });
    assert!(sim.pending_bytes() > 0, "the run stopped with events pending");
    let report = sim.finish(outcome);
    assert_eq!(
        *log.lock().unwrap(),
        ["behaviour dropped", "behaviour dropped", "summary record", "summary record"],
        "the behaviours are gone before the report and its records are made"
    );
    let left = |path: &str| report.stats.entities[path].extra.get("left").copied();
    assert!(left("a").is_some_and(|l| l < 500.0) && left("b").is_some_and(|l| l < 500.0));
}

/// Sends three empty messages at init (`a`), or sets a timer for when they arrive (`b`); logs what
/// it handles.
struct TieWitness {
    sends: u32,
    timer_at: Option<SimTime>,
    log: Arc<Mutex<Vec<String>>>,
}

impl Behaviour<Msg> for TieWitness {
    fn init(&mut self, ctx: &mut Ctx<'_, Msg>) {
        for id in 0..self.sends {
            ctx.send(0, Msg { id, bytes: 0 });
        }
        if let Some(at) = self.timer_at {
            ctx.schedule_at(at, 7);
        }
    }
    fn on_message(&mut self, ctx: &mut Ctx<'_, Msg>, _port: PortIndex, msg: Msg) {
        self.log.lock().unwrap().push(format!("m{} at {}", msg.id, ctx.now().as_ps()));
    }
    fn on_timer(&mut self, ctx: &mut Ctx<'_, Msg>, key: u64) {
        self.log.lock().unwrap().push(format!("t{key} at {}", ctx.now().as_ps()));
    }
}

/// What `b` handles when `a`'s three empty messages and `b`'s timer all fall on 100 ns, in the
/// scheduled order or shuffled with `tie_seed`; and how a run on two threads was spread.
fn tie_witness(tie_seed: Option<u64>) -> (Vec<String>, Partitioning) {
    let model = Arc::new(pair(SimTime::from_ns(100), 1_000_000_000));
    let log = Arc::new(Mutex::new(Vec::new()));
    let a = TieWitness { sends: 3, timer_at: None, log: Arc::new(Mutex::new(Vec::new())) };
    let b = TieWitness { sends: 0, timer_at: Some(SimTime::from_ns(100)), log: Arc::clone(&log) };
    let mut sim = Simulation::new(model, vec![Box::new(a), Box::new(b)], SimConfig::default()).unwrap();
    if let Some(seed) = tie_seed {
        sim.set_tie_order(TieOrder::Shuffled { seed });
        assert_eq!(sim.tie_order(), TieOrder::Shuffled { seed });
    }
    let (outcome, partitioning) = sim.run_on(2, RunControl::default());
    assert_eq!(outcome, RunOutcome::Completed);
    let seen = log.lock().unwrap().clone();
    (seen, partitioning)
}

#[test]
fn shuffled_ties_reorder_origins_but_keep_a_links_order_and_run_on_one_thread() {
    // Scheduled: `a`'s init ran first, so its messages were scheduled before `b`'s timer.
    let (scheduled, _) = tie_witness(None);
    assert_eq!(scheduled, ["m0 at 100000", "m1 at 100000", "m2 at 100000", "t7 at 100000"]);
    let mut timer_first = 0;
    for seed in 0..16 {
        let (seen, partitioning) = tie_witness(Some(seed));
        assert_eq!(partitioning, Partitioning::One(OnePartition::ShuffledTies));
        assert_eq!(tie_witness(Some(seed)).0, seen, "seed {seed} gave two orders");
        // The link's three messages keep their order wherever the timer falls.
        let messages: Vec<&String> = seen.iter().filter(|s| s.starts_with('m')).collect();
        assert_eq!(messages, ["m0 at 100000", "m1 at 100000", "m2 at 100000"], "seed {seed}");
        assert_eq!(seen.len(), 4);
        timer_first += usize::from(seen[0].starts_with('t'));
    }
    // Two origins, sixteen seeds: each order comes up.
    assert!((1..16).contains(&timer_first), "the timer came first for {timer_first} of 16 seeds");
}
