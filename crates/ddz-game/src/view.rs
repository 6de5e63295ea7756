//! What one seat may know: its own hand, the public cards and plays, and nothing else.

use ddz_core::{Cards, Move, RankSet, Rules};

use crate::game::{Game, Phase};
use crate::seat::{BySeat, Role, Seat};

/// One seat's view of a game: everything public plus the seat's own hand. Robots only ever
/// see this.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SeatView {
    /// The seat this view belongs to.
    pub seat: Seat,
    /// The phase of the game.
    pub phase: Phase,
    /// The rules in force, with the wild ranks revealed so far.
    pub rules: Rules,
    /// The seat's own cards.
    pub hand: Cards,
    /// The landlord's seat, once decided.
    pub landlord: Option<Seat>,
    /// The seat's role, once the landlord is decided.
    pub role: Option<Role>,
    /// The kitty, once shown (when the landlord is decided).
    pub kitty: Option<Cards>,
    /// The bids so far, in order.
    pub bids: Vec<(Seat, u8)>,
    /// Cards left in each hand.
    pub cards_left: BySeat<u32>,
    /// Cards each seat has played.
    pub played: BySeat<Cards>,
    /// Every play so far, passes included.
    pub history: Vec<(Seat, Move)>,
    /// The play to beat and who made it; `None` when the seat to act leads.
    pub last: Option<(Seat, Move)>,
    /// The seat to act.
    pub turn: Seat,
    /// The wild ranks revealed so far.
    pub laizi: RankSet,
    /// The base score so far.
    pub base: u32,
    /// The multiplier so far.
    pub multiplier: u32,
}

impl SeatView {
    /// A view of a position outside any game (a hint, a test, a protocol request): `seat`
    /// holds `hand` and is to play, `landlord` is the landlord, the seats hold `cards_left`
    /// (the entry of `seat` is replaced by the hand's size) and `last` is the play to beat, the
    /// only play in the history; no bids, no kitty, base and multiplier 1.
    pub fn position(
        rules: &Rules,
        seat: Seat,
        landlord: Seat,
        hand: Cards,
        mut cards_left: BySeat<u32>,
        last: Option<(Seat, Move)>,
    ) -> SeatView {
        cards_left[seat] = hand.len();
        SeatView {
            seat,
            phase: Phase::Playing,
            rules: rules.clone(),
            hand,
            landlord: Some(landlord),
            role: Some(Role::of(seat, landlord)),
            kitty: None,
            bids: Vec::new(),
            cards_left,
            played: BySeat([Cards::EMPTY; 3]),
            history: last.into_iter().collect(),
            last,
            turn: seat,
            laizi: rules.laizi,
            base: 1,
            multiplier: 1,
        }
    }
}

impl Game {
    /// The view of `seat`.
    pub fn view(&self, seat: Seat) -> SeatView {
        let history: Vec<(Seat, Move)> = self.history().collect();
        let mut played = BySeat([Cards::EMPTY; 3]);
        for (s, m) in &history {
            played[*s] = played[*s].union(m.cards());
        }
        SeatView {
            seat,
            phase: self.phase(),
            rules: self.rules(),
            hand: self.hand(seat),
            landlord: self.landlord(),
            role: self.role(seat),
            kitty: self.landlord().map(|_| self.deal().kitty.to_cards()),
            bids: self.bids().to_vec(),
            cards_left: BySeat::from_fn(|s| self.hand(s).len()),
            played,
            history,
            last: self.last(),
            turn: self.turn(),
            laizi: self.laizi(),
            base: self.base(),
            multiplier: self.multiplier(),
        }
    }
}
