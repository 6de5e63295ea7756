//! Perft (the chess engines' move-path enumeration): the number of move sequences of each
//! length from a position, the standard check of a move generator and its game loop, and a
//! speed measurement. Also random playouts through [`Game`] for `ddz bench games`.
//!
//! The tree: seats play in order 0 → 1 → 2 → 0; seat 0 is the landlord (20 cards) and leads.
//! Each distinct legal move of the seat to play ([`ddz_core::legal_moves`], move identity as in
//! RULES.md section 3) is one edge; when following, the pass is a move too; after a play and
//! two passes the player of that play leads again; a position where a hand is empty has no
//! moves. `perft(0) = 1`; [`perft`] returns `perft(1..=depth)`.
//!
//! At two and four seats (docs/variants.md) the tree is the same with `N` seats: a trick ends
//! after `N - 1` passes, and under `two` a position where the farmer holds its handicap's
//! cards or fewer has no moves ([`perft_table`], [`table_start`]).
//!
//! It works on the play state ([`PlayState`]: rank multisets and the trick; no [`Game`], no
//! record), copied at each node, so that it measures move generation and the play loop:
//!
//! ```
//! use ddz_core::{Cards, Rules};
//! use ddz_game::perft;
//!
//! let rules = Rules::classic();
//! let hands: [Cards; 3] = ["34".parse().unwrap(), "5".parse().unwrap(), "6".parse().unwrap()];
//! // Seat 0 leads 3 or 4; seat 1 beats it with 5 (and is out) or passes; after a pass
//! // seat 2 beats it with 6 or passes.
//! assert_eq!(perft(hands, &rules, 3), [2, 4, 4]);
//! ```

use std::time::Instant;

use ddz_core::{Bidding, Cards, LaiziError, Move, Rules, count_legal_moves, legal_moves_into};

use crate::action::Phase;
use crate::budget::Budget;
use crate::deal::Deal;
use crate::game::Game;
use crate::play_state::{PlayState, PlayStateOf, handicap_cards};
use crate::seat::Seat;
use crate::shuffle::{below, derive_seed, rng};
use crate::table_deal::{TableDeal, TableError};
use crate::table_game::TableGame;
use crate::trick::TrickOf;

/// The rules in force for a deal: `rules` with the deal's wild ranks, or `rules` as they are
/// when the deal has none (so that `--laizi` can supply them).
pub fn deal_rules(deal: &Deal, rules: &Rules) -> Result<Rules, LaiziError> {
    if deal.laizi.is_empty() {
        Ok(rules.clone())
    } else {
        rules.with_laizi(&deal.laizi)
    }
}

/// Leaf counts at depths `1..=depth` from the start of play with `hands` (seat 0, the
/// landlord, leads), at a table of as many seats as there are hands. `rules` must hold the
/// wild ranks in force ([`deal_rules`]).
pub fn perft<const N: usize>(hands: [Cards; N], rules: &Rules, depth: usize) -> Vec<u64> {
    perft_from(&PlayStateOf::new(hands, Seat::ALL[0]), rules, depth)
}

/// Leaf counts at depths `1..=depth` from the start of play of `deal` with seat 0 as the
/// landlord, under `rules` with the deal's wild ranks ([`deal_rules`]).
pub fn perft_deal(deal: &Deal, rules: &Rules, depth: usize) -> Result<Vec<u64>, LaiziError> {
    let rules = deal_rules(deal, rules)?;
    Ok(perft_from(&PlayState::dealt(deal), &rules, depth))
}

/// The start of play of a table deal (docs/variants.md) with seat 0 as the landlord: it holds
/// the kitty and leads. Under the two-seat handicap seat 1, the farmer, is out at
/// [`handicap_cards`]`(0)` (a fixed landlord: no robs).
pub fn table_start<const N: usize>(deal: &TableDeal<N>, rules: &Rules) -> PlayStateOf<N> {
    let landlord = Seat::ALL[0];
    let start = PlayStateOf::with_trick(deal.landlord_hands(landlord), TrickOf::lead(landlord));
    if rules.handicap {
        start.with_handicap(landlord.next_of::<N>(), handicap_cards(0))
    } else {
        start
    }
}

/// Leaf counts at depths `1..=depth` from the start of play of the table deal of `seed`
/// ([`TableDeal::from_seed`], [`table_start`]), at any table.
pub fn perft_table<const N: usize>(
    seed: u64,
    rules: &Rules,
    depth: usize,
) -> Result<Vec<u64>, TableError> {
    let deal = TableDeal::<N>::from_seed(seed, rules)?;
    Ok(perft_from(&table_start(&deal, rules), rules, depth))
}

/// Leaf counts at depths `1..=depth` from any position: element `k - 1` is the number of move
/// sequences of length `k` (positions reached after `k` moves, game-over positions ending
/// their branch).
pub fn perft_from<const N: usize>(pos: &PlayStateOf<N>, rules: &Rules, depth: usize) -> Vec<u64> {
    perft_with_progress(pos, rules, depth, |_, _| {})
}

/// [`perft_from`], calling `progress(done, total)` after each move of the root position (for
/// progress reports on long runs).
pub fn perft_with_progress<const N: usize>(
    pos: &PlayStateOf<N>,
    rules: &Rules,
    depth: usize,
    mut progress: impl FnMut(usize, usize),
) -> Vec<u64> {
    let mut counts = vec![0; depth];
    if depth == 0 || pos.is_over() {
        return counts;
    }
    // One move buffer per ply; the last ply only counts.
    let mut buffers: Vec<Vec<Move>> = (0..depth - 1).map(|_| Vec::with_capacity(256)).collect();
    if depth == 1 {
        counts[0] = count_moves(pos, rules);
        return counts;
    }
    let mut root = Vec::new();
    pos.legal_moves_into(rules, &mut root);
    counts[0] = root.len() as u64;
    for (i, &m) in root.iter().enumerate() {
        let mut child = *pos;
        child.apply_legal(m, rules);
        if !child.is_over() {
            walk(&child, rules, &mut counts[1..], &mut buffers[1..]);
        }
        progress(i + 1, root.len());
    }
    counts
}

/// The number of legal moves of the seat to act in `pos` (not over).
fn count_moves<const N: usize>(pos: &PlayStateOf<N>, rules: &Rules) -> u64 {
    count_legal_moves(pos.hand(pos.turn()), pos.trick().to_beat(), rules) as u64
}

/// Counts the moves of `pos` (not over) into `counts[0]` and recurses into `counts[1..]`.
fn walk<const N: usize>(
    pos: &PlayStateOf<N>,
    rules: &Rules,
    counts: &mut [u64],
    buffers: &mut [Vec<Move>],
) {
    let Some((buf, rest)) = buffers.split_first_mut() else {
        counts[0] += count_moves(pos, rules);
        return;
    };
    legal_moves_into(pos.hand(pos.turn()), pos.trick().to_beat(), rules, buf);
    counts[0] += buf.len() as u64;
    for &m in buf.iter() {
        let mut child = *pos;
        child.apply_legal(m, rules);
        if !child.is_over() {
            walk(&child, rules, &mut counts[1..], rest);
        }
    }
}

/// What [`bench_games`] measured.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GamesBench {
    /// Games played to the end.
    pub games: u64,
    /// Moves made, passes included.
    pub moves: u64,
    /// Wall-clock seconds.
    pub seconds: f64,
}

impl GamesBench {
    /// Games per second.
    pub fn games_per_sec(&self) -> f64 {
        self.games as f64 / self.seconds.max(1e-9)
    }

    /// Moves per second.
    pub fn moves_per_sec(&self) -> f64 {
        self.moves as f64 / self.seconds.max(1e-9)
    }
}

/// Random playouts on one thread: game `i` is [`Game::new`]`(rules, derive_seed(seed, i))`
/// (the deal included in the time) with a fixed landlord — bidding is replaced by
/// [`Bidding::Fixed`] (seat `rules.landlord_seat`, normally 0), so no bids are made — then
/// each turn a uniformly random legal move (passes included) drawn with
/// [`below`]`(rng(seed), n)`, played through [`Game::play`] (which checks it) until a hand is
/// empty.
///
/// The budget counts games: [`Budget::Count`]`(n)` plays `n` games, [`Budget::Time`] plays
/// games until the time has passed (at least one game).
pub fn bench_games(rules: &Rules, budget: Budget, seed: u64) -> GamesBench {
    let mut rules = rules.clone();
    rules.bidding = Bidding::Fixed;
    let mut draw = rng(seed);
    let mut buf: Vec<Move> = Vec::with_capacity(256);
    let timed = timed_games(budget, |i| {
        let mut game = Game::new(&rules, derive_seed(seed, i));
        // With a fixed landlord every wild rank is revealed before the first play.
        let in_force = game.rules();
        let mut moves = 0;
        while game.phase() == Phase::Playing {
            let seat = game.turn();
            let last = game.last().map(|(_, m)| m);
            legal_moves_into(game.hand(seat), last.as_ref(), &in_force, &mut buf);
            let m = buf[below(&mut draw, buf.len() as u64) as usize];
            if let Err(e) = game.play(seat, m) {
                panic!("a generated move was refused: {e}");
            }
            moves += 1;
        }
        Ok::<u64, core::convert::Infallible>(moves)
    });
    match timed {
        Ok(bench) => bench,
        Err(never) => match never {},
    }
}

/// Random playouts of the play phase at any table, on one thread: game `i` starts from the
/// table deal of `derive_seed(seed, i)` ([`table_start`]: seat 0 the landlord, the deal
/// included in the time), then each turn a uniformly random legal move (passes included)
/// drawn with [`below`]`(rng(seed), n)`, checked by [`PlayStateOf::apply`], until the game is
/// over. No [`Game`] is built: this is how `two` and `four` are measured until the game plays
/// them, and, at three seats, the measure to compare them with.
pub fn bench_playouts<const N: usize>(
    rules: &Rules,
    budget: Budget,
    seed: u64,
) -> Result<GamesBench, TableError> {
    let mut draw = rng(seed);
    let mut buf: Vec<Move> = Vec::with_capacity(256);
    timed_games(budget, |i| {
        let deal = TableDeal::<N>::from_seed(derive_seed(seed, i), rules)?;
        let mut state = table_start(&deal, rules);
        let mut moves = 0;
        while !state.is_over() {
            state.legal_moves_into(rules, &mut buf);
            let m = buf[below(&mut draw, buf.len() as u64) as usize];
            if let Err(e) = state.apply(state.turn(), m, rules) {
                panic!("a generated move was refused: {e}");
            }
            moves += 1;
        }
        Ok(moves)
    })
}

/// Random games at a table of two or four seats through [`TableGame`] on one thread, as
/// [`bench_games`] plays them at three: game `i` is [`TableGame::new`]`(rules, derive_seed(seed,
/// i))` with a fixed landlord (seat 0), then each turn a uniformly random legal move drawn with
/// [`below`]`(rng(seed), n)` and checked by [`TableGame::play`], until the game is over.
pub fn bench_table_games<const N: usize>(
    rules: &Rules,
    budget: Budget,
    seed: u64,
) -> Result<GamesBench, TableError> {
    let mut rules = rules.clone();
    rules.bidding = Bidding::Fixed;
    rules.landlord_seat = 0;
    let mut draw = rng(seed);
    let mut buf: Vec<Move> = Vec::with_capacity(512);
    timed_games(budget, |i| {
        let mut game = TableGame::<N>::new(&rules, derive_seed(seed, i))?;
        let mut moves = 0;
        while game.phase() == Phase::Playing {
            let seat = game.turn();
            let last = game.last().map(|(_, m)| m);
            legal_moves_into(game.hand(seat), last.as_ref(), &rules, &mut buf);
            let m = buf[below(&mut draw, buf.len() as u64) as usize];
            if let Err(e) = game.play(seat, m) {
                panic!("a generated move was refused: {e}");
            }
            moves += 1;
        }
        Ok(moves)
    })
}

/// Plays games `0, 1, ...` with `game(i)` (which returns the moves it made) until `budget` is
/// spent, a time budget playing at least one game; the first error stops the run.
fn timed_games<E>(
    budget: Budget,
    mut game: impl FnMut(u64) -> Result<u64, E>,
) -> Result<GamesBench, E> {
    let (mut games, mut moves) = (0u64, 0u64);
    let start = Instant::now();
    let min_games = match budget {
        Budget::Count(_) => 0,
        Budget::Time(_) => 1,
    };
    while games < min_games || !budget.is_spent(games, start.elapsed()) {
        moves += game(games)?;
        games += 1;
    }
    Ok(GamesBench {
        games,
        moves,
        seconds: start.elapsed().as_secs_f64(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hands(text: [&str; 3]) -> [Cards; 3] {
        text.map(|t| t.parse().unwrap())
    }

    #[test]
    fn tiny_trees_by_hand() {
        let rules = Rules::classic();
        // 0 leads 3 or 4 (2); 1 answers 5 (and is out) or passes (4); after a pass 2 plays 6
        // or passes (4).
        assert_eq!(perft(hands(["34", "5", "6"]), &rules, 3), [2, 4, 4]);
        assert_eq!(perft(hands(["34", "5", "6"]), &rules, 0), Vec::<u64>::new());
        // Seat 0 goes out at once: the tree stops.
        assert_eq!(perft(hands(["3", "5", "6"]), &rules, 3), [1, 0, 0]);
        // Lead 33 (out) or 3; 1 beats 3 with 4 or passes.
        assert_eq!(perft(hands(["33", "4", "5"]), &rules, 2), [2, 2]);
    }

    #[test]
    fn two_passes_give_the_lead_back() {
        let rules = Rules::classic();
        let mut p = PlayState::new(hands(["BR3", "4", "5"]), Seat::ALL[0]);
        let rocket = ddz_core::parse_move("BR", &rules, None).unwrap();
        for m in [rocket, Move::PASS, Move::PASS] {
            p.apply_legal(m, &rules);
        }
        assert_eq!(p.turn(), Seat::ALL[0]);
        assert_eq!(p.last(), None);
        // Seat 0 leads its 3 and is out.
        assert_eq!(perft_from(&p, &rules, 2), [1, 0]);
    }

    #[test]
    fn bench_plays_whole_games() {
        let b = bench_games(&Rules::classic(), Budget::Count(20), 3);
        assert_eq!(b.games, 20);
        assert!(b.moves >= 20 * 3);
        let again = bench_games(&Rules::classic(), Budget::Count(20), 3);
        assert_eq!(again.moves, b.moves);
        assert!(
            bench_games(&Rules::tiandi(), Budget::Time(std::time::Duration::ZERO), 1).games >= 1
        );
    }

    #[test]
    fn counts_agree_with_game() {
        // Depth 1 from a seeded deal equals the game's own move list.
        let rules = Rules::laizi();
        let deal = Deal::from_seed(4, &rules);
        let mut fixed = rules.clone();
        fixed.bidding = Bidding::Fixed;
        let game = Game::with_deal(&fixed, 4, deal.clone());
        let n = perft_deal(&deal, &rules, 1).unwrap();
        assert_eq!(n, [game.legal_moves().len() as u64]);
    }
}
