//! `hase trace diff`, `trace phases`, statistics as CSV from a run and from a trace, and
//! `hase check-levels` on a ping-pong (passes) and a contended all-to-all (fails), `hase
//! check-ties` on a contended tree and an uncontended fat tree, and `hase run --tie-seed`.

use super::*;

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

#[test]
fn check_ties_sees_the_contended_tree_move_and_the_fat_tree_stay() {
    let tree = projects().join("binary_tree_allreduce.ron");
    let out = hase(&["check-ties", p(&tree), "--runs", "4", "--max-change", "1", "--json"]);
    assert_eq!(out.status.code(), Some(5), "{:?}", text(&out));
    let json = json_of(&out);
    let scheduled = json["scheduled"]["makespan_ps"].as_u64().unwrap();
    let shuffled: Vec<(u64, u64)> = json["shuffled"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| (r["tie_seed"].as_u64().unwrap(), r["makespan_ps"].as_u64().unwrap()))
        .collect();
    assert_eq!(shuffled.iter().map(|r| r.0).collect::<Vec<_>>(), [1, 2, 3, 4]);
    assert!(shuffled.iter().any(|r| r.1 > scheduled * 101 / 100), "{json}");

    // One shuffled order, run alone: the same makespan, on one thread whatever was asked.
    let dir = tempfile::tempdir().unwrap();
    let stats = dir.path().join("seed3.json");
    let out = hase(&["run", p(&tree), "--tie-seed", "3", "--threads", "2", "--stats", p(&stats)]);
    let (stdout, stderr) = text(&out);
    assert_eq!(out.status.code(), Some(0), "{stdout}{stderr}");
    assert!(stderr.contains("one partition: simultaneous events are shuffled"), "{stderr}");
    let stats: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&stats).unwrap()).unwrap();
    assert_eq!(stats["makespan_ps"].as_u64(), Some(shuffled[2].1));

    let out = hase(&[
        "check-ties",
        p(&projects().join("fat_tree_allreduce.ron")),
        "--runs",
        "3",
        "--max-change",
        "0",
    ]);
    let (stdout, stderr) = text(&out);
    assert_eq!(out.status.code(), Some(0), "{stdout}{stderr}");
    assert!(stdout.contains("every order gave the same makespan and outcome: 439.448 us"), "{stdout}");

    // Another workload, as `hase run` and `hase check-levels` take one.
    let args =
        ["check-ties", p(&tree), "--runs", "2", "--workload", "collective_loop", "--param", "iterations=1"];
    let out = hase(&args);
    let (stdout, stderr) = text(&out);
    assert_eq!(out.status.code(), Some(0), "{stdout}{stderr}");
    assert!(stdout.contains("shuffled, seed 2"), "{stdout}");
    let out = hase(&["check-ties", p(&tree), "--param", "iterations=1"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out).1.contains("--param needs --workload"), "{}", text(&out).1);

    let out = hase(&["check-ties", p(&tree), "--max-change=-1"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out).1.contains("--max-change must be a percentage of zero or more, not -1"),
        "{}",
        text(&out).1
    );
}
