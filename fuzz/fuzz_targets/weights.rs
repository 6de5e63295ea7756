//! Fuzz target `weights`: [`ddz_fuzz::weights`] on every input.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| ddz_fuzz::weights(data));
