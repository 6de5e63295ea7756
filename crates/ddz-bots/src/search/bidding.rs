//! Bidding by search: the chance of winning as landlord, estimated over sampled kitties and
//! hidden hands with `ddzlib` playouts, decides the bid.

use std::time::Instant;

use ddz_core::{Bidding, Cards, Move, Rank, Rules};
use ddz_game::{Bid, Budget, BySeat, PlayState, Seat, SeatView, derive_seed};
use ddz_game::{rng, shuffle};

use crate::ddzlib::DdzlibBot;
use crate::solver::{OpenPosition, Solver};

/// Most playouts one bidding estimate takes under a count budget (a bid needs a rough
/// chance, not a play's precision).
const MAX_BID_PLAYOUTS: u64 = 1_000;

/// The chance that the seat of `view` wins if it becomes landlord: over deals of the cards it
/// cannot see (3 to the kitty, which it takes, 17 to each other seat), each played to the end
/// from its lead by `ddzlib` robots in every seat. `budget` is the number of playouts (at
/// most 1,000) or a time; `seed` draws the deals. The wild ranks are those `view.rules`
/// holds (none yet when they are revealed after the bidding). `None` when the view holds
/// more than 20 cards or the deck cannot fill the other hands.
pub fn landlord_chance(view: &SeatView, budget: Budget, seed: u64) -> Option<f64> {
    let rules = &view.rules();
    let me = view.seat();
    let unknown: Vec<Rank> = Cards::FULL_DECK
        .saturating_minus(view.hand())
        .iter()
        .collect();
    let other = (unknown.len().checked_sub(3)? / 2) as u32;
    if view.hand().len() + 3 > 20 || other == 0 {
        return None;
    }
    let deal = |pool: &mut dyn Iterator<Item = Rank>| {
        let mut take = |n: u32| pool.take(n as usize).collect::<Cards>();
        let mut hands = BySeat([Cards::EMPTY; 3]);
        hands[me] = view.hand().union(take(3));
        hands[me.next()] = take(other);
        hands[me.prev()] = take(other);
        hands
    };
    Some(chance_by_playouts(
        rules,
        &unknown,
        deal,
        me,
        me,
        budget.capped(MAX_BID_PLAYOUTS),
        seed,
    ))
}

/// The share of playouts won by the side of `me`: each deals `unknown`, shuffled from `seed`
/// and the playout's number, with `deal` (every seat's hand), and plays from `landlord`'s lead
/// to the end with `ddzlib` robots in every seat. `budget` is a number of playouts or a time
/// (at least one playout either way).
pub(super) fn chance_by_playouts(
    rules: &Rules,
    unknown: &[Rank],
    mut deal: impl FnMut(&mut dyn Iterator<Item = Rank>) -> BySeat<Cards>,
    landlord: Seat,
    me: Seat,
    budget: Budget,
    seed: u64,
) -> f64 {
    let start = Instant::now();
    let mut seats = Seats::with_memo(1024);
    let (mut wins, mut played) = (0u64, 0u64);
    loop {
        // At least one playout, whatever the budget.
        if played > 0 && budget.is_spent(played, start.elapsed()) {
            break;
        }
        let mut pool = unknown.to_vec();
        shuffle(&mut rng(derive_seed(seed, played)), &mut pool);
        let hands = deal(&mut pool.into_iter());
        let mut state = PlayState::new(hands.0, landlord);
        if finish(&mut state, rules, landlord, &mut seats, None, None) == (me == landlord) {
            wins += 1;
        }
        played += 1;
    }
    wins as f64 / played as f64
}

/// Plays `state` to the end with `ddzlib` robots in every seat (`landlord` the landlord),
/// each taking its first choice or, with `soft`, a choice drawn from its ladder
/// ([`DdzlibBot::choose_softly`]); with `endgame`, a position of few enough cards is solved
/// exactly instead (once a playout: past its node budget the playout goes on). Returns true
/// when the landlord wins.
pub(super) fn finish(
    state: &mut PlayState,
    rules: &Rules,
    landlord: Seat,
    seats: &mut Seats,
    mut soft: Option<&mut SoftDraws>,
    mut endgame: Option<&mut Endgame>,
) -> bool {
    loop {
        if let Some(out) = state.first_out() {
            return out == landlord;
        }
        if let Some(end) = endgame.as_deref_mut()
            && let Some(landlord_won) = end.solve(state, rules, landlord)
        {
            return landlord_won;
        }
        let turn = state.turn_view(rules, landlord);
        let Seats { bots, buf } = seats;
        let bot = &mut bots[turn.seat().index()];
        let play = match soft.as_deref_mut() {
            Some(draws) => {
                let unit = draws.unit();
                bot.choose_softly(&turn, buf, draws.temperature, unit)
            }
            None => bot.choose_legal(&turn, buf),
        };
        state.apply_legal(play, rules);
    }
}

/// The robots of a playout, one a seat, and their move buffer.
pub(super) struct Seats {
    pub(super) bots: [DdzlibBot; 3],
    pub(super) buf: Vec<Move>,
}

impl Seats {
    /// Robots whose split memos hold about `hands` hands each.
    pub(super) fn with_memo(hands: usize) -> Seats {
        Seats {
            bots: std::array::from_fn(|_| DdzlibBot::with_memo(hands)),
            buf: Vec::with_capacity(64),
        }
    }
}

/// Exact endgames inside playouts: positions of at most `cards` cards in the three hands are
/// solved by `solver` (the caller sets its node limit and clears it between samples).
pub(super) struct Endgame<'a> {
    pub(super) solver: &'a mut Solver,
    pub(super) cards: u32,
    /// Whether this playout has tried (one solve a playout).
    tried: bool,
    /// Nodes searched so far.
    pub(super) nodes: u64,
}

impl<'a> Endgame<'a> {
    /// Endgames of at most `cards` cards solved by `solver`.
    pub(super) fn new(solver: &'a mut Solver, cards: u32) -> Endgame<'a> {
        Endgame {
            solver,
            cards,
            tried: false,
            nodes: 0,
        }
    }

    /// Readies it for a new playout.
    pub(super) fn reset(&mut self) {
        self.tried = false;
    }

    /// Whether the landlord wins `state` with best play by every seat, once it holds few
    /// enough cards; `None` before that, after this playout's one try, or past the budget.
    fn solve(&mut self, state: &PlayState, rules: &Rules, landlord: Seat) -> Option<bool> {
        let hands = [Seat::ALL[0], Seat::ALL[1], Seat::ALL[2]].map(|s| state.hand(s));
        if self.tried || hands.iter().map(|h| h.len()).sum::<u32>() > self.cards {
            return None;
        }
        self.tried = true;
        let turn = state.trick().turn();
        let position =
            OpenPosition::three(hands, landlord, turn, state.trick().last(), rules).ok()?;
        let won = self.solver.wins(&position);
        self.nodes += self.solver.nodes();
        let mover_wins = won.ok()?;
        Some(mover_wins == (turn == landlord))
    }
}

/// The random draws of a soft playout: its temperature and a SplitMix64 stream.
#[derive(Clone, Debug)]
pub(super) struct SoftDraws {
    pub(super) temperature: f64,
    state: u64,
}

impl SoftDraws {
    /// Draws at `temperature` from `seed`.
    pub(super) fn new(temperature: f64, seed: u64) -> SoftDraws {
        SoftDraws {
            temperature,
            state: seed,
        }
    }

    /// The next draw, uniform in [0, 1).
    fn unit(&mut self) -> f64 {
        self.state = self.state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^= z >> 31;
        (z >> 11) as f64 / (1u64 << 53) as f64
    }
}

/// The bid for a landlord's chance `chance` among `allowed` under `view`'s bidding, wanting
/// to be landlord from `threshold` on. Points: the highest bid allowed (the stake is worth
/// most when the chance is good), else the pass. Call-and-rob: call from `threshold` on, rob
/// (which doubles the stake) from `threshold` + 0.05.
pub fn bid_for_chance(view: &SeatView, allowed: &[Bid], chance: f64, threshold: f64) -> Bid {
    let pass = if allowed.contains(&0) {
        0
    } else {
        allowed.iter().copied().min().unwrap_or(0)
    };
    let want = match view.rules().bidding {
        Bidding::Points => chance >= threshold,
        _ => {
            let robbing = view.bids().iter().any(|b| b.1 == 1);
            chance >= threshold + if robbing { 0.05 } else { 0.0 }
        }
    };
    if want {
        allowed.iter().copied().max().unwrap_or(pass)
    } else {
        pass
    }
}
