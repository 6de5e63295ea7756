//! # ddz-game
//!
//! The Dou Dizhu game engine around [`ddz_core`]'s rules. So far: seats and per-seat maps,
//! portable seeded randomness, and deals (seeded, or read from deal files). Bidding, play,
//! scoring, seat views and records are to come (issue "Game engine").
//!
//! ```
//! use ddz_core::Rules;
//! use ddz_game::Deal;
//!
//! let deal = Deal::from_seed(7, &Rules::classic());
//! assert_eq!(deal.landlord_cards().len(), 20);
//! assert_eq!(deal, Deal::from_seed(7, &Rules::classic()));
//! ```

pub mod deal;
pub mod seat;
pub mod shuffle;

pub use deal::{Deal, DealError, DealLine};
pub use seat::{BySeat, Role, Seat};
pub use shuffle::derive_seed;
