//! The rules of play written once: the hands, the trick ([`Trick`]: whose turn, the play to
//! beat, the passes since it), the bomb stake, and the result.
//!
//! [`Game`](crate::Game) plays through [`PlayState`], and so do search playouts, which use
//! the fast path [`PlayState::apply_legal`] for moves taken from their own legal list.
//!
//! ```
//! use ddz_core::{Move, Rules};
//! use ddz_game::{PlayState, Seat};
//!
//! let rules = Rules::classic();
//! let [landlord, down, up] = Seat::ALL;
//! let hands = ["334", "5", "6"].map(|h| h.parse().unwrap());
//! let mut state = PlayState::new(hands, landlord);
//! let three = ddz_core::parse_move("3", &rules, None).unwrap();
//! let undo = state.apply(landlord, three, &rules).unwrap();
//! assert_eq!(state.turn(), down);
//! assert!(state.apply(down, three, &rules).is_err()); // not in hand, and does not beat 3
//! let pass = state.apply(down, Move::PASS, &rules).unwrap();
//! assert_eq!(state.last(), Some((landlord, three)));
//! state.undo(pass);
//! state.undo(undo);
//! assert_eq!(state.hand(landlord).len(), 3);
//! assert_eq!(state.turn(), landlord);
//! ```

use ddz_core::{Cards, Kind, Move, Rules, Scoring, legal_moves_into};

use crate::deal::Deal;
use crate::error::ActionError;
use crate::scoring::{End, GameResult, Side, Stake, bomb_factor, pair_multipliers, pair_scores};
use crate::seat::{BySeat, Seat};
use crate::trick::TrickOf;
use crate::turn_view::TurnView;

/// The cards at or below which the two-seat farmer is out (让牌, docs/variants.md): one more
/// than the robs of the bidding.
pub const fn handicap_cards(robs: u32) -> u32 {
    1 + robs
}

/// What [`PlayStateOf::undo`] needs to take a play back; returned by every apply.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PlayUndo<const N: usize = 3> {
    seat: Seat,
    play: Move,
    trick: TrickOf<N>,
    bomb_multiplier: u32,
}

impl<const N: usize> PlayUndo<N> {
    /// The seat that made the play.
    pub const fn seat(&self) -> Seat {
        self.seat
    }

    /// The play (or the pass).
    pub const fn play(&self) -> Move {
        self.play
    }
}

/// The play phase at the three-seat table ([`PlayStateOf`] of 3 seats).
pub type PlayState = PlayStateOf<3>;

/// The play phase at an `N`-seat table: every hand, the trick, and what scoring counts (the
/// bomb multiplier, bombs and rockets played, plays per seat for spring). The landlord is not
/// part of it: scoring takes it as an argument.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PlayStateOf<const N: usize> {
    hands: BySeat<Cards, N>,
    trick: TrickOf<N>,
    /// The product of the bomb factors of every bomb and rocket played (saturating).
    bomb_multiplier: u32,
    bombs: u32,
    rockets: u32,
    plays_by: BySeat<u32, N>,
    first_out: Option<Seat>,
    /// The two-seat handicap (让牌): this seat is out once it holds this many cards or fewer.
    handicap: Option<(Seat, u32)>,
}

impl PlayStateOf<3> {
    /// The start of play of `deal` with seat 0 as the landlord: seat 0 holds its 17 cards and
    /// the kitty ([`Deal::landlord_cards`]) and leads, seats 1 and 2 hold their 17 cards.
    pub fn dealt(deal: &Deal) -> PlayState {
        let [landlord, down, up] = Seat::ALL;
        let hands = [
            deal.landlord_cards().to_cards(),
            deal.hands[down].to_cards(),
            deal.hands[up].to_cards(),
        ];
        PlayState::new(hands, landlord)
    }
}

impl<const N: usize> PlayStateOf<N> {
    /// What the seat to act's play policy reads ([`TurnView`]), `landlord` being the
    /// landlord: no view is built. The play state keeps no history: a policy that reads one
    /// is given it ([`TurnView::with_history`]).
    pub fn turn_view<'a>(&self, rules: &'a Rules, landlord: Seat) -> TurnView<'a, N> {
        TurnView {
            rules,
            seat: self.turn(),
            hand: self.hands[self.turn()],
            landlord: Some(landlord),
            cards_left: self.cards_left(),
            last: self.trick.last(),
            played: BySeat::default(),
            history: &[],
            handicap: self.handicap,
        }
    }
    /// The start of play: `hands` in seat order (the landlord's with the kitty), `leader` (the
    /// landlord) to lead.
    pub fn new(hands: [Cards; N], leader: Seat) -> PlayStateOf<N> {
        PlayStateOf::with_trick(BySeat(hands), TrickOf::lead(leader))
    }

    /// A position in the middle of play: `hands` and the trick in progress; nothing played
    /// before it is counted (no bombs, no plays for spring).
    pub fn with_trick(hands: BySeat<Cards, N>, trick: TrickOf<N>) -> PlayStateOf<N> {
        PlayStateOf {
            hands,
            trick,
            bomb_multiplier: 1,
            bombs: 0,
            rockets: 0,
            plays_by: BySeat::default(),
            first_out: Seat::all::<N>().into_iter().find(|&s| hands[s].is_empty()),
            handicap: None,
        }
    }

    /// The same state under the two-seat handicap (让牌, docs/variants.md): `seat` (the
    /// farmer) is out, and wins, once it holds `cards` cards or fewer after one of its plays.
    pub fn with_handicap(mut self, seat: Seat, cards: u32) -> PlayStateOf<N> {
        self.handicap = Some((seat, cards));
        if self.first_out.is_none() && self.hands[seat].len() <= cards {
            self.first_out = Some(seat);
        }
        self
    }

    /// The handicap in force: the seat it favours and the cards it goes out at.
    pub const fn handicap(&self) -> Option<(Seat, u32)> {
        self.handicap
    }

    /// Every seat's cards.
    pub const fn hands(&self) -> &BySeat<Cards, N> {
        &self.hands
    }

    /// A seat's cards.
    pub fn hand(&self, seat: Seat) -> Cards {
        self.hands[seat]
    }

    /// Cards left in each hand.
    pub fn cards_left(&self) -> BySeat<u32, N> {
        BySeat::from_fn(|s| self.hands[s].len())
    }

    /// The trick in progress.
    pub const fn trick(&self) -> &TrickOf<N> {
        &self.trick
    }

    /// The seat to act.
    pub const fn turn(&self) -> Seat {
        self.trick.turn()
    }

    /// The play to beat and who made it; `None` when the seat to act leads.
    pub const fn last(&self) -> Option<(Seat, Move)> {
        self.trick.last()
    }

    /// The seat that emptied its hand (or, under the handicap, reached its cards), once one
    /// has: the game is over.
    pub const fn first_out(&self) -> Option<Seat> {
        self.first_out
    }

    /// True once a hand is empty (or the handicap's seat is down to its cards).
    pub const fn is_over(&self) -> bool {
        self.first_out.is_some()
    }

    /// The product of the bomb factors of the bombs and rockets played ([`bomb_factor`]),
    /// saturating: the stake before robs, base, spring and cap.
    pub const fn bomb_multiplier(&self) -> u32 {
        self.bomb_multiplier
    }

    /// Bombs played (rockets not counted).
    pub const fn bombs(&self) -> u32 {
        self.bombs
    }

    /// Rockets played.
    pub const fn rockets(&self) -> u32 {
        self.rockets
    }

    /// Non-pass plays made by `seat`.
    pub fn plays_by(&self, seat: Seat) -> u32 {
        self.plays_by[seat]
    }

    /// Fills `out` (cleared first) with the legal moves of the seat to act, the pass included
    /// when following; empty once the game is over.
    pub fn legal_moves_into(&self, rules: &Rules, out: &mut Vec<Move>) {
        if self.is_over() {
            out.clear();
            return;
        }
        legal_moves_into(self.hands[self.turn()], self.trick.to_beat(), rules, out);
    }

    /// Checks that `seat` may make `play` now: the game is not over, it is its turn, the cards
    /// are in its hand, the reading is one the rules give them, it beats the play to beat,
    /// and a pass only when following.
    pub fn check(&self, seat: Seat, play: &Move, rules: &Rules) -> Result<(), ActionError> {
        if self.is_over() {
            return Err(ActionError::GameOver);
        }
        if seat != self.turn() {
            return Err(ActionError::NotYourTurn {
                seat,
                turn: self.turn(),
            });
        }
        if !play.is_pass() {
            if !self.hands[seat].contains(play.cards()) {
                return Err(ActionError::NotInHand {
                    cards: play.cards(),
                });
            }
            if !ddz_core::is_legal(self.hands[seat], None, play, rules) {
                return Err(ActionError::NotACombination {
                    cards: play.cards(),
                    reading: play.reading(),
                });
            }
        }
        self.trick.check(seat, play, rules)
    }

    /// `play` by `seat`, checked ([`PlayState::check`]); the state is unchanged on error.
    /// Returns what [`PlayState::undo`] needs to take it back.
    pub fn apply(
        &mut self,
        seat: Seat,
        play: Move,
        rules: &Rules,
    ) -> Result<PlayUndo<N>, ActionError> {
        self.check(seat, &play, rules)?;
        Ok(self.apply_legal(play, rules))
    }

    /// The fast path: the seat to act makes `play`, which the caller took from that seat's
    /// legal moves ([`PlayStateOf::legal_moves_into`]); nothing is checked. When the play
    /// empties the hand (or brings the handicap's seat down to its cards) the game is over
    /// and the turn stays with that seat.
    pub fn apply_legal(&mut self, play: Move, rules: &Rules) -> PlayUndo<N> {
        let seat = self.turn();
        let undo = PlayUndo {
            seat,
            play,
            trick: self.trick,
            bomb_multiplier: self.bomb_multiplier,
        };
        if play.is_pass() {
            self.trick.advance(play);
            return undo;
        }
        self.hands[seat] = self.hands[seat].minus(play.cards());
        self.plays_by[seat] += 1;
        match play.kind() {
            Kind::Bomb => self.bombs += 1,
            Kind::Rocket => self.rockets += 1,
            _ => {}
        }
        self.bomb_multiplier = self
            .bomb_multiplier
            .saturating_mul(bomb_factor(&play, rules));
        let out = match self.handicap {
            Some((favoured, cards)) if favoured == seat => self.hands[seat].len() <= cards,
            _ => self.hands[seat].is_empty(),
        };
        if out {
            self.first_out = Some(seat);
            self.trick.go_out(play);
        } else {
            self.trick.advance(play);
        }
        undo
    }

    /// Takes back the play `undo` was returned for, which must be the last one applied.
    pub fn undo(&mut self, undo: PlayUndo<N>) {
        let PlayUndo {
            seat,
            play,
            trick,
            bomb_multiplier,
        } = undo;
        if !play.is_pass() {
            self.hands[seat] = self.hands[seat].union(play.cards());
            self.plays_by[seat] -= 1;
            match play.kind() {
                Kind::Bomb => self.bombs -= 1,
                Kind::Rocket => self.rockets -= 1,
                _ => {}
            }
        }
        self.trick = trick;
        self.bomb_multiplier = bomb_multiplier;
        self.first_out = None;
    }

    /// The result once the game is over under section 4's scoring: [`PlayState::result_staked`]
    /// with no show and no doubling.
    pub fn result(
        &self,
        landlord: Seat,
        base: u32,
        rob_multiplier: u32,
        rules: &Rules,
    ) -> Option<GameResult<N>> {
        self.result_staked(landlord, &Stake::plain(base, rob_multiplier), rules)
    }

    /// The result once the game is over: the winner, spring and anti-spring, the table
    /// multiplier P (shows × robs × the bomb multiplier under the standard scoring, shows ×
    /// the bombs under DouZero's ADP; doubled for spring), each pair's multiplier
    /// `P × d_L × d_F` capped per pair ([`pair_multipliers`]), and every seat's score at
    /// `base` × its multiplier ([`pair_scores`]). Without shows and doubling this is section
    /// 4: the landlord wins or loses 2 × base × min(P, cap), each farmer 1 ×.
    pub fn result_staked(
        &self,
        landlord: Seat,
        stake: &Stake<N>,
        rules: &Rules,
    ) -> Option<GameResult<N>> {
        let first_out = self.first_out?;
        let winner = if first_out == landlord {
            Side::Landlord
        } else {
            Side::Farmers
        };
        let farmers_played = Seat::all::<N>()
            .iter()
            .any(|&s| s != landlord && self.plays_by[s] > 0);
        let spring_on = rules.spring && rules.scoring == Scoring::Standard;
        let spring = spring_on && winner == Side::Landlord && !farmers_played;
        let anti_spring = spring_on && winner == Side::Farmers && self.plays_by[landlord] == 1;
        let end = End {
            winner,
            first_out,
            spring,
            anti_spring,
        };
        Some(self.settle(landlord, end, stake, rules))
    }

    /// The result when the game ends as `end` says (spring doubling the table multiplier).
    pub(crate) fn settle(
        &self,
        landlord: Seat,
        end: End,
        stake: &Stake<N>,
        rules: &Rules,
    ) -> GameResult<N> {
        let (base, mut p) = self.stake_so_far_staked(stake, rules);
        if end.spring || end.anti_spring {
            p = p.saturating_mul(2);
        }
        let cap = rules.pair_cap();
        let multipliers = pair_multipliers(p, landlord, &stake.doubling, cap);
        let section_7 = rules.doubling.enabled || rules.show.enabled;
        GameResult {
            winner: end.winner,
            first_out: end.first_out,
            base,
            multiplier: cap.map_or(p, |c| p.min(c)),
            bombs: self.bombs,
            rocket: self.rockets > 0,
            spring: end.spring,
            anti_spring: end.anti_spring,
            scores: pair_scores(landlord, end.winner, base, &multipliers),
            show: stake.show,
            doubling: rules.doubling.enabled.then_some(stake.doubling),
            multipliers: section_7.then_some(multipliers),
        }
    }

    /// The base and the table multiplier so far, before spring and cap: `base` and shows ×
    /// robs × the bomb multiplier under the standard scoring; 1 and shows × the bombs under
    /// DouZero's ADP.
    pub fn stake_so_far_staked(&self, stake: &Stake<N>, rules: &Rules) -> (u32, u32) {
        match rules.scoring {
            Scoring::Standard => (
                stake.base,
                stake
                    .show
                    .saturating_mul(stake.rob_multiplier)
                    .saturating_mul(self.bomb_multiplier),
            ),
            Scoring::DouzeroAdp => (1, stake.show.saturating_mul(self.bomb_multiplier)),
        }
    }

    /// The base and multiplier reached so far under section 4 (no spring, capped): what a
    /// seat that forfeits now loses at.
    pub fn stake_so_far(&self, base: u32, rob_multiplier: u32, rules: &Rules) -> (u32, u32) {
        let (base, multiplier) =
            self.stake_so_far_staked(&Stake::plain(base, rob_multiplier), rules);
        (
            base,
            rules.pair_cap().map_or(multiplier, |c| multiplier.min(c)),
        )
    }
}
