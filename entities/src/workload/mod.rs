//! Workloads: the program trait, instruction-stream files, SimGrid time-independent traces and the
//! built-in parameterised MPI programs.

mod load;
pub mod program;
pub mod programs;
pub mod stream;
pub mod ti;
mod tokens;

pub use load::{WorkloadError, programs_for};
