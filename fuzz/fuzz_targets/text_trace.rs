//! A text trace: header, records, summary. Entry point: `hase_tests::fuzz::text_trace`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| hase_tests::fuzz::text_trace(data));
