//! Scoring (RULES.md sections 4 and 7): who won, the stake's parts, each pair's multiplier,
//! the bomb factors, and the result a finished game records.

use ddz_core::{BombClass, Kind, Move, Rules};

use crate::seat::{BySeat, Seat};

/// Which side won; written `landlord` or `farmers`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Side {
    /// The landlord.
    Landlord,
    /// The two farmers.
    Farmers,
}

/// The result of a finished game at an `N`-seat table (3 unless said), as game records write
/// it.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GameResult<const N: usize = 3> {
    /// The winning side.
    pub winner: Side,
    /// The seat that emptied its hand.
    #[serde(deserialize_with = "crate::seat::seat_of::<N, _>")]
    pub first_out: Seat,
    /// The base score (the winning bid under points bidding, else 1).
    pub base: u32,
    /// The multiplier (robs, bombs, rocket, spring), capped by the rules.
    pub multiplier: u32,
    /// Bombs played (the rocket not included).
    pub bombs: u32,
    /// Whether the rocket was played.
    pub rocket: bool,
    /// Spring (春天): the landlord won and neither farmer played a card.
    pub spring: bool,
    /// Anti-spring (反春): the farmers won and the landlord made only its first play.
    pub anti_spring: bool,
    /// Points per seat; they sum to zero.
    pub scores: BySeat<i64, N>,
    /// The show factor of the table multiplier (明牌, RULES.md section 7); 1 (and not
    /// written) when nobody showed.
    #[serde(default = "one", skip_serializing_if = "is_one")]
    pub show: u32,
    /// Each seat's doubling factor, under rules with doubling.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub doubling: Option<BySeat<u32, N>>,
    /// Each seat's multiplier under rules with doubling or showing: `m_i` (capped per pair)
    /// for a farmer, `m_1 + m_2` for the landlord; the scores are base × these.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub multipliers: Option<BySeat<u32, N>>,
}

/// Serde's default for [`GameResult::show`].
fn one() -> u32 {
    1
}

/// Serde's test for leaving [`GameResult::show`] out.
fn is_one(x: &u32) -> bool {
    *x == 1
}

/// How a game ended, for [`crate::PlayState::settle`].
#[derive(Clone, Copy, Debug)]
pub(crate) struct End {
    /// The winning side.
    pub winner: Side,
    /// The seat that emptied its hand (or forfeited).
    pub first_out: Seat,
    /// Spring.
    pub spring: bool,
    /// Anti-spring.
    pub anti_spring: bool,
}

impl End {
    /// The end of a game `failing` forfeits (a robot that crashed, timed out or answered with
    /// an illegal action), with the landlord `landlord` once decided: its side loses, no
    /// spring; before the landlord is decided the failing seat is taken as a landlord that
    /// loses. Returns the landlord taken and the end.
    pub(crate) fn forfeit(failing: Seat, landlord: Option<Seat>) -> (Seat, End) {
        let landlord = landlord.unwrap_or(failing);
        let winner = if failing == landlord {
            Side::Farmers
        } else {
            Side::Landlord
        };
        let end = End {
            winner,
            first_out: failing,
            spring: false,
            anti_spring: false,
        };
        (landlord, end)
    }
}

/// What a game's stake is made of besides the plays (RULES.md sections 4 and 7): the base,
/// 2 to the robs, the show factor and each seat's doubling factor.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Stake<const N: usize = 3> {
    /// The base score (the winning bid under points bidding, else 1).
    pub base: u32,
    /// 2 to the number of robs.
    pub rob_multiplier: u32,
    /// The show factor (1 when nobody showed).
    pub show: u32,
    /// Each seat's doubling factor (1 without doubling).
    pub doubling: BySeat<u32, N>,
}

impl<const N: usize> Stake<N> {
    /// Section 4's stake: a base and the robs, no show, no doubling.
    pub const fn plain(base: u32, rob_multiplier: u32) -> Stake<N> {
        Stake {
            base,
            rob_multiplier,
            show: 1,
            doubling: BySeat([1; N]),
        }
    }
}

/// Each seat's multiplier at table multiplier `p` (RULES.md section 7): a farmer's is
/// `p × d_L × d_F` capped at `cap` (the cap is per pair), the landlord's the sum of the
/// farmers' (one farmer under `two`, three under `four`). What each seat is shown, and what
/// its score is base × of.
///
/// ```
/// use ddz_game::{BySeat, Seat, pair_multipliers};
/// // P = 24, the landlord (seat 0) doubles, seat 1 super-doubles, seat 2 does not.
/// let m = pair_multipliers(24, Seat::ALL[0], &BySeat([2, 4, 1]), None);
/// assert_eq!(m.0, [240, 192, 48]);
/// assert_eq!(pair_multipliers(24, Seat::ALL[0], &BySeat([2, 4, 1]), Some(64)).0, [112, 64, 48]);
/// ```
pub fn pair_multipliers<const N: usize>(
    p: u32,
    landlord: Seat,
    doubling: &BySeat<u32, N>,
    cap: Option<u32>,
) -> BySeat<u32, N> {
    let mut m = BySeat::from_fn(|s| {
        if s == landlord {
            return 0;
        }
        let m = p
            .saturating_mul(doubling[landlord])
            .saturating_mul(doubling[s]);
        cap.map_or(m, |c| m.min(c))
    });
    m[landlord] = m.0.iter().fold(0, |sum: u32, &f| sum.saturating_add(f));
    m
}

/// Every seat's score when `winner` wins at `base` and each seat's multiplier
/// ([`pair_multipliers`]): each farmer wins or loses base × its own, the landlord the sum.
/// They add up to zero.
pub fn pair_scores<const N: usize>(
    landlord: Seat,
    winner: Side,
    base: u32,
    multipliers: &BySeat<u32, N>,
) -> BySeat<i64, N> {
    let sign = if winner == Side::Landlord { 1 } else { -1 };
    BySeat::from_fn(|s| {
        let points = i64::from(base) * i64::from(multipliers[s]);
        if s == landlord {
            sign * points
        } else {
            -sign * points
        }
    })
}

/// Every seat's score when `winner` wins at `stake`: the landlord wins or loses 2 × the stake,
/// each farmer 1 ×.
pub fn side_scores(landlord: Seat, winner: Side, stake: i64) -> BySeat<i64> {
    let sign = if winner == Side::Landlord { 1 } else { -1 };
    BySeat::from_fn(|s| {
        if s == landlord {
            2 * sign * stake
        } else {
            -sign * stake
        }
    })
}

/// The multiplier factor of a play: the rules' bomb table for bombs and the rocket, else 1.
pub fn bomb_factor(play: &Move, rules: &Rules) -> u32 {
    let t = rules.bomb_multipliers;
    match play.kind() {
        Kind::Rocket => t.rocket,
        Kind::Bomb if play.card_count() > 4 => t.long,
        Kind::Bomb => match play.class() {
            Some(BombClass::Soft) => t.soft,
            Some(BombClass::Pure) => t.pure,
            // Classic bombs have no class and use the hard factor (2 in classic).
            _ => t.hard,
        },
        _ => 1,
    }
}
