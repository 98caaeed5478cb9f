//! Scale: a 1,048,576-entity network (a 512×1024 torus: 524,288 routers and as many processors)
//! stored as its generator recipe, then expanded, elaborated, built and run for 10 µs of simulated
//! time under the periodic halo exchange. Printed once, measured first in the process (before any
//! other benchmark has touched the heap): wall time of each set-up step, resident memory after
//! each, and the peak (`VmHWM`, reset before starting), in bytes per entity.
//!
//! The criterion group then times the whole set-up (recipe → simulation ready to run) at 64×64,
//! 128×128 and 256×256 in entities per second: equal rates mean set-up is linear in size.
//!
//! `cargo bench -p hase-library --bench scale`; `HASE_SCALE_DIMS=256x256` picks another size for
//! the one-off figures.

#![allow(missing_docs, reason = "criterion's macros generate undocumented items")]
#![allow(
    clippy::unwrap_used,
    reason = "a benchmark that cannot build its project has nothing to measure: failing loudly is right"
)]

use std::sync::Arc;
use std::time::Instant;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use hase_engine::elaborate::elaborate;
use hase_engine::kernel::{RunControl, SimConfig, Simulation};
use hase_engine::model::Project;
use hase_engine::time::SimTime;
use hase_entities::factory::{BuildInputs, build_behaviours};
use hase_entities::message::NetMsg;
use hase_entities::store::NetBehaviours;
use hase_library::catalogue::registry_for;
use hase_library::generated::expand;
use hase_library::scale_projects::torus_halo;

/// Recipe → expanded document → flat model (document dropped) → behaviours → simulation.
fn set_up(recipe: &Project, mut step: impl FnMut(&str, u64)) -> Simulation<NetMsg, NetBehaviours> {
    let project = expand(recipe.clone(), "scale").unwrap();
    let registry = registry_for(&project);
    step("expanded document", 0);
    let model = Arc::new(elaborate(&project, &registry).unwrap());
    let entities = model.entities.len() as u64;
    step("elaborated", entities);
    let workload = project.workload.clone();
    let placement = project.placement.clone();
    drop(project);
    step("document dropped", entities);
    let built = build_behaviours(&BuildInputs {
        model: &model,
        registry: &registry,
        workload: &workload,
        base_dir: std::path::Path::new("."),
        placement: &placement,
    })
    .unwrap();
    step("behaviours built", entities);
    let sim = Simulation::with_store(model, built.behaviours, SimConfig::default()).unwrap();
    step("simulation ready", entities);
    sim
}

fn dims() -> (u32, u32) {
    std::env::var("HASE_SCALE_DIMS")
        .ok()
        .and_then(|d| {
            let (x, y) = d.split_once('x')?;
            Some((x.parse().ok()?, y.parse().ok()?))
        })
        .unwrap_or((512, 1024))
}

fn one_million(_: &mut Criterion) {
    let (x, y) = dims();
    let recipe = torus_halo(x, y);
    let text = hase_engine::model::project_to_ron(&recipe).unwrap();
    hase_library::process_memory::reset_peak();
    let (before, _) = hase_library::process_memory::resident_and_peak_bytes();
    let start = Instant::now();
    let mut last = start;
    let mut n = 2 * u64::from(x) * u64::from(y);
    let mut sim = set_up(&recipe, |what, entities| {
        n = entities.max(n);
        let (rss, peak) = hase_library::process_memory::resident_and_peak_bytes();
        eprintln!(
            "torus {x}x{y}: {what:<20} {:>7.2} s (step {:>6.2} s)  resident {:>6} MiB  peak {:>6} MiB  {:>5} B/entity",
            start.elapsed().as_secs_f64(),
            last.elapsed().as_secs_f64(),
            (rss - before) >> 20,
            (peak - before) >> 20,
            (rss - before) / n,
        );
        last = Instant::now();
    });
    let setup_s = start.elapsed().as_secs_f64();
    let (_, setup_peak) = hase_library::process_memory::resident_and_peak_bytes();
    let until = SimTime::from_us(10);
    let run_start = Instant::now();
    let outcome = sim.run(RunControl { until: Some(until), ..RunControl::default() });
    let run_s = run_start.elapsed().as_secs_f64();
    let (_, run_peak) = hase_library::process_memory::resident_and_peak_bytes();
    let events = sim.events();
    let report = sim.finish(outcome);
    let (_, finish_peak) = hase_library::process_memory::resident_and_peak_bytes();
    eprintln!(
        "torus {x}x{y}: {n} entities from a {} B recipe; set-up {setup_s:.2} s, set-up peak {} MiB ({} B/entity); \
         ran {events} events to {until} ({:?}) in {run_s:.2} s, peak while running {} MiB ({} B/entity); \
         peak with the statistics report {} MiB ({} B/entity)",
        text.len(),
        (setup_peak - before) >> 20,
        (setup_peak - before) / n,
        report.outcome,
        (run_peak - before) >> 20,
        (run_peak - before) / n,
        (finish_peak - before) >> 20,
        (finish_peak - before) / n,
    );
}

fn setup_is_linear(c: &mut Criterion) {
    let mut group = c.benchmark_group("scale_setup");
    group.sample_size(10);
    for (x, y) in [(64, 64), (128, 128), (256, 256)] {
        let recipe = torus_halo(x, y);
        group.throughput(Throughput::Elements(2 * u64::from(x) * u64::from(y)));
        group.bench_function(format!("torus{x}x{y}_entities"), |b| {
            b.iter(|| set_up(&recipe, |_, _| {}).events());
        });
    }
    group.finish();
}

criterion_group!(benches, one_million, setup_is_linear);
criterion_main!(benches);
