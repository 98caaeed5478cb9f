//! Sweeps end to end: a sweep of ring allreduce over the ring size (the network regenerated per
//! point from its generator recipe), the message size and the switching model matches the closed
//! form 2(p−1)(α + (n/p)β) at every point, whatever the number of workers.

use hase_library::experiment::{
    ExperimentPlan, MetricValue, ProjectSource, Quiet, RunStatus, SpecOrigin, SweepOptions, SweepSpec,
    VariableSpec, csv_text, run_sweep,
};
use hase_templates::Topology;
use hase_tests::{Timing, allreduce, projects_dir, template};

fn timing() -> Timing {
    Timing::oracle("cut_through", 1024)
}

fn variable(target: &str, values: &str, name: &str) -> VariableSpec {
    VariableSpec { target: target.into(), values: values.into(), name: Some(name.into()) }
}

/// Ring allreduce on a ring of p routers: 2(p−1) steps of n/p bytes to the right neighbour, one
/// link per flow. Store-and-forward's α holds for single-packet steps, so the constraint keeps
/// those points only where n/p fits a packet.
#[test]
fn a_ring_allreduce_sweep_matches_its_closed_form_at_every_point() {
    let t = timing();
    let project = template(Topology::Ring { nodes: 4 }, &t, allreduce("ring", 840));
    let mut spec = SweepSpec::new(ProjectSource::File("ring.ron".into()));
    spec.variables = vec![
        variable("template.dims", "3..8", "p"),
        variable("workload.message_bytes", "840..3360 +840", "n"),
        variable("type:Router.switching", "cut_through, store_and_forward", "switching"),
    ];
    spec.constraint = Some("n % p == 0 && (switching == \"cut_through\" || n / p <= 1024)".into());
    spec.metrics = vec!["makespan_ps".into(), "events".into()];
    let plan = ExperimentPlan::new(spec, project, projects_dir(), &SpecOrigin::Code).unwrap();
    // 6 ring sizes × 4 message sizes × 2 switching models; 840 divides by every p from 3 to 8, and
    // only p = 3, n = 3360 (1120 bytes a step) is too big a step for store-and-forward.
    assert_eq!(plan.run_count(), 47);
    let report = run_sweep(&plan, &SweepOptions { jobs: 2, ..SweepOptions::default() }, &Quiet).unwrap();
    assert_eq!(report.records.len() as u64, plan.run_count());
    for r in &report.records {
        let p: u64 = r.values[0].parse().unwrap();
        let n: u64 = r.values[1].parse().unwrap();
        let saf = r.values[2] == "store_and_forward";
        let want = t.neighbour_alpha(saf, n / p).times(2 * (p - 1));
        assert_eq!(r.status, RunStatus::Completed, "{}: {}", r.key, r.detail);
        assert_eq!(r.metrics[0], Some(MetricValue::Int(want.as_ps())), "p = {p}, n = {n}, {}", r.values[2]);
    }
    let serial = run_sweep(&plan, &SweepOptions { jobs: 1, ..SweepOptions::default() }, &Quiet).unwrap();
    let csv = |records| csv_text(&plan.variable_names(), &plan.metric_names(), records);
    assert_eq!(csv(&serial.records), csv(&report.records), "one worker or two: the same results");
}

/// The fit of hase's own ring allreduce, made on rings of up to 16 and holding out 32 and 64,
/// finds the law 2(p − 1)(α + β·n/p) as its two terms `p − 1` and `n·(p − 1)/p` and predicts the
/// held-out rings within 2 %.
#[test]
fn a_ring_allreduce_fitted_on_small_rings_predicts_large_ones() {
    use hase_library::experiment::scaling::{FitOptions, Holdout, Roles, fit_experiment};
    use hase_library::fit::Term;
    let t = timing();
    let project = template(Topology::Ring { nodes: 4 }, &t, allreduce("ring", 4096));
    let mut spec = SweepSpec::new(ProjectSource::File("ring.ron".into()));
    spec.variables = vec![
        variable("template.dims", "2, 4, 8, 16, 32, 64", "p"),
        variable("workload.message_bytes", "4096, 16384, 65536", "n"),
    ];
    spec.metrics = vec!["makespan_ps".into()];
    let plan = ExperimentPlan::new(spec, project, projects_dir(), &SpecOrigin::Code).unwrap();
    let report = run_sweep(&plan, &SweepOptions { jobs: 2, ..SweepOptions::default() }, &Quiet).unwrap();
    assert!(report.records.iter().all(|r| r.status == RunStatus::Completed), "{:?}", report.records);
    let roles = Roles::parse("p,n").unwrap();
    let options = FitOptions { holdout: Holdout::Largest(2), ..FitOptions::terms(3) };
    let fit = fit_experiment(
        &plan.variable_names(),
        &plan.metric_names(),
        &report.records,
        "makespan",
        &roles,
        options,
    )
    .unwrap();
    let best = &fit.formula.as_ref().unwrap().best;
    let terms: Vec<Term> = best.terms.iter().map(|t| t.term).collect();
    assert_eq!(terms, [Term::PMinus1, Term::NPMinus1OverP], "{best}");
    assert!(fit.samples.iter().all(|s| s.at.p <= 16.0), "fitted on p ≤ 16 only");
    assert_eq!(fit.held_out.len(), 6, "p = 32 and 64 at three sizes");
    for h in &fit.held_out {
        assert!(h.at.p >= 32.0 && h.error_percent.abs() < 2.0, "{h}");
    }
}
