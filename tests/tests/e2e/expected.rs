//! Expected beside measured: `hase_library::expected::expected_run` gives exactly the simulated
//! makespan wherever its closed form applies (the oracles' designs, built as `hase new` builds
//! them, with loops of several calls and computation between them), and says why elsewhere.

use hase_engine::model::{AbstractionLevel, ParamValue, Project, Workload};
use hase_engine::time::SimTime;
use hase_entities::mpi::kind::CollectiveKind;
use hase_entities::netmodel::datasheet::{self, Estimate};
use hase_library::expected::{FormSource, NoClosedForm, expected_run};
use hase_library::overrides::apply_set;
use hase_templates::{LinkParams, ProjectForm, TemplateSpec, Topology, template_project};
use hase_tests::{Timing, makespan, program, run, template};

fn collective_loop(
    operation: &str,
    algorithm: &str,
    bytes: u64,
    iterations: i64,
    compute_ns: u64,
) -> hase_engine::model::Workload {
    program(
        "collective_loop",
        &[
            ("operation", ParamValue::Text(operation.into())),
            ("algorithm", ParamValue::Text(algorithm.into())),
            ("message_bytes", ParamValue::Int(bytes as i64)),
            ("iterations", ParamValue::Int(iterations)),
            ("compute_time", ParamValue::Time(SimTime::from_ns(compute_ns))),
        ],
    )
}

/// Expected and simulated makespans of one design.
fn both(
    topology: Topology,
    t: &Timing,
    operation: &str,
    algorithm: &str,
    bytes: u64,
    iterations: i64,
) -> (SimTime, SimTime) {
    let project = template(topology, t, collective_loop(operation, algorithm, bytes, iterations, 700));
    let expected = expected_run(&project).unwrap_or_else(|e| panic!("{operation} {algorithm}: {e}"));
    (expected.makespan, makespan(&run(&project)))
}

#[test]
fn the_expected_makespan_is_the_simulated_one_where_the_model_is_exact() {
    for switching in ["store_and_forward", "cut_through"] {
        let t = Timing::oracle(switching, 1024);
        for iterations in [1, 3] {
            for p in [3u32, 4, 8] {
                let n = u64::from(p) * 512;
                let (want, got) = both(Topology::Ring { nodes: p }, &t, "allreduce", "ring", n, iterations);
                assert_eq!(want, got, "ring allreduce, {switching}, p = {p}, {iterations} calls");
                let (want, got) =
                    both(Topology::Ring { nodes: p }, &t, "reduce_scatter", "ring", n, iterations);
                assert_eq!(want, got, "ring reduce-scatter, {switching}, p = {p}");
            }
            for d in 1..=3u32 {
                let cube = || Topology::Hypercube { dimensions: d };
                for (operation, algorithm, n) in [
                    ("allreduce", "recursive_doubling", 4096),
                    ("allreduce", "recursive_doubling", 700),
                    ("barrier", "recursive_doubling", 0),
                    ("scan", "recursive_doubling", 1000),
                    ("reduce_scatter", "recursive_halving", 4096),
                    ("alltoall", "pairwise_xor", 1000),
                ] {
                    let (want, got) = both(cube(), &t, operation, algorithm, n, iterations);
                    assert_eq!(
                        want, got,
                        "{algorithm} {operation} of {n} B, {switching}, 2^{d}, {iterations} calls"
                    );
                }
            }
        }
        for p in [2u32, 5] {
            let (want, got) = both(Topology::Linear { nodes: p }, &t, "scan", "chain", 1000, 1);
            assert_eq!(want, got, "chain scan, {switching}, p = {p}");
        }
    }
}

#[test]
fn the_default_algorithm_is_the_processors_choice() {
    let t = Timing::oracle("cut_through", 1024);
    let project = template(
        Topology::Hypercube { dimensions: 3 },
        &t,
        collective_loop("allreduce", "default", 2048, 2, 0),
    );
    let expected = expected_run(&project).expect("recursive doubling is the default allreduce");
    assert_eq!(expected.form.algorithm, "recursive_doubling");
    assert_eq!(expected.makespan, makespan(&run(&project)));
    assert_eq!(expected.call_ends().collect::<Vec<_>>(), vec![expected.call, expected.call.times(2)]);
}

#[test]
fn no_closed_form_where_the_model_leaves_something_out() {
    let t = Timing::oracle("store_and_forward", 1024);
    let why = |topology, operation, algorithm, bytes, iterations| {
        expected_run(&template(topology, &t, collective_loop(operation, algorithm, bytes, iterations, 0)))
            .unwrap_err()
    };
    assert!(matches!(
        why(Topology::FatTree { arity: 2, levels: 2 }, "allreduce", "ring", 1024, 1),
        NoClosedForm::Collective { .. }
    ));
    assert!(matches!(
        why(Topology::Ring { nodes: 4 }, "allreduce", "ring", 1001, 1),
        NoClosedForm::UnevenBlocks { .. }
    ));
    assert!(matches!(
        why(Topology::Hypercube { dimensions: 2 }, "allreduce", "recursive_doubling", 1500, 1),
        NoClosedForm::ShortLastPacket { .. }
    ));
    assert!(matches!(
        why(Topology::Linear { nodes: 4 }, "scan", "chain", 100, 2),
        NoClosedForm::Overlapping { .. }
    ));
    let mut slow_link =
        template(Topology::Ring { nodes: 4 }, &t, collective_loop("allreduce", "ring", 4096, 1, 0));
    slow_link.network.links[0].latency = SimTime::from_ns(1);
    assert!(matches!(
        expected_run(&slow_link),
        Err(NoClosedForm::NonUniform { what: "link", param: "latency" })
    ));
    let mut rendezvous =
        template(Topology::Ring { nodes: 4 }, &t, collective_loop("allreduce", "ring", 4096, 1, 0));
    hase_library::overrides::apply_set(&mut rendezvous, "type:Processor.eager_limit=512").unwrap();
    assert!(matches!(expected_run(&rendezvous), Err(NoClosedForm::Rendezvous { bytes: 1024, limit: 512 })));
}

/// A `p`-node ring as a compound network run at its `datasheet` level on `sheet` (band `band`),
/// links of `latency_ns`, running `workload`.
fn on_sheet(p: u32, sheet: &str, band: &str, latency_ns: u64, workload: Workload) -> Project {
    let mut spec = TemplateSpec::new(Topology::Ring { nodes: p });
    let link = LinkParams { latency: SimTime::from_ns(latency_ns), bandwidth_bytes_per_s: 1_000_000_000 };
    spec.link = link;
    spec.endpoint_link = link;
    let registry = hase_library::catalogue::registry_for(&Project::new("sheet"));
    let form = ProjectForm::Compound { type_name: spec.topology.type_name() };
    let mut project = template_project(&spec, &registry, "sheet", &form).expect("template");
    project.network.instances.get_mut("fabric").expect("the compound").level = AbstractionLevel::Behavioural;
    for set in
        ["fabric.model=datasheet".to_string(), format!("fabric.sheet={sheet}"), format!("fabric.band={band}")]
    {
        apply_set(&mut project, &set).expect("a setting of the fabric");
    }
    project.workload = workload;
    project
}

#[test]
fn on_a_data_sheet_the_expected_makespan_is_the_sheets_and_the_simulated_one() {
    // Every rank leaves each call together, at the last entry plus t(p, d): the sheet model is
    // exact, whatever the links' latencies.
    for (sheet, band) in [("cray_t3d", "avg"), ("cray_t3d", "max"), ("network_of_workstations", "min")] {
        for (operation, bytes) in [("barrier", 0), ("bcast", 4096), ("allreduce", 1024), ("alltoall", 512)] {
            for (p, iterations, latency_ns) in [(4u32, 1, 0), (8, 3, 250)] {
                let project = on_sheet(
                    p,
                    sheet,
                    band,
                    latency_ns,
                    collective_loop(operation, "default", bytes, iterations, 700),
                );
                let expected = expected_run(&project).unwrap_or_else(|e| panic!("{sheet} {operation}: {e}"));
                let what =
                    format!("{operation} of {bytes} B on {sheet} ({band}), p = {p}, {iterations} calls");
                // The call's time is the sheet's own evaluation at p ranks and d bytes.
                let kind = CollectiveKind::from_name(operation).expect("a collective");
                let estimate = Estimate::from_name(band).expect("a band");
                let t = datasheet::builtin(sheet).unwrap().collective_time(kind, p, bytes, estimate).unwrap();
                assert_eq!(expected.call, t, "{what}");
                assert_eq!(expected.form.source, FormSource::DataSheet, "{what}");
                assert_eq!(expected.makespan, makespan(&run(&project)), "{what}");
            }
        }
    }
}

#[test]
fn an_unreadable_sheet_or_an_unknown_band_has_no_expected_time() {
    // A sheet that cannot be read, and a band no sheet has: said, not guessed around.
    let project =
        on_sheet(4, "no_such_sheet_file.ron", "avg", 0, collective_loop("allreduce", "default", 64, 1, 0));
    assert!(matches!(expected_run(&project), Err(NoClosedForm::Sheet(_))), "{:?}", expected_run(&project));
    let mut project = on_sheet(4, "cray_t3d", "avg", 0, collective_loop("allreduce", "default", 64, 1, 0));
    // Written into the file by hand (`--set` refuses it): the design does not elaborate.
    let fabric = project.network.instances.get_mut("fabric").expect("the compound");
    fabric.params.insert("band".into(), ParamValue::Text("median".into()));
    let why = expected_run(&project);
    assert!(matches!(why, Err(NoClosedForm::Invalid(ref e)) if e.to_string().contains("median")), "{why:?}");
}
