//! A project file (RON): read, saved and read back, validated. Entry point: `hase_tests::fuzz::project_ron`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| hase_tests::fuzz::project_ron(data));
