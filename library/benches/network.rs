//! Network benchmarks through the whole pipeline (template → elaborate → build → kernel):
//!
//! - uniform random traffic on a 16×16 torus, store-and-forward and cut-through, reported in
//!   packet-hops per second (packets forwarded by routers, summed), 1 KiB messages in 256-byte packets;
//! - an allreduce of 1 MiB on 64 ranks of a 4-ary 3-tree fat tree, 100 iterations: wall time and
//!   events per second (4 KiB packets);
//! - memory per entity of a 65,536-node (256×256) torus running the periodic halo exchange (one
//!   iteration of 4 KiB faces): resident memory added by elaborating, by building the simulation and
//!   at the run's peak, divided by its 131,072 entities (printed once, read from /proc; measured
//!   first, before any other benchmark has touched the heap);
//! - the periodic halo exchange on a 128×128 torus (32,768 entities, one iteration) on one thread
//!   and on two (the partitioned kernel, `docs/kernel.md`), in events per second of wall time.

#![allow(missing_docs, reason = "criterion's macros generate undocumented items")]
#![allow(
    clippy::unwrap_used,
    reason = "a benchmark that cannot build its project has nothing to measure: failing loudly is right"
)]

use std::sync::Arc;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use hase_engine::kernel::{RunControl, RunOutcome, SimConfig, Simulation};
use hase_engine::model::{ParamValue, Project, Workload};
use hase_engine::time::SimTime;
use hase_entities::factory::{BuildInputs, build_behaviours};
use hase_library::catalogue::registry_for;
use hase_library::runner::{RunOptions, elaborate_project, run_project};
use hase_templates::{ProjectForm, TemplateSpec, Topology, template_project};

fn project(topology: Topology, switching: &str, max_packet: i64, workload: Workload) -> Project {
    let mut spec = TemplateSpec::new(topology);
    spec.switch_params.insert("switching".into(), ParamValue::Text(switching.into()));
    spec.endpoint_params.insert("max_packet".into(), ParamValue::Int(max_packet));
    let mut p =
        template_project(&spec, &registry_for(&Project::new("bench")), "bench", &ProjectForm::Flat).unwrap();
    p.workload = workload;
    p
}

fn program(name: &str, params: &[(&str, ParamValue)]) -> Workload {
    Workload::Program {
        name: name.into(),
        params: params.iter().map(|(k, v)| ((*k).to_string(), v.clone())).collect(),
    }
}

/// Events and packet-hops of one run.
fn run(p: &Project) -> (u64, u64) {
    let result = run_project(p, &RunOptions::default(), |_| {}).unwrap();
    let hops = result.stats.entities.values().filter_map(|e| e.extra.get("packets_forwarded")).sum::<f64>();
    (result.stats.events, hops as u64)
}

fn torus_traffic(c: &mut Criterion) {
    let workload = program(
        "uniform_random",
        &[("message_bytes", ParamValue::Int(1024)), ("rounds", ParamValue::Int(20))],
    );
    let mut group = c.benchmark_group("torus16x16_uniform_random");
    group.sample_size(10);
    for switching in ["store_and_forward", "cut_through"] {
        let p = project(Topology::Torus2D { x: 16, y: 16 }, switching, 256, workload.clone());
        let (events, hops) = run(&p);
        eprintln!("torus 16x16 {switching}: {hops} packet-hops, {events} events per run");
        group.throughput(Throughput::Elements(hops));
        group.bench_function(format!("{switching}_packet_hops"), |b| b.iter(|| run(&p)));
    }
    group.finish();
}

fn allreduce_fat_tree(c: &mut Criterion) {
    let workload = program(
        "collective_loop",
        &[
            ("operation", ParamValue::Text("allreduce".into())),
            ("message_bytes", ParamValue::Int(1 << 20)),
            ("iterations", ParamValue::Int(100)),
            ("compute_time", ParamValue::Time(SimTime::ZERO)),
        ],
    );
    // 4 KiB packets (a common MTU): 256 packets per message.
    let p = project(Topology::FatTree { arity: 4, levels: 3 }, "cut_through", 4096, workload);
    let (events, _) = run(&p);
    eprintln!("allreduce 1 MiB x 100 on a 64-rank fat tree: {events} events per run");
    let mut group = c.benchmark_group("allreduce_1MiB_64ranks_fat_tree_100_iterations");
    group.sample_size(10);
    group.throughput(Throughput::Elements(events));
    group.bench_function("events", |b| b.iter(|| run(&p)));
    group.finish();
}

fn halo_torus(x: u32, y: u32) -> Project {
    let workload = program(
        "halo2d",
        &[
            ("periodic", ParamValue::Bool(true)),
            ("iterations", ParamValue::Int(1)),
            ("face_bytes", ParamValue::Int(4096)),
            ("compute_time", ParamValue::Time(SimTime::from_us(1))),
        ],
    );
    project(Topology::Torus2D { x, y }, "store_and_forward", 1024, workload)
}

fn memory_per_entity(c: &mut Criterion) {
    let p = halo_torus(256, 256);
    let registry = registry_for(&p);
    hase_library::process_memory::reset_peak();
    let (before, _) = hase_library::process_memory::resident_and_peak_bytes();
    let model = Arc::new(elaborate_project(&p).unwrap());
    let (elaborated, _) = hase_library::process_memory::resident_and_peak_bytes();
    let built = build_behaviours(&BuildInputs {
        model: &model,
        registry: &registry,
        workload: &p.workload,
        base_dir: std::path::Path::new("."),
        placement: &p.placement,
    })
    .unwrap();
    let mut sim = Simulation::with_store(model.clone(), built.behaviours, SimConfig::default()).unwrap();
    let (built_rss, _) = hase_library::process_memory::resident_and_peak_bytes();
    let outcome = sim.run(RunControl::default());
    let (_, peak) = hase_library::process_memory::resident_and_peak_bytes();
    let events = sim.events();
    let report = sim.finish(outcome);
    assert_eq!(report.outcome, RunOutcome::Completed, "the halo exchange must finish");
    let n = model.entities.len() as u64;
    eprintln!(
        "torus 256x256 halo: {n} entities, {events} events; elaborated model {} B/entity, kernel + behaviours {} B/entity, \
         peak while running {} B/entity",
        (elaborated - before) / n,
        (built_rss - elaborated) / n,
        (peak - before) / n
    );
    drop(report);
    let mut group = c.benchmark_group("torus256x256_build");
    group.sample_size(10);
    group.bench_function("elaborate", |b| b.iter(|| elaborate_project(&p).unwrap().entities.len()));
    group.finish();
}

fn halo_on_threads(c: &mut Criterion) {
    let p = halo_torus(128, 128);
    let on = |threads: usize| {
        let options = RunOptions { threads: Some(threads), ..RunOptions::default() };
        let result = run_project(&p, &options, |_| {}).unwrap();
        assert_eq!(result.outcome, RunOutcome::Completed);
        (result.stats.events, result.stats.makespan_ps)
    };
    let one = on(1);
    assert_eq!(on(2), one, "two threads must give the run of one");
    let mut group = c.benchmark_group("torus128x128_halo");
    group.sample_size(10);
    group.throughput(Throughput::Elements(one.0));
    for threads in [1, 2] {
        group.bench_function(format!("threads_{threads}"), |b| b.iter(|| on(threads)));
    }
    group.finish();
}

criterion_group!(benches, memory_per_entity, torus_traffic, allreduce_fat_tree, halo_on_threads);
criterion_main!(benches);
