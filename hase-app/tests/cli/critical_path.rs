//! `hase trace critical-path`: a ring allreduce's path as JSON (contiguous from zero to the
//! makespan, its blame adding up) and as text (the four tables), and the error for a trace written
//! without messages.

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
