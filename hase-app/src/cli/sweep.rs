//! `hase sweep`: run a parameter sweep from a project and `--vary` options, or from a spec file,
//! on N worker threads, optionally stored in the experiment store (each run committed as it
//! finishes), and write the results as CSV (to `--csv`, else to stdout). `--resume ID` runs the
//! missing runs of a stored experiment. Ctrl-C cancels (exit 4); the runs in flight are dropped and
//! a stored experiment can be resumed. On a Slurm cluster the same sweep runs as a job array
//! (`--slurm DIR`, `--collect DIR`, …: see [`super::sweep_slurm`]).

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use anyhow::Context;
use hase_engine::model::write_atomic;
use hase_library::experiment::{
    Combination, ExperimentPlan, ProjectSource, RunRecord, SpecOrigin, SweepOptions, SweepReport, SweepSpec,
    VariableSpec, csv_text, load_spec, plan_spec, plan_stored, run_stored, run_sweep, spec_to_ron,
};
use hase_library::store::{Database, ExperimentStore, ProjectStore, StoreOptions};

use super::sweep_args::SweepArgs;
use super::sweep_progress::CliProgress;

/// Exit code of a spec error, as `hase run` gives for a bad project.
const SPEC_ERROR: u8 = 1;
/// Exit code of a cancelled sweep.
const CANCELLED: u8 = 4;

pub(super) fn sweep(args: &SweepArgs) -> anyhow::Result<ExitCode> {
    let cancel = Arc::new(AtomicBool::new(false));
    let flag = cancel.clone();
    // A second handler cannot be installed in the same process (tests call this once per process).
    let _ = ctrlc::set_handler(move || flag.store(true, Ordering::SeqCst));
    let options = SweepOptions {
        jobs: args.jobs.map_or_else(|| SweepOptions::default().jobs, |j| j as usize),
        cancel,
        progress_every: 100_000,
        ..SweepOptions::default()
    };
    if args.slurm.job_command() {
        return super::sweep_slurm::job_command(args, &options);
    }
    if let Some(id) = args.resume {
        let store = open_store(args.data_dir.as_deref())?;
        let plan = plan_stored(&store, id)?;
        let stored = store.stored_keys(id)?.len() as u64;
        eprintln!(
            "experiment {id}: {} of {} runs stored, running {}",
            stored,
            plan.run_count(),
            plan.run_count() - stored
        );
        return run_with_store(args, &store, id, &plan, &options);
    }
    let (spec, origin, spec_dir) = match build_spec(args) {
        Ok(built) => built,
        Err(message) => {
            eprintln!("error: {}", hase_engine::limits::printable_error(&message.to_string()));
            return Ok(ExitCode::from(SPEC_ERROR));
        }
    };
    let needs_store = args.store || matches!(spec.project, ProjectSource::Stored { .. });
    let store = needs_store.then(|| open_store(args.data_dir.as_deref())).transpose()?;
    let projects = match &store {
        Some(s) => Some(ProjectStore::with_database(s.database().clone(), StoreOptions::default())?),
        None => None,
    };
    let (plan, source) = match plan_spec(spec, &origin, &spec_dir, projects.as_ref()) {
        Ok(planned) => planned,
        Err(e) => {
            eprintln!("error: {}", hase_engine::limits::printable_error(&e.to_string()));
            return Ok(ExitCode::from(SPEC_ERROR));
        }
    };
    if let Some(path) = &args.save_spec {
        write_atomic(path, spec_to_ron(plan.spec()).as_bytes())
            .with_context(|| format!("cannot write {}", path.display()))?;
    }
    if args.slurm.slurm.is_some() {
        return super::sweep_slurm::write_and_submit(args, &plan);
    }
    if let (Some(store), true) = (&store, args.store) {
        let id = store.create(&plan, &source)?;
        eprintln!(
            "experiment {id}: {} — {} points × {} repetitions = {} runs",
            plan.name(),
            plan.point_count(),
            plan.spec().repetitions,
            plan.run_count()
        );
        return run_with_store(args, store, id, &plan, &options);
    }
    let trace_dir = plan.spec().traces.map(|_| trace_dir_of(args)).transpose()?;
    let options = SweepOptions { trace_dir, ..options };
    let progress = CliProgress::new(plan.run_count(), plan.run_count(), args.quiet);
    let report = run_sweep(&plan, &options, &progress)?;
    progress.finish();
    finish(args, &plan, &report, &report.records, None)
}

fn open_store(data_dir: Option<&Path>) -> anyhow::Result<ExperimentStore> {
    Ok(ExperimentStore::with_database(Database::open_default(data_dir)?)?)
}

fn run_with_store(
    args: &SweepArgs,
    store: &ExperimentStore,
    id: u64,
    plan: &ExperimentPlan,
    options: &SweepOptions,
) -> anyhow::Result<ExitCode> {
    let to_do = plan.run_count() - store.stored_keys(id)?.len() as u64;
    let progress = CliProgress::new(to_do, plan.run_count(), args.quiet);
    let report = run_stored(store, id, plan, options, &progress)?;
    progress.finish();
    let all = store.runs(id)?;
    finish(args, plan, &report, &all, Some(id))
}

/// The trace directory of a sweep that is not stored.
fn trace_dir_of(args: &SweepArgs) -> anyhow::Result<PathBuf> {
    if let Some(dir) = &args.trace_dir {
        return Ok(dir.clone());
    }
    match &args.csv {
        Some(csv) => Ok(PathBuf::from(format!("{}.traces", csv.display()))),
        None => anyhow::bail!("traces need a place: give --trace-dir, --csv or --store"),
    }
}

/// The spec from `--spec` (with command-line overrides) or from the project and `--vary`s; an
/// error's own message (no chain of causes) is what `hase sweep` prints.
fn build_spec(args: &SweepArgs) -> anyhow::Result<(SweepSpec, SpecOrigin, PathBuf)> {
    let (mut spec, origin, dir) = if let Some(path) = &args.spec {
        let text = hase_engine::limits::read_text_input(path)
            .map_err(|e| anyhow::anyhow!("{}: {e}", path.display()))?;
        let spec = load_spec(path)?;
        let dir = path.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new(".")).to_path_buf();
        (spec, SpecOrigin::File { path: path.display().to_string(), text }, dir)
    } else {
        let project = args.project.as_ref().context("give a project file, --spec or --resume")?;
        let mut spec = SweepSpec::new(ProjectSource::File(project.display().to_string()));
        for vary in &args.vary {
            let (target, values) = vary.split_once('=').with_context(|| {
                format!("--vary {}: expected TARGET=VALUES", hase_engine::limits::quote(vary))
            })?;
            spec.variables.push(VariableSpec {
                target: target.trim().into(),
                values: values.into(),
                name: None,
            });
        }
        if args.zip {
            spec.combination = Combination::Zip;
        }
        spec.constraint.clone_from(&args.constraint);
        (spec, SpecOrigin::Arguments { vary: args.vary.clone() }, PathBuf::from("."))
    };
    if let Some(n) = args.repeat {
        spec.repetitions = n;
    }
    if let Some(seed) = args.seed {
        spec.seed = seed;
    }
    if args.shuffle_ties {
        spec.shuffle_ties = true;
    }
    if !args.metrics.is_empty() {
        spec.metrics.clone_from(&args.metrics);
    }
    if let Some(name) = &args.name {
        spec.name.clone_from(name);
    }
    if args.traces.is_some() {
        spec.traces = args.traces;
    }
    Ok((spec, origin, dir))
}

/// Write the CSV, report failed runs and the summary, choose the exit code.
fn finish(
    args: &SweepArgs,
    plan: &ExperimentPlan,
    report: &SweepReport,
    all: &[RunRecord],
    id: Option<u64>,
) -> anyhow::Result<ExitCode> {
    let text = csv_text(&plan.variable_names(), &plan.metric_names(), all);
    match &args.csv {
        Some(path) => {
            write_atomic(path, text.as_bytes())
                .with_context(|| format!("cannot write {}", path.display()))?;
        }
        None => std::io::stdout().lock().write_all(text.as_bytes())?,
    }
    let mut counts: std::collections::BTreeMap<&str, u64> = std::collections::BTreeMap::new();
    for record in all {
        *counts.entry(record.status.word()).or_default() += 1;
    }
    let mut err = std::io::stderr().lock();
    for record in all.iter().filter(|r| !r.status.is_success()) {
        let first = record.detail.lines().next().unwrap_or_default();
        writeln!(err, "{} ({}): {}: {first}", record.key, record.values.join(", "), record.status.word())?;
    }
    let summary: Vec<String> = counts.iter().map(|(word, n)| format!("{n} {word}")).collect();
    writeln!(err, "{} of {} runs: {}", all.len(), plan.run_count(), summary.join(", "))?;
    if let Some(e) = &report.observer_error {
        anyhow::bail!("the sweep stopped: {e}");
    }
    if report.stopped {
        match id {
            Some(id) => writeln!(err, "cancelled; resume with: hase sweep --resume {id}")?,
            None => writeln!(err, "cancelled")?,
        }
        return Ok(ExitCode::from(CANCELLED));
    }
    if let Some(id) = id {
        writeln!(err, "stored as experiment {id}")?;
    }
    Ok(ExitCode::SUCCESS)
}
