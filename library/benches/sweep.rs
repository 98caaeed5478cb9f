//! Sweep throughput: a 1,000-point sweep of small runs (one 8-rank recursive-doubling allreduce
//! of 1 to 1,000 bytes on the 2-ary 3-tree fat tree, about 300 events each) with 1 and 2 worker
//! threads, through the same calls as `hase sweep` (plan, rayon pool, isolation, metrics), without
//! the store. Reported in points per second; the ratio of the two is the scaling.

#![allow(missing_docs, reason = "criterion's macros generate undocumented items")]
#![allow(
    clippy::unwrap_used,
    reason = "a benchmark that cannot plan its sweep has nothing to measure: failing loudly is right"
)]

use std::path::PathBuf;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use hase_library::examples;
use hase_library::experiment::{
    ExperimentPlan, ProjectSource, Quiet, SpecOrigin, SweepOptions, SweepSpec, VariableSpec, run_sweep,
};

const POINTS: u64 = 1000;

fn plan() -> ExperimentPlan {
    let mut project = examples::fat_tree_allreduce().unwrap().project;
    hase_library::overrides::apply_set(&mut project, "workload.iterations=1").unwrap();
    let mut spec = SweepSpec::new(ProjectSource::File("fat_tree_allreduce.ron".into()));
    spec.variables.push(VariableSpec {
        target: "workload.message_bytes".into(),
        values: format!("1..{POINTS}"),
        name: None,
    });
    spec.metrics = vec!["makespan_ps".into(), "events".into(), "link_bytes".into()];
    ExperimentPlan::new(spec, project, PathBuf::from("."), &SpecOrigin::Code).unwrap()
}

fn sweep_throughput(c: &mut Criterion) {
    let plan = plan();
    assert_eq!(plan.point_count(), POINTS);
    let mut group = c.benchmark_group("sweep_1000_points");
    group.sample_size(10);
    group.throughput(Throughput::Elements(POINTS));
    for jobs in [1, 2] {
        group.bench_function(format!("jobs_{jobs}"), |b| {
            b.iter(|| {
                let report =
                    run_sweep(&plan, &SweepOptions { jobs, ..SweepOptions::default() }, &Quiet).unwrap();
                assert_eq!(report.records.len() as u64, POINTS);
                report
            });
        });
    }
    group.finish();
}

criterion_group!(benches, sweep_throughput);
criterion_main!(benches);
