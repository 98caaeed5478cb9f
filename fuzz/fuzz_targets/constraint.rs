//! A sweep constraint expression. Entry point: `hase_tests::fuzz::constraint`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| hase_tests::fuzz::constraint(data));
