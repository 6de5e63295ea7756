//! Fuzz target `rules_file`: [`ddz_fuzz::rules_file`] on every input.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| ddz_fuzz::rules_file(data));
