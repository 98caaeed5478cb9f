//! A SimGrid time-independent trace, in both dialects and the automatic choice. Entry point: `hase_tests::fuzz::ti_trace`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| hase_tests::fuzz::ti_trace(data));
