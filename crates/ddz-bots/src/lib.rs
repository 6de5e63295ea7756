//! # ddz-bots
//!
//! Robots for Dou Dizhu. A robot implements [`Bot`]: it bids and plays from a seat's view
//! ([`ddz_game::SeatView`]) only, is seeded from (game seed, seat) and is deterministic, and
//! always chooses among the moves it is allowed (a controller's narrower rules may pass fewer
//! than the rules allow).
//!
//! The robots ([`BOT_NAMES`], built by name with [`make_bot`]): the baselines `random` (a
//! uniformly random legal action) and `greedy` (the smallest legal play), and the seed
//! documents' robots: `value` (the blog's hand-value robot, [`ValueBot`]) and `ddzlib` (the
//! ddzlib split-and-ladder robot, [`ddzlib::DdzlibBot`]); and `search` ([`search::SearchBot`]),
//! a Monte Carlo search over sampled hidden hands with `ddzlib` playouts, which takes options
//! (`search:iters=2000`, `search:time=100ms:threads=2`).
//!
//! Hand analysis: [`ddzlib::split`] and [`ddzlib::hand_count`] (拆牌, 手数), the blog's hand
//! value [`blog::Valuer`] (SumValue, NeedRound), and the exact [`best_split::best_split`];
//! [`analysis`] holds what they share (the value table, reading wild cards). See
//! docs/robots.md for how each works and where it differs from the original.
//!
//! [`solver`] solves open-hand positions (明牌残局, every hand known) exactly: who wins with
//! best play, every winning move and a principal line, for three seats and two-seat duels.
//!
//! A robot spec (`search:iters=2000`) is parsed once into a [`BotSpec`] that builds robots
//! for any seed; robots defined elsewhere (external programs, in `ddz-protocol`) join through
//! a [`Registry`]. The decision loop is written once: [`decide`] shows the robot in the seat
//! to act its view and the legal actions, [`take_turn`] applies its action, [`drive`] plays a
//! game to the end with an [`Observer`]. [`hint`] ranks hints for every surface. Wire formats
//! (`ddz-jsonl/1`, Botzone, external programs) live in the `ddz-protocol` crate.
//!
//! ```
//! use ddz_bots::{make_bot, play_game};
//! use ddz_core::Rules;
//!
//! let mut bots = [make_bot("greedy", 1).unwrap(), make_bot("random", 2).unwrap(),
//!                 make_bot("random", 3).unwrap()];
//! let game = play_game(&Rules::classic(), 7, &mut bots).unwrap();
//! assert!(game.result().is_some());
//! ```

pub mod analysis;
mod baseline;
pub mod best_split;
pub mod blog;
pub mod ddzlib;
mod drive;
pub mod hint;
pub mod search;
pub mod solver;
mod spec;
mod value_bot;

use core::fmt;

use ddz_core::Move;
use ddz_game::{Action, Actions, Bid, SeatView, derive_seed};

pub use baseline::{Greedy, RandomBot};
pub use drive::{NoObserver, Observer, TurnError, decide, drive, play_game, take_turn};
pub use spec::{BotFactory, BotSpec, Registry};
pub use value_bot::ValueBot;

/// A robot: bids and plays from one seat's view.
pub trait Bot {
    /// The robot's name as written in robot lists (`random`, `greedy`).
    fn name(&self) -> &str;

    /// A bid for the seat of `view`, one of `allowed` ([`SeatView::legal_bids`]).
    fn bid(&mut self, view: &SeatView, allowed: &[Bid]) -> Bid;

    /// A play for the seat of `view`, one of `allowed` (never empty).
    fn play(&mut self, view: &SeatView, allowed: &[Move]) -> Move;

    /// One decision: a bid or a play among `actions` ([`ddz_game::Game::legal_actions`]);
    /// `None` when there is nothing to decide (the game is over).
    fn act(&mut self, view: &SeatView, actions: &Actions) -> Option<Action> {
        match actions {
            Actions::Bids(allowed) => Some(Action::Bid(self.bid(view, allowed))),
            Actions::Moves(allowed) => Some(Action::Play(self.play(view, allowed))),
            Actions::None => None,
        }
    }

    /// Why the robot failed, if it did: a robot that can fail (an external program) reports
    /// why; the controller forfeits the game. A failed robot still answers every decision
    /// with an allowed action (the trait stays infallible), so check after each one.
    fn failure(&self) -> Option<String> {
        None
    }
}

/// The play that needs no thought: a pass when nothing is allowed, the only allowed move, or
/// a play of the whole hand (it wins at once).
pub fn obvious_play(hand: ddz_core::Cards, allowed: &[Move]) -> Option<Move> {
    match allowed {
        [] => Some(Move::PASS),
        [only] => Some(*only),
        _ => allowed
            .iter()
            .find(|m| !m.is_pass() && m.cards() == hand)
            .copied(),
    }
}

/// An unknown robot name or option, or a robot that could not be started.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BotError(pub String);

impl fmt::Display for BotError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for BotError {}

/// The robots [`make_bot`] knows.
pub const BOT_NAMES: [&str; 5] = ["random", "greedy", "value", "ddzlib", "search"];

/// A robot from its spec `name[:key=value]...` and a seed: [`BotSpec::parse`] then
/// [`BotSpec::build`]. Parse once with [`BotSpec`] when building many robots.
pub fn make_bot(spec: &str, seed: u64) -> Result<Box<dyn Bot>, BotError> {
    BotSpec::parse(spec)?.build(seed)
}

/// The seed of the robot in `seat` for a game of `game_seed`.
pub fn bot_seed(game_seed: u64, seat: ddz_game::Seat) -> u64 {
    derive_seed(game_seed, 0xB07 + seat.index() as u64)
}
