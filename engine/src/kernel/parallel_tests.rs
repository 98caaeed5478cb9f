//! The run on several threads against the run on one, on random models: random links (some of zero
//! latency, which must keep their ends in one partition), random traffic that ties at equal times,
//! timers, states, records, statistics and dropped messages, with and without an until-time. The
//! trace, the report and the final time must be the same for every thread count. And the cases the
//! design runs on one partition: direct deliveries without a declaration, stop requests, a model
//! whose links all have zero latency.

use std::sync::{Arc, Mutex};

use proptest::prelude::*;
use rand::Rng;

use super::partition::{MESSAGE_TRACE_PER_MILLE, plan, shares};
use super::*;
use crate::elaborate::{Endpoint, FlatEntity, FlatLink, FlatModel, PortIndex};
use crate::time::SimTime;
use crate::trace::{MemorySink, Record, TraceLevel, TraceValue};

/// A token hopping from entity to entity until its hops run out.
struct Token {
    hops: u32,
    bytes: u64,
    born: SimTime,
}

impl Message for Token {
    fn size_bytes(&self) -> u64 {
        self.bytes
    }
    fn write_label(&self, out: &mut String) {
        out.push('t');
        out.push_str(&self.hops.to_string());
    }
}

/// Forwards tokens on random ports after random delays drawn from its own stream (often zero, so
/// that many events share an instant), sets timers, changes state and writes records.
struct Hopper {
    ports: u16,
    head: bool,
    declared: bool,
    quirk: Quirk,
}

/// Something a hopper does besides hopping.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Quirk {
    None,
    /// Ask the run to stop when a token runs out of hops.
    Stops,
    /// Panic on the first message.
    Panics,
}

impl Hopper {
    fn forward(&self, ctx: &mut Ctx<'_, Token>, hops: u32, born: SimTime) {
        let r = ctx.rng().next_u64();
        let port = (r % u64::from(self.ports)) as PortIndex;
        let delay = SimTime([0, 0, 500, 3_000][(r >> 8) as usize % 4]);
        let bytes = [0, 8, 64, 1_000][(r >> 16) as usize % 4];
        ctx.send_after(port, delay, Token { hops, bytes, born });
        if hops % 3 == 1 {
            // The same token on the next port too: siblings that arrive together where the
            // links are alike, handled in the order they were sent.
            ctx.send_after((port + 1) % self.ports, delay, Token { hops, bytes, born });
        }
        if (r >> 24).is_multiple_of(5) {
            ctx.schedule(SimTime((r >> 32) % 4_000), u64::from(hops));
        }
    }
}

impl Behaviour<Token> for Hopper {
    fn head_delivery(&self, _port: PortIndex) -> bool {
        self.head
    }
    fn init(&mut self, ctx: &mut Ctx<'_, Token>) {
        ctx.set_state(0);
        let hops = (ctx.rng().next_u64() % 12) as u32;
        self.forward(ctx, hops, SimTime::ZERO);
        let delay = SimTime(ctx.rng().next_u64() % 2_000);
        ctx.schedule(delay, 3);
    }
    fn on_message(&mut self, ctx: &mut Ctx<'_, Token>, port: PortIndex, msg: Token) {
        assert!(self.quirk != Quirk::Panics, "a behaviour that panics");
        ctx.set_state(1);
        ctx.record_queue(port, (msg.hops % 4) as usize);
        ctx.record_pair_latency(u32::from(port), ctx.me() % 3, ctx.now() - msg.born);
        ctx.set_param(0, TraceValue::Int(i64::from(msg.hops)));
        ctx.comment(|| format!("got {} on {port}", msg.hops));
        if msg.hops > 0 {
            self.forward(ctx, msg.hops - 1, msg.born);
        }
        if self.quirk == Quirk::Stops && msg.hops == 0 {
            ctx.request_stop();
        }
    }
    fn on_timer(&mut self, ctx: &mut Ctx<'_, Token>, key: u64) {
        ctx.set_state(0);
        if key > 0 {
            let now = ctx.now();
            self.forward(ctx, key as u32, now);
        }
    }
    fn traced_params(&self) -> Vec<String> {
        vec!["hops".into()]
    }
    fn direct_deliveries(&self) -> DirectDeliveries {
        if self.declared { DirectDeliveries::Never } else { DirectDeliveries::Undeclared }
    }
    fn may_request_stop(&self) -> bool {
        self.quirk == Quirk::Stops
    }
}

/// `entities` entities of `ports` ports each, joined by `links` (entity, port, entity, port,
/// latency in ps), each port used at most once.
fn model(entities: usize, ports: u16, links: &[(u32, u16, u32, u16, u64)]) -> FlatModel {
    let mut flat: Vec<FlatEntity> = (0..entities)
        .map(|i| {
            FlatEntity::new(
                &format!("e{i}"),
                "hop",
                (0..ports).map(|p| format!("p{p}")),
                "x",
                &["IDLE", "BUSY"],
            )
        })
        .collect();
    let mut used = std::collections::BTreeSet::new();
    let mut kept = Vec::new();
    for &(a, pa, b, pb, latency) in links {
        if (a, pa) == (b, pb) || !used.insert((a, pa)) || !used.insert((b, pb)) {
            continue;
        }
        let index = kept.len() as u32;
        flat[a as usize].set_link(pa, Some(index));
        flat[b as usize].set_link(pb, Some(index));
        kept.push(FlatLink {
            ends: [Endpoint { entity: a, port: pa }, Endpoint { entity: b, port: pb }],
            latency: SimTime(latency),
            bandwidth_bytes_per_s: 1_000_000_000,
            forward: true,
            backward: (a + b) % 4 != 0,
        });
    }
    FlatModel { project: "random".into(), entities: flat, links: kept, groups: vec![], scopes: vec![] }
}

/// What a run gives: its outcome, how it was spread, its records, its report as JSON (less the
/// host's figures) and what is still pending.
fn run(
    model: &Arc<FlatModel>,
    hopper: impl Fn(usize) -> Hopper,
    threads: usize,
    until: Option<SimTime>,
) -> (RunOutcome, Partitioning, Vec<Record>, String, usize) {
    run_at(TraceLevel::COMMENTS, model, hopper, threads, until)
}

/// [`run`] with a trace of `level`; a run with an until-time is then run on to its end (the
/// outcome and pending count are those at the until-time, the records and report those at the
/// end).
fn run_at(
    level: TraceLevel,
    model: &Arc<FlatModel>,
    hopper: impl Fn(usize) -> Hopper,
    threads: usize,
    until: Option<SimTime>,
) -> (RunOutcome, Partitioning, Vec<Record>, String, usize) {
    let sink = Arc::new(Mutex::new(MemorySink::default()));
    let behaviours: Vec<Box<dyn Behaviour<Token>>> =
        (0..model.entities.len()).map(|i| Box::new(hopper(i)) as Box<dyn Behaviour<Token>>).collect();
    let config = SimConfig { seed: 7, level, sink: Some(Box::new(sink.clone())), live_values: true };
    let mut sim = Simulation::new(model.clone(), behaviours, config).expect("a simulation");
    let control = RunControl { until, ..RunControl::default() };
    let (outcome, partitioning) = sim.run_on(threads, control);
    let pending = sim.pending();
    // A run stopped at its until-time goes on to the end, on as many threads: what the partitions
    // gave back (their agendas and the pushes handed over at the last barrier, with their final
    // numbers) must continue the run exactly as one thread does.
    let ended = if until.is_some() { sim.run_on(threads, RunControl::default()).0 } else { outcome.clone() };
    let mut report = sim.finish(ended);
    report.stats.wall_time_s = 0.0;
    report.stats.events_per_s = 0.0;
    let records = std::mem::take(&mut sink.lock().unwrap().records);
    (outcome, partitioning, records, serde_json::to_string(&report.stats).unwrap_or_default(), pending)
}

fn hopper(head: bool) -> impl Fn(usize) -> Hopper {
    move |i| Hopper { ports: 3, head: head && i % 2 == 0, declared: true, quirk: Quirk::None }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    /// Any model and traffic: the same records, report, outcome and pending events on 1, 2 and 3
    /// threads, with a trace of comments (partitions dealt equal shares) or of every message (the
    /// last partition dealt less, as its thread writes more).
    #[test]
    fn random_models_run_the_same_on_any_thread_count(
        entities in 2usize..24,
        links in prop::collection::vec((0u32..24, 0u16..3, 0u32..24, 0u16..3, prop::sample::select(vec![0u64, 1_000, 2_500, 7_000])), 1..40),
        head in any::<bool>(),
        until in prop::option::of(1_000u64..40_000),
        level in prop::sample::select(vec![TraceLevel::COMMENTS, TraceLevel::MESSAGES]),
    ) {
        let links: Vec<_> = links.into_iter().filter(|l| (l.0 as usize) < entities && (l.2 as usize) < entities).collect();
        let model = Arc::new(model(entities, 3, &links));
        let until = until.map(SimTime);
        let (outcome, _, records, report, pending) = run_at(level, &model, hopper(head), 1, until);
        prop_assert!(!records.is_empty());
        for threads in [2, 3] {
            let got = run_at(level, &model, hopper(head), threads, until);
            prop_assert_eq!(&got.0, &outcome);
            if let Some(i) = got.2.iter().zip(&records).position(|(a, b)| a != b) {
                prop_assert!(false, "{} threads ({}): record {} is {:?}, one thread wrote {:?}", threads, got.1, i, got.2[i], records[i]);
            }
            prop_assert_eq!(got.2.len(), records.len());
            prop_assert_eq!(&got.3, &report);
            prop_assert_eq!(got.4, pending);
        }
    }
}

/// A ring of `n` entities whose links have `latency_ps`.
fn ring(n: u32, latency_ps: u64) -> FlatModel {
    let links: Vec<_> = (0..n).map(|i| (i, 0, (i + 1) % n, 1, latency_ps)).collect();
    model(n as usize, 3, &links)
}

#[test]
fn a_ring_is_cut_with_its_link_latency_as_the_window() {
    let model = Arc::new(ring(8, 1_000));
    let (_, partitioning, ..) = run(&model, hopper(false), 2, None);
    assert_eq!(partitioning, Partitioning::Split { partitions: 2, lookahead_ps: 1_000 });
}

#[test]
fn an_undeclared_behaviour_runs_on_one_partition() {
    let model = Arc::new(ring(8, 1_000));
    let undeclared = |i| Hopper { ports: 3, head: false, declared: i != 5, quirk: Quirk::None };
    let (_, partitioning, records, ..) = run(&model, undeclared, 2, None);
    assert_eq!(partitioning, Partitioning::One(OnePartition::DirectUndeclared { path: "e5".into() }));
    assert_eq!(records, run(&model, hopper(false), 1, None).2);
}

#[test]
fn a_behaviour_that_may_stop_runs_on_one_partition() {
    let model = Arc::new(ring(8, 1_000));
    let stopping = |_| Hopper { ports: 3, head: false, declared: true, quirk: Quirk::Stops };
    let (outcome, partitioning, ..) = run(&model, stopping, 4, None);
    assert_eq!(partitioning, Partitioning::One(OnePartition::MayRequestStop { path: "e0".into() }));
    assert_eq!(outcome, RunOutcome::Cancelled, "a token ran out of hops and asked to stop");
}

#[test]
fn zero_latency_everywhere_leaves_nothing_to_cut() {
    let model = Arc::new(ring(8, 0));
    let (_, partitioning, ..) = run(&model, hopper(false), 2, None);
    assert_eq!(partitioning, Partitioning::One(OnePartition::NoCut));
}

#[test]
fn zero_latency_links_keep_their_ends_together() {
    // Links 0-1 and 2-3 have no latency: four entities make two atoms, one per partition.
    let model =
        Arc::new(model(4, 3, &[(0, 0, 1, 0, 0), (1, 1, 2, 1, 500), (2, 0, 3, 0, 0), (3, 1, 0, 1, 900)]));
    let (_, partitioning, records, ..) = run(&model, hopper(false), 4, None);
    assert_eq!(partitioning, Partitioning::Split { partitions: 2, lookahead_ps: 500 });
    assert_eq!(records, run(&model, hopper(false), 1, None).2);
}

/// A behaviour that panics on a partition's own thread: the run passes the panic on to the caller
/// instead of waiting for that thread forever.
#[test]
fn a_panic_on_a_partition_thread_reaches_the_caller() {
    let model = Arc::new(ring(8, 1_000));
    // Odd entities are the second partition's, which runs on its own thread.
    let panicky = |i| Hopper {
        ports: 3,
        head: false,
        declared: true,
        quirk: if i % 2 == 1 { Quirk::Panics } else { Quirk::None },
    };
    let result = std::panic::catch_unwind(|| run(&model, panicky, 2, None));
    assert!(result.is_err(), "the run should have panicked");
}

/// The shares of the dealing: equal without writing; with writing `r` times the simulation, whole
/// numbers adding up to a round of `64 × partitions` (a power of two), the last near
/// `(1 − (n−1)·r) / (1 + r)` of another's.
#[test]
fn the_last_partition_is_dealt_less_by_what_the_writing_takes() {
    assert_eq!(shares(2, 0), vec![1, 1]);
    assert_eq!(shares(3, 0), vec![1, 1, 1]);
    for (partitions, per_mille) in [(2usize, 100u64), (2, 380), (3, 100), (4, 100), (4, 400)] {
        let got = shares(partitions, per_mille);
        let round = 64 * (partitions as u64).next_power_of_two();
        assert_eq!(got.iter().sum::<u64>(), round, "{partitions} partitions, {per_mille}‰");
        let r = per_mille as f64 / 1_000.0;
        let want = ((1.0 - (partitions as f64 - 1.0) * r) / (1.0 + r)).max(0.125);
        let last = got[partitions - 1] as f64;
        let other = got[0] as f64;
        assert!(last < other, "{partitions} partitions, {per_mille}‰: {got:?}");
        // Rounding to whole atoms moves the ratio by at most one atom in each share.
        assert!(
            (last / other - want).abs() <= 2.0 / other,
            "{partitions} partitions, {per_mille}‰: {got:?}, want {want}"
        );
    }
}

/// A ring of 512 single-entity atoms dealt for a written trace: the last partition gets its share
/// of every round, and entities a round apart fall in the same partition.
#[test]
fn a_written_trace_deals_the_last_partition_its_share_in_rounds() {
    let model = ring(512, 1_000);
    let hoppers: Vec<Hopper> = (0..512).map(hopper(false)).collect();
    let cut =
        plan::<Token>(&model, 2, MESSAGE_TRACE_PER_MILLE, |e| &hoppers[e as usize] as &dyn Behaviour<Token>)
            .expect("a cut");
    let share = shares(2, MESSAGE_TRACE_PER_MILLE);
    let last = cut.owner.iter().filter(|&&p| p == 1).count() as u64;
    assert_eq!(last, 512 / 128 * share[1]);
    assert!(last < 256);
    assert!((0..384).all(|e| cut.owner[e] == cut.owner[e + 128]));
    let equal =
        plan::<Token>(&model, 2, 0, |e| &hoppers[e as usize] as &dyn Behaviour<Token>).expect("a cut");
    assert!(equal.owner.iter().enumerate().all(|(e, &p)| usize::from(p) == e % 2));
}

/// A sink that refuses every record after its first `accepted`, and counts what it was asked.
#[derive(Default)]
struct Refusing {
    accepted: usize,
    records: usize,
    finished: usize,
}

impl crate::trace::TraceSink for Arc<Mutex<Refusing>> {
    fn header(&mut self, _: &crate::trace::TraceHeader) -> std::io::Result<()> {
        Ok(())
    }
    fn record(&mut self, _: &Record) -> std::io::Result<()> {
        let mut me = self.lock().unwrap();
        me.records += 1;
        if me.records > me.accepted { Err(std::io::Error::other("disk full")) } else { Ok(()) }
    }
    fn finish(&mut self) -> std::io::Result<()> {
        self.lock().unwrap().finished += 1;
        Ok(())
    }
}

/// A write that fails stops the trace and drops its sink unfinished (a trace file then keeps what
/// was at its path), on one thread and on two; the run itself goes on to the same end.
#[test]
fn a_sink_that_fails_is_dropped_unfinished_on_any_thread_count() {
    let model = Arc::new(ring(8, 1_000));
    let (_, _, records, report, _) = run(&model, hopper(false), 1, None);
    assert!(records.len() > 100);
    for threads in [1, 2] {
        let sink = Arc::new(Mutex::new(Refusing { accepted: 50, ..Refusing::default() }));
        let behaviours: Vec<Box<dyn Behaviour<Token>>> = (0..model.entities.len())
            .map(|i| Box::new(hopper(false)(i)) as Box<dyn Behaviour<Token>>)
            .collect();
        let config = SimConfig {
            seed: 7,
            level: TraceLevel::COMMENTS,
            sink: Some(Box::new(sink.clone())),
            live_values: true,
        };
        let mut sim = Simulation::new(model.clone(), behaviours, config).expect("a simulation");
        let (outcome, partitioning) = sim.run_on(threads, RunControl::default());
        assert_eq!(threads == 1, partitioning.is_one_thread(), "{partitioning}");
        let mut finished = sim.finish(outcome);
        let error = finished.trace_error.take().expect("the failure is reported");
        assert_eq!(error.to_string(), "disk full");
        let sink = sink.lock().unwrap();
        assert_eq!(sink.records, 51, "{threads} threads: nothing is written after the failure");
        assert_eq!(sink.finished, 0, "{threads} threads: the failed sink is not finished");
        finished.stats.wall_time_s = 0.0;
        finished.stats.events_per_s = 0.0;
        assert_eq!(serde_json::to_string(&finished.stats).unwrap(), report, "{threads} threads");
    }
}
