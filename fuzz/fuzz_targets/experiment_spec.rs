//! Experiment (sweep) spec files, resolved and planned against the example experiment's project.
//! Entry point: `hase_tests::fuzz::experiment_spec`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| hase_tests::fuzz::experiment_spec(data));
