//! A raw benchmark CSV. Entry point: `hase_tests::fuzz::raw_csv`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| hase_tests::fuzz::raw_csv(data));
