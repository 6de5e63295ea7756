//! The blog robot's hand value and play policies ("斗地主AI算法" by sm9sun, seeds 000/001;
//! seed-origins.md section 2), re-implemented from the description and memoised.
//!
//! A hand's value is a pair ([`HandValue`]): `sum_value`, the summed value of the groups the
//! hand is played out in (the table of [`crate::analysis::group_value`]), and `need_round`, the
//! number of those groups. It is the value of one greedy line of play: the lead policy
//! ([`Valuer::lead`]) picks a group, the rest is valued the same way, recursively. Every policy
//! picks the candidate whose *remainder* has the highest score `sum_value − 7 · need_round`,
//! ties going to the later candidate, as the original does.
//!
//! This is the variant that produced the vectors of seed-origins.md section 4.1: a hand that
//! is one group is valued as that group only when it holds no four of a kind.
//!
//! Hands are natural (no wild card): a hand with wild cards is read first
//! ([`Valuer::best_reading`]).
//!
//! # Fixes against the original
//! - The lead policy always returns a play: when no lowest-rank candidate reaches the initial
//!   score (−25 − 7 · 21), the original returns an error group and its hand value recurses on
//!   the same hand for ever; here the lowest rank is played as a single.
//! - Following a chain or an airplane plays the best window found, not the last window scanned
//!   (the "passive chain bug": hand 22AAKQJ9987776654 against 34567 played 56789 while
//!   reporting 45678; it plays 45678 here).
//! - The hand value is memoised (the original re-evaluates the same sub-hands many times).

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

use ddz_core::{Cards, Kind, Move, Rank, Rules};

use crate::analysis::{group_value, wild_cards, wild_readings};

/// Rank counts by rank index (0 = 3 … 14 = big joker).
type Counts = [u8; 15];

/// Index of the ace, the highest rank in a chain.
const ACE: usize = 11;
/// Index of the 2: ranks below it (3..2) are the suited ranks.
const TWO: usize = 12;
/// Index of the small joker.
const SMALL_JOKER: usize = 13;
/// Index of the big joker.
const BIG_JOKER: usize = 14;
/// The value of one round (a lead won), as the blog counts it.
pub const ROUND_VALUE: i32 = 7;

/// The blog's value of a hand: summed group value and number of groups (rounds) needed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct HandValue {
    /// SumValue: the summed value of the groups.
    pub sum_value: i32,
    /// NeedRound: the number of groups.
    pub need_round: i32,
}

impl HandValue {
    /// The criterion every policy maximises: `sum_value − 7 · need_round`.
    pub const fn score(self) -> i32 {
        self.sum_value - ROUND_VALUE * self.need_round
    }

    /// The hand kept by passing: the same groups and one more round (the opponents get one).
    pub const fn passed(self) -> HandValue {
        HandValue {
            sum_value: self.sum_value,
            need_round: self.need_round + 1,
        }
    }

    /// Fewer rounds, or as many and a higher sum: how wild readings are compared.
    pub fn serves_better_than(self, other: HandValue) -> bool {
        (self.need_round, -self.sum_value) < (other.need_round, -other.sum_value)
    }
}

/// A group the blog plays: kind, deciding rank and the natural cards (ranks) it takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Group {
    /// The kind of play.
    pub kind: Kind,
    /// The deciding rank: a chain's top, a trio's or four's rank.
    pub main: Rank,
    /// The cards, as ranks.
    pub cards: Cards,
}

impl Group {
    /// The group's value in the blog's table.
    pub fn value(&self) -> i32 {
        group_value(self.kind, self.main)
    }
}

/// The play on the table, as the follow policy sees it.
#[derive(Clone, Copy, Debug)]
struct PlayToBeat {
    kind: Kind,
    main: usize,
    /// Number of body ranks (chains, airplanes).
    len: usize,
}

/// Bids by the blog's thresholds on a 17-card hand's SumValue: below 10 no bid, 10-14 one
/// point, 15-19 two, 20 and more three.
pub fn land_score(sum_value: i32) -> u8 {
    match sum_value {
        i32::MIN..=9 => 0,
        10..=14 => 1,
        15..=19 => 2,
        _ => 3,
    }
}

/// A hasher for the memo's keys (the u64 of a hand's counts): one multiply, enough spread for
/// a hash map and much cheaper than the default.
#[derive(Default)]
struct KeyHasher(u64);

impl Hasher for KeyHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0 ^ b as u64).wrapping_mul(0x100_0000_01b3);
        }
    }

    fn write_u64(&mut self, n: u64) {
        self.0 = (n ^ (n >> 29)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    }
}

/// Wild cards up to which [`Valuer::good_reading`] tries every reading (13 for one wild card).
pub const EXACT_WILD: usize = 1;

/// Memo entries a new valuer has room for (a 20-card hand needs a few thousand).
const MEMO_START: usize = 1 << 12;

/// Memo entries kept before the memo is cleared (about 40 MB).
const MEMO_LIMIT: usize = 1 << 20;

/// The blog's hand value and policies, with a memo of hand values shared by every call.
pub struct Valuer {
    memo: HashMap<u64, HandValue, BuildHasherDefault<KeyHasher>>,
}

/// The best candidate so far in one policy call.
struct Best {
    value: HandValue,
    group: Option<Group>,
}

impl Best {
    fn new(value: HandValue) -> Best {
        Best { value, group: None }
    }

    /// Takes `group` if its remainder's score is at least the best so far (later wins ties).
    fn offer(&mut self, rest: HandValue, group: Group) {
        if self.value.score() <= rest.score() {
            self.value = rest;
            self.group = Some(group);
        }
    }
}

/// `n` cards of rank index `i`.
fn of(i: usize, n: u8) -> Cards {
    Cards::of(Rank::ALL[i], n)
}

/// `per` cards of each rank index `lo..=hi`.
fn run(lo: usize, hi: usize, per: u8) -> Cards {
    (lo..=hi).fold(Cards::EMPTY, |acc, i| acc.union(of(i, per)))
}

fn has_bomb(c: Cards) -> bool {
    c.mask_at_least(4) != 0
}

/// The one rank index below `hi` holding exactly `count` cards, if exactly one does.
fn only_rank(n: &Counts, count: u8, hi: usize) -> Option<usize> {
    let mut found = None;
    for (i, &x) in n[..hi].iter().enumerate() {
        if x == count {
            if found.is_some() {
                return None;
            }
            found = Some(i);
        }
    }
    found
}

/// Pairs among pair kickers as the original counts them (a four is two pairs), ranks 3..2.
fn loose_pairs(n: &Counts) -> u32 {
    n[..=TWO]
        .iter()
        .filter(|&&x| x == 2 || x == 4)
        .map(|&x| x as u32 / 2)
        .sum()
}

/// The whole hand as one group, as the original's `ins_SurCardsType` decides it (loose: an
/// airplane's single kickers may repeat or be jokers, a four's two singles may be a pair, a
/// four counts as two pairs among pair kickers).
fn whole_hand(c: Cards) -> Option<Group> {
    let total = c.len();
    // Past five cards only some shapes can be one group: a quick test on the card count
    // against the number of ranks held (most hands a valuation meets fail it).
    let ranks = c.distinct_ranks();
    if total > 5
        && !matches!(total, 6 | 8)
        && !total.is_multiple_of(4)
        && !total.is_multiple_of(5)
        && total != ranks
        && total != 2 * ranks
        && total != 3 * ranks
    {
        return None;
    }
    let n = c.counts();
    let group = |kind, main: usize| {
        Some(Group {
            kind,
            main: Rank::ALL[main],
            cards: c,
        })
    };
    let ones = n.iter().filter(|&&x| x == 1).count();
    let pairs = n[..=TWO].iter().filter(|&&x| x == 2).count();
    let four_kickers: u32 = n
        .iter()
        .filter(|&&x| x == 1 || x == 2)
        .map(|&x| x as u32)
        .sum();
    let rocket = n[SMALL_JOKER] > 0 && n[BIG_JOKER] > 0;
    let found = match total {
        1 => only_rank(&n, 1, 15).map(|i| (Kind::Single, i)),
        2 => only_rank(&n, 2, 13)
            .map(|i| (Kind::Pair, i))
            .or(rocket.then_some((Kind::Rocket, BIG_JOKER))),
        3 => only_rank(&n, 3, 13).map(|i| (Kind::Trio, i)),
        4 => only_rank(&n, 3, 15)
            .filter(|_| ones == 1)
            .map(|i| (Kind::TrioSingle, i))
            .or_else(|| only_rank(&n, 4, 13).map(|i| (Kind::Bomb, i))),
        5 => only_rank(&n, 3, 13)
            .filter(|_| pairs == 1)
            .map(|i| (Kind::TrioPair, i)),
        6 => only_rank(&n, 4, 15)
            .filter(|_| four_kickers == 2)
            .map(|i| (Kind::FourTwoSingles, i)),
        8 => only_rank(&n, 4, 13)
            .filter(|_| loose_pairs(&n) == 4)
            .map(|i| (Kind::FourTwoPairs, i)),
        _ => None,
    };
    if let Some((kind, main)) = found {
        return group(kind, main);
    }
    // Chains: the first run of ranks (3..A) passing `test`, as (length, top).
    let first_run = |test: &dyn Fn(u8) -> bool| {
        let mut len = 0u32;
        let mut top = 0;
        for (i, &x) in n[..=ACE].iter().enumerate() {
            if test(x) {
                len += 1;
                top = i;
            } else if len != 0 {
                break;
            }
        }
        (len, top)
    };
    if total >= 5 {
        let (len, top) = first_run(&|x| x == 1);
        if len == total {
            return group(Kind::Straight, top);
        }
    }
    if total >= 6 {
        let (len, top) = first_run(&|x| x == 2);
        if len * 2 == total {
            return group(Kind::PairChain, top);
        }
        let (len, top) = first_run(&|x| x == 3);
        if len * 3 == total {
            return group(Kind::Airplane, top);
        }
    }
    if total >= 8 {
        let (len, top) = first_run(&|x| x >= 3);
        if len * 4 == total {
            return group(Kind::AirplaneSingles, top);
        }
    }
    if total >= 10 {
        let (len, top) = first_run(&|x| x == 3);
        if len == loose_pairs(&n) && len * 5 == total {
            return group(Kind::AirplanePairs, top);
        }
    }
    None
}

impl Default for Valuer {
    fn default() -> Valuer {
        Valuer::new()
    }
}

impl Valuer {
    /// A valuer with an empty memo.
    pub fn new() -> Valuer {
        Valuer {
            memo: HashMap::with_capacity_and_hasher(MEMO_START, Default::default()),
        }
    }

    /// The blog's value of a natural hand (wild ranks count as their own rank).
    pub fn hand_value(&mut self, hand: Cards) -> HandValue {
        self.value(hand)
    }

    /// The natural reading of `hand` (each wild card as a rank, see
    /// [`crate::analysis::wild_readings`]) with the best value: fewest rounds, then the highest
    /// sum, then the first; and that value. Without wild cards, the hand itself.
    pub fn best_reading(&mut self, hand: Cards, rules: &Rules) -> (Cards, HandValue) {
        let mut best = (hand, None::<HandValue>);
        for reading in wild_readings(hand, rules) {
            let v = self.value(reading);
            if best.1.is_none_or(|b| v.serves_better_than(b)) {
                best = (reading, Some(v));
            }
        }
        match best {
            (reading, Some(v)) => (reading, v),
            (hand, None) => (hand, self.value(hand)),
        }
    }

    /// A good natural reading of `hand` found cheaply, for robots that decide many times a
    /// game: [`Valuer::best_reading`] when the hand holds at most [`EXACT_WILD`] wild cards;
    /// beyond, a local search from every wild card standing for its own rank, moving one wild
    /// card at a time to the rank that improves the value most (fewest rounds, then highest
    /// sum) until no move improves it. Not always the best reading (a hand of four wild cards
    /// has up to 1,820), but tens of times cheaper.
    pub fn good_reading(&mut self, hand: Cards, rules: &Rules) -> (Cards, HandValue) {
        let wild: Vec<Rank> = wild_cards(hand, rules).iter().collect();
        if wild.len() <= EXACT_WILD {
            return self.best_reading(hand, rules);
        }
        let natural = wild.iter().fold(hand, |h, &w| h.minus(Cards::of(w, 1)));
        let reading_of = |assign: &[Rank]| {
            assign
                .iter()
                .fold(natural, |h, &r| h.union(Cards::of(r, 1)))
        };
        let mut assign = wild;
        let mut best = self.value(reading_of(&assign));
        loop {
            let mut step: Option<(usize, Rank, HandValue)> = None;
            for k in 0..assign.len() {
                for r in Rank::SUITED {
                    let mut trial = assign.clone();
                    trial[k] = r;
                    let reading = reading_of(&trial);
                    if r == assign[k] || reading.count(r) > 4 {
                        continue;
                    }
                    let v = self.value(reading);
                    if v.serves_better_than(step.map_or(best, |s| s.2)) {
                        step = Some((k, r, v));
                    }
                }
            }
            match step {
                Some((k, r, v)) => {
                    assign[k] = r;
                    best = v;
                }
                None => return (reading_of(&assign), best),
            }
        }
    }

    /// What playing `m` from `hand` leaves, valued at a good reading
    /// ([`Valuer::good_reading`]); a pass leaves the whole hand and one more round.
    pub fn after(&mut self, hand: Cards, m: &Move, rules: &Rules) -> HandValue {
        if m.is_pass() {
            self.good_reading(hand, rules).1.passed()
        } else {
            self.good_reading(hand.minus(m.cards()), rules).1
        }
    }

    /// The group the lead policy plays from a natural `hand`; `None` for an empty hand.
    pub fn lead(&mut self, hand: Cards) -> Option<Group> {
        (!hand.is_empty()).then(|| self.lead_group(hand))
    }

    /// The group the follow policy plays from a natural `hand` against `table`; `None` for a
    /// pass. The blog does not know space shuttles: it answers them with a bomb or the rocket,
    /// as it answers a four with two.
    pub fn follow(&mut self, hand: Cards, table: &Move) -> Option<Group> {
        let t = PlayToBeat {
            kind: table.kind(),
            main: table.main().index(),
            len: table.length() as usize,
        };
        self.follow_group(hand, t)
    }

    fn value(&mut self, c: Cards) -> HandValue {
        if c.is_empty() {
            return HandValue {
                sum_value: 0,
                need_round: 0,
            };
        }
        if let Some(&v) = self.memo.get(&c.bits()) {
            return v;
        }
        let v = match whole_hand(c) {
            Some(g) if !has_bomb(c) => HandValue {
                sum_value: g.value(),
                need_round: 1,
            },
            _ => {
                let g = self.lead_split(c);
                let rest = self.value(c.minus(g.cards));
                HandValue {
                    sum_value: g.value() + rest.sum_value,
                    need_round: rest.need_round + 1,
                }
            }
        };
        if self.memo.len() >= MEMO_LIMIT {
            self.memo.clear();
        }
        self.memo.insert(c.bits(), v);
        v
    }

    /// The rocket, if the hand holds it and the rest is one round.
    fn rocket_first(&mut self, c: Cards) -> Option<Group> {
        let g = rocket(c)?;
        (self.value(c.minus(g.cards)).need_round == 1).then_some(g)
    }

    /// Offers `take` from `c`, played as `kind` with deciding rank `main`, to `best`.
    fn offer(&mut self, best: &mut Best, c: Cards, kind: Kind, main: usize, take: Cards) {
        let rest = self.value(c.minus(take));
        best.offer(
            rest,
            Group {
                kind,
                main: Rank::ALL[main],
                cards: take,
            },
        );
    }

    /// Offers `take` with `left` more kickers of `wings.per` cards each from ranks below
    /// `wings.top`: every multiset (ranks from `from` up), or, for `wings.ordered`, every
    /// ordered tuple as the original's follow enumerates them (the order decides ties).
    fn offer_wings(
        &mut self,
        best: &mut Best,
        c: Cards,
        (main, take): (usize, Cards),
        left: usize,
        from: usize,
        wings: Wings,
    ) {
        if left == 0 {
            return self.offer(best, c, wings.kind, main, take);
        }
        for k in from..wings.top {
            let more = take.union(of(k, wings.per));
            if c.contains(more) {
                let next = if wings.ordered { 0 } else { k };
                self.offer_wings(best, c, (main, more), left - 1, next, wings);
            }
        }
    }

    /// The lead policy (`get_PutCardList_2`) on a non-empty hand.
    fn lead_group(&mut self, c: Cards) -> Group {
        match whole_hand(c).filter(|_| !has_bomb(c)) {
            Some(g) => g,
            None => self.lead_split(c),
        }
    }

    /// The lead policy on a hand that is not played out in one group.
    fn lead_split(&mut self, c: Cards) -> Group {
        if let Some(g) = self.rocket_first(c) {
            return g;
        }
        let n = c.counts();
        // Passing hands the opponents a round: start from 20 + 1 rounds at the lowest value.
        let mut best = Best::new(HandValue {
            sum_value: -25,
            need_round: 21,
        });
        // Phase A: trios with a kicker and airplanes with wings first (bombs never split).
        for i in 0..=TWO {
            if n[i] == 4 || n[i] < 3 {
                continue;
            }
            let trio = of(i, 3);
            for j in (0..15).filter(|&j| j != i && n[j] > 0) {
                self.offer(&mut best, c, Kind::TrioSingle, i, trio.union(of(j, 1)));
            }
            for j in (0..=TWO).filter(|&j| j != i && n[j] > 1) {
                self.offer(&mut best, c, Kind::TrioPair, i, trio.union(of(j, 2)));
            }
            let top = (i..=ACE).take_while(|&j| n[j] > 2).last().unwrap_or(i);
            for (kind, longest) in [(Kind::AirplaneSingles, 4), (Kind::AirplanePairs, 3)] {
                let wings = Wings::of(kind, false);
                for j in i + 1..=top.min(i + longest - 1) {
                    let body = (j, run(i, j, 3));
                    self.offer_wings(&mut best, c, body, j - i + 1, 0, wings);
                }
            }
        }
        if let Some(g) = best.group {
            return g;
        }
        // Phase B: the lowest rank that is not a bomb is played now, in its best combination.
        if let Some(i) = (0..=TWO).find(|&i| n[i] != 0 && n[i] != 4) {
            for (k, kind) in [(1, Kind::Single), (2, Kind::Pair), (3, Kind::Trio)] {
                if n[i] >= k {
                    self.offer(&mut best, c, kind, i, of(i, k));
                }
            }
            for (per, min, kind) in [
                (1, 5, Kind::Straight),
                (2, 3, Kind::PairChain),
                (3, 2, Kind::Airplane),
            ] {
                let mut j = i;
                while j <= ACE && n[j] >= per {
                    if j - i + 1 >= min {
                        self.offer(&mut best, c, kind, j, run(i, j, per));
                    }
                    j += 1;
                }
            }
            return best.group.unwrap_or(Group {
                kind: Kind::Single,
                main: Rank::ALL[i],
                cards: of(i, 1),
            });
        }
        // A lone joker, then the lowest bomb.
        for (joker, other) in [(SMALL_JOKER, BIG_JOKER), (BIG_JOKER, SMALL_JOKER)] {
            if n[joker] == 1 && n[other] == 0 {
                return Group {
                    kind: Kind::Single,
                    main: Rank::ALL[joker],
                    cards: of(joker, 1),
                };
            }
        }
        if let Some(g) = lowest_bomb(c, None) {
            return g;
        }
        // Only hands no deck deals get here (two small jokers, say): play the highest card.
        let top = c.highest().unwrap_or(Rank::BigJoker);
        Group {
            kind: Kind::Single,
            main: top,
            cards: Cards::of(top, 1),
        }
    }

    /// The follow policy (`get_PutCardList_2_limit`).
    fn follow_group(&mut self, c: Cards, t: PlayToBeat) -> Option<Group> {
        if c.is_empty() {
            return None;
        }
        if let Some(g) = self.rocket_first(c) {
            return Some(g);
        }
        match t.kind {
            Kind::Pass | Kind::Rocket => return None,
            Kind::Bomb => return lowest_bomb(c, Some(t.main)).or_else(|| rocket(c)),
            Kind::SpaceShuttle | Kind::SpaceShuttleSingles | Kind::SpaceShuttlePairs => {
                return lowest_bomb(c, None).or_else(|| rocket(c));
            }
            _ => {}
        }
        // Play the whole hand out if it beats the table in one go.
        if let Some(g) = whole_hand(c) {
            let same =
                g.kind == t.kind && g.main.index() > t.main && g.cards.len() == table_cards(t);
            if same || matches!(g.kind, Kind::Bomb | Kind::Rocket) {
                return Some(g);
            }
        }
        let base = self.value(c);
        let four_two = matches!(t.kind, Kind::FourTwoSingles | Kind::FourTwoPairs);
        if four_two
            && base.sum_value > 14
            && let Some(g) = lowest_bomb(c, None).or_else(|| rocket(c))
        {
            return Some(g);
        }
        // Passing gives the opponents a round.
        let mut best = Best::new(base.passed());
        self.same_kind(&mut best, c, t);
        if best.group.is_some() {
            return best.group;
        }
        if four_two {
            return lowest_bomb(c, None).or_else(|| rocket(c));
        }
        // A bomb when its remainder is better, or is worth anything at all: the last such
        // bomb wins, so the highest bomb with a positive remainder.
        for i in (0..=TWO).filter(|&i| c.count(Rank::ALL[i]) == 4) {
            let take = of(i, 4);
            let rest = self.value(c.minus(take));
            if best.value.score() <= rest.score() || rest.sum_value > 0 {
                best.value = rest;
                best.group = Some(Group {
                    kind: Kind::Bomb,
                    main: Rank::ALL[i],
                    cards: take,
                });
            }
        }
        if best.group.is_some() {
            return best.group;
        }
        // The rocket when the hand is worth more than it (20).
        if best.value.sum_value > 20 {
            return rocket(c);
        }
        None
    }

    /// Offers every play of the table's kind that beats it, in the original's order.
    fn same_kind(&mut self, best: &mut Best, c: Cards, t: PlayToBeat) {
        let n = c.counts();
        let above = t.main + 1;
        match t.kind {
            Kind::Single | Kind::Pair | Kind::Trio => {
                let k = t.kind.shape().per_rank;
                for i in (above..15).filter(|&i| n[i] >= k) {
                    self.offer(best, c, t.kind, i, of(i, k));
                }
            }
            Kind::Straight | Kind::PairChain | Kind::Airplane => {
                let per = t.kind.shape().per_rank;
                for (lo, hi) in windows(&n, t, per) {
                    self.offer(best, c, t.kind, hi, run(lo, hi, per));
                }
            }
            Kind::TrioSingle | Kind::TrioPair => {
                let (k, top) = kicker_ranks(t.kind);
                for i in (above..=TWO).filter(|&i| n[i] > 2) {
                    for j in (0..top).filter(|&j| j != i && n[j] >= k) {
                        self.offer(best, c, t.kind, i, of(i, 3).union(of(j, k)));
                    }
                }
            }
            Kind::AirplaneSingles | Kind::AirplanePairs => {
                // Kickers as ordered tuples, as the original enumerates them: the order
                // decides ties.
                let wings = Wings::of(t.kind, true);
                for (lo, hi) in windows(&n, t, 3) {
                    self.offer_wings(best, c, (hi, run(lo, hi, 3)), t.len, 0, wings);
                }
            }
            Kind::FourTwoSingles | Kind::FourTwoPairs => {
                let (k, top) = kicker_ranks(t.kind);
                for i in (above..=TWO).filter(|&i| n[i] == 4) {
                    for j in (0..top).filter(|&j| j != i && n[j] >= k) {
                        for l in (j + 1..top).filter(|&l| l != i && n[l] >= k) {
                            let take = of(i, 4).union(of(j, k)).union(of(l, k));
                            self.offer(best, c, t.kind, i, take);
                        }
                    }
                }
            }
            _ => {}
        }
    }
}

/// Cards per kicker and the ranks below which kickers are taken: singles from 3..big joker,
/// pairs from 3..2.
fn kicker_ranks(kind: Kind) -> (u8, usize) {
    match kind.shape().kickers {
        ddz_core::Kickers::Pairs { .. } => (2, TWO + 1),
        _ => (1, 15),
    }
}

/// How an airplane's kickers are enumerated.
#[derive(Clone, Copy)]
struct Wings {
    kind: Kind,
    /// Cards per kicker.
    per: u8,
    /// Kicker ranks are below this index.
    top: usize,
    /// Ordered tuples (the follow policy) rather than multisets (the lead policy).
    ordered: bool,
}

impl Wings {
    fn of(kind: Kind, ordered: bool) -> Wings {
        let (per, top) = kicker_ranks(kind);
        Wings {
            kind,
            per,
            top,
            ordered,
        }
    }
}

/// The lowest four of a kind above rank index `above`.
fn lowest_bomb(c: Cards, above: Option<usize>) -> Option<Group> {
    let from = above.map_or(0, |m| m + 1);
    (from..=TWO)
        .find(|&i| c.count(Rank::ALL[i]) == 4)
        .map(|i| Group {
            kind: Kind::Bomb,
            main: Rank::ALL[i],
            cards: of(i, 4),
        })
}

/// The rocket, if the hand holds both jokers.
fn rocket(c: Cards) -> Option<Group> {
    let cards = Cards::ROCKET;
    c.contains(cards).then_some(Group {
        kind: Kind::Rocket,
        main: Rank::BigJoker,
        cards,
    })
}

/// Cards in the table's play (body and kickers).
fn table_cards(t: PlayToBeat) -> u32 {
    t.kind.shape().cards(t.len as u8) as u32
}

/// Windows `(lo, hi)` of `t.len` consecutive ranks within 3..A, each holding `per` cards,
/// above the table's chain, lowest first.
fn windows(n: &Counts, t: PlayToBeat, per: u8) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    let mut run = 0;
    let from = (t.main + 2).saturating_sub(t.len);
    for (i, &count) in n.iter().enumerate().take(ACE + 1).skip(from) {
        run = if count >= per { run + 1 } else { 0 };
        if run >= t.len {
            out.push((i + 1 - t.len, i));
        }
    }
    out
}
