//! Robots at two and four seats (docs/variants.md): `random`, `greedy`, `ddzlib` and a
//! `search` of sampled deals, playing a [`TableGame`].
//!
//! The three-seat robots ([`crate::Bot`]) read a [`ddz_game::SeatView`], which has three
//! seats; at other tables a robot reads the [`TurnView`] of the table
//! ([`TableGame::turn_view`]), so the same choices are made from the same facts:
//! - `random` and `greedy` choose as at three seats;
//! - `ddzlib` walks the same ladders, reading "the other side" whatever its size (no teammate
//!   under `two`, two under `four`);
//! - `search` ([`TableSearch`]) samples the cards it cannot see over the other seats (and,
//!   under `two`, the 9 cards out of play), and plays each of its likeliest moves out to the
//!   end in every sample with `ddzlib` at every seat, taking the move its side wins most with.

use ddz_core::{Cards, Move, Rank, Rules};
use ddz_game::{
    Bid, BySeat, PlayStateOf, Seat, SeatView, TableGame, TrickOf, TurnView, below, rng, shuffle,
};
use rand_chacha::ChaCha8Rng;

use crate::ddzlib::{DdzlibBot, ddzlib_bid};
use crate::{BotError, obvious_play};

/// The robots that play at any table, by name: `random`, `greedy`, `ddzlib` and `search`
/// (options `search:worlds=N:moves=K`).
pub const TABLE_ROBOTS: [&str; 4] = ["random", "greedy", "ddzlib", "search"];

/// A player at a table of `N` seats that is not one of the built-in [`TableBot`]s: an
/// external program over `ddz-jsonl/1` (`ddz_protocol::external::ExternalBot`). It reads the
/// seat's whole view and may fail (a program that exits, is silent or answers wrongly): its
/// [`TablePlayer::failure`] then says why, and the action returned is only a stand-in.
pub trait TablePlayer<const N: usize>: Send {
    /// The player's name.
    fn name(&self) -> &str;
    /// A bid for the seat of `view`, one of `allowed`.
    fn bid(&mut self, view: &SeatView<N>, allowed: &[Bid]) -> Bid;
    /// A play for the seat of `view`, one of `allowed`.
    fn play(&mut self, view: &SeatView<N>, allowed: &[Move]) -> Move;
    /// Why the player failed, once it has.
    fn failure(&self) -> Option<String>;
}

/// A robot at a table of any size.
pub enum TableBot {
    /// Uniformly random bids and plays.
    Random(Box<ChaCha8Rng>),
    /// The smallest play, the lowest non-zero bid (as [`crate::Greedy`]).
    Greedy,
    /// The ddzlib ladders ([`DdzlibBot`]).
    Ddzlib(Box<DdzlibBot>),
    /// Sampled deals played out ([`TableSearch`]).
    Search(Box<TableSearch>),
}

impl TableBot {
    /// The robot of `spec` (a name of [`TABLE_ROBOTS`], `search` with options), seeded by
    /// `seed` where it draws.
    pub fn from_spec(spec: &str, seed: u64) -> Result<TableBot, BotError> {
        let (name, options) = spec.split_once(':').unwrap_or((spec, ""));
        if name != "search" && !options.is_empty() {
            return Err(BotError::TakesNoOption {
                name: name.to_string(),
                option: options.to_string(),
                external: false,
            });
        }
        Ok(match name {
            "random" => TableBot::Random(Box::new(rng(seed))),
            "greedy" => TableBot::Greedy,
            "ddzlib" => TableBot::Ddzlib(Box::new(DdzlibBot::new())),
            "search" => TableBot::Search(Box::new(TableSearch::from_options(options, seed)?)),
            _ => {
                return Err(BotError::UnknownRobot {
                    name: name.to_string(),
                    external: Vec::new(),
                });
            }
        })
    }

    /// The robot's name.
    pub fn name(&self) -> &'static str {
        match self {
            TableBot::Random(_) => "random",
            TableBot::Greedy => "greedy",
            TableBot::Ddzlib(_) => "ddzlib",
            TableBot::Search(_) => "search",
        }
    }

    /// A bid for the seat to bid of `game`, one of `allowed` (never empty): [`TableBot::bid_view`]
    /// on that seat's view.
    pub fn bid<const N: usize>(&mut self, game: &TableGame<N>, allowed: &[Bid]) -> Bid {
        self.bid_view(&game.view(game.turn()), allowed)
    }

    /// A bid for the seat of `view` (a seat to bid, as a game or a protocol request gives
    /// it), one of `allowed` (never empty). `ddzlib` and `search` bid as `ddzlib` does at
    /// three seats ([`ddzlib_bid`]).
    pub fn bid_view<const N: usize>(&mut self, view: &SeatView<N>, allowed: &[Bid]) -> Bid {
        match self {
            TableBot::Random(r) => allowed[below(&mut **r, allowed.len() as u64) as usize],
            TableBot::Greedy => allowed
                .iter()
                .copied()
                .filter(|&b| b > 0)
                .min()
                .unwrap_or(0),
            TableBot::Ddzlib(_) | TableBot::Search(_) => {
                ddzlib_bid(view.hand(), view.rules(), view.bids(), allowed)
            }
        }
    }

    /// A play for the seat of `turn`, one of `allowed` (never empty).
    pub fn play<const N: usize>(&mut self, turn: &TurnView<'_, N>, allowed: &[Move]) -> Move {
        match self {
            TableBot::Random(r) => allowed[below(&mut **r, allowed.len() as u64) as usize],
            TableBot::Greedy => allowed
                .iter()
                .filter(|m| !m.is_pass())
                .min_by_key(|m| (m.main(), m.card_count()))
                .or_else(|| allowed.first())
                .copied()
                .unwrap_or(Move::PASS),
            TableBot::Ddzlib(bot) => bot.choose(turn, allowed),
            TableBot::Search(search) => search.choose(turn, allowed),
        }
    }
}

/// The search robot at any table: determinized Monte Carlo. For each decision it takes the
/// `moves` first distinct allowed entries of the ddzlib ladder (the pass included when
/// following and ddzlib would consider it) and, in each of `worlds` samples of the hidden
/// cards, plays every one of them out to the end with `ddzlib` at every seat; the move whose
/// side wins most often (ties: the ladder's order) is played.
///
/// Partial: a sample deals the unseen cards uniformly over the other seats' counts (and the
/// cards out of play); it does not use the kitty, which the landlord took in sight of all
/// (keeping it in the landlord's samples measured no better), nor what the plays so far say
/// about the hands (weighing samples by ddzlib's likelihood of the plays measured worse under
/// `four`: docs/strength-runs/table-search-samples.md); the three-seat `search` infers both.
pub struct TableSearch {
    worlds: u32,
    moves: usize,
    rng: ChaCha8Rng,
    /// The robot choosing its candidates.
    ladder: DdzlibBot,
    /// The robot at every seat of the playouts.
    playout: DdzlibBot,
    buf: Vec<Move>,
}

impl TableSearch {
    /// Default samples of the hidden cards a decision.
    pub const DEFAULT_WORLDS: u32 = 96;
    /// Default candidate moves a decision.
    pub const DEFAULT_MOVES: usize = 8;

    /// A search with `worlds` samples and `moves` candidates a decision, seeded by `seed`.
    pub fn new(worlds: u32, moves: usize, seed: u64) -> TableSearch {
        TableSearch {
            worlds: worlds.max(1),
            moves: moves.max(1),
            rng: rng(seed),
            ladder: DdzlibBot::new(),
            playout: DdzlibBot::new(),
            buf: Vec::new(),
        }
    }

    /// From spec options `worlds=N:moves=K` (either, in any order, or none).
    fn from_options(options: &str, seed: u64) -> Result<TableSearch, BotError> {
        let (mut worlds, mut moves) = (Self::DEFAULT_WORLDS, Self::DEFAULT_MOVES);
        for option in options.split(':').filter(|o| !o.is_empty()) {
            let (key, value) = option
                .split_once('=')
                .ok_or_else(|| BotError::NotKeyValue(option.to_string()))?;
            let number = value
                .parse::<u32>()
                .ok()
                .filter(|&n| (1..=10_000).contains(&n))
                .ok_or_else(|| BotError::BadValue {
                    key: key.to_string(),
                    value: value.to_string(),
                    expected: "a whole number from 1 to 10000",
                })?;
            match key {
                "worlds" => worlds = number,
                "moves" => moves = number as usize,
                _ => return Err(BotError::UnknownOption(key.to_string())),
            }
        }
        Ok(TableSearch::new(worlds, moves, seed))
    }

    /// The play for the seat of `turn`, one of `allowed`.
    pub fn choose<const N: usize>(&mut self, turn: &TurnView<'_, N>, allowed: &[Move]) -> Move {
        if let Some(m) = obvious_play(turn.hand(), allowed) {
            return m;
        }
        let mut candidates: Vec<Move> = self
            .ladder
            .options(turn, &mut self.buf, self.moves)
            .iter()
            .copied()
            .filter(|m| allowed.contains(m))
            .collect();
        if turn.last().is_some() && !candidates.contains(&Move::PASS) {
            candidates.push(Move::PASS);
        }
        match candidates.as_slice() {
            [] => return self.ladder.choose(turn, allowed),
            [only] => return *only,
            _ => {}
        }
        let Some(landlord) = turn.landlord() else {
            return candidates[0];
        };
        let side = |s: Seat| s == landlord;
        let mine = side(turn.seat());
        let mut wins = vec![0u32; candidates.len()];
        for _ in 0..self.worlds {
            let hands = self.sample(turn);
            for (i, &m) in candidates.iter().enumerate() {
                let mut state =
                    PlayStateOf::with_trick(hands, TrickOf::at(turn.seat(), turn.last()));
                if let Some((seat, cards)) = turn.handicap() {
                    state = state.with_handicap(seat, cards);
                }
                let first_out = self.play_out(state, m, turn.rules(), landlord);
                wins[i] += u32::from(side(first_out) == mine);
            }
        }
        // The first of the most won: the ladder's order breaks ties.
        let best = (0..candidates.len())
            .max_by_key(|&i| (wins[i], core::cmp::Reverse(i)))
            .unwrap_or(0);
        candidates[best]
    }

    /// One sample of every hand: the seat's own, and the cards it has not seen dealt at
    /// random over the other seats as their counts say (the rest out of play).
    fn sample<const N: usize>(&mut self, turn: &TurnView<'_, N>) -> BySeat<Cards, N> {
        let mut seen = turn.hand();
        for (_, &cards) in turn.played().iter() {
            seen = seen.union(cards);
        }
        let mut unseen: Vec<Rank> = turn.rules().deck().minus(seen).iter().collect();
        shuffle(&mut self.rng, &mut unseen);
        let left = turn.cards_left();
        let mut next = 0;
        BySeat::from_fn(|s| {
            if s == turn.seat() {
                return turn.hand();
            }
            let n = (left[s] as usize).min(unseen.len() - next);
            let cards = unseen[next..next + n]
                .iter()
                .fold(Cards::EMPTY, |c, &r| c.add(r, 1));
            next += n;
            cards
        })
    }

    /// Plays `first` then ddzlib at every seat to the end; the seat out first.
    fn play_out<const N: usize>(
        &mut self,
        mut state: PlayStateOf<N>,
        first: Move,
        rules: &Rules,
        landlord: Seat,
    ) -> Seat {
        state.apply_legal(first, rules);
        while !state.is_over() {
            let turn = state.turn_view(rules, landlord);
            let m = self.playout.choose_legal(&turn, &mut self.buf);
            state.apply_legal(m, rules);
        }
        state.first_out().unwrap_or(landlord)
    }
}
