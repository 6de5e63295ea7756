//! Wildcards (癞子, RULES.md section 5): reading and generating plays that hold wild cards.
//!
//! A play with wild cards carries its physical cards and its reading. Natural cards always
//! stand for themselves; in a play that also holds natural cards a wild card stands for any
//! rank 3..2 (its own included, never a joker); a play made only of wild cards is read at its
//! natural ranks (and, under heaven-and-earth, when it holds both wild ranks, also as a pair,
//! trio or bomb of either wild rank).
//!
//! One validator, [`read_wild`], decides whether physical cards can be read as a kind with a
//! main rank and length, and gives the canonical reading: body ranks as the kind says, wild
//! kickers as their own rank when allowed, else the lowest allowed rank, and (with two wild
//! ranks) the body taking the lower wild rank's cards first. Classification and generation
//! both go through it, so they agree by construction.

use core::ops::ControlFlow;

use crate::cards::Cards;
use crate::kind::{Kickers, Kind};
use crate::natural::{
    CHAIN_MASK, SUITED_MASK, kind_enabled, read_natural, run_neighbours, single_kicker_cap,
    window_cards, window_mask,
};
use crate::play::{BombClass, Move};
use crate::rank::Rank;
use crate::rules::{Rules, Wild};

/// The wild ranks in force as a rank mask (empty without wildcards).
#[inline]
pub(crate) fn wild_mask(rules: &Rules) -> u16 {
    if rules.wild == Wild::None {
        0
    } else {
        rules.laizi.bits() & SUITED_MASK
    }
}

/// True if `cards` hold a wild card under `rules`.
#[inline]
pub(crate) fn has_wild(cards: Cards, rules: &Rules) -> bool {
    cards.rank_mask() & wild_mask(rules) != 0
}

/// The wild ranks, lowest first (at most two).
#[inline]
fn wild_ranks(rules: &Rules) -> ([Rank; 2], usize) {
    lowest_two(wild_mask(rules))
}

/// The two lowest ranks of a rank mask, and how many there are (at most two).
#[inline]
fn lowest_two(mask: u16) -> ([Rank; 2], usize) {
    let first = mask.trailing_zeros() as usize;
    let rest = mask & mask.wrapping_sub(1);
    let second = rest.trailing_zeros() as usize;
    let n = (mask != 0) as usize + (rest != 0) as usize;
    ([Rank::ALL[first.min(14)], Rank::ALL[second.min(14)]], n)
}

/// The reading of `cards` as `kind` with `main` and `len` body ranks, for cards holding at
/// least one wild card; `None` if there is none.
pub(crate) fn read_wild(
    cards: Cards,
    kind: Kind,
    main: Rank,
    len: u8,
    rules: &Rules,
) -> Option<Move> {
    if !kind_enabled(kind, rules) || !cards.is_valid_deck_subset() {
        return None;
    }
    let wmask = wild_mask(rules);
    let wilds = cards.restrict(wmask);
    let naturals = cards.minus(wilds);
    if naturals.is_empty() {
        return read_all_wild(cards, kind, main, len, rules);
    }
    let w_total = wilds.len() as u8;
    match kind {
        Kind::Pass | Kind::Rocket | Kind::FourJokers | Kind::Single => None,
        Kind::Bomb => {
            let size = cards.len() as u8;
            let ok_size = size == 4 || (size > 4 && size <= rules.max_bomb_cards());
            let only_main = naturals.count(main) as u32 == naturals.len();
            if !ok_size || !only_main || main > Rank::Two || wmask & (1 << main as u16) != 0 {
                return None;
            }
            let reading = Cards::of(main, size);
            let class = if w_total == 0 {
                BombClass::Hard
            } else {
                BombClass::Soft
            };
            Some(Move::new_unchecked(
                cards,
                reading,
                kind,
                main,
                1,
                Some(class),
            ))
        }
        _ => {
            let shape = kind.shape();
            if len < shape.min_len || len > shape.max_len || cards.len() != shape.cards(len) as u32
            {
                return None;
            }
            let main_i = main as usize;
            let low = (main_i + 1).checked_sub(len as usize)?;
            let top_ok = if shape.is_chain() {
                main <= Rank::Ace
            } else {
                main <= Rank::Two
            };
            if !top_ok {
                return None;
            }
            let body_mask = window_mask(low, len);
            let body = window_cards(low, len, shape.per_rank);
            // Every natural card of a body rank is in the body (kickers never have a body rank).
            let body_naturals = naturals.restrict(body_mask);
            let deficit = body.difference(body_naturals)?.len() as u8;
            if deficit > w_total {
                return None;
            }
            // The body takes the lower wild rank's cards first.
            let (ranks, n) = wild_ranks(rules);
            let mut kicker_wilds = [(Rank::Three, 0u8); 2];
            let mut left = deficit;
            for (i, &r) in ranks[..n].iter().enumerate() {
                let have = wilds.count(r);
                let used = have.min(left);
                left -= used;
                kicker_wilds[i] = (r, have - used);
            }
            let kicker_naturals = naturals.minus(body_naturals);
            let kickers = kicker_reading(
                kind,
                low,
                main_i,
                body_mask,
                kicker_naturals,
                &kicker_wilds[..n],
                rules,
            )?;
            Some(Move::new_unchecked(
                cards,
                body.union(kickers),
                kind,
                main,
                len,
                None,
            ))
        }
    }
}

/// Readings of a play made only of wild cards: its natural readings, and with both wild ranks
/// a pair, trio or bomb of either wild rank.
fn read_all_wild(cards: Cards, kind: Kind, main: Rank, len: u8, rules: &Rules) -> Option<Move> {
    if read_natural(cards, kind, main, rules).is_some_and(|m| m.length() == len) {
        let class = (kind == Kind::Bomb).then_some(BombClass::Pure);
        return Some(Move::new_unchecked(cards, cards, kind, main, len, class));
    }
    let wmask = wild_mask(rules);
    let both = cards.rank_mask() == wmask && wmask.count_ones() == 2;
    if !both || wmask & (1 << main as u16) == 0 || len != 1 {
        return None;
    }
    let size = cards.len() as u8;
    let fits = match kind {
        Kind::Pair => size == 2,
        Kind::Trio => size == 3,
        Kind::Bomb => size == 4 || (size > 4 && size <= rules.max_bomb_cards()),
        _ => false,
    };
    let class = (kind == Kind::Bomb).then_some(BombClass::Pure);
    fits.then(|| Move::new_unchecked(cards, Cards::of(main, size), kind, main, 1, class))
}

/// The canonical reading of a play's kickers: `naturals` stand for themselves, each wild card
/// (`wilds`: (rank, count)) for its own rank when allowed, else the lowest allowed rank.
/// `None` if no reading makes valid kickers.
fn kicker_reading(
    kind: Kind,
    low: usize,
    main: usize,
    body_mask: u16,
    naturals: Cards,
    wilds: &[(Rank, u8)],
    rules: &Rules,
) -> Option<Cards> {
    let pick = |allowed: u16, own: Rank| -> Option<Rank> {
        if allowed & (1 << own as u16) != 0 {
            Some(own)
        } else if allowed != 0 {
            Rank::from_index(allowed.trailing_zeros() as usize)
        } else {
            None
        }
    };
    let open = SUITED_MASK & !body_mask;
    match kind.shape().kickers {
        Kickers::None => {
            (naturals.is_empty() && wilds.iter().all(|w| w.1 == 0)).then_some(Cards::EMPTY)
        }
        Kickers::Singles { .. } => {
            if !rules.rocket_as_kickers && naturals.contains(Cards::ROCKET) {
                return None;
            }
            let cap = single_kicker_cap(kind, rules);
            let neighbours = if kind == Kind::AirplaneSingles && !rules.airplane_singles_longer_run
            {
                run_neighbours(low, main)
            } else {
                0
            };
            // Ranks at their cap: no more kickers of them.
            let full = |c: Cards| c.mask_at_least(cap.min(4)) | (c.mask_at_least(2) & neighbours);
            let over = if cap < 4 {
                naturals.mask_at_least(cap + 1)
            } else {
                0
            };
            if over | (naturals.mask_at_least(3) & neighbours) != 0 {
                return None;
            }
            let mut reading = naturals;
            for &(own, count) in wilds {
                for _ in 0..count {
                    let target = pick(open & !full(reading), own)?;
                    reading = reading.add(target, 1);
                }
            }
            Some(reading)
        }
        Kickers::Pairs { .. } => {
            if naturals.rank_mask() & !SUITED_MASK != 0 {
                return None;
            }
            let mut spare: u8 = wilds.iter().map(|w| w.1).sum();
            // Natural singles and trios take one wild card each to make pairs.
            let odd = naturals.mask_at_least(1) & !naturals.mask_at_least(2)
                | naturals.mask_at_least(3) & !naturals.mask_at_least(4);
            let completions = odd.count_ones() as u8;
            if completions > spare {
                return None;
            }
            spare -= completions;
            // Completed counts: 1 -> 2, 3 -> 4.
            let mut reading = naturals.union(Cards::one_of_each(odd));
            if !rules.quad_as_two_pairs && reading.mask_at_least(4) != 0 {
                return None;
            }
            if spare % 2 == 1 {
                return None;
            }
            // The remaining wild cards pair up, in order of their ranks.
            let mut order = [Rank::Three; 12];
            let mut n = 0;
            for &(r, c) in wilds {
                for _ in 0..c {
                    order[n] = r;
                    n += 1;
                }
            }
            let most = if rules.quad_as_two_pairs { 3 } else { 1 };
            for pair in order[completions as usize..n].chunks(2) {
                let target = pick(open & !reading.mask_at_least(most), pair[0])?;
                reading = reading.add(target, 2);
            }
            Some(reading)
        }
    }
}

/// The readings of `cards` (holding a wild card) in kind order, then length, then main.
pub(crate) fn for_each_wild_reading(cards: Cards, rules: &Rules, mut f: impl FnMut(Move)) {
    let n = cards.len();
    for kind in Kind::ALL {
        if !kind_enabled(kind, rules) {
            continue;
        }
        let shape = kind.shape();
        for len in shape.min_len..=shape.max_len {
            if kind != Kind::Bomb && shape.cards(len) as u32 != n {
                continue;
            }
            for main in Rank::ALL {
                if let Some(m) = read_wild(cards, kind, main, len, rules) {
                    f(m);
                }
            }
        }
    }
}

/// The wild ranks held in `wilds`, lowest first, and how many there are (at most two).
#[inline]
fn wild_ranks_held(wilds: Cards) -> ([Rank; 2], usize) {
    lowest_two(wilds.rank_mask())
}

/// One body being filled: its shape, the natural cards it uses and the wild cards it needs.
struct Body {
    kind: Kind,
    main: Rank,
    len: u8,
    low: usize,
    body: Cards,
    body_mask: u16,
    used: Cards,
    deficit: u8,
    meta: u64,
}

/// Generates the moves of a hand holding wild cards.
pub(crate) struct WildGen<'a, F> {
    pub(crate) naturals: Cards,
    pub(crate) wilds: Cards,
    pub(crate) rules: &'a Rules,
    pub(crate) emit: F,
}

impl<B, F: FnMut(Move) -> ControlFlow<B>> WildGen<'_, F> {
    /// Validates physical `cards` as (kind, main, len) and emits the move.
    #[inline]
    fn try_emit(&mut self, cards: Cards, kind: Kind, main: Rank, len: u8) -> ControlFlow<B> {
        let m = if has_wild(cards, self.rules) {
            read_wild(cards, kind, main, len, self.rules)
        } else {
            read_natural(cards, kind, main, self.rules).filter(|m| m.length() == len)
        };
        match m {
            Some(m) => (self.emit)(m),
            None => ControlFlow::Continue(()),
        }
    }

    /// Every move of `kind` (with `len`, only that length; with `above`, only mains above).
    pub(crate) fn kind(
        &mut self,
        kind: Kind,
        len: Option<u8>,
        above: Option<Rank>,
    ) -> ControlFlow<B> {
        if !kind_enabled(kind, self.rules) {
            return ControlFlow::Continue(());
        }
        let hand = self.naturals.union(self.wilds);
        match kind {
            // No four jokers with wild cards (the rules refuse wildcards with two decks).
            Kind::Pass | Kind::FourJokers => return ControlFlow::Continue(()),
            Kind::Rocket => {
                if hand.contains(Cards::ROCKET) && above.is_none() {
                    return self.try_emit(Cards::ROCKET, kind, Rank::BigJoker, 1);
                }
                return ControlFlow::Continue(());
            }
            Kind::Single => {
                for r in hand.ranks() {
                    if above.is_none_or(|a| r > a) {
                        self.try_emit(Cards::single(r), kind, r, 1)?;
                    }
                }
                return ControlFlow::Continue(());
            }
            Kind::Bomb => return self.bombs(None),
            _ => {}
        }
        let shape = kind.shape();
        let (min_len, max_len) = len.map_or((shape.min_len, shape.max_len), |l| (l, l));
        let top_range = if shape.is_chain() {
            CHAIN_MASK
        } else {
            SUITED_MASK
        };
        let w_total = self.wilds.len() as u8;
        for len in min_len..=max_len {
            if shape.cards(len) as u32 > hand.len() {
                break;
            }
            for main in Rank::ALL {
                let i = main as usize;
                if top_range & (1 << i) == 0
                    || i + 1 < len as usize
                    || above.is_some_and(|a| main <= a)
                {
                    continue;
                }
                let low = i + 1 - len as usize;
                let body = window_cards(low, len, shape.per_rank);
                // Cheap bound: the naturals of the window must leave a deficit the wilds fill.
                let held = self.naturals.restrict(window_mask(low, len));
                let deficit = body.saturating_minus(held).len();
                if deficit > w_total as u32 {
                    continue;
                }
                self.bodies(kind, main, len, low, body)?;
            }
        }
        ControlFlow::Continue(())
    }

    /// Every choice of natural cards for the body, then kickers and wild cards.
    fn bodies(
        &mut self,
        kind: Kind,
        main: Rank,
        len: u8,
        low: usize,
        body: Cards,
    ) -> ControlFlow<B> {
        let w_total = self.wilds.len() as u8;
        let per = kind.shape().per_rank;
        let mut choice = [0u8; 12];
        let mut maxes = [0u8; 12];
        for (k, m) in maxes.iter_mut().enumerate().take(len as usize) {
            *m = self.naturals.count(Rank::ALL[low + k]).min(per);
        }
        // Odometer over the natural count of each body rank.
        loop {
            let used: Cards = (0..len as usize).fold(Cards::EMPTY, |acc, k| {
                acc.add(Rank::ALL[low + k], choice[k])
            });
            let deficit = body.len() - used.len();
            if deficit <= w_total as u32 {
                self.kickers(kind, main, len, low, used, deficit as u8)?;
            }
            let mut k = 0;
            loop {
                if k == len as usize {
                    return ControlFlow::Continue(());
                }
                if choice[k] < maxes[k] {
                    choice[k] += 1;
                    break;
                }
                choice[k] = 0;
                k += 1;
            }
        }
    }

    /// Every choice of natural kickers and wild cards for a body of natural cards `used`
    /// needing `deficit` wild cards.
    fn kickers(
        &mut self,
        kind: Kind,
        main: Rank,
        len: u8,
        low: usize,
        used: Cards,
        deficit: u8,
    ) -> ControlFlow<B> {
        let shape = kind.shape();
        let kicker_cards = shape.kickers.cards(len);
        let body_mask = window_mask(low, len);
        // Natural kicker candidates: ranks outside the body (pairs: no jokers).
        let pool_mask = match shape.kickers {
            Kickers::None => 0,
            Kickers::Singles { .. } => !body_mask,
            Kickers::Pairs { .. } => !body_mask & SUITED_MASK,
        };
        let mut pool = self.naturals.restrict(pool_mask);
        if let Kickers::Singles { .. } = shape.kickers {
            // More natural copies of a rank than single kickers may hold can never be valid.
            let cap = single_kicker_cap(kind, self.rules);
            let mut counts = pool.counts();
            for c in counts.iter_mut() {
                *c = (*c).min(cap);
            }
            pool = Cards::from_counts(&counts);
        }
        let mut ranks = [Rank::Three; 15];
        let mut n = 0;
        for r in pool.ranks() {
            ranks[n] = r;
            n += 1;
        }
        let body = window_cards(low, len, shape.per_rank);
        let ctx = Body {
            kind,
            main,
            len,
            low,
            body,
            body_mask,
            used,
            deficit,
            meta: Move::pack(kind, main, len, None),
        };
        self.natural_kickers(&ctx, Cards::EMPTY, &ranks[..n], kicker_cards, pool)
    }

    /// Recursively picks natural kickers (at most `left` more cards), then fills the rest with
    /// wild cards.
    #[allow(clippy::too_many_arguments)]
    fn natural_kickers(
        &mut self,
        ctx: &Body,
        kick: Cards,
        ranks: &[Rank],
        left: u8,
        pool: Cards,
    ) -> ControlFlow<B> {
        // Fill the remaining kicker places with wild cards.
        let wild_needed = ctx.deficit + left;
        if wild_needed <= self.wilds.len() as u8 {
            self.wild_splits(ctx, kick, wild_needed)?;
        }
        if left == 0 {
            return ControlFlow::Continue(());
        }
        for (k, &r) in ranks.iter().enumerate() {
            let most = pool.count(r).min(left);
            let mut with = kick;
            for t in 1..=most {
                with = with.add(r, 1);
                self.natural_kickers(ctx, with, &ranks[k + 1..], left - t, pool)?;
            }
        }
        ControlFlow::Continue(())
    }

    /// Every way to take `n` wild cards from the hand's wild ranks for a body and kickers.
    fn wild_splits(&mut self, ctx: &Body, kick: Cards, n: u8) -> ControlFlow<B> {
        let (ranks, count) = wild_ranks_held(self.wilds);
        match count {
            0 if n == 0 => self.emit_candidate(ctx, kick, [0, 0])?,
            1 if n <= self.wilds.count(ranks[0]) => self.emit_candidate(ctx, kick, [n, 0])?,
            2 => {
                for na in 0..=self.wilds.count(ranks[0]).min(n) {
                    let nb = n - na;
                    if nb <= self.wilds.count(ranks[1]) {
                        self.emit_candidate(ctx, kick, [na, nb])?;
                    }
                }
            }
            _ => {}
        }
        ControlFlow::Continue(())
    }

    /// Emits the move of a body, natural kickers `kick` and `wild` cards of each wild rank
    /// held, with the same canonical reading as [`read_wild`] (which it calls for plays made
    /// only of wild cards).
    fn emit_candidate(&mut self, ctx: &Body, kick: Cards, wild: [u8; 2]) -> ControlFlow<B> {
        let (ranks, count) = wild_ranks_held(self.wilds);
        let mut cards = ctx.used.union(kick);
        for i in 0..count {
            cards = cards.add(ranks[i], wild[i]);
        }
        if ctx.used.is_empty() && kick.is_empty() {
            return match read_wild(cards, ctx.kind, ctx.main, ctx.len, self.rules) {
                Some(m) => (self.emit)(m),
                None => ControlFlow::Continue(()),
            };
        }
        // The body takes the lower wild rank's cards first; the rest are kickers.
        let mut left = ctx.deficit;
        let mut kicker_wilds = [(Rank::Three, 0u8); 2];
        for i in 0..count {
            let used = wild[i].min(left);
            left -= used;
            kicker_wilds[i] = (ranks[i], wild[i] - used);
        }
        let main = ctx.main as usize;
        let kickers = kicker_reading(
            ctx.kind,
            ctx.low,
            main,
            ctx.body_mask,
            kick,
            &kicker_wilds[..count],
            self.rules,
        );
        match kickers {
            Some(k) => (self.emit)(Move::from_parts(cards, ctx.body.union(k), ctx.meta)),
            None => ControlFlow::Continue(()),
        }
    }

    /// All bombs (of every size) that beat `last` (all when `None`), by size, then rank, then
    /// natural cards used; then nothing else (the rocket is its own kind).
    pub(crate) fn bombs(&mut self, last: Option<&Move>) -> ControlFlow<B> {
        let w_total = self.wilds.len() as u8;
        for size in 4..=self.rules.max_bomb_cards() {
            for main in Rank::SUITED {
                let have = self.naturals.count(main);
                for n in (0..=have.min(size)).rev() {
                    let need = size - n;
                    if need > w_total {
                        continue;
                    }
                    let naturals = Cards::of(main, n);
                    let emitted = |g: &mut Self, cards: Cards| -> ControlFlow<B> {
                        let m = if has_wild(cards, g.rules) {
                            read_wild(cards, Kind::Bomb, main, 1, g.rules)
                        } else {
                            read_natural(cards, Kind::Bomb, main, g.rules)
                        };
                        match m {
                            Some(m) if last.is_none_or(|l| m.beats(l, g.rules)) => (g.emit)(m),
                            _ => ControlFlow::Continue(()),
                        }
                    };
                    let (ranks, count) = wild_ranks_held(self.wilds);
                    let (a, b) = (ranks[0], ranks[1]);
                    match count {
                        0 => emitted(self, naturals)?,
                        1 => emitted(self, naturals.add(a, need))?,
                        _ => {
                            for na in 0..=self.wilds.count(a).min(need) {
                                let nb = need - na;
                                if nb <= self.wilds.count(b) {
                                    emitted(self, naturals.add(a, na).add(b, nb))?;
                                }
                            }
                        }
                    }
                }
            }
        }
        ControlFlow::Continue(())
    }
}
