//! A Slurm result file. Entry point: `hase_tests::fuzz::slurm_result`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| hase_tests::fuzz::slurm_result(data));
