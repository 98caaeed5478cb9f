//! Running a project: validate and elaborate it, build the behaviours, run the kernel with the
//! requested trace output, and return the outcome, statistics, fingerprint and (optionally) the trace.
//! The CLI, the GUI's worker thread, the tests and parameter sweeps all run projects through here.

use std::borrow::Cow;
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;
use std::sync::{Arc, Mutex};

use hase_engine::elaborate::{ElabError, FlatModel, elaborate};
use hase_engine::kernel::{
    BuildError, Partitioning, Progress, RunControl, RunOutcome, SimConfig, Simulation, TieOrder,
};
use hase_engine::model::{ParamDisplay, Project, ProjectFileError};
use hase_engine::stats::RunStats;
use hase_engine::time::SimTime;
use hase_engine::trace::{
    FingerprintSink, MemorySink, TeeSink, Trace, TraceError, TraceLevel, TraceSink, create_trace,
};
use hase_entities::catalogue;
use hase_entities::factory::{BuildInputs, FactoryError, build_behaviours};

use crate::catalogue::registry_for;

/// Records between time-index checkpoints in trace files (the `.idx` sidecar).
const INDEX_EVERY: u64 = 4096;

/// Where the trace goes.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum TraceTarget {
    /// No trace records at all (fastest).
    #[default]
    None,
    /// Keep the records in memory and return them.
    Memory,
    /// Stream to a file; the form follows the extension (`.htb` compact, `.gz` compressed text, else text).
    File(PathBuf),
}

/// How to run.
#[derive(Clone, Debug, Default)]
pub struct RunOptions {
    /// Seed (default: the project's).
    pub seed: Option<u64>,
    /// Trace level 1–5 (default: the project's).
    pub level: Option<u8>,
    /// Stop time (default: the project's, if any).
    pub until: Option<SimTime>,
    /// Trace output.
    pub trace: TraceTarget,
    /// Also compute the trace fingerprint.
    pub fingerprint: bool,
    /// Directory relative workload paths are resolved against (the project file's directory).
    pub base_dir: PathBuf,
    /// Set from any thread to stop the run.
    pub cancel: Option<Arc<AtomicBool>>,
    /// Report progress every this many events (0: default).
    pub progress_every: u64,
    /// Trace live values (level-3 records) when the level includes them: `Some` forces the
    /// choice; `None` traces them only when the project displays one (see
    /// [`displays_live_values`]), so ordinary runs do not pay for values nobody looks at.
    pub live_values: Option<bool>,
    /// Threads to run the simulation on (`None`: [`default_threads`] for the model). The trace,
    /// statistics and makespan are the same for any number; a model that cannot be cut runs on one
    /// (see [`RunResult::partitioning`]).
    pub threads: Option<usize>,
    /// The order of simultaneous events: as scheduled (the default), or shuffled from a seed to
    /// see how much a result depends on that order (such a run takes one thread).
    pub tie_order: TieOrder,
}

/// Models with at least this many entities run on every core by default; smaller ones on one,
/// where the windows' barriers cost more than the other cores give.
pub const PARALLEL_FROM_ENTITIES: usize = 16_384;

/// The threads a run of a model with `entities` entities uses unless told otherwise: one below
/// [`PARALLEL_FROM_ENTITIES`], every core from there.
pub fn default_threads(entities: usize) -> usize {
    if entities < PARALLEL_FROM_ENTITIES {
        1
    } else {
        std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get)
    }
}

/// True when some instance shows a live value of the built-in entities (router queues, processor
/// counters, data-sheet lookups) on the canvas, at the top level or inside a compound type.
pub fn displays_live_values(project: &Project) -> bool {
    let live_names: Vec<&str> = [catalogue::PROCESSOR, catalogue::ROUTER, catalogue::NETWORK_MODEL]
        .iter()
        .flat_map(|b| catalogue::live_values(b).iter().map(|v| v.name))
        .collect();
    std::iter::once(&project.layout.top)
        .chain(project.layout.types.values())
        .flat_map(|layout| layout.displayed.values())
        .flat_map(|choices| choices.iter())
        .any(|(name, shown)| *shown != ParamDisplay::Hidden && live_names.contains(&name.as_str()))
}

/// What a run produced.
#[derive(Debug)]
pub struct RunResult {
    /// How it ended.
    pub outcome: RunOutcome,
    /// Statistics.
    pub stats: RunStats,
    /// Trace fingerprint, if asked for.
    pub fingerprint: Option<String>,
    /// The trace, if kept in memory.
    pub trace: Option<Trace>,
    /// The first trace write failure, if any.
    pub trace_error: Option<std::io::Error>,
    /// The flat model that was simulated.
    pub model: Arc<FlatModel>,
    /// Processors (entity numbers, as in the trace) that run none of the workload's ranks because
    /// the placement leaves them out; empty when every processor takes part.
    pub unused_processors: Vec<u32>,
    /// How the run was spread over threads, or why it used one.
    pub partitioning: Partitioning,
}

/// Why a run could not start.
#[derive(Debug, thiserror::Error)]
pub enum RunError {
    /// The project does not validate or elaborate.
    #[error(transparent)]
    Elaborate(#[from] ElabError),
    /// Behaviours could not be built (ranks, routing, workload).
    #[error(transparent)]
    Build(#[from] FactoryError),
    /// The kernel could not start.
    #[error(transparent)]
    Kernel(#[from] BuildError),
    /// The trace file could not be created.
    #[error(transparent)]
    Trace(#[from] TraceError),
    /// The trace level asked for is not 1–5.
    #[error(transparent)]
    TraceLevel(#[from] hase_engine::trace::record::TraceLevelError),
    /// The network is stored as a generator recipe that does not expand.
    #[error(transparent)]
    Generator(#[from] ProjectFileError),
}

/// `project` with its network expanded if it is stored as its generator recipe (see
/// [`crate::generated`]); borrowed as it is otherwise.
fn expanded(project: &Project) -> Result<Cow<'_, Project>, RunError> {
    if project.network_from_recipe {
        Ok(Cow::Owned(crate::generated::expand(project.clone(), &project.name)?))
    } else {
        Ok(Cow::Borrowed(project))
    }
}

/// Elaborate `project` into its flat model (validating it).
pub fn elaborate_project(project: &Project) -> Result<FlatModel, RunError> {
    let project = expanded(project)?;
    Ok(elaborate(&project, &registry_for(&project))?)
}

/// What [`check_project`] found: the flat model and how many MPI ranks the workload runs.
pub struct Checked {
    /// The elaborated model.
    pub model: FlatModel,
    /// MPI ranks of the workload (the placement's size).
    pub ranks: u32,
}

/// Check `project` as a run would, without simulating: elaborate it, number and place the ranks,
/// build the routes and read the workload (built-in program parameters, stream files, a
/// time-independent trace); relative paths are resolved against `base_dir`. Workload file errors
/// name the file and line.
pub fn check_project(project: &Project, base_dir: &Path) -> Result<Checked, RunError> {
    let project = expanded(project)?;
    let registry = registry_for(&project);
    let model = elaborate(&project, &registry)?;
    let built = build_behaviours(&BuildInputs {
        model: &model,
        registry: &registry,
        workload: &project.workload,
        base_dir,
        placement: &project.placement,
    })?;
    let ranks = built.placement.world();
    drop(built);
    Ok(Checked { model, ranks })
}

/// Run `project`, calling `progress` every so many events.
pub fn run_project(
    project: &Project,
    options: &RunOptions,
    progress: impl FnMut(Progress),
) -> Result<RunResult, RunError> {
    run_project_into(project, options, None, progress)
}

/// Run `project` as [`run_project`] does, also writing the trace (at the run's level) into `sink`
/// as the run goes: what the editor's worker uses to build its replay model while it runs.
pub fn run_project_into(
    project: &Project,
    options: &RunOptions,
    sink: Option<Box<dyn TraceSink>>,
    mut progress: impl FnMut(Progress),
) -> Result<RunResult, RunError> {
    let project = expanded(project)?;
    let registry = registry_for(&project);
    let model = Arc::new(elaborate(&project, &registry)?);
    let level = TraceLevel::new(options.level.unwrap_or(project.settings.trace_level))?;
    let seed = options.seed.unwrap_or(project.settings.seed);
    let until = options.until.or(project.settings.until);
    let live_values = options.live_values.unwrap_or_else(|| displays_live_values(&project));
    // Once elaborated, the document is only read for its workload and placement: an expanded
    // recipe (about 1 KB per entity) is dropped here, before the behaviours are built, so that
    // they reuse its memory (`cargo bench -p hase-library --bench scale` sets up the same way).
    let (workload, placement) = match project {
        Cow::Owned(p) => (Cow::Owned(p.workload), Cow::Owned(p.placement)),
        Cow::Borrowed(p) => (Cow::Borrowed(&p.workload), Cow::Borrowed(&p.placement)),
    };
    let built = build_behaviours(&BuildInputs {
        model: &model,
        registry: &registry,
        workload: &workload,
        base_dir: &options.base_dir,
        placement: &placement,
    })?;
    drop(registry);
    let unused_processors: Vec<u32> = built
        .ranks
        .iter()
        .filter(|(address, _)| built.placement.rank(*address).is_none())
        .map(|(_, entity)| entity)
        .collect();
    let memory = Arc::new(Mutex::new(MemorySink::default()));
    let fingerprint = Arc::new(Mutex::new(FingerprintSink::new()));
    let mut sinks: Vec<Box<dyn TraceSink>> = Vec::new();
    match &options.trace {
        TraceTarget::None => {}
        TraceTarget::Memory => sinks.push(Box::new(memory.clone())),
        TraceTarget::File(path) => sinks.push(Box::new(create_trace(path, Some(INDEX_EVERY))?)),
    }
    if options.fingerprint {
        sinks.push(Box::new(fingerprint.clone()));
    }
    sinks.extend(sink);
    let sink: Option<Box<dyn TraceSink>> =
        if sinks.is_empty() { None } else { Some(Box::new(TeeSink(sinks))) };
    let config = SimConfig { seed, level, sink, live_values };
    let mut sim = Simulation::with_store(model.clone(), built.behaviours, config)?;
    sim.set_tie_order(options.tie_order);
    let control = RunControl {
        until,
        cancel: options.cancel.as_deref(),
        progress: Some(&mut progress),
        check_every: if options.progress_every == 0 { 65_536 } else { options.progress_every },
    };
    let threads = options.threads.unwrap_or_else(|| default_threads(model.entities.len()));
    let (outcome, partitioning) = sim.run_on(threads, control);
    let report = sim.finish(outcome);
    let trace = (options.trace == TraceTarget::Memory).then(|| {
        let m = std::mem::take(&mut *memory.lock().unwrap_or_else(std::sync::PoisonError::into_inner));
        Trace { header: m.header, records: m.records }
    });
    let fingerprint = options
        .fingerprint
        .then(|| fingerprint.lock().unwrap_or_else(std::sync::PoisonError::into_inner).hex());
    Ok(RunResult {
        outcome: report.outcome,
        stats: report.stats,
        fingerprint,
        trace,
        trace_error: report.trace_error,
        model,
        unused_processors,
        partitioning,
    })
}

/// The directory a project file's relative paths are resolved against.
pub fn base_dir_of(project_file: &Path) -> PathBuf {
    project_file
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .map_or_else(|| PathBuf::from("."), Path::to_path_buf)
}
