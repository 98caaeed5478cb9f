//! The measure → fit → record → predict loop against the real Open MPI on this machine: the
//! benchmark's rows fit a sheet that then drives a simulation (and `--set` swaps it for another);
//! every sample program is recorded (communicators and per-rank counts included) and its traces
//! replayed at the data-sheet level and on a
//! modelled fat tree; every sample is reverse-profiled, and with computation taken out the
//! prediction of a deterministic program equals the simulator's replay of its recording on the
//! same sheet. These tests start MPI themselves and fail — never skip — if `mpicc` or `mpirun`
//! cannot run. MPI runs are serialised (one mpirun at a time on a 2-core machine).

use std::path::{Path, PathBuf};
use std::sync::{Mutex, OnceLock};

use hase_engine::analysis::{DiffOptions, diff_traces};
use hase_engine::kernel::RunOutcome;
use hase_engine::model::{AbstractionLevel, Placement, Project, Workload};
use hase_engine::time::SimTime;
use hase_engine::trace::Trace;
use hase_entities::netmodel::datasheet::{self, DataSheet, Estimate};
use hase_entities::workload::ti::{TiDialect, load_ti_trace};
use hase_library::datasheet::raw::RawData;
use hase_library::datasheet::{SheetOptions, make_sheet};
use hase_library::mpi::bench::{BenchOptions, BenchTiming, parse_sizes, run_bench};
use hase_library::mpi::predict::{PredictOptions, predict};
use hase_library::mpi::record::{Recording, record};
use hase_library::mpi::timings::run_plain;
use hase_library::mpi::{MpiRun, build_tool, sample};
use hase_library::overrides::apply_set;
use hase_library::runner::{RunOptions, RunResult, TraceTarget, run_project};
use hase_templates::{LinkParams, ProjectForm, TemplateSpec, Topology, template_project};

static MPI: Mutex<()> = Mutex::new(());

/// Where these tests keep their files and the built C (reused between runs).
fn work_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("hase-e2e-mpi")
}

fn cache() -> PathBuf {
    work_dir().join("cache")
}

/// Open MPI refuses to run as root without these, and needs the last to run more ranks than cores.
fn env() -> Vec<(String, String)> {
    [
        ("OMPI_ALLOW_RUN_AS_ROOT", "1"),
        ("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1"),
        ("OMPI_MCA_rmaps_base_oversubscribe", "1"),
    ]
    .map(|(k, v)| (k.to_string(), v.to_string()))
    .to_vec()
}

fn lock() -> std::sync::MutexGuard<'static, ()> {
    MPI.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

const RANKS: u32 = 4;

/// Each sample with small arguments, so that a run takes a second or so.
const SAMPLES: [(&str, &[&str]); 10] = [
    ("merge_sort", &["65536"]),
    ("halo2d", &["48", "20"]),
    ("pipeline", &["16", "1024"]),
    ("task_farm", &["24", "4000"]),
    ("pingpong", &["20", "4096"]),
    ("exchange", &["20", "4096"]),
    ("allreduce_loop", &["10", "4096"]),
    ("alltoall_loop", &["10", "4096"]),
    ("halo_comm", &["50", "1024", "4", "4"]),
    ("sample_sort", &["4000", "3"]),
];

struct Fitted {
    sheet_path: PathBuf,
    sheet: DataSheet,
}

/// Options timing `functions` at `procs` ranks and `sizes` bytes in a loop, 6 repeats after 1
/// warm-up: what the fitted sheets of these tests are measured with.
fn looped_bench(procs: Vec<u32>, sizes: Vec<u64>, functions: &[&str]) -> BenchOptions {
    BenchOptions {
        procs,
        sizes,
        functions: functions.iter().map(|f| (*f).to_string()).collect(),
        repeat: 6,
        warmup: 1,
        timing: BenchTiming::Loop,
        run: MpiRun { env: env(), ..MpiRun::default() },
    }
}

/// The sheet fitted from `raw`, named `here`.
fn fit_here(raw: &RawData) -> DataSheet {
    make_sheet(raw, &SheetOptions { name: "here".into(), split_bytes: None }).unwrap()
}

/// Benchmark (np 2, 3 and 4, sizes 0 … 16K), fit, and write the sheet once per test run.
fn fitted() -> &'static Fitted {
    static FITTED: OnceLock<Fitted> = OnceLock::new();
    FITTED.get_or_init(|| {
        let _mpi = lock();
        let options = looped_bench(
            vec![2, 3, RANKS],
            parse_sizes("0..16K*4").unwrap(),
            &[
                "send",
                "recv",
                "recvmin",
                "isend1",
                "isend2",
                "irecv1",
                "irecv2",
                "selfsend",
                "barrier",
                "bcast",
                "allreduce",
                "gather",
                "scatter",
                "allgather",
                "alltoall",
            ],
        );
        let mut last = None;
        let raw = run_bench(&options, &cache(), |p| last = Some(p))
            .unwrap_or_else(|e| panic!("hase mpi bench: {e}"));
        let progress = last.expect("progress was reported");
        assert_eq!(progress.rows, progress.total, "every expected row arrived");
        // 8 point-to-point × 9 sizes once, then barrier + bcast + allreduce + gather + scatter +
        // allgather + alltoall at 3 counts; 6 repeats.
        assert_eq!(raw.rows.len(), (8 * 9 + 3 * (1 + 6 * 9)) * 6);
        assert!(raw.note("mpi").is_some_and(|m| m.contains("Open MPI")), "{:?}", raw.notes);
        assert_eq!(raw.note("timing"), Some("loop"), "{:?}", raw.notes);
        let sheet = fit_here(&raw);
        let dir = work_dir().join("sheets");
        std::fs::create_dir_all(&dir).unwrap();
        let sheet_path = dir.join("here.ron");
        std::fs::write(&sheet_path, datasheet::to_ron(&sheet).unwrap()).unwrap();
        Fitted { sheet_path, sheet }
    })
}

/// `--timing single` times one call at a time: a row per call and repeat, the method noted.
#[test]
fn single_call_timing_is_noted_and_measures_each_call() {
    let _mpi = lock();
    let options = BenchOptions {
        procs: vec![2],
        sizes: vec![0, 64],
        functions: ["send", "recv", "pingpong", "bcast"].map(String::from).to_vec(),
        repeat: 3,
        warmup: 1,
        timing: BenchTiming::Single,
        run: MpiRun { env: env(), ..MpiRun::default() },
    };
    let raw = run_bench(&options, &cache(), |_| {}).unwrap_or_else(|e| panic!("hase mpi bench: {e}"));
    assert_eq!(raw.note("timing"), Some("single"), "{:?}", raw.notes);
    assert_eq!(raw.rows.len(), 4 * 2 * 3);
    for row in &raw.rows {
        assert!(row.time_us > 0.0 && row.time_us.is_finite(), "{row:?}");
    }
}

/// Every sample recorded once per test run, at [`RANKS`] ranks.
fn recordings() -> &'static Vec<(String, Recording, PathBuf)> {
    static RECORDED: OnceLock<Vec<(String, Recording, PathBuf)>> = OnceLock::new();
    RECORDED.get_or_init(|| {
        let _mpi = lock();
        SAMPLES
            .iter()
            .map(|(name, args)| {
                let program =
                    build_tool(&sample(name).unwrap(), &cache()).unwrap_or_else(|e| panic!("{name}: {e}"));
                assert!(program.warnings.is_empty(), "{name} compiles with warnings:\n{}", program.warnings);
                let dir = work_dir().join("recorded").join(name);
                std::fs::create_dir_all(&dir).unwrap();
                let command = launch(&program.path, args);
                let rec = record(&dir, &command, &env(), 1e9, &cache())
                    .unwrap_or_else(|e| panic!("record {name}: {e}"));
                ((*name).to_string(), rec, program.path)
            })
            .collect()
    })
}

fn launch(program: &Path, args: &[&str]) -> Vec<String> {
    let mut command =
        vec!["mpirun".to_string(), "-np".into(), RANKS.to_string(), program.display().to_string()];
    command.extend(args.iter().map(|a| (*a).to_string()));
    command
}

/// A 2-ary 2-tree fat tree of [`RANKS`] processors as one compound `fabric`, links without
/// latency, driven by `workload`.
fn fat_tree(workload: Workload) -> Project {
    let mut spec = TemplateSpec::new(Topology::FatTree { arity: 2, levels: 2 });
    let link = LinkParams { latency: SimTime::ZERO, bandwidth_bytes_per_s: 1_000_000_000 };
    spec.link = link;
    spec.endpoint_link = link;
    let registry = hase_library::catalogue::registry_for(&Project::new("mpi"));
    let form = ProjectForm::Compound { type_name: spec.topology.type_name() };
    let mut project = template_project(&spec, &registry, "mpi", &form).unwrap();
    project.workload = workload;
    project
}

/// The same project at the data-sheet level of `sheet` (a built-in name or a path), computation
/// made free (processors of 10³⁰ flop/s) when `free_compute`.
fn on_sheet(mut project: Project, sheet: &str, free_compute: bool) -> Project {
    project.network.instances.get_mut("fabric").unwrap().level = AbstractionLevel::Behavioural;
    apply_set(&mut project, "fabric.model=datasheet").unwrap();
    apply_set(&mut project, &format!("fabric.sheet={sheet}")).unwrap();
    if free_compute {
        apply_set(&mut project, "type:Processor.flops_per_s=1e30").unwrap();
    }
    project
}

fn run_in(project: &Project, base_dir: &Path) -> RunResult {
    let options = RunOptions { base_dir: base_dir.to_path_buf(), ..RunOptions::default() };
    run_project(project, &options, |_| {}).unwrap_or_else(|e| panic!("{}: {e}", project.name))
}

fn completed(result: &RunResult) -> SimTime {
    assert_eq!(result.outcome, RunOutcome::Completed, "{:?}", result.stats.deadlock);
    SimTime(result.stats.makespan_ps)
}

#[test]
fn a_benchmarked_sheet_drives_a_run_and_set_swaps_it() {
    let fitted = fitted();
    // Each function got a fit with coefficient errors and a χ², the message to oneself among them,
    // measured at p = 2 (the setting point-to-point functions are evaluated at) over every size.
    let selfsend = fitted.sheet.function("selfsend").expect("the benchmark measures a message to oneself");
    let measured: Vec<(u32, u64)> = selfsend.measured.iter().map(|m| (m.procs, m.bytes)).collect();
    let sizes: Vec<(u32, u64)> = parse_sizes("0..16K*4").unwrap().into_iter().map(|b| (2, b)).collect();
    assert_eq!(measured, sizes);
    for (name, fit) in &fitted.sheet.functions {
        let q = fit.small.fit.unwrap_or_else(|| panic!("{name} has no fit statistics"));
        assert!(q.points >= 3 && q.chi2.is_finite(), "{name}: {q:?}");
    }
    // Two ranks ping-pong 1 KiB through the sheet (relative path, as a project would give it):
    // each leg is a receive started with its send, so the round trip is 2 × recv(1 KiB).
    let ping = Workload::Streams {
        streams: [(0, "SEND 1 1024\nRECV 1"), (1, "RECV 0\nSEND 0 1024"), (2, ""), (3, "")]
            .into_iter()
            .map(|(r, s)| (r, hase_engine::model::StreamSource::Inline(s.into())))
            .collect(),
    };
    let project = on_sheet(fat_tree(ping), "sheets/here.ron", true);
    let here = completed(&run_in(&project, &work_dir()));
    let recv = fitted.sheet.time("recv", 2, 1024, Estimate::Avg).unwrap();
    let fitted_recvmin = fitted.sheet.time("recvmin", 2, 1024, Estimate::Avg).unwrap();
    let send = fitted.sheet.time("send", 2, 1024, Estimate::Avg).unwrap();
    // A late receive never costs more than one posted with its send: recvmin counts as at most
    // recv (a sheet fitted on a loaded machine can have recvmin > recv).
    let recvmin = fitted_recvmin.min(recv);
    // Rank 1's receive, started with the send, ends at max(recvmin, recv); its reply leaves then.
    // Rank 0 posted its receive after its own send: max(send + recvmin, reply start + recv).
    let leg = recv.max(recvmin);
    let expected = (send + recvmin).max(leg + recv).max(leg + send);
    assert_eq!(here, expected, "recv {recv}, recvmin {fitted_recvmin}, send {send}");
    // The same run with the sheet swapped by `--set` for the T3D's: 2 × 60.7 µs and more.
    let t3d = on_sheet(project.clone(), "cray_t3d", true);
    let t3d_time = completed(&run_in(&t3d, &work_dir()));
    assert!(t3d_time > SimTime::from_us(120) && t3d_time != here, "{t3d_time} vs {here}");
    // A sheet path that does not exist is an error naming the model and the file.
    let missing = on_sheet(project, "sheets/nothing.ron", true);
    let err = run_project(&missing, &RunOptions { base_dir: work_dir(), ..RunOptions::default() }, |_| {})
        .expect_err("a missing sheet file is refused")
        .to_string();
    assert!(err.contains("fabric: parameter `sheet`: no built-in data sheet `sheets/nothing.ron`"), "{err}");
}

#[test]
fn every_sample_records_and_replays_on_the_sheet_and_on_a_modelled_network() {
    let fitted = fitted();
    for (name, rec, _) in recordings() {
        assert_eq!(rec.ranks.len(), RANKS as usize, "{name}");
        let trace = load_ti_trace(&rec.index, TiDialect::Auto).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(trace.ranks.len(), RANKS as usize, "{name}");
        let measured = std::fs::read_to_string(rec.index.with_file_name("measured.csv")).unwrap();
        assert_eq!(measured.lines().count(), 1 + RANKS as usize, "{name}: {measured}");
        let workload = Workload::TimeIndependentTrace { path: rec.index.display().to_string() };
        // Computation replays at the recorded 1 Gflop/s (the processors' default speed), so no rank
        // can finish before its own measured compute time.
        let compute = rec.ranks.iter().map(|r| SimTime::from_f64_ps(r.compute_us * 1e6)).max().unwrap();
        let detailed = completed(&run_in(&fat_tree(workload.clone()), &work_dir()));
        let sheet_level = completed(&run_in(
            &on_sheet(fat_tree(workload), &fitted.sheet_path.display().to_string(), false),
            &work_dir(),
        ));
        for (level, makespan) in [("detailed", detailed), ("sheet", sheet_level)] {
            assert!(
                makespan + SimTime::from_us(1) >= compute,
                "{name} {level}: {makespan} < compute {compute}"
            );
        }
    }
}

#[test]
fn a_recording_keeps_communicators_and_per_rank_counts() {
    let (_, rec, _) = recordings().iter().find(|(name, ..)| name == "sample_sort").unwrap();
    let rank0 = std::fs::read_to_string(rec.index.with_file_name("rank0.ti")).unwrap();
    // Ranks 0 and 1 form the first half; its collectives run on it.
    for line in ["0 comm_split 1 0 1", "0 comm 1 allreduce 8 0 6", "0 comm 1 bcast 4 0 6", "0 comm 1 barrier"]
    {
        assert!(rank0.lines().any(|l| l == line), "`{line}` in\n{rank0}");
    }
    // 4000 keys per rank in shares of 1, 2, 3 and 4 tenths of 16000, as 4-byte keys.
    let scatterv = rank0.lines().find(|l| l.starts_with("0 scatterv ")).unwrap();
    assert_eq!(scatterv, "0 scatterv 6400 12800 19200 25600 6400 0 6 6");
    let rank3 = std::fs::read_to_string(rec.index.with_file_name("rank3.ti")).unwrap();
    let allgatherv = rank3.lines().find(|l| l.starts_with("3 allgatherv ")).unwrap();
    assert_eq!(allgatherv, "3 allgatherv 16 4 8 12 16 6 6");
    // An alltoallv's counts: what rank 3 sends in total is its share, 25600 bytes.
    let alltoallv: Vec<&str> =
        rank3.lines().find(|l| l.starts_with("3 alltoallv ")).unwrap().split(' ').collect();
    assert_eq!(alltoallv[2], "25600", "{alltoallv:?}");
    let sent: u64 = alltoallv[3..7].iter().map(|c| c.parse::<u64>().unwrap()).sum();
    assert_eq!(sent, 25600, "{alltoallv:?}");
    // Its chain neighbour on the right is MPI_PROC_NULL: it only receives from rank 2.
    assert!(rank3.lines().any(|l| l == "3 irecv 2 7 4 6") && !rank3.contains("3 isend 4 "), "{rank3}");
}

#[test]
fn reverse_profiling_of_every_sample_agrees_with_the_sheet_level_replay() {
    let fitted = fitted();
    let recorded = recordings();
    let _mpi = lock();
    for ((name, args), (_, rec, program)) in SAMPLES.iter().zip(recorded) {
        let trace_path = work_dir().join(format!("{name}.pred.trace"));
        let with_cpu =
            PredictOptions { sheet: &fitted.sheet, estimate: Estimate::Avg, cpu_scale: 1.0, env: env() };
        let p = predict(&launch(program, args), &with_cpu, Some(&trace_path), &cache())
            .unwrap_or_else(|e| panic!("predict {name}: {e}"));
        assert_eq!(p.ranks.len(), RANKS as usize, "{name}");
        assert!(p.missing().is_empty(), "{name}: the sheet lacks {:?}", p.missing());
        for r in &p.ranks {
            let compute: u64 =
                r.intervals.iter().filter(|(s, ..)| s == "COMPUTE").map(|(_, a, b)| b.0 - a.0).sum();
            assert!(
                r.predicted.0 >= compute && compute > 0,
                "{name} rank {}: {} < {compute} ps",
                r.rank,
                r.predicted
            );
            assert!(r.wall_us > 0.0, "{name}: measured wall time");
        }
        let trace = Trace::load(&trace_path).unwrap_or_else(|e| panic!("{name}: the predicted trace: {e}"));
        assert_eq!(trace.header.entities.len(), RANKS as usize);
        // Without computation a deterministic program's prediction depends on the sheet alone, and
        // must equal the simulator's replay of its recording at the sheet level. (The task farm's
        // schedule follows real arrival order, so its recording and prediction may differ.)
        if *name == "task_farm" {
            continue;
        }
        // The same holds with the measured band: the shim and the network level interpolate the
        // sheet's measurements alike.
        for (estimate, band) in [(Estimate::Avg, "avg"), (Estimate::Measured, "measured")] {
            let no_cpu = PredictOptions { cpu_scale: 0.0, estimate, env: env(), ..with_cpu };
            let predicted = predict(&launch(program, args), &no_cpu, None, &cache()).unwrap().predicted();
            let workload = Workload::TimeIndependentTrace { path: rec.index.display().to_string() };
            let sheet = fitted.sheet_path.display().to_string();
            let mut project = on_sheet(fat_tree(workload), &sheet, true);
            apply_set(&mut project, &format!("fabric.band={band}")).unwrap();
            let replayed = completed(&run_in(&project, &work_dir()));
            let diff = predicted.0.abs_diff(replayed.0);
            assert!(
                diff <= 1_000 + replayed.0 / 100_000,
                "{name}, band {band}: predicted {predicted}, replayed {replayed}"
            );
        }
    }
}

#[test]
fn messages_in_flight_both_ways_follow_one_another_in_the_reverse_profiler() {
    // halo_comm at np = 2, one iteration of K messages of 8000 B each way, on the Cray T3D sheet
    // without computation (µs): irecv1(0) = 30, isend1 = 120, recv(8000) = 560, recv(0) = 60,
    // sendrecv(8000) = 690. The sends start 120 apart, less than the transfer part 500, so message
    // k (from 0) starts its transfer at the first's start + 500·k; rank 1's message k to rank 0
    // overlaps it (the pair moves data both ways at once), so it is received sendrecv(d) = 690
    // later, not recv(d): the K-th at start + 500·(K − 1) + 690. The data-sheet network level's
    // closed form is the same (`netmodel::sheet_tests`).
    let t3d = datasheet::builtin("cray_t3d").unwrap();
    let program = build_tool(&sample("halo_comm").unwrap(), &cache()).unwrap().path;
    let _mpi = lock();
    let options = PredictOptions { sheet: &t3d, estimate: Estimate::Avg, cpu_scale: 0.0, env: env() };
    let us = |t: f64| SimTime::from_f64_ps(t * 1e6);
    for k in [1u32, 2, 4] {
        let command: Vec<String> = ["mpirun", "-np", "2", &program.display().to_string(), "1", "8000", "0"]
            .iter()
            .map(|a| (*a).to_string())
            .chain([k.to_string()])
            .collect();
        let p = predict(&command, &options, None, &cache()).unwrap_or_else(|e| panic!("K = {k}: {e}"));
        let mut messages = p.ranks[1].messages.clone();
        messages.sort_by_key(|(_, depart, ..)| *depart);
        assert_eq!(messages.len(), k as usize, "K = {k}: {messages:?}");
        let first = messages[0].1;
        for (i, (source, depart, arrive, bytes)) in messages.iter().enumerate() {
            let what = format!("K = {k}, message {i}: {messages:?}");
            assert_eq!((*source, *bytes), (0, 8000), "{what}");
            assert!(depart.0.abs_diff((first + us(500.0 * i as f64)).0) <= 1_000, "{what}");
            assert!(arrive.0.abs_diff((*depart + us(690.0)).0) <= 1_000, "{what}");
        }
        let last = messages[k as usize - 1].2;
        let closed_form = first + us(500.0 * f64::from(k - 1) + 690.0);
        assert!(
            last.0.abs_diff(closed_form.0) <= 1_000,
            "K = {k}: last at {last}, closed form {closed_form}"
        );
    }
}

/// Communication per iteration (µs) of `halo_comm` at np = 1 with one message of `bytes` to
/// itself each way (2000 iterations, no work): its own `hase-time` line.
fn halo_to_oneself_us(timings: &[hase_library::mpi::timings::ProgramTiming]) -> f64 {
    let t = timings.iter().find(|t| t.label == "halo").expect("a hase-time halo line");
    t.seconds / t.count as f64 * 1e6
}

/// `sheet` with its `selfsend` fit replaced by one measured now (at 4, 8 and 16 KiB: 16 KiB is the
/// size the test sends, and a fit of two parameters takes three sizes at least).
fn with_fresh_selfsend(sheet: &DataSheet) -> DataSheet {
    let options = looped_bench(vec![2], vec![4096, 8192, 16384], &["selfsend"]);
    let raw = run_bench(&options, &cache(), |_| {}).unwrap_or_else(|e| panic!("hase mpi bench: {e}"));
    let fresh = fit_here(&raw);
    let mut sheet = sheet.clone();
    sheet.functions.insert("selfsend".into(), fresh.functions["selfsend"].clone());
    sheet
}

#[test]
fn a_program_sending_to_itself_is_predicted_by_selfsend() {
    // halo_comm at np = 1: each iteration posts an Irecv from itself, an Isend to itself and waits,
    // the pattern the benchmark's `selfsend` times; 16 KiB, the largest size the sheet measured.
    let fitted = fitted();
    let program = build_tool(&sample("halo_comm").unwrap(), &cache()).unwrap().path;
    let command: Vec<String> =
        ["mpirun", "-np", "1", &program.display().to_string(), "2000", "16384", "0", "1"]
            .map(String::from)
            .into();
    let without_selfsend = {
        let mut sheet = fitted.sheet.clone();
        sheet.functions.remove("selfsend");
        sheet
    };
    let _mpi = lock();
    let options =
        |sheet, cpu_scale| PredictOptions { sheet, estimate: Estimate::Measured, cpu_scale, env: env() };
    // Without computation the shim's clock is the rule's closed form: an Irecv from oneself costs
    // nothing, the Isend copies for selfsend(d) and is complete then, and the receive ends when the
    // copy does: selfsend(16 KiB) per iteration, the sheet's measurement there.
    let copy_us = fitted.sheet.time_us("selfsend", 2, 16384, Estimate::Measured).unwrap();
    let bare = predict(&command, &options(&fitted.sheet, 0.0), None, &cache()).unwrap();
    let bare_us = halo_to_oneself_us(&bare.timings);
    assert!((bare_us - copy_us).abs() <= 1e-3, "predicted {bare_us} µs, selfsend {copy_us} µs");
    // The data-sheet level replays the program's recording (50 iterations) to the same time.
    let short: Vec<String> =
        command.iter().map(|a| if a == "2000" { "50".into() } else { a.clone() }).collect();
    let dir = work_dir().join("recorded").join("halo_to_oneself");
    std::fs::create_dir_all(&dir).unwrap();
    let rec = record(&dir, &short, &env(), 1e9, &cache()).unwrap();
    let predicted = predict(&short, &options(&fitted.sheet, 0.0), None, &cache()).unwrap().predicted();
    let workload = Workload::TimeIndependentTrace { path: rec.index.display().to_string() };
    let mut project = on_sheet(fat_tree(workload), &fitted.sheet_path.display().to_string(), true);
    apply_set(&mut project, "fabric.band=measured").unwrap();
    project.placement = Placement::First(1);
    let replayed = completed(&run_in(&project, &work_dir()));
    assert!(predicted.0.abs_diff(replayed.0) <= 1_000, "predicted {predicted}, replayed {replayed}");
    // Against the program run without a shim. The prediction adds the CPU time the shim measures
    // between the five calls of an iteration (two MPI_Wtime, Irecv, Isend, Waitall) less its
    // calibrated cost per call; what remains of that cost was 0.16-0.21 µs an iteration when
    // measured by hand, beside a copy of 0.21 µs and a measurement of 0.25-0.30 µs. So the
    // prediction may be up to 0.5 µs and half the measurement off. Other jobs on the machine slow
    // both the program's runs (wall time) and the CPU time a prediction measures, by up to half
    // on a shared machine, so each figure is the fastest of several runs: the one least disturbed.
    // The copy the rule predicts with is measured again beside each run of the program (the sheet
    // fitted at the start of the tests may have been timed while other tests loaded the machine),
    // and the sheet of the least disturbed measurement is the one predicted with.
    let mut runs_us = Vec::new();
    let mut here: Option<(f64, DataSheet)> = None;
    for _ in 0..5 {
        runs_us.push(halo_to_oneself_us(&run_plain(&command, &env()).unwrap().timings));
        let sheet = with_fresh_selfsend(&fitted.sheet);
        let copy_now_us = sheet.time_us("selfsend", 2, 16384, Estimate::Measured).unwrap();
        if here.as_ref().is_none_or(|(fastest, _)| copy_now_us < *fastest) {
            here = Some((copy_now_us, sheet));
        }
    }
    let (copy_here_us, sheet_here) = here.expect("five measurements of the copy");
    let measured_us = runs_us.iter().copied().fold(f64::INFINITY, f64::min);
    let spread_us = runs_us.iter().copied().fold(f64::NEG_INFINITY, f64::max) - measured_us;
    let fastest_prediction_us = |sheet| {
        (0..3)
            .map(|_| {
                halo_to_oneself_us(&predict(&command, &options(sheet, 1.0), None, &cache()).unwrap().timings)
            })
            .fold(f64::INFINITY, f64::min)
    };
    let predicted_us = fastest_prediction_us(&sheet_here);
    let error_us = (predicted_us - measured_us).abs();
    assert!(error_us <= 0.5 + 0.5 * measured_us, "predicted {predicted_us} µs, measured {measured_us} µs");
    // The same sheet without selfsend times the message as one to another rank. Where that costs
    // clearly more than a copy within the process (3.5 µs predicted against 0.29 µs measured, by
    // hand), the prediction without the rule is more than 4 times further off. On a machine whose
    // memory copies dominate both (seen: 6-9 µs an iteration either way), the two predictions come
    // within the runs' spread of each other, and the rule must then be no further off than the
    // spread allows.
    let old_predicted_us = fastest_prediction_us(&without_selfsend);
    let old_error_us = (old_predicted_us - measured_us).abs();
    let figures = format!(
        "with selfsend {predicted_us} µs ({error_us} off; the copy measured beside the runs: \
         {copy_here_us} µs, at the start of the tests: {copy_us} µs), without {old_predicted_us} µs \
         ({old_error_us} off); measured {runs_us:?} µs"
    );
    eprintln!("{figures}");
    if (old_predicted_us - predicted_us).abs() > 1.0 + spread_us {
        assert!(old_error_us > 4.0 * error_us, "{figures}");
    } else {
        assert!(error_us <= old_error_us + spread_us, "{figures}");
    }
}

#[test]
fn a_program_that_fails_fails_the_recording_with_its_message() {
    let _mpi = lock();
    let dir = work_dir().join("failing");
    std::fs::create_dir_all(&dir).unwrap();
    let command = ["mpirun", "-np", "2", "sh", "-c", "echo broken >&2; exit 3"].map(String::from).to_vec();
    let err = record(&dir, &command, &env(), 1e9, &cache()).expect_err("a failing program fails").to_string();
    assert!(err.contains("broken"), "{err}");
}

#[test]
fn the_real_run_its_prediction_and_its_replay_pair_every_message() {
    let fitted = fitted();
    let recorded = recordings();
    let (_, rec, program) = recorded.iter().find(|(name, ..)| name == "pingpong").unwrap();
    let args = SAMPLES.iter().find(|(name, _)| *name == "pingpong").unwrap().1;
    let _mpi = lock();
    let predicted_path = work_dir().join("pingpong.pred.htb");
    let options =
        PredictOptions { sheet: &fitted.sheet, estimate: Estimate::Avg, cpu_scale: 1.0, env: env() };
    predict(&launch(program, args), &options, Some(&predicted_path), &cache()).unwrap();
    let replayed_path = work_dir().join("pingpong.replay.htb");
    let workload = Workload::TimeIndependentTrace { path: rec.index.display().to_string() };
    let project = on_sheet(fat_tree(workload), &fitted.sheet_path.display().to_string(), false);
    let run = RunOptions {
        base_dir: work_dir(),
        trace: TraceTarget::File(replayed_path.clone()),
        level: Some(2),
        ..RunOptions::default()
    };
    let result = run_project(&project, &run, |_| {}).unwrap();
    completed(&result);
    // pingpong 20 4096: sizes 8 … 4096 B, each a warm-up and max(20 × 8 KiB / (size + 8 KiB), 4)
    // round trips of two messages.
    let expected: u64 = (3..=12).map(|k| 2 * ((20 * 8192 / ((1u64 << k) + 8192)).max(4) + 1)).sum();
    let traces = [
        ("real", Trace::load(&rec.real).unwrap()),
        ("predicted", Trace::load(&predicted_path).unwrap()),
        ("replayed", Trace::load(&replayed_path).unwrap()),
    ];
    for (i, j) in [(0, 1), (1, 2), (0, 2)] {
        let d = diff_traces(&traces[i].1, &traces[j].1, DiffOptions::default());
        let what = format!("{} vs {}", traces[i].0, traces[j].0);
        assert_eq!((d.events.matched, d.events.only_in_a, d.events.only_in_b), (expected, 0, 0), "{what}");
        // Every rank is a row of both, named by its rank.
        let is_rank = |row: &String| {
            row.strip_prefix('r').is_some_and(|n| !n.is_empty() && n.chars().all(|c| c.is_ascii_digit()))
        };
        assert!(!d.rows_only_in_a.iter().chain(&d.rows_only_in_b).any(is_rank), "{what}: {d:?}");
        // (The data-sheet level carries each message as one packet without payload, so only the
        // real run and the prediction are compared by size.)
        if (i, j) == (0, 1) {
            let sizes_agree =
                d.events.first_timing_divergence.as_ref().is_none_or(|m| m.bytes.0 == m.bytes.1);
            assert!(sizes_agree, "{what}: {:?}", d.events.first_timing_divergence);
        }
    }
    // On the real timeline every message arrives after it left (the clocks are aligned), and
    // rank 0's row ends about its measured MPI_Init … MPI_Finalize span after its start. The row
    // starts at most the skew of leaving MPI_Init's barrier after time 0, and it ends at
    // MPI_Finalize's entry while the span ends at its exit, so the two differ by at most the skew
    // either way (MPI_Finalize itself takes longer on a loaded machine).
    let real = &traces[0].1;
    let messages = hase_engine::analysis::RankMessages::of(real);
    assert!(messages.messages.iter().all(|m| m.end >= m.start));
    let span = SimTime::from_f64_ps(rec.ranks[0].wall_us * 1e6);
    let end = real
        .records
        .iter()
        .filter_map(|r| match r {
            hase_engine::trace::Record::State { time, entity: 0, .. } => Some(*time),
            _ => None,
        })
        .max()
        .unwrap();
    let skew = SimTime::from_us(2000).max(SimTime(span.0 / 20));
    assert!(end + skew >= span && end <= span + skew, "rank 0 ends at {end}, measured {span}");
}

#[test]
fn the_recorder_cost_is_calibrated_and_the_budget_adds_up() {
    let fitted = fitted();
    let recorded = recordings();
    for (name, rec, _) in recorded {
        for c in &rec.clocks {
            // Reading the thread CPU clock costs more than nothing and far less than 20 µs.
            assert!(c.per_call_ns > 0 && c.per_call_ns < 20_000, "{name}: {} ns per call", c.per_call_ns);
            // What was taken out is at most the calibrated cost of every call.
            assert!(
                c.subtracted_ns >= 0 && c.subtracted_ns as u64 <= c.calls * c.per_call_ns as u64,
                "{name}: {c:?}"
            );
            // The logger's wall time inside the calls holds its CPU clock readings (a reading at
            // entry and one at exit), so it is more than what the calibration took out.
            assert!(c.in_call_ns > c.subtracted_ns, "{name}: {c:?}");
        }
        let measured_parts = rec.budget.parts.iter().map(|p| p.name).collect::<Vec<_>>();
        assert_eq!(
            measured_parts,
            ["launch", "recorder overhead", "shim work in calls", "foreign load"],
            "{name}"
        );
        assert!(shim_part(&rec.budget) < 0.0, "{name}: {:?}", rec.budget);
    }
    // Per call over all recordings (some samples make a dozen calls, too few for a mean).
    let shim_us: f64 = recorded.iter().map(|(_, rec, _)| -shim_part(&rec.budget)).sum();
    let calls: u64 = recorded.iter().map(|(_, rec, _)| rec.clocks[rec.budget.rank as usize].calls).sum();
    assert_plausible_per_call("the recordings", shim_us, calls);
    // A program of nothing but calls: the pingpong's loop does no work between its sends and
    // receives, so a typical burst is the logger's own path. Net of the calibrated cost the median
    // burst is less than that cost (without the subtraction it would be more: the cost itself plus
    // the loop). (Sums are no measure here: interrupts and a loaded machine add outliers.)
    let (_, ping, _) = recorded.iter().find(|(name, ..)| name == "pingpong").unwrap();
    for c in ping.clocks.iter().take(2) {
        let log = ping.index.with_file_name("raw").join(format!("rank{}.log", c.rank));
        let text = std::fs::read_to_string(&log).unwrap();
        let mut bursts: Vec<i64> = text
            .lines()
            .skip(1)
            .filter(|l| !l.starts_with("end "))
            .map(|l| l.split_whitespace().nth(1).unwrap().parse().unwrap())
            .collect();
        bursts.sort_unstable();
        let median = bursts[bursts.len() / 2];
        assert!(
            median < c.per_call_ns,
            "rank {}: median burst {median} ns, calibrated {} ns",
            c.rank,
            c.per_call_ns
        );
    }
    // A prediction's budget sums to predicted − measured.
    let (_, _, program) = recorded.iter().find(|(name, ..)| name == "halo_comm").unwrap();
    let args = SAMPLES.iter().find(|(name, _)| *name == "halo_comm").unwrap().1;
    let _mpi = lock();
    let options =
        PredictOptions { sheet: &fitted.sheet, estimate: Estimate::Avg, cpu_scale: 1.0, env: env() };
    let p = predict(&launch(program, args), &options, None, &cache()).unwrap();
    let budget = p.budget();
    let difference = budget.difference_us.expect("a prediction has a difference");
    let sum: f64 = budget.parts.iter().map(|p| p.us).sum();
    assert!((sum - difference).abs() < 1e-6 * difference.abs().max(1.0), "{budget:?}");
    let names: Vec<&str> = budget.parts.iter().map(|p| p.name).collect();
    assert_eq!(
        names,
        [
            "launch",
            "recorder overhead",
            "shim work in calls",
            "foreign load",
            "data-sheet misfit",
            "remainder"
        ]
    );
    let slowest = p.ranks.iter().find(|r| r.rank == budget.rank).unwrap();
    let costs = slowest.calls.expect("the predictor writes its `measured` line");
    assert!(shim_part(&budget) < 0.0, "{budget:?}");
    assert_plausible_per_call("the prediction", -shim_part(&budget), costs.calls);
    // The misfit compares the sheet with the calls' wall time less all of the shim's work there.
    let sheet_us = slowest.predicted.0 as f64 / 1e6
        - slowest
            .intervals
            .iter()
            .filter(|(s, ..)| s == "COMPUTE")
            .map(|(_, a, b)| (b.0 - a.0) as f64 / 1e6)
            .sum::<f64>();
    let library_us = costs.mpi_wall_us - costs.subtracted_us - costs.shim_work_us();
    let misfit = budget.parts.iter().find(|p| p.name == "data-sheet misfit").unwrap().us;
    assert!((misfit - (sheet_us - library_us)).abs() < 1e-6 * sheet_us.max(1.0), "{budget:?}");
    // The program timed itself under the predictor: MPI_Wtime read the virtual clock, so its
    // communication time is the predicted one, never more than the predicted span.
    let timing = p.timings.iter().find(|t| t.label == "halo").expect("halo_comm prints its timing");
    assert!(timing.seconds > 0.0 && timing.seconds * 1e6 <= p.predicted().0 as f64 / 1e6, "{timing:?}");
}

/// The budget's shim work in calls, µs (negative: it makes the measured run longer).
fn shim_part(budget: &hase_library::mpi::budget::ErrorBudget) -> f64 {
    budget.parts.iter().find(|p| p.name == "shim work in calls").expect("a shim work part").us
}

/// The shims' work inside calls per call fits what they do there. Measured on this machine with
/// `hase mpi record` and `predict` of the samples (np = 2 at real-time priority, and np = 4 as
/// here, load average 5–6): 0.73–1.1 µs a call beyond the calibrated clock reading where a rank
/// makes hundreds of calls or more, up to 2.7 µs where it makes a few dozen (first calls cost
/// more). The least a call costs beyond that reading is a second CPU clock reading (a system
/// call, about 0.2 µs here) and a formatted line or state record: more than 0.05 µs on any
/// machine that runs these tests. The most: with 4 ranks on 2 cores the shim's code can lose its
/// core inside a call; 20 µs a call is about 10 ms lost in shim code over the prediction's 552
/// calls, far more than its share of the time a rank waits for a core.
fn assert_plausible_per_call(what: &str, shim_us: f64, calls: u64) {
    let per_call_us = shim_us / calls.max(1) as f64;
    assert!((0.05..=20.0).contains(&per_call_us), "{what}: {per_call_us} µs a call over {calls} calls");
}

/// `hase trace phases` on the real timeline of halo2d recorded under Open MPI at 2 and 4 ranks,
/// window chosen from the trace, finds the program's iterations (each posts its sends and
/// receives, relaxes the interior while the edges travel, then waits; the allreduce after every
/// tenth has no messages on the real timeline), within 5 %.
#[test]
fn phases_of_a_recorded_halo_are_its_iterations() {
    let program = {
        let _mpi = lock();
        build_tool(&sample("halo2d").unwrap(), &cache()).unwrap_or_else(|e| panic!("halo2d: {e}"))
    };
    let iterations = 50_u32;
    for (ranks, size) in [(2_u32, 128_u32), (4, 128), (4, 48)] {
        let _mpi = lock();
        let dir = work_dir().join("phases").join(format!("halo2d-{ranks}-{size}"));
        std::fs::create_dir_all(&dir).unwrap();
        let command = [
            "mpirun".to_string(),
            "-np".into(),
            ranks.to_string(),
            program.path.display().to_string(),
            size.to_string(),
            iterations.to_string(),
        ];
        let rec = record(&dir, &command, &env(), 1e9, &cache()).unwrap_or_else(|e| panic!("record: {e}"));
        let report = hase_engine::analysis::find_phases_choosing_window(&Trace::load(&rec.real).unwrap());
        let found = report.phases.len() as f64;
        let what = format!(
            "np {ranks}, n {size}: {found} phases\n{}",
            report.to_string().lines().take(2).collect::<Vec<_>>().join("\n")
        );
        assert!((found - f64::from(iterations)).abs() <= 0.05 * f64::from(iterations), "{what}");
        // Every phase is one exchange of every rank with its neighbours.
        let messages_per_iteration = if ranks == 2 { 2 } else { 8 };
        assert!(report.phases.iter().all(|p| p.kind == hase_engine::analysis::PhaseKind::Exchange), "{what}");
        let messages: u64 = report.phases.iter().map(|p| p.messages).sum();
        assert_eq!(messages, u64::from(messages_per_iteration * iterations), "{what}");
    }
}
