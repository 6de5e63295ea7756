//! One game as the environments drive it: the [`Game`] state machine, the trace of plays the
//! encoders read, and the legal moves of the seat to act (with their RLCard ids), kept up to
//! date after every action. Pure Rust, shared by `Env` and `VecEnv`.

use ddz_core::{
    Cards, Move, Profile, Readings, Rules, Wild, legal_moves_into, move_notation, parse_move,
};
use ddz_game::{Action, ActionError, Actions, Deal, Game, Phase, Seat, derive_seed};

use crate::actions::action_space;
use crate::encode::EncoderInput;

/// The id entry of a move that has no RLCard id (never under the rlcard profile).
pub const NO_ID: u16 = u16::MAX;

/// Why an action was refused; the table is unchanged.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Refused {
    /// ddz-game refused the action (the same refusal every surface shows).
    Game(ActionError),
    /// The environment could not resolve a choice to an action: an option index or an RLCard
    /// action id out of range or not legal, or an id asked outside the rlcard profile.
    Choice(String),
}

impl Refused {
    /// The refusal's stable code: the [`ActionError`] code, or `bad_choice`.
    pub fn code(&self) -> &'static str {
        match self {
            Refused::Game(e) => e.code(),
            Refused::Choice(_) => "bad_choice",
        }
    }
}

impl From<ActionError> for Refused {
    fn from(e: ActionError) -> Refused {
        Refused::Game(e)
    }
}

impl core::fmt::Display for Refused {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            Refused::Game(e) => e.fmt(f),
            Refused::Choice(why) => f.write_str(why),
        }
    }
}

/// A game with its trace and the legal moves of the seat to act.
#[derive(Clone, Debug)]
pub struct EnvGame {
    rules: Rules,
    game: Game,
    trace: Vec<(u8, Move)>,
    moves: Vec<Move>,
    ids: Vec<u16>,
    with_ids: bool,
}

impl EnvGame {
    /// A table for `rules` dealt from `seed` (see [`Game::new`]).
    pub fn new(rules: &Rules, seed: u64) -> EnvGame {
        EnvGame::from_game(rules, Game::new(rules, seed))
    }

    /// A table for `rules` with a given deal; `seed` seeds bidding and redeals.
    pub fn with_deal(rules: &Rules, seed: u64, deal: Deal) -> EnvGame {
        EnvGame::from_game(rules, Game::with_deal(rules, seed, deal))
    }

    fn from_game(rules: &Rules, game: Game) -> EnvGame {
        let mut t = EnvGame {
            rules: rules.clone(),
            game,
            trace: Vec::with_capacity(64),
            moves: Vec::with_capacity(64),
            ids: Vec::with_capacity(64),
            with_ids: rules.profile == Profile::Rlcard,
        };
        t.refresh();
        t
    }

    /// Starts a new game of `seed` with the same rules, reusing the buffers.
    pub fn reset(&mut self, seed: u64) {
        self.game = Game::new(&self.rules, seed);
        self.trace.clear();
        self.refresh();
    }

    /// Starts a new game of a given deal with the same rules, reusing the buffers.
    pub fn reset_deal(&mut self, seed: u64, deal: Deal) {
        self.game = Game::with_deal(&self.rules, seed, deal);
        self.trace.clear();
        self.refresh();
    }

    /// Recomputes the legal moves (and ids) of the seat to act.
    fn refresh(&mut self) {
        self.moves.clear();
        self.ids.clear();
        if self.game.phase() != Phase::Playing {
            return;
        }
        let rules = self.game.rules();
        let last = self.game.last().map(|(_, m)| m);
        legal_moves_into(
            self.game.hand(self.game.turn()),
            last.as_ref(),
            &rules,
            &mut self.moves,
        );
        if self.with_ids {
            let space = action_space();
            // Every rlcard-profile move has an id (checked by the action-space tests); a move
            // without one would get NO_ID, which nothing reads as an action.
            self.ids
                .extend(self.moves.iter().map(|m| space.id(m).unwrap_or(NO_ID)));
        }
    }

    /// The rules the table was made with (wild ranks as given, not as revealed).
    pub fn base_rules(&self) -> &Rules {
        &self.rules
    }

    /// The game.
    pub fn game(&self) -> &Game {
        &self.game
    }

    /// Every play so far, `(seat, move)`.
    pub fn trace(&self) -> &[(u8, Move)] {
        &self.trace
    }

    /// The legal moves of the seat to act (empty unless playing), in ddz's generation order.
    pub fn moves(&self) -> &[Move] {
        &self.moves
    }

    /// RLCard ids of [`EnvGame::moves`], in the same order (rlcard profile only, else empty);
    /// [`NO_ID`] would stand for a move RLCard lacks (none under the rlcard profile).
    pub fn ids(&self) -> &[u16] {
        &self.ids
    }

    /// True if RLCard ids are available (the rlcard profile).
    pub fn has_ids(&self) -> bool {
        self.with_ids
    }

    /// The seat to act, while the game is not over.
    pub fn turn(&self) -> Option<usize> {
        (self.game.phase() != Phase::Over).then(|| self.game.turn().index())
    }

    /// The position for the encoders, once the landlord is known.
    pub fn position(&self) -> Option<EncoderInput<'_>> {
        let landlord = self.game.landlord()?;
        Some(EncoderInput {
            hands: Seat::ALL.map(|s| self.game.hand(s)),
            landlord: landlord.index(),
            trace: &self.trace,
        })
    }

    /// The seat to play, or ddz-game's refusal of a play in this phase.
    fn require_playing(&self) -> Result<Seat, Refused> {
        match self.game.phase() {
            Phase::Playing => Ok(self.game.turn()),
            phase => Err(ActionError::in_phase(phase).into()),
        }
    }

    /// Plays the legal move at `index` of [`EnvGame::moves`].
    pub fn play_index(&mut self, index: usize) -> Result<Move, Refused> {
        let seat = self.require_playing()?;
        let m = *self.moves.get(index).ok_or_else(|| {
            Refused::Choice(format!(
                "move index {index} is out of range: there are {} legal moves",
                self.moves.len()
            ))
        })?;
        self.apply(seat, m)?;
        Ok(m)
    }

    /// Plays the move with RLCard id `id` (rlcard profile).
    pub fn play_id(&mut self, id: i64) -> Result<Move, Refused> {
        let seat = self.require_playing()?;
        if !self.with_ids {
            return Err(Refused::Choice(format!(
                "RLCard action ids exist under the rlcard profile only (these rules are {}); \
                 play a move string or a legal move index",
                self.rules.profile
            )));
        }
        let index = u16::try_from(id)
            .ok()
            .filter(|&id| id != NO_ID)
            .and_then(|id| self.ids.iter().position(|&x| x == id));
        let Some(index) = index else {
            let what = usize::try_from(id)
                .ok()
                .and_then(|i| action_space().word(i))
                .map_or_else(
                    || "no RLCard action (ids are 0 to 27471)".to_string(),
                    |w| format!("\"{w}\""),
                );
            return Err(Refused::Choice(format!(
                "action id {id} ({what}) is not legal for seat {seat}: {} legal actions",
                self.ids.len()
            )));
        };
        let m = self.moves[index];
        self.apply(seat, m)?;
        Ok(m)
    }

    /// Plays a move written in move notation (plain cards take their default reading among
    /// those that beat the table).
    pub fn play_text(&mut self, text: &str) -> Result<Move, Refused> {
        let seat = self.require_playing()?;
        let rules = self.game.rules();
        let last = self.game.last().map(|(_, m)| m);
        let m = parse_move(text, &rules, last.as_ref()).map_err(|e| ActionError::Notation {
            text: text.to_string(),
            error: e.to_string(),
        })?;
        self.apply(seat, m)?;
        Ok(m)
    }

    /// Plays `m` for the seat to act (it must be legal).
    pub fn play_move(&mut self, m: Move) -> Result<(), Refused> {
        let seat = self.require_playing()?;
        self.apply(seat, m)
    }

    fn apply(&mut self, seat: Seat, m: Move) -> Result<(), Refused> {
        self.game.play(seat, m)?;
        self.trace.push((seat.index() as u8, m));
        self.refresh();
        Ok(())
    }

    /// A bid by the seat to act.
    pub fn bid(&mut self, bid: u8) -> Result<(), Refused> {
        let seat = self.game.turn();
        self.game.bid(seat, bid)?;
        self.refresh();
        Ok(())
    }

    /// The factor a show would give the seat to act now (明牌), when it is asked one.
    pub fn show_factor(&self) -> Option<u32> {
        match self.game.legal_actions() {
            Actions::Show { factor } => Some(factor),
            _ => None,
        }
    }

    /// The doubling factors the seat to act may choose now (加倍; empty when not doubling).
    pub fn doubling_choices(&self) -> Vec<u32> {
        match self.game.legal_actions() {
            Actions::Double(factors) => factors,
            _ => Vec::new(),
        }
    }

    /// The show decision of the seat to act: `show` shows its hand.
    pub fn show(&mut self, show: bool) -> Result<(), Refused> {
        let seat = self.game.turn();
        self.game.act(seat, Action::Show(show))?;
        self.refresh();
        Ok(())
    }

    /// The doubling factor of the seat to act.
    pub fn double(&mut self, factor: u32) -> Result<(), Refused> {
        let seat = self.game.turn();
        self.game.act(seat, Action::Double(factor))?;
        self.refresh();
        Ok(())
    }

    /// The number of options of the seat to act (what a `VecEnv` index chooses among): the
    /// legal moves while playing, 2 in a show window (0 keeps the hand hidden, 1 shows it), the
    /// legal bids while bidding, the doubling factors while doubling; 0 once over.
    pub fn option_count(&self) -> usize {
        match self.game.phase() {
            Phase::Playing => self.moves.len(),
            Phase::Dealing | Phase::LandlordShow => 2,
            Phase::Bidding => self.game.legal_bids().len(),
            Phase::Doubling => self.doubling_choices().len(),
            Phase::Over => 0,
        }
    }

    /// The options of the seat to act in index order, as text: moves in notation, `hide` and
    /// `show` in a show window, `bid N` while bidding, `xN` (the factor) while doubling.
    pub fn option_names(&self) -> Vec<String> {
        match self.game.phase() {
            Phase::Playing => self.moves.iter().map(|m| self.notation(m)).collect(),
            Phase::Dealing | Phase::LandlordShow => vec!["hide".into(), "show".into()],
            Phase::Bidding => self
                .game
                .legal_bids()
                .iter()
                .map(|b| format!("bid {b}"))
                .collect(),
            Phase::Doubling => self
                .doubling_choices()
                .iter()
                .map(|f| format!("x{f}"))
                .collect(),
            Phase::Over => Vec::new(),
        }
    }

    /// Takes option `index` of [`EnvGame::option_names`] for the seat to act.
    pub fn choose(&mut self, index: usize) -> Result<(), Refused> {
        let count = self.option_count();
        if index >= count {
            return Err(Refused::Choice(format!(
                "option {index} is out of range: the seat to act has {count} options while {}",
                phase_name(self.game.phase())
            )));
        }
        match self.game.phase() {
            Phase::Playing => self.play_index(index).map(|_| ()),
            Phase::Dealing | Phase::LandlordShow => self.show(index == 1),
            Phase::Bidding => {
                let bid = self.game.legal_bids()[index];
                self.bid(bid)
            }
            Phase::Doubling => {
                let factor = self.doubling_choices()[index];
                self.double(factor)
            }
            Phase::Over => Err(ActionError::GameOver.into()),
        }
    }

    /// An action of the seat to act (a robot's choice, [`ddz_bots::decide`]): a play goes
    /// into the trace as [`EnvGame::play_move`] puts it.
    pub fn act(&mut self, action: Action) -> Result<(), Refused> {
        match action {
            Action::Play(m) => self.play_move(m),
            Action::Bid(b) => self.bid(b),
            Action::Show(show) => self.show(show),
            Action::Double(factor) => self.double(factor),
        }
    }

    /// Writes the bidding observation of `seat` ([`crate::encode::bidding_obs`]) while the
    /// game is bidding; returns its length, or None in any other phase.
    pub fn bidding_obs(&self, seat: usize, out: &mut [i8]) -> Option<usize> {
        if self.game.phase() != Phase::Bidding {
            return None;
        }
        let bids: Vec<(usize, u8)> = self
            .game
            .bids()
            .iter()
            .map(|&(s, b)| (s.index(), b))
            .collect();
        Some(crate::encode::bidding_obs(
            self.hand(seat),
            seat,
            &bids,
            out,
        ))
    }

    /// Takes back the last play.
    pub fn undo(&mut self) -> Result<(), Refused> {
        self.game.undo()?;
        self.trace.pop();
        self.refresh();
        Ok(())
    }

    /// Each seat's points once the game is over (zero-sum; DouZero's ADP under the rlcard and
    /// douzero profiles).
    pub fn scores(&self) -> Option<[i64; 3]> {
        self.game.result().map(|r| r.scores.0)
    }

    /// RLCard's payoffs once over: 1 for each seat of the winning side, 0 for the others.
    pub fn wins(&self) -> Option<[u8; 3]> {
        self.game.win_payoffs().map(|p| p.0)
    }

    /// The shortest notation of `m` under the rules in force. Under the one-reading profiles
    /// without wildcards (rlcard, douzero) that is the cards alone, written without classifying.
    pub fn notation(&self, m: &Move) -> String {
        if m.is_pass() {
            "pass".to_string()
        } else if self.rules.readings != Readings::All && self.rules.wild == Wild::None {
            m.cards().to_string()
        } else {
            move_notation(m, &self.game.rules())
        }
    }

    /// The wild ranks in force as a mask over 3..2, when the rules have wildcards.
    pub fn wild_mask(&self) -> Option<u16> {
        (self.rules.wild != Wild::None).then(|| self.game.laizi().bits() & 0x1FFF)
    }

    /// A seat's cards.
    pub fn hand(&self, seat: usize) -> Cards {
        self.game.hand(Seat::ALL[seat])
    }
}

/// A phase as the environments name it.
pub fn phase_name(phase: Phase) -> &'static str {
    match phase {
        Phase::Dealing => "dealing",
        Phase::Bidding => "bidding",
        Phase::Doubling => "doubling",
        Phase::LandlordShow => "landlord_show",
        Phase::Playing => "playing",
        Phase::Over => "over",
    }
}

/// The seed of the `index`-th game of a master seed: the game seeds of an environment.
pub fn game_seed(master: u64, index: u64) -> u64 {
    derive_seed(master, index)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn random_games_keep_ids_and_moves_in_step() {
        let rules = Rules::rlcard();
        let mut t = EnvGame::new(&rules, 1);
        for g in 0..20u64 {
            t.reset(game_seed(1, g));
            let mut i = g as usize;
            while t.turn().is_some() {
                assert_eq!(t.moves().len(), t.ids().len());
                i = (i * 31 + 7) % t.moves().len();
                let id = t.ids()[i];
                let m = t.play_id(i64::from(id)).unwrap();
                assert_eq!(action_space().id(&m), Some(id));
            }
            let scores = t.scores().unwrap();
            assert_eq!(scores.iter().sum::<i64>(), 0);
        }
    }

    #[test]
    fn refusals_say_why() {
        let mut t = EnvGame::new(&Rules::rlcard(), 3);
        let e = t.play_id(27_471).unwrap_err().to_string();
        assert!(e.contains("\"pass\"") && e.contains("not legal"), "{e}");
        let e = t.play_id(99_999).unwrap_err().to_string();
        assert!(e.contains("ids are 0 to 27471"), "{e}");
        let e = t.play_text("pass").unwrap_err();
        assert_eq!(e.code(), "pass_when_leading", "{e}");
        assert!(e.to_string().contains("you cannot pass"), "{e}");
        let e = t.play_text("3Z").unwrap_err().to_string();
        assert!(e.contains("not a rank"), "{e}");
        let e = t.play_index(10_000).unwrap_err().to_string();
        assert!(e.contains("out of range"), "{e}");
        let mut c = EnvGame::new(&Rules::classic(), 3);
        assert!(c.play_index(0).unwrap_err().to_string().contains("bidding"));
        assert!(c.play_id(0).is_err());
    }
}
