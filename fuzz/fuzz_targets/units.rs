//! The one units parser (times, sizes, rates, flop rates, integers) and every parameter kind's reading of user text. Entry point: `hase_tests::fuzz::units`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| hase_tests::fuzz::units(data));
