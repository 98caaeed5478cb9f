//! The job directory of a sweep run on Slurm. It lives on the file system the cluster's nodes
//! share and holds everything a task needs, frozen when the job is made (later edits of the
//! project or spec do not change the experiment):
//!
//! ```text
//! DIR/job.ron          manifest: settings, hase binary, data directory, counts, base directory
//! DIR/spec.ron         the spec, its project pointing at project.ron
//! DIR/project.ron      the frozen project (instruction streams inlined)
//! DIR/job.sbatch       the array job script
//! DIR/submissions.ron  the job ids submitted and their tasks
//! DIR/results/         one result file per run: point-000003-rep-000.ron
//! DIR/logs/            the tasks' stdout and stderr: JOBID_TASK.out / .err
//! DIR/traces/          per-run traces, when the spec asks for them
//! ```

use std::path::{Path, PathBuf};

use crate::generated::load_project;
use serde::{Deserialize, Serialize};

use super::error::SlurmError;
use crate::experiment::error::SpecOrigin;
use crate::experiment::plan::ExperimentPlan;
use crate::experiment::record::RunKey;
use crate::experiment::spec_file::load_spec;

/// Version of `job.ron` this build writes and reads.
pub const MANIFEST_VERSION: u32 = 1;

/// How the job is submitted and run (the `--slurm` options of `hase sweep`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SlurmSettings {
    /// `--partition`.
    #[serde(default)]
    pub partition: Option<String>,
    /// `--time` limit of each task (`HH:MM:SS`, or any form sbatch takes).
    #[serde(default)]
    pub time: Option<String>,
    /// `--mem` of each task (`4G`).
    #[serde(default)]
    pub mem: Option<String>,
    /// Points each array task runs (every repetition of each).
    pub points_per_task: u64,
    /// At most this many tasks at once (`%N` on the array).
    #[serde(default)]
    pub throttle: Option<u32>,
    /// Further `#SBATCH` arguments, one per line, as given (`--account=abc`).
    #[serde(default)]
    pub sbatch_args: Vec<String>,
    /// The hase binary the tasks run (absolute).
    pub hase_binary: PathBuf,
    /// The hase data directory (`--data-dir`) the tasks and `--collect --store` use.
    #[serde(default)]
    pub data_dir: Option<PathBuf>,
}

impl SlurmSettings {
    /// Settings with one point per task and nothing else asked for.
    pub fn new(hase_binary: PathBuf) -> Self {
        SlurmSettings {
            partition: None,
            time: None,
            mem: None,
            points_per_task: 1,
            throttle: None,
            sbatch_args: Vec::new(),
            hase_binary,
            data_dir: None,
        }
    }

    pub(crate) fn check(&self) -> Result<(), SlurmError> {
        let bad = |setting: &str, reason: &str| {
            Err(SlurmError::BadSetting { setting: setting.into(), reason: reason.into() })
        };
        if self.points_per_task == 0 {
            return bad("--points-per-task", "must be at least 1");
        }
        if self.throttle == Some(0) {
            return bad("--throttle", "must be at least 1");
        }
        let texts = [("--partition", &self.partition), ("--time", &self.time), ("--mem", &self.mem)];
        for (setting, value) in texts {
            if value.as_deref().is_some_and(|v| v.is_empty() || v.chars().any(char::is_whitespace)) {
                return bad(setting, "must be one word");
            }
        }
        if self.sbatch_args.iter().any(|a| a.contains('\n') || !a.starts_with('-')) {
            return bad("--sbatch-arg", "each must be one option line starting with `-`");
        }
        Ok(())
    }
}

/// `job.ron`: what the job is.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SlurmManifest {
    /// [`MANIFEST_VERSION`].
    pub version: u32,
    /// The experiment's name.
    pub name: String,
    /// The hase version that made the job.
    pub hase_version: String,
    /// When the job was made (seconds since 1970).
    pub created_unix_s: u64,
    /// The directory the project's files (time-independent traces) are read from.
    pub base_dir: PathBuf,
    /// Points of the experiment.
    pub points: u64,
    /// Repetitions of each point.
    pub repetitions: u32,
    /// Array tasks.
    pub tasks: u64,
    /// How it is submitted and run.
    pub settings: SlurmSettings,
}

/// A job directory, opened.
#[derive(Clone, Debug)]
pub struct SlurmJob {
    /// The directory (absolute).
    pub dir: PathBuf,
    /// Its manifest.
    pub manifest: SlurmManifest,
}

impl SlurmJob {
    /// Open the job in `dir`.
    pub fn open(dir: &Path) -> Result<Self, SlurmError> {
        let path = dir.join("job.ron");
        if !path.is_file() {
            return Err(SlurmError::NotAJob { dir: dir.to_path_buf() });
        }
        let text = hase_engine::limits::read_text_input(&path).map_err(|e| SlurmError::io(&path, e))?;
        let manifest: SlurmManifest = ron::from_str(&text).map_err(|e| SlurmError::ron(&path, e))?;
        if manifest.version != MANIFEST_VERSION {
            return Err(SlurmError::mismatch(
                &path,
                format!("job version {} is not {MANIFEST_VERSION}", manifest.version),
            ));
        }
        let dir = std::path::absolute(dir).map_err(|e| SlurmError::io(dir, e))?;
        Ok(SlurmJob { dir, manifest })
    }

    /// Plan the frozen spec and project again (what every task and `--collect` do).
    pub fn plan(&self) -> Result<ExperimentPlan, SlurmError> {
        let spec_path = self.spec_path();
        let spec = load_spec(&spec_path)?;
        let text =
            hase_engine::limits::read_text_input(&spec_path).map_err(|e| SlurmError::io(&spec_path, e))?;
        let origin = SpecOrigin::File { path: spec_path.display().to_string(), text };
        let project =
            load_project(&self.dir.join("project.ron")).map_err(crate::experiment::SpecError::from)?;
        let plan = ExperimentPlan::new(spec, project, self.manifest.base_dir.clone(), &origin)?;
        if plan.point_count() != self.manifest.points {
            return Err(SlurmError::mismatch(
                &self.dir.join("job.ron"),
                format!(
                    "the job has {} points but its spec now makes {} (a different hase version?)",
                    self.manifest.points,
                    plan.point_count()
                ),
            ));
        }
        Ok(plan)
    }

    /// `DIR/spec.ron`.
    pub fn spec_path(&self) -> PathBuf {
        self.dir.join("spec.ron")
    }

    /// `DIR/job.sbatch`.
    pub fn script_path(&self) -> PathBuf {
        self.dir.join("job.sbatch")
    }

    /// `DIR/results/`.
    pub fn results_dir(&self) -> PathBuf {
        self.dir.join("results")
    }

    /// `DIR/logs/`.
    pub fn logs_dir(&self) -> PathBuf {
        self.dir.join("logs")
    }

    /// `DIR/traces/`.
    pub fn traces_dir(&self) -> PathBuf {
        self.dir.join("traces")
    }

    /// The result file of a run.
    pub fn result_path(&self, key: RunKey) -> PathBuf {
        self.results_dir().join(format!("point-{:06}-rep-{:03}.ron", key.point, key.repetition))
    }

    /// The stderr file of a task in a submitted job.
    pub fn stderr_path(&self, job_id: &str, task: u64) -> PathBuf {
        self.logs_dir().join(format!("{job_id}_{task}.err"))
    }
}

#[cfg(test)]
pub(crate) mod tests_support {
    use super::*;

    /// A manifest of `tasks` one-point tasks with `throttle`.
    pub(crate) fn manifest(tasks: u64, throttle: Option<u32>) -> SlurmManifest {
        let mut settings = SlurmSettings::new(PathBuf::from("/usr/bin/hase"));
        settings.throttle = throttle;
        SlurmManifest {
            version: MANIFEST_VERSION,
            name: "x".into(),
            hase_version: "0".into(),
            created_unix_s: 0,
            base_dir: PathBuf::from("/"),
            points: tasks,
            repetitions: 1,
            tasks,
            settings,
        }
    }
}
