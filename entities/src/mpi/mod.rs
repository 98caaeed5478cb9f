//! MPI semantics: operations, matching, the eager/rendezvous protocol, collective schedules and
//! communicators other than MPI_COMM_WORLD.

pub mod collectives;
pub mod group;
pub mod kind;
pub mod op;
