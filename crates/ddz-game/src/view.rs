//! What one seat may know: its own hand, the public cards and plays, and nothing else.
//!
//! Three types describe it, each built from the one before or from the game:
//!
//! - [`PublicPlay`]: the public history of the play phase (the trick, every play, each seat's
//!   plays, the bomb multiplier), what every seat sees alike;
//! - [`SeatView`]: one seat's view of a game, the public history and the rest of the public
//!   record (bids, kitty, shows, doublings, stake) with the seat's own hand. Robots only ever
//!   see this; [`crate::Game::view`] builds it from the game, protocol readers from a request
//!   ([`SeatView::playing`], [`SeatView::bidding`] and the `with_` methods);
//! - [`TurnView`]: the part a play policy reads at a turn, borrowed and `Copy`, projected from
//!   a view ([`SeatView::turn_view`]) or from a [`PlayState`](crate::PlayState) in search
//!   playouts ([`PlayState::turn_view`](crate::PlayState::turn_view)).
//!
//! (The exact solver's open position, every hand known, is the third kind of knowledge; it
//! lives with the solver in `ddz-bots`.)

use std::sync::Arc;

use ddz_core::{Cards, Move, RankSet, Rules};

use crate::action::{Bid, Phase, legal_bids};
use crate::error::ActionError;
use crate::game::Game;
use crate::scoring::{bomb_factor, pair_multipliers};
use crate::seat::{BySeat, Role, Seat};
use crate::show::Show;
use crate::trick::TrickOf;
use crate::turn_view::TurnView;

/// The play phase as every seat sees it, hands unknown: the trick, every play from the
/// landlord's lead (passes included), each seat's plays and the bomb multiplier. Protocol
/// readers replay a history into one ([`PublicPlay::push`]) and build a seat's view on it
/// ([`SeatView::playing`]).
///
/// Before the play phase the trick names the seat to act (to show, bid or double) with
/// nothing to beat, and the history is empty.
///
/// `N` is the table's seat count: 3 (the default) for [`Game`], 2 or 4 for a
/// [`crate::TableGame`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PublicPlay<const N: usize = 3> {
    trick: TrickOf<N>,
    /// Shared with the game: a view costs no copy of it.
    history: Arc<Vec<(Seat, Move)>>,
    /// Each seat's plays: the union of its moves in `history`, kept as the history grows.
    played: BySeat<Cards, N>,
    bomb_multiplier: u32,
}

impl<const N: usize> PublicPlay<N> {
    /// Before the first play: `leader` (the landlord) leads.
    pub fn new(leader: Seat) -> PublicPlay<N> {
        PublicPlay {
            trick: TrickOf::lead(leader),
            history: Arc::default(),
            played: BySeat::default(),
            bomb_multiplier: 1,
        }
    }

    /// The public part of a game in play: its trick, its history (shared, not copied) and
    /// the bomb multiplier so far; each seat's plays are read off the history.
    pub fn of_game(
        trick: TrickOf<N>,
        history: Arc<Vec<(Seat, Move)>>,
        bomb_multiplier: u32,
    ) -> Self {
        let mut played = BySeat([Cards::EMPTY; N]);
        for (s, m) in history.iter() {
            played[*s] = played[*s].union(m.cards());
        }
        PublicPlay {
            trick,
            history,
            played,
            bomb_multiplier,
        }
    }

    /// A position outside any game: `turn` is to act against `last` (the only play of the
    /// history; `None`: `turn` leads and the history is empty). Nothing is counted as played.
    pub fn at(turn: Seat, last: Option<(Seat, Move)>) -> PublicPlay<N> {
        PublicPlay {
            trick: TrickOf::at(turn, last),
            history: Arc::new(last.into_iter().collect()),
            played: BySeat::default(),
            bomb_multiplier: 1,
        }
    }

    /// `play` by `seat`, checked against the trick ([`TrickOf::check`]: turn, pass when
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
        Arc::make_mut(&mut self.history).push((seat, play));
        Ok(())
    }

    /// The trick after the history.
    pub const fn trick(&self) -> &TrickOf<N> {
        &self.trick
    }

    /// Every play, passes included, in order.
    pub fn history(&self) -> &[(Seat, Move)] {
        &self.history
    }

    /// Cards each seat has played.
    pub const fn played(&self) -> BySeat<Cards, N> {
        self.played
    }

    /// The product of the bomb factors of the history's bombs and rockets (saturating).
    pub const fn bomb_multiplier(&self) -> u32 {
        self.bomb_multiplier
    }
}

/// One seat's view of a game: everything public plus the seat's own hand, read through
/// accessors. Robots only ever see this.
///
/// `N` is the table's seat count: 3 (the default) for [`Game`] ([`Game::view`]), 2 or 4 for a
/// [`crate::TableGame`] ([`crate::TableGame::view`]), where nobody shows or doubles and the
/// rules have no wild ranks.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SeatView<const N: usize = 3> {
    seat: Seat,
    hand: Cards,
    phase: Phase,
    /// The rules in force, with the wild ranks revealed so far.
    rules: Rules,
    landlord: Option<Seat>,
    kitty: Option<Cards>,
    bids: Vec<(Seat, Bid)>,
    cards_left: BySeat<u32, N>,
    public: PublicPlay<N>,
    base: u32,
    /// The table multiplier (shows, robs, bombs), as the game or the controller states it.
    multiplier: u32,
    shown: BySeat<Option<Cards>, N>,
    shows: Vec<Show>,
    doublings: BySeat<Option<u32>, N>,
    /// The handicap in force under `two` (让牌): the farmer and the cards it goes out at.
    handicap: Option<(Seat, u32)>,
}

impl<const N: usize> SeatView<N> {
    /// A view of `seat`, holding `hand`, in the play phase after the plays of `public`
    /// (whose trick says whose turn it is and what is to beat), `landlord` being the
    /// landlord; the seats hold `cards_left` (the entry of `seat` is replaced by the hand's
    /// size). No bids, no kitty, no shows or doublings, base 1 and the history's bomb
    /// multiplier: the `with_` methods add what is known.
    pub fn playing(
        rules: &Rules,
        seat: Seat,
        landlord: Seat,
        hand: Cards,
        mut cards_left: BySeat<u32, N>,
        public: PublicPlay<N>,
    ) -> SeatView<N> {
        cards_left[seat] = hand.len();
        SeatView {
            seat,
            hand,
            phase: Phase::Playing,
            rules: rules.clone(),
            landlord: Some(landlord),
            kitty: None,
            bids: Vec::new(),
            cards_left,
            multiplier: public.bomb_multiplier,
            public,
            base: 1,
            shown: BySeat([None; N]),
            shows: Vec::new(),
            doublings: BySeat([None; N]),
            handicap: None,
        }
    }

    /// A view of a position outside any game (a hint, a test, a protocol request): `seat`
    /// holds `hand` and is to play against `last` (the only play of the history), the seats
    /// hold `cards_left`: [`SeatView::playing`] on [`PublicPlay::at`].
    pub fn position(
        rules: &Rules,
        seat: Seat,
        landlord: Seat,
        hand: Cards,
        cards_left: BySeat<u32, N>,
        last: Option<(Seat, Move)>,
    ) -> SeatView<N> {
        let public = PublicPlay::at(seat, last);
        SeatView::playing(rules, seat, landlord, hand, cards_left, public)
    }

    /// A view during bidding: `seat` holds `hand` and is to bid after `bids`; every other
    /// seat holds a dealt hand (17 cards at the classic table, [`Rules::hand_cards`]) and
    /// nothing else is known yet.
    pub fn bidding(rules: &Rules, seat: Seat, hand: Cards, bids: Vec<(Seat, Bid)>) -> SeatView<N> {
        let mut cards_left = BySeat([rules.hand_cards(); N]);
        cards_left[seat] = hand.len();
        SeatView {
            seat,
            hand,
            phase: Phase::Bidding,
            rules: rules.clone(),
            landlord: None,
            kitty: None,
            bids,
            cards_left,
            public: PublicPlay::new(seat),
            base: 1,
            multiplier: 1,
            shown: BySeat([None; N]),
            shows: Vec::new(),
            doublings: BySeat([None; N]),
            handicap: None,
        }
    }

    /// The view in another phase (a doubling or show decision read from a request).
    pub fn with_phase(mut self, phase: Phase) -> SeatView<N> {
        self.phase = phase;
        self
    }

    /// The view with another public play (a table game's bidding names the seat to act).
    pub(crate) fn with_public(mut self, public: PublicPlay<N>) -> SeatView<N> {
        self.public = public;
        self
    }

    /// The view with the kitty known (shown once the landlord is decided) or not.
    pub fn with_kitty(mut self, kitty: Option<Cards>) -> SeatView<N> {
        self.kitty = kitty;
        self
    }

    /// The view with the bids made, in order.
    pub fn with_bids(mut self, bids: Vec<(Seat, Bid)>) -> SeatView<N> {
        self.bids = bids;
        self
    }

    /// The view with each seat holding `cards_left` (the seat's own entry stays its hand's
    /// size).
    pub fn with_cards_left(mut self, mut cards_left: BySeat<u32, N>) -> SeatView<N> {
        cards_left[self.seat] = self.hand.len();
        self.cards_left = cards_left;
        self
    }

    /// The view with the stake so far: the base score and the table multiplier (shows, robs,
    /// bombs; before spring and doubling).
    pub fn with_stake(mut self, base: u32, multiplier: u32) -> SeatView<N> {
        self.base = base;
        self.multiplier = multiplier;
        self
    }

    /// The view with the shows made (明牌) and the cards of each seat that has shown, as
    /// they are now (`None` for a seat that has not shown).
    pub fn with_shows(mut self, shows: Vec<Show>, shown: BySeat<Option<Cards>, N>) -> SeatView<N> {
        self.shows = shows;
        self.shown = shown;
        self
    }

    /// The view with each seat's doubling factor, for the seats that have chosen one.
    pub fn with_doublings(mut self, doublings: BySeat<Option<u32>, N>) -> SeatView<N> {
        self.doublings = doublings;
        self
    }

    /// The view with the handicap in force under `two` (让牌): `farmer` goes out at `cards`
    /// cards or fewer ([`crate::TableGame::handicap`]).
    pub fn with_handicap(mut self, handicap: Option<(Seat, u32)>) -> SeatView<N> {
        self.handicap = handicap;
        self
    }

    /// The seat this view belongs to.
    pub const fn seat(&self) -> Seat {
        self.seat
    }

    /// The seat's own cards.
    pub const fn hand(&self) -> Cards {
        self.hand
    }

    /// The phase of the game.
    pub const fn phase(&self) -> Phase {
        self.phase
    }

    /// The rules in force, with the wild ranks revealed so far.
    pub const fn rules(&self) -> &Rules {
        &self.rules
    }

    /// The wild ranks revealed so far.
    pub const fn laizi(&self) -> RankSet {
        self.rules.laizi
    }

    /// The landlord's seat, once decided.
    pub const fn landlord(&self) -> Option<Seat> {
        self.landlord
    }

    /// The seat's role, once the landlord is decided.
    pub fn role(&self) -> Option<Role> {
        self.landlord.map(|l| Role::at::<N>(self.seat, l))
    }

    /// The kitty, once shown (when the landlord is decided).
    pub const fn kitty(&self) -> Option<Cards> {
        self.kitty
    }

    /// The bids so far, in order.
    pub fn bids(&self) -> &[(Seat, Bid)] {
        &self.bids
    }

    /// Cards left in each hand.
    pub const fn cards_left(&self) -> BySeat<u32, N> {
        self.cards_left
    }

    /// The public history of the play phase.
    pub const fn public(&self) -> &PublicPlay<N> {
        &self.public
    }

    /// Cards each seat has played.
    pub const fn played(&self) -> BySeat<Cards, N> {
        self.public.played
    }

    /// Every play so far, passes included.
    pub fn history(&self) -> &[(Seat, Move)] {
        &self.public.history
    }

    /// Every play so far, shared: a copy of the view's handle, not of the plays.
    pub fn shared_history(&self) -> Arc<Vec<(Seat, Move)>> {
        Arc::clone(&self.public.history)
    }

    /// The trick in progress (before the play phase: the seat to act, nothing to beat).
    pub const fn trick(&self) -> &TrickOf<N> {
        &self.public.trick
    }

    /// The play to beat and who made it; `None` when the seat to act leads.
    pub const fn last(&self) -> Option<(Seat, Move)> {
        self.public.trick.last()
    }

    /// The seat to act.
    pub const fn turn(&self) -> Seat {
        self.public.trick.turn()
    }

    /// The base score so far.
    pub const fn base(&self) -> u32 {
        self.base
    }

    /// The table multiplier so far (shows, robs, bombs), before spring and doubling.
    pub const fn multiplier(&self) -> u32 {
        self.multiplier
    }

    /// The cards of every seat that has shown its hand (明牌), as they are now (while
    /// dealing, those received so far); `None` for a seat that has not shown. Never a hand
    /// before it is shown.
    pub const fn shown(&self) -> &BySeat<Option<Cards>, N> {
        &self.shown
    }

    /// The shows so far, in order (the first is the first bidder's, when before bidding).
    pub fn shows(&self) -> &[Show] {
        &self.shows
    }

    /// Each seat's doubling factor once it has chosen it (public once made).
    pub const fn doublings(&self) -> &BySeat<Option<u32>, N> {
        &self.doublings
    }

    /// The handicap in force under `two` (让牌): the farmer and the cards it goes out at;
    /// `None` in every other game, and before the bidding ends.
    pub const fn handicap(&self) -> Option<(Seat, u32)> {
        self.handicap
    }

    /// The bids the seat may make ([`crate::legal_bids`] under the view's bidding form).
    pub fn legal_bids(&self) -> Vec<Bid> {
        legal_bids(self.rules.bidding, &self.bids)
    }

    /// The part of the view a play decision reads, borrowed: no allocation.
    pub fn turn_view(&self) -> TurnView<'_, N> {
        TurnView {
            rules: &self.rules,
            seat: self.seat,
            hand: self.hand,
            landlord: self.landlord,
            cards_left: self.cards_left,
            last: self.last(),
            played: self.public.played,
            history: &self.public.history,
            handicap: self.handicap,
        }
    }
}

impl SeatView {
    /// The multiplier `seat` is shown (RULES.md section 7): for a farmer the table
    /// multiplier × the landlord's doubling × its own, for the landlord the sum of the
    /// farmers', capped per pair ([`crate::pair_multipliers`]); the table multiplier before
    /// the landlord is decided.
    pub fn seat_multiplier(&self, seat: Seat) -> u32 {
        match self.landlord {
            None => self.multiplier,
            Some(landlord) => {
                let d: BySeat<u32> = BySeat::from_fn(|s| self.doublings[s].unwrap_or(1));
                pair_multipliers(self.multiplier, landlord, &d, self.rules.pair_cap())[seat]
            }
        }
    }
}

impl Game {
    /// The view of `seat`: its hand and everything public ([`SeatView`]).
    pub fn view(&self, seat: Seat) -> SeatView {
        let trick = match self.phase() {
            Phase::Playing | Phase::Over => *self.play_state().trick(),
            _ => TrickOf::lead(self.turn()),
        };
        let bombs = self.play_state().bomb_multiplier();
        SeatView {
            seat,
            hand: self.hand(seat),
            phase: self.phase(),
            rules: self.rules(),
            landlord: self.landlord(),
            kitty: self.landlord().map(|_| self.deal().kitty.to_cards()),
            bids: self.bids().to_vec(),
            cards_left: BySeat::from_fn(|s| self.hand(s).len()),
            public: PublicPlay::of_game(trick, self.shared_history(), bombs),
            base: self.base(),
            multiplier: self.multiplier(),
            shown: BySeat::from_fn(|s| self.shown_hand(s)),
            shows: self.shows().to_vec(),
            doublings: BySeat::from_fn(|s| self.doubling(s)),
            handicap: None,
        }
    }
}
