//! A data sheet (RON), then every function's time at a few sizes. Entry point: `hase_tests::fuzz::datasheet`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| hase_tests::fuzz::datasheet(data));
