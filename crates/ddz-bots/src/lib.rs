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
//! [`protocol`] puts any robot behind the stdio protocol `ddz-jsonl/1` (docs/protocol.md), and
//! [`botzone`] behind Botzone's FightTheLandlord and FightTheLandlord2 input format.
//! [`external`] is the other side: a robot played by an external program speaking
//! `ddz-jsonl/1` ([`make_bot_with`]).
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
pub mod botzone;
pub mod ddzlib;
pub mod external;
pub mod protocol;
pub mod search;
pub mod solver;
mod value_bot;

use core::fmt;

use ddz_core::{Bidding, Move};
use ddz_game::{ActionError, Bid, Game, Phase, SeatView, derive_seed};

pub use baseline::{Greedy, RandomBot};
pub use value_bot::ValueBot;

/// A robot: bids and plays from one seat's view.
pub trait Bot {
    /// The robot's name as written in robot lists (`random`, `greedy`).
    fn name(&self) -> &str;

    /// A bid for the seat of `view`, one of `allowed` (see [`legal_bids`]).
    fn bid(&mut self, view: &SeatView, allowed: &[Bid]) -> Bid;

    /// A play for the seat of `view`, one of `allowed` (never empty).
    fn play(&mut self, view: &SeatView, allowed: &[Move]) -> Move;

    /// Why the robot failed, if it did: a robot that can fail (an external program) reports
    /// why; the controller forfeits the game. A failed robot still answers every decision
    /// with an allowed action (the trait stays infallible), so check after each one.
    fn failure(&self) -> Option<String> {
        None
    }
}

/// The bids the seat to act may make: points bidding 0 (pass) and every bid above the current
/// one; call-and-rob 0 (decline) and 1 (call or rob).
pub fn legal_bids(view: &SeatView) -> Vec<Bid> {
    match view.rules.bidding {
        Bidding::Points => {
            let high = view.bids.iter().map(|b| b.1).max().unwrap_or(0);
            std::iter::once(0).chain(high + 1..=3).collect()
        }
        _ => vec![0, 1],
    }
}

/// The play that needs no thought: a pass when nothing is allowed, the only allowed move, or
/// a play of the whole hand (it wins at once).
pub fn obvious_play(view: &SeatView, allowed: &[Move]) -> Option<Move> {
    match allowed {
        [] => Some(Move::PASS),
        [only] => Some(*only),
        _ => allowed
            .iter()
            .find(|m| !m.is_pass() && m.cards() == view.hand)
            .copied(),
    }
}

/// An unknown robot name or option.
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

/// A robot from its spec `name[:key=value]...` and a seed. Only `search` takes options
/// ([`search::SearchConfig::parse`]); an option to another robot is an error naming it.
pub fn make_bot(spec: &str, seed: u64) -> Result<Box<dyn Bot>, BotError> {
    let mut parts = spec.split(':');
    let name = parts.next().unwrap_or_default().trim();
    if name == "search" {
        let config = search::SearchConfig::parse(parts)?;
        return Ok(Box::new(search::SearchBot::new(config, seed)));
    }
    if let Some(option) = parts.next() {
        return Err(BotError(format!(
            "robot \"{name}\" takes no option (got \"{option}\")"
        )));
    }
    match name {
        "random" => Ok(Box::new(RandomBot::new(seed))),
        "greedy" => Ok(Box::new(Greedy)),
        "value" => Ok(Box::new(ValueBot::new())),
        "ddzlib" => Ok(Box::new(ddzlib::DdzlibBot::new())),
        _ => Err(BotError(format!(
            "unknown robot \"{name}\" (robots: {})",
            BOT_NAMES.join(", ")
        ))),
    }
}

/// A robot from its spec `name[:key=value]...` and a seed, among the built-in robots
/// ([`make_bot`]) and the external robots of `externals` (which take no options; each one
/// starts its program: see [`external::ExternalBot`]). An unknown name lists both.
pub fn make_bot_with(
    spec: &str,
    seed: u64,
    externals: &external::Externals,
) -> Result<Box<dyn Bot>, BotError> {
    let mut parts = spec.split(':');
    let name = parts.next().unwrap_or_default().trim();
    let Some(ext) = externals.get(name) else {
        return make_bot(spec, seed).map_err(|e| with_externals(e, name, externals));
    };
    if let Some(option) = parts.next() {
        return Err(BotError(format!(
            "external robot \"{name}\" takes no option (got \"{option}\")"
        )));
    }
    Ok(Box::new(external::ExternalBot::spawn(name, ext)?))
}

/// An unknown-robot error listing the external robots too.
fn with_externals(e: BotError, name: &str, externals: &external::Externals) -> BotError {
    if externals.is_empty() || BOT_NAMES.contains(&name) {
        return e;
    }
    let names: Vec<&str> = externals.names().collect();
    BotError(format!(
        "unknown robot \"{name}\" (robots: {}; external robots: {})",
        BOT_NAMES.join(", "),
        names.join(", ")
    ))
}

/// The seed of the robot in `seat` for a game of `game_seed`.
pub fn bot_seed(game_seed: u64, seat: ddz_game::Seat) -> u64 {
    derive_seed(game_seed, 0xB07 + seat.index() as u64)
}

/// Plays a whole game of `seed` with `bots[i]` in seat `i`, each seeing only its view.
pub fn play_game(
    rules: &ddz_core::Rules,
    seed: u64,
    bots: &mut [Box<dyn Bot>; 3],
) -> Result<Game, ActionError> {
    let mut game = Game::new(rules, seed);
    while game.phase() != Phase::Over {
        let seat = game.turn();
        let view = game.view(seat);
        let bot = &mut bots[seat.index()];
        match game.phase() {
            Phase::Bidding => {
                let bid = bot.bid(&view, &legal_bids(&view));
                game.bid(seat, bid)?;
            }
            _ => {
                let allowed = game.legal_moves();
                let play = bot.play(&view, &allowed);
                game.play(seat, play)?;
            }
        }
    }
    Ok(game)
}
