//! The experiment store: each experiment with its spec, the exact (frozen) project it ran
//! against, the hase version, start and end times, and one record per finished run, in sled trees
//! of their own next to the projects. Each finished run is committed (and flushed) as it finishes,
//! so a killed sweep loses at most the runs in flight, and a resume runs the missing ones.
//! Per-run trace files live beside the database in `experiments/<id>/`.
//!
//! Every call blocks on disk I/O: the GUI calls the store from a worker thread. The store is
//! `Send + Sync` and cheap to clone.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use hase_engine::model::Project;

use crate::generated::{project_from_ron, project_to_ron};
use sled::Transactional;
use sled::transaction::ConflictableTransactionError;

use super::database::{Database, tree_names};
use super::error::StoreError;
use super::experiment_header::NoRuns;
use super::experiment_records::{
    HeaderRecord, NEXT_ID_KEY, decode, encode, experiment_key, parse_experiment_key, parse_run_key, run_key,
};
use super::handle::SledHandle;
use super::timestamp::Timestamp;
use crate::experiment::plan::ExperimentPlan;
use crate::experiment::record::{RunKey, RunRecord};
use crate::experiment::spec::SweepSpec;
use crate::experiment::spec_file::{spec_from_ron, spec_to_ron};

/// The hase version written into every experiment.
pub const HASE_VERSION: &str = env!("CARGO_PKG_VERSION");

/// One line of the experiment list.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ExperimentSummary {
    /// Id (`hase experiments show ID`).
    pub id: u64,
    /// Name.
    pub name: String,
    /// When it started.
    pub started_at: Timestamp,
    /// When its last run was done, if every run is.
    pub finished_at: Option<Timestamp>,
    /// Runs planned.
    pub runs_planned: u64,
    /// Runs stored.
    pub runs_stored: u64,
}

/// An experiment's description (everything but its runs).
#[derive(Clone, Debug, PartialEq)]
pub struct ExperimentInfo {
    /// Id.
    pub id: u64,
    /// Name.
    pub name: String,
    /// hase version that started it.
    pub hase_version: String,
    /// When it started.
    pub started_at: Timestamp,
    /// When its last run was done, if every run is.
    pub finished_at: Option<Timestamp>,
    /// Where the project came from.
    pub source: String,
    /// Directory its workload files are read from.
    pub base_dir: PathBuf,
    /// Points planned.
    pub points: u64,
    /// Repetitions per point.
    pub repetitions: u32,
    /// Variable names, in order.
    pub variables: Vec<String>,
    /// Metric names, in order.
    pub metrics: Vec<String>,
    /// The spec.
    pub spec: SweepSpec,
    /// The exact project it ran against.
    pub project: Project,
}

impl ExperimentInfo {
    /// Runs planned (points × repetitions).
    pub fn runs_planned(&self) -> u64 {
        self.points * u64::from(self.repetitions)
    }
}

/// Experiments in a hase database (see the module documentation).
#[derive(Clone)]
pub struct ExperimentStore {
    pub(super) db: Database,
    pub(super) index: SledHandle<sled::Tree>,
    pub(super) runs: SledHandle<sled::Tree>,
    pub(super) meta: SledHandle<sled::Tree>,
}

impl std::fmt::Debug for ExperimentStore {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ExperimentStore").field("data_dir", &self.db.data_dir()).finish_non_exhaustive()
    }
}

impl ExperimentStore {
    /// Open the store in `data_dir` (its own database handle: use
    /// [`ExperimentStore::with_database`] to share one with the project store).
    pub fn open(data_dir: &Path) -> Result<Self, StoreError> {
        ExperimentStore::with_database(Database::open(data_dir)?)
    }

    /// The experiment store of an already open database.
    pub fn with_database(db: Database) -> Result<Self, StoreError> {
        Ok(ExperimentStore {
            index: db.tree(tree_names::EXPERIMENT_INDEX)?,
            runs: db.tree(tree_names::EXPERIMENT_RUNS)?,
            meta: db.tree(tree_names::EXPERIMENT_META)?,
            db,
        })
    }

    /// The database this store lives in.
    pub fn database(&self) -> &Database {
        &self.db
    }

    /// The directory of an experiment's trace files.
    pub fn trace_dir(&self, id: u64) -> PathBuf {
        self.db.data_dir().join("experiments").join(id.to_string())
    }

    /// Store a new experiment for `plan` (no runs yet) and return its id. `source` says where the
    /// project came from.
    pub fn create(&self, plan: &ExperimentPlan, source: &str) -> Result<u64, StoreError> {
        let header = HeaderRecord {
            experiment_file_version: 0,
            name: plan.name().to_string(),
            hase_version: HASE_VERSION.to_string(),
            started_at_ms: Timestamp::now().unix_ms(),
            finished_at_ms: None,
            source: source.to_string(),
            base_dir: plan.base_dir().display().to_string(),
            points: plan.point_count(),
            repetitions: plan.spec().repetitions,
            variables: plan.variable_names(),
            metrics: plan.metric_names(),
            spec: spec_to_ron(plan.spec()),
            project: project_to_ron(plan.project())?,
            runs: NoRuns,
        };
        self.insert_new(&header, &[])
    }

    /// Insert a header (and runs) under the next id, in one transaction with the counter; then
    /// flush. A kill leaves the experiment whole or absent.
    pub(super) fn insert_new(&self, header: &HeaderRecord, runs: &[RunRecord]) -> Result<u64, StoreError> {
        self.db.check_writable()?;
        let record = encode(&header_to_ron(header));
        let encoded: Vec<(RunKey, Vec<u8>)> = runs.iter().map(|r| (r.key, encode(&r.to_ron()))).collect();
        let id = (&*self.index, &*self.meta, &*self.runs)
            .transaction(|(index, meta, run_tree)| {
                let next = meta
                    .get(NEXT_ID_KEY)?
                    .and_then(|b| <[u8; 8]>::try_from(b.as_ref()).ok())
                    .map_or(1, u64::from_be_bytes);
                index.insert(&experiment_key(next), record.as_slice())?;
                meta.insert(NEXT_ID_KEY, &(next + 1).to_be_bytes())?;
                for (key, value) in &encoded {
                    run_tree.insert(&run_key(next, *key), value.as_slice())?;
                }
                Ok::<u64, ConflictableTransactionError<StoreError>>(next)
            })
            .map_err(|e| self.db.transaction_error(e))?;
        self.db.flush()?;
        Ok(id)
    }

    /// Every experiment, by id.
    pub fn list(&self) -> Result<Vec<ExperimentSummary>, StoreError> {
        let mut list = Vec::new();
        for entry in self.index.iter() {
            let (key, value) = entry.map_err(|e| self.db.error(e))?;
            let id =
                parse_experiment_key(&key).ok_or_else(|| self.corrupt("an experiment key is malformed"))?;
            let header = self.decode_header(id, &value)?;
            list.push(ExperimentSummary {
                id,
                name: header.name,
                started_at: Timestamp::from_unix_ms(header.started_at_ms),
                finished_at: header.finished_at_ms.map(Timestamp::from_unix_ms),
                runs_planned: header.points * u64::from(header.repetitions),
                runs_stored: self.runs.scan_prefix(experiment_key(id)).count() as u64,
            });
        }
        Ok(list)
    }

    /// An experiment's description, spec and frozen project.
    pub fn info(&self, id: u64) -> Result<ExperimentInfo, StoreError> {
        let header = self.header(id)?;
        let origin = format!("{}: experiment {id}", self.db.data_dir().display());
        let spec = spec_from_ron(&header.spec, &format!("{origin} spec"))
            .map_err(|e| self.corrupt(&format!("experiment {id}: its spec does not parse: {e}")))?;
        let project = project_from_ron(&header.project, &format!("{origin} project"))?;
        Ok(ExperimentInfo {
            id,
            name: header.name,
            hase_version: header.hase_version,
            started_at: Timestamp::from_unix_ms(header.started_at_ms),
            finished_at: header.finished_at_ms.map(Timestamp::from_unix_ms),
            source: header.source,
            base_dir: PathBuf::from(header.base_dir),
            points: header.points,
            repetitions: header.repetitions,
            variables: header.variables,
            metrics: header.metrics,
            spec,
            project,
        })
    }

    /// Commit one finished run (replacing an earlier record of the same run) and flush, so it
    /// survives a kill of the process from the moment this returns.
    pub fn record_run(&self, id: u64, record: &RunRecord) -> Result<(), StoreError> {
        self.db.check_writable()?;
        if !self.index.contains_key(experiment_key(id)).map_err(|e| self.db.error(e))? {
            return Err(StoreError::ExperimentNotFound { id });
        }
        self.runs.insert(run_key(id, record.key), encode(&record.to_ron())).map_err(|e| self.db.error(e))?;
        self.db.flush()
    }

    /// Every stored run of an experiment, sorted by (point, repetition).
    pub fn runs(&self, id: u64) -> Result<Vec<RunRecord>, StoreError> {
        self.header(id)?;
        let mut runs = Vec::new();
        for entry in self.runs.scan_prefix(experiment_key(id)) {
            let (key, value) = entry.map_err(|e| self.db.error(e))?;
            runs.push(self.decode_run(&key, &value)?);
        }
        Ok(runs)
    }

    /// The runs already stored (what a resume skips).
    pub fn stored_keys(&self, id: u64) -> Result<BTreeSet<RunKey>, StoreError> {
        self.header(id)?;
        let mut keys = BTreeSet::new();
        for entry in self.runs.scan_prefix(experiment_key(id)).keys() {
            let key = entry.map_err(|e| self.db.error(e))?;
            let (_, run) = parse_run_key(&key).ok_or_else(|| self.corrupt("a run key is malformed"))?;
            keys.insert(run);
        }
        Ok(keys)
    }

    /// Note that every run is done (sets the end time).
    pub fn mark_finished(&self, id: u64) -> Result<(), StoreError> {
        self.update_header(id, |h| h.finished_at_ms = Some(Timestamp::now().unix_ms()))
    }

    /// Rename an experiment (names need not be unique; the id is the key).
    pub fn rename(&self, id: u64, name: &str) -> Result<(), StoreError> {
        super::projects::validate_name(name)?;
        self.update_header(id, |h| h.name = name.to_string())
    }

    /// Delete an experiment, its runs and its trace files.
    pub fn delete(&self, id: u64) -> Result<(), StoreError> {
        self.db.check_writable()?;
        let keys: Vec<sled::IVec> = self
            .runs
            .scan_prefix(experiment_key(id))
            .keys()
            .collect::<Result<_, _>>()
            .map_err(|e| self.db.error(e))?;
        (&*self.index, &*self.runs)
            .transaction(|(index, runs)| {
                if index.remove(&experiment_key(id))?.is_none() {
                    return Err(ConflictableTransactionError::Abort(StoreError::ExperimentNotFound { id }));
                }
                for key in &keys {
                    runs.remove(key)?;
                }
                Ok(())
            })
            .map_err(|e| self.db.transaction_error(e))?;
        self.db.flush()?;
        let traces = self.trace_dir(id);
        if traces.exists() {
            std::fs::remove_dir_all(&traces).map_err(|e| StoreError::io(&traces, e))?;
        }
        Ok(())
    }

    /// Check every experiment: its header parses (spec and project too), every run key belongs to
    /// an experiment and lies within its plan, every run record parses and names its own key.
    /// Returns the number of experiments and runs checked.
    pub fn verify(&self) -> Result<(usize, usize), StoreError> {
        let mut planned = std::collections::BTreeMap::new();
        for entry in self.index.iter() {
            let (key, _) = entry.map_err(|e| self.db.error(e))?;
            let id =
                parse_experiment_key(&key).ok_or_else(|| self.corrupt("an experiment key is malformed"))?;
            let info = self.info(id)?;
            planned.insert(id, (info.points, info.repetitions, info.metrics.len()));
        }
        let mut runs = 0;
        for entry in self.runs.iter() {
            let (key, value) = entry.map_err(|e| self.db.error(e))?;
            let record = self.decode_run(&key, &value)?;
            let (id, _) = parse_run_key(&key).ok_or_else(|| self.corrupt("a run key is malformed"))?;
            let Some((points, repetitions, metrics)) = planned.get(&id) else {
                return Err(self.corrupt(&format!("run {} belongs to no experiment ({id})", record.key)));
            };
            if record.key.point >= *points
                || record.key.repetition >= *repetitions
                || record.metrics.len() != *metrics
            {
                return Err(
                    self.corrupt(&format!("experiment {id}: run {} does not fit its plan", record.key))
                );
            }
            runs += 1;
        }
        Ok((planned.len(), runs))
    }

    fn header(&self, id: u64) -> Result<HeaderRecord, StoreError> {
        let bytes = self.index.get(experiment_key(id)).map_err(|e| self.db.error(e))?;
        let bytes = bytes.ok_or(StoreError::ExperimentNotFound { id })?;
        self.decode_header(id, &bytes)
    }

    fn update_header(&self, id: u64, change: impl Fn(&mut HeaderRecord)) -> Result<(), StoreError> {
        self.db.check_writable()?;
        self.index
            .transaction(|index| {
                let Some(bytes) = index.get(experiment_key(id))? else {
                    return Err(ConflictableTransactionError::Abort(StoreError::ExperimentNotFound { id }));
                };
                let mut header =
                    self.decode_header(id, &bytes).map_err(ConflictableTransactionError::Abort)?;
                change(&mut header);
                index.insert(&experiment_key(id), encode(&header_to_ron(&header)))?;
                Ok(())
            })
            .map_err(|e| self.db.transaction_error(e))?;
        self.db.flush()
    }

    fn decode_header(&self, id: u64, bytes: &[u8]) -> Result<HeaderRecord, StoreError> {
        decode(bytes)
            .and_then(|text| ron::from_str(text).ok())
            .ok_or_else(|| self.corrupt(&format!("the record of experiment {id} is malformed")))
    }

    fn decode_run(&self, key: &[u8], bytes: &[u8]) -> Result<RunRecord, StoreError> {
        let (id, run) = parse_run_key(key).ok_or_else(|| self.corrupt("a run key is malformed"))?;
        let record = decode(bytes)
            .and_then(|text| RunRecord::from_ron(text, "").ok())
            .ok_or_else(|| self.corrupt(&format!("experiment {id}: the record of {run} is malformed")))?;
        if record.key != run {
            return Err(
                self.corrupt(&format!("experiment {id}: the record stored as {run} is {}", record.key))
            );
        }
        Ok(record)
    }

    pub(super) fn corrupt(&self, detail: &str) -> StoreError {
        StoreError::Corrupt { path: self.db.data_dir().to_path_buf(), detail: detail.to_string() }
    }
}

/// The header as compact RON (never fails: strings, numbers and lists only).
pub(super) fn header_to_ron(header: &HeaderRecord) -> String {
    ron::to_string(header).unwrap_or_default()
}
