//! Sweeps and experiments: the same CSV for any number of jobs, spec errors named, a killed or
//! Ctrl-C'd stored sweep resumed with only its missing runs, and a formula fitted to a sweep.

use super::*;

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
    // The 3D torus halo has no randomness: its repetitions agree unless its ties are shuffled.
    let torus = projects().join("torus3d_halo.ron");
    let makespans = |extra: &[&str]| -> std::collections::BTreeSet<String> {
        let mut args = vec!["sweep", p(&torus), "--repeat", "4", "--metric", "makespan_ps", "--quiet"];
        args.extend_from_slice(extra);
        let out = hase(&args);
        assert!(out.status.success(), "{:?}", text(&out));
        text(&out).0.lines().skip(1).map(|l| l.rsplit(',').next().unwrap().to_string()).collect()
    };
    assert_eq!(makespans(&[]).len(), 1);
    assert!(makespans(&["--shuffle-ties"]).len() > 1);
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
