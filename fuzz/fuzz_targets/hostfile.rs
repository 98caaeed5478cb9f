//! A hostfile. Entry point: `hase_tests::fuzz::hostfile`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| hase_tests::fuzz::hostfile(data));
