//! What users see when something is wrong: validation problems with paths, deadlock reports naming
//! every blocked rank, malformed workload files with file:line:column, jammed finite buffers.

use hase_engine::kernel::RunOutcome;
use hase_engine::model::{ParamValue, StreamSource, Workload, load_project};
use hase_engine::time::SimTime;
use hase_library::overrides::apply_set;
use hase_library::runner::{RunOptions, run_project};
use hase_templates::Topology;
use hase_tests::{Timing, projects_dir, run, streams, template};

fn timing() -> Timing {
    Timing {
        latency: SimTime::from_ns(10),
        bandwidth: 1_000_000_000,
        routing_delay: SimTime::from_ns(20),
        send_overhead: SimTime::from_ns(100),
        recv_overhead: SimTime::from_ns(100),
        max_packet: 256,
        switching: "store_and_forward",
    }
}

fn error_of(project: &hase_engine::model::Project, base_dir: &std::path::Path) -> String {
    let options = RunOptions { base_dir: base_dir.to_path_buf(), ..RunOptions::default() };
    match run_project(project, &options, |_| {}) {
        Ok(r) => panic!("expected an error, the run ended {:?}", r.outcome),
        Err(e) => e.to_string(),
    }
}

#[test]
fn invalid_projects_report_every_problem_with_its_path() {
    let mut project = load_project(&projects_dir().join("binary_tree_allreduce.ron")).unwrap();
    project.network.links.retain(|l| l.a.instance != "p3" && l.b.instance != "p3");
    project.network.instances.get_mut("p5").unwrap().params.insert("colour".into(), ParamValue::Int(1));
    let err = error_of(&project, &projects_dir());
    assert!(err.contains("2 problems found"), "{err}");
    assert!(err.contains("p3.net: port is not connected"), "{err}");
    assert!(err.contains("p5: the type has no parameter `colour`"), "{err}");
}

#[test]
fn a_receive_cycle_is_reported_as_a_deadlock_naming_each_rank() {
    let workload = streams(&[(0, "RECV 1\nSEND 1 8"), (1, "RECV 0\nSEND 0 8")]);
    let result = run(&template(Topology::Linear { nodes: 2 }, &timing(), workload));
    let RunOutcome::Deadlock(report) = &result.outcome else {
        panic!("expected a deadlock: {:?}", result.outcome)
    };
    let text = report.to_string();
    assert_eq!(report.blocked.len(), 2, "{text}");
    assert!(text.contains("p0 [RECV]: rank 0 waits for receive from rank 1, any tag"), "{text}");
    assert!(text.contains("p1 [RECV]: rank 1 waits for receive from rank 0, any tag"), "{text}");
    assert_eq!(result.stats.outcome, "deadlock");
}

#[test]
fn malformed_and_missing_stream_files_name_the_place() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("bad.txt"), "COMPUTE 10us\nSEND 1 lots\n").unwrap();
    let mut project = template(Topology::Linear { nodes: 2 }, &timing(), Workload::Idle);
    project.workload = Workload::Streams { streams: [(0, StreamSource::File("bad.txt".into()))].into() };
    let err = error_of(&project, dir.path());
    assert!(err.starts_with("bad.txt:2:8:"), "{err}");
    project.workload = Workload::Streams { streams: [(1, StreamSource::File("gone.txt".into()))].into() };
    let err = error_of(&project, dir.path());
    assert!(err.contains("gone.txt: cannot read stream"), "{err}");
    project.workload = Workload::Streams { streams: [(0, StreamSource::Inline("SEND 5 8".into()))].into() };
    let err = error_of(&project, dir.path());
    assert!(err.contains("rank0.stream:1") && err.contains('5'), "{err}");
}

#[test]
fn a_malformed_time_independent_trace_names_its_line() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("app.trace"), "0 init\n1 init\n0 send 1 100\n1 frobnicate 3\n").unwrap();
    let mut project = template(Topology::Linear { nodes: 2 }, &timing(), Workload::Idle);
    project.workload = Workload::TimeIndependentTrace { path: "app.trace".into() };
    let err = error_of(&project, dir.path());
    assert!(err.contains("app.trace:4"), "{err}");
    assert!(err.contains("frobnicate"), "{err}");
}

/// Back-pressure without a cycle only slows traffic down; with a cycle of full one-packet buffers
/// (every rank of a ring sending a long message two hops the same way round) the routers jam, and the
/// report names the stuck ports.
#[test]
fn finite_buffers_give_back_pressure_and_jams_are_reported() {
    let chain = streams(&[(0, "SEND 3 16K"), (3, "RECV 0")]);
    let mut open = template(Topology::Linear { nodes: 4 }, &timing(), chain);
    let free = run(&open).stats.makespan_ps;
    apply_set(&mut open, "type:Router.buffer_packets=1").unwrap();
    let result = run(&open);
    assert_eq!(result.outcome, RunOutcome::Completed);
    assert!(result.stats.makespan_ps >= free, "credits can only delay");

    let ring_traffic: Vec<(u32, String)> =
        (0..4).map(|r| (r, format!("SEND {} 64K\nRECV ANY", (r + 2) % 4))).collect();
    let list: Vec<(u32, &str)> = ring_traffic.iter().map(|(r, s)| (*r, s.as_str())).collect();
    let mut ring = template(Topology::Ring { nodes: 4 }, &timing(), streams(&list));
    apply_set(&mut ring, "type:Router.buffer_packets=1").unwrap();
    let result = run(&ring);
    let RunOutcome::Deadlock(report) = &result.outcome else {
        panic!("expected a jam, got {:?}", result.outcome)
    };
    let text = report.to_string();
    assert!(text.contains("no credit from downstream"), "{text}");
    assert!(report.blocked.iter().any(|b| b.path.starts_with('r')), "{text}");
}
