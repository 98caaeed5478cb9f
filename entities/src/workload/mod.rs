//! Workloads: the program trait, instruction-stream files, SimGrid time-independent traces and the
//! built-in parameterised MPI programs.

pub mod program;
pub mod programs;
pub mod stream;
pub mod ti;
mod tokens;
