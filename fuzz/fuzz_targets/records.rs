//! Fuzz target `records`: [`ddz_fuzz::records`] on every input.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| ddz_fuzz::records(data));
