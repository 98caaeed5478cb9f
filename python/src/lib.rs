//! `hase._hase`, the native half of the `hase` Python package: projects, runs, sweeps, the
//! experiment store, traces as columns, data sheets and MPI prediction, each a thin layer over the
//! library crates. The Python half (`python/hase/`) turns what this returns into pandas DataFrames.
//! This file declares the modules and registers what Python sees.

mod background;
mod errors;
mod experiments;
mod mpi;
mod project;
mod run;
mod sweep;
mod trace_columns;

use pyo3::prelude::*;

/// The extension module.
#[pymodule]
fn _hase(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add("HaseError", py.get_type::<errors::HaseError>())?;
    m.add("StoreInUseError", py.get_type::<errors::StoreInUseError>())?;
    m.add_class::<project::NativeProject>()?;
    m.add_class::<run::NativeRun>()?;
    m.add_function(wrap_pyfunction!(sweep::sweep_csv, m)?)?;
    m.add_function(wrap_pyfunction!(trace_columns::read_trace_columns, m)?)?;
    m.add_function(wrap_pyfunction!(experiments::experiments_list, m)?)?;
    m.add_function(wrap_pyfunction!(experiments::experiment_info, m)?)?;
    m.add_function(wrap_pyfunction!(experiments::experiment_csv, m)?)?;
    m.add_function(wrap_pyfunction!(mpi::datasheet_fit, m)?)?;
    m.add_function(wrap_pyfunction!(mpi::mpi_predict, m)?)?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
