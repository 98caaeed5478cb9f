//! PHOLD through the real kernel API against bare pending-event loops doing the same work.
//!
//! Each of N entities starts with 16 events; each handled event schedules one event at a uniformly
//! random entity after 0.1 + Exp(1) time units (1 unit = 1 µs), until 10 million events have run.
//!
//! The tracked figure is the **stateful** PHOLD: each entity owns state, as real behaviours do (it
//! counts the events it handled and folds their times into a checksum), and draws from its own
//! random stream. The kernel runs it through `Simulation` (events delivered with
//! `Ctx::deliver_direct`). The bare loops keep `(time, seq, target)` in a
//! `std::collections::BinaryHeap` or in the kernel's radix-heap `EventQueue`, and one record per
//! entity holding its stream (seeded exactly as the kernel seeds it) and the same counters, so they
//! replay the kernel's event sequence: counts, final time and checksums are asserted equal before
//! measuring. The kernel keeps the behaviours in one contiguous store (`Slots`, as the network
//! models' store does); `kernel_stateful_boxed` runs the same with one box per entity (the general
//! store), for comparison. Two kernel-only figures sit beside them: the stateless PHOLD (a zero-sized behaviour,
//! what the kernel costs with no entity state) and the radix heap with one shared stream (queue
//! speed alone). Throughput is events/s.
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

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use hase_engine::elaborate::{Endpoint, FlatEntity, FlatModel, FlatPort};
use hase_engine::kernel::queue::{EventQueue, QueuedEvent};
use hase_engine::kernel::{EntityRng, RunOutcome, Slots, entity_rng};
use hase_engine::model::Direction;
use hase_engine::trace::TraceValue;
use hase_engine::{Behaviour, Ctx, Message, PortIndex, SimConfig, SimTime, Simulation};
use rand::{Rng, RngExt, SeedableRng};
use rand_distr::{Distribution, Exp1};

const EVENTS: u64 = 10_000_000;
const START_PER_ENTITY: u32 = 16;
const UNIT_PS: f64 = 1e6;
const SEED: u64 = 42;
/// Times are folded into checksums modulo this prime (keeps every sum exact in an f64 summary).
const CHECK_MOD: u64 = 1_000_003;

fn delay_ps(rng: &mut impl Rng) -> u64 {
    let e: f64 = Exp1.sample(rng);
    ((0.1 + e) * UNIT_PS).round() as u64
}

struct PholdToken;

impl Message for PholdToken {
    fn size_bytes(&self) -> u64 {
        0
    }
    fn label(&self) -> String {
        String::new()
    }
}

fn fire(ctx: &mut Ctx<'_, PholdToken>) {
    let entities = ctx.entity_count() as u32;
    let target = ctx.rng().random_range(0..entities);
    let delay = SimTime(delay_ps(ctx.rng()));
    ctx.deliver_direct(Endpoint { entity: target, port: 0 }, delay, PholdToken);
}

/// A stateless PHOLD entity (the standard formulation): only its random stream is its own.
struct Phold;

impl Behaviour<PholdToken> for Phold {
    fn init(&mut self, ctx: &mut Ctx<'_, PholdToken>) {
        for _ in 0..START_PER_ENTITY {
            fire(ctx);
        }
    }
    fn on_message(&mut self, ctx: &mut Ctx<'_, PholdToken>, _port: PortIndex, _msg: PholdToken) {
        fire(ctx);
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

/// A stateful PHOLD entity, as real behaviours are.
#[derive(Default)]
struct StatefulPhold {
    counters: Counters,
}

impl Behaviour<PholdToken> for StatefulPhold {
    fn init(&mut self, ctx: &mut Ctx<'_, PholdToken>) {
        for _ in 0..START_PER_ENTITY {
            fire(ctx);
        }
    }
    fn on_message(&mut self, ctx: &mut Ctx<'_, PholdToken>, _port: PortIndex, _msg: PholdToken) {
        self.counters.count(ctx.now().as_ps());
        fire(ctx);
    }
    fn summary(&self) -> Vec<(String, TraceValue)> {
        vec![
            ("handled".into(), TraceValue::Int(self.counters.handled as i64)),
            ("checksum".into(), TraceValue::Int(self.counters.checksum as i64)),
        ]
    }
}

fn model(n: u32) -> Arc<FlatModel> {
    let entities = (0..n)
        .map(|i| {
            let mut e = FlatEntity::new(&format!("e{i}"), "phold", ["in"], "t", &[]);
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
fn stateful_sim(n: u32) -> Simulation<PholdToken, Slots<StatefulPhold>> {
    let store: Slots<StatefulPhold> = (0..n).map(|_| StatefulPhold::default()).collect();
    Simulation::with_store(model(n), store, config()).unwrap()
}

/// The stateful PHOLD through the kernel. Returns (events, final time).
fn kernel_stateful(n: u32) -> (u64, u64) {
    let mut sim = stateful_sim(n);
    while sim.events() < EVENTS && sim.step() {}
    (sim.events(), sim.now().as_ps())
}

/// The stateful PHOLD with one boxed behaviour per entity (the general store), run to the end.
fn boxed_sim(n: u32) -> Simulation<PholdToken> {
    let behaviours: Vec<Box<dyn Behaviour<PholdToken>>> =
        (0..n).map(|_| Box::new(StatefulPhold::default()) as Box<dyn Behaviour<PholdToken>>).collect();
    let mut sim = Simulation::new(model(n), behaviours, config()).unwrap();
    while sim.events() < EVENTS && sim.step() {}
    sim
}

fn kernel_stateful_boxed(n: u32) -> (u64, u64) {
    let sim = boxed_sim(n);
    (sim.events(), sim.now().as_ps())
}

/// The boxed run's per-entity counters, read back through the summaries.
fn kernel_stateful_boxed_counters(n: u32) -> ((u64, u64), Vec<Counters>) {
    let sim = boxed_sim(n);
    let ends = (sim.events(), sim.now().as_ps());
    let stats = sim.finish(RunOutcome::ReachedUntil).stats;
    let counters = (0..n)
        .map(|i| {
            let extra = &stats.entities[&format!("e{i}")].extra;
            Counters { handled: extra["handled"] as u64, checksum: extra["checksum"] as u64 }
        })
        .collect();
    (ends, counters)
}

/// The stateful run's per-entity counters, read from the store.
fn kernel_stateful_counters(n: u32) -> ((u64, u64), Vec<Counters>) {
    let mut sim = stateful_sim(n);
    while sim.events() < EVENTS && sim.step() {}
    let ends = (sim.events(), sim.now().as_ps());
    (ends, sim.store().0.iter().map(|slot| slot.behaviour.counters).collect())
}

/// The stateless PHOLD through the kernel (kernel-only figure).
fn kernel_stateless(n: u32) -> (u64, u64) {
    let behaviours: Vec<Box<dyn Behaviour<PholdToken>>> =
        (0..n).map(|_| Box::new(Phold) as Box<dyn Behaviour<PholdToken>>).collect();
    let mut sim = Simulation::new(model(n), behaviours, config()).unwrap();
    while sim.events() < EVENTS && sim.step() {}
    (sim.events(), sim.now().as_ps())
}

/// A bare loop's entity: its stream (seeded exactly as the kernel seeds it) and its counters.
struct BareEntity {
    rng: EntityRng,
    counters: Counters,
}

fn bare_entities(n: u32) -> Vec<BareEntity> {
    (0..n)
        .map(|i| BareEntity { rng: entity_rng(SEED, &format!("e{i}")), counters: Counters::default() })
        .collect()
}

/// `(time, seq, target)` in a binary heap. Returns ((events, final time), counters).
fn heap_phold(n: u32) -> ((u64, u64), Vec<Counters>) {
    let mut entities = bare_entities(n);
    let mut heap = BinaryHeap::new();
    let mut seq = 0u64;
    for e in &mut entities {
        for _ in 0..START_PER_ENTITY {
            let target = e.rng.random_range(0..n);
            heap.push(Reverse((delay_ps(&mut e.rng), seq, target)));
            seq += 1;
        }
    }
    let mut handled = 0;
    let mut now = 0;
    while let Some(Reverse((time, _, at))) = heap.pop() {
        now = time;
        handled += 1;
        let e = &mut entities[at as usize];
        e.counters.count(now);
        let target = e.rng.random_range(0..n);
        heap.push(Reverse((now + delay_ps(&mut e.rng), seq, target)));
        seq += 1;
        if handled >= EVENTS {
            break;
        }
    }
    ((handled, now), entities.into_iter().map(|e| e.counters).collect())
}

/// The kernel's radix-heap `EventQueue` holding only the target. Returns ((events, final time),
/// counters).
fn radix_phold(n: u32) -> ((u64, u64), Vec<Counters>) {
    let mut entities = bare_entities(n);
    let mut queue = EventQueue::new();
    let mut seq = 0u64;
    for e in &mut entities {
        for _ in 0..START_PER_ENTITY {
            let target = e.rng.random_range(0..n);
            queue.push(QueuedEvent { time: delay_ps(&mut e.rng), seq, payload: target });
            seq += 1;
        }
    }
    let mut handled = 0;
    let mut now = 0;
    while let Some(ev) = queue.pop() {
        now = ev.time;
        handled += 1;
        let e = &mut entities[ev.payload as usize];
        e.counters.count(now);
        let target = e.rng.random_range(0..n);
        queue.push(QueuedEvent { time: now + delay_ps(&mut e.rng), seq, payload: target });
        seq += 1;
        if handled >= EVENTS {
            break;
        }
    }
    ((handled, now), entities.into_iter().map(|e| e.counters).collect())
}

/// Queue speed alone: the radix heap with one shared stream (not the same work: no per-entity state).
fn radix_queue_only(n: u32) -> u64 {
    let mut rng = rand_pcg::Pcg64Mcg::seed_from_u64(SEED);
    let mut queue = EventQueue::new();
    let mut seq = 0u64;
    for _ in 0..n * START_PER_ENTITY {
        let target = rng.random_range(0..n);
        queue.push(QueuedEvent { time: delay_ps(&mut rng), seq, payload: target });
        seq += 1;
    }
    let mut handled = 0;
    while let Some(e) = queue.pop() {
        handled += 1;
        if handled >= EVENTS {
            break;
        }
        let target = rng.random_range(0..n);
        queue.push(QueuedEvent { time: e.time + delay_ps(&mut rng), seq, payload: target });
        seq += 1;
    }
    handled
}

fn phold(c: &mut Criterion) {
    for n in [1_024u32, 65_536] {
        let mut group = c.benchmark_group(format!("phold_{n}_entities"));
        group.sample_size(10);
        group.throughput(Throughput::Elements(EVENTS));
        // The bare loops must do exactly the kernel's work: same events, same final time, same
        // per-entity counters.
        let kernel = kernel_stateful_counters(n);
        assert_eq!(kernel, heap_phold(n), "binary-heap loop diverged from the kernel");
        assert_eq!(kernel, radix_phold(n), "radix-heap loop diverged from the kernel");
        assert_eq!(kernel, kernel_stateful_boxed_counters(n), "boxed store diverged from the contiguous one");
        assert_eq!(kernel.0, kernel_stateless(n), "stateless PHOLD diverged from the stateful one");
        group.bench_function("kernel_stateful", |b| b.iter(|| kernel_stateful(n)));
        group.bench_function("kernel_stateful_boxed", |b| b.iter(|| kernel_stateful_boxed(n)));
        group.bench_function("bare_radix_heap", |b| b.iter(|| radix_phold(n)));
        group.bench_function("bare_binary_heap", |b| b.iter(|| heap_phold(n)));
        group.bench_function("kernel_stateless", |b| b.iter(|| kernel_stateless(n)));
        group.bench_function("radix_queue_only_shared_stream", |b| b.iter(|| radix_queue_only(n)));
        group.finish();
    }
}

/// Peak bytes per pending event of the kernel over the first 2 M events at 65,536 entities.
fn pending_memory(_c: &mut Criterion) {
    let mut sim = stateful_sim(65_536);
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

criterion_group!(benches, pending_memory, phold);
criterion_main!(benches);
