//! The decision loop, written once: show the robot in the seat to act its view, take its
//! action, check it, apply it. The arena, the terminal game, `ddz bench bots` and
//! [`play_game`] go through [`take_turn`]; the web rooms, which decide off the async threads
//! from a kept view, through [`decide_in_view`], the same decision without the game.

use core::fmt;

use ddz_core::Rules;
use ddz_game::{Action, ActionError, Actions, Game, Phase, Seat, SeatView};

use crate::Bot;

/// Why a robot's turn did not go through.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TurnError {
    /// The game is over: there is no turn to take.
    Over,
    /// The robot failed ([`Bot::failure`]: an external program crashed, timed out or broke
    /// the protocol); the controller forfeits the game for its seat.
    Failed {
        /// The robot's seat.
        seat: Seat,
        /// What went wrong.
        why: String,
    },
    /// The robot chose an action the game refused (a robot bug).
    Illegal {
        /// The robot's seat.
        seat: Seat,
        /// Why the game refused it.
        error: ActionError,
    },
}

impl fmt::Display for TurnError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TurnError::Over => f.write_str("the game is over"),
            TurnError::Failed { seat, why } => write!(f, "the robot in seat {seat} failed: {why}"),
            TurnError::Illegal { seat, error } => {
                write!(f, "the robot in seat {seat} acted illegally: {error}")
            }
        }
    }
}

impl std::error::Error for TurnError {}

/// Sees every action as it is applied (a terminal narrating the game, a room sending
/// events, a recorder).
pub trait Observer {
    /// `seat` made `action`; `game` is the state after it.
    fn acted(&mut self, game: &Game, seat: Seat, action: Action);
}

/// An observer that does nothing.
#[derive(Clone, Copy, Debug, Default)]
pub struct NoObserver;

impl Observer for NoObserver {
    fn acted(&mut self, _: &Game, _: Seat, _: Action) {}
}

/// The decision of `bot` in the seat to act: its view and the legal actions shown, its action
/// checked for a failure ([`Bot::failure`]), not applied. Returns the seat and the action.
pub fn decide(game: &Game, bot: &mut dyn Bot) -> Result<(Seat, Action), TurnError> {
    let seat = game.turn();
    decide_in_view(seat, &game.view(seat), &game.legal_actions(), bot).map(|a| (seat, a))
}

/// [`decide`] from what a caller kept of the turn (the seat, its view, the actions it may
/// take) rather than from the game: for a decision made away from the game, as the web rooms
/// make their robots' off the async threads.
pub fn decide_in_view(
    seat: Seat,
    view: &SeatView,
    actions: &Actions,
    bot: &mut dyn Bot,
) -> Result<Action, TurnError> {
    let action = bot.act(view, actions).ok_or(TurnError::Over)?;
    match bot.failure() {
        Some(why) => Err(TurnError::Failed { seat, why }),
        None => Ok(action),
    }
}

/// One turn of `bot` in the seat to act: [`decide`], then the action applied. Returns the
/// seat and the action.
pub fn take_turn(game: &mut Game, bot: &mut dyn Bot) -> Result<(Seat, Action), TurnError> {
    let (seat, action) = decide(game, bot)?;
    game.act(seat, action)
        .map_err(|error| TurnError::Illegal { seat, error })?;
    Ok((seat, action))
}

/// Plays `game` to the end with `bots[i]` in seat `i`, each seeing only its view, telling
/// `observer` every action. Stops at the first robot that fails or acts illegally.
pub fn drive(
    game: &mut Game,
    bots: &mut [Box<dyn Bot>],
    observer: &mut dyn Observer,
) -> Result<(), TurnError> {
    while game.phase() != Phase::Over {
        let bot = bots.get_mut(game.turn().index()).ok_or(TurnError::Over)?;
        let (seat, action) = take_turn(game, bot.as_mut())?;
        observer.acted(game, seat, action);
    }
    Ok(())
}

/// Plays a whole game of `seed` with `bots[i]` in seat `i` ([`drive`]).
pub fn play_game(
    rules: &Rules,
    seed: u64,
    bots: &mut [Box<dyn Bot>; 3],
) -> Result<Game, TurnError> {
    let mut game = Game::new(rules, seed);
    drive(&mut game, bots, &mut NoObserver)?;
    Ok(game)
}
