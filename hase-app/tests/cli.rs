//! The command line as a user drives it: generate, validate, run with trace and statistics, inspect
//! and export traces, estimate a run, and the errors (exit codes and messages) for bad input. The
//! modules beside this file take one command family each: trace analysis, data sheets and MPI,
//! platforms and imports, sweeps, the critical path, hostile input and Slurm.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    reason = "test code: an unwrap that fails is a failed test with its message"
)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

#[path = "cli/critical_path.rs"]
mod critical_path;
#[path = "cli/hostile.rs"]
mod hostile;
#[path = "cli/mpi_sheets.rs"]
mod mpi_sheets;
#[path = "cli/platforms.rs"]
mod platforms;
#[path = "cli/slurm.rs"]
mod slurm;
#[path = "cli/sweeps.rs"]
mod sweeps;
#[path = "cli/trace_analysis.rs"]
mod trace_analysis;

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
    let saved = hase_library::generated::load_project(&project).unwrap();
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

    // OTF2 into a directory (the Score-P layout `DIR/traces.otf2`), read by the OTF2 tools.
    let archive = dir.path().join("otf2");
    let out = hase(&["trace", "export", p(&trace), "--format", "otf2", "-o", p(&archive)]);
    assert!(out.status.success(), "{:?}", text(&out));
    let anchor = archive.join("traces.otf2");
    let printed = std::process::Command::new("otf2-print")
        .arg(&anchor)
        .output()
        .expect("otf2-print (Debian's otf2-tools) must be installed");
    assert!(printed.status.success(), "{}", String::from_utf8_lossy(&printed.stderr));
    assert!(String::from_utf8_lossy(&printed.stdout).contains("MPI_Bcast"));

    let vcd = dir.path().join("run.vcd");
    let out = hase(&["trace", "export", p(&trace), "--format", "vcd", "-o", p(&vcd)]);
    assert!(out.status.success(), "{:?}", text(&out));
    let dump = std::fs::read_to_string(&vcd).unwrap();
    assert!(dump.contains("$timescale 1ps $end") && dump.contains("sBCAST"), "{dump:.400}");

    // FST, read back by GTKWave's fst2vcd: the same timescale, states as integers.
    let fst = dir.path().join("run.fst");
    let out = hase(&["trace", "export", p(&trace), "--format", "fst", "-o", p(&fst)]);
    assert!(out.status.success(), "{:?}", text(&out));
    let back = std::process::Command::new("fst2vcd")
        .arg(&fst)
        .output()
        .expect("fst2vcd (Debian's gtkwave) must be installed");
    assert!(back.status.success(), "{}", String::from_utf8_lossy(&back.stderr));
    let back = String::from_utf8_lossy(&back.stdout);
    assert!(
        back.contains("1ps") && back.contains("$var integer") && back.contains(" state $end"),
        "{back:.600}"
    );
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
    let out = hase(&["trace", "stats", p(&trace), "--check-index"]);
    assert!(out.status.success(), "{:?}", text(&out));
    assert!(text(&out).0.starts_with("index: ok — "), "{:?}", text(&out));
    // A corrupt index is noticed and named with its line.
    let sidecar = dir.path().join("run.htb.idx");
    let index = std::fs::read_to_string(&sidecar).unwrap();
    std::fs::write(&sidecar, index.replacen("records ", "records 1", 1)).unwrap();
    let out = hase(&["trace", "stats", p(&trace), "--check-index"]);
    assert_eq!(out.status.code(), Some(1), "{:?}", text(&out));
    assert!(text(&out).1.contains("run.htb.idx: line 3: the index counts 1"), "{:?}", text(&out));
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

/// A two-processor ring whose workload is `workload` (RON), written into `dir` as `p.ron`.
fn ring_with_workload(dir: &Path, workload: &str) -> PathBuf {
    let project = dir.join("p.ron");
    let out =
        hase(&["new", "--template", "ring", "--dims", "2", "--program", "ping_pong", "-o", p(&project)]);
    assert!(out.status.success(), "{:?}", text(&out));
    let ron = std::fs::read_to_string(&project).unwrap();
    let start = ron.find("  workload: ").unwrap();
    let end = ron.find("  settings: ").unwrap();
    std::fs::write(&project, format!("{}  workload: {workload},\n{}", &ron[..start], &ron[end..])).unwrap();
    project
}

/// Exit code 1 and an error on stderr that contains every one of `needles` (never a panic or an
/// abort, which exit with 101 or 134).
fn fails_cleanly(out: &Output, needles: &[&str]) {
    let (stdout, stderr) = text(out);
    assert_eq!(out.status.code(), Some(1), "{stdout}{stderr}");
    for needle in needles {
        assert!(stderr.contains(needle), "missing `{needle}` in: {stderr}");
    }
}

#[test]
fn the_fuzzed_aborts_are_errors_naming_the_place_and_the_limit() {
    let dir = tempfile::tempdir().unwrap();
    // 1. A router radix far beyond its declared range must be refused before anything is allocated
    //    for it (4 Gi ports would take 240 GB).
    let source = std::fs::read_to_string(projects().join("abstraction_toggle.ron")).unwrap();
    let radix = dir.path().join("radix.ron");
    std::fs::write(&radix, source.replace("\"radix\": Int(4),", "\"radix\": Int(4294967296),")).unwrap();
    let out = hase(&["validate", p(&radix)]);
    fails_cleanly(&out, &["fabric/s_l0_0: parameter `radix`: 4294967296 is out of range [1, 4096]"]);
    assert!(!text(&out).1.contains("link end does not exist"), "no cascade: {}", text(&out).1);

    // 2. A TI message of 1e18 bytes must be refused where it is read, before it is cut into packets.
    std::fs::write(dir.path().join("t.ti"), "0 init\n1 init\n0 send 1 1e18\n1 recv 0 1e18\n").unwrap();
    let project = ring_with_workload(dir.path(), "TimeIndependentTrace(path: \"t.ti\")");
    let out = hase(&["run", p(&project)]);
    fails_cleanly(
        &out,
        &["t.ti:3:10: a message of 1.000e18 bytes is larger than the limit of 1099511627776"],
    );
    // Within the limit but in tiny packets: made as they are sent, so `--until` stops it at once.
    std::fs::write(dir.path().join("t.ti"), "0 init\n1 init\n0 send 1 1e12\n1 recv 0 1e12\n").unwrap();
    let out = hase(&["run", p(&project), "--until", "5us", "--set", "type:Processor.max_packet=256"]);
    assert!(out.status.success(), "{:?}", text(&out));

    // 3. `trace stats` panicked padding a 200,000-character entity path.
    let trace = dir.path().join("long.trace");
    let out = hase(&["run", p(&projects().join("task_farm.ron")), "--trace", p(&trace), "--level", "4"]);
    assert!(out.status.success(), "{:?}", text(&out));
    let long = std::fs::read_to_string(&trace).unwrap().replacen(
        "\n0 p0 0",
        &format!("\n0 {} 0", "q".repeat(200_000)),
        1,
    );
    std::fs::write(&trace, long).unwrap();
    let out = hase(&["trace", "stats", p(&trace)]);
    fails_cleanly(&out, &["a path of 200000 bytes; the limit is 4096"]);
}

#[test]
fn endless_or_foreign_workload_files_end_with_an_error_that_quotes_no_content() {
    let dir = tempfile::tempdir().unwrap();
    let project = ring_with_workload(dir.path(), "Streams(streams: {0: File(\"/dev/zero\")})");
    let out = hase(&["run", p(&project)]);
    fails_cleanly(&out, &["/dev/zero: cannot read stream: a device, not a regular file"]);

    // A file outside the project's folder is read (desktop tools allow it), but an error quotes
    // only the offending token, shortened.
    let secret = dir.path().join("secret.txt");
    let first_line = format!("{}:x:0:0:/root:/bin/bash", "s".repeat(100));
    std::fs::write(&secret, format!("{first_line}\nsecond line with words\n")).unwrap();
    let sub = dir.path().join("sub");
    std::fs::create_dir(&sub).unwrap();
    let project = ring_with_workload(&sub, "TimeIndependentTrace(path: \"../secret.txt\")");
    let out = hase(&["run", p(&project)]);
    let stderr = text(&out).1;
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(!stderr.contains(&first_line) && !stderr.contains("second line"), "{stderr}");
    assert!(stderr.contains(&format!("`{}…`", "s".repeat(60))), "{stderr}");
}

fn run_to_trace(project: &Path, trace: &Path, extra: &[&str]) {
    let mut args = vec!["run", p(project), "--quiet", "--trace", p(trace)];
    args.extend_from_slice(extra);
    let out = hase(&args);
    assert!(out.status.success(), "{:?}", text(&out));
}

fn json_of(out: &Output) -> serde_json::Value {
    serde_json::from_slice(&out.stdout).unwrap_or_else(|e| panic!("{e}: {:?}", text(out)))
}

/// The events `hase run --estimate` prints (its first line: "NAME: ≈ 33.3 k events, …").
fn estimated_events(stdout: &str) -> f64 {
    let words: Vec<&str> = stdout.split('≈').nth(1).unwrap().split_whitespace().collect();
    let number: f64 = words[0].parse().unwrap();
    number
        * match words[1] {
            "k" => 1e3,
            "M" => 1e6,
            "G" => 1e9,
            _ => 1.0,
        }
}

#[test]
fn run_estimate_prints_the_size_within_twice_the_real_events_and_does_not_run() {
    let data = tempfile::tempdir().unwrap();
    for (name, iterations) in [("torus3d_halo.ron", "4"), ("fat_tree_allreduce.ron", "20")] {
        let project = projects().join(name);
        let set = format!("workload.iterations={iterations}");
        let out = Command::new(env!("CARGO_BIN_EXE_hase"))
            .args(["run", p(&project), "--estimate", "--set", &set])
            .env("HASE_DATA_DIR", data.path())
            .output()
            .unwrap();
        let (stdout, stderr) = text(&out);
        assert!(out.status.success(), "{stdout}{stderr}");
        assert!(stdout.contains("entities") && stdout.contains("packets"), "{stdout}");
        assert!(!stdout.contains("makespan"), "an estimate does not run: {stdout}");
        let estimated = estimated_events(&stdout);
        let out = hase(&["run", p(&project), "--quiet", "--set", &set]);
        let (real, _) = text(&out);
        let real: f64 = real.rsplit('(').next().unwrap().split_whitespace().next().unwrap().parse().unwrap();
        let ratio = estimated / real;
        assert!((0.5..=2.0).contains(&ratio), "{name}: estimated {estimated}, real {real}");
    }
}

/// `hase run` prints the closed form's makespan beside the measured one and writes it into the
/// statistics: a ring allreduce on a ring of 8 routers is exact; the mesh's bcast has none, and
/// says why.
#[test]
fn run_prints_the_expected_makespan_beside_the_measured_one() {
    let dir = tempfile::tempdir().unwrap();
    let project = dir.path().join("ring.ron");
    let new = |template: &str, dims: &str, params: &[&str]| {
        let mut args = vec!["new", "--template", template, "--dims", dims, "--program", "collective_loop"];
        for param in params {
            args.extend(["--param", param]);
        }
        args.extend(["-o", p(&project)]);
        let out = hase(&args);
        assert!(out.status.success(), "{:?}", text(&out));
    };
    new("ring", "8", &["algorithm=ring", "message_bytes=8K", "iterations=3", "compute_time=2us"]);
    let stats = dir.path().join("run.json");
    let out = hase(&["run", p(&project), "--stats", p(&stats)]);
    let (stdout, stderr) = text(&out);
    assert!(out.status.success(), "{stdout}{stderr}");
    let json: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&stats).unwrap()).unwrap();
    let makespan = json["makespan_ps"].as_u64().unwrap();
    assert_eq!(json["expected"]["makespan_ps"].as_u64(), Some(makespan), "{}", json["expected"]);
    assert_eq!(json["expected"]["calls"].as_u64(), Some(3));
    let line = stdout.lines().find(|l| l.trim_start().starts_with("expected")).expect("an expected line");
    let shown = hase_engine::time::SimTime(makespan).to_string();
    assert!(
        line.contains(&format!("{shown} (measured +0.0%; closed form: ring allreduce on the 8-node ring")),
        "{line}"
    );

    new("mesh2d", "3x3", &["operation=bcast"]);
    let out = hase(&["run", p(&project), "--stats", p(&stats)]);
    let (stdout, _) = text(&out);
    assert!(
        stdout.contains("expected    none: no closed form for default bcast on mesh2d networks"),
        "{stdout}"
    );
    let json: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&stats).unwrap()).unwrap();
    assert!(json["expected"]["none"].as_str().is_some_and(|s| s.contains("mesh2d")), "{}", json["expected"]);
}

/// `--threads`: the compact trace file (level 2, every message, so the second partition is dealt
/// less) and the statistics of a run on two threads are those of the run on one (less the host's
/// figures), the run says how it was spread, and zero threads is refused.
#[test]
fn a_run_on_two_threads_writes_the_same_files() {
    let dir = tempfile::tempdir().unwrap();
    let project = projects().join("torus3d_halo.ron");
    let mut files = Vec::new();
    for threads in ["1", "2"] {
        let trace = dir.path().join(format!("t{threads}.htb"));
        let stats = dir.path().join(format!("s{threads}.json"));
        let out = hase(&[
            "run",
            p(&project),
            "--threads",
            threads,
            "--level",
            "2",
            "--trace",
            p(&trace),
            "--stats",
            p(&stats),
            "-q",
        ]);
        let (stdout, stderr) = text(&out);
        assert!(out.status.success(), "{stdout}{stderr}");
        if threads == "2" {
            assert!(stderr.contains("threads: 2 partitions on 2 threads, windows of 10 ns"), "{stderr}");
        }
        let mut stats: serde_json::Value = serde_json::from_slice(&std::fs::read(&stats).unwrap()).unwrap();
        stats["wall_time_s"] = serde_json::Value::Null;
        stats["events_per_s"] = serde_json::Value::Null;
        files.push((std::fs::read(&trace).unwrap(), stats));
    }
    assert!(!files[0].0.is_empty());
    assert!(files[0].0 == files[1].0, "the two traces differ");
    assert_eq!(files[0].1, files[1].1);
    let out = hase(&["run", p(&projects().join("torus3d_halo.ron")), "--threads", "0"]);
    assert!(!out.status.success(), "zero threads is refused");
}
