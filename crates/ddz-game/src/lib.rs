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

mod action;
mod action_text;
mod auction;
mod budget;
mod deal;
mod error;
mod game;
mod no_shuffle;
mod perft;
mod play_state;
mod record;
mod scoring;
mod seat;
mod show;
mod shuffle;
mod sitting;
mod table_deal;
mod table_game;
mod table_record;
mod trick;
mod turn_view;
mod view;

pub use action::{Action, Actions, Bid, Phase, legal_bids};
pub use auction::{Auction, AuctionStep};
pub use budget::Budget;
pub use deal::{Deal, DealError, DealLine, NoShuffleDeal, deal_no_shuffle, laizi_set};
pub use error::ActionError;
pub use game::Game;
pub use no_shuffle::{SplitMix64, count_bombs, gather_pile};
pub use perft::{
    GamesBench, bench_games, bench_playouts, bench_table_games, deal_rules, perft, perft_deal,
    perft_from, perft_table, perft_with_progress, table_start,
};
pub use play_state::{PlayState, PlayStateOf, PlayUndo, handicap_cards};
pub use record::{
    GameRecord, MAX_REDEALS, RECORD_FORMAT, RECORD_FORMAT_2, ReplayError, ReplayStep, Step,
};
pub use scoring::{
    GameResult, Side, Stake, bomb_factor, pair_multipliers, pair_scores, side_scores,
};
pub use seat::{BySeat, Role, Seat};
pub use show::{Show, ShowWindow};
pub use shuffle::{below, derive_seed, rng, shuffle};
pub use sitting::{
    Ending, ResumeError, SITTING_FORMAT, SavedAction, SavedSitting, Sitting, SittingEvent,
};
pub use table_deal::{TableDeal, TableError};
pub use table_game::TableGame;
pub use table_record::{TABLE_RECORD_FORMAT, TableDealLine, TableRecord};
pub use trick::{Trick, TrickOf};
pub use turn_view::TurnView;
pub use view::{PublicPlay, SeatView};
