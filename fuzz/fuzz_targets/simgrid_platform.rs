//! A SimGrid platform file. Entry point: `hase_tests::fuzz::simgrid_platform`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| hase_tests::fuzz::simgrid_platform(data));
