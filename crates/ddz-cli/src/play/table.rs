//! The game table behind `ddz play`, shared by the terminal screen and the line mode: one
//! person and two robots, game after game, on a [`Sitting`] (numbering, physical cards,
//! running totals, events), with the hints and a record of every finished game.
//!
//! The table knows nothing of keys or screens. Each action returns the [`Event`]s it caused
//! (a bid, a play, the landlord decided, a wild rank revealed, a redeal, the game over), which
//! the line mode narrates and the screen shows in its status line.

use std::path::{Path, PathBuf};

use ddz_bots::hint::{hints, hints_by};
use ddz_bots::{Bot, BotSpec, TurnError, bot_seed, decide};
use ddz_core::{Bidding, CardSet, Cards, Move, Rules};
use ddz_game::{
    Action, ActionError, Actions, Bid, BySeat, Game, GameRecord, GameResult, Phase, Role, Seat,
    Side, Sitting,
};

/// What happened at the table: the sitting's events.
pub use ddz_game::SittingEvent as Event;

/// What a sitting is played with.
#[derive(Clone, Debug)]
pub struct Options {
    /// The rules.
    pub rules: Rules,
    /// The robots of the two other seats, the seat after yours first.
    pub bots: [BotSpec; 2],
    /// The robot that gives hints and plays for you on `auto`.
    pub hint_bot: BotSpec,
    /// Your seat.
    pub seat: Seat,
    /// The first game's seed; game `n` (1-based) is dealt from `seed + n - 1`.
    pub seed: u64,
    /// Where finished games are saved, if anywhere.
    pub records: Option<PathBuf>,
}

/// How a game ended, as the table shows it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Outcome {
    /// The game's full result, when it was played out (not after a forfeit).
    pub result: Option<GameResult>,
    /// The winning side.
    pub winner: Side,
    /// Points per seat.
    pub scores: BySeat<i64>,
    /// The saved record, if any.
    pub record: Option<PathBuf>,
    /// Why the record could not be saved, if it could not.
    pub record_error: Option<String>,
}

/// Why the table refused what you asked: the game's own refusal ([`ActionError`], the same
/// one every surface shows), or a robot of the table that failed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Refusal {
    /// ddz-game refused the action.
    Game(ActionError),
    /// The hint robot failed to build or to decide.
    Robot(String),
}

impl std::fmt::Display for Refusal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Refusal::Game(e) => e.fmt(f),
            Refusal::Robot(why) => write!(f, "hint robot: {why}"),
        }
    }
}

/// One sitting: games against two robots with running totals.
pub struct Table {
    options: Options,
    sitting: Sitting,
    robots: BySeat<Option<Box<dyn Bot>>>,
    /// The hints for the current turn and the index of the next one to show.
    hints: Option<(Vec<Move>, usize)>,
    outcome: Option<Outcome>,
}

impl Table {
    /// Sits down for the first game. Fails when an external robot does not start.
    pub fn new(options: Options) -> Result<Table, String> {
        let mut table = Table {
            sitting: Sitting::new(&options.rules, options.seed),
            robots: BySeat([None, None, None]),
            hints: None,
            outcome: None,
            options,
        };
        table.seat_robots()?;
        Ok(table)
    }

    /// Deals the next game (seed + 1).
    pub fn next_game(&mut self) -> Result<(), String> {
        self.sitting.next_game();
        self.hints = None;
        self.outcome = None;
        self.seat_robots()
    }

    /// Fresh robots for the current game, seeded from its seed.
    fn seat_robots(&mut self) -> Result<(), String> {
        let seed = self.seed();
        let me = self.options.seat;
        for (i, seat) in [me.next(), me.prev()].into_iter().enumerate() {
            let spec = &self.options.bots[i];
            let bot = spec
                .build(bot_seed(seed, seat))
                .map_err(|e| format!("robot \"{spec}\": {e}"))?;
            self.robots[seat] = Some(bot);
        }
        self.robots[me] = None;
        Ok(())
    }

    /// The options of the sitting.
    pub fn options(&self) -> &Options {
        &self.options
    }

    /// The game in progress (or just finished).
    pub fn game(&self) -> &Game {
        self.sitting.game()
    }

    /// Your seat.
    pub fn me(&self) -> Seat {
        self.options.seat
    }

    /// The rules in force now (wild ranks revealed so far included).
    pub fn rules(&self) -> Rules {
        self.game().rules()
    }

    /// The current game's seed.
    pub fn seed(&self) -> u64 {
        self.sitting.seed()
    }

    /// The current game's number in the sitting (1-based).
    pub fn number(&self) -> u32 {
        self.sitting.number()
    }

    /// Points per seat over the finished games.
    pub fn totals(&self) -> BySeat<i64> {
        self.sitting.totals()
    }

    /// Games finished in this sitting.
    pub fn finished(&self) -> u32 {
        self.sitting.finished()
    }

    /// How the current game ended, once it has.
    pub fn outcome(&self) -> Option<&Outcome> {
        self.outcome.as_ref()
    }

    /// Whether the current game is over (played out or forfeited).
    pub fn is_over(&self) -> bool {
        self.sitting.is_over()
    }

    /// The name shown for a seat: "you", the level (`level:3`), or the robot's name.
    pub fn seat_name(&self, seat: Seat) -> String {
        let me = self.options.seat;
        let spec = if seat == me.next() {
            &self.options.bots[0]
        } else {
            &self.options.bots[1]
        };
        match &self.robots[seat] {
            None => "you".to_string(),
            // A level is named as a level (level 7 plays as `net`, level 8 as `search`).
            Some(_) if spec.name() == "level" => spec.to_string(),
            Some(bot) => bot.name().to_string(),
        }
    }

    /// A seat's role, once the landlord is decided.
    pub fn role(&self, seat: Seat) -> Option<Role> {
        self.game().role(seat)
    }

    /// A seat's physical cards.
    pub fn physical(&self, seat: Seat) -> CardSet {
        self.sitting.physical(seat)
    }

    /// The physical cards of the `index`-th play of the history (empty for a pass).
    pub fn played_physical(&self, index: usize) -> CardSet {
        self.sitting.played_physical(index)
    }

    /// Whether it is your turn to act in a game still going.
    pub fn my_turn(&self) -> bool {
        !self.is_over() && self.game().turn() == self.me()
    }

    /// The bids you may make now (empty outside your bidding turn).
    pub fn my_bids(&self) -> Vec<Bid> {
        if !self.my_turn() || self.game().phase() != Phase::Bidding {
            return Vec::new();
        }
        self.game().legal_bids()
    }

    /// How a bid is said under these rules, given the bids before it.
    pub fn bid_word(&self, bid: Bid, earlier: &[(Seat, Bid)]) -> String {
        bid_word(self.options.rules.bidding, bid, earlier)
    }

    /// Applies an action of `seat` to the sitting, then keeps the outcome (and saves the
    /// record) when the game ended.
    fn apply(
        &mut self,
        seat: Seat,
        action: Action,
        chosen: Option<CardSet>,
    ) -> Result<Vec<Event>, Refusal> {
        let events = self
            .sitting
            .act(seat, action, chosen)
            .map_err(Refusal::Game)?;
        self.after(&events);
        Ok(events)
    }

    /// The analysis of the game just played, your plays rated at the default budget (`ddz
    /// analyse --seat N`), as lines of text; refused while the game is not over.
    pub fn analysis_lines(&self) -> Result<Vec<String>, String> {
        if !self.is_over() {
            return Err("the game is not over yet".into());
        }
        let record = ddz_game::GameRecord::from_game(self.sitting.game());
        let options = ddz_bots::review::AnalysisOptions {
            seats: vec![self.me()],
            ..ddz_bots::review::AnalysisOptions::default()
        };
        let analysis = ddz_bots::review::analyse(&record, &options, &mut |_, _| {})
            .map_err(|e| format!("the analysis failed: {e}"))?;
        let mut text = Vec::new();
        crate::cmd::analyse::write_text(&mut text, &analysis).map_err(|e| e.to_string())?;
        Ok(String::from_utf8_lossy(&text)
            .lines()
            .map(str::to_string)
            .collect())
    }

    /// After events: hints are stale; a game over keeps its outcome and saves its record.
    fn after(&mut self, events: &[Event]) {
        self.hints = None;
        if !events.iter().any(|e| matches!(e, Event::Over(_))) {
            return;
        }
        let Some(ending) = self.sitting.ending() else {
            return;
        };
        let played_out = ending.forfeit.is_none();
        let result = ending.result.clone();
        let (record, record_error) = match &self.options.records {
            None => (None, None),
            Some(dir) => match save_record(dir, self.sitting.game(), self.number()) {
                Ok(path) => (Some(path), None),
                Err(e) => (None, Some(e)),
            },
        };
        self.outcome = Some(Outcome {
            winner: result.winner,
            scores: result.scores,
            result: played_out.then_some(result),
            record,
            record_error,
        });
    }

    /// Your bid, refused with ddz-game's reason when it is not your turn or not allowed.
    pub fn bid(&mut self, bid: Bid) -> Result<Vec<Event>, Refusal> {
        self.apply(self.me(), Action::Bid(bid), None)
    }

    /// Your play, with the physical cards you picked (if you picked them), refused with
    /// ddz-game's reason when it is not your turn or not legal.
    pub fn play(&mut self, play: Move, chosen: Option<CardSet>) -> Result<Vec<Event>, Refusal> {
        self.apply(self.me(), Action::Play(play), chosen)
    }

    /// The factor a show of your hand would give now (明牌), when you may show.
    pub fn my_show_factor(&self) -> Option<u32> {
        match self.game().legal_actions() {
            Actions::Show { factor } if self.my_turn() => Some(factor),
            _ => None,
        }
    }

    /// The doubling factors you may choose now (加倍; empty when it is not your decision).
    pub fn my_doublings(&self) -> Vec<u32> {
        match self.game().legal_actions() {
            Actions::Double(factors) if self.my_turn() => factors,
            _ => Vec::new(),
        }
    }

    /// Shows your hand (`show`) or keeps it hidden, in a show window.
    pub fn show(&mut self, show: bool) -> Result<Vec<Event>, Refusal> {
        self.apply(self.me(), Action::Show(show), None)
    }

    /// Chooses your doubling factor (1, 2 加倍, 4 超级加倍).
    pub fn double(&mut self, factor: u32) -> Result<Vec<Event>, Refusal> {
        self.apply(self.me(), Action::Double(factor), None)
    }

    /// A pass.
    pub fn pass(&mut self) -> Result<Vec<Event>, Refusal> {
        self.play(Move::PASS, None)
    }

    /// Every legal reading of exactly these cards (several under wildcards or for cards such
    /// as 333444555666), or ddz-game's reason why there is none.
    pub fn readings(&self, cards: Cards) -> Result<Vec<Move>, Refusal> {
        self.game()
            .readings(self.me(), cards)
            .map_err(Refusal::Game)
    }

    /// The hints for your turn: the hint robot's choice first, then every other legal play by
    /// the blog's score of what it leaves (a pass only when the robot chose it).
    pub fn hints(&mut self) -> &[Move] {
        if self.hints.is_none() {
            let list = self.compute_hints();
            self.hints = Some((list, 0));
        }
        self.hints.as_ref().map_or(&[], |(list, _)| list.as_slice())
    }

    /// The next hint in the cycle (the first after the last), or `None` off your playing turn.
    pub fn next_hint(&mut self) -> Option<(Move, usize, usize)> {
        if !self.my_turn() || self.game().phase() != Phase::Playing {
            return None;
        }
        self.hints();
        let (list, next) = self.hints.as_mut()?;
        if list.is_empty() {
            return None;
        }
        let i = *next % list.len();
        *next = i + 1;
        Some((list[i], i + 1, list.len()))
    }

    fn compute_hints(&self) -> Vec<Move> {
        if !self.my_turn() || self.game().phase() != Phase::Playing {
            return Vec::new();
        }
        let allowed = self.game().legal_moves();
        let view = self.game().view(self.me());
        match self.helper() {
            Ok(mut bot) => hints_by(bot.as_mut(), &view, &allowed),
            Err(_) => hints(allowed[0], view.hand(), &allowed, view.rules()),
        }
    }

    /// The hint robot for your seat (a fresh robot, seeded from the game).
    fn helper(&self) -> Result<Box<dyn Bot>, Refusal> {
        self.options
            .hint_bot
            .build(bot_seed(self.seed(), self.me()))
            .map_err(|e| Refusal::Robot(e.to_string()))
    }

    /// Lets the hint robot take your turn (bid or play), for `auto`.
    pub fn auto_step(&mut self) -> Result<Vec<Event>, Refusal> {
        let mut bot = self.helper()?;
        // The one decision loop; ddz-game refuses the action when the turn is not yours.
        let (_, action) = decide(self.game(), bot.as_mut()).map_err(|e| match e {
            TurnError::Over => Refusal::Game(ActionError::GameOver),
            other => Refusal::Robot(other.to_string()),
        })?;
        self.apply(self.me(), action, None)
    }

    /// Whether a robot is to act now.
    pub fn robot_to_act(&self) -> bool {
        !self.is_over() && self.robots[self.game().turn()].is_some()
    }

    /// Lets the robot whose turn it is act once ([`decide`]); a robot that fails (an external
    /// program) forfeits the game. `None` when it is not a robot's turn.
    pub fn robot_step(&mut self) -> Option<Vec<Event>> {
        if !self.robot_to_act() {
            return None;
        }
        let seat = self.game().turn();
        let bot = self.robots[seat].as_mut()?;
        let decided = decide(self.sitting.game(), bot.as_mut());
        let events = match decided {
            Ok((seat, action)) => match self.sitting.act(seat, action, None) {
                Ok(events) => events,
                Err(e) => self.sitting.forfeit(seat, &e.to_string()),
            },
            Err(TurnError::Failed { seat, why }) => self.sitting.forfeit(seat, &why),
            Err(e) => self.sitting.forfeit(seat, &e.to_string()),
        };
        self.after(&events);
        Some(events)
    }

    /// The plays of the trick in progress, oldest first; when a trick has just ended (you
    /// lead), the trick before.
    pub fn trick(&self) -> Vec<(usize, Seat, Move)> {
        let from = self.sitting.trick_start();
        self.game()
            .history()
            .enumerate()
            .skip(from)
            .map(|(i, (s, m))| (i, s, m))
            .collect()
    }
}

/// Saves a finished game's record (ddz-record/1) in `dir` ([`super::records::save_record_text`]).
fn save_record(dir: &Path, game: &Game, number: u32) -> Result<PathBuf, String> {
    let text = GameRecord::from_game(game).to_json() + "\n";
    super::records::save_record_text(dir, game.seed(), number, &text)
}

/// How a bid is said under the bidding form `bidding`, given the bids before it: `call`,
/// `rob`, `decline`, `no rob` under call-and-rob, `pass` or the points under points.
pub fn bid_word(bidding: Bidding, bid: Bid, earlier: &[(Seat, Bid)]) -> String {
    match bidding {
        Bidding::CallRob => {
            let called = earlier.iter().any(|&(_, b)| b > 0);
            match (bid, called) {
                (0, false) => "decline".into(),
                (0, true) => "no rob".into(),
                (_, false) => "call".into(),
                (_, true) => "rob".into(),
            }
        }
        _ if bid == 0 => "pass".into(),
        _ => bid.to_string(),
    }
}
