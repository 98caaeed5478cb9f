//! Rank placement end to end: a workload on a chosen subset and order of processors crosses the
//! links the placement implies (closed forms), a placed collective takes the time of the smaller
//! network it occupies, a TI trace follows the placement, and processors left out stay idle.

use hase_engine::model::{ParamValue, Placement, Project, Workload};
use hase_engine::time::SimTime;
use hase_templates::Topology;
use hase_tests::{Timing, makespan, program, run, streams, template};

fn timing() -> Timing {
    Timing::oracle("store_and_forward", 1024)
}

fn placed(mut project: Project, placement: Placement) -> Project {
    project.placement = placement;
    project
}

/// One 1,000-byte message from MPI rank 0 to MPI rank 1 over h links (store-and-forward, one packet):
/// o_s + h(L + P/B) + (h−1)o + o_r.
fn one_message(t: &Timing, h: u64) -> SimTime {
    t.send_overhead + (t.latency + t.ser(1000)).times(h) + t.routing_delay.times(h - 1) + t.recv_overhead
}

#[test]
fn a_message_crosses_the_links_between_the_processors_it_is_placed_on() {
    let t = timing();
    let line = |placement| {
        let workload = streams(&[(0, "SEND 1 1000"), (1, "RECV 0")]);
        placed(template(Topology::Linear { nodes: 8 }, &t, workload), placement)
    };
    // Processors k apart on a linear array: p → r … r → p is k + 2 links.
    for k in 1..8u32 {
        assert_eq!(
            makespan(&run(&line(Placement::Ranks(vec![0, k])))),
            one_message(&t, u64::from(k) + 2),
            "k = {k}"
        );
        let reversed = Placement::Ranks(vec![k, 0]);
        assert_eq!(makespan(&run(&line(reversed))), one_message(&t, u64::from(k) + 2), "reversed, k = {k}");
    }
    // `--np 2` takes the first two processors, neighbours; hosts by name work the same way.
    assert_eq!(makespan(&run(&line(Placement::First(2)))), one_message(&t, 3));
    let hosts = Placement::Hosts(vec!["p6".into(), "p3".into()]);
    assert_eq!(makespan(&run(&line(hosts))), one_message(&t, 5));
}

#[test]
fn a_collective_placed_on_a_subcube_takes_the_subcube_time() {
    let t = Timing { switching: "cut_through", ..timing() };
    let allreduce = program(
        "collective_loop",
        &[
            ("operation", ParamValue::Text("allreduce".into())),
            ("algorithm", ParamValue::Text("recursive_doubling".into())),
            ("message_bytes", ParamValue::Int(4096)),
            ("iterations", ParamValue::Int(1)),
            ("compute_time", ParamValue::Time(SimTime::ZERO)),
        ],
    );
    let square = run(&template(Topology::Hypercube { dimensions: 2 }, &t, allreduce.clone()));
    // Ranks 0–3 of a 3-cube form a 2-cube: the same exchanges, each one hop.
    let subcube =
        placed(template(Topology::Hypercube { dimensions: 3 }, &t, allreduce.clone()), Placement::First(4));
    let on_subcube = run(&subcube);
    assert_eq!(makespan(&on_subcube), makespan(&square));
    // The other four processors did nothing.
    let idle: Vec<_> = on_subcube
        .stats
        .entities
        .iter()
        .filter(|(path, _)| ["p4", "p5", "p6", "p7"].contains(&path.as_str()))
        .map(|(_, e)| e.busy_fraction)
        .collect();
    assert_eq!(idle, vec![0.0; 4]);
    // Placed across the cube's diagonal pairs (0,7) and (3,4): rounds cross three dimensions.
    let spread = placed(
        template(Topology::Hypercube { dimensions: 3 }, &t, allreduce),
        Placement::Ranks(vec![0, 7, 3, 4]),
    );
    assert!(makespan(&run(&spread)) > makespan(&square));
}

#[test]
fn a_time_independent_trace_follows_the_placement() {
    let t = timing();
    let dir = tempfile::tempdir().unwrap();
    let trace = dir.path().join("pair.ti");
    std::fs::write(&trace, "0 init\n0 send 1 0 1000\n1 init\n1 recv 0 0 1000\n").unwrap();
    let workload = Workload::TimeIndependentTrace { path: trace.display().to_string() };
    let project = placed(template(Topology::Linear { nodes: 6 }, &t, workload), Placement::Ranks(vec![5, 1]));
    assert_eq!(makespan(&run(&project)), one_message(&t, 6));
}

#[test]
fn placements_that_name_missing_processors_are_refused_with_the_entry() {
    let project = placed(
        template(Topology::Linear { nodes: 4 }, &timing(), streams(&[(0, "SEND 1 8"), (1, "RECV 0")])),
        Placement::Hosts(vec!["p1".into(), "node-9".into()]),
    );
    let options = hase_library::runner::RunOptions::default();
    let e = hase_library::runner::run_project(&project, &options, |_| {}).err().unwrap();
    assert_eq!(e.to_string(), "placement entry 1: `node-9` is not a processor of the project");
}
