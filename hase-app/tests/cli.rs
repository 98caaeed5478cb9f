//! The command line as a user drives it: generate, validate, run with trace and statistics, inspect
//! and export traces, and the errors (exit codes and messages) for bad input.

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
#[path = "cli/slurm.rs"]
mod slurm;

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
    // 1. A router radix far beyond its declared range used to allocate 240 GB before the check.
    let source = std::fs::read_to_string(projects().join("abstraction_toggle.ron")).unwrap();
    let radix = dir.path().join("radix.ron");
    std::fs::write(&radix, source.replace("\"radix\": Int(4),", "\"radix\": Int(4294967296),")).unwrap();
    let out = hase(&["validate", p(&radix)]);
    fails_cleanly(&out, &["fabric/s_l0_0: parameter `radix`: 4294967296 is out of range [1, 4096]"]);
    assert!(!text(&out).1.contains("link end does not exist"), "no cascade: {}", text(&out).1);

    // 2. A TI message of 1e18 bytes used to be cut into packets up front and abort.
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

#[test]
fn trace_diff_is_equal_on_itself_and_puts_a_slowed_link_first() {
    let dir = tempfile::tempdir().unwrap();
    let project = projects().join("fat_tree_allreduce.ron");
    let (a, b) = (dir.path().join("a.trace"), dir.path().join("b.htb"));
    run_to_trace(&project, &a, &[]);
    run_to_trace(&project, &b, &["--set", "link:p3.net.latency=2us"]);

    let out = hase(&["trace", "diff", p(&a), p(&a)]);
    assert_eq!(out.status.code(), Some(0), "{:?}", text(&out));
    assert!(text(&out).0.contains("(equal, aligned by rank)"), "{}", text(&out).0);

    let out = hase(&["trace", "diff", p(&a), p(&b), "--align", "path", "--json"]);
    assert_eq!(out.status.code(), Some(5), "{:?}", text(&out));
    let json = json_of(&out);
    assert_eq!(json["equal"], false);
    let rows: Vec<&str> =
        json["rows"].as_array().unwrap().iter().map(|r| r["name"].as_str().unwrap()).collect();
    let mut first_two = rows[..2].to_vec();
    first_two.sort_unstable();
    assert_eq!(first_two, ["p3.net -> s_l0_1.p1", "s_l0_1.p1 -> p3.net"], "{rows:?}");
    assert!(json["summary"]["makespan"]["diff_ps"].as_i64().unwrap() > 0);
    assert_eq!(json["events"]["matched"], 48);

    // Only the link moved: a tolerance as large as the whole change calls them equal.
    let out = hase(&["trace", "diff", p(&a), p(&b), "--tolerance", "100%"]);
    assert_eq!(out.status.code(), Some(0), "{:?}", text(&out));
    let out = hase(&["trace", "diff", p(&a), p(&dir.path().join("missing.trace"))]);
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out).1.contains("missing.trace"), "{}", text(&out).1);
}

#[test]
fn trace_phases_of_the_builtin_pipeline_halo_and_collective_loop() {
    let dir = tempfile::tempdir().unwrap();
    let phases_of = |template: &str, dims: &str, program: &str, params: &[&str]| -> serde_json::Value {
        let project = dir.path().join(format!("{program}.ron"));
        let mut args = vec!["new", "--template", template, "--dims", dims, "--program", program];
        for param in params {
            args.extend_from_slice(&["--param", param]);
        }
        args.extend_from_slice(&["-o", p(&project)]);
        let out = hase(&args);
        assert!(out.status.success(), "{:?}", text(&out));
        let trace = dir.path().join(format!("{program}.trace"));
        run_to_trace(&project, &trace, &[]);
        let out = hase(&["trace", "phases", p(&trace), "--json"]);
        assert!(out.status.success(), "{:?}", text(&out));
        json_of(&out)
    };
    let kinds = |json: &serde_json::Value| -> Vec<(String, u64)> {
        json["phases"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| (p["kind"].as_str().unwrap().to_string(), p["chain_depth"].as_u64().unwrap()))
            .collect()
    };

    let pipeline = phases_of("linear", "6", "pipeline", &["items=8"]);
    assert_eq!(kinds(&pipeline), [("pipeline".to_string(), 5)], "{pipeline}");

    let halo = phases_of("mesh2d", "3x3", "halo2d", &["iterations=3"]);
    let halo_kinds = kinds(&halo);
    assert_eq!(halo_kinds.len(), 3, "{halo}");
    assert!(halo_kinds.iter().all(|(k, _)| k == "exchange"), "{halo}");

    let allreduce = phases_of(
        "fat_tree",
        "2,3",
        "collective_loop",
        &["operation=allreduce", "algorithm=recursive_doubling", "iterations=4", "compute_time=5us"],
    );
    let calls = allreduce["phases"].as_array().unwrap();
    assert_eq!(calls.len(), 4, "{allreduce}");
    // Recursive doubling on 8 ranks: 3 rounds of 8 messages per call.
    assert!(calls.iter().all(|c| c["messages"] == 24 && c["kind"] == "exchange"), "{allreduce}");
}

#[test]
fn statistics_as_csv_from_a_run_and_from_a_trace() {
    let dir = tempfile::tempdir().unwrap();
    let project = projects().join("fat_tree_allreduce.ron");
    let (trace, tables) = (dir.path().join("run.trace"), dir.path().join("tables"));
    run_to_trace(&project, &trace, &["--stats-csv", p(&tables)]);
    for name in ["states.csv", "ports.csv", "links.csv", "latency_pairs.csv", "latency_histogram.csv"] {
        assert!(tables.join(name).exists(), "{name}");
    }
    let pairs = std::fs::read_to_string(tables.join("latency_pairs.csv")).unwrap();
    assert!(pairs.starts_with("src,dst,count,min_ps,mean_ps,p50_ps,p90_ps,p99_ps,max_ps\n0,1,2,"), "{pairs}");

    let out = hase(&["trace", "stats", p(&trace), "--csv"]);
    assert!(out.status.success(), "{:?}", text(&out));
    let table = text(&out).0;
    let mut lines = table.lines();
    assert!(
        lines.next().unwrap().starts_with("entity,type,msgs_sent,bytes_sent,msgs_recv,bytes_recv,"),
        "{table}"
    );
    assert_eq!(lines.count(), 20, "one row per entity: {table}");
}

#[test]
fn check_levels_passes_a_ping_pong_and_fails_a_contended_alltoall() {
    let project = projects().join("abstraction_toggle.ron");
    let out = hase(&["check-levels", p(&project)]);
    let (stdout, stderr) = text(&out);
    assert_eq!(out.status.code(), Some(0), "{stdout}{stderr}");
    assert!(stdout.contains("fabric — behavioural level: hop-count model"), "{stdout}");
    assert!(stdout.contains("valid: the hop-count level gives the same times"), "{stdout}");

    let out = hase(&[
        "check-levels",
        p(&project),
        "--workload",
        "collective_loop",
        "--param",
        "operation=alltoall",
        "--param",
        "message_bytes=16K",
        "--param",
        "iterations=1",
        "--json",
    ]);
    assert_eq!(out.status.code(), Some(5), "{:?}", text(&out));
    let json = json_of(&out);
    let check = &json[0];
    assert_eq!((check["compound"].as_str(), check["valid"].as_bool()), (Some("fabric"), Some(false)));
    assert!(check["detailed_ps"].as_u64() > check["behavioural_ps"].as_u64(), "{json}");
    assert!(check["latency"]["differing"].as_u64().unwrap() > 0, "{json}");

    let out = hase(&["check-levels", p(&projects().join("fat_tree_allreduce.ron"))]);
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out).1.contains("no compound with a behavioural level"), "{}", text(&out).1);
}

/// Raw rows as `hase mpi bench` writes them, from known equations with a fixed ±1 % wobble:
/// bcast = 10 + 3·log₂p + 0.002·p·d, barrier = 2 + 1.5·p, and point-to-point c + k·d.
fn synthetic_raw() -> String {
    use std::fmt::Write as _;
    let mut out = String::from("# machine: synthetic\nfunction,procs,bytes,repeat,time_us\n");
    let wobble = |r: u32| 1.0 + 0.01 * (f64::from(r % 3) - 1.0);
    let sizes = [0u64, 64, 256, 1024, 4096, 16_384, 65_536];
    for p in [2u32, 4, 8] {
        let pf = f64::from(p);
        for d in sizes {
            for r in 0..5 {
                let t = (10.0 + 3.0 * pf.log2() + 0.002 * pf * d as f64) * wobble(r + p);
                writeln!(out, "bcast,{p},{d},{r},{t}").unwrap();
            }
        }
        for r in 0..5 {
            writeln!(out, "barrier,{p},0,{r},{}", (2.0 + 1.5 * pf) * wobble(r)).unwrap();
        }
    }
    for (f, c, k) in [("send", 1.0, 0.0002), ("recv", 2.0, 0.0003), ("recvmin", 1.5, 0.0001)] {
        for d in sizes {
            for r in 0..8 {
                writeln!(out, "{f},2,{d},{r},{}", (c + k * d as f64) * wobble(r)).unwrap();
            }
        }
    }
    out
}

fn quiet_makespan(stdout: &str) -> String {
    stdout.split(" at ").nth(1).and_then(|s| s.split(" (").next()).unwrap_or_default().to_string()
}

#[test]
fn fit_show_and_report_a_sheet_then_run_on_it_and_swap_it_with_set() {
    let dir = tempfile::tempdir().unwrap();
    let raw = dir.path().join("raw.csv");
    std::fs::write(&raw, synthetic_raw()).unwrap();
    let sheet = dir.path().join("mine.ron");
    let out = hase(&["datasheet", "fit", p(&raw), "-o", p(&sheet)]);
    assert!(out.status.success(), "{:?}", text(&out));
    assert!(text(&out).0.contains("fitted 5 functions from"), "{}", text(&out).0);

    let out = hase(&["datasheet", "show", p(&sheet), "--json"]);
    assert!(out.status.success(), "{:?}", text(&out));
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let bcast = json["functions"].as_array().unwrap().iter().find(|f| f["name"] == "bcast").unwrap();
    let fit = &bcast["fits"][0];
    assert_eq!((fit["startup"].as_str(), fit["data"].as_str()), (Some("log p"), Some("p*d")), "{bcast}");
    assert!((fit["k_us_per_byte"].as_f64().unwrap() - 0.002).abs() < 1e-4, "{fit}");
    for key in ["bytes_from", "bytes_to", "c_us", "s_us", "c_err", "s_err", "k_err", "chi2", "q"] {
        assert!(fit.get(key).is_some(), "{key} missing from {fit}");
    }
    let out = hase(&["datasheet", "show", "cray_t3d"]);
    assert!(out.status.success() && text(&out).0.contains("allreduce"), "{:?}", text(&out));

    let report = dir.path().join("report.html");
    let out = hase(&["datasheet", "report", p(&sheet), "-o", p(&report)]);
    assert!(out.status.success(), "{:?}", text(&out));
    let html = std::fs::read_to_string(&report).unwrap();
    assert_eq!(html.matches("<svg").count(), 5, "a plot per function");

    // The abstraction example at its behavioural level on the new sheet, then on the T3D's.
    let example = std::fs::read_to_string(projects().join("abstraction_toggle.ron")).unwrap();
    let behavioural = example.replacen(
        "type: \"FatTree_k2_n3\",\n",
        "type: \"FatTree_k2_n3\",\n        level: Behavioural,\n",
        1,
    );
    assert_ne!(behavioural, example);
    let project = dir.path().join("toggle.ron");
    std::fs::write(&project, behavioural).unwrap();
    let run_on = |sheet: &str| {
        let set = format!("fabric.sheet={sheet}");
        let out = hase(&["run", p(&project), "-q", "--set", "fabric.model=datasheet", "--set", &set]);
        assert!(out.status.success(), "{sheet}: {:?}", text(&out));
        quiet_makespan(&text(&out).0)
    };
    let (mine, t3d) = (run_on("mine.ron"), run_on("cray_t3d"));
    assert!(!mine.is_empty() && !t3d.is_empty() && mine != t3d, "{mine} vs {t3d}");
    // An experiment varies the sheet like any parameter: the file is read relative to the
    // project, and each point's makespan is the one `hase run --set` gives.
    let out = hase(&[
        "sweep",
        p(&project),
        "--vary",
        "fabric.model=datasheet",
        "--vary",
        "fabric.sheet=mine.ron, cray_t3d",
        "--metric",
        "makespan_ps",
        "--quiet",
    ]);
    assert!(out.status.success(), "{:?}", text(&out));
    let csv = text(&out).0;
    let rows: Vec<Vec<&str>> = csv.lines().skip(1).map(|l| l.split(',').collect()).collect();
    assert_eq!(
        csv.lines().next(),
        Some("point,fabric.model,fabric.sheet,repetition,seed,outcome,makespan_ps")
    );
    assert_eq!(rows.iter().map(|r| r[2]).collect::<Vec<_>>(), ["mine.ron", "cray_t3d"], "{csv}");
    let makespans: Vec<u64> = rows.iter().map(|r| r[6].parse().unwrap()).collect();
    assert_ne!(makespans[0], makespans[1], "{csv}");
    let swept: Vec<String> = makespans.iter().map(|&ps| hase_engine::time::SimTime(ps).to_string()).collect();
    assert_eq!(swept, [mine.clone(), t3d.clone()], "the sweep's makespans are hase run's");
    let out =
        hase(&["run", p(&project), "--set", "fabric.model=datasheet", "--set", "fabric.sheet=none.ron"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out).1.contains("no built-in data sheet `none.ron` and no sheet file"), "{}", text(&out).1);

    // Bad input: a raw file with a negative time; an unknown sheet.
    std::fs::write(&raw, "function,procs,bytes,repeat,time_us\nsend,2,8,0,-1\n").unwrap();
    let out = hase(&["datasheet", "fit", p(&raw), "-o", p(&sheet)]);
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out).1.contains("raw.csv:2: time_us -1 is not a time"), "{}", text(&out).1);
    let out = hase(&["datasheet", "show", "nothing"]);
    assert_eq!(out.status.code(), Some(1));
}

#[test]
fn the_mpi_commands_are_in_the_help_and_list_the_samples() {
    let out = hase(&["--help"]);
    assert!(text(&out).0.contains("datasheet") && text(&out).0.contains("mpi"), "{}", text(&out).0);
    let out = hase(&["mpi", "--help"]);
    for command in ["bench", "record", "predict", "sample"] {
        assert!(text(&out).0.contains(command), "{command}: {}", text(&out).0);
    }
    let out = hase(&["mpi", "sample"]);
    assert!(out.status.success(), "{:?}", text(&out));
    let samples = hase_library::mpi::SAMPLES.map(|s| s.name);
    assert!(samples.contains(&"sample_sort"), "{samples:?}");
    for name in samples {
        assert!(text(&out).0.contains(name), "{name}: {}", text(&out).0);
    }
    let out = hase(&["mpi", "sample", "quicksort"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out).1.contains("no sample program `quicksort`"), "{}", text(&out).1);
    let out = hase(&["mpi", "bench", "-o", "x.csv", "--sizes", "1..8"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out).1.contains("needs a step"), "{}", text(&out).1);
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

    // `hase validate` reads the workload files too, and names the file and line at fault.
    let out = in_dir(&["validate", "p.ron"]);
    assert_eq!(out.status.code(), Some(1), "{:?}", text(&out));
    assert!(text(&out).1.contains("rank1.ti:2:3: unknown action `recv_from`"), "{:?}", text(&out));
    std::fs::write(dir.path().join("run/rank1.ti"), "1 init\n1 recv 0 0 4096\n").unwrap();
    let out = in_dir(&["validate", "p.ron"]);
    assert!(out.status.success(), "{:?}", text(&out));
    assert!(text(&out).0.contains("workload: trace run/index.ti on 2 ranks"), "{:?}", text(&out));
    // An instruction stream with a bad line.
    std::fs::write(dir.path().join("r0.txt"), "COMPUTE 1us\nSEND 1 4K\nBCAST\n").unwrap();
    let streams = std::fs::read_to_string(&line)
        .unwrap()
        .replace("workload: Idle,", "workload: Streams(streams: {0: File(\"r0.txt\")}),");
    assert!(streams.contains("r0.txt"), "{streams}");
    std::fs::write(&line, streams).unwrap();
    let out = hase(&["validate", p(&line)]);
    assert_eq!(out.status.code(), Some(1), "{:?}", text(&out));
    assert!(text(&out).1.contains("r0.txt:3:"), "{:?}", text(&out));
}

#[test]
fn pgft_and_dragonfly_templates_with_their_routing_choices_and_host_links() {
    let dir = tempfile::tempdir().unwrap();
    let pgft = dir.path().join("pgft.ron");
    let out = hase(&[
        "new",
        "--template",
        "pgft",
        "--dims",
        "2;4,4;1,2;1,2",
        "--down-choice",
        "source",
        "--up-choice",
        "source",
        "--program",
        "collective_loop",
        "--param",
        "operation=alltoall",
        "-o",
        p(&pgft),
    ]);
    assert!(out.status.success(), "{:?}", text(&out));
    assert!(text(&out).1.contains("6 switches, 16 processors, 32 links"), "{:?}", text(&out));
    let saved = hase_library::generated::load_project(&pgft).unwrap();
    assert!(matches!(
        saved.network.routing,
        hase_engine::model::Routing::Pgft {
            up_choice: hase_engine::model::UpChoice::BySource,
            down_choice: hase_engine::model::DownChoice::BySource,
            ..
        }
    ));
    let out = hase(&["run", p(&pgft), "--quiet"]);
    assert!(out.status.success() && text(&out).0.contains("completed"), "{:?}", text(&out));

    // Direct network with ideal processor links; switch links as given.
    let torus = dir.path().join("torus.ron");
    let out = hase(&[
        "new",
        "--template",
        "torus2d",
        "--dims",
        "4x4",
        "--latency",
        "1us",
        "--bandwidth",
        "1GBps",
        "--ideal-host-links",
        "-o",
        p(&torus),
    ]);
    assert!(out.status.success(), "{:?}", text(&out));
    let saved = hase_library::generated::load_project(&torus).unwrap();
    let (hosts, routers): (Vec<_>, Vec<_>) = saved
        .network
        .links
        .iter()
        .partition(|l| l.a.instance.starts_with('p') || l.b.instance.starts_with('p'));
    assert_eq!((hosts.len(), routers.len()), (16, 32));
    assert!(hosts.iter().all(|l| l.latency.as_ps() == 0 && l.bandwidth_bytes_per_s == 0));
    assert!(
        routers.iter().all(|l| l.latency.as_ps() == 1_000_000 && l.bandwidth_bytes_per_s == 1_000_000_000)
    );
    let out = hase(&[
        "new",
        "--template",
        "mesh2d",
        "--dims",
        "2x2",
        "--host-latency",
        "5ns",
        "--host-bandwidth",
        "10Gbps",
        "-o",
        p(&torus),
    ]);
    assert!(out.status.success(), "{:?}", text(&out));
    let saved = hase_library::generated::load_project(&torus).unwrap();
    let host = saved.network.links.iter().find(|l| l.a.instance == "p0" || l.b.instance == "p0").unwrap();
    assert_eq!((host.latency.as_ps(), host.bandwidth_bytes_per_s), (5_000, 1_250_000_000));

    let fly = dir.path().join("fly.ron");
    let out = hase(&["new", "--template", "dragonfly", "--dims", "3,1;2,1;3,1;2", "-o", p(&fly)]);
    assert!(out.status.success(), "{:?}", text(&out));
    assert!(text(&out).1.contains("18 switches, 36 processors"), "{:?}", text(&out));
    assert!(hase(&["validate", p(&fly)]).status.success());
}

#[test]
fn ranks_are_placed_with_np_a_list_or_a_hostfile() {
    let dir = tempfile::tempdir().unwrap();
    let line = dir.path().join("line.ron");
    let out = hase(&[
        "new",
        "--template",
        "linear",
        "--dims",
        "8",
        "--program",
        "ping_pong",
        "--np",
        "2",
        "-o",
        p(&line),
    ]);
    assert!(out.status.success(), "{:?}", text(&out));
    assert!(std::fs::read_to_string(&line).unwrap().contains("placement: First(2)"));
    let makespan = |extra: &[&str]| {
        let mut args = vec!["run", p(&line), "--quiet"];
        args.extend_from_slice(extra);
        let out = hase(&args);
        assert!(out.status.success(), "{:?}", text(&out));
        text(&out).0
    };
    let near = makespan(&[]);
    let far = makespan(&["--ranks", "0,7"]);
    assert_ne!(near, far, "ranks 7 hops apart take longer than neighbours");
    let hostfile = dir.path().join("hosts");
    std::fs::write(&hostfile, "# SMPI hostfile\np0\np7:1\n").unwrap();
    assert_eq!(makespan(&["--hostfile", p(&hostfile)]), far);
    std::fs::write(&hostfile, "p0\np0\n").unwrap();
    let out = hase(&["run", p(&line), "--hostfile", p(&hostfile)]);
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out).1.contains("placement entries 0 and 1 both name processor `p0`"), "{:?}", text(&out));
}

#[test]
fn a_simgrid_platform_imports_and_replays_a_trace_on_the_hosts_of_a_hostfile() {
    let dir = tempfile::tempdir().unwrap();
    let platform = dir.path().join("cluster.xml");
    std::fs::write(
        &platform,
        "<?xml version='1.0'?>\n<!DOCTYPE platform SYSTEM \"https://simgrid.org/simgrid.dtd\">\n<platform version=\"4.1\">\n\
         <zone id=\"world\" routing=\"Full\">\n\
         <cluster id=\"ft\" prefix=\"node-\" suffix=\".sg\" radical=\"0-15\" speed=\"1Gf\" bw=\"1GBps\" lat=\"1us\" \
         topology=\"FAT_TREE\" topo_parameters=\"2;4,4;1,2;1,2\"><prop id=\"wattage\" value=\"100\"/></cluster>\n\
         </zone>\n</platform>\n",
    )
    .unwrap();
    let hosts = dir.path().join("hosts");
    std::fs::write(&hosts, "node-15.sg\nnode-0.sg\n").unwrap();
    let project = dir.path().join("ft.ron");
    let out = hase(&["import", "simgrid", p(&platform), "--hostfile", p(&hosts), "-o", p(&project)]);
    assert!(out.status.success(), "{:?}", text(&out));
    let err = text(&out).1;
    assert!(err.contains("cluster.xml:5: note: cluster property `wattage` ignored"), "{err}");
    assert!(
        err.contains(
            "cluster ft: FAT_TREE 2;4,4;1,2;1,2, 16 hosts (22 entities, 32 links); ranks on 2 processors"
        ),
        "{err}"
    );
    let trace = dir.path().join("pair.ti");
    std::fs::write(&trace, "0 init\n0 send 1 0 1000000\n1 init\n1 recv 0 0 1000000\n").unwrap();
    let out = hase(&["run", p(&project), "--workload-trace", p(&trace), "--quiet"]);
    assert!(out.status.success() && text(&out).0.contains("completed"), "{:?}", text(&out));

    std::fs::write(
        &platform,
        "<platform version=\"4.1\">\n  <cluster id=\"c\" radical=\"0-3\"\n</platform>\n",
    )
    .unwrap();
    let out = hase(&["import", "simgrid", p(&platform), "-o", p(&project)]);
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out).1.contains("cluster.xml:3:"), "{:?}", text(&out));
}

#[test]
fn a_hostfile_longer_than_the_ranks_lends_its_first_hosts_and_np_takes_its_first_lines() {
    let dir = tempfile::tempdir().unwrap();
    let platform = dir.path().join("ft.xml");
    std::fs::write(
        &platform,
        "<?xml version='1.0'?>\n<platform version=\"4.1\">\n<zone id=\"world\" routing=\"Full\">\n\
         <cluster id=\"ft\" prefix=\"node-\" suffix=\"\" radical=\"0-15\" speed=\"1Gf\" bw=\"1GBps\" lat=\"1us\" \
         topology=\"FAT_TREE\" topo_parameters=\"2;4,4;1,2;1,2\"/>\n</zone>\n</platform>\n",
    )
    .unwrap();
    let project = dir.path().join("ft.ron");
    let out = hase(&["import", "simgrid", p(&platform), "-o", p(&project)]);
    assert!(out.status.success(), "{:?}", text(&out));
    let trace = dir.path().join("pair.ti");
    std::fs::write(&trace, "0 init\n0 send 1 0 1000000\n1 init\n1 recv 0 0 1000000\n").unwrap();
    let hosts = dir.path().join("hosts");
    let makespan = |lines: &str, extra: &[&str]| {
        std::fs::write(&hosts, lines).unwrap();
        let mut args =
            vec!["run", p(&project), "--workload-trace", p(&trace), "--hostfile", p(&hosts), "--quiet"];
        args.extend_from_slice(extra);
        let out = hase(&args);
        assert!(out.status.success(), "{:?}", text(&out));
        text(&out).0
    };
    // Two ranks on a three-line hostfile run on its first two hosts, as smpirun places them.
    let across = makespan("node-15\nnode-0\n", &[]);
    let same_leaf = makespan("node-1\nnode-0\n", &[]);
    assert_ne!(across, same_leaf, "4 links take longer than 2");
    assert_eq!(makespan("node-15\nnode-0\nnode-1\n", &[]), across);
    assert_eq!(makespan("node-1\nnode-0\nnode-15\n", &[]), same_leaf);
    // --np N takes the hostfile's first N lines.
    assert_eq!(makespan("node-15\nnode-0\nnode-1\nnode-2\n", &["--np", "2"]), across);
    std::fs::write(&hosts, "node-15\nnode-0\nnode-1\n").unwrap();
    let out =
        hase(&["import", "simgrid", p(&platform), "--hostfile", p(&hosts), "--np", "2", "-o", p(&project)]);
    assert!(out.status.success(), "{:?}", text(&out));
    assert!(text(&out).1.contains("ranks on 2 processors: node-15, node-0"), "{:?}", text(&out));
    let out =
        hase(&["import", "simgrid", p(&platform), "--hostfile", p(&hosts), "--np", "4", "-o", p(&project)]);
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out).1.contains("--np 4: the hostfile"), "{:?}", text(&out));
    assert!(text(&out).1.contains("lists only 3 hosts"), "{:?}", text(&out));
}

#[test]
fn import_simgrid_latency_flow_pays_each_route_latency_at_the_interface() {
    let dir = tempfile::tempdir().unwrap();
    let platform = dir.path().join("ft.xml");
    std::fs::write(
        &platform,
        "<?xml version='1.0'?>\n<platform version=\"4.1\">\n<zone id=\"world\" routing=\"Full\">\n\
         <cluster id=\"ft\" prefix=\"node-\" suffix=\"\" radical=\"0-15\" speed=\"1Gf\" bw=\"1GBps\" lat=\"1us\" \
         topology=\"FAT_TREE\" topo_parameters=\"2;4,4;1,2;1,2\"/>\n</zone>\n</platform>\n",
    )
    .unwrap();
    let (links, flow) = (dir.path().join("links.ron"), dir.path().join("flow.ron"));
    let out = hase(&["import", "simgrid", p(&platform), "-o", p(&links)]);
    assert!(out.status.success(), "{:?}", text(&out));
    let out = hase(&["import", "simgrid", p(&platform), "--latency", "flow", "-o", p(&flow)]);
    assert!(out.status.success(), "{:?}", text(&out));
    let saved = std::fs::read_to_string(&flow).unwrap();
    assert!(saved.contains("\"route_latency_per_router_link\": Time(1000000)"), "{saved}");
    let trace = dir.path().join("two.ti");
    let run = |project: &Path, lines: &str| {
        std::fs::write(&trace, lines).unwrap();
        let args = ["run", p(project), "--workload-trace", p(&trace), "--np", "5", "--quiet"];
        let out = hase(&[&args[..], &["--set", "type:Processor.max_packet=16"]].concat());
        assert!(out.status.success(), "{:?}", text(&out));
        text(&out).0
    };
    // 8192 + 16 bytes over 4 links of 1 us at 1 GB/s: 4 us + 8.208 us either way.
    let one = "0 init\n1 init\n2 init\n3 init\n4 init\n0 send 4 0 8192\n4 recv 0 0 8192\n";
    assert!(run(&flow, one).contains("completed at 12.208 us"), "{}", run(&flow, one));
    assert!(run(&links, one).contains("completed at 12.208 us"), "{}", run(&links, one));
    // Rank 0 sends to 1 (2 links) and 4 (4 links) at once: with flow latency the link is busy from
    // 2 us on and the last byte arrives at 2 us + 2 × 8.208 us, as in SimGrid; with the latency
    // on the links, the long route pays its 4 us after the shared transfer.
    let two = "0 init\n1 init\n2 init\n3 init\n4 init\n0 isend 1 0 8192\n0 isend 4 0 8192\n0 waitall\n\
               1 recv 0 0 8192\n4 recv 0 0 8192\n";
    assert!(run(&flow, two).contains("completed at 18.416 us"), "{}", run(&flow, two));
    assert!(run(&links, two).contains("completed at 20.416 us"), "{}", run(&links, two));
    let out = hase(&["import", "simgrid", p(&platform), "--latency", "hops", "-o", p(&flow)]);
    assert_eq!(out.status.code(), Some(2));
}

/// The sweep of the kill and Ctrl-C tests: 8 sizes × 2 algorithms × 2 repetitions on the
/// 8-processor fat tree, messages large enough that each run takes a while.
fn slow_sweep_args<'a>(project: &'a str, extra: &[&'a str]) -> Vec<&'a str> {
    let mut args = vec![
        "sweep",
        project,
        "--vary",
        "workload.message_bytes=256K..2M +256K",
        "--vary",
        "algorithm=ring,recursive_doubling",
        "--metric",
        "makespan_ps",
        "--metric",
        "events",
        "--repeat",
        "2",
    ];
    args.extend_from_slice(extra);
    args
}

/// A `hase` child whose stderr lines arrive on a channel; killed when dropped.
struct Child {
    process: std::process::Child,
    lines: std::sync::mpsc::Receiver<String>,
}

impl Child {
    fn spawn(args: &[&str]) -> Self {
        use std::io::BufRead;
        let mut process = Command::new(env!("CARGO_BIN_EXE_hase"))
            .args(args)
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        let stderr = process.stderr.take().unwrap();
        let (send, lines) = std::sync::mpsc::channel();
        std::thread::Builder::new()
            .name("cli-test-stderr".into())
            .spawn(move || {
                for line in std::io::BufReader::new(stderr).lines().map_while(Result::ok) {
                    let _ = send.send(line);
                }
            })
            .unwrap();
        Child { process, lines }
    }

    /// Wait for `count` lines of finished runs (`[k/N] …`); returns every line seen.
    fn wait_for_runs(&self, count: usize) -> Vec<String> {
        let mut seen = Vec::new();
        while seen.iter().filter(|l: &&String| l.starts_with('[')).count() < count {
            let line =
                self.lines.recv_timeout(std::time::Duration::from_mins(2)).expect("the sweep reports runs");
            seen.push(line);
        }
        seen
    }
}

impl Drop for Child {
    fn drop(&mut self) {
        let _ = self.process.kill();
        let _ = self.process.wait();
    }
}

fn finished_runs(stderr: &str) -> usize {
    stderr.lines().filter(|l| l.starts_with('[')).count()
}

#[test]
fn sweeps_give_the_same_csv_for_any_jobs_and_name_spec_errors() {
    let dir = tempfile::tempdir().unwrap();
    let project = projects().join("fat_tree_allreduce.ron");
    let csv = |jobs: &str| {
        let out_path = dir.path().join(format!("jobs{jobs}.csv"));
        let out = hase(&[
            "sweep",
            p(&project),
            "--vary",
            "workload.message_bytes=1K..16K *2",
            "--vary",
            "algorithm=ring,recursive_doubling",
            "--where",
            "workload.message_bytes >= 2048 || algorithm == \"ring\"",
            "--repeat",
            "2",
            "--seed",
            "9",
            "--jobs",
            jobs,
            "--csv",
            p(&out_path),
        ]);
        assert!(out.status.success(), "{:?}", text(&out));
        assert!(text(&out).1.contains("18 of 18 runs: 18 completed"), "{}", text(&out).1);
        std::fs::read(out_path).unwrap()
    };
    let one = csv("1");
    assert_eq!(one, csv("2"), "--jobs 1 and --jobs 2 give byte-identical CSV");
    let one = String::from_utf8(one).unwrap();
    let mut lines = one.lines();
    assert_eq!(
        lines.next(),
        Some(
            "point,workload.message_bytes,algorithm,repetition,seed,outcome,makespan_ps,events,messages,\
             latency_mean_ps,latency_max_ps"
        )
    );
    assert!(lines.next().unwrap().starts_with("0,1024,ring,0,"), "{one}");
    assert_eq!(one.lines().count(), 19);

    // A spec file: its errors name the line; --save-spec writes what --spec reads.
    let spec = dir.path().join("sweep.ron");
    let out = hase(&[
        "sweep",
        p(&project),
        "--vary",
        "algorithm=ring",
        "--metric",
        "makespan_ps",
        "--save-spec",
        p(&spec),
    ]);
    assert!(out.status.success(), "{:?}", text(&out));
    let saved = std::fs::read_to_string(&spec).unwrap();
    let out = hase(&["sweep", "--spec", p(&spec), "--quiet"]);
    assert!(out.status.success(), "{:?}", text(&out));
    assert!(
        text(&out).0.starts_with("point,algorithm,repetition,seed,outcome,makespan_ps\n0,ring,0,"),
        "{}",
        text(&out).0
    );
    let bad = saved.replace("\"ring\"", "\"ring, spiral\"");
    std::fs::write(&spec, &bad).unwrap();
    let out = hase(&["sweep", "--spec", p(&spec)]);
    assert_eq!(out.status.code(), Some(1));
    let line = bad.lines().position(|l| l.contains("target: \"algorithm\"")).unwrap() + 1;
    let stderr = text(&out).1;
    assert!(stderr.starts_with(&format!("error: {}:{line}:", spec.display())), "{stderr}");
    assert!(stderr.contains("spiral"), "{stderr}");
    let out = hase(&["sweep", p(&project), "--vary", "workload.message_bytes=8..2"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out).1.contains("--vary workload.message_bytes=8..2") && text(&out).1.contains("backwards"),
        "{}",
        text(&out).1
    );
    // A project made by `hase new` remembers its template: its network can be swept.
    let ring = dir.path().join("ring.ron");
    let out =
        hase(&["new", "--template", "ring", "--dims", "4", "--program", "collective_loop", "-o", p(&ring)]);
    assert!(out.status.success(), "{:?}", text(&out));
    assert!(std::fs::read_to_string(&ring).unwrap().contains("template: \"ring\""));
    let out =
        hase(&["sweep", p(&ring), "--vary", "template.dims=3..5", "--metric", "makespan_ps", "--quiet"]);
    assert!(out.status.success(), "{:?}", text(&out));
    let stdout = text(&out).0;
    let sizes: Vec<&str> = stdout.lines().skip(1).map(|l| l.split(',').nth(1).unwrap()).collect();
    assert_eq!(sizes, ["3", "4", "5"], "{stdout}");
    // Traces of every run, beside the CSV; each one a readable trace.
    let traced = dir.path().join("traced.csv");
    let out = hase(&["sweep", p(&ring), "--vary", "template.dims=3,4", "--traces", "2", "--csv", p(&traced)]);
    assert!(out.status.success(), "{:?}", text(&out));
    let trace = dir.path().join("traced.csv.traces/point-000001-rep-000.trace");
    let out = hase(&["trace", "stats", p(&trace)]);
    assert!(out.status.success() && text(&out).0.contains("ALLREDUCE"), "{:?}", text(&out));
    let out = hase(&["sweep", p(&project), "--metric", "makespan"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out).1.contains("--metric makespan: unknown metric"), "{}", text(&out).1);
}

#[test]
fn a_killed_stored_sweep_resumes_with_only_the_missing_runs() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    let project = projects().join("fat_tree_allreduce.ron");
    let full = dir.path().join("full.csv");
    let out = hase(&slow_sweep_args(p(&project), &["--jobs", "2", "--csv", p(&full)]));
    assert!(out.status.success(), "{:?}", text(&out));

    let child =
        Child::spawn(&slow_sweep_args(p(&project), &["--store", "--data-dir", p(&data), "--jobs", "1"]));
    let seen = child.wait_for_runs(3);
    assert!(seen[0].starts_with("experiment 1: Allreduce on a fat tree"), "{seen:?}");
    drop(child); // SIGKILL
    let resumed = dir.path().join("resumed.csv");
    let out = hase(&["sweep", "--resume", "1", "--data-dir", p(&data), "--jobs", "2", "--csv", p(&resumed)]);
    let (_, stderr) = text(&out);
    assert!(out.status.success(), "{stderr}");
    let first = stderr.lines().next().unwrap();
    let stored: usize = first.split(": ").nth(1).unwrap().split(' ').next().unwrap().parse().unwrap();
    assert!(
        stored >= 3 && first.ends_with(&format!("of 32 runs stored, running {}", 32 - stored)),
        "{first}"
    );
    assert_eq!(finished_runs(&stderr), 32 - stored, "only the missing runs ran: {stderr}");
    assert_eq!(std::fs::read(&resumed).unwrap(), std::fs::read(&full).unwrap(), "the same CSV");

    // The stored experiment from the command line.
    let ex = |args: &[&str]| {
        let mut all = vec!["experiments"];
        all.extend_from_slice(args);
        all.extend_from_slice(&["--data-dir", p(&data)]);
        let out = hase(&all);
        assert!(out.status.success(), "{args:?}: {:?}", text(&out));
        text(&out).0
    };
    let list = ex(&["list"]);
    assert!(list.contains("32/32") && list.contains("complete"), "{list}");
    let show = ex(&["show", "1"]);
    assert!(
        show.contains("completed     32") && show.contains("variables   workload.message_bytes, algorithm"),
        "{show}"
    );
    let (csv, ron) = (dir.path().join("export.csv"), dir.path().join("export.ron"));
    ex(&["export", "1", "--csv", p(&csv), "--ron", p(&ron)]);
    assert_eq!(std::fs::read(&csv).unwrap(), std::fs::read(&full).unwrap());
    assert!(ex(&["import", p(&ron)]).contains("as experiment 2"));
    ex(&["rename", "2", "copy"]);
    ex(&["delete", "1"]);
    let list = ex(&["list"]);
    assert!(list.contains("copy") && !list.contains("   1  "), "{list}");
    let out = hase(&["experiments", "show", "1", "--data-dir", p(&data)]);
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out).1.contains("no experiment 1"), "{}", text(&out).1);
}

#[test]
fn ctrl_c_cancels_a_sweep_with_exit_4_and_it_resumes() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    let project = projects().join("fat_tree_allreduce.ron");
    let mut child =
        Child::spawn(&slow_sweep_args(p(&project), &["--store", "--data-dir", p(&data), "--jobs", "1"]));
    child.wait_for_runs(2);
    let pid = child.process.id().to_string();
    assert!(Command::new("kill").args(["-INT", &pid]).status().unwrap().success());
    let status = child.process.wait().unwrap();
    let rest: Vec<String> = child.lines.iter().collect();
    assert_eq!(status.code(), Some(4), "{rest:?}");
    assert!(rest.iter().any(|l| l == "cancelled; resume with: hase sweep --resume 1"), "{rest:?}");
    let out = hase(&["sweep", "--resume", "1", "--data-dir", p(&data), "--quiet"]);
    assert!(out.status.success(), "{:?}", text(&out));
    assert!(text(&out).1.contains("32 of 32 runs: 32 completed"), "{}", text(&out).1);
}

#[test]
fn experiments_fit_finds_a_formula_for_a_swept_ring_allreduce() {
    let dir = tempfile::tempdir().unwrap();
    let (ring, data) = (dir.path().join("ring.ron"), dir.path().join("data"));
    let out =
        hase(&["new", "--template", "ring", "--dims", "4", "--program", "collective_loop", "-o", p(&ring)]);
    assert!(out.status.success(), "{:?}", text(&out));
    let out = hase(&[
        "sweep",
        p(&ring),
        "--vary",
        "template.dims=4,8,16",
        "--vary",
        "workload.message_bytes=1K..64K *4",
        "--store",
        "--data-dir",
        p(&data),
        "--quiet",
    ]);
    assert!(out.status.success(), "{:?}", text(&out));
    let fit = |extra: &[&str]| {
        let mut args = vec!["experiments", "fit", "1", "--data-dir", p(&data)];
        args.extend_from_slice(extra);
        hase(&args)
    };
    let out = fit(&["--vars", "p=dims,n=message_bytes", "--predict", "p=32,n=65536", "--json"]);
    assert!(out.status.success(), "{:?}", text(&out));
    let json = json_of(&out);
    assert_eq!((json["samples"].as_array().unwrap().len(), json["skipped"].as_u64()), (12, Some(0)));
    let best = &json["formula"]["best"];
    // A ring contends more as it grows (an n·p term); the family fits it, not exactly.
    assert!(best["r_squared"].as_f64().unwrap() > 0.9, "{best}");
    let prediction = json["predictions"][0]["time"].as_f64().unwrap();
    let largest_measured =
        json["samples"].as_array().unwrap().iter().map(|s| s["time"].as_f64().unwrap()).fold(0.0, f64::max);
    assert!(prediction > largest_measured, "a larger ring takes longer: {prediction} vs {largest_measured}");

    let out = fit(&["--vars", "dims,message_bytes"]);
    let stdout = text(&out).0;
    assert!(out.status.success(), "{:?}", text(&out));
    assert!(
        stdout.contains("makespan_ps against p = template.dims, n = workload.message_bytes (12 runs fitted"),
        "{stdout}"
    );
    assert!(stdout.contains("makespan_ps ≈ ") && stdout.contains("R² "), "{stdout}");
    // Coefficients and residuals in the metric's unit, not raw picoseconds.
    let formula = stdout.lines().find(|l| l.contains("makespan_ps ≈ ")).unwrap();
    assert!(formula.contains(" us") || formula.contains(" ns") || formula.contains(" ms"), "{formula}");
    assert!(!formula.contains("e+") && !formula.contains("e7") && !formula.contains("e8"), "{formula}");
    let out = fit(&["--vars", "p,n"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out).1.contains("no variable `p`; its variables are: template.dims, workload.message_bytes"),
        "{}",
        text(&out).1
    );
}

/// A few cases of `scripts/crosscheck-simgrid` against real SMPI (SimGrid 3.32, `libsimgrid-dev`):
/// the imported platforms, set as SMPI times messages, agree within 2 % on cases that hase's
/// defaults miss by 12 to 32 % (the 8 KiB ring allreduce and the dissemination barrier, whose
/// messages wait for their receives in SMPI) and on the 64 KiB bcast, which is rendezvous only
/// below SMPI's eager limit. Fails (never skips) when SimGrid is missing.
#[test]
fn imported_platforms_agree_with_smpi_within_two_percent() {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("../scripts/crosscheck-simgrid");
    let mut command = Command::new("python3");
    command.arg(&script).args(["--quick", "--fail-above", "2"]);
    for case in [
        "ft16 allreduce ring 8192 B",
        "torus16 allreduce ring 8192 B",
        "ft16 barrier dissemination",
        "torus16 barrier dissemination",
        "ft16 bcast binomial_blocking 65536 B",
        // Round-robin router outputs and SimGrid's way halfway round a torus ring.
        "torus16 alltoall pairwise 65536 B",
        "torus16 allreduce recursive_doubling 8192 B",
    ] {
        command.args(["--filter", case]);
    }
    let out = command.env("HASE", env!("CARGO_BIN_EXE_hase")).output().expect("python3 runs");
    let (stdout, stderr) = text(&out);
    assert!(out.status.success(), "{stdout}\n{stderr}");
    assert_eq!(stdout.lines().filter(|l| l.ends_with('%')).count(), 7, "{stdout}\n{stderr}");
}

/// With the latency paid per route (`--latency flow`, SimGrid's flow model), the 8 KiB binomial
/// bcast agrees with SMPI within 2 % on a fat tree and a torus; with the latency on the links it is
/// 3.7–4.2 % off. Fails (never skips) when SimGrid is missing.
#[test]
fn flow_latency_brings_the_small_bcast_within_two_percent_of_smpi() {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("../scripts/crosscheck-simgrid");
    let mut command = Command::new("python3");
    command.arg(&script).args(["--quick", "--fail-above", "2", "--latency", "flow"]);
    for case in ["ft16 bcast binomial_blocking 8192 B", "torus16 bcast binomial_blocking 8192 B"] {
        command.args(["--filter", case]);
    }
    let out = command.env("HASE", env!("CARGO_BIN_EXE_hase")).output().expect("python3 runs");
    let (stdout, stderr) = text(&out);
    assert!(out.status.success(), "{stdout}\n{stderr}");
    assert_eq!(stdout.lines().filter(|l| l.ends_with('%')).count(), 2, "{stdout}\n{stderr}");
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

/// `hase run` on a network at its `datasheet` level: the expected makespan is the sheet's
/// t(p, d) per call plus the computation, read from a sheet file beside the project (not beside
/// the working directory), and equals the measured one.
#[test]
fn run_on_a_data_sheet_prints_the_sheets_expected_makespan() {
    let dir = tempfile::tempdir().unwrap();
    let project = dir.path().join("ring.ron");
    let new = "new --template ring --dims 8 --compound --program collective_loop --param operation=allreduce \
               --param message_bytes=1K --param iterations=3 --param compute_time=2us -o";
    let mut args: Vec<&str> = new.split_whitespace().collect();
    args.push(p(&project));
    let out = hase(&args);
    assert!(out.status.success(), "{:?}", text(&out));
    std::fs::create_dir(dir.path().join("sheets")).unwrap();
    let sheet = hase_entities::netmodel::datasheet::builtin("cray_t3d").unwrap();
    let sheet_text = hase_entities::netmodel::datasheet::to_ron(&sheet).unwrap();
    std::fs::write(dir.path().join("sheets/mine.ron"), sheet_text).unwrap();
    let stats = dir.path().join("run.json");
    let out = hase(&[
        "run",
        p(&project),
        "--set",
        "fabric.level=behavioural",
        "--set",
        "fabric.model=datasheet",
        "--set",
        "fabric.sheet=sheets/mine.ron",
        "--stats",
        p(&stats),
    ]);
    let (stdout, stderr) = text(&out);
    assert!(out.status.success(), "{stdout}{stderr}");
    let json: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&stats).unwrap()).unwrap();
    let makespan = json["makespan_ps"].as_u64().unwrap();
    let t = sheet
        .collective_time(
            hase_entities::mpi::kind::CollectiveKind::Allreduce,
            8,
            1024,
            hase_entities::netmodel::datasheet::Estimate::Avg,
        )
        .unwrap();
    assert_eq!(json["expected"]["call_ps"].as_u64(), Some(t.as_ps()), "{}", json["expected"]);
    assert_eq!(json["expected"]["makespan_ps"].as_u64(), Some(3 * (t.as_ps() + 2_000_000)));
    assert_eq!(json["expected"]["makespan_ps"].as_u64(), Some(makespan), "{}", json["expected"]);
    let line = stdout.lines().find(|l| l.trim_start().starts_with("expected")).expect("an expected line");
    assert!(
        line.contains(
            "(measured +0.0%; closed form: allreduce on 8 ranks on the sheets/mine.ron data sheet, band avg"
        ),
        "{line}"
    );
}
