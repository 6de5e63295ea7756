//! Fuzz target `moves`: [`ddz_fuzz::moves`] on every input.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| ddz_fuzz::moves(data));
