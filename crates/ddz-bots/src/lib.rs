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
//! (`search:iters=2000`, `search:time=100ms:threads=2`); and `net` ([`net::NetBot`]), a
//! network trained by self-play scoring each legal play (`net:weights=FILE`); and the
//! difficulty levels `level:1` to `level:8` for players ([`Level`]).
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
mod levels;
pub mod net;
pub mod review;
pub mod search;
pub mod solver;
mod spec;
pub mod stakes;
pub mod table;
mod value_bot;

use core::fmt;

use ddz_core::Move;
use ddz_game::{Action, Actions, Bid, SeatView, derive_seed};

pub use baseline::{Greedy, RandomBot};
pub use drive::{
    NoObserver, Observer, TurnError, decide, decide_in_view, drive, play_game, take_turn,
};
pub use levels::{LEVELS, Level, level_specs};
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

    /// A doubling factor (加倍, RULES.md section 7) for the seat of `view`, one of `allowed`
    /// (never empty, 1 first). By default 1 (no doubling) when allowed.
    fn double(&mut self, view: &SeatView, allowed: &[u32]) -> u32 {
        let _ = view;
        if allowed.contains(&1) {
            1
        } else {
            allowed.first().copied().unwrap_or(1)
        }
    }

    /// Whether the seat of `view` shows its hand (明牌) now for `factor` (5 before the deal,
    /// 4, 3 or 2 during it with the cards received so far in `view.hand`, 2 for the landlord
    /// after doubling). By default no.
    fn show(&mut self, view: &SeatView, factor: u32) -> bool {
        let _ = (view, factor);
        false
    }

    /// One decision among `actions` ([`ddz_game::Game::legal_actions`]): a show, a doubling
    /// factor, a bid or a play; `None` when there is nothing to decide (the game is over).
    fn act(&mut self, view: &SeatView, actions: &Actions) -> Option<Action> {
        match actions {
            Actions::Bids(allowed) => Some(Action::Bid(self.bid(view, allowed))),
            Actions::Moves(allowed) => Some(Action::Play(self.play(view, allowed))),
            Actions::Show { factor } => Some(Action::Show(self.show(view, *factor))),
            Actions::Double(allowed) => Some(Action::Double(self.double(view, allowed))),
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

/// What is wrong with a robot spec or an external robot's definition, or why a robot could
/// not be started. Each message names the robot and the option.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum BotError {
    /// No robot of that name (`external` lists the external robots defined, if any).
    UnknownRobot {
        /// The name given.
        name: String,
        /// The external robots' names.
        external: Vec<String>,
    },
    /// An option given to a robot that takes none.
    TakesNoOption {
        /// The robot.
        name: String,
        /// The option given.
        option: String,
        /// Whether the robot is an external one.
        external: bool,
    },
    /// A `search` option that is not `key=value`.
    NotKeyValue(String),
    /// A `search` option of an unknown key.
    UnknownOption(String),
    /// A `search` option whose value is not what the key takes.
    BadValue {
        /// The key.
        key: String,
        /// The value given.
        value: String,
        /// What the key takes (`a positive number`, `a duration (500ms, 2s)`).
        expected: &'static str,
    },
    /// An external robot's definition (`NAME=COMMAND`) that is not one.
    Definition {
        /// The definition, or the name it gives.
        definition: String,
        /// What is wrong.
        why: &'static str,
    },
    /// An external robot's name with other characters than letters, digits, `_`, `-`, `.`.
    BadName(String),
    /// An external robot's name that is taken (a built-in robot's, or defined twice).
    NameTaken {
        /// The name.
        name: String,
        /// True when a built-in robot has it, false when it is defined twice.
        builtin: bool,
    },
    /// An external robot's program that could not be started.
    Start {
        /// The robot.
        name: String,
        /// Why.
        why: String,
    },
    /// A `net` option that is not one (unknown, not key=value, or a bad value).
    NetOption {
        /// The option as given.
        option: String,
        /// What is wrong.
        why: String,
    },
    /// A level that is not one of 1 to 8 (`level:9`, `level:x`; empty for `level` alone).
    UnknownLevel(String),
}

impl fmt::Display for BotError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BotError::UnknownRobot { name, external } if external.is_empty() => write!(
                f,
                "unknown robot \"{name}\" (robots: {})",
                BOT_NAMES.join(", ")
            ),
            BotError::UnknownRobot { name, external } => write!(
                f,
                "unknown robot \"{name}\" (robots: {}; external robots: {})",
                BOT_NAMES.join(", "),
                external.join(", ")
            ),
            BotError::TakesNoOption {
                name,
                option,
                external,
            } => {
                let kind = if *external { "external robot" } else { "robot" };
                write!(f, "{kind} \"{name}\" takes no option (got \"{option}\")")
            }
            BotError::NotKeyValue(option) => write!(
                f,
                "search option \"{option}\" is not key=value (time=500ms, iters=2000, threads=2, solve=0)"
            ),
            BotError::UnknownOption(key) => write!(
                f,
                "unknown search option \"{key}\" (options: {})",
                search::SearchConfig::OPTIONS.join(", ")
            ),
            BotError::BadValue {
                key,
                value,
                expected,
            } => write!(f, "search option {key}: \"{value}\" is not {expected}"),
            BotError::Definition { definition, why } => {
                write!(f, "external robot \"{definition}\": {why}")
            }
            BotError::BadName(name) => write!(
                f,
                "external robot name \"{name}\": use letters, digits, '_', '-' and '.' only"
            ),
            BotError::NameTaken {
                name,
                builtin: true,
            } => write!(
                f,
                "external robot name \"{name}\" is a built-in robot's name"
            ),
            BotError::NameTaken {
                name,
                builtin: false,
            } => write!(f, "external robot \"{name}\" is defined twice"),
            BotError::Start { name, why } => write!(f, "external robot \"{name}\": {why}"),
            BotError::UnknownLevel(level) if level.is_empty() => f.write_str(
                "\"level\" needs a number: level:1 (a beginner) to level:8 (the strongest)",
            ),
            BotError::UnknownLevel(level) => write!(
                f,
                "\"level:{level}\" is not a level: level:1 (a beginner) to level:8 (the strongest)"
            ),
            BotError::NetOption { option, why } => write!(f, "net option \"{option}\": {why}"),
        }
    }
}

impl std::error::Error for BotError {}

/// The robots [`make_bot`] knows.
pub const BOT_NAMES: [&str; 6] = ["random", "greedy", "value", "ddzlib", "search", "net"];

/// A robot from its spec `name[:key=value]...` and a seed: [`BotSpec::parse`] then
/// [`BotSpec::build`]. Parse once with [`BotSpec`] when building many robots.
pub fn make_bot(spec: &str, seed: u64) -> Result<Box<dyn Bot>, BotError> {
    BotSpec::parse(spec)?.build(seed)
}

/// The seed of the robot in `seat` for a game of `game_seed`.
pub fn bot_seed(game_seed: u64, seat: ddz_game::Seat) -> u64 {
    derive_seed(game_seed, 0xB07 + seat.index() as u64)
}
