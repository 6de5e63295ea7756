//! The ddzlib robot's play ladders: what a seat leads and what it follows with, in the seed's
//! order of priorities, from its split of the hand ([`Ctx`], one decision).

use core::cmp::Reverse;
use core::ops::ControlFlow;

use ddz_core::{Cards, Kind, Move, Rank, Rules, legal_moves, moves_of_kind, read_as};
use ddz_game::{Seat, TurnView};

use super::hand_count;
use crate::analysis::wild_cards;

/// Where a ladder's entries go, best first: it breaks once the taker has what it needs.
pub(super) type Emit<'e> = dyn FnMut(Move) -> ControlFlow<()> + 'e;

/// Every move of `moves` to `emit`, in order, until it breaks.
fn emit_all(emit: &mut Emit, moves: impl IntoIterator<Item = Move>) -> ControlFlow<()> {
    moves.into_iter().try_for_each(emit)
}
/// True for the rocket and bombs (never led before the other groups, never split).
fn is_bomb(m: &Move) -> bool {
    m.kind().is_bomb_like()
}

/// The most seats a table has (`four`).
const MAX_SEATS: usize = 4;

/// One decision: the seat's view and its split, sorted by the lowest rank of each group.
pub(super) struct Ctx<'a> {
    rules: &'a Rules,
    hand: Cards,
    seat: Seat,
    landlord: Option<Seat>,
    /// The seats at the table: 3, or 2 and 4 (docs/variants.md).
    seats: usize,
    /// Cards left in each hand, for the first `seats` seats.
    cards_left: [u32; MAX_SEATS],
    /// The split, smallest group first (lowest rank, then the seed's kind order).
    groups: &'a [Move],
}

impl<'a> Ctx<'a> {
    pub(super) fn new<const N: usize>(turn: &TurnView<'a, N>, groups: &'a [Move]) -> Ctx<'a> {
        let mut cards_left = [0; MAX_SEATS];
        for (seat, &n) in turn.cards_left().iter() {
            if let Some(left) = cards_left.get_mut(seat.index()) {
                *left = n;
            }
        }
        Ctx {
            rules: turn.rules(),
            hand: turn.hand(),
            seat: turn.seat(),
            landlord: turn.landlord(),
            seats: N.min(MAX_SEATS),
            cards_left,
            groups,
        }
    }

    /// The seat after `seat` in play order.
    fn next(&self, seat: Seat) -> Seat {
        Seat::of::<MAX_SEATS>(((seat.index() + 1) % self.seats) as u8).unwrap_or(seat)
    }

    /// True for the landlord.
    fn is_landlord(&self) -> bool {
        self.landlord == Some(self.seat)
    }

    /// True for the farmer who plays right before the landlord (上家; under `two`, the
    /// farmer).
    fn plays_before_landlord(&self) -> bool {
        !self.is_landlord() && self.landlord == Some(self.next(self.seat))
    }

    /// True if `other` is on the seat's side: another farmer, for a farmer ("the other side"
    /// is everyone else, whatever its size: one farmer of three seats, none of two, two of
    /// four).
    fn is_mate(&self, other: Seat) -> bool {
        self.landlord
            .is_some_and(|l| other != self.seat && other != l && self.seat != l)
    }

    /// True if an opponent holds exactly `n` cards.
    fn enemy_on(&self, n: u32) -> bool {
        Seat::all::<MAX_SEATS>()[..self.seats]
            .iter()
            .filter(|&&s| s != self.seat && !self.is_mate(s))
            .any(|&s| self.cards_left[s.index()] == n)
    }

    /// Cards the landlord holds (`u32::MAX` when unknown).
    fn landlord_left(&self) -> u32 {
        self.landlord
            .map_or(u32::MAX, |l| self.cards_left[l.index()])
    }

    /// Wild cards in a move.
    fn wild_in(&self, m: &Move) -> u32 {
        wild_cards(m.cards(), self.rules).len()
    }

    /// The groups of `kind`, smallest first.
    fn of_kind(&self, kind: Kind) -> impl Iterator<Item = (usize, &Move)> {
        self.groups
            .iter()
            .enumerate()
            .filter(move |(_, g)| g.kind() == kind)
    }

    /// Bombs and the rocket, weakest first (class and rank order; the rocket last).
    fn bombs(&self) -> Vec<Move> {
        let mut bombs: Vec<Move> = self.groups.iter().copied().filter(is_bomb).collect();
        bombs.sort_by_key(|m| {
            (
                m.kind() == Kind::Rocket,
                m.card_count(),
                m.class(),
                m.main(),
            )
        });
        bombs
    }

    /// Bombs and the rocket that beat `last`, weakest first.
    fn bombs_beating(&self, last: &Move) -> Vec<Move> {
        let mut bombs = self.bombs();
        bombs.retain(|b| b.beats(last, self.rules));
        bombs
    }

    /// Moves of `kind` (a kind without kickers) and `len` body ranks with a main rank above
    /// `above` (`None`: any) made from `cards`, fewest wild cards first, then lowest (or
    /// highest, with `top`) main rank.
    fn pieces(
        &self,
        cards: Cards,
        kind: Kind,
        len: u8,
        above: Option<Rank>,
        top: bool,
    ) -> Vec<Move> {
        let mut out = self.unsorted_pieces(cards, kind, len, above);
        out.sort_by_key(|m| self.piece_order(m, top));
        out
    }

    /// The first of [`Ctx::pieces`] (the first of equal keys, as the stable sort leaves it),
    /// without sorting them all.
    fn best_piece(
        &self,
        cards: Cards,
        kind: Kind,
        len: u8,
        above: Option<Rank>,
        top: bool,
    ) -> Option<Move> {
        if let Some(mut natural) = self.natural_pieces(cards, kind, len, above) {
            // One piece a main rank, none with a wild card: the order is the main rank's.
            return if top {
                natural.next_back()
            } else {
                natural.next()
            };
        }
        self.unsorted_pieces(cards, kind, len, above)
            .into_iter()
            .min_by_key(|m| self.piece_order(m, top))
    }

    /// The order of [`Ctx::pieces`]: fewest wild cards first, then the lowest main rank (the
    /// highest with `top`).
    fn piece_order(&self, m: &Move, top: bool) -> (u32, i32) {
        let main = m.main() as i32;
        (self.wild_in(m), if top { -main } else { main })
    }

    /// The pieces of [`Ctx::pieces`] in the generator's order.
    fn unsorted_pieces(&self, cards: Cards, kind: Kind, len: u8, above: Option<Rank>) -> Vec<Move> {
        match self.natural_pieces(cards, kind, len, above) {
            Some(natural) => natural.collect(),
            None => self.generated_pieces(cards, kind, len, above),
        }
    }

    /// The pieces of [`Ctx::unsorted_pieces`], by the move generator.
    fn generated_pieces(
        &self,
        cards: Cards,
        kind: Kind,
        len: u8,
        above: Option<Rank>,
    ) -> Vec<Move> {
        match (kind, above) {
            // Every card as a single (a wild card alone is read as its own rank).
            (Kind::Single, None) => cards
                .ranks()
                .filter_map(|r| read_as(Cards::single(r), Kind::Single, r, self.rules))
                .collect(),
            // Moves beating a play of that shape: the generator makes only that kind and length
            // (asking for one kind of a hand with wild cards makes every move first).
            (_, Some(a)) => match shape_of(kind, len, a) {
                Some(shape) => legal_moves(cards, Some(&shape), self.rules)
                    .into_iter()
                    .filter(|m| m.kind() == kind && m.length() == len)
                    .collect(),
                None => Vec::new(),
            },
            (_, None) => moves_of_kind(cards, kind, self.rules)
                .into_iter()
                .filter(|m| m.length() == len)
                .collect(),
        }
    }

    /// The pieces of [`Ctx::unsorted_pieces`] without generating moves, when `cards` hold no
    /// wild card and `kind` is one whose cards have no other reading (single, pair, bare trio,
    /// straight, pair chain): for each main rank from the lowest, the body topped by it, if the
    /// cards hold it and the rules allow it: the generator's moves, lowest main rank first
    /// (the `natural_pieces_equal_generated` test); `None` where it does not apply.
    fn natural_pieces(
        &self,
        cards: Cards,
        kind: Kind,
        len: u8,
        above: Option<Rank>,
    ) -> Option<impl DoubleEndedIterator<Item = Move> + 'a> {
        let plain = matches!(
            kind,
            Kind::Single | Kind::Pair | Kind::Trio | Kind::Straight | Kind::PairChain
        );
        if !plain || len == 0 || !wild_cards(cards, self.rules).is_empty() {
            return None;
        }
        // Where the table's shape cannot be read, the generator is given nothing to beat.
        let from = match above {
            Some(a) => {
                shape_of(kind, len, a)?;
                a as usize + 1
            }
            None => 0,
        };
        let rules = self.rules;
        let per = kind.shape().per_rank;
        let len = usize::from(len);
        Some(
            (from.max(len - 1)..Rank::ALL.len()).filter_map(move |main| {
                let body =
                    (main + 1 - len..=main).fold(Cards::EMPTY, |acc, i| acc.add(Rank::ALL[i], per));
                if cards.contains(body) {
                    read_as(body, kind, Rank::ALL[main], rules)
                } else {
                    None
                }
            }),
        )
    }

    // ----- Leading -----

    /// The lead, best first, entry by entry to `emit` until it breaks (later entries are not
    /// worked out then).
    pub(super) fn lead(&self, emit: &mut Emit) -> ControlFlow<()> {
        // A farmer whose next seat is the teammate on one card leads its smallest card.
        let next = self.next(self.seat);
        if self.is_mate(next) && self.cards_left[next.index()] == 1 {
            emit_all(
                emit,
                self.best_piece(self.hand, Kind::Single, 1, None, false),
            )?;
        }
        let mut pool: Vec<Move> = self
            .groups
            .iter()
            .copied()
            .filter(|g| !is_bomb(g))
            .collect();
        let avoid_single = self.enemy_on(1);
        let avoid_pair = self.enemy_on(2);
        if avoid_single && pool.iter().any(|g| g.kind() != Kind::Single) {
            pool.retain(|g| g.kind() != Kind::Single);
        }
        if avoid_pair && pool.iter().any(|g| g.kind() != Kind::Pair) {
            pool.retain(|g| g.kind() != Kind::Pair);
        }
        if let Some(&first) = pool.first() {
            let all = |k: Kind| pool.iter().all(|g| g.kind() == k);
            if avoid_single && all(Kind::Single) {
                // Only singles left against a one-card opponent: biggest first.
                emit_all(emit, pool.iter().rev().copied())?;
            } else if avoid_pair && all(Kind::Pair) {
                // Only pairs left against a two-card opponent: split the smallest pair (unless an
                // opponent also holds one card, then the biggest pair first).
                if avoid_single {
                    emit_all(emit, pool.iter().rev().copied())?;
                } else {
                    emit_all(
                        emit,
                        self.best_piece(first.cards(), Kind::Single, 1, None, false),
                    )?;
                }
            } else if matches!(first.kind(), Kind::Single | Kind::Pair)
                && let Some(trio) = self.trio_to_carry()
            {
                // Singles and pairs the trios can carry go out as kickers.
                emit_all(emit, self.lead_group(&trio))?;
            }
            for g in &pool {
                emit_all(emit, self.lead_group(g))?;
            }
        }
        emit_all(emit, self.bombs())
    }

    /// The smallest trio or airplane, when the trios would carry the singles and pairs:
    /// trios (every trio of every airplane counted) > singles + pairs − 2 (the seed's surplus
    /// rule: a single or pair is led alone only while trios ≤ singles + pairs − 2).
    fn trio_to_carry(&self) -> Option<Move> {
        let count = |k: Kind| self.of_kind(k).count() as i64;
        let trios: i64 = self
            .groups
            .iter()
            .filter(|g| matches!(g.kind(), Kind::Trio | Kind::Airplane))
            .map(|g| i64::from(g.length()))
            .sum();
        (trios > 0 && trios > count(Kind::Single) + count(Kind::Pair) - 2)
            .then(|| {
                self.groups
                    .iter()
                    .find(|g| matches!(g.kind(), Kind::Trio | Kind::Airplane))
                    .copied()
            })
            .flatten()
    }

    /// A group as a lead: trios and airplanes with their kickers (best first, bare last),
    /// anything else as it is.
    fn lead_group(&self, g: &Move) -> Vec<Move> {
        match g.kind() {
            Kind::Trio => self.lead_trio(g),
            Kind::Airplane => self.lead_airplane(g),
            _ => vec![*g],
        }
    }

    /// True if 2s and jokers may be kickers of a lead: only two hands are left.
    fn lead_big_kickers(&self) -> bool {
        self.groups.len() == 2
    }

    /// The single groups a lead may carry, smallest first.
    fn lead_single_units(&self) -> Vec<Cards> {
        let big = self.lead_big_kickers();
        self.of_kind(Kind::Single)
            .map(|(_, g)| g.cards())
            .filter(|c| big || !has_big(*c))
            .collect()
    }

    /// The pair groups a lead may carry, smallest first.
    fn lead_pair_units(&self) -> Vec<Cards> {
        let big = self.lead_big_kickers();
        self.of_kind(Kind::Pair)
            .map(|(_, g)| g.cards())
            .filter(|c| big || !has_big(*c))
            .collect()
    }

    /// A trio lead: with the smallest single, else the smallest pair, else bare.
    fn lead_trio(&self, trio: &Move) -> Vec<Move> {
        let mut out = Vec::new();
        out.extend(self.with_kickers(trio, Kind::TrioSingle, &self.lead_single_units(), 1));
        out.extend(self.with_kickers(trio, Kind::TrioPair, &self.lead_pair_units(), 1));
        out.push(*trio);
        out
    }

    /// An airplane lead: with enough singles (topped up with the bottom cards of straights of
    /// 6 or more when some singles exist), else enough pairs (topped up with the bottom pairs
    /// of pair chains of 4 or more), else the airplane shortened from the top to the kickers
    /// there are (one trio: a trio with its kicker), else bare.
    fn lead_airplane(&self, plane: &Move) -> Vec<Move> {
        let n = usize::from(plane.length());
        let mut singles = self.lead_single_units();
        if !singles.is_empty() && singles.len() < n {
            for (_, s) in self.of_kind(Kind::Straight) {
                singles.extend(bottom_units(s.cards(), 1, s.length().saturating_sub(5)));
            }
        }
        let mut pairs = self.lead_pair_units();
        if !pairs.is_empty() && pairs.len() < n {
            for (_, p) in self.of_kind(Kind::PairChain) {
                pairs.extend(bottom_units(p.cards(), 2, p.length().saturating_sub(3)));
            }
        }
        let mut out = Vec::new();
        out.extend(self.with_kickers(plane, Kind::AirplaneSingles, &singles, n));
        out.extend(self.with_kickers(plane, Kind::AirplanePairs, &pairs, n));
        // Not enough of either: drop trios off the top until the kickers suffice.
        let (units, single_kind) = if singles.len() >= pairs.len() {
            (&singles, true)
        } else {
            (&pairs, false)
        };
        let k = units.len().min(n);
        if (1..n).contains(&k) {
            let (body_kind, kind) = match (k, single_kind) {
                (1, true) => (Kind::Trio, Kind::TrioSingle),
                (1, false) => (Kind::Trio, Kind::TrioPair),
                (_, true) => (Kind::Airplane, Kind::AirplaneSingles),
                (_, false) => (Kind::Airplane, Kind::AirplanePairs),
            };
            let top = Rank::ALL[plane.low() as usize + k - 1];
            if let Some(body) = self
                .pieces(plane.cards(), body_kind, k as u8, None, false)
                .into_iter()
                .find(|b| b.main() == top)
            {
                out.extend(self.with_kickers(&body, kind, units, k));
            }
        }
        out.push(*plane);
        out
    }

    /// `body` with the first `n` usable kicker units of `units` as `kind`; a unit is skipped
    /// when it holds a body rank, repeats a rank the rules want distinct, or would make both
    /// jokers kickers where that is not allowed. `None` if there are too few or the result is
    /// no valid play.
    fn with_kickers(&self, body: &Move, kind: Kind, units: &[Cards], n: usize) -> Option<Move> {
        let body_ranks = body.body().rank_mask() | body.cards().rank_mask();
        let distinct = match kind.shape().kickers {
            ddz_core::Kickers::Pairs { .. } => !self.rules.quad_as_two_pairs,
            _ => !self.rules.single_kickers_may_repeat,
        };
        let mut chosen = Cards::EMPTY;
        let mut count = 0;
        for &u in units {
            if count == n {
                break;
            }
            if u.rank_mask() & body_ranks != 0
                || (distinct && u.rank_mask() & chosen.rank_mask() != 0)
                || (!self.rules.rocket_as_kickers && chosen.union(u).contains(Cards::ROCKET))
                || !self.hand.contains(body.cards().union(chosen).union(u))
            {
                continue;
            }
            chosen = chosen.union(u);
            count += 1;
        }
        if count < n {
            return None;
        }
        read_as(body.cards().union(chosen), kind, body.main(), self.rules)
    }

    // ----- Following -----

    /// The answer to `last` played by `by`, best first, a pass where the robot would pass;
    /// entry by entry to `emit` until it breaks (later entries are not worked out then).
    pub(super) fn follow(&self, by: Seat, last: Move, emit: &mut Emit) -> ControlFlow<()> {
        if last.kind() == Kind::Rocket {
            return emit(Move::PASS);
        }
        let from_mate = self.is_mate(by);
        // Against a one-card opponent on a single: the landlord (either farmer on one card)
        // and the farmer playing just before the landlord (landlord on one card) follow with
        // their biggest card.
        let guard = last.kind() == Kind::Single
            && if self.is_landlord() {
                self.enemy_on(1)
            } else {
                self.plays_before_landlord() && self.landlord_left() == 1
            };
        if guard {
            let loose = self.groups.iter().filter(|g| !is_bomb(g));
            let cards = loose.fold(Cards::EMPTY, |acc, g| acc.union(g.cards()));
            let mut singles = self.pieces(cards, Kind::Single, 1, Some(last.main()), true);
            singles.sort_by_key(|m| Reverse(m.main()));
            emit_all(emit, singles)?;
            if !from_mate {
                emit_all(emit, self.bombs_beating(&last))?;
            }
            return emit(Move::PASS);
        }
        let same = self.same_type(&last);
        if from_mate {
            // A teammate's single or pair is followed by a group of the same type below J (any,
            // when the landlord holds 1 or 2 cards); anything else of a teammate's is passed.
            let low = self.landlord_left() <= 2;
            if matches!(last.kind(), Kind::Single | Kind::Pair)
                && let Some(m) = same.first()
                && (low || m.main() < Rank::Jack)
            {
                emit(*m)?;
            }
            return emit(Move::PASS);
        }
        emit_all(emit, same)?;
        // With at most one group besides bombs, bomb now and play it next.
        if self.groups.iter().filter(|g| !is_bomb(g)).count() <= 1 {
            emit_all(emit, self.bombs_beating(&last))?;
        }
        emit_all(emit, self.split_to_beat(&last))?;
        emit_all(emit, self.bombs_beating(&last))?;
        emit(Move::PASS)
    }

    /// Groups of the table's type that beat it, smallest first (trios and airplanes with the
    /// kickers the table's kind wants).
    fn same_type(&self, last: &Move) -> Vec<Move> {
        let above = last.main();
        let beats = |g: &Move| g.length() == last.length() && g.main() > above;
        let mut out = Vec::new();
        match last.kind() {
            k @ (Kind::Single | Kind::Pair | Kind::Straight | Kind::PairChain) => {
                out.extend(self.of_kind(k).map(|(_, g)| *g).filter(beats));
            }
            k @ (Kind::Trio | Kind::TrioSingle | Kind::TrioPair) => {
                for (i, g) in self.of_kind(Kind::Trio).filter(|(_, g)| beats(g)) {
                    out.extend(self.follow_with_kickers(g, i, k));
                }
            }
            k @ (Kind::Airplane | Kind::AirplaneSingles | Kind::AirplanePairs) => {
                for (i, g) in self.of_kind(Kind::Airplane).filter(|(_, g)| beats(g)) {
                    out.extend(self.follow_with_kickers(g, i, k));
                }
            }
            Kind::Bomb => out.extend(self.bombs_beating(last)),
            _ => {}
        }
        out
    }

    /// Beating plays split from other groups, by the seed's ladder for the table's kind.
    fn split_to_beat(&self, last: &Move) -> Vec<Move> {
        let m = Some(last.main());
        let len = last.length();
        let mut out = Vec::new();
        let groups = |k: Kind| self.of_kind(k).map(|(_, g)| *g).collect::<Vec<_>>();
        let (straights, pair_chains, trios, planes) = (
            groups(Kind::Straight),
            groups(Kind::PairChain),
            groups(Kind::Trio),
            groups(Kind::Airplane),
        );
        // The best piece of `kind` from each of `from`, in order.
        let mut take = |from: &[Move], kind: Kind, top: bool| {
            for g in from {
                out.extend(self.best_piece(g.cards(), kind, len, m, top));
            }
        };
        match last.kind() {
            Kind::Single => {
                let twos: Vec<Move> = self
                    .groups
                    .iter()
                    .copied()
                    .filter(|g| {
                        matches!(g.kind(), Kind::Pair | Kind::Trio) && g.main() == Rank::Two
                    })
                    .collect();
                let long = |min: u8, max: u8| -> Vec<Move> {
                    straights
                        .iter()
                        .copied()
                        .filter(|s| (min..=max).contains(&s.length()))
                        .collect()
                };
                take(&twos, Kind::Single, false);
                take(&groups(Kind::Pair), Kind::Single, false);
                take(&long(6, u8::MAX), Kind::Single, true);
                take(&trios, Kind::Single, false);
                take(&planes, Kind::Single, false);
                take(&long(0, 5), Kind::Single, true);
                take(&pair_chains, Kind::Single, false);
            }
            Kind::Pair => {
                let long: Vec<Move> = pair_chains
                    .iter()
                    .copied()
                    .filter(|p| p.length() >= 4)
                    .collect();
                take(&long, Kind::Pair, true);
                take(&trios, Kind::Pair, false);
                take(&pair_chains, Kind::Pair, false);
                take(&planes, Kind::Pair, false);
            }
            Kind::Straight | Kind::PairChain => {
                let k = last.kind();
                let (same, other): (Vec<Move>, Vec<Move>) =
                    planes.iter().partition(|p| p.length() == len);
                let longer = |v: &[Move]| {
                    v.iter()
                        .copied()
                        .filter(|g| g.length() != len)
                        .collect::<Vec<_>>()
                };
                if k == Kind::Straight {
                    let same_pc: Vec<Move> = pair_chains
                        .iter()
                        .copied()
                        .filter(|p| p.length() == len)
                        .collect();
                    take(&same_pc, k, false);
                    take(&same, k, false);
                    take(&longer(&straights), k, false);
                    take(&longer(&pair_chains), k, false);
                    take(&other, k, false);
                } else {
                    take(&longer(&pair_chains), k, false);
                    take(&other, k, false);
                    take(&same, k, false);
                }
            }
            k @ (Kind::Trio | Kind::TrioSingle | Kind::TrioPair) => {
                // A trio out of an airplane, with kickers.
                for (i, g) in self.of_kind(Kind::Airplane) {
                    for body in self.pieces(g.cards(), Kind::Trio, 1, m, false) {
                        out.extend(self.follow_with_kickers(&body, i, k));
                    }
                }
            }
            k @ (Kind::Airplane | Kind::AirplaneSingles | Kind::AirplanePairs) => {
                // A shorter airplane out of a longer one, with kickers.
                for (i, g) in self
                    .of_kind(Kind::Airplane)
                    .filter(|(_, g)| g.length() > len)
                {
                    for body in self.pieces(g.cards(), Kind::Airplane, len, m, false) {
                        out.extend(self.follow_with_kickers(&body, i, k));
                    }
                }
            }
            _ => {}
        }
        out
    }

    /// `body` (taken from group `src`) with the kickers `kind` wants, chosen by the seed's
    /// splitting order: 2s and jokers only when the play leaves at most one hand.
    fn follow_with_kickers(&self, body: &Move, src: usize, kind: Kind) -> Option<Move> {
        let n = usize::from(body.length());
        let single = match kind.shape().kickers {
            ddz_core::Kickers::None => return Some(*body),
            ddz_core::Kickers::Singles { .. } => true,
            ddz_core::Kickers::Pairs { .. } => false,
        };
        let units = self.follow_units(body, src, single);
        let small: Vec<Cards> = units.iter().copied().filter(|u| !has_big(*u)).collect();
        if let Some(m) = self.with_kickers(body, kind, &small, n) {
            return Some(m);
        }
        let m = self.with_kickers(body, kind, &units, n)?;
        let rest = self.hand.minus(m.cards());
        (rest.is_empty() || hand_count(rest, self.rules) <= 1).then_some(m)
    }

    /// Kicker units for following, in the seed's splitting order. Singles: single groups, cards
    /// of pairs, the bottom cards of straights of 6 or more (beyond the five kept), trios,
    /// airplanes, straights of 5, pair chains. Pairs: pair groups, the bottom pairs of pair
    /// chains of 4 or more (beyond the three kept), trios, pair chains, airplanes. Never bomb
    /// or rocket cards, never the body's cards.
    fn follow_units(&self, body: &Move, src: usize, single: bool) -> Vec<Cards> {
        let avail = |i: usize, g: &Move| {
            if i == src {
                g.cards().saturating_minus(body.cards())
            } else {
                g.cards()
            }
        };
        let mut out = Vec::new();
        let mut add = |kind: Kind, filter: &dyn Fn(&Move) -> bool, bottom: Option<u8>| {
            for (i, g) in self.of_kind(kind).filter(|(_, g)| filter(g)) {
                let cards = avail(i, g);
                let per = if single { 1 } else { 2 };
                let max = bottom.map_or(u8::MAX, |keep| g.length().saturating_sub(keep));
                out.extend(bottom_units(cards, per, max));
            }
        };
        let any = |_: &Move| true;
        if single {
            add(Kind::Single, &any, None);
            add(Kind::Pair, &any, None);
            add(Kind::Straight, &|s| s.length() >= 6, Some(5));
            add(Kind::Trio, &any, None);
            add(Kind::Airplane, &any, None);
            add(Kind::Straight, &|s| s.length() < 6, None);
            add(Kind::PairChain, &any, None);
        } else {
            add(Kind::Pair, &any, None);
            add(Kind::PairChain, &|p| p.length() >= 4, Some(3));
            add(Kind::Trio, &any, None);
            add(Kind::PairChain, &|p| p.length() < 4, None);
            add(Kind::Airplane, &any, None);
        }
        out
    }
}

/// A play of `kind` (without kickers) with `len` body ranks topped by `main`, natural cards
/// under classic rules: the shape to beat when looking for bigger pieces.
fn shape_of(kind: Kind, len: u8, main: Rank) -> Option<Move> {
    let low = (main as usize + 1).checked_sub(usize::from(len))?;
    let per = kind.shape().per_rank;
    let cards = (low..=main as usize).fold(Cards::EMPTY, |acc, i| acc.add(Rank::ALL[i], per));
    read_as(cards, kind, main, &Rules::classic())
}

/// True if `cards` hold a 2 or a joker.
fn has_big(cards: Cards) -> bool {
    cards.highest().is_some_and(|r| r >= Rank::Two)
}

/// Up to `max` units of `per` cards of one rank from `cards`, lowest rank first (a pair group
/// made with a wild card is one unit as it is).
fn bottom_units(cards: Cards, per: u8, max: u8) -> Vec<Cards> {
    if per == 2 && cards.len() == 2 {
        return vec![cards].into_iter().take(usize::from(max)).collect();
    }
    let mut out = Vec::new();
    for r in cards.ranks() {
        let n = cards.count(r);
        for _ in 0..n / per {
            if out.len() < usize::from(max) {
                out.push(Cards::of(r, per));
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use ddz_core::Profile;
    use ddz_game::Deal;

    use super::*;

    /// The pieces found without the generator are the generator's, on every profile, for the
    /// natural cards of dealt hands, every kind and length the fast path takes, leading and
    /// above every rank.
    #[test]
    fn natural_pieces_equal_generated() {
        let kinds = [
            (Kind::Single, 1..=1),
            (Kind::Pair, 1..=1),
            (Kind::Trio, 1..=1),
            (Kind::Straight, 5..=12),
            (Kind::PairChain, 3..=10),
        ];
        let mut compared = 0;
        for profile in Profile::ALL {
            let rules = Rules::profile(profile);
            for seed in 0..40 {
                let deal = Deal::from_seed(seed, &rules);
                for hand in deal.hands.0 {
                    let hand = hand.to_cards();
                    let natural = hand.minus(wild_cards(hand, &rules));
                    let ctx = Ctx {
                        rules: &rules,
                        hand: natural,
                        seat: Seat::ALL[0],
                        landlord: None,
                        seats: 3,
                        cards_left: [17, 17, 17, 0],
                        groups: &[],
                    };
                    for (kind, lens) in kinds.clone() {
                        for len in lens {
                            let aboves = std::iter::once(None).chain(Rank::ALL.map(Some));
                            for above in aboves {
                                let by_main = |mut v: Vec<Move>| {
                                    v.sort_by_key(|m| m.main());
                                    v
                                };
                                let fast = ctx
                                    .natural_pieces(natural, kind, len, above)
                                    .map(|p| by_main(p.collect()));
                                let generated =
                                    by_main(ctx.generated_pieces(natural, kind, len, above));
                                if let Some(fast) = fast {
                                    assert_eq!(
                                        fast, generated,
                                        "{profile} {natural} {kind:?} len {len} above {above:?}"
                                    );
                                    compared += 1;
                                }
                            }
                        }
                    }
                }
            }
        }
        assert!(compared > 10_000, "only {compared} cases compared");
    }
}
