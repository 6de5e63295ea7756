//! Fuzz target `robot_api`: [`ddz_fuzz::robot_api`] on every input.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| ddz_fuzz::robot_api(data));
