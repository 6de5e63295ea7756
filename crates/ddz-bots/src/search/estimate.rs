//! The search's estimate of a seat's chance of winning after each of several plays, for game
//! analysis (`ddz analyse`): every play scored on the same samples (no halving), so that the
//! difference between two plays is not noise from two sample sets; and the same for the
//! decisions before the play (bids, doubling, showing: [`decision_chances`]).

use super::bidding::{Seats, finish};
use super::playout::*;
use super::robot::SearchBot;
use super::sample::*;
use super::schedule::*;
use super::tempering::*;
use super::tuning::*;
use crate::ddzlib::DdzlibBot;
use crate::drive::take_turn;
use crate::net::features::Position;
use ddz_core::{Cards, Move, Rank, Rules};
use ddz_game::{
    Action, Budget, DealLine, Game, Phase, Seat, SeatView, Side, below, derive_seed, rng, shuffle,
};
use std::time::Instant;

/// The search's estimates at one play decision: the plays scored and the chance of winning
/// after each, for the seat's side.
#[derive(Clone, Debug, PartialEq)]
pub struct Estimates {
    /// The plays scored: the search's candidates, then any play asked for that is not one.
    pub moves: Vec<Move>,
    /// The chance of winning after each of `moves` (0 to 1), by the weighted playouts.
    pub chances: Vec<f64>,
    /// The samples every play was scored on.
    pub samples: u32,
}

impl Estimates {
    /// The index of the best play (the highest chance; the first of equals).
    pub fn best(&self) -> usize {
        best_chance(&self.chances)
    }

    /// The chance after `play`, when it was scored.
    pub fn chance_of(&self, play: &Move) -> Option<f64> {
        let i = self.moves.iter().position(|m| m == play)?;
        Some(self.chances[i])
    }
}

impl SearchBot {
    /// The chance of winning after each of the search's candidates and each play of `also`
    /// (the play made, in analysis), for the seat of `view` with the plays `allowed`: every
    /// play scored on the same samples of the hidden hands, drawn from `seed` and weighted by
    /// the inference from the public history (as the robot's own decision weighs them), played
    /// out by the `ddzlib` policy or solved when small. `budget`: samples per play (`Count`)
    /// or a time for the whole estimate (`Time`, at least one batch of samples). `None`
    /// before the landlord is known or when no sample fits the view.
    pub fn estimate(
        &mut self,
        view: &SeatView,
        allowed: &[Move],
        also: &[Move],
        budget: Budget,
        seed: u64,
    ) -> Option<Estimates> {
        let landlord = view.landlord()?;
        let mut net_scores = Vec::new();
        if let (Some(ensemble), Some(pos)) = (self.net.as_mut(), Position::of_view(view)) {
            ensemble.scores(&pos, view.rules(), allowed, &mut net_scores);
        }
        let mut moves = self.candidates(view, allowed, &net_scores);
        for m in also {
            if !moves.contains(m) {
                moves.push(*m);
            }
        }
        let p = Decision::of(view, landlord, self.config.infer_bids);
        let config = self.config;
        let mut players: Vec<Players> = (0..config.threads.clamp(1, BATCH as usize))
            .map(|_| Players::new(None))
            .collect();
        let tempering = Tempering::of(&p, config, seed, &mut players[0]);
        let alive: Vec<usize> = (0..moves.len()).collect();
        let mut totals = vec![0f64; moves.len()];
        let mut weight = 0f64;
        let start = Instant::now();
        let mut sample = 0u32;
        loop {
            let batch = Batch {
                alive: &alive,
                from: sample,
                tempering,
                by_net: false,
                deadline: None,
            };
            let (rows, _) = run_batch(&p, &moves, &batch, config, seed, &mut players);
            for row in rows {
                weight += row.weight;
                for (total, worth) in totals.iter_mut().zip(&row.worth) {
                    *total += row.weight * worth;
                }
            }
            sample += BATCH;
            let done = match budget {
                Budget::Count(n) => u64::from(sample) >= n,
                Budget::Time(limit) => start.elapsed() >= limit,
            };
            if done {
                break;
            }
        }
        if weight <= 0.0 {
            return None;
        }
        let chances = totals
            .iter()
            .map(|t| ((t / weight + 1.0) / 2.0).clamp(0.0, 1.0))
            .collect();
        Some(Estimates {
            moves,
            chances,
            samples: sample,
        })
    }
}

/// The index of the highest of `chances` (the first of equals; 0 when there are none).
pub fn best_chance(chances: &[f64]) -> usize {
    let mut best = 0;
    for (i, &c) in chances.iter().enumerate() {
        if c > chances[best] {
            best = i;
        }
    }
    best
}

/// The chance of winning of `seat` after each of `options`, a decision before the play
/// (a bid, a doubling factor, a show decision) in the game `game` reached from the deal by
/// `before` (every action so far, in order): over `samples` deals of the cards the seat cannot
/// see (the other seats' hands not shown and, before the landlord takes it, the kitty; the
/// wild ranks not revealed yet drawn anew), each option taken, the rest of the decisions
/// before the play made by `ddzlib` robots, then the play played out by them as the search's
/// playouts do. A bidding round that everyone passes (a redeal) counts as an even game.
/// `rules` are the game's rules as dealt (a record's); the samples are drawn from `seed`.
/// `None` after a redeal (the deal no longer follows the seed's first) or when no sample
/// replays.
pub fn decision_chances(
    game: &Game,
    rules: &Rules,
    before: &[(Seat, Action)],
    seat: Seat,
    options: &[Action],
    samples: u64,
    seed: u64,
) -> Option<Vec<f64>> {
    if game.redeals() > 0 || options.is_empty() {
        return None;
    }
    let deal = game.deal();
    let hands = deal.hands.0.map(|h| h.to_cards());
    let kitty = deal.kitty.to_cards();
    let landlord = game.landlord();
    // The slots whose cards the seat cannot see, and their sizes.
    let hidden_seat = |s: Seat| s != seat && game.shown_hand(s).is_none();
    let mut pool: Vec<Rank> = Vec::new();
    for s in Seat::ALL.into_iter().filter(|&s| hidden_seat(s)) {
        pool.extend(hands[s.index()].iter());
    }
    let kitty_hidden = landlord.is_none();
    if kitty_hidden {
        pool.extend(kitty.iter());
    }
    let revealed = game.laizi();
    let mut seats = Seats::with_memo(1024);
    let mut robots: [DdzlibBot; 3] = std::array::from_fn(|_| DdzlibBot::with_memo(256));
    let mut wins = vec![0f64; options.len()];
    let mut replayed = 0u64;
    for n in 0..samples {
        let mut sample_rng = rng(derive_seed(seed, n));
        let mut cards = pool.clone();
        shuffle(&mut sample_rng, &mut cards);
        let mut next = cards.into_iter();
        let mut take = |want: u32| -> Cards {
            let mut c = Cards::EMPTY;
            for _ in 0..want {
                if let Some(r) = next.next() {
                    c = c.add(r, 1);
                }
            }
            c
        };
        let mut sampled = hands;
        for s in Seat::ALL.into_iter().filter(|&s| hidden_seat(s)) {
            sampled[s.index()] = take(hands[s.index()].len());
        }
        let sampled_kitty = if kitty_hidden { take(3) } else { kitty };
        // The wild ranks: those revealed kept, the others drawn anew.
        let mut laizi: Vec<Rank> = deal
            .laizi
            .iter()
            .copied()
            .filter(|r| revealed.contains(*r))
            .collect();
        while laizi.len() < deal.laizi.len() {
            let r = Rank::ALL[below(&mut sample_rng, 13) as usize];
            if !laizi.contains(&r) {
                laizi.push(r);
            }
        }
        let line = DealLine {
            landlord: sampled[0].union(sampled_kitty).to_string(),
            landlord_down: sampled[1].to_string(),
            landlord_up: sampled[2].to_string(),
            kitty: sampled_kitty.to_string(),
            laizi: (!laizi.is_empty())
                .then(|| laizi.iter().map(|r| r.letter().to_string()).collect()),
        };
        let Ok(sampled_deal) = line.to_deal(rules) else {
            continue;
        };
        let mut start = Game::with_deal(rules, game.seed(), sampled_deal);
        if before
            .iter()
            .any(|&(s, action)| start.act(s, action).is_err())
        {
            continue;
        }
        replayed += 1;
        for (option, won) in options.iter().zip(wins.iter_mut()) {
            let mut g = start.clone();
            if g.act(seat, *option).is_err() {
                continue;
            }
            *won += finish_game(&mut g, seat, &mut robots, &mut seats);
        }
    }
    (replayed > 0).then(|| wins.iter().map(|w| w / replayed as f64).collect())
}

/// Plays `game` to the end from a decision before the play: `ddzlib` robots make the rest of
/// those decisions, then the play is played out as the search's playouts play it. Returns
/// 1 when the side of `me` wins, 0 when it loses, 0.5 for a redeal.
fn finish_game(game: &mut Game, me: Seat, robots: &mut [DdzlibBot; 3], seats: &mut Seats) -> f64 {
    while !matches!(game.phase(), Phase::Playing | Phase::Over) {
        let bot = &mut robots[game.turn().index()];
        if take_turn(game, bot).is_err() {
            return 0.5;
        }
        if game.redeals() > 0 {
            return 0.5;
        }
    }
    let Some(landlord) = game.landlord() else {
        return 0.5;
    };
    let landlord_won = match game.result() {
        Some(result) => result.winner == Side::Landlord,
        None => {
            let mut state = *game.play_state();
            finish(&mut state, &game.rules(), landlord, seats)
        }
    };
    if (me == landlord) == landlord_won {
        1.0
    } else {
        0.0
    }
}
