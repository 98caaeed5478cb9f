//! Experiments with the store: plan a spec from its project source (a file or a stored project,
//! frozen on the way in), start a stored experiment, commit each run as it finishes, resume an
//! interrupted one (only its missing runs), and plan a stored experiment again (from its frozen
//! spec and project) for a single run or a resume.

use std::path::{Path, PathBuf};

use crate::generated::load_project;
use hase_engine::kernel::Progress;

use super::error::{SpecError, SpecOrigin, SpecProblem};
use super::plan::{ExperimentPlan, freeze_project};
use super::record::{RunKey, RunRecord};
use super::spec::{ProjectSource, SweepSpec};
use super::sweep::{ObserverError, SweepError, SweepObserver, SweepOptions, SweepReport, run_sweep};
use crate::runner::base_dir_of;
use crate::store::{ExperimentStore, ProjectStore, StoreError};

/// Why a stored sweep could not run.
#[derive(Debug, thiserror::Error)]
pub enum ExperimentError {
    /// The spec is wrong (with the place at fault).
    #[error(transparent)]
    Spec(#[from] SpecError),
    /// The store failed.
    #[error(transparent)]
    Store(#[from] StoreError),
    /// The sweep could not start.
    #[error(transparent)]
    Sweep(#[from] SweepError),
    /// One stored experiment's header and spec disagree (an edited import); the rest of the store
    /// is sound.
    #[error(
        "experiment {id} was recorded with {recorded} runs but its spec now makes {planned}; this one \
         experiment is inconsistent (the store is sound): delete it with `hase experiments delete {id}`"
    )]
    Inconsistent {
        /// The experiment.
        id: u64,
        /// Points × repetitions in its header.
        recorded: u64,
        /// Runs its spec makes.
        planned: u64,
    },
}

/// Plan `spec`: read its project (a file relative to `spec_dir`, or a stored project from
/// `projects`), freeze it (instruction streams inlined) and check the spec against it. Returns
/// the plan and a description of where the project came from.
pub fn plan_spec(
    spec: SweepSpec,
    origin: &SpecOrigin,
    spec_dir: &Path,
    projects: Option<&ProjectStore>,
) -> Result<(ExperimentPlan, String), SpecError> {
    let (project, base_dir, source) = match &spec.project {
        ProjectSource::File(path) => {
            let path = spec_dir.join(path);
            (load_project(&path)?, base_dir_of(&path), format!("file {}", path.display()))
        }
        ProjectSource::Stored { name, version } => {
            let store =
                projects.ok_or_else(|| SpecError::at(origin.field("project"), SpecProblem::NoStore))?;
            let stored = match version {
                Some(v) => store.load_version(name, *v)?,
                None => store.load(name)?,
            };
            let source = format!("stored project '{name}' version {}", stored.version.version);
            (stored.project, spec_dir.to_path_buf(), source)
        }
    };
    let frozen =
        freeze_project(&project, &base_dir).map_err(|e| SpecError::at(origin.field("project"), e))?;
    Ok((ExperimentPlan::new(spec, frozen, base_dir, origin)?, source))
}

/// Plan a stored experiment again from its frozen spec and project.
pub fn plan_stored(store: &ExperimentStore, id: u64) -> Result<ExperimentPlan, ExperimentError> {
    let info = store.info(id)?;
    let origin = SpecOrigin::Code;
    let plan = ExperimentPlan::new(info.spec, info.project, info.base_dir, &origin)?;
    let recorded = info.points.saturating_mul(u64::from(info.repetitions));
    if plan.run_count() != recorded {
        return Err(ExperimentError::Inconsistent { id, recorded, planned: plan.run_count() });
    }
    Ok(plan)
}

/// Commits each finished run to the store before telling `inner`.
pub struct StoringObserver<O> {
    /// The store.
    pub store: ExperimentStore,
    /// The experiment.
    pub id: u64,
    /// Who else hears of the sweep.
    pub inner: O,
}

impl<O: SweepObserver> SweepObserver for StoringObserver<O> {
    fn started(&self, key: RunKey) {
        self.inner.started(key);
    }
    fn progress(&self, key: RunKey, progress: Progress) {
        self.inner.progress(key, progress);
    }
    fn finished(&self, record: &RunRecord) -> Result<(), ObserverError> {
        self.store.record_run(self.id, record)?;
        self.inner.finished(record)
    }
}

impl<O: SweepObserver + ?Sized> SweepObserver for &O {
    fn started(&self, key: RunKey) {
        (**self).started(key);
    }
    fn progress(&self, key: RunKey, progress: Progress) {
        (**self).progress(key, progress);
    }
    fn finished(&self, record: &RunRecord) -> Result<(), ObserverError> {
        (**self).finished(record)
    }
}

/// The directory a stored experiment keeps its traces in, when its spec asks for traces.
pub fn stored_trace_dir(store: &ExperimentStore, plan: &ExperimentPlan, id: u64) -> Option<PathBuf> {
    plan.spec().traces.map(|_| store.trace_dir(id))
}

/// Run the runs of stored experiment `id` that are not stored yet (all of them for a new one),
/// committing each as it finishes; marks the experiment finished once every run is stored.
/// `options.skip` and `options.trace_dir` are set here.
pub fn run_stored(
    store: &ExperimentStore,
    id: u64,
    plan: &ExperimentPlan,
    options: &SweepOptions,
    observer: &dyn SweepObserver,
) -> Result<SweepReport, ExperimentError> {
    let options = SweepOptions {
        skip: store.stored_keys(id)?,
        trace_dir: stored_trace_dir(store, plan, id),
        ..options.clone()
    };
    let storing = StoringObserver { store: store.clone(), id, inner: observer };
    let report = run_sweep(plan, &options, &storing)?;
    if store.stored_keys(id)?.len() as u64 == plan.run_count() && store.info(id)?.finished_at.is_none() {
        store.mark_finished(id)?;
    }
    Ok(report)
}
