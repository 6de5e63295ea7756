//! Fuzz target `jsonl`: [`ddz_fuzz::jsonl`] on every input.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| ddz_fuzz::jsonl(data));
