//! MPI semantics: operations, matching, the eager/rendezvous protocol and collective schedules.

pub mod collectives;
pub mod kind;
pub mod op;
