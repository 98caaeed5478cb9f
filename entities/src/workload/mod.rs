//! Workloads: the program trait, instruction-stream files, SimGrid time-independent traces and the
//! built-in parameterised MPI programs.

pub mod program;
