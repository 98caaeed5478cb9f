//! Data sheets and MPI prediction: fit a sheet to `hase mpi bench` measurements (`hase datasheet
//! fit`), and predict a real MPI program from a sheet while it runs (`hase mpi predict`).

use std::path::{Path, PathBuf};

use hase_engine::model::write_atomic;
use hase_entities::netmodel::datasheet::{self, Estimate};
use hase_library::datasheet::{SheetOptions, make_sheet, raw, show};
use hase_library::mpi::cache_dir;
use hase_library::mpi::predict::{PredictOptions, predict};
use pyo3::prelude::*;
use pyo3::types::PyDict;

use crate::errors::{HaseError, hase_error, hase_error_in};

/// Fit a data sheet to the raw CSV `hase mpi bench` writes. Returns `(ron, json)`: the sheet as
/// the RON file `hase datasheet fit` writes (also written to `output` if given) and as the JSON
/// `hase datasheet show --json` prints.
#[pyfunction]
#[pyo3(signature = (raw_csv, *, name=None, split_bytes=None, output=None))]
pub fn datasheet_fit(
    py: Python<'_>,
    raw_csv: PathBuf,
    name: Option<String>,
    split_bytes: Option<u64>,
    output: Option<PathBuf>,
) -> PyResult<(String, String)> {
    let name = name.unwrap_or_else(|| {
        output
            .as_deref()
            .and_then(Path::file_stem)
            .map_or_else(|| "sheet".into(), |s| s.to_string_lossy().into_owned())
    });
    py.detach(|| {
        let data = raw::read_raw(&raw_csv).map_err(|e| hase_error(&e))?;
        let sheet = make_sheet(&data, &SheetOptions { name, split_bytes }).map_err(|e| hase_error(&e))?;
        let ron = datasheet::to_ron(&sheet).map_err(|e| hase_error(&e))?;
        if let Some(path) = &output {
            write_atomic(path, ron.as_bytes())
                .map_err(|e| hase_error_in(&format!("cannot write {}", path.display()), &e))?;
        }
        Ok((ron, show::to_json(&sheet)))
    })
}

/// Run `command` (e.g. `["mpirun", "-np", "4", "./prog"]`) under the reverse profiler and predict
/// each rank's time from `sheet` (a `.ron` file or a built-in name). Returns a dict: `sheet`,
/// `predicted_ps` (the slowest rank), `ranks` (one dict per rank: `rank`, `predicted_us`,
/// `measured_us`, `measured_cpu_us`, `missing`), and `trace` if a trace file was asked for.
#[pyfunction]
#[pyo3(signature = (command, *, sheet, band="measured", cpu_scale=1.0, trace=None))]
pub fn mpi_predict<'py>(
    py: Python<'py>,
    command: Vec<String>,
    sheet: &str,
    band: &str,
    cpu_scale: f64,
    trace: Option<PathBuf>,
) -> PyResult<Bound<'py, PyDict>> {
    let sheet = datasheet::load(sheet, Path::new(".")).map_err(|e| hase_error(&e))?;
    let estimate = Estimate::from_name(band).ok_or_else(|| {
        HaseError::new_err(format!("unknown band `{band}`; choose min, avg, max or measured"))
    })?;
    let options = PredictOptions { sheet: &sheet, estimate, cpu_scale, env: Vec::new() };
    let prediction = py
        .detach(|| predict(&command, &options, trace.as_deref(), &cache_dir()))
        .map_err(|e| hase_error(&e))?;
    let out = PyDict::new(py);
    out.set_item("sheet", &sheet.name)?;
    out.set_item("predicted_ps", prediction.predicted().0)?;
    let ranks = prediction
        .ranks
        .iter()
        .map(|r| {
            let row = PyDict::new(py);
            row.set_item("rank", r.rank)?;
            row.set_item("predicted_us", r.predicted.0 as f64 / 1e6)?;
            row.set_item("measured_us", r.wall_us)?;
            row.set_item("measured_cpu_us", r.cpu_us)?;
            row.set_item("missing", &r.missing)?;
            Ok(row)
        })
        .collect::<PyResult<Vec<_>>>()?;
    out.set_item("ranks", ranks)?;
    if let Some(path) = trace {
        out.set_item("trace", path)?;
    }
    Ok(out)
}
