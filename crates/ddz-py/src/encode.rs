//! Observation encodings: RLCard's (`rlcard`) and DouZero's (`douzero`), written into caller
//! buffers so that batched stepping allocates nothing.
//!
//! Both start from the same 54-value card vector ([`cards54`]): for each rank 3..2 four
//! values, the first `count` set to 1 (a thermometer), then one value for each joker. Seats are
//! taken by role (landlord, landlord_down who plays after it, landlord_up who plays before it),
//! so any landlord seat gives the vectors RLCard and DouZero give their fixed seat 0.
//!
//! The `rlcard` vectors reproduce RLCard 1.2's `DoudizhuEnv._extract_state` exactly, quirks
//! included: a farmer's "last landlord action" and "last teammate action" are the *first*
//! ones of the game (RLCard's loop keeps overwriting while walking back), and a count of 0
//! cards left sets the last value of its one-hot vector (Python's index -1).

use ddz_core::{Cards, Kind, Move, Rank};

/// Length of a card vector.
pub const CARDS_LEN: usize = 54;
/// Length of RLCard's landlord observation.
pub const RLCARD_LANDLORD_LEN: usize = 790;
/// Length of RLCard's farmer observation (and of the padded rows of batched observations).
pub const RLCARD_FARMER_LEN: usize = 901;
/// Length of DouZero's landlord `x_no_action`.
pub const DOUZERO_LANDLORD_LEN: usize = 319;
/// Length of DouZero's farmer `x_no_action`.
pub const DOUZERO_FARMER_LEN: usize = 430;
/// DouZero's history: the last 15 moves as 5 rows of 3 moves.
pub const DOUZERO_Z_LEN: usize = 15 * CARDS_LEN;

/// Length of the bidding observation ([`bidding_obs`]), in both encodings.
pub const BIDDING_LEN: usize = CARDS_LEN + 3 + 3 * 5 + 6;

/// Writes the bidding observation of `seat` (neither RLCard nor DouZero has a bidding phase,
/// so this one is ddz's, the same in both encodings): the seat's hand (54 values, [`cards54`]),
/// the seat one-hot (3), then for the seat itself, the seat after it and the seat before it
/// the last bid each made so far, one-hot over "none yet", 0 (pass, or decline under
/// call-and-rob), 1, 2, 3 (5 each; under call-and-rob 1 is a call or a rob), then the number
/// of bids made so far one-hot over 0, 1, 2, 3, 4, 5 or more (6). Returns [`BIDDING_LEN`].
pub fn bidding_obs(hand: Cards, seat: usize, bids: &[(usize, u8)], out: &mut [i8]) -> usize {
    let out = &mut out[..BIDDING_LEN];
    out.fill(0);
    cards54(hand, &mut out[..CARDS_LEN]);
    out[CARDS_LEN + seat % 3] = 1;
    let base = CARDS_LEN + 3;
    for k in 0..3 {
        let who = (seat + k) % 3;
        let last = bids.iter().rev().find(|(s, _)| *s == who).map(|&(_, b)| b);
        let slot = last.map_or(0, |b| 1 + usize::from(b.min(3)));
        out[base + 5 * k + slot] = 1;
    }
    out[base + 15 + bids.len().min(5)] = 1;
    BIDDING_LEN
}

/// A position as the encoders see it: the hands, the landlord's seat and every play so far.
#[derive(Clone, Copy, Debug)]
pub struct EncoderInput<'a> {
    /// Each seat's cards.
    pub hands: [Cards; 3],
    /// The landlord's seat (0, 1 or 2).
    pub landlord: usize,
    /// Every play so far, `(seat, move)`, passes included.
    pub trace: &'a [(u8, Move)],
}

/// The seats of the three roles for a landlord seat: (landlord, landlord_down, landlord_up).
#[inline]
pub fn roles(landlord: usize) -> (usize, usize, usize) {
    (landlord, (landlord + 1) % 3, (landlord + 2) % 3)
}

/// Writes the 54-value card vector of `cards` into `out` (which must hold 54 values).
#[inline]
pub fn cards54(cards: Cards, out: &mut [i8]) {
    let counts = cards.counts();
    for (rank, &count) in counts.iter().take(13).enumerate() {
        let n = usize::from(count.min(4));
        let field = &mut out[4 * rank..4 * rank + 4];
        field[..n].fill(1);
        field[n..].fill(0);
    }
    out[52] = i8::from(counts[Rank::SmallJoker.index()] > 0);
    out[53] = i8::from(counts[Rank::BigJoker.index()] > 0);
}

/// Writes a one-hot vector of `out.len()` values for `n` cards left, as RLCard and DouZero do:
/// value `n - 1` is set, and for 0 the last one (Python's index -1).
#[inline]
fn one_hot_left(n: u32, out: &mut [i8]) {
    out.fill(0);
    let len = out.len();
    let i = if n == 0 {
        len - 1
    } else {
        (n as usize - 1).min(len - 1)
    };
    out[i] = 1;
}

/// The cards of the last non-pass play as RLCard and DouZero see it: the last move if it is
/// not a pass, else the one before it (a pass too after two passes, which gives no cards).
fn last_action(trace: &[(u8, Move)]) -> Cards {
    match trace {
        [] => Cards::EMPTY,
        [.., (_, m)] if !m.is_pass() => m.cards(),
        [.., (_, before), _] => before.cards(),
        [_] => Cards::EMPTY,
    }
}

/// Cards each seat has played so far.
fn played(trace: &[(u8, Move)]) -> [Cards; 3] {
    let mut out = [Cards::EMPTY; 3];
    for (s, m) in trace {
        out[usize::from(*s)] = out[usize::from(*s)].union(m.cards());
    }
    out
}

/// Splits the next `n` values off the front of `rest`.
fn take<'a>(rest: &mut &'a mut [i8], n: usize) -> &'a mut [i8] {
    let (head, tail) = core::mem::take(rest).split_at_mut(n);
    *rest = tail;
    head
}

/// Length of the RLCard observation of `seat` (790 for the landlord, 901 for a farmer).
pub fn rlcard_len(pos: &EncoderInput<'_>, seat: usize) -> usize {
    if seat == pos.landlord {
        RLCARD_LANDLORD_LEN
    } else {
        RLCARD_FARMER_LEN
    }
}

/// Writes RLCard's observation of `seat` into the front of `out` (at least
/// [`rlcard_len`] values) and returns its length.
pub fn rlcard_obs(pos: &EncoderInput<'_>, seat: usize, out: &mut [i8]) -> usize {
    let (landlord, down, up) = roles(pos.landlord);
    let others = (0..3)
        .filter(|&s| s != seat)
        .fold(Cards::EMPTY, |acc, s| acc.union(pos.hands[s]));
    let played = played(pos.trace);
    let len = rlcard_len(pos, seat);
    let mut rest = &mut out[..len];
    cards54(pos.hands[seat], take(&mut rest, CARDS_LEN));
    cards54(others, take(&mut rest, CARDS_LEN));
    cards54(last_action(pos.trace), take(&mut rest, CARDS_LEN));
    // The last 9 plays, oldest first, padded with empty plays at the front.
    let history = take(&mut rest, 9 * CARDS_LEN);
    let recent = &pos.trace[pos.trace.len().saturating_sub(9)..];
    let pad = 9 - recent.len();
    history[..pad * CARDS_LEN].fill(0);
    for (i, (_, m)) in recent.iter().enumerate() {
        let at = (pad + i) * CARDS_LEN;
        cards54(m.cards(), &mut history[at..at + CARDS_LEN]);
    }
    if seat == landlord {
        cards54(played[up], take(&mut rest, CARDS_LEN));
        cards54(played[down], take(&mut rest, CARDS_LEN));
        one_hot_left(pos.hands[up].len(), take(&mut rest, 17));
        one_hot_left(pos.hands[down].len(), take(&mut rest, 17));
    } else {
        let teammate = if seat == down { up } else { down };
        let first_of = |who: usize| {
            pos.trace
                .iter()
                .find(|(s, _)| usize::from(*s) == who)
                .map_or(Cards::EMPTY, |(_, m)| m.cards())
        };
        cards54(played[landlord], take(&mut rest, CARDS_LEN));
        cards54(played[teammate], take(&mut rest, CARDS_LEN));
        cards54(first_of(landlord), take(&mut rest, CARDS_LEN));
        cards54(first_of(teammate), take(&mut rest, CARDS_LEN));
        one_hot_left(pos.hands[landlord].len(), take(&mut rest, 20));
        one_hot_left(pos.hands[teammate].len(), take(&mut rest, 17));
    }
    len
}

/// Length of DouZero's `x_no_action` for `seat` (319 for the landlord, 430 for a farmer),
/// plus 13 under wildcards (see [`douzero_x`]).
pub fn douzero_x_len(pos: &EncoderInput<'_>, seat: usize, wild: bool) -> usize {
    let base = if seat == pos.landlord {
        DOUZERO_LANDLORD_LEN
    } else {
        DOUZERO_FARMER_LEN
    };
    base + if wild { 13 } else { 0 }
}

/// Number of bombs and rockets played, as DouZero counts them.
pub fn bombs_played(trace: &[(u8, Move)]) -> usize {
    trace
        .iter()
        .filter(|(_, m)| matches!(m.kind(), Kind::Bomb | Kind::Rocket))
        .count()
}

/// Writes DouZero's `x_no_action` for `seat` into the front of `out` and returns its length.
///
/// Landlord: hand, the others' cards, the last play, the cards landlord_up and landlord_down
/// played, their cards left (one-hot of 17 each), bombs played (one-hot of 15). Farmer: hand,
/// the others' cards, the cards the landlord and the teammate played, the last play, the
/// landlord's and the teammate's last moves (a pass gives no cards), the landlord's cards left
/// (one-hot of 20), the teammate's (17), bombs played (15). With `wild` (wildcard rules) 13
/// more values follow: 1 for each wild rank 3..2 (`wild_ranks`).
pub fn douzero_x(
    pos: &EncoderInput<'_>,
    seat: usize,
    wild_ranks: Option<u16>,
    out: &mut [i8],
) -> usize {
    let (landlord, down, up) = roles(pos.landlord);
    let others = (0..3)
        .filter(|&s| s != seat)
        .fold(Cards::EMPTY, |acc, s| acc.union(pos.hands[s]));
    let played = played(pos.trace);
    let len = douzero_x_len(pos, seat, wild_ranks.is_some());
    let mut rest = &mut out[..len];
    cards54(pos.hands[seat], take(&mut rest, CARDS_LEN));
    cards54(others, take(&mut rest, CARDS_LEN));
    if seat == landlord {
        cards54(last_action(pos.trace), take(&mut rest, CARDS_LEN));
        cards54(played[up], take(&mut rest, CARDS_LEN));
        cards54(played[down], take(&mut rest, CARDS_LEN));
        one_hot_left(pos.hands[up].len(), take(&mut rest, 17));
        one_hot_left(pos.hands[down].len(), take(&mut rest, 17));
    } else {
        let teammate = if seat == down { up } else { down };
        let last_of = |who: usize| {
            pos.trace
                .iter()
                .rev()
                .find(|(s, _)| usize::from(*s) == who)
                .map_or(Cards::EMPTY, |(_, m)| m.cards())
        };
        cards54(played[landlord], take(&mut rest, CARDS_LEN));
        cards54(played[teammate], take(&mut rest, CARDS_LEN));
        cards54(last_action(pos.trace), take(&mut rest, CARDS_LEN));
        cards54(last_of(landlord), take(&mut rest, CARDS_LEN));
        cards54(last_of(teammate), take(&mut rest, CARDS_LEN));
        one_hot_left(pos.hands[landlord].len(), take(&mut rest, 20));
        one_hot_left(pos.hands[teammate].len(), take(&mut rest, 17));
    }
    let bombs = take(&mut rest, 15);
    bombs.fill(0);
    bombs[bombs_played(pos.trace).min(14)] = 1;
    if let Some(mask) = wild_ranks {
        wild_ranks13(mask, take(&mut rest, WILD_LEN));
    }
    len
}

/// Length of the wild-rank values ([`wild_ranks13`]).
pub const WILD_LEN: usize = 13;

/// Writes the wild ranks of `mask` (bit `i` for rank 3 + i, 3..2) as 13 values, 1 for each
/// wild rank: what follows DouZero's `x_no_action` under wildcards, and RLCard's vector with
/// the `wild` option.
pub fn wild_ranks13(mask: u16, out: &mut [i8]) {
    for (i, v) in out[..WILD_LEN].iter_mut().enumerate() {
        *v = i8::from(mask >> i & 1 == 1);
    }
}

/// Writes DouZero's history `z` (the last 15 plays, oldest first, padded with empty plays at
/// the front: 15 × 54 values, which DouZero reads as 5 rows of 162) into `out`.
pub fn douzero_z(pos: &EncoderInput<'_>, out: &mut [i8]) {
    let recent = &pos.trace[pos.trace.len().saturating_sub(15)..];
    let pad = 15 - recent.len();
    out[..pad * CARDS_LEN].fill(0);
    for (i, (_, m)) in recent.iter().enumerate() {
        let at = (pad + i) * CARDS_LEN;
        cards54(m.cards(), &mut out[at..at + CARDS_LEN]);
    }
}

/// Length of one move's feature row: its 54-value card vector, and under wildcards 15 more,
/// how many cards of each rank the move is read as (what the wild cards stand for).
pub const fn move_features_len(wild: bool) -> usize {
    if wild { CARDS_LEN + 15 } else { CARDS_LEN }
}

/// Writes the feature row of `m` (see [`move_features_len`]) into `out`.
pub fn move_features(m: &Move, wild: bool, out: &mut [i8]) {
    cards54(m.cards(), &mut out[..CARDS_LEN]);
    if wild {
        let counts = m.reading().counts();
        for (v, c) in out[CARDS_LEN..CARDS_LEN + 15].iter_mut().zip(counts) {
            *v = c as i8;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ddz_core::{Rules, parse_move};

    fn mv(s: &str) -> Move {
        parse_move(s, &Rules::rlcard(), None).unwrap()
    }

    #[test]
    fn card_vectors_are_thermometers() {
        let mut out = [9i8; 54];
        cards54("3335BR".parse().unwrap(), &mut out);
        assert_eq!(&out[..4], &[1, 1, 1, 0]);
        assert_eq!(&out[4..8], &[0, 0, 0, 0]);
        assert_eq!(&out[8..12], &[1, 0, 0, 0]);
        assert_eq!(&out[52..], &[1, 1]);
        assert_eq!(out.iter().map(|&v| i32::from(v)).sum::<i32>(), 6);
    }

    #[test]
    fn last_action_skips_one_pass() {
        let three = mv("3");
        assert_eq!(last_action(&[]), Cards::EMPTY);
        assert_eq!(last_action(&[(0, three)]), three.cards());
        assert_eq!(last_action(&[(0, three), (1, Move::PASS)]), three.cards());
        let two_passes = [(0, three), (1, Move::PASS), (2, Move::PASS)];
        assert_eq!(last_action(&two_passes), Cards::EMPTY);
    }

    #[test]
    fn rlcard_farmer_sees_first_landlord_play() {
        let hands = [
            "4".parse().unwrap(),
            "5".parse().unwrap(),
            "6".parse().unwrap(),
        ];
        let trace = [(0, mv("3")), (1, Move::PASS), (2, mv("T")), (0, mv("K"))];
        let pos = EncoderInput {
            hands,
            landlord: 0,
            trace: &trace,
        };
        let mut out = [0i8; RLCARD_FARMER_LEN];
        assert_eq!(rlcard_obs(&pos, 1, &mut out), RLCARD_FARMER_LEN);
        // Last landlord action (after hand, others, last action, 9 plays, two played sets).
        let at = 54 * 3 + 54 * 9 + 54 * 2;
        assert_eq!(out[at], 1, "the landlord's first play, the 3");
        assert_eq!(out[at + 40], 0, "not its latest, the K");
        // Cards left: the landlord has 1 card (index 0 of 20).
        let left = at + 54 * 2;
        assert_eq!(out[left], 1);
        assert_eq!(rlcard_obs(&pos, 0, &mut out), RLCARD_LANDLORD_LEN);
    }

    #[test]
    fn douzero_lengths_and_bombs() {
        let trace = [(0, mv("3333")), (1, mv("BR"))];
        let pos = EncoderInput {
            hands: [Cards::EMPTY; 3],
            landlord: 0,
            trace: &trace,
        };
        let mut out = [0i8; 600];
        assert_eq!(douzero_x(&pos, 0, None, &mut out), DOUZERO_LANDLORD_LEN);
        assert_eq!(out[DOUZERO_LANDLORD_LEN - 15 + 2], 1, "two bombs");
        assert_eq!(douzero_x(&pos, 2, Some(1 << 4), &mut out), 443);
        assert_eq!(out[430 + 4], 1);
        let mut z = [1i8; DOUZERO_Z_LEN];
        douzero_z(&pos, &mut z);
        assert_eq!(z[..13 * 54].iter().filter(|&&v| v != 0).count(), 0);
        assert_eq!(&z[13 * 54..13 * 54 + 4], &[1, 1, 1, 1]);
    }
}
