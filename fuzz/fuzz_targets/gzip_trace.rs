//! A gzip-compressed text trace. Entry point: `hase_tests::fuzz::gzip_trace`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| hase_tests::fuzz::gzip_trace(data));
