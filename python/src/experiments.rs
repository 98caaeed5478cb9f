//! The experiment store, read-only: list the stored experiments, one's description, and its
//! results as the CSV `hase experiments export --csv` writes. Each call opens the database and
//! closes it before returning, so Python never keeps it from a `hase sweep --store` that starts
//! later; while another process holds it open, a call raises `StoreInUseError`.

use std::path::PathBuf;

use hase_library::experiment::{csv_text, spec_to_ron};
use hase_library::store::{Database, ExperimentStore, StoreError, resolve_data_dir};
use pyo3::prelude::*;
use pyo3::types::PyDict;

use crate::errors::{HaseError, store_error};

/// The store in `data_dir` (else the CLI's default directory). A directory without a hase
/// database is an error rather than a new, empty database: reading never creates one.
fn open(data_dir: Option<PathBuf>) -> PyResult<ExperimentStore> {
    let dir = resolve_data_dir(data_dir.as_deref()).map_err(|e| store_error(&e))?;
    if !dir.join("hase.lock").is_file() {
        return Err(HaseError::new_err(format!("no hase database at {}", dir.display())));
    }
    Database::open(&dir).and_then(ExperimentStore::with_database).map_err(|e| store_error(&e))
}

fn read<T>(
    data_dir: Option<PathBuf>,
    what: impl FnOnce(&ExperimentStore) -> Result<T, StoreError>,
) -> PyResult<T> {
    let store = open(data_dir)?;
    what(&store).map_err(|e| store_error(&e))
}

/// The stored experiments: one dict each (`id`, `name`, `started_at`, `finished_at`,
/// `runs_planned`, `runs_stored`), and the data directory.
#[pyfunction]
#[pyo3(signature = (data_dir=None))]
pub fn experiments_list(
    py: Python<'_>,
    data_dir: Option<PathBuf>,
) -> PyResult<(Vec<Bound<'_, PyDict>>, PathBuf)> {
    let (list, dir) = read(data_dir, |s| Ok((s.list()?, s.database().data_dir().to_path_buf())))?;
    let rows = list
        .into_iter()
        .map(|e| {
            let row = PyDict::new(py);
            row.set_item("id", e.id)?;
            row.set_item("name", e.name)?;
            row.set_item("started_at", e.started_at.to_string())?;
            row.set_item("finished_at", e.finished_at.map(|t| t.to_string()))?;
            row.set_item("runs_planned", e.runs_planned)?;
            row.set_item("runs_stored", e.runs_stored)?;
            Ok(row)
        })
        .collect::<PyResult<Vec<_>>>()?;
    Ok((rows, dir))
}

/// One experiment's description: name, project, times, variables, metrics, counts and spec (RON).
#[pyfunction]
#[pyo3(signature = (id, data_dir=None))]
pub fn experiment_info(py: Python<'_>, id: u64, data_dir: Option<PathBuf>) -> PyResult<Bound<'_, PyDict>> {
    let (info, stored) = read(data_dir, |s| Ok((s.info(id)?, s.stored_keys(id)?.len() as u64)))?;
    let out = PyDict::new(py);
    out.set_item("id", info.id)?;
    out.set_item("name", &info.name)?;
    out.set_item("project", &info.project.name)?;
    out.set_item("source", &info.source)?;
    out.set_item("hase_version", &info.hase_version)?;
    out.set_item("started_at", info.started_at.to_string())?;
    out.set_item("finished_at", info.finished_at.map(|t| t.to_string()))?;
    out.set_item("points", info.points)?;
    out.set_item("repetitions", info.repetitions)?;
    out.set_item("runs_planned", info.runs_planned())?;
    out.set_item("runs_stored", stored)?;
    out.set_item("variables", &info.variables)?;
    out.set_item("metrics", &info.metrics)?;
    out.set_item("spec", spec_to_ron(&info.spec))?;
    Ok(out)
}

/// One experiment's results: the CSV `hase experiments export ID --csv` writes.
#[pyfunction]
#[pyo3(signature = (id, data_dir=None))]
pub fn experiment_csv(id: u64, data_dir: Option<PathBuf>) -> PyResult<String> {
    read(data_dir, |s| {
        let info = s.info(id)?;
        Ok(csv_text(&info.variables, &info.metrics, &s.runs(id)?))
    })
}
