//! Robots through the C ABI ([`DdzBot`]): any robot spec `ddz` knows (`random`, `greedy`,
//! `value`, `ddzlib`, `net`, `search:iters=100`, ...; docs/robots.md), deciding for the seat to
//! act from that seat's view only, through the same decision loop as every surface
//! ([`ddz_bots::decide`]).

use core::ffi::c_char;

use ddz_bots::{Bot, BotSpec, TurnError, decide};
use ddz_game::Game;

use crate::game::DdzGame;
use crate::rules::DdzRules;
use crate::{
    DdzStatus, Failure, free_handle, guard_int, guard_new, handle, handle_mut, text, write_text,
};

/// A robot: used on the thread that made it.
pub struct DdzBot {
    bot: Box<dyn Bot>,
    /// The last decision and the point of the game it was made at, so that asking again (the
    /// two-call buffer pattern) returns it rather than deciding anew.
    kept: Option<(Point, String)>,
}

/// A point of one game: the game's address and how many actions it has taken.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Point {
    game: usize,
    redeals: u32,
    actions: usize,
}

impl Point {
    /// Where `game` (at `address`) is now.
    fn of(game: &Game, address: usize) -> Point {
        Point {
            game: address,
            redeals: game.redeals(),
            actions: game.show_decisions().len()
                + game.bids().len()
                + game.doubling_decisions().len()
                + game.history().count(),
        }
    }
}

/// A robot from its spec (`ddzlib`, `search:iters=100`), seeded by `seed` (the same seed, the
/// same decisions, for every robot but a `search` with a time budget). `rules` is the rule set
/// it will play under; every built-in robot plays every profile (it reads the rules from the
/// game at each decision), so it is only checked to be given. NULL on error (an unknown robot
/// or option names itself in [`crate::ddz_last_error`]).
///
/// # Safety
/// `spec` is a NUL-terminated string or NULL; `rules` NULL or a live rule set.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ddz_bot_new(
    spec: *const c_char,
    rules: *const DdzRules,
    seed: u64,
) -> *mut DdzBot {
    guard_new(|| {
        // SAFETY: the caller's contract for both pointers.
        let spec = unsafe { text(spec, "spec") }?;
        // SAFETY: as above.
        unsafe { handle(rules, "rules") }?;
        let spec =
            BotSpec::parse(spec).map_err(|e| Failure::new(DdzStatus::DdzErrBot, e.to_string()))?;
        let bot = spec
            .build(seed)
            .map_err(|e| Failure::new(DdzStatus::DdzErrBot, e.to_string()))?;
        Ok(DdzBot { bot, kept: None })
    })
}

/// Frees a robot (NULL is ignored).
///
/// # Safety
/// `bot` is NULL or from [`ddz_bot_new`], not freed before.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ddz_bot_free(bot: *mut DdzBot) {
    // SAFETY: the caller's contract.
    unsafe { free_handle(bot) }
}

/// The robot's action for the seat to act in `game`, written as `ddz_game_act` takes it; the
/// game is not changed (pass the text to `ddz_game_act`). Asked again at the same point of the
/// same game (after a buffer too small), it returns the same action without deciding again.
/// Returns the length of the text or a negative status (`DDZ_ERR_ILLEGAL` once the game is
/// over, `DDZ_ERR_BOT` if the robot fails).
///
/// # Safety
/// `bot` is NULL or a live robot used by no other thread meanwhile; `game` NULL or a live
/// game; `buf` NULL or `len` writable bytes.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ddz_bot_act(
    bot: *mut DdzBot,
    game: *const DdzGame,
    buf: *mut c_char,
    len: usize,
) -> i64 {
    guard_int(|| {
        // SAFETY: the caller's contract for each pointer.
        let robot = unsafe { handle_mut(bot, "bot") }?;
        let point = Point::of(
            // SAFETY: as above.
            &unsafe { handle(game, "game") }?.game,
            game as usize,
        );
        // SAFETY: as above.
        let game = &unsafe { handle(game, "game") }?.game;
        let text = match &robot.kept {
            Some((kept, text)) if *kept == point => text.clone(),
            _ => {
                let (_, action) = decide(game, robot.bot.as_mut()).map_err(|e| match e {
                    TurnError::Over => Failure::new(DdzStatus::DdzErrIllegal, "the game is over"),
                    other => Failure::new(DdzStatus::DdzErrBot, other.to_string()),
                })?;
                let text = action.notation(&game.rules());
                robot.kept = Some((point, text.clone()));
                text
            }
        };
        // SAFETY: as above.
        unsafe { write_text(&text, buf, len) }
    })
}
