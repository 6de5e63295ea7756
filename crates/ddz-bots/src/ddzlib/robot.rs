//! The `ddzlib` robot: leading, following, the special cases and bidding.

use core::cmp::Reverse;
use core::ops::ControlFlow;

use ddz_core::{
    Bidding, Cards, Kind, Move, Rank, Rules, classify, for_each_legal_move, is_legal, legal_moves,
    legal_moves_into, moves_of_kind, read_as,
};
use ddz_game::{Bid, BySeat, Role, Seat, SeatView, TurnView};

use super::{hand_count, split};
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
/// needs `h` = [`hand_count`] plays; each control card (a 2, a joker, a wild card) is worth
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

impl Bot for DdzlibBot {
    fn name(&self) -> &str {
        "ddzlib"
    }

    /// Points bidding: [`desired_bid`] if allowed, else the allowed bid closest to it (0, the
    /// pass, when the bidding is already past it). Call-and-rob: calls with a desired bid of 1
    /// or more, robs (someone has called) only with 2 or more.
    fn bid(&mut self, view: &SeatView, allowed: &[Bid]) -> Bid {
        let want = desired_bid(view.hand(), view.rules());
        let want = match view.rules().bidding {
            Bidding::Points => want,
            _ => {
                let robbing = view.bids().iter().any(|b| b.1 == 1);
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
    pub fn choose(&mut self, turn: &TurnView, allowed: &[Move]) -> Move {
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
    pub fn ladder(&mut self, turn: &TurnView) -> Vec<Move> {
        let mut ladder = Vec::new();
        self.walk_ladder(turn, &mut |m| {
            ladder.push(m);
            ControlFlow::Continue(())
        });
        ladder
    }

    /// The entries of [`Self::ladder`] to `emit`, best first, until it breaks: the entries
    /// after are not worked out (most decisions take the first).
    fn walk_ladder(&mut self, turn: &TurnView, emit: &mut Emit) {
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
    pub fn choose_legal(&mut self, turn: &TurnView, buf: &mut Vec<Move>) -> Move {
        self.choose_drawn(turn, buf, None)
    }

    /// A play drawn from the ladder instead of its first allowed entry, every legal move
    /// allowed: the allowed entries (each once, in ladder order) are taken with probabilities
    /// falling by `e^(−1/T)` a place (`temperature` T; near 0 this is [`Self::choose_legal`]),
    /// `unit` (in [0, 1)) deciding which. The plays that need no thought, and the fallback
    /// when no entry is allowed, are [`Self::choose`]'s. Search playouts use it to play a
    /// spread of likely lines; `buf` holds the legal moves when they must be generated.
    pub fn choose_softly(
        &mut self,
        turn: &TurnView,
        buf: &mut Vec<Move>,
        temperature: f64,
        unit: f64,
    ) -> Move {
        self.choose_drawn(turn, buf, Some((temperature, unit)))
    }

    /// [`Self::choose_legal`] (`draw` `None`) or [`Self::choose_softly`] (`draw` the
    /// temperature and the uniform draw).
    fn choose_drawn(
        &mut self,
        turn: &TurnView,
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
    pub fn options(&mut self, turn: &TurnView, buf: &mut Vec<Move>, most: usize) -> &[Move] {
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

/// Where a ladder's entries go, best first: it breaks once the taker has what it needs.
type Emit<'e> = dyn FnMut(Move) -> ControlFlow<()> + 'e;

/// Every move of `moves` to `emit`, in order, until it breaks.
fn emit_all(emit: &mut Emit, moves: impl IntoIterator<Item = Move>) -> ControlFlow<()> {
    moves.into_iter().try_for_each(emit)
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

/// True for the rocket and bombs (never led before the other groups, never split).
fn is_bomb(m: &Move) -> bool {
    m.kind().is_bomb_like()
}

/// One decision: the seat's view and its split, sorted by the lowest rank of each group.
struct Ctx<'a> {
    rules: &'a Rules,
    hand: Cards,
    seat: Seat,
    landlord: Option<Seat>,
    cards_left: BySeat<u32>,
    /// The split, smallest group first (lowest rank, then the seed's kind order).
    groups: &'a [Move],
}

impl<'a> Ctx<'a> {
    fn new(turn: &TurnView<'a>, groups: &'a [Move]) -> Ctx<'a> {
        Ctx {
            rules: turn.rules(),
            hand: turn.hand(),
            seat: turn.seat(),
            landlord: turn.landlord(),
            cards_left: turn.cards_left(),
            groups,
        }
    }

    /// The seat's role (`None` before a landlord is known: everyone is an opponent then).
    fn role(&self) -> Option<Role> {
        self.landlord.map(|l| Role::of(self.seat, l))
    }

    /// The other farmer, for a farmer.
    fn teammate(&self) -> Option<Seat> {
        let l = self.landlord?;
        (self.seat != l).then(|| {
            if self.seat.next() == l {
                l.next()
            } else {
                l.prev()
            }
        })
    }

    /// True if an opponent holds exactly `n` cards.
    fn enemy_on(&self, n: u32) -> bool {
        Seat::ALL
            .into_iter()
            .filter(|&s| s != self.seat && Some(s) != self.teammate())
            .any(|s| self.cards_left[s] == n)
    }

    /// Cards the landlord holds (`u32::MAX` when unknown).
    fn landlord_left(&self) -> u32 {
        self.landlord.map_or(u32::MAX, |l| self.cards_left[l])
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
    fn lead(&self, emit: &mut Emit) -> ControlFlow<()> {
        // A farmer whose next seat is the teammate on one card leads its smallest card.
        if let Some(mate) = self.teammate()
            && self.seat.next() == mate
            && self.cards_left[mate] == 1
        {
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
    fn follow(&self, by: Seat, last: Move, emit: &mut Emit) -> ControlFlow<()> {
        if last.kind() == Kind::Rocket {
            return emit(Move::PASS);
        }
        let from_mate = self.teammate() == Some(by);
        // Against a one-card opponent on a single: the landlord (either farmer on one card)
        // and the farmer playing just before the landlord (landlord on one card) follow with
        // their biggest card.
        let guard = last.kind() == Kind::Single
            && match self.role() {
                Some(Role::Landlord) => self.enemy_on(1),
                Some(Role::LandlordUp) => self.landlord_left() == 1,
                _ => false,
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
                        cards_left: BySeat([17; 3]),
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
