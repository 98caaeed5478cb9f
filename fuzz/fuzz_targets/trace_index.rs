//! A `.idx` time index: read, written and read back. Entry point: `hase_tests::fuzz::trace_index`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| hase_tests::fuzz::trace_index(data));
