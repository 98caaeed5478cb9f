//! PHOLD through the real kernel API against bare pending-event loops doing the same work.
//!
//! Each of N entities starts with 16 events; each handled event schedules one event at a uniformly
//! random entity after 0.1 + Exp(1) time units (1 unit = 1 µs), until 10 million events have run.
//!
//! The tracked figure is the **stateful** PHOLD: each entity owns state, as real behaviours do (it
//! counts the events it handled and folds their times into a checksum), and draws from its own
//! SplitMix64 stream (`−ln(1 − u)` delays, multiply-shift targets; `phold/textbook.rs`). The kernel
//! runs it through `Simulation` (events delivered with `Ctx::deliver_direct`), its behaviours in
//! one contiguous store (`Slots`, as the network models' store does).
//!
//! The baseline is `textbook`: the plainest fast loop doing the same work (`phold/textbook.rs`:
//! packed `u128` keys in a radix heap of plain vectors, the entity's stream beside its counters).
//! `kernel_stateful ÷ textbook` is the ratio `docs/performance.md` reports. Beside them, for
//! diagnosis: `bare_event_queue` (the same loop on the kernel's `EventQueue`),
//! `bare_binary_heap` (`std::collections::BinaryHeap`), `kernel_stateful_boxed` (one box per
//! entity, the general store), `kernel_stateless` (a zero-sized behaviour drawing from the kernel's
//! own per-entity stream: what the kernel costs with no entity state; same event count, other
//! draws) and `event_queue_shared_stream` (the kernel's queue with one shared stream: queue speed
//! alone). Every loop but the last two replays the kernel's event sequence: each measured run's
//! count, final time and per-entity counters are asserted equal to the kernel's. Throughput is
//! events per second of the benchmark thread's CPU time (`phold/cpu_time.rs`): the machine the
//! figures come from is shared, and wall time would count the other processes' turns.
//!
//! `pending_memory` prints the kernel's bytes per pending event at its peak (queue buffers with
//! spare room and payloads, from `Simulation::pending_bytes`) over the first 2 million events of
//! the 65,536-entity run (1 M pending).

#![allow(missing_docs, reason = "criterion's macros generate undocumented items")]
#![allow(
    clippy::unwrap_used,
    reason = "a benchmark whose model cannot be built has nothing to measure: failing loudly is right"
)]

use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::sync::Arc;

use criterion::{BenchmarkGroup, Criterion, Throughput, criterion_group, criterion_main};
use hase_engine::elaborate::{Endpoint, FlatEntity, FlatModel, FlatPort};
use hase_engine::kernel::queue::{EventQueue, QueuedEvent};
use hase_engine::kernel::{RunOutcome, Slots};
use hase_engine::model::Direction;
use hase_engine::trace::TraceValue;
use hase_engine::{Behaviour, Ctx, Message, PortIndex, SimConfig, SimTime, Simulation};
use rand::{Rng, SeedableRng};

#[path = "phold/cpu_time.rs"]
mod cpu_time;
#[path = "phold/textbook.rs"]
mod textbook;

use cpu_time::ThreadCpuTime;
use textbook::{SplitMix64, delay_ps_of, target_of};

const EVENTS: u64 = 10_000_000;
const START_PER_ENTITY: u32 = 16;
const SEED: u64 = 42;
/// Times are folded into checksums modulo this prime (keeps every sum exact in an f64 summary).
const CHECK_MOD: u64 = 1_000_003;

struct PholdToken;

impl Message for PholdToken {
    fn size_bytes(&self) -> u64 {
        0
    }
    fn write_label(&self, _out: &mut String) {}
}

/// Schedule one PHOLD event from two draws of `next` (target first, then delay).
#[inline]
fn fire(ctx: &mut Ctx<'_, PholdToken>, mut next: impl FnMut(&mut Ctx<'_, PholdToken>) -> u64) {
    let entities = ctx.entity_count() as u32;
    let target = target_of(next(ctx), entities);
    let delay = SimTime(delay_ps_of(next(ctx)));
    ctx.deliver_direct(Endpoint { entity: target, port: 0 }, delay, PholdToken);
}

/// A stateless PHOLD entity (the standard formulation): it draws from the kernel's stream.
struct Phold;

impl Behaviour<PholdToken> for Phold {
    fn init(&mut self, ctx: &mut Ctx<'_, PholdToken>) {
        for _ in 0..START_PER_ENTITY {
            fire(ctx, |ctx| ctx.rng().next_u64());
        }
    }
    fn on_message(&mut self, ctx: &mut Ctx<'_, PholdToken>, _port: PortIndex, _msg: PholdToken) {
        fire(ctx, |ctx| ctx.rng().next_u64());
    }
}

/// What a stateful PHOLD entity keeps: events handled and a checksum of their times.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Counters {
    handled: u64,
    checksum: u64,
}

impl Counters {
    fn count(&mut self, time_ps: u64) {
        self.handled += 1;
        self.checksum += time_ps % CHECK_MOD;
    }
}

/// A stateful PHOLD entity, as real behaviours are: counters and its own stream.
struct StatefulPhold {
    counters: Counters,
    stream: SplitMix64,
}

impl StatefulPhold {
    fn new(entity: u32) -> Self {
        StatefulPhold { counters: Counters::default(), stream: SplitMix64::for_entity(SEED, &path(entity)) }
    }
}

impl Behaviour<PholdToken> for StatefulPhold {
    fn init(&mut self, ctx: &mut Ctx<'_, PholdToken>) {
        for _ in 0..START_PER_ENTITY {
            fire(ctx, |_| self.stream.next_u64());
        }
    }
    fn on_message(&mut self, ctx: &mut Ctx<'_, PholdToken>, _port: PortIndex, _msg: PholdToken) {
        self.counters.count(ctx.now().as_ps());
        fire(ctx, |_| self.stream.next_u64());
    }
    fn summary(&self) -> Vec<(String, TraceValue)> {
        vec![
            ("handled".into(), TraceValue::Int(self.counters.handled as i64)),
            ("checksum".into(), TraceValue::Int(self.counters.checksum as i64)),
        ]
    }
}

fn path(entity: u32) -> String {
    format!("e{entity}")
}

fn model(n: u32) -> Arc<FlatModel> {
    let entities = (0..n)
        .map(|i| {
            let mut e = FlatEntity::new(&path(i), "phold", ["in"], "t", &[]);
            e.set_type_name("Phold");
            e.set_ports([FlatPort { name: "in".into(), direction: Direction::In, link_type: "t".into() }]);
            e
        })
        .collect();
    Arc::new(FlatModel { project: "phold".into(), entities, ..FlatModel::default() })
}

fn config() -> SimConfig {
    SimConfig { seed: SEED, ..SimConfig::default() }
}

/// The stateful PHOLD with its behaviours in one contiguous store (what the network models use).
fn stateful_sim(model: &Arc<FlatModel>) -> Simulation<PholdToken, Slots<StatefulPhold>> {
    let store: Slots<StatefulPhold> = (0..model.entities.len() as u32).map(StatefulPhold::new).collect();
    Simulation::with_store(Arc::clone(model), store, config()).unwrap()
}

/// What every same-work loop returns: (events, final time) and the per-entity counters.
type Outcome = ((u64, u64), Vec<Counters>);

/// The stateful PHOLD with one boxed behaviour per entity (the general store). The counters are
/// read back through the run's report (the store keeps them where only the summaries reach), which
/// adds the report's cost to this figure.
fn kernel_stateful_boxed(model: &Arc<FlatModel>) -> Outcome {
    let behaviours: Vec<Box<dyn Behaviour<PholdToken>>> = (0..model.entities.len() as u32)
        .map(|i| Box::new(StatefulPhold::new(i)) as Box<dyn Behaviour<PholdToken>>)
        .collect();
    let mut sim = Simulation::new(Arc::clone(model), behaviours, config()).unwrap();
    while sim.events() < EVENTS && sim.step() {}
    let ends = (sim.events(), sim.now().as_ps());
    let stats = sim.finish(RunOutcome::ReachedUntil).stats;
    let counters = (0..model.entities.len() as u32)
        .map(|i| {
            let extra = &stats.entities[&path(i)].extra;
            Counters { handled: extra["handled"] as u64, checksum: extra["checksum"] as u64 }
        })
        .collect();
    (ends, counters)
}

/// The stateful PHOLD through the kernel, with the per-entity counters read from the store.
fn kernel_stateful(model: &Arc<FlatModel>) -> Outcome {
    let mut sim = stateful_sim(model);
    while sim.events() < EVENTS && sim.step() {}
    let ends = (sim.events(), sim.now().as_ps());
    (ends, sim.store().0.iter().map(|slot| slot.behaviour.counters).collect())
}

/// The stateless PHOLD through the kernel (kernel-only figure).
fn kernel_stateless(model: &Arc<FlatModel>) -> (u64, u64) {
    let behaviours: Vec<Box<dyn Behaviour<PholdToken>>> =
        (0..model.entities.len()).map(|_| Box::new(Phold) as Box<dyn Behaviour<PholdToken>>).collect();
    let mut sim = Simulation::new(Arc::clone(model), behaviours, config()).unwrap();
    while sim.events() < EVENTS && sim.step() {}
    (sim.events(), sim.now().as_ps())
}

/// The textbook loop's result in the bench's terms.
fn textbook_phold(n: u32) -> Outcome {
    let (ends, counters) = textbook::run(n, START_PER_ENTITY, EVENTS, SEED, CHECK_MOD);
    (ends, counters.into_iter().map(|(handled, checksum)| Counters { handled, checksum }).collect())
}

/// A bare loop's entity: its stream (seeded as the kernel's PHOLD behaviour seeds it) and counters.
struct BareEntity {
    stream: SplitMix64,
    counters: Counters,
}

fn bare_entities(n: u32) -> Vec<BareEntity> {
    (0..n)
        .map(|i| BareEntity { stream: SplitMix64::for_entity(SEED, &path(i)), counters: Counters::default() })
        .collect()
}

impl BareEntity {
    /// Count an event at `now`; the next event's (time, target).
    #[inline]
    fn handle(&mut self, now: u64, n: u32) -> (u64, u32) {
        self.counters.count(now);
        self.draw(now, n)
    }

    /// An event's (time, target) after `now`.
    #[inline]
    fn draw(&mut self, now: u64, n: u32) -> (u64, u32) {
        let target = target_of(self.stream.next_u64(), n);
        (now + delay_ps_of(self.stream.next_u64()), target)
    }
}

/// `(time, seq, target)` in a binary heap.
fn heap_phold(n: u32) -> Outcome {
    let mut entities = bare_entities(n);
    let mut heap = BinaryHeap::new();
    let mut seq = 0u64;
    for e in &mut entities {
        for _ in 0..START_PER_ENTITY {
            let (time, target) = e.draw(0, n);
            heap.push(Reverse((time, seq, target)));
            seq += 1;
        }
    }
    let mut handled = 0;
    let mut now = 0;
    while let Some(Reverse((time, _, at))) = heap.pop() {
        now = time;
        handled += 1;
        let (time, target) = entities[at as usize].handle(now, n);
        heap.push(Reverse((time, seq, target)));
        seq += 1;
        if handled >= EVENTS {
            break;
        }
    }
    ((handled, now), entities.into_iter().map(|e| e.counters).collect())
}

/// The kernel's radix-heap `EventQueue` holding the target.
fn event_queue_phold(n: u32) -> Outcome {
    let mut entities = bare_entities(n);
    let mut queue = EventQueue::new();
    let mut seq = 0u64;
    for e in &mut entities {
        for _ in 0..START_PER_ENTITY {
            let (time, payload) = e.draw(0, n);
            queue.push(QueuedEvent { time, seq, payload });
            seq += 1;
        }
    }
    let mut handled = 0;
    let mut now = 0;
    while let Some(ev) = queue.pop() {
        now = ev.time;
        handled += 1;
        let (time, payload) = entities[ev.payload as usize].handle(now, n);
        queue.push(QueuedEvent { time, seq, payload });
        seq += 1;
        if handled >= EVENTS {
            break;
        }
    }
    ((handled, now), entities.into_iter().map(|e| e.counters).collect())
}

/// Queue speed alone: the kernel's queue with one shared stream (not the same work: no per-entity
/// state).
fn event_queue_shared_stream(n: u32) -> u64 {
    let mut stream = rand_pcg::Pcg64Mcg::seed_from_u64(SEED);
    let mut queue = EventQueue::new();
    let mut seq = 0u64;
    for _ in 0..n * START_PER_ENTITY {
        let payload = target_of(stream.next_u64(), n);
        queue.push(QueuedEvent { time: delay_ps_of(stream.next_u64()), seq, payload });
        seq += 1;
    }
    let mut handled = 0;
    while let Some(e) = queue.pop() {
        handled += 1;
        if handled >= EVENTS {
            break;
        }
        let payload = target_of(stream.next_u64(), n);
        queue.push(QueuedEvent { time: e.time + delay_ps_of(stream.next_u64()), seq, payload });
        seq += 1;
    }
    handled
}

/// Measure `run` as `name` in `group`, and check the outcome of its last run against `reference`
/// (what the kernel's stateful run returned) when there is one.
fn measure<R: PartialEq + std::fmt::Debug>(
    group: &mut BenchmarkGroup<'_, ThreadCpuTime>,
    name: &str,
    reference: Option<&R>,
    mut run: impl FnMut() -> R,
) -> Option<R> {
    let mut last = None;
    group.bench_function(name, |b| b.iter(|| last = Some(run())));
    if let (Some(want), Some(got)) = (reference, &last) {
        assert_eq!(want, got, "{name} diverged from the kernel");
    }
    last
}

fn phold(c: &mut Criterion<ThreadCpuTime>) {
    for n in [1_024u32, 65_536] {
        let model = model(n);
        let mut group = c.benchmark_group(format!("phold_{n}_entities"));
        group.sample_size(10);
        group.throughput(Throughput::Elements(EVENTS));
        // Every loop must do exactly the kernel's work: same events, same final time and (where the
        // loop keeps them where they can be read) the same per-entity counters. Each measured run's
        // outcome is checked against the kernel's, so a filtered run checks what it measures.
        let kernel = measure(&mut group, "kernel_stateful", None, || kernel_stateful(&model));
        measure(&mut group, "textbook", kernel.as_ref(), || textbook_phold(n));
        measure(&mut group, "kernel_stateful_boxed", kernel.as_ref(), || kernel_stateful_boxed(&model));
        measure(&mut group, "bare_event_queue", kernel.as_ref(), || event_queue_phold(n));
        measure(&mut group, "bare_binary_heap", kernel.as_ref(), || heap_phold(n));
        let events = kernel.as_ref().map(|((events, _), _)| *events);
        measure(&mut group, "kernel_stateless", events.as_ref(), || kernel_stateless(&model).0);
        measure(&mut group, "event_queue_shared_stream", events.as_ref(), || event_queue_shared_stream(n));
        group.finish();
    }
}

/// Peak bytes per pending event of the kernel over the first 2 M events at 65,536 entities.
fn pending_memory(_c: &mut Criterion<ThreadCpuTime>) {
    let mut sim = stateful_sim(&model(65_536));
    let (mut peak_bytes, mut pending_at_peak) = (sim.pending_bytes(), sim.pending());
    while sim.events() < 2_000_000 && sim.step() {
        let bytes = sim.pending_bytes();
        if bytes > peak_bytes {
            (peak_bytes, pending_at_peak) = (bytes, sim.pending());
        }
    }
    eprintln!(
        "pending_memory: peak {peak_bytes} B for {pending_at_peak} pending events = {:.1} B per pending event",
        peak_bytes as f64 / pending_at_peak as f64
    );
}

criterion_group! {
    name = benches;
    config = Criterion::default().with_measurement(ThreadCpuTime);
    targets = pending_memory, phold
}
criterion_main!(benches);
