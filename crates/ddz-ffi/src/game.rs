//! A game through the C ABI ([`DdzGame`]): who acts, what they may do and doing it, as text
//! (ddz-game's [`Action::notation`] and [`Action::parse`]), a seat's view as JSON
//! ([`ddz_game_view_json`], format `ddz-view/1`), and the game's record
//! ([`ddz_game_record_json`], the `ddz-record` format `ddz replay` reads).
//!
//! Actions are written: a play or the pass in move notation (`33`, `pass`, `7779=7777`);
//! `bid N` (0 passes; under call-and-rob 1 calls or robs); `double N` (1, 2 or 4); `show` or
//! `hide`. Every action is taken by the seat [`ddz_game_to_act`] names.

use core::ffi::{c_char, c_int};

use ddz_core::{Move, move_notation};
use ddz_game::{Action, Game, GameRecord, GameResult, Phase, Role, Seat, SeatView};
use serde::Serialize;

use crate::rules::DdzRules;
use crate::{
    DdzStatus, Failure, free_handle, guard_int, guard_new, guard_status, handle, handle_mut, text,
    write_text,
};

/// A game in progress or over, from its deal to its result.
pub struct DdzGame {
    pub(crate) game: Game,
}

/// Reads an action (as [`Action::notation`] writes it) for the seat to act in `game`.
fn parse_action(text: &str, game: &Game) -> Result<Action, Failure> {
    let beat = game.last().map(|(_, m)| m);
    Action::parse(text, &game.rules(), beat.as_ref())
        .map_err(|e| Failure::new(DdzStatus::DdzErrCards, e.to_string()))
}

/// A new game under `rules`, dealt from `seed` (the same seed deals the same game).
///
/// # Safety
/// `rules` is NULL or a live rule set.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ddz_game_new(rules: *const DdzRules, seed: u64) -> *mut DdzGame {
    guard_new(|| {
        // SAFETY: the caller's contract.
        let rules = &unsafe { handle(rules, "rules") }?.rules;
        Ok(DdzGame {
            game: Game::new(rules, seed),
        })
    })
}

/// Frees a game (NULL is ignored).
///
/// # Safety
/// `game` is NULL or from [`ddz_game_new`], not freed before.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ddz_game_free(game: *mut DdzGame) {
    // SAFETY: the caller's contract.
    unsafe { free_handle(game) }
}

/// The seat to act (0, 1 or 2), -1 when the game is over, or a negative status (all below
/// -1) on error.
///
/// # Safety
/// `game` is NULL or a live game.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ddz_game_to_act(game: *const DdzGame) -> c_int {
    guard_status(|| {
        // SAFETY: the caller's contract.
        let game = &unsafe { handle(game, "game") }?.game;
        Ok(match game.phase() {
            Phase::Over => -1,
            _ => i64::try_from(game.turn().index()).unwrap_or(-1),
        })
    })
}

/// What the seat to act may do, one action a line as [`ddz_game_act`] takes them (nothing
/// once the game is over). Returns the length of the text or a negative status.
///
/// # Safety
/// `game` is NULL or a live game; `buf` NULL or `len` writable bytes.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ddz_game_legal_actions(
    game: *const DdzGame,
    buf: *mut c_char,
    len: usize,
) -> i64 {
    // SAFETY: the caller's contract.
    unsafe {
        game_text(game, buf, len, |game| {
            let mut text = String::new();
            for action in game.legal_actions().notations(&game.rules()) {
                text.push_str(&action);
                text.push('\n');
            }
            Ok(text)
        })
    }
}

/// The body of an entry point that writes a text about a game: the game checked, `text`
/// written into the caller's buffer, every failure and panic turned into a status.
///
/// # Safety
/// `game` is NULL or a live game; `buf` NULL or `len` writable bytes.
unsafe fn game_text(
    game: *const DdzGame,
    buf: *mut c_char,
    len: usize,
    text: impl FnOnce(&Game) -> Result<String, Failure>,
) -> i64 {
    guard_int(|| {
        // SAFETY: the caller's contract.
        let game = &unsafe { handle(game, "game") }?.game;
        let text = text(game)?;
        // SAFETY: as above.
        unsafe { write_text(&text, buf, len) }
    })
}

/// Takes `action` (written as [`ddz_game_legal_actions`] lists them) for the seat to act.
/// Returns `DDZ_OK`, or a negative status with the game unchanged (`DDZ_ERR_ILLEGAL` for an
/// action the rules refuse now, `DDZ_ERR_CARDS` for text that is no action).
///
/// # Safety
/// `game` is NULL or a live game used by no other thread meanwhile; `action` a NUL-terminated
/// string or NULL.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ddz_game_act(game: *mut DdzGame, action: *const c_char) -> c_int {
    guard_status(|| {
        // SAFETY: the caller's contract.
        let game = &mut unsafe { handle_mut(game, "game") }?.game;
        // SAFETY: as above.
        let text = unsafe { text(action, "action") }?;
        if game.phase() == Phase::Over {
            return Err(Failure::new(
                DdzStatus::DdzErrIllegal,
                format!("\"{}\": {}", text.trim(), ddz_game::ActionError::GameOver),
            ));
        }
        let action = parse_action(text, game)?;
        let seat = game.turn();
        game.act(seat, action).map_err(|e| {
            Failure::new(
                DdzStatus::DdzErrIllegal,
                format!("\"{}\" by seat {seat}: {e}", text.trim()),
            )
        })?;
        Ok(0)
    })
}

/// A play as the view writes it.
#[derive(Serialize)]
struct PlayJson {
    seat: u8,
    cards: String,
}

/// What a seat knows, format `ddz-view/1` (docs/ffi.md).
#[derive(Serialize)]
struct ViewJson {
    format: &'static str,
    seat: u8,
    phase: Phase,
    to_act: Option<u8>,
    hand: String,
    landlord: Option<u8>,
    role: Option<&'static str>,
    kitty: Option<String>,
    laizi: String,
    bids: Vec<(u8, u8)>,
    cards_left: [u32; 3],
    played: [String; 3],
    history: Vec<PlayJson>,
    last: Option<PlayJson>,
    shown: [Option<String>; 3],
    doublings: [Option<u32>; 3],
    base: u32,
    multiplier: u32,
    result: Option<GameResult>,
}

/// A seat as its number.
fn seat_number(seat: Seat) -> u8 {
    u8::try_from(seat.index()).unwrap_or(u8::MAX)
}

impl ViewJson {
    /// The JSON view of `view`, in `game` (for the seat to act and the result).
    fn of(view: &SeatView, game: &Game) -> ViewJson {
        let rules = view.rules();
        let play = |(seat, m): &(Seat, Move)| PlayJson {
            seat: seat_number(*seat),
            cards: move_notation(m, rules),
        };
        ViewJson {
            format: "ddz-view/1",
            seat: seat_number(view.seat()),
            phase: view.phase(),
            to_act: (game.phase() != Phase::Over).then(|| seat_number(game.turn())),
            hand: view.hand().to_string(),
            landlord: view.landlord().map(seat_number),
            role: view.role().map(Role::name),
            kitty: view.kitty().map(|k| k.to_string()),
            laizi: view.laizi().iter().map(|r| r.letter()).collect(),
            bids: view
                .bids()
                .iter()
                .map(|&(s, b)| (seat_number(s), b))
                .collect(),
            cards_left: view.cards_left().0,
            played: view.played().0.map(|c| c.to_string()),
            history: view.history().iter().map(play).collect(),
            last: view.last().as_ref().map(play),
            shown: view.shown().0.map(|c| c.map(|c| c.to_string())),
            doublings: view.doublings().0,
            base: view.base(),
            multiplier: view.multiplier(),
            result: game.result().cloned(),
        }
    }
}

/// What `seat` (0, 1 or 2) knows, as JSON (format `ddz-view/1`, docs/ffi.md): its hand and
/// everything public, never another seat's hidden cards. Returns the length of the text or a
/// negative status.
///
/// # Safety
/// `game` is NULL or a live game; `buf` NULL or `len` writable bytes.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ddz_game_view_json(
    game: *const DdzGame,
    seat: c_int,
    buf: *mut c_char,
    len: usize,
) -> i64 {
    // SAFETY: the caller's contract.
    unsafe {
        game_text(game, buf, len, |game| {
            let seat = u8::try_from(seat).ok().and_then(Seat::new).ok_or_else(|| {
                Failure::new(
                    DdzStatus::DdzErrArgument,
                    format!("seat {seat} is not a seat (0, 1 or 2)"),
                )
            })?;
            let view = ViewJson::of(&game.view(seat), game);
            serde_json::to_string(&view)
                .map_err(|e| Failure::new(DdzStatus::DdzErrInternal, e.to_string()))
        })
    }
}

/// The game's record as JSON (the `ddz-record` format of docs/records.md, which `ddz replay`
/// checks), so far or finished. Returns the length of the text or a negative status.
///
/// # Safety
/// `game` is NULL or a live game; `buf` NULL or `len` writable bytes.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ddz_game_record_json(
    game: *const DdzGame,
    buf: *mut c_char,
    len: usize,
) -> i64 {
    // SAFETY: the caller's contract.
    unsafe {
        game_text(game, buf, len, |game| {
            Ok(GameRecord::from_game(game).to_json())
        })
    }
}

/// The scores of a finished game into `out[0..3]` (seat by seat, in points, summing to 0).
/// Returns `DDZ_OK`, or `DDZ_ERR_ILLEGAL` while the game is not over.
///
/// # Safety
/// `game` is NULL or a live game; `out` NULL or three writable `int64_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ddz_game_scores(game: *const DdzGame, out: *mut i64) -> c_int {
    guard_status(|| {
        // SAFETY: the caller's contract.
        let game = &unsafe { handle(game, "game") }?.game;
        let result = game
            .result()
            .ok_or_else(|| Failure::new(DdzStatus::DdzErrIllegal, "the game is not over"))?;
        if out.is_null() {
            return Err(Failure::new(DdzStatus::DdzErrNull, "out is NULL"));
        }
        for (i, score) in result.scores.0.iter().enumerate() {
            // SAFETY: out has three writable values, i < 3.
            unsafe { out.add(i).write(*score) };
        }
        Ok(0)
    })
}
