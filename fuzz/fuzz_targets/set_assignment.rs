//! A `--set` assignment applied to an example project. Entry point: `hase_tests::fuzz::set_assignment`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| hase_tests::fuzz::set_assignment(data));
