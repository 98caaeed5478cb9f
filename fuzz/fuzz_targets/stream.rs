//! An instruction stream: read, checked, printed and read back. Entry point: `hase_tests::fuzz::stream`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| hase_tests::fuzz::stream(data));
