//! An experiment plan: a spec checked against its (frozen) project, with its variables resolved,
//! its points combined and filtered, and its metrics checked. A plan runs any single run on its
//! own ([`ExperimentPlan::run_one`]: what each worker of a sweep does, and what a Slurm array task
//! will do for "point i of this frozen spec").

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use hase_engine::kernel::{Progress, RunOutcome};
use hase_engine::limits::{MAX_PRINTED_LINE_CHARS, MAX_SWEEP_RUNS, printable_error};
use hase_engine::model::{Project, StreamSource, Workload};
use hase_engine::trace::TraceLevel;

use super::error::{FreezeError, SpecError, SpecOrigin, SpecProblem};
use super::metrics::Metric;
use super::points::{Constraint, combine, filter};
use super::record::{RunKey, RunRecord, RunStatus};
use super::seeds::run_seed;
use super::spec::SweepSpec;
use super::variables::{Variable, VariableError, apply_point, resolve};
use crate::runner::{RunError, RunOptions, TraceTarget, elaborate_project, run_project};

/// A checked, ready-to-run experiment (see the module documentation).
#[derive(Debug)]
pub struct ExperimentPlan {
    spec: SweepSpec,
    project: Project,
    base_dir: PathBuf,
    variables: Vec<Variable>,
    points: Vec<Vec<usize>>,
    metrics: Vec<(String, Metric)>,
}

/// How [`ExperimentPlan::run_one`] runs.
#[derive(Clone, Debug, Default)]
pub struct RunOneOptions {
    /// Set from any thread to stop the run; a stopped run yields no record.
    pub cancel: Option<Arc<AtomicBool>>,
    /// Where trace files go when the spec asks for traces (required then).
    pub trace_dir: Option<PathBuf>,
    /// Report progress every this many events (0: the runner's default).
    pub progress_every: u64,
}

impl ExperimentPlan {
    /// Check `spec` against `project` (files it names are read from `base_dir`). `origin` is the
    /// text the spec came from, so that errors name the line (or argument) at fault.
    pub fn new(
        spec: SweepSpec,
        project: Project,
        base_dir: PathBuf,
        origin: &SpecOrigin,
    ) -> Result<Self, SpecError> {
        let mut variables = Vec::with_capacity(spec.variables.len());
        for (i, v) in spec.variables.iter().enumerate() {
            let variable = resolve(&v.target, &v.values, v.name.as_deref(), &project).map_err(|source| {
                SpecError::at(
                    origin.variable(i, &v.target),
                    SpecProblem::Variable { target: v.target.clone(), source },
                )
            })?;
            if variables.iter().any(|other: &Variable| other.name == variable.name) {
                return Err(SpecError::at(
                    origin.variable(i, &v.target),
                    SpecProblem::DuplicateName { name: variable.name },
                ));
            }
            variables.push(variable);
        }
        if spec.repetitions == 0 {
            return Err(SpecError::at(origin.field("repetitions"), SpecProblem::NoRepetitions));
        }
        if let Some(level) = spec.traces {
            TraceLevel::new(level)
                .map_err(|e| SpecError::at(origin.field("traces"), SpecProblem::TraceLevel(e)))?;
        }
        let points = combine(&variables, &spec.combination)
            .map_err(|e| SpecError::at(origin.field("combination"), e))?;
        let constraint = match &spec.constraint {
            Some(text) => {
                Some(Constraint::parse(text, &variables).map_err(|e| SpecError::at(origin.constraint(), e))?)
            }
            None => None,
        };
        let points = filter(&variables, points, constraint.as_ref())
            .map_err(|e| SpecError::at(origin.constraint(), e))?;
        if points.is_empty() {
            return Err(SpecError::at(origin.constraint(), SpecProblem::NoPoints));
        }
        let runs = (points.len() as u64).saturating_mul(u64::from(spec.repetitions));
        if runs > MAX_SWEEP_RUNS {
            return Err(SpecError::at(
                origin.field("repetitions"),
                SpecProblem::TooManyRuns {
                    points: points.len() as u64,
                    repetitions: spec.repetitions,
                    runs,
                    limit: MAX_SWEEP_RUNS,
                },
            ));
        }
        let mut metrics = Vec::new();
        for name in spec.metric_names() {
            let metric = Metric::parse(&name).map_err(|e| SpecError::at(origin.metric(&name), e))?;
            metrics.push((name, metric));
        }
        let plan = ExperimentPlan { spec, project, base_dir, variables, points, metrics };
        // Names of entities and links are checked on the first point's network, when it builds
        // (a point that cannot be built is recorded as failed when it runs).
        if let Some(model) = plan.project_for(0).ok().and_then(|p| elaborate_project(&p).ok()) {
            for (name, metric) in &plan.metrics {
                metric.check(&model).map_err(|e| SpecError::at(origin.metric(name), e))?;
            }
        }
        Ok(plan)
    }

    /// The spec.
    pub fn spec(&self) -> &SweepSpec {
        &self.spec
    }

    /// The frozen project every point is made from.
    pub fn project(&self) -> &Project {
        &self.project
    }

    /// The directory workload files are read from.
    pub fn base_dir(&self) -> &Path {
        &self.base_dir
    }

    /// The experiment's name: the spec's, else the project's.
    pub fn name(&self) -> &str {
        if self.spec.name.is_empty() { &self.project.name } else { &self.spec.name }
    }

    /// The resolved variables.
    pub fn variables(&self) -> &[Variable] {
        &self.variables
    }

    /// Variable (column) names, in order.
    pub fn variable_names(&self) -> Vec<String> {
        self.variables.iter().map(|v| v.name.clone()).collect()
    }

    /// Metric names, in order.
    pub fn metric_names(&self) -> Vec<String> {
        self.metrics.iter().map(|(n, _)| n.clone()).collect()
    }

    /// Number of points.
    pub fn point_count(&self) -> u64 {
        self.points.len() as u64
    }

    /// Number of runs (points × repetitions).
    pub fn run_count(&self) -> u64 {
        self.point_count() * u64::from(self.spec.repetitions)
    }

    /// Every run, in order.
    pub fn runs(&self) -> impl Iterator<Item = RunKey> + '_ {
        (0..self.point_count())
            .flat_map(|point| (0..self.spec.repetitions).map(move |repetition| RunKey { point, repetition }))
    }

    /// The canonical value texts of a point, in variable order.
    pub fn point_values(&self, point: u64) -> Vec<String> {
        let choice = &self.points[point as usize];
        self.variables.iter().zip(choice).map(|(v, i)| v.values[*i].text.clone()).collect()
    }

    /// The seed of a run (see [`super::seeds`]).
    pub fn seed_of(&self, key: RunKey) -> u64 {
        run_seed(self.spec.seed, key.point, key.repetition)
    }

    /// The project of a point.
    pub fn project_for(&self, point: u64) -> Result<Project, PointError> {
        let choice = self
            .points
            .get(point as usize)
            .ok_or_else(|| PointError::NoPoint { point, last: self.point_count().saturating_sub(1) })?;
        Ok(apply_point(&self.project, &self.variables, choice)?)
    }

    /// The trace file of a run inside `dir`.
    pub fn trace_path(dir: &Path, key: RunKey) -> PathBuf {
        dir.join(format!("point-{:06}-rep-{:03}.trace", key.point, key.repetition))
    }

    /// Run one run, isolated: errors and panics become the record's status; `None` when it was
    /// cancelled (a cancelled run is missing, not recorded, so a resume runs it again).
    pub fn run_one(
        &self,
        key: RunKey,
        options: &RunOneOptions,
        progress: &mut dyn FnMut(Progress),
    ) -> Option<RunRecord> {
        let seed = self.seed_of(key);
        let mut record = RunRecord {
            key,
            seed,
            values: if key.point < self.point_count() { self.point_values(key.point) } else { Vec::new() },
            status: RunStatus::Failed,
            detail: String::new(),
            metrics: vec![None; self.metrics.len()],
            trace: None,
        };
        let trace_file = match (self.spec.traces, &options.trace_dir) {
            (Some(_), Some(dir)) => Some(Self::trace_path(dir, key)),
            (Some(_), None) => {
                record.detail = "the spec asks for traces but no trace directory was given".into();
                return Some(record);
            }
            _ => None,
        };
        let attempt = catch_unwind(AssertUnwindSafe(|| {
            let project = self.project_for(key.point)?;
            if let Some(path) = &trace_file
                && let Some(dir) = path.parent()
            {
                std::fs::create_dir_all(dir)
                    .map_err(|source| RunAttemptError::TraceDir { dir: dir.display().to_string(), source })?;
            }
            let run_options = RunOptions {
                seed: Some(seed),
                level: self.spec.traces,
                until: self.spec.until,
                trace: trace_file.clone().map_or(TraceTarget::None, TraceTarget::File),
                fingerprint: false,
                base_dir: self.base_dir.clone(),
                cancel: options.cancel.clone(),
                progress_every: options.progress_every,
                live_values: None,
                // The points of an experiment already run side by side, one per core.
                threads: Some(1),
                tie_order: if self.spec.shuffle_ties {
                    hase_engine::kernel::TieOrder::Shuffled { seed }
                } else {
                    hase_engine::kernel::TieOrder::Scheduled
                },
            };
            Ok::<_, RunAttemptError>(run_project(&project, &run_options, &mut *progress)?)
        }));
        let cancelled = || options.cancel.as_ref().is_some_and(|c| c.load(Ordering::Relaxed));
        match attempt {
            Err(panic) => {
                record.status = RunStatus::Panicked;
                record.detail = panic_message(panic.as_ref());
            }
            Ok(Err(_)) if cancelled() => return None,
            // The record keeps the reason as text: it is saved in result files and the store.
            Ok(Err(error)) => record.detail = detail_of_error(&error),
            Ok(Ok(result)) => {
                record.status = match &result.outcome {
                    RunOutcome::Cancelled => {
                        if let Some(path) = &trace_file {
                            let _ = std::fs::remove_file(path);
                        }
                        return None;
                    }
                    RunOutcome::Completed => RunStatus::Completed,
                    RunOutcome::ReachedUntil => RunStatus::ReachedUntil,
                    RunOutcome::Deadlock(report) => {
                        record.detail = report.to_string();
                        RunStatus::Deadlock
                    }
                };
                record.metrics = self.metrics.iter().map(|(_, m)| m.value(&result.stats)).collect();
                match result.trace_error {
                    // The file at the trace's path, if any, is not this run's.
                    Some(e) => {
                        record.detail += "the trace could not be written: ";
                        record.detail += &e.to_string();
                    }
                    None => record.trace = trace_file.map(|p| p.display().to_string()),
                }
            }
        }
        Some(record)
    }
}

/// A failed run's reason as its record keeps it (result files, the store, exports): the place and
/// the reason, printable, each piece of quoted input (between backticks) shown as `…` — a reader's
/// error may quote what it read, and what a file that failed to parse holds is never kept. `hase
/// run` on the point prints the whole error.
fn detail_of_error(error: &RunAttemptError) -> String {
    let text = error.to_string();
    let mut detail = String::with_capacity(text.len().min(MAX_PRINTED_LINE_CHARS));
    // Even pieces lie outside backticks; an unclosed backtick quotes the rest.
    for (i, piece) in text.split('`').enumerate() {
        detail.push_str(if i % 2 == 0 { piece } else { "`…`" });
    }
    let printable = printable_error(&detail);
    let lines = printable.lines().count();
    if lines <= MAX_DETAIL_LINES {
        return printable;
    }
    let kept: Vec<&str> = printable.lines().take(MAX_DETAIL_LINES).collect();
    format!("{}\n… ({} more lines)", kept.join("\n"), lines - MAX_DETAIL_LINES)
}

/// Lines of a failed run's reason its record keeps.
const MAX_DETAIL_LINES: usize = 20;

/// The text of a panic payload.
fn panic_message(payload: &(dyn std::any::Any + Send)) -> String {
    payload
        .downcast_ref::<&str>()
        .map(|s| (*s).to_string())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .map_or_else(|| "the run panicked".to_string(), |m| format!("the run panicked: {m}"))
}

/// Why a point's project cannot be made.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum PointError {
    /// No point of this number.
    #[error("the experiment has points 0 to {last}, not {point}")]
    NoPoint {
        /// The point asked for.
        point: u64,
        /// The last point.
        last: u64,
    },
    /// Its values cannot be applied.
    #[error(transparent)]
    Variable(#[from] VariableError),
}

/// Why a run could not be made (what its record's detail says).
#[derive(Debug, thiserror::Error)]
enum RunAttemptError {
    /// The point's project cannot be made.
    #[error(transparent)]
    Point(#[from] PointError),
    /// The trace directory cannot be made.
    #[error("{dir}: {source}")]
    TraceDir {
        /// The directory.
        dir: String,
        /// The operating system's error.
        source: std::io::Error,
    },
    /// The run could not start.
    #[error(transparent)]
    Run(#[from] RunError),
}

/// A copy of `project` that runs without its files: instruction streams read from files (relative
/// to `base_dir`) are kept inline. Time-independent traces stay files, read from `base_dir`.
pub fn freeze_project(project: &Project, base_dir: &Path) -> Result<Project, FreezeError> {
    let mut frozen = project.clone();
    if let Workload::Streams { streams } = &mut frozen.workload {
        for source in streams.values_mut() {
            if let StreamSource::File(path) = source {
                let file = base_dir.join(&*path);
                let text =
                    hase_engine::limits::read_capped(&file, hase_engine::limits::MAX_WORKLOAD_FILE_BYTES)
                        .map_err(hase_engine::limits::CappedReadError::into_io)
                        .map_err(|source| FreezeError { path: file.display().to_string(), source })?;
                *source = StreamSource::Inline(text);
            }
        }
    }
    Ok(frozen)
}
