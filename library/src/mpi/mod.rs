//! Real MPI programs: the C tools bundled under `assets/mpi/` (benchmark, PMPI logger, reverse
//! profiler, sample programs) built with `mpicc` into a cache keyed by their source, and the three
//! loops that use them — characterise an MPI library (`bench`), record a program as SimGrid
//! time-independent traces and its real timeline (`record`, `real_timeline`), and predict a
//! program's time from a data sheet while it runs (`predict`, seed `000`'s reverse profiling),
//! each with an error budget (`budget`). Nothing here is compiled by `cargo build`; the
//! C is built on first use. See `docs/datasheets.md`.

pub mod bench;
pub mod budget;
pub mod build;
pub mod command;
mod error;
pub mod predict;
pub mod real_timeline;
pub mod record;
pub mod ti_convert;
pub mod timings;

pub use build::{CTool, SAMPLES, ToolBuild, build_tool, cache_dir, sample};
pub use command::MpiRun;
pub use error::MpiError;
