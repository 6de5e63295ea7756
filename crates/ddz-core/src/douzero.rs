//! The `douzero` profile's one reading per card set: the type DouZero's `move_detector.py`
//! (kwai/DouZero) gives a card set, restated on rank counts.
//!
//! DouZero leads any card set its generator yields and types it with the detector; both are
//! matched here, with two documented differences: card sets the generator yields but the
//! detector calls WRONG (an airplane + singles whose kickers hold a four, or a fifth trio, such
//! as `3334445556667779`) are not moves here (in DouZero they can be led and only a bomb answers
//! them), and duplicate moves are listed once.

use crate::cards::Cards;
use crate::kind::Kind;
use crate::rank::Rank;

/// True if the ranks of `mask` are consecutive (one run, at least one rank).
fn is_run(mask: u16) -> bool {
    mask != 0 && {
        let shifted = mask >> mask.trailing_zeros();
        shifted & (shifted + 1) == 0
    }
}

/// True if the ranks of `mask` form a run within 3..A (DouZero's encoding puts gaps before the
/// 2 and the jokers, so its runs never reach them).
fn is_chain_run(mask: u16) -> bool {
    is_run(mask) && mask >> 12 == 0
}

fn highest(mask: u16) -> usize {
    15 - mask.leading_zeros() as usize
}

/// The detector's (kind, main) for `cards`, before checking the reading is valid under the
/// profile's kicker rules (the detector alone accepts sets DouZero's generator never makes,
/// such as `33334` as a trio + pair): [`crate::classify`] reads the cards as that kind.
pub(crate) fn detect(cards: Cards) -> Option<(Kind, Rank)> {
    detector_type(cards).map(|(kind, main)| (kind, Rank::ALL[main]))
}

/// [`detect`] with the main rank as an index.
fn detector_type(cards: Cards) -> Option<(Kind, usize)> {
    let n = cards.len();
    let ranks = cards.rank_mask();
    let distinct = ranks.count_ones();
    let exactly = |k: u8| {
        let at_least = cards.mask_at_least(k);
        if k < 4 {
            at_least & !cards.mask_at_least(k + 1)
        } else {
            at_least
        }
    };
    let (ones, twos, threes, fours) = (exactly(1), exactly(2), exactly(3), exactly(4));
    let low = ranks.trailing_zeros() as usize;
    match n {
        0 => return None,
        1 => return Some((Kind::Single, low)),
        2 if distinct == 1 => return Some((Kind::Pair, low)),
        2 if cards == Cards::ROCKET => return Some((Kind::Rocket, Rank::BigJoker as usize)),
        2 => return None,
        3 => return (distinct == 1).then_some((Kind::Trio, low)),
        4 if distinct == 1 => return Some((Kind::Bomb, low)),
        4 => return (distinct == 2 && threes != 0).then(|| (Kind::TrioSingle, highest(threes))),
        _ => {}
    }
    if distinct == n && is_chain_run(ranks) {
        return Some((Kind::Straight, highest(ranks)));
    }
    if n == 5 {
        // Two distinct ranks: the middle card of the sorted five is the trio (or four) rank.
        return (distinct == 2).then(|| (Kind::TrioPair, highest(threes | fours)));
    }
    if n == 6
        && (distinct == 2 || distinct == 3)
        && fours.count_ones() == 1
        && (twos.count_ones() == 1 || ones.count_ones() == 2)
    {
        return Some((Kind::FourTwoSingles, highest(fours)));
    }
    if n == 8
        && (((distinct == 2 || distinct == 3) && fours.count_ones() == 1 && twos.count_ones() == 2)
            || fours.count_ones() == 2)
    {
        return Some((Kind::FourTwoPairs, highest(fours)));
    }
    if twos == ranks && is_chain_run(ranks) {
        return Some((Kind::PairChain, highest(ranks)));
    }
    if threes == ranks && is_chain_run(ranks) {
        return Some((Kind::Airplane, highest(ranks)));
    }
    let trios = threes.count_ones();
    if trios >= 2 && fours == 0 {
        if is_chain_run(threes) {
            if trios == ones.count_ones() + 2 * twos.count_ones() {
                return Some((Kind::AirplaneSingles, highest(threes)));
            }
            if trios == twos.count_ones() && distinct == 2 * trios {
                return Some((Kind::AirplanePairs, highest(threes)));
            }
        }
        if trios == 4 {
            let low_trio = 1u16 << threes.trailing_zeros();
            let high_trio = 1u16 << highest(threes);
            if is_chain_run(threes & !low_trio) {
                return Some((Kind::AirplaneSingles, highest(threes)));
            }
            if is_chain_run(threes & !high_trio) {
                return Some((Kind::AirplaneSingles, highest(threes & !high_trio)));
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn detected(s: &str) -> Option<(Kind, Rank)> {
        detect(s.parse().unwrap())
    }

    #[test]
    fn detector_types() {
        assert_eq!(detected("333444555666"), Some((Kind::Airplane, Rank::Six)));
        assert_eq!(
            detected("444555666888"),
            Some((Kind::AirplaneSingles, Rank::Six))
        );
        assert_eq!(
            detected("333555666777"),
            Some((Kind::AirplaneSingles, Rank::Seven))
        );
        assert_eq!(detected("4444BR"), Some((Kind::FourTwoSingles, Rank::Four)));
        assert_eq!(detected("3334445556667779"), None);
        // Lax branches: classification then finds the reading invalid.
        assert_eq!(detected("33334"), Some((Kind::TrioPair, Rank::Three)));
    }
}
