//! Expected beside measured: `hase_library::expected::expected_run` gives exactly the simulated
//! makespan wherever its closed form applies (the oracles' designs, built as `hase new` builds
//! them, with loops of several calls and computation between them), and says why elsewhere.

use hase_engine::model::ParamValue;
use hase_engine::time::SimTime;
use hase_library::expected::{NoClosedForm, expected_run};
use hase_templates::Topology;
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
