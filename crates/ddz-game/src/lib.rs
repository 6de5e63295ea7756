//! # ddz-game
//!
//! The Dou Dizhu game engine around [`ddz_core`]'s rules: seats and per-seat maps, portable
//! seeded randomness, deals (seeded, or read from deal files), and the game as a state machine
//! (bidding in its three forms, wildcard reveal, play with undo, scoring, per-seat views).
//!
//! ```
//! use ddz_core::Rules;
//! use ddz_game::{Game, Phase, Seat};
//!
//! let mut rules = Rules::classic();
//! rules.bidding = ddz_core::Bidding::Fixed;
//! let mut game = Game::new(&rules, 7);
//! assert_eq!(game.phase(), Phase::Playing);
//! // The landlord (seat 0) leads its lowest single.
//! let lead = game.legal_moves()[0];
//! game.play(Seat::ALL[0], lead).unwrap();
//! assert_eq!(game.turn(), Seat::ALL[1]);
//! game.undo().unwrap();
//! assert_eq!(game.hand(Seat::ALL[0]).len(), 20);
//! ```

pub mod budget;
pub mod deal;
pub mod game;
pub mod no_shuffle;
pub mod perft;
pub mod play_state;
pub mod record;
pub mod seat;
pub mod shuffle;
pub mod sitting;
pub mod view;

pub use budget::Budget;
pub use deal::{Deal, DealError, DealLine};
pub use game::{
    Action, ActionError, Actions, Bid, Game, GameResult, Phase, Show, ShowWindow, Side,
    bomb_factor, legal_bids, side_scores,
};
pub use no_shuffle::{NoShuffleDeal, SplitMix64, count_bombs, deal_no_shuffle, gather_pile};
pub use perft::{GamesBench, PerftPosition, bench_games, perft, perft_deal};
pub use play_state::{PlayState, PlayUndo, Stake, Trick, pair_multipliers, pair_scores};
pub use record::{GameRecord, RECORD_FORMAT, RECORD_FORMAT_2, ReplayError, ReplayStep, Step};
pub use seat::{BySeat, Role, Seat};
pub use shuffle::derive_seed;
pub use sitting::{
    Ending, ResumeError, SITTING_FORMAT, SavedAction, SavedSitting, Sitting, SittingEvent,
};
pub use view::{PublicPlay, SeatView, TurnView};
