//! The phases of a game and the actions a seat takes in them: shows, bids, doublings and
//! plays, and what the seat to act may do.

use ddz_core::{Bidding, Move};

use crate::seat::Seat;

/// Where the game is; serialised in snake case (`bidding`, `landlord_show`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Phase {
    /// The cards are being dealt and seats may show their hands (明牌), at each show window
    /// in turn (only when the rules have showing: [`ddz_core::ShowRules`]).
    Dealing,
    /// Seats are bidding for the landlord.
    Bidding,
    /// The landlord has the kitty; each seat chooses its doubling factor (加倍; only when the
    /// rules have doubling).
    Doubling,
    /// After doubling, the landlord may show its 20 cards (x2; only when the rules have
    /// showing and the landlord has not shown yet).
    LandlordShow,
    /// Cards are being played.
    Playing,
    /// A hand is empty: the game is over.
    Over,
}

/// A bid: under points bidding 0 (pass) or 1-3; under call-and-rob 1 (call or rob) or 0
/// (decline).
pub type Bid = u8;

impl Phase {
    /// The phase's name as serialised: `dealing`, `bidding`, `doubling`, `landlord_show`,
    /// `playing` or `over`.
    pub const fn name(self) -> &'static str {
        match self {
            Phase::Dealing => "dealing",
            Phase::Bidding => "bidding",
            Phase::Doubling => "doubling",
            Phase::LandlordShow => "landlord_show",
            Phase::Playing => "playing",
            Phase::Over => "over",
        }
    }
}

/// One action of a seat: a show decision, a bid, a doubling or a play.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Action {
    /// Whether to show the hand (明牌) in the window in progress ([`crate::Game::show`]).
    Show(bool),
    /// A bid ([`Bid`]).
    Bid(Bid),
    /// A doubling factor: 1 (不加倍), 2 (加倍), 4 (超级加倍) ([`crate::Game::double`]).
    Double(u32),
    /// A play or the pass.
    Play(Move),
}

/// What the seat to act may do ([`crate::Game::legal_actions`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Actions {
    /// Show the hand for `factor`, or not ([`Action::Show`]).
    Show {
        /// The factor the show would give (5 before the deal, 4, 3 or 2 during it, 2 for the
        /// landlord after doubling).
        factor: u32,
    },
    /// The bids allowed ([`legal_bids`]).
    Bids(Vec<Bid>),
    /// The doubling factors allowed, 1 first ([`Action::Double`]).
    Double(Vec<u32>),
    /// The moves allowed (never empty while playing; the pass included when following).
    Moves(Vec<Move>),
    /// Nothing: the game is over.
    None,
}

impl Actions {
    /// The first action allowed: the lowest bid, no doubling, not showing, the first move;
    /// `None` once the game is over. What a surface takes for a seat whose robot cannot
    /// decide, so that a table never stalls.
    pub fn first(&self) -> Option<Action> {
        match self {
            Actions::Show { .. } => Some(Action::Show(false)),
            Actions::Bids(bids) => bids.first().map(|&b| Action::Bid(b)),
            Actions::Double(factors) => factors.first().map(|&f| Action::Double(f)),
            Actions::Moves(moves) => moves.first().map(|&m| Action::Play(m)),
            Actions::None => None,
        }
    }

    /// Every action allowed, in order (not showing before showing, the bids and factors
    /// ascending, the moves as listed).
    pub fn all(&self) -> Vec<Action> {
        match self {
            Actions::Show { .. } => vec![Action::Show(false), Action::Show(true)],
            Actions::Bids(bids) => bids.iter().map(|&b| Action::Bid(b)).collect(),
            Actions::Double(factors) => factors.iter().map(|&f| Action::Double(f)).collect(),
            Actions::Moves(moves) => moves.iter().map(|&m| Action::Play(m)).collect(),
            Actions::None => Vec::new(),
        }
    }
}

/// The bids the seat to act may make after `bids`: under points bidding 0 (pass) and every
/// bid above the highest so far; under call-and-rob 0 (decline) and 1 (call or rob).
pub fn legal_bids(bidding: Bidding, bids: &[(Seat, Bid)]) -> Vec<Bid> {
    match bidding {
        Bidding::Points => {
            let high = bids.iter().map(|b| b.1).max().unwrap_or(0);
            std::iter::once(0).chain(high + 1..=3).collect()
        }
        _ => vec![0, 1],
    }
}
