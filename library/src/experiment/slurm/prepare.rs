//! Writing a Slurm job directory for a plan: the frozen spec and project, `job.sbatch`, `results/`,
//! `logs/` and, last, the manifest `job.ron` (a directory with one is complete).

use std::path::{Path, PathBuf};

use hase_engine::model::write_atomic;

use super::array_tasks::array_task_count;
use super::error::SlurmError;
use super::layout::{MANIFEST_VERSION, SlurmJob, SlurmManifest, SlurmSettings};
use super::script::{check_script_path, job_script};
use crate::experiment::plan::ExperimentPlan;
use crate::experiment::spec::ProjectSource;
use crate::experiment::spec_file::spec_to_ron;
use crate::generated::project_to_ron;

/// Write the job directory `dir` for `plan` (see the module documentation): `dir` must be new or
/// empty. Nothing is submitted here.
pub fn prepare(plan: &ExperimentPlan, settings: &SlurmSettings, dir: &Path) -> Result<SlurmJob, SlurmError> {
    settings.check()?;
    std::fs::create_dir_all(dir).map_err(|e| SlurmError::io(dir, e))?;
    let dir = std::fs::canonicalize(dir).map_err(|e| SlurmError::io(dir, e))?;
    check_script_path(&dir)?;
    let mut entries = std::fs::read_dir(&dir).map_err(|e| SlurmError::io(&dir, e))?;
    if entries.next().is_some() {
        return Err(SlurmError::NotEmpty { dir });
    }
    let base_dir = std::path::absolute(plan.base_dir()).map_err(|e| SlurmError::io(plan.base_dir(), e))?;
    let manifest = SlurmManifest {
        version: MANIFEST_VERSION,
        name: plan.name().to_string(),
        hase_version: env!("CARGO_PKG_VERSION").to_string(),
        created_unix_s: std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_secs()),
        base_dir,
        points: plan.point_count(),
        repetitions: plan.spec().repetitions,
        tasks: array_task_count(plan.point_count(), settings.points_per_task),
        settings: settings.clone(),
    };
    let job = SlurmJob { dir, manifest };
    let mut spec = plan.spec().clone();
    spec.project = ProjectSource::File("project.ron".into());
    let project_text = project_to_ron(plan.project()).map_err(crate::experiment::SpecError::from)?;
    let write =
        |path: PathBuf, text: &str| write_atomic(&path, text.as_bytes()).map_err(|e| SlurmError::io(path, e));
    write(job.dir.join("project.ron"), &project_text)?;
    write(job.spec_path(), &spec_to_ron(&spec))?;
    for sub in [job.results_dir(), job.logs_dir()] {
        std::fs::create_dir_all(&sub).map_err(|e| SlurmError::io(&sub, e))?;
    }
    write(job.script_path(), &job_script(&job))?;
    make_executable(&job.script_path())?;
    // The manifest last: a directory with a job.ron is complete.
    let config = ron::ser::PrettyConfig::new().indentor("  ".to_string());
    let manifest_text = ron::ser::to_string_pretty(&job.manifest, config).unwrap_or_default();
    write(job.dir.join("job.ron"), &manifest_text)?;
    Ok(job)
}

#[cfg(unix)]
fn make_executable(path: &Path) -> Result<(), SlurmError> {
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o755))
        .map_err(|e| SlurmError::io(path, e))
}

#[cfg(not(unix))]
fn make_executable(_path: &Path) -> Result<(), SlurmError> {
    Ok(())
}
