//! PHOLD through the real kernel API against bare pending-event loops doing the same work.
//!
//! Each of N entities starts with 16 events; each handled event schedules one event at a uniformly
//! random entity after 0.1 + Exp(1) time units (1 unit = 1 µs), until 10 million events have run.
//! The kernel run uses `Simulation` with one behaviour per entity (events delivered with
//! `Ctx::deliver_direct`, random numbers from each entity's own stream). The bare loops keep only
//! `(time, seq, target)` in a `std::collections::BinaryHeap` or in the kernel's radix-heap
//! `EventQueue`, and draw from per-entity streams seeded exactly as the kernel seeds them, so they
//! replay the kernel's event sequence (asserted before measuring). A fourth loop keeps only the radix
//! heap and one shared generator: queue speed with no per-entity state. Throughput is events/s.

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
use hase_engine::kernel::{EntityRng, entity_rng};
use hase_engine::model::Direction;
use hase_engine::{Behaviour, Ctx, Message, PortIndex, SimConfig, SimTime, Simulation};
use rand::{Rng, RngExt, SeedableRng};
use rand_distr::{Distribution, Exp1};

const EVENTS: u64 = 10_000_000;
const START_PER_ENTITY: u32 = 16;
const UNIT_PS: f64 = 1e6;
const SEED: u64 = 42;

fn delay_ps(rng: &mut impl Rng) -> u64 {
    let e: f64 = Exp1.sample(rng);
    ((0.1 + e) * UNIT_PS).round() as u64
}

struct Token;

impl Message for Token {
    fn size_bytes(&self) -> u64 {
        0
    }
    fn label(&self) -> String {
        String::new()
    }
}

/// A PHOLD entity: stateless, as in the standard formulation; its random stream is its own.
/// A PHOLD entity: stateless, as in the standard formulation; its random stream is its own.
struct Phold;

impl Phold {
    fn fire(ctx: &mut Ctx<'_, Token>) {
        let entities = ctx.entity_count() as u32;
        let target = ctx.rng().random_range(0..entities);
        let delay = SimTime(delay_ps(ctx.rng()));
        ctx.deliver_direct(Endpoint { entity: target, port: 0 }, delay, Token);
    }
}

impl Behaviour<Token> for Phold {
    fn init(&mut self, ctx: &mut Ctx<'_, Token>) {
        for _ in 0..START_PER_ENTITY {
            Self::fire(ctx);
        }
    }
    fn on_message(&mut self, ctx: &mut Ctx<'_, Token>, _port: PortIndex, _msg: Token) {
        Self::fire(ctx);
    }
}

fn model(n: u32) -> Arc<FlatModel> {
    let entities = (0..n)
        .map(|i| FlatEntity {
            path: format!("e{i}"),
            type_name: "Phold".into(),
            behaviour: "phold".into(),
            params: hase_engine::elaborate::ParamSet::default(),
            ports: vec![FlatPort {
                name: "in".into(),
                direction: Direction::In,
                link_type: "t".into(),
                link: None,
            }],
            states: Vec::new().into(),
            group: None,
            scope: 0,
            stands_for: None,
        })
        .collect();
    Arc::new(FlatModel { project: "phold".into(), entities, ..FlatModel::default() })
}

fn kernel_phold(n: u32) -> (u64, u64) {
    let behaviours: Vec<Box<dyn Behaviour<Token>>> =
        (0..n).map(|_| Box::new(Phold) as Box<dyn Behaviour<Token>>).collect();
    let mut sim =
        Simulation::new(model(n), behaviours, SimConfig { seed: SEED, ..SimConfig::default() }).unwrap();
    while sim.events() < EVENTS && sim.step() {}
    (sim.events(), sim.now().as_ps())
}

/// One random stream per entity, seeded exactly as the kernel seeds them, so the bare loops replay
/// the kernel's event sequence event for event.
fn streams(n: u32) -> Vec<EntityRng> {
    (0..n).map(|i| entity_rng(SEED, &format!("e{i}"))).collect()
}

/// `(time, seq, target)` in a binary heap; per-entity streams. Returns (events, final time).
fn heap_phold(n: u32) -> (u64, u64) {
    let mut rngs = streams(n);
    let mut heap = BinaryHeap::new();
    let mut seq = 0u64;
    for rng in &mut rngs {
        for _ in 0..START_PER_ENTITY {
            let target = rng.random_range(0..n);
            heap.push(Reverse((delay_ps(rng), seq, target)));
            seq += 1;
        }
    }
    let mut handled = 0;
    let mut now = 0;
    while let Some(Reverse((time, _, at))) = heap.pop() {
        now = time;
        handled += 1;
        let rng = &mut rngs[at as usize];
        let target = rng.random_range(0..n);
        heap.push(Reverse((now + delay_ps(rng), seq, target)));
        seq += 1;
        if handled >= EVENTS {
            break;
        }
    }
    (handled, now)
}

/// The kernel's radix-heap `EventQueue` holding only the target; per-entity streams.
fn radix_phold(n: u32) -> (u64, u64) {
    let mut rngs = streams(n);
    let mut queue = EventQueue::new();
    let mut seq = 0u64;
    for rng in &mut rngs {
        for _ in 0..START_PER_ENTITY {
            let target = rng.random_range(0..n);
            queue.push(QueuedEvent { time: delay_ps(rng), seq, payload: target });
            seq += 1;
        }
    }
    let mut handled = 0;
    let mut now = 0;
    while let Some(e) = queue.pop() {
        now = e.time;
        handled += 1;
        let rng = &mut rngs[e.payload as usize];
        let target = rng.random_range(0..n);
        queue.push(QueuedEvent { time: now + delay_ps(rng), seq, payload: target });
        seq += 1;
        if handled >= EVENTS {
            break;
        }
    }
    (handled, now)
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
        // The bare loops must do exactly the kernel's work: same events, same final time.
        let kernel = kernel_phold(n);
        assert_eq!(kernel, heap_phold(n), "binary-heap loop diverged from the kernel");
        assert_eq!(kernel, radix_phold(n), "radix-heap loop diverged from the kernel");
        group.bench_function("kernel", |b| b.iter(|| kernel_phold(n)));
        group.bench_function("bare_binary_heap", |b| b.iter(|| heap_phold(n)));
        group.bench_function("bare_radix_heap", |b| b.iter(|| radix_phold(n)));
        group.bench_function("radix_queue_only_shared_stream", |b| b.iter(|| radix_queue_only(n)));
        group.finish();
    }
}

criterion_group!(benches, phold);
criterion_main!(benches);
