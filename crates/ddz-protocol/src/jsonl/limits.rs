//! The protocol's name and the limits of what is served.

/// The protocol's name, sent in every request and in the hello reply.
pub const PROTOCOL: &str = "ddz-jsonl/1";

/// The longest request line served, in bytes (1 MiB, the newline not counted). Longer lines
/// are answered with an error without being parsed.
pub const MAX_LINE: usize = 1 << 20;
