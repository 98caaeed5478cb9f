//! An exported experiment. Entry point: `hase_tests::fuzz::experiment_import`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| hase_tests::fuzz::experiment_import(data));
