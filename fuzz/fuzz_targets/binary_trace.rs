//! A compact binary trace. Entry point: `hase_tests::fuzz::binary_trace`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| hase_tests::fuzz::binary_trace(data));
