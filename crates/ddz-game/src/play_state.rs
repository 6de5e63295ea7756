//! The rules of play written once: the trick (whose turn, the play to beat, the passes since
//! it), the hands, the bomb stake, and scoring.
//!
//! [`Trick`] is the part every reader of a game needs, hands known or not: a protocol request
//! replays a history into one without knowing the other hands. [`PlayState`] adds the hands
//! and the stake: [`Game`](crate::Game) plays through it, and so do search playouts, which
//! use the fast path [`PlayState::apply_legal`] for moves taken from their own legal list.
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

use crate::game::{ActionError, GameResult, Side, bomb_factor};
use crate::seat::{BySeat, Seat};
use crate::view::TurnView;

/// The trick in progress: the seat to act, the play to beat and who made it, and the passes
/// since that play. Two passes in a row give the lead back to the seat that made the play.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Trick {
    turn: Seat,
    last: Option<(Seat, Move)>,
    passes: u8,
}

impl Trick {
    /// A new trick led by `leader`.
    pub const fn lead(leader: Seat) -> Trick {
        Trick {
            turn: leader,
            last: None,
            passes: 0,
        }
    }

    /// A trick in progress: `turn` is to act against `last` (a play and who made it; `None`
    /// when `turn` leads). The passes since `last` follow from the seats: none when `last` was
    /// made by the seat before `turn`, one otherwise; a `last` made by `turn` itself means the
    /// other two passed, so `turn` leads.
    pub fn at(turn: Seat, last: Option<(Seat, Move)>) -> Trick {
        match last {
            Some((by, m)) if by != turn && !m.is_pass() => Trick {
                turn,
                last,
                passes: u8::from(by.next() != turn),
            },
            _ => Trick::lead(turn),
        }
    }

    /// The seat to act.
    pub const fn turn(&self) -> Seat {
        self.turn
    }

    /// The play to beat and the seat that made it; `None` when the seat to act leads.
    pub const fn last(&self) -> Option<(Seat, Move)> {
        self.last
    }

    /// The play to beat, if any.
    pub fn to_beat(&self) -> Option<&Move> {
        self.last.as_ref().map(|(_, m)| m)
    }

    /// Passes since the play to beat (0 or 1).
    pub const fn passes(&self) -> u8 {
        self.passes
    }

    /// True when the seat to act leads (nothing to beat).
    pub const fn leading(&self) -> bool {
        self.last.is_none()
    }

    /// Checks what the trick alone decides about `play` by `seat`: its turn, no pass when
    /// leading, and a play that beats the play to beat. Whether the cards are in the seat's
    /// hand and whether the reading is one its cards have are the caller's (see
    /// [`PlayState::apply`]).
    pub fn check(&self, seat: Seat, play: &Move, rules: &Rules) -> Result<(), ActionError> {
        if seat != self.turn {
            return Err(ActionError::NotYourTurn {
                seat,
                turn: self.turn,
            });
        }
        match self.last {
            None if play.is_pass() => Err(ActionError::PassWhenLeading),
            Some((_, last)) if !play.is_pass() && !play.beats(&last, rules) => {
                Err(ActionError::DoesNotBeat { play: *play, last })
            }
            _ => Ok(()),
        }
    }

    /// The trick after the seat to act makes `play` (not checked): a pass counts towards the
    /// two that end the trick, a play becomes the play to beat; the turn moves on.
    pub fn advance(&mut self, play: Move) {
        if play.is_pass() {
            self.passes += 1;
            if self.passes == 2 {
                self.last = None;
                self.passes = 0;
            }
        } else {
            self.last = Some((self.turn, play));
            self.passes = 0;
        }
        self.turn = self.turn.next();
    }

    /// Where the trick shown to a player starts in `history` (every play of the play phase,
    /// passes included, from the landlord's lead): the plays of the trick in progress, or,
    /// when a trick has just ended (the seat to act leads), the plays of that trick.
    pub fn shown_start(history: &[(Seat, Move)]) -> usize {
        let mut start = 0;
        let mut previous_start = 0;
        let mut trick = Trick::lead(history.first().map_or(Seat::ALL[0], |(s, _)| *s));
        for (i, &(_, m)) in history.iter().enumerate() {
            let before = trick.last;
            trick.advance(m);
            if m.is_pass() && before.is_some() && trick.last.is_none() {
                previous_start = start;
                start = i + 1;
            }
        }
        if start == history.len() {
            previous_start
        } else {
            start
        }
    }
}

/// What [`PlayState::undo`] needs to take a play back; returned by every apply.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PlayUndo {
    seat: Seat,
    play: Move,
    trick: Trick,
    bomb_multiplier: u32,
}

impl PlayUndo {
    /// The seat that made the play.
    pub const fn seat(&self) -> Seat {
        self.seat
    }

    /// The play (or the pass).
    pub const fn play(&self) -> Move {
        self.play
    }
}

/// The play phase: every hand, the trick, and what scoring counts (the bomb multiplier, bombs
/// and rockets played, plays per seat for spring). The landlord is not part of it: scoring
/// takes it as an argument.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PlayState {
    hands: BySeat<Cards>,
    trick: Trick,
    /// The product of the bomb factors of every bomb and rocket played (saturating).
    bomb_multiplier: u32,
    bombs: u32,
    rockets: u32,
    plays_by: BySeat<u32>,
    first_out: Option<Seat>,
}

impl PlayState {
    /// The start of play: `hands` in seat order (the landlord's with the kitty), `leader` (the
    /// landlord) to lead.
    pub fn new(hands: [Cards; 3], leader: Seat) -> PlayState {
        PlayState::with_trick(BySeat(hands), Trick::lead(leader))
    }

    /// A position in the middle of play: `hands` and the trick in progress; nothing played
    /// before it is counted (no bombs, no plays for spring).
    pub fn with_trick(hands: BySeat<Cards>, trick: Trick) -> PlayState {
        PlayState {
            hands,
            trick,
            bomb_multiplier: 1,
            bombs: 0,
            rockets: 0,
            plays_by: BySeat::default(),
            first_out: Seat::ALL.into_iter().find(|&s| hands[s].is_empty()),
        }
    }

    /// Every seat's cards.
    pub const fn hands(&self) -> &BySeat<Cards> {
        &self.hands
    }

    /// A seat's cards.
    pub fn hand(&self, seat: Seat) -> Cards {
        self.hands[seat]
    }

    /// Cards left in each hand.
    pub fn cards_left(&self) -> BySeat<u32> {
        BySeat::from_fn(|s| self.hands[s].len())
    }

    /// The trick in progress.
    pub const fn trick(&self) -> &Trick {
        &self.trick
    }

    /// The seat to act.
    pub const fn turn(&self) -> Seat {
        self.trick.turn
    }

    /// The play to beat and who made it; `None` when the seat to act leads.
    pub const fn last(&self) -> Option<(Seat, Move)> {
        self.trick.last
    }

    /// The seat that emptied its hand, once one has: the game is over.
    pub const fn first_out(&self) -> Option<Seat> {
        self.first_out
    }

    /// True once a hand is empty.
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

    /// What the seat to act's play policy reads ([`TurnView`]), `landlord` being the
    /// landlord: no view is built.
    pub fn turn_view<'a>(&self, rules: &'a Rules, landlord: Seat) -> TurnView<'a> {
        TurnView {
            rules,
            seat: self.turn(),
            hand: self.hands[self.turn()],
            landlord: Some(landlord),
            cards_left: self.cards_left(),
            last: self.trick.last,
        }
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
            return Err(ActionError::WrongPhase {
                phase: crate::Phase::Over,
            });
        }
        if seat != self.turn() {
            return Err(ActionError::NotYourTurn {
                seat,
                turn: self.turn(),
            });
        }
        if !play.is_pass() {
            if !self.hands[seat].contains(play.cards()) {
                return Err(ActionError::NotInHand { play: *play });
            }
            if !ddz_core::is_legal(self.hands[seat], None, play, rules) {
                return Err(ActionError::NotACombination { play: *play });
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
    ) -> Result<PlayUndo, ActionError> {
        self.check(seat, &play, rules)?;
        Ok(self.apply_legal(play, rules))
    }

    /// The fast path: the seat to act makes `play`, which the caller took from that seat's
    /// legal moves ([`PlayState::legal_moves_into`]); nothing is checked. When the play
    /// empties the hand the game is over and the turn stays with that seat.
    pub fn apply_legal(&mut self, play: Move, rules: &Rules) -> PlayUndo {
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
        if self.hands[seat].is_empty() {
            self.first_out = Some(seat);
            self.trick.last = Some((seat, play));
            self.trick.passes = 0;
        } else {
            self.trick.advance(play);
        }
        undo
    }

    /// Takes back the play `undo` was returned for, which must be the last one applied.
    pub fn undo(&mut self, undo: PlayUndo) {
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
    ) -> Option<GameResult> {
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
        stake: &Stake,
        rules: &Rules,
    ) -> Option<GameResult> {
        let first_out = self.first_out?;
        let winner = if first_out == landlord {
            Side::Landlord
        } else {
            Side::Farmers
        };
        let farmers_played = Seat::ALL
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
        stake: &Stake,
        rules: &Rules,
    ) -> GameResult {
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
    pub fn stake_so_far_staked(&self, stake: &Stake, rules: &Rules) -> (u32, u32) {
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

/// How a game ended, for [`PlayState::settle`].
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

/// What a game's stake is made of besides the plays (RULES.md sections 4 and 7): the base,
/// 2 to the robs, the show factor and each seat's doubling factor.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Stake {
    /// The base score (the winning bid under points bidding, else 1).
    pub base: u32,
    /// 2 to the number of robs.
    pub rob_multiplier: u32,
    /// The show factor (1 when nobody showed).
    pub show: u32,
    /// Each seat's doubling factor (1 without doubling).
    pub doubling: BySeat<u32>,
}

impl Stake {
    /// Section 4's stake: a base and the robs, no show, no doubling.
    pub const fn plain(base: u32, rob_multiplier: u32) -> Stake {
        Stake {
            base,
            rob_multiplier,
            show: 1,
            doubling: BySeat([1; 3]),
        }
    }
}

/// Each seat's multiplier at table multiplier `p` (RULES.md section 7): a farmer's is
/// `p × d_L × d_F` capped at `cap` (the cap is per pair), the landlord's the sum of the
/// farmers'. What each seat is shown, and what its score is base × of.
///
/// ```
/// use ddz_game::{BySeat, Seat, pair_multipliers};
/// // P = 24, the landlord (seat 0) doubles, seat 1 super-doubles, seat 2 does not.
/// let m = pair_multipliers(24, Seat::ALL[0], &BySeat([2, 4, 1]), None);
/// assert_eq!(m.0, [240, 192, 48]);
/// assert_eq!(pair_multipliers(24, Seat::ALL[0], &BySeat([2, 4, 1]), Some(64)).0, [112, 64, 48]);
/// ```
pub fn pair_multipliers(
    p: u32,
    landlord: Seat,
    doubling: &BySeat<u32>,
    cap: Option<u32>,
) -> BySeat<u32> {
    let mut m = BySeat::from_fn(|s| {
        if s == landlord {
            return 0;
        }
        let m = p
            .saturating_mul(doubling[landlord])
            .saturating_mul(doubling[s]);
        cap.map_or(m, |c| m.min(c))
    });
    m[landlord] = m[landlord.next()].saturating_add(m[landlord.prev()]);
    m
}

/// Every seat's score when `winner` wins at `base` and each seat's multiplier
/// ([`pair_multipliers`]): each farmer wins or loses base × its own, the landlord the sum.
/// They add up to zero.
pub fn pair_scores(
    landlord: Seat,
    winner: Side,
    base: u32,
    multipliers: &BySeat<u32>,
) -> BySeat<i64> {
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
