//! What one seat may know: its own hand, the public cards and plays, and nothing else.

use std::sync::Arc;

use ddz_core::{Cards, Move, RankSet, Rules};

use crate::game::{ActionError, Bid, Game, Phase, Show, bomb_factor};
use crate::play_state::Trick;
use crate::play_state::pair_multipliers;
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
    /// Every play so far, passes included (shared with the game: a view costs no copy of it).
    pub history: Arc<Vec<(Seat, Move)>>,
    /// The play to beat and who made it; `None` when the seat to act leads.
    pub last: Option<(Seat, Move)>,
    /// The seat to act.
    pub turn: Seat,
    /// The wild ranks revealed so far.
    pub laizi: RankSet,
    /// The base score so far.
    pub base: u32,
    /// The table multiplier so far (shows, robs, bombs), before spring and doubling.
    pub multiplier: u32,
    /// The cards of every seat that has shown its hand (明牌), as they are now (while
    /// dealing, those received so far); `None` for a seat that has not shown. Never a hand
    /// before it is shown.
    pub shown: BySeat<Option<Cards>>,
    /// The shows so far, in order (the first is the first bidder's, when before bidding).
    pub shows: Vec<Show>,
    /// Each seat's doubling factor once it has chosen it (public once made).
    pub doublings: BySeat<Option<u32>>,
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
            history: Arc::new(last.into_iter().collect()),
            last,
            turn: seat,
            laizi: rules.laizi,
            base: 1,
            multiplier: 1,
            shown: BySeat([None; 3]),
            shows: Vec::new(),
            doublings: BySeat([None; 3]),
        }
    }
}

impl SeatView {
    /// A view during bidding: `seat` holds `hand` and is to bid after `bids`; nothing else is
    /// known yet. Every other seat holds 17 cards.
    pub fn bidding(rules: &Rules, seat: Seat, hand: Cards, bids: Vec<(Seat, Bid)>) -> SeatView {
        let mut cards_left = BySeat([17; 3]);
        cards_left[seat] = hand.len();
        SeatView {
            seat,
            phase: Phase::Bidding,
            rules: rules.clone(),
            hand,
            landlord: None,
            role: None,
            kitty: None,
            bids,
            cards_left,
            played: BySeat([Cards::EMPTY; 3]),
            history: Arc::default(),
            last: None,
            turn: seat,
            laizi: rules.laizi,
            base: 1,
            multiplier: 1,
            shown: BySeat([None; 3]),
            shows: Vec::new(),
            doublings: BySeat([None; 3]),
        }
    }

    /// A view of `seat`, holding `hand`, at its turn after the plays of `public`: the trick,
    /// the history and each seat's plays come from it, the multiplier is its bomb multiplier;
    /// the seats hold `cards_left` (the entry of `seat` is replaced by the hand's size). No
    /// bids, no kitty, base 1: set those fields when known.
    pub fn playing(
        rules: &Rules,
        seat: Seat,
        landlord: Seat,
        hand: Cards,
        mut cards_left: BySeat<u32>,
        public: PublicPlay,
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
            played: public.played,
            last: public.trick.last(),
            turn: public.trick.turn(),
            history: Arc::new(public.history),
            laizi: rules.laizi,
            base: 1,
            multiplier: public.bomb_multiplier,
            shown: BySeat([None; 3]),
            shows: Vec::new(),
            doublings: BySeat([None; 3]),
        }
    }

    /// The multiplier `seat` is shown (RULES.md section 7): for a farmer the table
    /// multiplier × the landlord's doubling × its own, for the landlord the sum of the
    /// farmers', capped per pair ([`crate::pair_multipliers`]); the table multiplier before
    /// the landlord is decided.
    pub fn seat_multiplier(&self, seat: Seat) -> u32 {
        match self.landlord {
            None => self.multiplier,
            Some(landlord) => {
                let d = BySeat::from_fn(|s| self.doublings[s].unwrap_or(1));
                pair_multipliers(self.multiplier, landlord, &d, self.rules.pair_cap())[seat]
            }
        }
    }

    /// The bids the seat may make ([`crate::legal_bids`] under the view's bidding form).
    pub fn legal_bids(&self) -> Vec<Bid> {
        crate::legal_bids(self.rules.bidding, &self.bids)
    }

    /// The part of the view a play decision reads, borrowed: no allocation.
    pub fn turn_view(&self) -> TurnView<'_> {
        TurnView {
            rules: &self.rules,
            seat: self.seat,
            hand: self.hand,
            landlord: self.landlord,
            cards_left: self.cards_left,
            last: self.last,
        }
    }
}

/// What a robot's play policy reads of a seat's turn, borrowed and `Copy`: built from a
/// [`SeatView`] ([`SeatView::turn_view`]) or, without building a view, from a
/// [`crate::PlayState`] ([`crate::PlayState::turn_view`]) in search playouts.
#[derive(Clone, Copy, Debug)]
pub struct TurnView<'a> {
    /// The rules in force, with the wild ranks revealed.
    pub rules: &'a Rules,
    /// The seat to play.
    pub seat: Seat,
    /// Its cards.
    pub hand: Cards,
    /// The landlord, once decided.
    pub landlord: Option<Seat>,
    /// Cards left in each hand.
    pub cards_left: BySeat<u32>,
    /// The play to beat and who made it; `None` when the seat leads.
    pub last: Option<(Seat, Move)>,
}

/// The play phase as every seat sees it, hands unknown: a history replayed from the
/// landlord's lead under the trick's rules ([`Trick`]), with each seat's plays and the bomb
/// multiplier. Protocol readers rebuild a seat's view with it ([`SeatView::playing`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PublicPlay {
    /// The trick after the history.
    pub trick: Trick,
    /// Every play, passes included.
    pub history: Vec<(Seat, Move)>,
    /// Cards each seat has played.
    pub played: BySeat<Cards>,
    /// The product of the bomb factors of the history's bombs and rockets (saturating).
    pub bomb_multiplier: u32,
}

impl PublicPlay {
    /// Before the first play: `landlord` leads.
    pub fn new(landlord: Seat) -> PublicPlay {
        PublicPlay {
            trick: Trick::lead(landlord),
            history: Vec::new(),
            played: BySeat([Cards::EMPTY; 3]),
            bomb_multiplier: 1,
        }
    }

    /// `play` by `seat`, checked against the trick ([`Trick::check`]: turn, pass when
    /// leading, beating the play to beat); unchanged on error. Whether the seat holds the
    /// cards is the caller's to check.
    pub fn push(&mut self, seat: Seat, play: Move, rules: &Rules) -> Result<(), ActionError> {
        self.trick.check(seat, &play, rules)?;
        self.trick.advance(play);
        if !play.is_pass() {
            self.played[seat] = self.played[seat].union(play.cards());
            self.bomb_multiplier = self
                .bomb_multiplier
                .saturating_mul(bomb_factor(&play, rules));
        }
        self.history.push((seat, play));
        Ok(())
    }
}

impl Game {
    /// The view of `seat`.
    pub fn view(&self, seat: Seat) -> SeatView {
        let history = self.shared_history();
        let mut played = BySeat([Cards::EMPTY; 3]);
        for (s, m) in history.iter() {
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
            shown: BySeat::from_fn(|s| self.shown_hand(s)),
            shows: self.shows().to_vec(),
            doublings: BySeat::from_fn(|s| self.doubling(s)),
        }
    }
}
