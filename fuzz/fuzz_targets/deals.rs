//! Fuzz target `deals`: [`ddz_fuzz::deals`] on every input.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| ddz_fuzz::deals(data));
