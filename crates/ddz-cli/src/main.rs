//! The `ddz` command.
fn main() {}
