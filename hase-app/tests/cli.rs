//! The command line as a user drives it: generate, validate, run with trace and statistics, inspect
//! and export traces, and the errors (exit codes and messages) for bad input.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    reason = "test code: an unwrap that fails is a failed test with its message"
)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn hase(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_hase")).args(args).output().expect("the hase binary runs")
}

fn text(out: &Output) -> (String, String) {
    (String::from_utf8_lossy(&out.stdout).into_owned(), String::from_utf8_lossy(&out.stderr).into_owned())
}

fn projects() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../projects")
}

fn p(path: &Path) -> &str {
    path.to_str().unwrap()
}

#[test]
fn new_validate_run_and_inspect_a_trace() {
    let dir = tempfile::tempdir().unwrap();
    let project = dir.path().join("mesh.ron");
    let out = hase(&[
        "new",
        "--template",
        "mesh2d",
        "--dims",
        "3x3",
        "--latency",
        "20ns",
        "--bandwidth",
        "10Gbps",
        "--program",
        "collective_loop",
        "--param",
        "operation=bcast",
        "--param",
        "message_bytes=8K",
        "-o",
        p(&project),
    ]);
    assert!(out.status.success(), "{:?}", text(&out));
    assert!(text(&out).1.contains("9 switches, 9 processors"), "{:?}", text(&out));
    // Rates are decimal: 10 Gbit/s is 1.25e9 B/s on every link.
    let saved = hase_engine::model::load_project(&project).unwrap();
    assert!(saved.network.links.iter().all(|l| l.bandwidth_bytes_per_s == 1_250_000_000));

    let out = hase(&["validate", p(&project)]);
    assert!(out.status.success(), "{:?}", text(&out));
    assert!(text(&out).0.contains("ok — 18 entities (9 processors)"), "{:?}", text(&out));

    let trace = dir.path().join("run.trace");
    let stats = dir.path().join("run.json");
    let out = hase(&[
        "run",
        p(&project),
        "--trace",
        p(&trace),
        "--stats",
        p(&stats),
        "--level",
        "1",
        "--fingerprint",
    ]);
    let (stdout, stderr) = text(&out);
    assert!(out.status.success(), "{stdout}{stderr}");
    assert!(stdout.contains("outcome     completed") && stdout.contains("fingerprint "), "{stdout}");
    let json: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&stats).unwrap()).unwrap();
    assert!(json["makespan_ps"].as_u64().unwrap() > 0);
    assert_eq!(json["outcome"], "completed");

    let out = hase(&["trace", "stats", p(&trace)]);
    assert!(out.status.success(), "{:?}", text(&out));
    assert!(text(&out).0.contains("BCAST"), "{}", text(&out).0);

    let chrome = dir.path().join("run.json.trace");
    let out = hase(&["trace", "export", p(&trace), "--format", "chrome", "-o", p(&chrome)]);
    assert!(out.status.success(), "{:?}", text(&out));
    let doc: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&chrome).unwrap()).unwrap();
    assert!(doc["traceEvents"].as_array().unwrap().len() > 10);

    let base = dir.path().join("paraver");
    let out = hase(&["trace", "export", p(&trace), "--format", "paraver", "-o", p(&base)]);
    assert!(out.status.success(), "{:?}", text(&out));
    assert!(base.with_extension("prv").exists() && base.with_extension("pcf").exists());
}

#[test]
fn overrides_until_and_compact_traces() {
    let dir = tempfile::tempdir().unwrap();
    let project = projects().join("fat_tree_allreduce.ron");
    let out = hase(&["run", p(&project), "--quiet", "--until", "50us", "--set", "workload.iterations=1"]);
    let (stdout, stderr) = text(&out);
    assert!(out.status.success(), "{stdout}{stderr}");
    assert!(stdout.contains("reached-until at 50 us"), "{stdout}");

    let trace = dir.path().join("run.htb");
    let out = hase(&[
        "run",
        p(&project),
        "--quiet",
        "--trace",
        p(&trace),
        "--set",
        "type:Router.switching=cut_through",
    ]);
    assert!(out.status.success(), "{:?}", text(&out));
    let out = hase(&["trace", "stats", p(&trace)]);
    assert!(out.status.success(), "{:?}", text(&out));
}

#[test]
fn bad_input_fails_with_a_clear_message_and_exit_code() {
    let dir = tempfile::tempdir().unwrap();
    let project = projects().join("fat_tree_allreduce.ron");

    let out = hase(&["run", p(&project), "--until", "10 parsecs"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out).1.contains("unknown unit `parsecs` in `10 parsecs`"), "{}", text(&out).1);

    let out = hase(&["run", p(&project), "--set", "p0.speed=fast"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out).1.contains("type `Processor` has no parameter `speed`"), "{}", text(&out).1);

    let broken = dir.path().join("broken.ron");
    std::fs::write(
        &broken,
        "(schema_version: 1, name: \"x\", network: (instances: {\"a\": (type: \"Nope\")}))",
    )
    .unwrap();
    let out = hase(&["validate", p(&broken)]);
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out).1.contains("a: unknown entity type `Nope`"), "{}", text(&out).1);

    let garbled = dir.path().join("garbled.ron");
    std::fs::write(&garbled, "(schema_version: 1,\n name: oops)").unwrap();
    let out = hase(&["run", p(&garbled)]);
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out).1.contains("garbled.ron:2:"), "{}", text(&out).1);

    let bad_trace = dir.path().join("bad.trace");
    std::fs::write(&bad_trace, "$hase-trace 1\nproject \"x\"\nseed nine\n").unwrap();
    let out = hase(&["trace", "stats", p(&bad_trace)]);
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out).1.contains("bad.trace:3"), "{}", text(&out).1);

    let out = hase(&[
        "new",
        "--template",
        "mesh2d",
        "--dims",
        "3x3",
        "--component",
        "Processor",
        "-o",
        p(&dir.path().join("x.ron")),
    ]);
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out).1.contains("component Processor"), "{}", text(&out).1);
}

#[test]
fn a_deadlocked_run_exits_3_and_names_the_blocked_ranks() {
    let dir = tempfile::tempdir().unwrap();
    let project = dir.path().join("line.ron");
    let out = hase(&["new", "--template", "linear", "--dims", "2", "-o", p(&project)]);
    assert!(out.status.success());
    let text_ron = std::fs::read_to_string(&project).unwrap();
    let with_streams = text_ron.replace(
        "workload: Idle",
        "workload: Streams(streams: {0: Inline(\"RECV 1\"), 1: Inline(\"RECV 0\")})",
    );
    assert_ne!(with_streams, text_ron, "the generated project should have an idle workload");
    std::fs::write(&project, with_streams).unwrap();
    let out = hase(&["run", p(&project)]);
    assert_eq!(out.status.code(), Some(3));
    let (stdout, stderr) = text(&out);
    assert!(stdout.contains("outcome     deadlock"), "{stdout}");
    assert!(stderr.contains("p0 [RECV]: rank 0 waits for receive from rank 1"), "{stderr}");
}

#[test]
fn a_time_independent_trace_replays_without_editing_the_project() {
    let dir = tempfile::tempdir().unwrap();
    // A list written for `smpirun -replay` from `dir`: entries relative to the working directory.
    std::fs::create_dir(dir.path().join("run")).unwrap();
    std::fs::write(dir.path().join("run/index.ti"), "run/rank0.ti\nrun/rank1.ti\n").unwrap();
    std::fs::write(dir.path().join("run/rank0.ti"), "0 init\n0 compute 1e6\n0 send 1 0 4096\n0 finalize\n")
        .unwrap();
    std::fs::write(dir.path().join("run/rank1.ti"), "1 init\n1 recv 0 0 4096\n1 finalize\n").unwrap();
    let in_dir = |args: &[&str]| {
        Command::new(env!("CARGO_BIN_EXE_hase")).current_dir(dir.path()).args(args).output().unwrap()
    };
    let out = in_dir(&[
        "new",
        "--template",
        "linear",
        "--dims",
        "2",
        "--workload-trace",
        "run/index.ti",
        "-o",
        "p.ron",
    ]);
    assert!(out.status.success(), "{:?}", text(&out));
    assert!(
        text(&out).1.contains("2 ranks, tagged form; list entries found relative to the working directory"),
        "{:?}",
        text(&out)
    );
    let saved = std::fs::read_to_string(dir.path().join("p.ron")).unwrap();
    assert!(saved.contains("TimeIndependentTrace(") && saved.contains("run/index.ti"), "{saved}");
    let out = in_dir(&["run", "p.ron", "--quiet"]);
    assert!(out.status.success(), "{:?}", text(&out));
    assert!(text(&out).0.contains("completed"), "{:?}", text(&out));

    // `hase run --workload-trace` replaces any project's workload; here a list with entries beside it.
    std::fs::write(dir.path().join("run/beside.ti"), "rank0.ti\nrank1.ti\n").unwrap();
    let line = dir.path().join("line.ron");
    assert!(hase(&["new", "--template", "linear", "--dims", "2", "-o", p(&line)]).status.success());
    let out = hase(&["run", p(&line), "--workload-trace", p(&dir.path().join("run/beside.ti"))]);
    assert!(out.status.success(), "{:?}", text(&out));
    assert!(text(&out).1.contains("list entries found relative to the list file"), "{:?}", text(&out));

    // A broken trace is named with its file and line before anything runs.
    std::fs::write(dir.path().join("run/rank1.ti"), "1 init\n1 recv_from 0 0 4096\n").unwrap();
    let out = hase(&["run", p(&line), "--workload-trace", p(&dir.path().join("run/beside.ti"))]);
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out).1.contains("rank1.ti:2:3: unknown action `recv_from`"), "{:?}", text(&out));
}
