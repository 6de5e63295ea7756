//! The game table behind `ddz play`, shared by the terminal screen and the line mode: one
//! person and two robots, game after game, with the running totals, the hints, the physical
//! cards (suits) and a record of every finished game.
//!
//! The table knows nothing of keys or screens. Each action returns the [`Event`]s it caused
//! (a bid, a play, the landlord decided, a wild rank revealed, a redeal, the game over), which
//! the line mode narrates and the screen shows in its status line.

use std::path::{Path, PathBuf};

use ddz_arena::forfeit;
use ddz_bots::blog::Valuer;
use ddz_bots::external::Externals;
use ddz_bots::{Bot, bot_seed, legal_bids, make_bot_with};
use ddz_core::{Bidding, CardSet, Cards, Move, RankSet, Rules, classify, move_notation};
use ddz_game::{Bid, BySeat, Game, GameRecord, GameResult, Phase, Role, Seat, Side};

/// What a sitting is played with.
#[derive(Clone, Debug)]
pub struct Options {
    /// The rules.
    pub rules: Rules,
    /// The robot specs of the two other seats, the seat after yours first.
    pub bots: [String; 2],
    /// The robot that gives hints and plays for you on `auto`.
    pub hint_bot: String,
    /// Your seat.
    pub seat: Seat,
    /// The first game's seed; game `n` (1-based) is dealt from `seed + n - 1`.
    pub seed: u64,
    /// Where finished games are saved, if anywhere.
    pub records: Option<PathBuf>,
    /// The external robots (`--exec`).
    pub externals: Externals,
}

/// Something that happened at the table.
#[derive(Clone, Debug, PartialEq)]
pub enum Event {
    /// A seat bid (0 is a pass or a decline).
    Bid(Seat, Bid),
    /// Everyone passed: the cards were dealt again.
    Redeal,
    /// The landlord is decided and takes the kitty.
    Landlord(Seat, Cards),
    /// A wild rank was revealed.
    Wild(RankSet),
    /// A seat played (or passed).
    Play(Seat, Move),
    /// A robot failed (an external program) and forfeited the game.
    Forfeit(Seat, String),
    /// The game is over.
    Over,
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

/// A selection that cannot be played, and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Refusal(pub String);

/// One sitting: games against two robots with running totals.
pub struct Table {
    options: Options,
    game: Game,
    /// 1-based number of the game in the sitting.
    number: u32,
    robots: BySeat<Option<Box<dyn Bot>>>,
    /// Each seat's physical cards (suits), kept in step with the game.
    physical: BySeat<CardSet>,
    /// The physical cards each play took, in history order.
    played_physical: Vec<CardSet>,
    /// Redeals and landlord when `physical` was last dealt.
    dealt_for: (u32, Option<Seat>),
    /// The hints for the current turn and the index of the next one to show.
    hints: Option<(Vec<Move>, usize)>,
    /// Points per seat over the finished games.
    totals: BySeat<i64>,
    /// Games finished in this sitting.
    finished: u32,
    outcome: Option<Outcome>,
}

impl Table {
    /// Sits down for the first game. Fails when a robot spec is unknown or an external robot
    /// does not start.
    pub fn new(options: Options) -> Result<Table, String> {
        let game = Game::new(&options.rules, options.seed);
        let mut table = Table {
            robots: BySeat([None, None, None]),
            physical: BySeat([CardSet::EMPTY; 3]),
            played_physical: Vec::new(),
            dealt_for: (u32::MAX, None),
            hints: None,
            totals: BySeat([0; 3]),
            finished: 0,
            outcome: None,
            number: 1,
            game,
            options,
        };
        table.seat_robots()?;
        table.sync_physical();
        Ok(table)
    }

    /// Deals the next game (seed + 1).
    pub fn next_game(&mut self) -> Result<(), String> {
        self.number += 1;
        let seed = self.seed();
        self.game = Game::new(&self.options.rules, seed);
        self.played_physical.clear();
        self.dealt_for = (u32::MAX, None);
        self.hints = None;
        self.outcome = None;
        self.seat_robots()?;
        self.sync_physical();
        Ok(())
    }

    /// Fresh robots for the current game, seeded from its seed.
    fn seat_robots(&mut self) -> Result<(), String> {
        let seed = self.seed();
        let me = self.options.seat;
        for (i, seat) in [me.next(), me.prev()].into_iter().enumerate() {
            let spec = &self.options.bots[i];
            let bot = make_bot_with(spec, bot_seed(seed, seat), &self.options.externals)
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
        &self.game
    }

    /// Your seat.
    pub fn me(&self) -> Seat {
        self.options.seat
    }

    /// The rules in force now (wild ranks revealed so far included).
    pub fn rules(&self) -> Rules {
        self.game.rules()
    }

    /// The current game's seed.
    pub fn seed(&self) -> u64 {
        self.options
            .seed
            .wrapping_add(u64::from(self.number).wrapping_sub(1))
    }

    /// The current game's number in the sitting (1-based).
    pub fn number(&self) -> u32 {
        self.number
    }

    /// Points per seat over the finished games.
    pub fn totals(&self) -> BySeat<i64> {
        self.totals
    }

    /// Games finished in this sitting.
    pub fn finished(&self) -> u32 {
        self.finished
    }

    /// How the current game ended, once it has.
    pub fn outcome(&self) -> Option<&Outcome> {
        self.outcome.as_ref()
    }

    /// Whether the current game is over (played out or forfeited).
    pub fn is_over(&self) -> bool {
        self.outcome.is_some()
    }

    /// The name shown for a seat: "you" or the robot's name.
    pub fn seat_name(&self, seat: Seat) -> String {
        match &self.robots[seat] {
            None => "you".to_string(),
            Some(bot) => bot.name().to_string(),
        }
    }

    /// A seat's role, once the landlord is decided.
    pub fn role(&self, seat: Seat) -> Option<Role> {
        self.game.role(seat)
    }

    /// A seat's physical cards.
    pub fn physical(&self, seat: Seat) -> CardSet {
        self.physical[seat]
    }

    /// The physical cards of the `index`-th play of the history (empty for a pass).
    pub fn played_physical(&self, index: usize) -> CardSet {
        self.played_physical
            .get(index)
            .copied()
            .unwrap_or(CardSet::EMPTY)
    }

    /// Whether it is your turn to act in a game still going.
    pub fn my_turn(&self) -> bool {
        !self.is_over() && self.game.turn() == self.me()
    }

    /// The bids you may make now (empty outside your bidding turn).
    pub fn my_bids(&self) -> Vec<Bid> {
        if !self.my_turn() || self.game.phase() != Phase::Bidding {
            return Vec::new();
        }
        legal_bids(&self.game.view(self.me()))
    }

    /// How a bid is said under these rules, given the bids before it.
    pub fn bid_word(&self, bid: Bid, earlier: &[(Seat, Bid)]) -> String {
        match self.options.rules.bidding {
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

    /// Deals the physical cards afresh when the deal or the landlord changed, then applies
    /// the plays made since.
    fn sync_physical(&mut self) {
        let key = (self.game.redeals(), self.game.landlord());
        if key != self.dealt_for {
            self.physical = self.game.deal().hands_with_kitty(self.game.landlord());
            self.dealt_for = key;
            self.played_physical.clear();
        }
    }

    /// Takes a play's physical cards out of the seat's hand: `chosen` when the player picked
    /// them, else the lowest ids of each rank.
    fn take_physical(&mut self, seat: Seat, play: &Move, chosen: Option<CardSet>) {
        let hand = self.physical[seat];
        let taken = chosen
            .filter(|c| c.to_cards() == play.cards() && c.bits() & !hand.bits() == 0)
            .or_else(|| hand.take(play.cards()))
            .unwrap_or(CardSet::EMPTY);
        self.physical[seat] = CardSet::from_bits(hand.bits() & !taken.bits()).unwrap_or(hand);
        self.played_physical.push(taken);
    }

    /// The events that follow an action: the landlord decided, wild ranks, redeal, game over.
    fn after_action(&mut self, before: (u32, Option<Seat>, RankSet), events: &mut Vec<Event>) {
        let (redeals, landlord, laizi) = before;
        if self.game.redeals() != redeals {
            events.push(Event::Redeal);
        }
        if landlord.is_none()
            && let Some(l) = self.game.landlord()
        {
            events.push(Event::Landlord(l, self.game.deal().kitty.to_cards()));
        }
        if self.game.laizi() != laizi {
            events.push(Event::Wild(self.game.laizi()));
        }
        self.sync_physical();
        self.hints = None;
        if self.game.phase() == Phase::Over && self.outcome.is_none() {
            let result = self.game.result().cloned();
            if let Some(result) = result {
                self.finish(Some(result.clone()), result.winner, result.scores);
                events.push(Event::Over);
            }
        }
    }

    fn snapshot(&self) -> (u32, Option<Seat>, RankSet) {
        (self.game.redeals(), self.game.landlord(), self.game.laizi())
    }

    /// Ends the game: totals, then the record.
    fn finish(&mut self, result: Option<GameResult>, winner: Side, scores: BySeat<i64>) {
        for seat in Seat::ALL {
            self.totals[seat] += scores[seat];
        }
        self.finished += 1;
        let (record, record_error) = match &self.options.records {
            None => (None, None),
            Some(dir) => match save_record(dir, &self.game, self.number) {
                Ok(path) => (Some(path), None),
                Err(e) => (None, Some(e)),
            },
        };
        self.outcome = Some(Outcome {
            result,
            winner,
            scores,
            record,
            record_error,
        });
    }

    /// Your bid. Refused (with the reason) when it is not your turn or not an allowed bid.
    pub fn bid(&mut self, bid: Bid) -> Result<Vec<Event>, Refusal> {
        if !self.my_turn() {
            return Err(self.not_your_turn());
        }
        if self.game.phase() != Phase::Bidding {
            return Err(Refusal("the bidding is over: play cards or pass".into()));
        }
        let allowed = self.my_bids();
        if !allowed.contains(&bid) {
            let words: Vec<String> = allowed
                .iter()
                .map(|&b| format!("bid {b} ({})", self.bid_word(b, self.game.bids())))
                .collect();
            return Err(Refusal(format!(
                "bid {bid} is not allowed now; you may {}",
                words.join(", ")
            )));
        }
        let before = self.snapshot();
        let me = self.me();
        self.game.bid(me, bid).map_err(|e| Refusal(e.to_string()))?;
        let mut events = vec![Event::Bid(me, bid)];
        self.after_action(before, &mut events);
        Ok(events)
    }

    /// Your play, with the physical cards you picked (if you picked them). Refused with the
    /// reason when it is not your turn or not legal.
    pub fn play(&mut self, play: Move, chosen: Option<CardSet>) -> Result<Vec<Event>, Refusal> {
        if !self.my_turn() {
            return Err(self.not_your_turn());
        }
        if self.game.phase() == Phase::Bidding {
            return Err(Refusal("bid first: the landlord is not decided yet".into()));
        }
        if play.is_pass() && self.game.last().is_none() {
            return Err(Refusal("you lead this trick: you cannot pass".into()));
        }
        if !play.is_pass() && !self.game.legal_moves().contains(&play) {
            return Err(self.why_not(play.cards()));
        }
        let before = self.snapshot();
        let me = self.me();
        self.game
            .play(me, play)
            .map_err(|e| Refusal(e.to_string()))?;
        self.take_physical(me, &play, chosen);
        let mut events = vec![Event::Play(me, play)];
        self.after_action(before, &mut events);
        Ok(events)
    }

    /// A pass.
    pub fn pass(&mut self) -> Result<Vec<Event>, Refusal> {
        self.play(Move::PASS, None)
    }

    fn not_your_turn(&self) -> Refusal {
        if self.is_over() {
            Refusal("the game is over".into())
        } else {
            Refusal(format!(
                "not your turn: {} (seat {}) is to act",
                self.seat_name(self.game.turn()),
                self.game.turn()
            ))
        }
    }

    /// Every legal reading of exactly these cards (several under wildcards or for cards such
    /// as 333444555666), or why there is none.
    pub fn readings(&self, cards: Cards) -> Result<Vec<Move>, Refusal> {
        if !self.my_turn() {
            return Err(self.not_your_turn());
        }
        if self.game.phase() == Phase::Bidding {
            return Err(Refusal("bid first: the landlord is not decided yet".into()));
        }
        if cards.is_empty() {
            return Err(Refusal("select some cards first (or pass)".into()));
        }
        let readings: Vec<Move> = self
            .game
            .legal_moves()
            .into_iter()
            .filter(|m| !m.is_pass() && m.cards() == cards)
            .collect();
        if readings.is_empty() {
            return Err(self.why_not(cards));
        }
        Ok(readings)
    }

    /// Why these cards cannot be played now.
    fn why_not(&self, cards: Cards) -> Refusal {
        let rules = self.rules();
        let hand = self.game.hand(self.me());
        if !hand.contains(cards) {
            return Refusal(format!("{cards}: not all of these cards are in your hand"));
        }
        let readings = classify(cards, &rules);
        if readings.is_empty() {
            return Refusal(format!("{cards} is not a combination under these rules"));
        }
        match self.game.last() {
            Some((seat, last)) if !readings.iter().any(|r| r.beats(&last, &rules)) => {
                Refusal(format!(
                    "{cards} does not beat {} ({} played it)",
                    move_notation(&last, &rules),
                    self.seat_name(seat)
                ))
            }
            _ => Refusal(format!("{cards} cannot be played now")),
        }
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
        if !self.my_turn() || self.game.phase() != Phase::Playing {
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
        let me = self.me();
        if !self.my_turn() || self.game.phase() != Phase::Playing {
            return Vec::new();
        }
        let allowed = self.game.legal_moves();
        let choice = self.helper_choice(&allowed);
        let rules = self.rules();
        let hand = self.game.hand(me);
        let mut valuer = Valuer::new();
        let mut ranked: Vec<(Move, i32)> = allowed
            .iter()
            .filter(|m| **m != choice && !m.is_pass())
            .map(|&m| (m, valuer.after(hand, &m, &rules).score()))
            .collect();
        ranked.sort_by_key(|&(_, score)| -score);
        std::iter::once(choice)
            .chain(ranked.into_iter().map(|(m, _)| m))
            .collect()
    }

    /// What the hint robot would do in your seat (a fresh robot, seeded from the game).
    fn helper_choice(&self, allowed: &[Move]) -> Move {
        let me = self.me();
        let view = self.game.view(me);
        match make_bot_with(
            &self.options.hint_bot,
            bot_seed(self.seed(), me),
            &self.options.externals,
        ) {
            Ok(mut bot) => bot.play(&view, allowed),
            Err(_) => allowed[0],
        }
    }

    /// Lets the hint robot take your turn (bid or play), for `auto`.
    pub fn auto_step(&mut self) -> Result<Vec<Event>, Refusal> {
        if !self.my_turn() {
            return Err(self.not_your_turn());
        }
        let me = self.me();
        let view = self.game.view(me);
        let mut bot = make_bot_with(
            &self.options.hint_bot,
            bot_seed(self.seed(), me),
            &self.options.externals,
        )
        .map_err(|e| Refusal(format!("hint robot: {e}")))?;
        match self.game.phase() {
            Phase::Bidding => {
                let bid = bot.bid(&view, &legal_bids(&view));
                self.bid(bid)
            }
            _ => {
                let play = bot.play(&view, &self.game.legal_moves());
                self.play(play, None)
            }
        }
    }

    /// Whether a robot is to act now.
    pub fn robot_to_act(&self) -> bool {
        !self.is_over() && self.robots[self.game.turn()].is_some()
    }

    /// Lets the robot whose turn it is act once. `None` when it is not a robot's turn.
    pub fn robot_step(&mut self) -> Option<Vec<Event>> {
        if !self.robot_to_act() {
            return None;
        }
        let seat = self.game.turn();
        let view = self.game.view(seat);
        let before = self.snapshot();
        let bot = self.robots[seat].as_mut()?;
        let mut events = Vec::new();
        let acted = match self.game.phase() {
            Phase::Bidding => {
                let bid = bot.bid(&view, &legal_bids(&view));
                let failed = bot.failure();
                match failed {
                    Some(why) => Err(why),
                    None => self
                        .game
                        .bid(seat, bid)
                        .map(|()| events.push(Event::Bid(seat, bid)))
                        .map_err(|e| e.to_string()),
                }
            }
            _ => {
                let allowed = self.game.legal_moves();
                let play = bot.play(&view, &allowed);
                match bot.failure() {
                    Some(why) => Err(why),
                    None => match self.game.play(seat, play) {
                        Ok(()) => {
                            self.take_physical(seat, &play, None);
                            events.push(Event::Play(seat, play));
                            Ok(())
                        }
                        Err(e) => Err(e.to_string()),
                    },
                }
            }
        };
        match acted {
            Ok(()) => self.after_action(before, &mut events),
            Err(why) => {
                let ended = forfeit(&self.game, seat);
                self.finish(None, ended.winner, ended.scores);
                events.push(Event::Forfeit(seat, why));
                events.push(Event::Over);
            }
        }
        Some(events)
    }

    /// The plays of the trick in progress, oldest first; when a trick has just ended (you
    /// lead), the trick before.
    pub fn trick(&self) -> Vec<(usize, Seat, Move)> {
        let history: Vec<(Seat, Move)> = self.game.history().collect();
        let mut start = 0;
        let mut previous_start = 0;
        let mut passes = 0;
        for (i, (_, m)) in history.iter().enumerate() {
            if m.is_pass() {
                passes += 1;
                if passes == 2 {
                    previous_start = start;
                    start = i + 1;
                }
            } else {
                passes = 0;
            }
        }
        let from = if start == history.len() {
            previous_start
        } else {
            start
        };
        history
            .into_iter()
            .enumerate()
            .skip(from)
            .map(|(i, (s, m))| (i, s, m))
            .collect()
    }
}

/// The default records folder: `ddz/records` under the user's data directory
/// (`$XDG_DATA_HOME` or `~/.local/share` on Linux, `~/Library/Application Support` on macOS,
/// `%APPDATA%` on Windows).
pub fn default_records_dir() -> Option<PathBuf> {
    dirs::data_dir().map(|d| d.join("ddz").join("records"))
}

/// Saves a finished game's record as `play-<unix seconds>-seed<seed>.json` (with `-2`, `-3`...
/// when that name is taken) and returns its path.
fn save_record(dir: &Path, game: &Game, number: u32) -> Result<PathBuf, String> {
    std::fs::create_dir_all(dir)
        .map_err(|e| format!("cannot create the records folder {}: {e}", dir.display()))?;
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    let stem = format!("play-{secs}-seed{}-game{number}", game.seed());
    let mut path = dir.join(format!("{stem}.json"));
    let mut n = 2;
    while path.exists() {
        path = dir.join(format!("{stem}-{n}.json"));
        n += 1;
    }
    let text = GameRecord::from_game(game).to_json() + "\n";
    std::fs::write(&path, text).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    Ok(path)
}
