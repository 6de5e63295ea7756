//! The randomness of rooms: deal seeds and seat tokens, drawn from the operating system's
//! generator (`getrandom`, through [`rand::rngs::SysRng`]).
//!
//! Seat tokens are checked, and saved at shutdown, as their SHA-256 ([`token_hash`]): a
//! database that leaks does not let anyone into a seat.
//!
//! Every game of a room is dealt from a fresh 64-bit seed drawn here, not derived from the
//! game before: the seed a game reveals with its record says nothing about the next deal.

use rand::TryRng;
use rand::rngs::SysRng;

/// 64 bits from the operating system's generator (from `rand`'s thread generator, itself
/// seeded by the operating system, in the unlikely case the system call fails).
pub fn fresh_seed() -> u64 {
    SysRng.try_next_u64().unwrap_or_else(|_| rand::random())
}

/// 128 bits from the operating system's generator, as 32 hex digits (seat tokens and room
/// ids).
pub(crate) fn random_token() -> String {
    let high = u128::from(fresh_seed());
    let low = u128::from(fresh_seed());
    format!("{:032x}", high << 64 | low)
}

/// A seat token's SHA-256, as 64 hex digits: what a join is checked against and what is
/// saved (a token is 128 random bits, so no salt is needed).
pub fn token_hash(token: &str) -> String {
    use sha2::Digest;
    sha2::Sha256::digest(token.as_bytes())
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// What the public list of games shows for a room: the first 16 hex digits of its id's
/// SHA-256. The games of one room share it, and it does not let anyone watch the room (a
/// room's id does, while it is open: issue 50).
pub fn room_label(room: &str) -> String {
    token_hash(room)[..16].to_string()
}
