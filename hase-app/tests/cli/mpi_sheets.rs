//! Data sheets and MPI from the command line: fit, show and report a sheet, run on it and swap it
//! with `--set`; the MPI commands in the help; a SimGrid time-independent trace replayed without
//! editing the project; the expected makespan a sheet gives.

use super::*;

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
