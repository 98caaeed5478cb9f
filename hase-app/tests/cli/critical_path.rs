//! `hase trace critical-path`: a ring allreduce's path as JSON (contiguous from zero to the
//! makespan, its blame adding up) and as text (the four tables), the error for a trace written
//! without messages, and the what-if lines of `--project` that `hase run --set` reproduces.

use super::*;

#[test]
fn critical_path_of_a_ring_allreduce_as_json_and_text() {
    let dir = tempfile::tempdir().unwrap();
    let project = dir.path().join("ring.ron");
    let out = hase(&[
        "new",
        "--template",
        "ring",
        "--dims",
        "4",
        "--program",
        "collective_loop",
        "--param",
        "operation=allreduce",
        "--param",
        "algorithm=ring",
        "--param",
        "iterations=2",
        "--param",
        "compute_time=3us",
        "-o",
        p(&project),
    ]);
    assert!(out.status.success(), "{:?}", text(&out));
    let trace = dir.path().join("ring.trace");
    run_to_trace(&project, &trace, &[]);

    let out = hase(&["trace", "critical-path", p(&trace), "--json"]);
    assert!(out.status.success(), "{:?}", text(&out));
    let json = json_of(&out);
    let makespan = json["makespan"].as_u64().unwrap();
    assert!(makespan > 6_000_000, "two 3 us computations are on the path: {json}");
    assert_eq!(json["length"].as_u64(), Some(makespan));
    let mut at = 0;
    for s in json["segments"].as_array().unwrap() {
        assert_eq!(s["start"].as_u64(), Some(at), "{s}");
        at = s["end"].as_u64().unwrap();
    }
    assert_eq!(at, makespan);
    let sum = |table: &str| -> u64 {
        json[table].as_array().unwrap().iter().map(|r| r["time"].as_u64().unwrap()).sum()
    };
    assert_eq!(sum("ranks") + sum("links") + sum("routers"), makespan, "{json}");
    assert_eq!(sum("phases"), makespan, "{json}");
    let totals = &json["totals"];
    assert_eq!(totals["computing"].as_u64(), Some(6_000_000), "{json}");
    let longest = &json["longest"];
    assert_eq!(longest["step"]["kind"], "local", "{json}");
    assert_eq!(longest["end"].as_u64().unwrap() - longest["start"].as_u64().unwrap(), 3_000_000, "{json}");

    let out = hase(&["trace", "critical-path", p(&trace)]);
    let (stdout, stderr) = text(&out);
    assert!(out.status.success(), "{stderr}");
    for heading in [
        "critical path ",
        "time blamed per rank",
        "time blamed per link",
        "time blamed per router",
        "time blamed per phase",
        "longest segments",
    ] {
        assert!(stdout.contains(heading), "{heading}: {stdout}");
    }
    assert!(stdout.contains(" -> "), "links are named by their ports: {stdout}");

    let states_only = dir.path().join("states.trace");
    run_to_trace(&project, &states_only, &["--level", "4"]);
    let out = hase(&["trace", "critical-path", p(&states_only)]);
    let stderr = text(&out).1;
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(stderr.contains("trace level 2 or 1 (this trace is level 4"), "{stderr}");
}

fn makespan_ps(stats: &Path) -> u64 {
    let json: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(stats).unwrap()).unwrap();
    json["makespan_ps"].as_u64().unwrap()
}

#[test]
fn what_if_lines_of_the_most_blamed_link_rerun_the_design_faster() {
    let dir = tempfile::tempdir().unwrap();
    // All traffic of the last rounds crosses the two root links: they head the path's blame.
    let project = projects().join("binary_tree_allreduce.ron");
    let (trace, stats) = (dir.path().join("run.trace"), dir.path().join("run.json"));
    run_to_trace(&project, &trace, &["--stats", p(&stats)]);
    let before = makespan_ps(&stats);

    let out = hase(&["trace", "critical-path", p(&trace), "--json", "--project", p(&project)]);
    assert!(out.status.success(), "{:?}", text(&out));
    let json = json_of(&out);
    assert_eq!(json["makespan"].as_u64(), Some(before), "the report is kept whole beside the what-ifs");
    let link = json["what_if"].as_array().unwrap().iter().find(|w| w["kind"] == "link").cloned().unwrap();
    assert_eq!(link["name"], json["links"][0]["name"], "{json}");
    let sets: Vec<String> =
        link["sets"].as_array().unwrap().iter().map(|s| s.as_str().unwrap().to_string()).collect();
    assert!(sets.iter().any(|s| s.contains(".bandwidth=")) && sets.iter().any(|s| s.contains(".latency=")));

    // The lines, given to `hase run`, make the run faster.
    let faster = dir.path().join("faster.json");
    let mut args = vec!["run", p(&project), "--quiet", "--stats", p(&faster)];
    for s in &sets {
        args.extend(["--set", s.as_str()]);
    }
    let out = hase(&args);
    assert!(out.status.success(), "{:?}", text(&out));
    let after = makespan_ps(&faster);
    assert!(after < before, "the most blamed link twice as fast: {after} ps against {before} ps");

    let out = hase(&["trace", "critical-path", p(&trace), "--project", p(&project), "--faster", "4"]);
    let stdout = text(&out).0;
    assert!(out.status.success(), "{:?}", text(&out));
    assert!(stdout.contains("what if (4× faster"), "{stdout}");
    let line = stdout.lines().find(|l| l.trim_start().starts_with("link ")).unwrap();
    assert!(line.contains(&format!("hase run {} --set link:", project.display())), "{line}");
    let out = hase(&["trace", "critical-path", p(&trace), "--faster", "4"]);
    assert!(!out.status.success(), "--faster needs --project");
}
