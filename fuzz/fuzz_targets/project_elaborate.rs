//! A project file (RON) through validation and elaboration. Entry point: `hase_tests::fuzz::project_elaborate`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| hase_tests::fuzz::project_elaborate(data));
