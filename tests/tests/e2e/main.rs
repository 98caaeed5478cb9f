//! End-to-end tests across the crates: the example projects (committed files equal their definitions,
//! golden trace fingerprints, byte-identical reruns), closed-form oracles for the network and the
//! collectives, the thesis demonstration, the two abstraction levels, error reports, and the
//! measure → fit → record → predict loop against the real Open MPI.

// Test code: an unwrap that fails is a failed test with its message, which is what we want.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod architecture;
mod examples;
mod failures;
mod levels;
mod mpi;
mod oracles;
