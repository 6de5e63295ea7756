//! Fuzz target `web`: [`ddz_fuzz::web`] on every input.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| ddz_fuzz::web(data));
