//! Fuzz target `cards`: [`ddz_fuzz::cards`] on every input.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| ddz_fuzz::cards(data));
