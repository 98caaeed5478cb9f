//! Experiments: parameter sweeps with repetitions, run in parallel, stored with their results.
//! Everything here is free of any GUI: the CLI (`hase sweep`, `hase experiments`) and the GUI's
//! worker threads drive the same calls.
//!
//! - [`spec`]: the sweep spec (RON, versioned): project, variables, combination, constraint,
//!   repetitions, seed, metrics, traces; [`error`]: spec errors naming the line or argument.
//! - [`values`]: `a,b,c`, `lo..hi +step`, `lo..hi *factor`, read with the parameter's own kind.
//! - [`variables`]: `--set` targets, compound levels, `algorithm`, `template.dims` and
//!   `template.topology` (the network regenerated from the project's generator recipe).
//! - [`points`]: cross product, zip, zipped groups; the `evalexpr` constraint.
//! - [`seeds`]: run seeds from the experiment seed, point and repetition.
//! - [`metrics`]: metric names measured from `RunStats`.
//! - [`plan`]: a checked experiment; [`ExperimentPlan::run_one`] runs any single run alone.
//! - [`sweep`]: runs on a rayon pool with an observer, cancel and resume; a background task for
//!   the GUI ([`spawn_sweep`]).
//! - [`stored`]: plans from project files or stored projects, stored sweeps committing each run.
//! - [`record`]: run records (the store's rows and single-run result files); [`csv`]: CSV text.
//! - [`slurm`]: a sweep as a Slurm job array: the job directory, one task's runs, collect, status.
//! - [`example`]: the shipped experiment (`projects/experiments/`); [`scaling`]: scaling formulas
//!   fitted to its results (see [`crate::fit`]).
//!
//! The format and every name are documented in `docs/experiments.md`.

pub mod csv;
pub mod error;
pub mod example;
pub mod metrics;
pub mod plan;
pub mod points;
pub mod record;
pub mod scaling;
pub mod seeds;
pub mod slurm;
pub mod spec;
pub mod spec_file;
pub mod stored;
pub mod sweep;
pub mod values;
pub mod variables;

#[cfg(test)]
mod tests;

pub use csv::csv_text;
pub use error::{Place, SpecError, SpecOrigin};
pub use plan::{ExperimentPlan, PointError, RunOneOptions, freeze_project};
pub use record::{MetricValue, RecordFileError, RunKey, RunRecord, RunStatus};
pub use seeds::run_seed;
pub use spec::{Combination, DEFAULT_METRICS, ProjectSource, SPEC_SCHEMA_VERSION, SweepSpec, VariableSpec};
pub use spec_file::{load_spec, spec_from_ron, spec_to_ron};
pub use stored::{ExperimentError, StoringObserver, plan_spec, plan_stored, run_stored};
pub use sweep::{
    ObserverError, Quiet, SweepError, SweepEvent, SweepObserver, SweepOptions, SweepReport, SweepTask,
    run_sweep, spawn_sweep,
};
