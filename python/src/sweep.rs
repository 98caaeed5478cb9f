//! `sweep_csv`: a parameter sweep of an in-memory project, planned and run as `hase sweep PROJECT
//! --vary …` plans and runs it (same spec, same frozen project, same seeds), returning the CLI's CSV
//! text byte for byte. Runs go on the library's worker pool with the GIL released; Ctrl-C cancels.

use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;

use hase_engine::model::write_atomic;
use hase_library::experiment::{
    Combination, ExperimentPlan, ProjectSource, Quiet, SpecOrigin, SweepOptions, SweepSpec, VariableSpec,
    csv_text, freeze_project, run_sweep,
};
use pyo3::prelude::*;

use crate::background::run_in_background;
use crate::errors::{HaseError, hase_error, hase_error_in};
use crate::project::NativeProject;

/// Run a sweep and return `(csv_text, failures)`: the CSV `hase sweep --csv` writes, and one line
/// per run that did not succeed (`key (values): status: first line of its detail`). `vary` holds
/// `TARGET=VALUES` texts in the CLI's syntax, the first changing slowest.
#[pyfunction]
#[pyo3(signature = (project, vary, *, repeat=None, seed=None, jobs=None, metrics=Vec::new(), zip=false,
                    constraint=None, name=None, csv=None, shuffle_ties=false))]
#[expect(clippy::too_many_arguments, reason = "Python keyword arguments, one per `hase sweep` option")]
pub fn sweep_csv(
    py: Python<'_>,
    project: &NativeProject,
    vary: Vec<String>,
    repeat: Option<u32>,
    seed: Option<u64>,
    jobs: Option<usize>,
    metrics: Vec<String>,
    zip: bool,
    constraint: Option<String>,
    name: Option<String>,
    csv: Option<PathBuf>,
    shuffle_ties: bool,
) -> PyResult<(String, Vec<String>)> {
    let source =
        project.path.as_ref().map_or_else(|| project.project.name.clone(), |p| p.display().to_string());
    let mut spec = SweepSpec::new(ProjectSource::File(source));
    for text in &vary {
        let (target, values) = text.split_once('=').ok_or_else(|| {
            HaseError::new_err(format!("vary {}: expected TARGET=VALUES", hase_engine::limits::quote(text)))
        })?;
        spec.variables.push(VariableSpec { target: target.trim().into(), values: values.into(), name: None });
    }
    if zip {
        spec.combination = Combination::Zip;
    }
    spec.constraint = constraint;
    if let Some(n) = repeat {
        spec.repetitions = n;
    }
    if let Some(seed) = seed {
        spec.seed = seed;
    }
    spec.metrics = metrics;
    spec.shuffle_ties = shuffle_ties;
    if let Some(name) = name {
        spec.name = name;
    }
    let origin = SpecOrigin::Arguments { vary };
    let base_dir = project.base_dir().to_path_buf();
    let frozen = freeze_project(&project.project, &base_dir).map_err(|e| hase_error(&e))?;
    let plan = ExperimentPlan::new(spec, frozen, base_dir, &origin).map_err(|e| hase_error(&e))?;
    let cancel = Arc::new(AtomicBool::new(false));
    let options = SweepOptions {
        jobs: jobs.unwrap_or_else(|| SweepOptions::default().jobs).max(1),
        cancel: cancel.clone(),
        progress_every: 100_000,
        ..SweepOptions::default()
    };
    let plan = Arc::new(plan);
    let worker_plan = plan.clone();
    let report = run_in_background(py, "hase-python-sweep", &cancel, move || {
        run_sweep(&worker_plan, &options, &Quiet)
    })?
    .map_err(|e| hase_error(&e))?;
    if let Some(e) = &report.observer_error {
        return Err(hase_error_in("the sweep stopped", &**e));
    }
    let text = csv_text(&plan.variable_names(), &plan.metric_names(), &report.records);
    if let Some(path) = &csv {
        write_atomic(path, text.as_bytes())
            .map_err(|e| hase_error_in(&format!("cannot write {}", path.display()), &e))?;
    }
    let failures = report
        .records
        .iter()
        .filter(|r| !r.status.is_success())
        .map(|r| {
            let first = r.detail.lines().next().unwrap_or_default();
            format!("{} ({}): {}: {first}", r.key, r.values.join(", "), r.status.word())
        })
        .collect();
    Ok((text, failures))
}
