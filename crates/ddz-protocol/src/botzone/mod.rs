//! Botzone's Dou Dizhu games, FightTheLandlord and FightTheLandlord2 (PROTOCOL.md,
//! docs/protocol.md): a robot answering Botzone's JSON input.
//!
//! Botzone starts the program once a turn and writes one line
//! `{"requests": [...], "responses": [...], "data": ..., "globaldata": ...}`: every request so
//! far (the last is the current one) and this bot's earlier responses. [`read_turn`] rebuilds
//! the game from them (the seat, the landlord, every seat's plays and cards left, the play to
//! beat, this bot's hand) and returns the [`Turn`]: a bid or a play, with the seat's
//! [`SeatView`] and what it may do. [`choose`] asks a [`Bot`] and checks its answer; a
//! [`Session`] keeps the requests and responses of a game; [`serve`] runs the whole exchange,
//! with or without Botzone's keep-running mode ([`KEEP_RUNNING`]).
//!
//! Cards are Botzone ids 0-53 (RULES.md section 1); plays are read under [`Rules::botzone`](ddz_core::Rules::botzone)
//! (FightTheLandlord2 with points bidding 0-3). `data` and `globaldata` are ignored.
//!
//! ```
//! use ddz_bots::make_bot;
//! use ddz_protocol::botzone;
//!
//! let mut bot = make_bot("greedy", 1).unwrap();
//! // FightTheLandlord, seat 0 (the landlord, 20 cards) leads.
//! let input = concat!(
//!     r#"{"requests": [{"own": [0, 1, 4, 5, 8, 9, 12, 13, 16, 17, 20, 21, 24, 25, 28, 29,"#,
//!     r#" 32, 33, 36, 37], "history": [[], []], "publiccard": [33, 36, 37]}], "responses": []}"#,
//! );
//! let mut session = botzone::Session::from_input(input).unwrap();
//! assert_eq!(session.answer(bot.as_mut()).unwrap().to_string(), r#"{"response":[0]}"#);
//! ```

mod error;
mod read;

use std::io::{self, BufRead, Write};

use ddz_core::{CardSet, Move};
use ddz_game::{Bid, SeatView};
use serde::de::IgnoredAny;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::sent::{Sent, fields};

use ddz_bots::Bot;

pub use error::{BotzoneError, Place, Problem};
pub use read::{parse_input, read_turn};

/// The line a bot prints after its answer to ask Botzone to keep it running; later requests
/// then come one a line, each the bare request object.
pub const KEEP_RUNNING: &str = ">>>BOTZONE_REQUEST_KEEP_RUNNING<<<";

/// What the bot must do on the current request.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Turn {
    /// FightTheLandlord2's bidding: answer a bid.
    Bid {
        /// The seat's view during bidding (its 17 cards, the earlier bids, points bidding).
        view: SeatView,
        /// The bids allowed: 0 and every bid above the highest earlier one ([`SeatView::legal_bids`]).
        allowed: Vec<Bid>,
    },
    /// A play.
    Play {
        /// The seat's view, rebuilt from the requests and responses.
        view: SeatView,
        /// Every legal move of the hand under the rules, against the play to beat.
        allowed: Vec<Move>,
        /// The seat's physical cards, from which a chosen move's ids are taken.
        hand: CardSet,
    },
}

/// The ids of a set, ascending, as a JSON array (`[0,4,53]`).
fn id_array(set: CardSet) -> String {
    ddz_core::format_botzone_ids(set)
}

// --- Answering -----------------------------------------------------------------------------

/// Asks `bot` for its answer to `turn` and returns Botzone's response value: a bid 0-3, or the
/// ids of the chosen move's cards taken from the hand (`[]` for a pass). An answer the robot
/// was not allowed is an error.
pub fn choose(bot: &mut dyn Bot, turn: &Turn) -> Result<Response, BotzoneError> {
    match turn {
        Turn::Bid { view, allowed } => {
            let b = bot.bid(view, allowed);
            if !allowed.contains(&b) {
                return Err(BotzoneError::RobotBid(b));
            }
            Ok(Response::Bid(b))
        }
        Turn::Play {
            view,
            allowed,
            hand,
        } => {
            let m = bot.play(view, allowed);
            if !allowed.contains(&m) {
                return Err(BotzoneError::RobotPlay(m));
            }
            let set = hand
                .take(m.cards())
                .ok_or(BotzoneError::RobotPlayNotInHand(m))?;
            Ok(Response::Cards(set.iter().map(|c| c.id()).collect()))
        }
    }
}

/// A robot's answer on Botzone's wire: a bid (a number) or the ids of the cards it plays (an
/// array, ascending; `[]` a pass).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(untagged)]
pub enum Response {
    /// A bid, 0 (pass) to 3.
    Bid(Bid),
    /// The ids (0-53) of the cards played.
    Cards(Vec<u8>),
}

/// Botzone's output object for a turn, on the wire `{"response": ...}`.
#[derive(Serialize)]
struct Output {
    /// The bid or the cards played.
    response: Response,
}

/// Botzone's output object for an error, on the wire `{"debug": "error: ..."}`.
#[derive(Serialize)]
struct Debug {
    /// What went wrong.
    debug: String,
}

/// The `{"debug": "error: ..."}` line for an error.
fn debug_line(e: &impl std::fmt::Display) -> String {
    serde_json::to_string(&Debug {
        debug: format!("error: {e}"),
    })
    .unwrap_or_default()
}

/// A line that holds a full input (its `requests`), in keep-running mode.
#[derive(Default, Deserialize)]
#[serde(default)]
struct FullInput {
    requests: Sent<IgnoredAny>,
}

/// One game's exchange with Botzone: the requests so far and this bot's responses.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Session {
    requests: Vec<Value>,
    responses: Vec<Value>,
}

impl Session {
    /// A session from Botzone's full input line ([`parse_input`]).
    pub fn from_input(line: &str) -> Result<Session, BotzoneError> {
        let (requests, responses) = parse_input(line)?;
        Ok(Session {
            requests,
            responses,
        })
    }

    /// Adds the next request, one line as Botzone writes it in keep-running mode (the bare
    /// request object). A line holding a full input (`requests` and `responses`) replaces the
    /// session instead.
    pub fn push_request(&mut self, line: &str) -> Result<(), BotzoneError> {
        let value: Value =
            serde_json::from_str(line).map_err(|e| BotzoneError::RequestNotJson(e.to_string()))?;
        let full = fields::<FullInput>(&value).is_some_and(|f| f.requests.present().is_some());
        if full {
            *self = Session::from_input(line)?;
        } else {
            self.requests.push(value);
        }
        Ok(())
    }

    /// The current turn ([`read_turn`]).
    pub fn turn(&self) -> Result<Turn, BotzoneError> {
        read_turn(&self.requests, &self.responses)
    }

    /// Answers the current request with `bot`: returns the output object
    /// `{"response": ...}` and records the response for later turns.
    pub fn answer(&mut self, bot: &mut dyn Bot) -> Result<Value, BotzoneError> {
        let response = choose(bot, &self.turn()?)?;
        self.responses
            .push(serde_json::to_value(&response).unwrap_or(Value::Null));
        Ok(serde_json::to_value(Output { response }).unwrap_or(Value::Null))
    }
}

/// Runs `bot` on Botzone's input: reads the full input line, writes the answer line
/// `{"response": ...}`, flushed. With `keep_running`, then writes [`KEEP_RUNNING`] and answers
/// each further line (a bare request) the same way until the end of input. Any bad input ends
/// the run: the one line `{"debug": "error: ..."}` is written and the error returned (the
/// outer result is for input and output errors).
pub fn serve(
    bot: &mut dyn Bot,
    mut input: impl BufRead,
    mut output: impl Write,
    keep_running: bool,
) -> io::Result<Result<(), BotzoneError>> {
    let mut session: Option<Session> = None;
    let mut line = String::new();
    loop {
        line.clear();
        if input.read_line(&mut line)? == 0 {
            if session.is_none() {
                let e = BotzoneError::NoInput;
                writeln!(output, "{}", debug_line(&e))?;
                output.flush()?;
                return Ok(Err(e));
            }
            return Ok(Ok(()));
        }
        if line.trim().is_empty() {
            continue;
        }
        let answered = match session.as_mut() {
            None => Session::from_input(line.trim()).and_then(|mut s| {
                let reply = s.answer(bot)?;
                session = Some(s);
                Ok(reply)
            }),
            Some(s) => s.push_request(line.trim()).and_then(|()| s.answer(bot)),
        };
        match answered {
            Ok(reply) => writeln!(output, "{reply}")?,
            Err(e) => {
                writeln!(output, "{}", debug_line(&e))?;
                output.flush()?;
                return Ok(Err(e));
            }
        }
        if !keep_running {
            output.flush()?;
            return Ok(Ok(()));
        }
        writeln!(output, "{KEEP_RUNNING}")?;
        output.flush()?;
    }
}
