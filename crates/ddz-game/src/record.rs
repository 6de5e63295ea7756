//! Game records (`ddz-record/1`, and `ddz-record/2` under the rules of RULES.md section 7): a
//! whole game as JSON — rules, seed, deal, show decisions, bids, doublings, every play in move
//! notation and the result — and its replay, which rebuilds the game from the record and
//! checks every step.
//!
//! ```
//! use ddz_core::Rules;
//! use ddz_game::{Game, GameRecord, Phase};
//!
//! let mut rules = Rules::classic();
//! rules.bidding = ddz_core::Bidding::Fixed;
//! let mut game = Game::new(&rules, 3);
//! while game.phase() != Phase::Over {
//!     let m = game.legal_moves()[0];
//!     game.play(game.turn(), m).unwrap();
//! }
//! let text = GameRecord::from_game(&game).to_json();
//! let record = GameRecord::parse(&text).unwrap();
//! let replayed = record.replay().unwrap();
//! assert_eq!(replayed.result(), game.result());
//! ```

use core::fmt;

use ddz_core::{Cards, Move, RankSet, Rules, move_notation, parse_move};
use serde::{Deserialize, Serialize};

use crate::action::{Actions, Bid, Phase};
use crate::deal::DealLine;
use crate::error::ActionError;
use crate::game::Game;
use crate::scoring::GameResult;
use crate::seat::{BySeat, Role, Seat};

/// The format version written in the `"format"` field of a record whose rules have none of
/// RULES.md section 7 (doubling, showing, no-shuffle deals): such records are exactly as
/// before section 7.
pub const RECORD_FORMAT: &str = "ddz-record/1";

/// The format version of a record whose rules have doubling, showing or no-shuffle deals: it
/// may carry `shows` and `doublings`, and its rules the section 7 fields. Builds that read
/// only [`RECORD_FORMAT`] refuse it by its version.
pub const RECORD_FORMAT_2: &str = "ddz-record/2";

/// The record format versions this build reads.
const FORMATS: [&str; 2] = [RECORD_FORMAT, RECORD_FORMAT_2];

/// One game as a record (format [`RECORD_FORMAT`] or [`RECORD_FORMAT_2`]).
///
/// `rules` is the full rule set with `laizi` empty: the wild ranks are the deal's (`deal.laizi`,
/// heaven first), revealed during the game as the rules say. `deal` is the final deal (after
/// any redeal) as a deal-file line with seat 0's 17 cards and the kitty as `landlord`. `bids`
/// are the final deal's bids as `[seat, bid]`; the all-pass rounds before `redeals` redeals are
/// not listed (they are implied). `plays` are `[seat, move]` in move notation (RULES.md section
/// 3), passes included, each written under the rules in force when it was played. `shows` are
/// every show decision of the final deal in order, `[seat, factor]` with factor 0 for a seat
/// that did not show (the decisions of all-pass rounds are implied: nobody showed); the
/// landlord's after doubling is the last. `doublings` are the doubling decisions in order,
/// `[seat, factor]`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GameRecord {
    /// [`RECORD_FORMAT`], or [`RECORD_FORMAT_2`] under the rules of section 7.
    pub format: String,
    /// The rule set (every field), `laizi` empty.
    pub rules: Rules,
    /// The game's seed (first bidder and redeals are derived from it).
    pub seed: u64,
    /// The final deal.
    pub deal: DealLine,
    /// How many times everyone passed and the cards were redealt.
    pub redeals: u32,
    /// The seat that bid first in the final deal (the first seat to show, else the seed's;
    /// 0 under a fixed landlord unless a seat showed).
    pub first_bidder: u8,
    /// Every show decision of the final deal, `[seat, factor]` (0: did not show).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub shows: Vec<(u8, u32)>,
    /// The bids of the final deal, `[seat, bid]`.
    pub bids: Vec<(u8, Bid)>,
    /// The landlord's seat, once decided.
    pub landlord: Option<u8>,
    /// The doubling decisions, `[seat, factor]`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub doublings: Vec<(u8, u32)>,
    /// Every play, `[seat, move notation]`, passes included.
    pub plays: Vec<(u8, String)>,
    /// The result, when the game is over.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub result: Option<GameResult>,
}

/// Where in a record something happened (or went wrong).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Step {
    /// The JSON text itself.
    Json,
    /// The `"format"` field.
    Format,
    /// The `"rules"` field.
    Rules,
    /// The `"deal"` field.
    Deal,
    /// The `n`-th (1-based) all-pass round that led to a redeal.
    Redeal(u32),
    /// The `"first_bidder"` field.
    FirstBidder,
    /// The `index`-th (1-based) bid.
    Bid {
        /// 1-based position in `"bids"`.
        index: usize,
        /// The seat as recorded.
        seat: u8,
        /// The bid as recorded.
        bid: Bid,
    },
    /// The landlord is decided (the `"landlord"` field).
    Landlord,
    /// The `index`-th (1-based) show decision.
    Show {
        /// 1-based position in `"shows"`.
        index: usize,
        /// The seat as recorded.
        seat: u8,
        /// The factor as recorded (0: did not show).
        factor: u32,
    },
    /// The `index`-th (1-based) doubling.
    Double {
        /// 1-based position in `"doublings"`.
        index: usize,
        /// The seat as recorded.
        seat: u8,
        /// The factor as recorded.
        factor: u32,
    },
    /// The `index`-th (1-based) play.
    Play {
        /// 1-based position in `"plays"`.
        index: usize,
        /// The seat as recorded.
        seat: u8,
        /// The move as recorded.
        text: String,
    },
    /// The `"result"` field.
    Result,
}

impl fmt::Display for Step {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Step::Json => f.write_str("json"),
            Step::Format => f.write_str("format"),
            Step::Rules => f.write_str("rules"),
            Step::Deal => f.write_str("deal"),
            Step::Redeal(n) => write!(f, "redeal {n}"),
            Step::FirstBidder => f.write_str("first_bidder"),
            Step::Bid { index, seat, bid } => write!(f, "bid {index} (seat {seat}, {bid})"),
            Step::Landlord => f.write_str("landlord"),
            Step::Show {
                index,
                seat,
                factor,
            } => write!(f, "show {index} (seat {seat}, {factor})"),
            Step::Double {
                index,
                seat,
                factor,
            } => write!(f, "doubling {index} (seat {seat}, {factor})"),
            Step::Play { index, seat, text } => write!(f, "play {index} (seat {seat}, \"{text}\")"),
            Step::Result => f.write_str("result"),
        }
    }
}

/// A record that does not parse or does not replay: the step and what is wrong there.
/// Displayed as `step: what`, e.g. `bid 2 (seat 1, 3): not allowed now (allowed: 0)`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReplayError {
    /// Where.
    pub step: Step,
    /// What.
    pub what: String,
}

impl ReplayError {
    pub(crate) fn new(step: Step, what: impl Into<String>) -> ReplayError {
        ReplayError {
            step,
            what: what.into(),
        }
    }
}

impl fmt::Display for ReplayError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.step, self.what)
    }
}

impl std::error::Error for ReplayError {}

/// One replayed step, with the state right after it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReplayStep {
    /// Which step: [`Step::Redeal`], [`Step::Bid`], [`Step::Landlord`] or [`Step::Play`].
    pub step: Step,
    /// The acting seat (the landlord for [`Step::Landlord`], the first bidder of the new deal
    /// for [`Step::Redeal`]).
    pub seat: Seat,
    /// The seat's role, once the landlord is decided.
    pub role: Option<Role>,
    /// The move, for a play.
    pub play: Option<Move>,
    /// The move in its shortest exact notation under the rules in force, for a play.
    pub notation: Option<String>,
    /// The acting seat's cards after the step.
    pub hand: Cards,
    /// Cards left in each hand after the step.
    pub cards_left: BySeat<u32>,
}

impl fmt::Display for ReplayStep {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let role = self.role.map(|r| r.name()).unwrap_or("-");
        match &self.step {
            Step::Redeal(n) => write!(
                f,
                "redeal {n}: everyone passed; seat {} bids first",
                self.seat
            ),
            Step::Bid { index, bid, .. } => {
                write!(f, "bid {index:>2}: seat {} bids {bid}", self.seat)
            }
            Step::Show { index, factor, .. } if *factor > 0 => write!(
                f,
                "show {index:>2}: seat {} shows x{factor}: {}",
                self.seat, self.hand
            ),
            Step::Show { index, .. } => {
                write!(f, "show {index:>2}: seat {} does not show", self.seat)
            }
            Step::Double { index, factor, .. } => {
                write!(f, "doubling {index:>2}: seat {} x{factor}", self.seat)
            }
            Step::Landlord => write!(
                f,
                "landlord: seat {}, {} cards: {}",
                self.seat,
                self.hand.len(),
                self.hand
            ),
            Step::Play { index, .. } => write!(
                f,
                "play {index:>3}: seat {} {:<13} {:<24} left {:>2}: {}",
                self.seat,
                role,
                self.notation.as_deref().unwrap_or(""),
                self.hand.len(),
                self.hand
            ),
            other => write!(f, "{other}"),
        }
    }
}

/// The most redeals a record may give (each is replayed: three passes and a new deal); a
/// game redealt this often is far past any real table's.
pub const MAX_REDEALS: u32 = 1000;

impl GameRecord {
    /// The record of a game, finished or not (`result` only when it is over).
    pub fn from_game(game: &Game) -> GameRecord {
        let mut rules = game.rules();
        rules.laizi = RankSet::EMPTY;
        // Each play is written under the wild ranks in force when it was made: the same as now
        // once playing (every wild rank is revealed when the landlord is decided).
        let in_force = game.rules();
        let section_7 = rules.doubling.enabled
            || rules.show.enabled
            || !rules.deal.is_shuffle()
            || !rules.no_shuffle.is_default();
        let seats = |d: &[(Seat, u32)]| -> Vec<(u8, u32)> {
            d.iter().map(|&(s, f)| (s.index() as u8, f)).collect()
        };
        GameRecord {
            format: if section_7 {
                RECORD_FORMAT_2
            } else {
                RECORD_FORMAT
            }
            .to_string(),
            shows: seats(game.show_decisions()),
            doublings: seats(game.doubling_decisions()),
            rules,
            seed: game.seed(),
            deal: game.deal().to_line(),
            redeals: game.redeals(),
            first_bidder: game.first_bidder().index() as u8,
            bids: game
                .bids()
                .iter()
                .map(|&(s, b)| (s.index() as u8, b))
                .collect(),
            landlord: game.landlord().map(|s| s.index() as u8),
            plays: game
                .history()
                .map(|(s, m)| (s.index() as u8, move_notation(&m, &in_force)))
                .collect(),
            result: game.result().cloned(),
        }
    }

    /// Parses a record's JSON text, checking the format version first.
    pub fn parse(text: &str) -> Result<GameRecord, ReplayError> {
        let value: serde_json::Value = serde_json::from_str(text)
            .map_err(|e| ReplayError::new(Step::Json, format!("not valid JSON: {e}")))?;
        let serde_json::Value::Object(fields) = &value else {
            return Err(ReplayError::new(Step::Json, "a record is a JSON object"));
        };
        match fields.get("format") {
            Some(serde_json::Value::String(f)) if FORMATS.contains(&f.as_str()) => {}
            Some(serde_json::Value::String(f)) => {
                return Err(ReplayError::new(Step::Format, unknown_format(f)));
            }
            Some(other) => {
                return Err(ReplayError::new(
                    Step::Format,
                    format!("expected \"{RECORD_FORMAT}\", not {other}"),
                ));
            }
            None => {
                return Err(ReplayError::new(
                    Step::Format,
                    format!("missing (expected \"format\": \"{RECORD_FORMAT}\")"),
                ));
            }
        }
        let record: GameRecord = serde_json::from_value(value)
            .map_err(|e| ReplayError::new(Step::Json, format!("not a game record: {e}")))?;
        // Every count read from outside is bounded: a replay's work follows them.
        if record.redeals > MAX_REDEALS {
            return Err(ReplayError::new(
                Step::Json,
                format!("\"redeals\": {} is more than {MAX_REDEALS}", record.redeals),
            ));
        }
        record
            .rules
            .check_fields()
            .map_err(|e| ReplayError::new(Step::Rules, e.to_string()))?;
        Ok(record)
    }

    /// The record as JSON text for files: one line a field, one line a play.
    pub fn to_json(&self) -> String {
        let serde_json::Value::Object(fields) = serde_json::to_value(self).unwrap_or_default()
        else {
            return String::new();
        };
        // Field order as declared (the map may sort its keys).
        const ORDER: [&str; 12] = [
            "format",
            "rules",
            "seed",
            "deal",
            "redeals",
            "first_bidder",
            "shows",
            "bids",
            "landlord",
            "doublings",
            "plays",
            "result",
        ];
        let mut lines = Vec::new();
        for key in ORDER {
            let Some(value) = fields.get(key) else {
                continue;
            };
            let text = match value {
                serde_json::Value::Array(items) if key == "plays" && !items.is_empty() => {
                    let items: Vec<String> = items.iter().map(|v| format!("    {v}")).collect();
                    format!("[\n{}\n  ]", items.join(",\n"))
                }
                v => v.to_string(),
            };
            lines.push(format!("  \"{key}\": {text}"));
        }
        format!("{{\n{}\n}}", lines.join(",\n"))
    }

    /// Rebuilds the game from the record, checking every step and the result.
    pub fn replay(&self) -> Result<Game, ReplayError> {
        self.replay_each(|_, _| {})
    }

    /// Like [`GameRecord::replay`], calling `each` with the game and the step after every
    /// redeal, bid, the landlord's decision and every play (so a caller can show the game as
    /// it goes, up to the step that fails).
    pub fn replay_each(
        &self,
        mut each: impl FnMut(&Game, &ReplayStep),
    ) -> Result<Game, ReplayError> {
        let game = self.replay_deal(&mut each)?;
        self.replay_actions(game, &mut each)
    }

    /// The game as dealt, before its first show, bid or play: the seed's deal, or the
    /// recorded one, after the redeals (checked as [`GameRecord::replay`] checks them). A
    /// game analysed decision by decision starts from it.
    pub fn start(&self) -> Result<Game, ReplayError> {
        self.replay_deal(&mut |_, _| {})
    }

    /// The game as dealt, after the redeals (each told to `each`).
    fn replay_deal(&self, each: &mut impl FnMut(&Game, &ReplayStep)) -> Result<Game, ReplayError> {
        if !FORMATS.contains(&self.format.as_str()) {
            return Err(ReplayError::new(Step::Format, unknown_format(&self.format)));
        }
        let rules = &self.rules;
        let deal = self
            .deal
            .to_deal(rules)
            .map_err(|e| ReplayError::new(Step::Deal, e.to_string()))?;
        let deal_laizi: RankSet = deal.laizi.iter().copied().collect();
        if !rules.laizi.is_empty() && rules.laizi != deal_laizi {
            return Err(ReplayError::new(
                Step::Rules,
                "\"laizi\" must be empty: a record's wild ranks are the deal's \"laizi\"",
            ));
        }
        let game = if self.redeals == 0 {
            // The seed's own deal keeps its suits (a deal line has ranks only).
            let seeded = Game::new(rules, self.seed);
            if seeded.deal().to_line() == self.deal {
                seeded
            } else {
                Game::with_deal(rules, self.seed, deal)
            }
        } else {
            let mut game = Game::new(rules, self.seed);
            for n in 1..=self.redeals {
                // Nobody showed in a round that was redealt.
                while game.phase() == Phase::Dealing {
                    game.show(game.turn(), false)
                        .map_err(|e| ReplayError::new(Step::Redeal(n), e.to_string()))?;
                }
                if game.phase() != Phase::Bidding {
                    return Err(ReplayError::new(
                        Step::Redeal(n),
                        "these rules have no bidding, so no redeals",
                    ));
                }
                for _ in 0..3 {
                    game.bid(game.turn(), 0)
                        .map_err(|e| ReplayError::new(Step::Redeal(n), e.to_string()))?;
                }
                let seat = game.first_bidder();
                each(&game, &step_of(&game, Step::Redeal(n), seat, None, None));
            }
            if game.deal().to_line() != self.deal {
                return Err(ReplayError::new(
                    Step::Deal,
                    format!(
                        "the deal after {} redeals of seed {} is {}, not the recorded one",
                        self.redeals,
                        self.seed,
                        serde_json::to_string(&game.deal().to_line()).unwrap_or_default()
                    ),
                ));
            }
            game
        };
        Ok(game)
    }

    /// Replays the shows, bids, doublings and plays on the game as dealt, then checks the
    /// result.
    fn replay_actions(
        &self,
        mut game: Game,
        mut each: &mut impl FnMut(&Game, &ReplayStep),
    ) -> Result<Game, ReplayError> {
        let mut shows = self.shows.iter().enumerate();
        while game.phase() == Phase::Dealing {
            let Some((i, &(seat, factor))) = shows.next() else {
                break;
            };
            replay_show(&mut game, i, seat, factor, &mut each)?;
        }
        if u8::try_from(game.first_bidder().index()) != Ok(self.first_bidder) {
            return Err(ReplayError::new(
                Step::FirstBidder,
                format!(
                    "recorded seat {}, but seed {} gives seat {}",
                    self.first_bidder,
                    self.seed,
                    game.first_bidder()
                ),
            ));
        }
        if let Some(l) = game.landlord() {
            each(&game, &step_of(&game, Step::Landlord, l, None, None));
        }
        for (i, &(seat, bid)) in self.bids.iter().enumerate() {
            let step = Step::Bid {
                index: i + 1,
                seat,
                bid,
            };
            let s = seat_of(seat).map_err(|what| ReplayError::new(step.clone(), what))?;
            game.bid(s, bid)
                .map_err(|e| ReplayError::new(step.clone(), action_what(&e)))?;
            if game.redeals() != self.redeals {
                return Err(ReplayError::new(
                    step,
                    "everyone passed: the cards would be redealt, but the record says they were not",
                ));
            }
            each(&game, &step_of(&game, step, s, None, None));
            if let Some(l) = game.landlord() {
                each(&game, &step_of(&game, Step::Landlord, l, None, None));
            }
        }
        let landlord = game.landlord().map(|s| s.index() as u8);
        if landlord != self.landlord {
            let show = |l: Option<u8>| l.map_or("none".to_string(), |s| format!("seat {s}"));
            return Err(ReplayError::new(
                Step::Landlord,
                format!(
                    "recorded {}, but the bids give {}",
                    show(self.landlord),
                    show(landlord)
                ),
            ));
        }
        for (i, &(seat, factor)) in self.doublings.iter().enumerate() {
            let step = Step::Double {
                index: i + 1,
                seat,
                factor,
            };
            let s = seat_of(seat).map_err(|what| ReplayError::new(step.clone(), what))?;
            game.double(s, factor)
                .map_err(|e| ReplayError::new(step.clone(), action_what(&e)))?;
            each(&game, &step_of(&game, step, s, None, None));
        }
        for (i, &(seat, factor)) in shows {
            replay_show(&mut game, i, seat, factor, &mut each)?;
        }
        for (i, (seat, text)) in self.plays.iter().enumerate() {
            let step = Step::Play {
                index: i + 1,
                seat: *seat,
                text: text.clone(),
            };
            let err = |what: String| ReplayError::new(step.clone(), what);
            let s = seat_of(*seat).map_err(err)?;
            if game.phase() != Phase::Playing {
                return Err(err(not_playing(game.phase()).to_string()));
            }
            if s != game.turn() {
                let turn = game.turn();
                return Err(err(ActionError::NotYourTurn { seat: s, turn }.to_string()));
            }
            let rules_now = game.rules();
            let last = game.last().map(|(_, m)| m);
            let m = parse_move(text, &rules_now, last.as_ref()).map_err(|e| err(e.to_string()))?;
            game.play(s, m).map_err(|e| err(action_what(&e)))?;
            let notation = move_notation(&m, &rules_now);
            each(&game, &step_of(&game, step, s, Some(m), Some(notation)));
        }
        let replayed = game.result().cloned();
        match (&self.result, &replayed) {
            (None, None) => {}
            (Some(_), None) => {
                return Err(ReplayError::new(
                    Step::Result,
                    format!(
                        "recorded, but the game is not over after {} plays",
                        self.plays.len()
                    ),
                ));
            }
            (None, Some(_)) => {
                return Err(ReplayError::new(
                    Step::Result,
                    "missing, but the game is over",
                ));
            }
            (Some(rec), Some(rep)) => {
                if let Some(what) = result_difference(rec, rep) {
                    return Err(ReplayError::new(Step::Result, what));
                }
            }
        }
        Ok(game)
    }

    /// The replayed game as lines of text, one a step (see [`ReplayStep`]'s `Display`).
    pub fn step_lines(&self) -> Result<Vec<String>, ReplayError> {
        let mut lines = Vec::new();
        self.replay_each(|_, step| lines.push(step.to_string()))?;
        Ok(lines)
    }
}

/// Why a play cannot be made in `phase` (any but playing).
fn not_playing(phase: Phase) -> &'static str {
    match phase {
        Phase::Over => "the game is already over",
        Phase::Dealing => "the deal is not over (show decisions are missing)",
        Phase::Bidding => "the bidding is not over",
        Phase::Doubling => "the doubling is not over",
        Phase::LandlordShow => "the landlord has not decided whether to show",
        Phase::Playing => "",
    }
}

/// The message for a format version this build does not read.
fn unknown_format(format: &str) -> String {
    format!(
        "unknown format version \"{format}\" (this build reads \"{RECORD_FORMAT}\" and \"{RECORD_FORMAT_2}\")"
    )
}

/// Replays the show decision at `index` (0-based) of a record: the seat must be the one to
/// decide and the factor 0 or the window's.
fn replay_show(
    game: &mut Game,
    index: usize,
    seat: u8,
    factor: u32,
    each: &mut impl FnMut(&Game, &ReplayStep),
) -> Result<(), ReplayError> {
    let step = Step::Show {
        index: index + 1,
        seat,
        factor,
    };
    let err = |what: String| ReplayError::new(step.clone(), what);
    let s = seat_of(seat).map_err(err)?;
    match game.legal_actions() {
        Actions::Show { factor: window } if factor == 0 || factor == window => {}
        Actions::Show { factor: window } => {
            return Err(err(format!("a show now is x{window}, not x{factor}")));
        }
        _ => {
            return Err(err(format!(
                "no show decision now: {}",
                match game.phase() {
                    Phase::Playing => "the game is being played",
                    other => not_playing(other),
                }
            )));
        }
    }
    // What the seat shows is its hand before the decision moves the deal on.
    let hand = game.hand(s);
    game.show(s, factor > 0).map_err(|e| err(action_what(&e)))?;
    let mut replayed = step_of(game, step, s, None, None);
    replayed.hand = hand;
    each(game, &replayed);
    Ok(())
}

fn seat_of(seat: u8) -> Result<Seat, String> {
    Seat::new(seat).ok_or_else(|| format!("seat {seat} is not 0, 1 or 2"))
}

/// An action error without the move repeated in front when the step already names it.
fn action_what(e: &ActionError) -> String {
    match e {
        ActionError::BadBid { allowed, .. } => {
            let allowed: Vec<String> = allowed.iter().map(u8::to_string).collect();
            format!("not allowed now (allowed: {})", allowed.join(", "))
        }
        ActionError::NotInHand { .. } => "not all of these cards are in hand".to_string(),
        ActionError::NotACombination { .. } => "not a combination under these rules".to_string(),
        ActionError::DoesNotBeat { last, .. } => format!("does not beat {last}"),
        other => other.to_string(),
    }
}

fn step_of(
    game: &Game,
    step: Step,
    seat: Seat,
    play: Option<Move>,
    notation: Option<String>,
) -> ReplayStep {
    ReplayStep {
        step,
        seat,
        role: game.role(seat),
        play,
        notation,
        hand: game.hand(seat),
        cards_left: BySeat::from_fn(|s| game.hand(s).len()),
    }
}

/// The first field where a recorded result differs from the replayed one, both shown as
/// compact JSON (strings without quotes).
fn result_difference(rec: &GameResult, rep: &GameResult) -> Option<String> {
    let fields = |r: &GameResult| match serde_json::to_value(r) {
        Ok(serde_json::Value::Object(map)) => map,
        _ => serde_json::Map::new(),
    };
    let show = |v: &serde_json::Value| match v {
        serde_json::Value::String(s) => s.clone(),
        other => other.to_string(),
    };
    let replayed = fields(rep);
    fields(rec).iter().find_map(|(name, a)| {
        let b = replayed.get(name)?;
        (a != b).then(|| format!("recorded {name} {}, replayed {}", show(a), show(b)))
    })
}
