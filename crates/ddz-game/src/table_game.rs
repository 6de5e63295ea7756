//! One game at a table of two or four seats (docs/variants.md): the seeded deal, the auction,
//! the handicap of `two` (让牌), the play and the result.
//!
//! The three-seat game, with showing, doubling, wildcards and no-shuffle deals, is
//! [`crate::Game`]; a `TableGame` plays the rules of any table without them (the rules of
//! `two` and `four` have none), through the same parts: [`TableDeal`], [`Auction`],
//! [`PlayStateOf`] and its scoring.
//!
//! ```
//! use ddz_core::Rules;
//! use ddz_game::{Phase, TableGame};
//!
//! let mut game = TableGame::<2>::new(&Rules::two(), 7).unwrap();
//! while game.phase() == Phase::Bidding {
//!     game.bid(game.turn(), 1).unwrap(); // call, rob, rob back
//! }
//! while game.phase() == Phase::Playing {
//!     let play = game.legal_moves()[0];
//!     game.play(game.turn(), play).unwrap();
//! }
//! let result = game.result().unwrap();
//! assert_eq!(result.scores.0.iter().sum::<i64>(), 0);
//! ```

use std::sync::Arc;

use ddz_core::{Bidding, Cards, DealMethod, Move, Rules, Wild, legal_moves};

use crate::action::{Bid, Phase};
use crate::auction::{Auction, AuctionStep};
use crate::error::ActionError;
use crate::game::{REDEAL_STREAM, seeded_first_seat};
use crate::play_state::{PlayStateOf, PlayUndo, handicap_cards};
use crate::scoring::{End, GameResult, Stake};
use crate::seat::{BySeat, Seat};
use crate::shuffle::derive_seed;
use crate::table_deal::{TableDeal, TableError};
use crate::trick::TrickOf;
use crate::turn_view::TurnView;
use crate::view::{PublicPlay, SeatView};

/// One game at an `N`-seat table, from the deal to the result. Every action takes the acting
/// seat and is refused, the state unchanged, when it is not legal.
#[derive(Clone, Debug)]
pub struct TableGame<const N: usize> {
    rules: Rules,
    seed: u64,
    deal: TableDeal<N>,
    redeals: u32,
    phase: Phase,
    /// The bids of the current deal.
    auction: Auction<N>,
    landlord: Option<Seat>,
    base: u32,
    /// The hands, the trick and the bombs (the hands as dealt while bidding).
    state: PlayStateOf<N>,
    plays: Vec<PlayUndo<N>>,
    history: Vec<(Seat, Move)>,
    result: Option<GameResult<N>>,
}

impl<const N: usize> TableGame<N> {
    /// A game of the deal of `seed` ([`TableDeal::from_seed`]), the first bidder drawn from
    /// the seed as [`crate::Game`] draws it. Refused when the rules seat another number of
    /// players, or have what only the three-seat game plays: wildcards, showing, doubling or
    /// no-shuffle deals, or the handicap at more than two seats.
    pub fn new(rules: &Rules, seed: u64) -> Result<TableGame<N>, TableError> {
        let error = |why: &str| TableError {
            seats: N,
            why: why.to_string(),
        };
        let deal = TableDeal::from_seed(seed, rules)?;
        if rules.wild != Wild::None {
            return Err(error("wildcards are played at three seats only"));
        }
        if rules.show.enabled || rules.doubling.enabled || rules.deal != DealMethod::Shuffle {
            return Err(error(
                "showing, doubling and no-shuffle deals are played at three seats only",
            ));
        }
        if rules.handicap && N != 2 {
            return Err(error("the handicap (让牌) is a two-seat rule"));
        }
        let mut game = TableGame {
            rules: rules.clone(),
            seed,
            deal,
            redeals: 0,
            phase: Phase::Bidding,
            auction: Auction::new(rules.bidding, Seat::ALL[0]),
            landlord: None,
            base: 1,
            state: PlayStateOf::with_trick(deal.hands, TrickOf::lead(Seat::ALL[0])),
            plays: Vec::new(),
            history: Vec::new(),
            result: None,
        };
        game.start_bidding();
        Ok(game)
    }

    /// The bidding of the current deal, or under a fixed landlord the play at once.
    fn start_bidding(&mut self) {
        let first = seeded_first_seat::<N>(&self.rules, self.seed, self.redeals);
        self.state = PlayStateOf::with_trick(self.deal.hands, TrickOf::lead(first));
        self.auction = Auction::new(self.rules.bidding, first);
        self.phase = Phase::Bidding;
        if self.rules.bidding == Bidding::Fixed {
            self.make_landlord(first);
        }
    }

    fn make_landlord(&mut self, landlord: Seat) {
        self.landlord = Some(landlord);
        let start =
            PlayStateOf::with_trick(self.deal.landlord_hands(landlord), TrickOf::lead(landlord));
        self.state = if self.rules.handicap {
            start.with_handicap(landlord.next_of::<N>(), self.handicap_now())
        } else {
            start
        };
        self.phase = Phase::Playing;
    }

    /// The handicap the bidding so far gives: 1 + robs cards.
    fn handicap_now(&self) -> u32 {
        handicap_cards(self.auction.robs())
    }

    /// The rules.
    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    /// The game's seed.
    pub const fn seed(&self) -> u64 {
        self.seed
    }

    /// The current deal (after any redeal).
    pub const fn deal(&self) -> &TableDeal<N> {
        &self.deal
    }

    /// How many times nobody bid and the cards were dealt again.
    pub const fn redeals(&self) -> u32 {
        self.redeals
    }

    /// The phase: bidding, playing or over.
    pub const fn phase(&self) -> Phase {
        self.phase
    }

    /// The seat to act (the last to play once the game is over).
    pub const fn turn(&self) -> Seat {
        match self.phase {
            Phase::Bidding => self.auction.turn(),
            _ => self.state.turn(),
        }
    }

    /// The landlord, once decided.
    pub const fn landlord(&self) -> Option<Seat> {
        self.landlord
    }

    /// A seat's cards (while bidding, as dealt).
    pub fn hand(&self, seat: Seat) -> Cards {
        self.state.hand(seat)
    }

    /// The play state: hands, trick, bombs and the handicap in force.
    pub const fn play_state(&self) -> &PlayStateOf<N> {
        &self.state
    }

    /// The bids of the current deal, in order.
    pub fn bids(&self) -> &[(Seat, Bid)] {
        self.auction.bids()
    }

    /// The base score: the winning bid under points, else 1.
    pub const fn base(&self) -> u32 {
        self.base
    }

    /// 2 to the robs of the current deal.
    pub const fn rob_multiplier(&self) -> u32 {
        self.auction.rob_multiplier()
    }

    /// The handicap (让牌) under `two`: the farmer and the cards it goes out at, from the end
    /// of the bidding (docs/variants.md); `None` before, and without the handicap.
    pub const fn handicap(&self) -> Option<(Seat, u32)> {
        self.state.handicap()
    }

    /// The plays so far, `(seat, move)`, passes included.
    pub fn history(&self) -> &[(Seat, Move)] {
        &self.history
    }

    /// The play to beat and who made it, or `None` when the seat to act leads.
    pub fn last(&self) -> Option<(Seat, Move)> {
        match self.phase {
            Phase::Bidding => None,
            _ => self.state.last(),
        }
    }

    /// The result once the game is over.
    pub const fn result(&self) -> Option<&GameResult<N>> {
        self.result.as_ref()
    }

    /// The bids the seat to act may make (empty unless bidding).
    pub fn legal_bids(&self) -> Vec<Bid> {
        if self.phase != Phase::Bidding {
            return Vec::new();
        }
        self.auction.legal_bids()
    }

    /// The legal moves of the seat to play (empty unless playing).
    pub fn legal_moves(&self) -> Vec<Move> {
        if self.phase != Phase::Playing {
            return Vec::new();
        }
        legal_moves(
            self.state.hand(self.state.turn()),
            self.state.trick().to_beat(),
            &self.rules,
        )
    }

    /// Refuses an action of `seat` unless the game is in `phase` and it is `seat`'s turn.
    fn check_turn(&self, seat: Seat, phase: Phase) -> Result<(), ActionError> {
        ActionError::check_turn(self.phase, self.turn(), seat, phase)
    }

    /// A bid by `seat` ([`Bid`]). Nobody bidding (points) or calling (call-and-rob) deals
    /// again from a seed derived from the game's, as [`crate::Game`] does.
    pub fn bid(&mut self, seat: Seat, bid: Bid) -> Result<(), ActionError> {
        self.check_turn(seat, Phase::Bidding)?;
        match self.auction.bid(bid)? {
            AuctionStep::Next(_) => {}
            AuctionStep::Landlord { seat, base } => {
                self.base = base;
                self.make_landlord(seat);
            }
            AuctionStep::NobodyBid => self.redeal(),
        }
        Ok(())
    }

    fn redeal(&mut self) {
        self.redeals += 1;
        let seed = derive_seed(self.seed, REDEAL_STREAM + u64::from(self.redeals));
        // The rules were checked against N by `new`: the deal cannot fail.
        if let Ok(deal) = TableDeal::from_seed(seed, &self.rules) {
            self.deal = deal;
        }
        self.start_bidding();
    }

    /// A play (or the pass) by `seat`, checked. When it ends the game the result is set.
    pub fn play(&mut self, seat: Seat, play: Move) -> Result<(), ActionError> {
        self.check_turn(seat, Phase::Playing)?;
        let undo = self.state.apply(seat, play, &self.rules)?;
        self.plays.push(undo);
        self.history.push((seat, play));
        if self.state.is_over() {
            let landlord = self.landlord.unwrap_or(Seat::ALL[0]);
            let stake = Stake::plain(self.base, self.auction.rob_multiplier());
            self.result = self.state.result_staked(landlord, &stake, &self.rules);
            self.phase = Phase::Over;
        }
        Ok(())
    }

    /// Takes back the last play (not the bids): the game is playing again.
    pub fn undo(&mut self) -> Result<(), ActionError> {
        let undo = self.plays.pop().ok_or(ActionError::NothingToUndo)?;
        self.state.undo(undo);
        self.history.pop();
        self.result = None;
        self.phase = Phase::Playing;
        Ok(())
    }

    /// The result if `failing` forfeited now, as [`crate::Game::forfeit_result`]: its side
    /// loses at the stake reached so far (base x 2^robs x the bombs, no spring); before the
    /// landlord is decided the failing seat is taken as a landlord that loses at stake 1.
    /// The game itself is not changed.
    pub fn forfeit_result(&self, failing: Seat) -> GameResult<N> {
        let stake = match self.landlord {
            None => Stake::plain(1, 1),
            Some(_) => Stake::plain(self.base, self.auction.rob_multiplier()),
        };
        let (landlord, end) = End::forfeit(failing, self.landlord);
        self.state.settle(landlord, end, &stake, &self.rules)
    }

    /// The legal readings of exactly `cards` for `seat` now (several for cards such as
    /// `333444555666`), or why there is none, as [`crate::Game::readings`]: what a player's
    /// selection of cards can be played as.
    pub fn readings(&self, seat: Seat, cards: Cards) -> Result<Vec<Move>, ActionError> {
        ActionError::check_turn(self.phase, self.turn(), seat, Phase::Playing)?;
        let legal = || self.legal_moves();
        ActionError::readings(cards, self.hand(seat), legal, self.last(), &self.rules)
    }

    /// What the seat to play's policy reads ([`TurnView`]), with the history and every
    /// seat's plays; `None` unless playing.
    pub fn turn_view(&self) -> Option<TurnView<'_, N>> {
        if self.phase != Phase::Playing {
            return None;
        }
        let landlord = self.landlord?;
        let mut played = BySeat::<Cards, N>::default();
        for (seat, m) in &self.history {
            played[*seat] = played[*seat].union(m.cards());
        }
        Some(
            self.state
                .turn_view(&self.rules, landlord)
                .with_history(&self.history, played),
        )
    }

    /// Cards left in each hand.
    pub fn cards_left(&self) -> BySeat<u32, N> {
        self.state.cards_left()
    }

    /// The view of `seat`: its hand and everything public ([`SeatView`]): the bids, the
    /// kitty once the landlord has it, every play, the stake and the handicap in force.
    pub fn view(&self, seat: Seat) -> SeatView<N> {
        let Some(landlord) = self.landlord else {
            return SeatView::bidding(&self.rules, seat, self.hand(seat), self.bids().to_vec())
                .with_public(PublicPlay::new(self.turn()));
        };
        let bombs = self.state.bomb_multiplier();
        let history = Arc::new(self.history.clone());
        let public = PublicPlay::of_game(*self.state.trick(), history, bombs);
        let hand = self.hand(seat);
        SeatView::playing(&self.rules, seat, landlord, hand, self.cards_left(), public)
            .with_phase(self.phase)
            .with_bids(self.bids().to_vec())
            .with_kitty(Some(self.deal.kitty))
            .with_stake(self.base, self.rob_multiplier().saturating_mul(bombs))
            .with_handicap(self.handicap())
    }
}
