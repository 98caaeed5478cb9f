//! End-to-end tests across the crates: the example projects (committed files equal their definitions,
//! golden trace fingerprints, byte-identical reruns), closed-form oracles for the network and the
//! collectives, the thesis demonstration, the two abstraction levels, and error reports.

mod examples;
mod levels;
mod oracles;
mod failures;
