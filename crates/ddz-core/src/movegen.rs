//! Legal-move generation: leading, following, finding moves of one kind, in the order the
//! crate documentation gives ("Move order").
//!
//! # Forms
//!
//! [`for_each_legal_move`] calls a closure for each move without allocating and stops when it
//! returns [`ControlFlow::Break`]; [`legal_moves_into`] fills a reusable buffer;
//! [`legal_moves`] collects a new `Vec`. [`is_legal`] agrees with all of them.
//!
//! # Order
//!
//! Leading, kind by kind in the order of [`Kind`]: each kind's bodies by length, then main
//! rank, then kickers; the bombs by size, then rank; the rocket after the bombs; the four
//! jokers (two decks) last, after the space shuttles. Following: the table's kind and length
//! above its main, then every bomb that beats it (by size, then rank), then the rocket or the
//! four jokers, then the pass.
//!
//! # Two decks
//!
//! With `decks == 2` (the `four` profile) the same generator runs on counts up to 8 (2 of each
//! joker): pairs include `BB` and `RR`, and so do pair kickers (never both in one play, the
//! four jokers being no kickers); bombs are 4 to [`Rules::max_bomb_cards`] cards; the rocket
//! gives way to the four jokers; chains run as long as [`Kind::shape_for`] allows. The body
//! takes exactly its shape's cards of each body rank and no kicker has a body rank, so a trio or
//! pair may come from a rank held more often. [`Rules::trio_single_kickers`] off drops trio +
//! single and airplane + singles under any profile.

use core::ops::ControlFlow;

use crate::cards::Cards;
use crate::classify::{is_valid_reading, only_reading};
use crate::kind::{Kickers, Kind};
use crate::natural::{
    CHAIN_MASK, SUITED_MASK, fits_decks, kind_enabled, natural_bomb_class, pair_ranks,
    run_neighbours, single_kicker_cap, two_decks, window_cards, window_mask,
};
use crate::play::Move;
use crate::rank::Rank;
use crate::rules::{Readings, Rules};

/// One candidate kicker rank: the unit taken (one card or one pair) and how many units at most.
#[derive(Clone, Copy, Default)]
struct Candidate {
    unit: Cards,
    cap: u8,
}

/// The generator's per-call state.
struct Generator<'a, F> {
    hand: Cards,
    /// `at_least[n]`: rank mask of the ranks held at least `n` times (index 0 unused).
    at_least: [u16; 5],
    rules: &'a Rules,
    one_reading: bool,
    /// The rules deal two decks (joker pairs, long bombs, the four jokers for the rocket).
    two_decks: bool,
    /// A play every emitted move must beat, where generation alone does not ensure it.
    to_beat: Option<Move>,
    emit: F,
}

impl<B, F: FnMut(Move) -> ControlFlow<B>> Generator<'_, F> {
    /// Emits `m` unless a one-reading profile gives its cards another reading.
    #[inline]
    fn emit(&mut self, m: Move) -> ControlFlow<B> {
        if self.one_reading
            && may_have_other_readings(m.kind())
            && only_reading(m.cards(), self.rules) != Some(m)
        {
            return ControlFlow::Continue(());
        }
        if let Some(last) = &self.to_beat
            && !m.is_pass()
            && !m.beats(last, self.rules)
        {
            return ControlFlow::Continue(());
        }
        (self.emit)(m)
    }

    /// Every move of `kind`; with `len`, only that length; with `above`, only mains above it.
    fn kind(&mut self, kind: Kind, len: Option<u8>, above: Option<Rank>) -> ControlFlow<B> {
        if !kind_enabled(kind, self.rules) {
            return ControlFlow::Continue(());
        }
        if kind == Kind::Rocket || kind == Kind::FourJokers {
            if above.is_none() {
                return self.top(None);
            }
            return ControlFlow::Continue(());
        }
        let shape = if self.two_decks {
            kind.shape_for(self.rules)
        } else {
            kind.shape()
        };
        let per = shape.per_rank;
        let (min_len, max_len) = match len {
            Some(l) => (l, l),
            None => (shape.min_len, shape.max_len),
        };
        let held = self.at_least[per as usize];
        let range = if shape.is_chain() {
            CHAIN_MASK
        } else if kind == Kind::Single {
            u16::MAX
        } else if kind == Kind::Pair && self.two_decks {
            pair_ranks(self.rules)
        } else {
            SUITED_MASK
        };
        let floor = above.map_or(0, |r| r as usize + 1);
        let allowed = !((1u16 << floor) - 1);
        let hand_len = self.hand.len();
        // `run` holds the tops of the windows of `len` held ranks: grown one length at a time
        // by AND-ing with the held mask shifted, so an empty run ends the search early.
        let held = held & range;
        let mut run = held;
        for k in 1..min_len {
            run &= held << k;
        }
        for len in min_len..=max_len {
            if run == 0 || shape.cards(len) as u32 > hand_len {
                break;
            }
            let mut tops = run & allowed;
            while tops != 0 {
                let main = tops.trailing_zeros() as usize;
                tops &= tops - 1;
                self.body(kind, main, len)?;
            }
            run &= held << len;
        }
        ControlFlow::Continue(())
    }

    /// Every move of `kind` with the body of `len` ranks topped by `main`.
    #[inline]
    fn body(&mut self, kind: Kind, main: usize, len: u8) -> ControlFlow<B> {
        let shape = kind.shape();
        let low = main + 1 - len as usize;
        let body = window_cards(low, len, shape.per_rank);
        let meta = Move::pack(kind, Rank::ALL[main], len, None);
        let make = |cards: Cards| Move::from_parts(cards, cards, meta);
        match shape.kickers {
            Kickers::None => self.emit(make(body)),
            Kickers::Singles { per_rank } => {
                let body_mask = window_mask(low, len);
                let rest = self.hand.minus(body);
                let cap = single_kicker_cap(kind, self.rules);
                let neighbours =
                    if kind == Kind::AirplaneSingles && !self.rules.airplane_singles_longer_run {
                        run_neighbours(low, main)
                    } else {
                        0
                    };
                let mut cands = [Candidate::default(); 15];
                let mut n = 0;
                let mut mask = rest.rank_mask() & !body_mask;
                while mask != 0 {
                    let i = mask.trailing_zeros() as usize;
                    mask &= mask - 1;
                    let rank = Rank::ALL[i];
                    let mut c = rest.count(rank).min(cap);
                    if neighbours & (1 << i) != 0 {
                        c = c.min(2);
                    }
                    cands[n] = Candidate {
                        unit: Cards::single(rank),
                        cap: c,
                    };
                    n += 1;
                }
                let k = per_rank * len;
                if k == 1 {
                    // One kicker (trio + single): no recursion needed.
                    for c in &cands[..n] {
                        self.emit(make(body.union(c.unit)))?;
                    }
                    return ControlFlow::Continue(());
                }
                // No rocket among the kickers (unless the rules allow it), and with two decks no
                // four jokers (which hold a rocket), when the rest of the hand could make them.
                let forbid = if !self.rules.rocket_as_kickers && rest.contains(Cards::ROCKET) {
                    Cards::ROCKET
                } else if self.two_decks && rest.contains(Cards::FOUR_JOKERS) {
                    Cards::FOUR_JOKERS
                } else {
                    Cards::EMPTY
                };
                self.kicker_moves(&cands[..n], k, body, meta, forbid)
            }
            Kickers::Pairs { per_rank } => {
                let body_mask = window_mask(low, len);
                let rest = self.hand.minus(body);
                let mut cands = [Candidate::default(); 15];
                let mut n = 0;
                let mut mask = rest.mask_at_least(2) & pair_ranks(self.rules) & !body_mask;
                while mask != 0 {
                    let i = mask.trailing_zeros() as usize;
                    mask &= mask - 1;
                    let rank = Rank::ALL[i];
                    let cap = if self.rules.quad_as_two_pairs {
                        rest.count(rank) / 2
                    } else {
                        1
                    };
                    cands[n] = Candidate {
                        unit: Cards::of(rank, 2),
                        cap,
                    };
                    n += 1;
                }
                // Two decks: `BB` and `RR` are pairs, but never both kickers of one play.
                let forbid = if self.two_decks && rest.contains(Cards::FOUR_JOKERS) {
                    Cards::FOUR_JOKERS
                } else {
                    Cards::EMPTY
                };
                self.kicker_moves(&cands[..n], per_rank * len, body, meta, forbid)
            }
        }
    }

    /// Emits `body` with every set of `k` kicker units from `cands` ([`kicker_sets`]), but
    /// none whose cards hold `forbid` (unless it is empty).
    #[inline]
    fn kicker_moves(
        &mut self,
        cands: &[Candidate],
        k: u8,
        body: Cards,
        meta: u64,
        forbid: Cards,
    ) -> ControlFlow<B> {
        // Two closures, so that the common case (nothing to forbid) checks nothing per move.
        if forbid.is_empty() {
            kicker_sets(cands, k, body, &mut |cards| {
                self.emit(Move::from_parts(cards, cards, meta))
            })
        } else {
            kicker_sets(cands, k, body, &mut |cards| {
                if cards.contains(forbid) {
                    return ControlFlow::Continue(());
                }
                self.emit(Move::from_parts(cards, cards, meta))
            })
        }
    }

    /// All bombs that beat `last` (all of them when `last` is `None`), lowest first (by size,
    /// then rank), then the rocket or the four jokers if `with_top`.
    fn bombs_and_rocket(&mut self, last: Option<&Move>, with_top: bool) -> ControlFlow<B> {
        let class = natural_bomb_class(self.rules);
        let mut bombs = self.at_least[4];
        let mut size = 4;
        loop {
            while bombs != 0 {
                let i = bombs.trailing_zeros() as usize;
                bombs &= bombs - 1;
                let rank = Rank::ALL[i];
                let cards = Cards::of(rank, size);
                let m = Move::new_unchecked(cards, cards, Kind::Bomb, rank, 1, class);
                if last.is_none_or(|l| m.beats(l, self.rules)) {
                    self.emit(m)?;
                }
            }
            // One deck: bombs of four only (a natural long bomb needs more cards than a deck
            // has). Two decks: then 5 to 8 cards, fewer ranks reaching each size.
            if !self.two_decks || size >= self.rules.max_bomb_cards() {
                break;
            }
            size += 1;
            bombs = self.hand.mask_at_least(size) & SUITED_MASK;
            if bombs == 0 {
                break;
            }
        }
        if with_top {
            self.top(last)?;
        }
        ControlFlow::Continue(())
    }

    /// The rocket, or with two decks the four jokers, if the hand holds it and it beats `last`.
    #[inline]
    fn top(&mut self, last: Option<&Move>) -> ControlFlow<B> {
        // The one the rules have (`kind_enabled`: the rocket with one deck only).
        let (kind, cards) = if self.two_decks {
            (Kind::FourJokers, Cards::FOUR_JOKERS)
        } else {
            (Kind::Rocket, Cards::ROCKET)
        };
        if !self.hand.contains(cards) {
            return ControlFlow::Continue(());
        }
        let m = Move::new_unchecked(cards, cards, kind, Rank::BigJoker, 1, None);
        if last.is_none_or(|l| m.beats(l, self.rules)) {
            return self.emit(m);
        }
        ControlFlow::Continue(())
    }
}

/// True for the kinds whose card sets may have another reading (an airplane of four trios is
/// also an airplane with singles; kickers may form trios or fours). Singles, pairs, trios,
/// trios with one kicker, chains of singles or pairs, bombs and the rocket have one reading in
/// every profile, the DouZero detector included (the oracle tests check this).
#[inline]
const fn may_have_other_readings(kind: Kind) -> bool {
    matches!(
        kind,
        Kind::Airplane
            | Kind::AirplaneSingles
            | Kind::AirplanePairs
            | Kind::FourTwoSingles
            | Kind::FourTwoPairs
            | Kind::SpaceShuttle
            | Kind::SpaceShuttleSingles
            | Kind::SpaceShuttlePairs
    )
}

/// Calls `f` with every multiset of `k` units drawn from `cands` (at most `cap` units of each),
/// added to `base`, in lexicographic order of the units' sorted sequence.
fn kicker_sets<B>(
    cands: &[Candidate],
    k: u8,
    base: Cards,
    f: &mut impl FnMut(Cards) -> ControlFlow<B>,
) -> ControlFlow<B> {
    if k == 0 {
        return f(base);
    }
    if k == 1 {
        for c in cands {
            f(base.union(c.unit))?;
        }
        return ControlFlow::Continue(());
    }
    for (i, c) in cands.iter().enumerate() {
        // Taking more copies of a lower rank sorts first (33x < 34x).
        let most = c.cap.min(k);
        for t in (1..=most).rev() {
            let mut acc = base;
            for _ in 0..t {
                acc = acc.union(c.unit);
            }
            kicker_sets(&cands[i + 1..], k - t, acc, f)?;
        }
    }
    ControlFlow::Continue(())
}

fn generator<'a, B, F: FnMut(Move) -> ControlFlow<B>>(
    hand: Cards,
    rules: &'a Rules,
    emit: F,
) -> Generator<'a, F> {
    let at_least = [
        0,
        hand.mask_at_least(1),
        hand.mask_at_least(2),
        hand.mask_at_least(3),
        hand.mask_at_least(4),
    ];
    let one_reading = rules.readings != Readings::All;
    Generator {
        hand,
        at_least,
        rules,
        one_reading,
        two_decks: two_decks(rules),
        to_beat: None,
        emit,
    }
}

/// Calls `f` with every legal move of `hand` in the order of the module docs, without
/// allocating; stops early when `f` returns `Break`, and returns that.
///
/// `last` is the play to beat: `None` (or a pass) when leading. Following adds the pass at the
/// end. `hand` must be cards of the rules' decks (one deck: at most 4 of a rank, 1 of each
/// joker; two decks: 8 and 2); any other hand has no moves.
///
/// ```
/// use core::ops::ControlFlow;
/// use ddz_core::{for_each_legal_move, Rules};
/// let rules = Rules::classic();
/// let mut count = 0;
/// let _ = for_each_legal_move("334".parse().unwrap(), None, &rules, |_| {
///     count += 1;
///     ControlFlow::<()>::Continue(())
/// });
/// assert_eq!(count, 3); // 3, 4, 33
/// ```
pub fn for_each_legal_move<B>(
    hand: Cards,
    last: Option<&Move>,
    rules: &Rules,
    f: impl FnMut(Move) -> ControlFlow<B>,
) -> ControlFlow<B> {
    if !fits_decks(hand, rules) {
        return ControlFlow::Continue(());
    }
    if crate::wild::has_wild(hand, rules) {
        return wild_moves(hand, last, rules, f);
    }
    let mut g = generator(hand, rules, f);
    match last.filter(|l| !l.is_pass()) {
        None => {
            for kind in Kind::ALL {
                match kind {
                    Kind::Pass => {}
                    Kind::Bomb => g.bombs_and_rocket(None, false)?,
                    _ => g.kind(kind, None, None)?,
                }
            }
        }
        Some(last) => {
            match last.kind() {
                Kind::Rocket | Kind::FourJokers => {}
                Kind::Bomb => g.bombs_and_rocket(Some(last), true)?,
                kind => {
                    // Same kind, same length, higher main: exactly the moves that beat, except
                    // under DouZero, which ranks airplanes with singles by their top trio,
                    // kickers included: there generate every main and filter by `beats`.
                    let douzero_airplane =
                        kind == Kind::AirplaneSingles && rules.readings == Readings::Douzero;
                    let above = if douzero_airplane {
                        g.to_beat = Some(*last);
                        None
                    } else {
                        Some(last.main())
                    };
                    g.kind(kind, Some(last.length()), above)?;
                    g.to_beat = None;
                    g.bombs_and_rocket(Some(last), true)?;
                }
            }
            g.emit(Move::PASS)?;
        }
    }
    ControlFlow::Continue(())
}

/// The legal moves of a hand holding wild cards, in the same order as the classic generator
/// (by kind, length and main rank; within one body, by the natural cards used).
fn wild_moves<B>(
    hand: Cards,
    last: Option<&Move>,
    rules: &Rules,
    f: impl FnMut(Move) -> ControlFlow<B>,
) -> ControlFlow<B> {
    let wilds = hand.restrict(crate::wild::wild_mask(rules));
    let mut g = crate::wild::WildGen {
        naturals: hand.minus(wilds),
        wilds,
        rules,
        emit: f,
    };
    match last.filter(|l| !l.is_pass()) {
        None => {
            for kind in Kind::ALL {
                match kind {
                    Kind::Bomb => g.bombs(None)?,
                    _ => g.kind(kind, None, None)?,
                }
            }
        }
        Some(last) => {
            match last.kind() {
                Kind::Rocket | Kind::FourJokers => {}
                Kind::Bomb => {
                    g.bombs(Some(last))?;
                    g.kind(Kind::Rocket, None, None)?;
                }
                kind => {
                    g.kind(kind, Some(last.length()), Some(last.main()))?;
                    g.bombs(Some(last))?;
                    g.kind(Kind::Rocket, None, None)?;
                }
            }
            (g.emit)(Move::PASS)?;
        }
    }
    ControlFlow::Continue(())
}

/// Every legal move of `hand` (see [`for_each_legal_move`]), collected.
///
/// ```
/// use ddz_core::{legal_moves, parse_move, Rules};
/// let rules = Rules::classic();
/// let last = parse_move("33", &rules, None).unwrap();
/// let moves = legal_moves("3445BR".parse().unwrap(), Some(&last), &rules);
/// let names: Vec<String> = moves.iter().map(|m| m.to_string()).collect();
/// assert_eq!(names, ["44:pair:4", "BR:rocket:R", "pass"]);
/// ```
pub fn legal_moves(hand: Cards, last: Option<&Move>, rules: &Rules) -> Vec<Move> {
    let mut out = Vec::new();
    legal_moves_into(hand, last, rules, &mut out);
    out
}

/// Fills `out` (cleared first) with every legal move of `hand`; reuse `out` across calls to
/// avoid allocating.
pub fn legal_moves_into(hand: Cards, last: Option<&Move>, rules: &Rules, out: &mut Vec<Move>) {
    out.clear();
    let _ = for_each_legal_move(hand, last, rules, |m| {
        out.push(m);
        ControlFlow::<()>::Continue(())
    });
}

/// Number of legal moves of `hand` (pass included when following), without allocating.
pub fn count_legal_moves(hand: Cards, last: Option<&Move>, rules: &Rules) -> usize {
    let mut n = 0;
    let _ = for_each_legal_move(hand, last, rules, |_| {
        n += 1;
        ControlFlow::<()>::Continue(())
    });
    n
}

/// Every move of one kind that `hand` can lead (the seed library's "find a given
/// combination"), in the order of the module docs.
///
/// ```
/// use ddz_core::{moves_of_kind, Kind, Rules};
/// let rules = Rules::classic();
/// let straights = moves_of_kind("3456789".parse().unwrap(), Kind::Straight, &rules);
/// assert_eq!(straights.len(), 6); // three of 5, two of 6, one of 7
/// ```
pub fn moves_of_kind(hand: Cards, kind: Kind, rules: &Rules) -> Vec<Move> {
    let mut out = Vec::new();
    if !fits_decks(hand, rules) {
        return out;
    }
    if crate::wild::has_wild(hand, rules) {
        let _ = wild_moves(hand, None, rules, |m| {
            if m.kind() == kind {
                out.push(m);
            }
            ControlFlow::<()>::Continue(())
        });
        return out;
    }
    let mut g = generator(hand, rules, |m| {
        out.push(m);
        ControlFlow::<()>::Continue(())
    });
    let _ = match kind {
        Kind::Pass => ControlFlow::Continue(()),
        Kind::Bomb => g.bombs_and_rocket(None, false),
        _ => g.kind(kind, None, None),
    };
    out
}

/// Is `m` a legal play for `hand` with `last` on the table (`None` or a pass when leading)?
/// Agrees with [`legal_moves`]: `m` must be a reading the rules give its cards, its cards must
/// be in the hand, and it must beat `last`; a pass is legal only when following.
///
/// ```
/// use ddz_core::{is_legal, parse_move, Rules};
/// let rules = Rules::classic();
/// let hand = "3345".parse().unwrap();
/// let pair = parse_move("33", &rules, None).unwrap();
/// assert!(is_legal(hand, None, &pair, &rules));
/// assert!(!is_legal(hand, Some(&pair), &pair, &rules));
/// ```
pub fn is_legal(hand: Cards, last: Option<&Move>, m: &Move, rules: &Rules) -> bool {
    let last = last.filter(|l| !l.is_pass());
    if m.is_pass() {
        return last.is_some();
    }
    fits_decks(hand, rules)
        && hand.contains(m.cards())
        && is_valid_reading(m, rules)
        && last.is_none_or(|l| m.beats(l, rules))
}
