//! End-to-end tests across the crates: the example projects (committed files equal their definitions,
//! golden trace fingerprints, byte-identical reruns), closed-form oracles for the network and the
//! collectives, the thesis demonstration, the two abstraction levels, error reports, sweeps
//! checked against a closed form, and the measure → fit → record → predict loop against the real
//! Open MPI.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    reason = "test code: an unwrap that fails is a failed test with its message, which is what we want"
)]

mod architecture;
mod code_shape;
mod critical_path;
mod examples;
mod expected;
mod experiments;
mod exports;
mod failures;
mod fuzz_corpus;
mod levels;
mod mpi;
mod new_collectives;
mod oracles;
mod placement;
