//! Fuzz target `botzone`: [`ddz_fuzz::botzone`] on every input.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| ddz_fuzz::botzone(data));
