//! The `ddzlib` robot: its memo of splits, the special cases around the ladders, the fallback
//! and bidding. The ladders themselves (leading and following) are in `ladders.rs`.

use core::ops::ControlFlow;

use ddz_core::{
    Bidding, Cards, Kind, Move, Rank, Rules, classify, for_each_legal_move, is_legal,
    legal_moves_into,
};
use ddz_game::{Bid, Seat, SeatView, TurnView};

use super::ladders::{Ctx, Emit};
use super::split;
use crate::Bot;
use crate::analysis::wild_cards;

/// The `ddzlib` robot: splits its hand the ddzlib way ([`split`]) and leads and follows by the
/// seed's ladders and special cases (see the [module docs](crate::ddzlib) for every rule).
/// Deterministic: it keeps only the split of the last hand it saw, so that decisions made
/// with the same hand (after passing) do not split it again.
///
/// ```
/// use ddz_bots::ddzlib::DdzlibBot;
/// use ddz_bots::{Bot, bot_seed, make_bot, play_game};
/// use ddz_core::Rules;
/// use ddz_game::Seat;
///
/// let mut bots: [Box<dyn Bot>; 3] = [
///     Box::new(DdzlibBot::new()),
///     make_bot("random", bot_seed(1, Seat::ALL[1])).unwrap(),
///     make_bot("random", bot_seed(1, Seat::ALL[2])).unwrap(),
/// ];
/// let game = play_game(&Rules::classic(), 1, &mut bots).unwrap();
/// assert!(game.result().is_some());
/// ```
#[derive(Clone, Debug, Default)]
pub struct DdzlibBot {
    memo: SplitMemo,
    /// Scratch space for [`DdzlibBot::options`].
    options: Vec<Move>,
}

/// Slots of a robot's split memo (a power of two): a game's robot meets a few dozen hands.
const MEMO_SLOTS: usize = 64;

/// Recent splits, sorted for play ([`Ctx::new`]'s order), in a direct-mapped table keyed by
/// the hand: search playouts meet the same hands again and again (every candidate move is
/// played out on the same sampled hands). A split is a function of the hand and the rules, so
/// the memo changes no decision; it is emptied when the rules change.
#[derive(Clone, Debug)]
struct SplitMemo {
    rules: Option<Rules>,
    /// The table's size (a power of two); the slots are made on first use.
    size: usize,
    slots: Vec<Option<Memo>>,
}

/// What the memo keeps of a hand.
#[derive(Clone, Debug)]
struct Memo {
    hand: Cards,
    /// The split, sorted for play.
    groups: Vec<Move>,
    /// The readings of the whole hand as one play (usually none), once asked for.
    whole: Option<Vec<Move>>,
}

impl Default for SplitMemo {
    fn default() -> SplitMemo {
        SplitMemo {
            rules: None,
            size: MEMO_SLOTS,
            slots: Vec::new(),
        }
    }
}

impl SplitMemo {
    /// What the memo knows of `hand` under `rules`: its split, smallest group first, and the
    /// readings of the whole hand.
    fn get(&mut self, hand: Cards, rules: &Rules) -> &mut Memo {
        if self.rules.as_ref() != Some(rules) {
            self.rules = Some(rules.clone());
            self.slots.clear();
            self.slots.resize(self.size, None);
        }
        // Fibonacci hashing of the hand's bits (the top bits, masked to the table).
        let slot =
            (hand.bits().wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 40) as usize & (self.size - 1);
        let entry = &mut self.slots[slot];
        match entry {
            Some(memo) if memo.hand == hand => {}
            _ => {
                let mut groups = split(hand, rules);
                groups.sort_by_key(|g| (g.low(), lead_order(g.kind()), g.length()));
                *entry = Some(Memo {
                    hand,
                    groups,
                    whole: None,
                });
            }
        }
        entry.get_or_insert_with(|| Memo {
            hand,
            groups: Vec::new(),
            whole: None,
        })
    }
}

impl DdzlibBot {
    /// A `ddzlib` robot.
    pub fn new() -> DdzlibBot {
        DdzlibBot::default()
    }

    /// A `ddzlib` robot remembering the splits of about `hands` recent hands (rounded up to a
    /// power of two; at least 64): search playouts, which meet thousands of hands a decision,
    /// give it a large memo. The decisions are the same whatever the size.
    pub fn with_memo(hands: usize) -> DdzlibBot {
        DdzlibBot {
            memo: SplitMemo {
                size: hands.max(MEMO_SLOTS).next_power_of_two(),
                ..SplitMemo::default()
            },
            options: Vec::new(),
        }
    }
}

/// The points bid (0 to 3) the robot wants with `hand` under `rules`, from the split: the hand
/// needs `h` = [`super::hand_count`] plays; each control card (a 2, a joker, a wild card) is worth
/// one play won back, a bomb two and the rocket three, so `need` = `h` − controls is roughly
/// the number of plays the opponents can stop. `need` ≤ 2 bids 3, ≤ 4 bids 2, ≤ 6 bids 1, more
/// passes.
///
/// ```
/// use ddz_bots::ddzlib::desired_bid;
/// use ddz_core::Rules;
/// let rules = Rules::classic();
/// assert_eq!(desired_bid("3456789TJQKA2BR22".parse().unwrap(), &rules), 3);
/// assert_eq!(desired_bid("33457799TJJQKKAA2".parse().unwrap(), &rules), 0);
/// ```
pub fn desired_bid(hand: Cards, rules: &Rules) -> u8 {
    let groups = split(hand, rules);
    let wild = rules.laizi.bits();
    let controls: usize = groups
        .iter()
        .map(|g| match g.kind() {
            Kind::Rocket => 3,
            Kind::Bomb => 2,
            _ => g
                .cards()
                .iter()
                .filter(|&r| r >= Rank::Two || wild & (1 << r as u16) != 0)
                .count(),
        })
        .sum();
    match groups.len().saturating_sub(controls) {
        0..=2 => 3,
        3..=4 => 2,
        5..=6 => 1,
        _ => 0,
    }
}

/// ddzlib's bid for `hand` after `bids`, one of `allowed`, at any table. Points bidding:
/// [`desired_bid`] if allowed, else the allowed bid closest to it (0, the pass, when the
/// bidding is already past it). Call-and-rob: calls with a desired bid of 1 or more, robs
/// (someone has called) only with 2 or more.
pub fn ddzlib_bid(hand: Cards, rules: &Rules, bids: &[(Seat, Bid)], allowed: &[Bid]) -> Bid {
    let want = desired_bid(hand, rules);
    let want = match rules.bidding {
        Bidding::Points => want,
        _ => {
            let robbing = bids.iter().any(|b| b.1 == 1);
            u8::from(want >= if robbing { 2 } else { 1 })
        }
    };
    if allowed.contains(&want) {
        return want;
    }
    // The pass when allowed (the bidding is past the wanted bid), else the closest bid.
    if allowed.contains(&0) {
        return 0;
    }
    allowed
        .iter()
        .copied()
        .min_by_key(|&b| (b.abs_diff(want), b))
        .unwrap_or(0)
}

impl Bot for DdzlibBot {
    fn name(&self) -> &str {
        "ddzlib"
    }

    /// [`ddzlib_bid`].
    fn bid(&mut self, view: &SeatView, allowed: &[Bid]) -> Bid {
        ddzlib_bid(view.hand(), view.rules(), view.bids(), allowed)
    }

    /// [`crate::stakes::ddzlib_double`]: super-doubles with a desired bid of 3, doubles with
    /// 2.
    fn double(&mut self, view: &SeatView, allowed: &[u32]) -> u32 {
        crate::stakes::ddzlib_double(view, allowed)
    }

    /// [`crate::stakes::ddzlib_show`]: a desired bid of 3 at a late window.
    fn show(&mut self, view: &SeatView, _factor: u32) -> bool {
        crate::stakes::ddzlib_show(view)
    }

    fn play(&mut self, view: &SeatView, allowed: &[Move]) -> Move {
        self.choose(&view.turn_view(), allowed)
    }
}

impl DdzlibBot {
    /// The play for the seat of `turn`, one of `allowed`: what [`Bot::play`] decides, from
    /// the borrowed [`TurnView`] alone (search playouts call it without building a view).
    pub fn choose<const N: usize>(&mut self, turn: &TurnView<'_, N>, allowed: &[Move]) -> Move {
        if let Some(m) = crate::obvious_play(turn.hand(), allowed) {
            return m;
        }
        let mut found = None;
        self.walk_ladder(turn, &mut |want| match find_allowed(allowed, &want) {
            Some(m) => {
                found = Some(m);
                ControlFlow::Break(())
            }
            None => ControlFlow::Continue(()),
        });
        found.unwrap_or_else(|| fallback(turn.last().is_none(), allowed))
    }
}

impl DdzlibBot {
    /// The robot's preferences for the seat of `turn`, best first: the ladder [`Self::choose`]
    /// walks down, taking the first allowed entry (and, when none is, the pass or the smallest
    /// play). Entries may repeat and, in rare cases, not be allowed; the pass is listed only
    /// where a ladder puts it. Search inference scores observed plays by their place here.
    pub fn ladder<const N: usize>(&mut self, turn: &TurnView<'_, N>) -> Vec<Move> {
        let mut ladder = Vec::new();
        self.walk_ladder(turn, &mut |m| {
            ladder.push(m);
            ControlFlow::Continue(())
        });
        ladder
    }

    /// The entries of [`Self::ladder`] to `emit`, best first, until it breaks: the entries
    /// after are not worked out (most decisions take the first).
    fn walk_ladder<const N: usize>(&mut self, turn: &TurnView<'_, N>, emit: &mut Emit) {
        let ctx = Ctx::new(turn, &self.memo.get(turn.hand(), turn.rules()).groups);
        // Whether `emit` stopped early or not, there is nothing more to do.
        let _ = match turn.last() {
            None => ctx.lead(emit),
            Some((seat, last)) => ctx.follow(seat, last, emit),
        };
    }
}

impl DdzlibBot {
    /// [`Self::choose`] with every legal move allowed, without generating them unless it must:
    /// each ladder entry is checked with [`is_legal`], and the legal moves are generated (into
    /// `buf`) only when the whole hand may be legal at once, an entry is not legal as read
    /// (another reading of its cards may be), or no entry is. Search playouts call it: the
    /// move is the one [`Self::choose`] makes given all the legal moves.
    pub fn choose_legal<const N: usize>(
        &mut self,
        turn: &TurnView<'_, N>,
        buf: &mut Vec<Move>,
    ) -> Move {
        self.choose_drawn(turn, buf, None)
    }

    /// A play drawn from the ladder instead of its first allowed entry, every legal move
    /// allowed: the allowed entries (each once, in ladder order) are taken with probabilities
    /// falling by `e^(−1/T)` a place (`temperature` T; near 0 this is [`Self::choose_legal`]),
    /// `unit` (in [0, 1)) deciding which. The plays that need no thought, and the fallback
    /// when no entry is allowed, are [`Self::choose`]'s. Search playouts use it to play a
    /// spread of likely lines; `buf` holds the legal moves when they must be generated.
    pub fn choose_softly<const N: usize>(
        &mut self,
        turn: &TurnView<'_, N>,
        buf: &mut Vec<Move>,
        temperature: f64,
        unit: f64,
    ) -> Move {
        self.choose_drawn(turn, buf, Some((temperature, unit)))
    }

    /// [`Self::choose_legal`] (`draw` `None`) or [`Self::choose_softly`] (`draw` the
    /// temperature and the uniform draw).
    fn choose_drawn<const N: usize>(
        &mut self,
        turn: &TurnView<'_, N>,
        buf: &mut Vec<Move>,
        draw: Option<(f64, f64)>,
    ) -> Move {
        let Some((temperature, unit)) = draw else {
            return self.options(turn, buf, 1)[0];
        };
        let options = self.options(turn, buf, usize::MAX);
        // Inverse of the truncated geometric distribution's CDF.
        let ratio = (-1.0 / temperature).exp();
        let total: f64 = (0..options.len()).map(|k| ratio.powi(k as i32)).sum();
        let mut left = unit.clamp(0.0, 1.0) * total;
        for (k, m) in options.iter().enumerate() {
            left -= ratio.powi(k as i32);
            if left < 0.0 {
                return *m;
            }
        }
        options[options.len() - 1]
    }

    /// The robot's first `most` choices (at least 1) with every legal move allowed, best
    /// first, each once: the distinct allowed entries of its ladder, or, when a play needs no
    /// thought or no entry is allowed, that one play ([`Self::choose`]'s). The legal moves
    /// are generated into `buf` only when needed (see [`Self::choose_legal`]). Never empty.
    pub fn options<const N: usize>(
        &mut self,
        turn: &TurnView<'_, N>,
        buf: &mut Vec<Move>,
        most: usize,
    ) -> &[Move] {
        let last = turn.last().map(|(_, m)| m);
        let rules = turn.rules();
        let mut generated = false;
        let mut generate = |buf: &mut Vec<Move>| {
            if !generated {
                legal_moves_into(turn.hand(), last.as_ref(), rules, buf);
                generated = true;
            }
        };
        let mut options = std::mem::take(&mut self.options);
        options.clear();
        // The whole hand at once (it wins): `choose` takes the first such legal play in the
        // generated order, so the moves are generated only when there are several.
        let memo = self.memo.get(turn.hand(), rules);
        let whole = memo.whole.get_or_insert_with(|| {
            if may_be_one_play(turn.hand(), rules) {
                classify(turn.hand(), rules)
            } else {
                Vec::new()
            }
        });
        let mut legal_whole = whole
            .iter()
            .filter(|m| is_legal(turn.hand(), last.as_ref(), m, rules));
        if let Some(&first) = legal_whole.next() {
            if legal_whole.next().is_none() {
                options.push(first);
            } else {
                generate(buf);
                options.push(self.choose(turn, buf));
            }
            self.options = options;
            return &self.options;
        }
        // Following with nothing that beats: the pass is the only move (`choose` takes it
        // without consulting the ladder).
        if let Some(to_beat) = last.as_ref()
            && for_each_legal_move(turn.hand(), Some(to_beat), rules, |m| {
                if m.is_pass() {
                    ControlFlow::Continue(())
                } else {
                    ControlFlow::Break(())
                }
            })
            .is_continue()
        {
            options.push(Move::PASS);
            self.options = options;
            return &self.options;
        }
        self.walk_ladder(turn, &mut |want| {
            let found = if is_legal(turn.hand(), last.as_ref(), &want, rules) {
                Some(want)
            } else if want.is_pass() {
                None
            } else {
                generate(buf);
                find_allowed(buf, &want)
            };
            if let Some(m) = found
                && !options.contains(&m)
            {
                options.push(m);
                if options.len() >= most {
                    return ControlFlow::Break(());
                }
            }
            ControlFlow::Continue(())
        });
        if options.is_empty() {
            // Following, the fallback is the pass, which is always allowed then.
            if turn.last().is_some() {
                options.push(Move::PASS);
            } else {
                generate(buf);
                options.push(fallback(true, buf));
            }
        }
        self.options = options;
        &self.options
    }
}

/// False when `hand` cannot be a single play, by its shape alone (a cheap test before reading
/// it): without wild cards, a hand of more than 5 cards whose ranks are not all held the same
/// number of times is a body of trios or fours with kickers, so it holds at most 5 cards for
/// each rank held three times (a trio with a pair) and 8 for each held four times (four with
/// two pairs).
fn may_be_one_play(hand: Cards, rules: &Rules) -> bool {
    let n = hand.len();
    if n <= 5 || !wild_cards(hand, rules).is_empty() {
        return true;
    }
    let counts = hand.counts();
    let mut held = counts.iter().copied().filter(|&c| c > 0);
    let first = held.next().unwrap_or(0);
    if held.all(|c| c == first) {
        return true;
    }
    let most: u32 = counts
        .iter()
        .map(|&c| match c {
            3 => 5,
            c if c >= 4 => 8,
            _ => 0,
        })
        .sum();
    n <= most
}

/// `want` if it is allowed; else an allowed play of the same cards read another way (as a
/// one-reading profile or a narrower controller may list it): of the same kind first, else of
/// another kind on the same side of the bomb line (never a bomb for a non-bomb, or back).
fn find_allowed(allowed: &[Move], want: &Move) -> Option<Move> {
    if let Some(m) = allowed.iter().find(|m| *m == want) {
        return Some(*m);
    }
    if want.is_pass() {
        return None;
    }
    let same_cards = |m: &&Move| !m.is_pass() && m.cards() == want.cards();
    allowed
        .iter()
        .filter(same_cards)
        .find(|m| m.kind() == want.kind())
        .or_else(|| {
            allowed
                .iter()
                .filter(same_cards)
                .find(|m| m.kind().is_bomb_like() == want.kind().is_bomb_like())
        })
        .copied()
}

/// The move when no preference is allowed: leading, the smallest allowed play (non-bombs
/// first, then the lowest main rank, then the fewest cards); following, the pass if allowed,
/// else the smallest allowed play the same way.
fn fallback(leading: bool, allowed: &[Move]) -> Move {
    let pass = allowed.iter().find(|m| m.is_pass());
    if !leading && let Some(&p) = pass {
        return p;
    }
    allowed
        .iter()
        .filter(|m| !m.is_pass())
        .min_by_key(|m| (m.kind().is_bomb_like(), m.main(), m.card_count()))
        .or(pass)
        .copied()
        .unwrap_or(Move::PASS)
}

/// Order of the kinds when two groups start at the same rank (the seed's list: single, pair,
/// pair chain, straight, airplane, trio).
fn lead_order(kind: Kind) -> u8 {
    match kind {
        Kind::Single => 0,
        Kind::Pair => 1,
        Kind::PairChain => 2,
        Kind::Straight => 3,
        Kind::Airplane => 4,
        _ => 5,
    }
}
