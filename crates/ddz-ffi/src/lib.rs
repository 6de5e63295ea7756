//! # ddz-ffi
//!
//! ddz for game clients that are not written in Rust (Cocos2d-x in C++ or Lua, Unity in C#,
//! Godot, in-house C++ servers): a C ABI over the rules ([`DdzRules`]), the game ([`DdzGame`]) and the
//! robots ([`DdzBot`]), with the header `include/ddz.h` generated from these sources by cbindgen.
//! docs/ffi.md is the user's guide; this is how the ABI holds together.
//!
//! - **Handles** are opaque (`DdzRules`, `DdzGame`, `DdzBot`): made by a `*_new` function,
//!   released by its `*_free` (NULL is accepted and ignored), never a Rust type in the header.
//! - **Text in** is NUL-terminated UTF-8 in ddz's notation (cards `33445`, moves `3334`,
//!   `pass`, `7779=7777`; RULES.md section 3). **Text out** goes into the caller's buffer: the
//!   return value is the length the whole text needs (without the NUL); when it is `>= len`
//!   the buffer holds a truncated, NUL-terminated prefix and the call can be repeated with a
//!   larger buffer; `buf` may be NULL when `len` is 0 (to ask the length).
//! - **Errors** are stable negative codes ([`DdzStatus`]) and a message for this thread
//!   ([`ddz_last_error`]). A NULL pointer, bad UTF-8, bad cards, an illegal action, an unknown
//!   robot, or a panic inside (caught at every entry point) all come back as errors; nothing
//!   aborts the host.
//! - **Threads**: a `DdzRules` is immutable and may be shared by any threads; a `DdzGame` may
//!   be moved between threads and read by several at once, but changed ([`ddz_game_act`])
//!   by one at a time with no reader; a `DdzBot` is used on the thread that made it. The last
//!   error is per thread.

use core::ffi::{c_char, c_int};
use std::cell::RefCell;
use std::ffi::{CStr, CString};
use std::panic::{AssertUnwindSafe, catch_unwind};

mod bot;
mod game;
mod rules;

pub use bot::{DdzBot, ddz_bot_act, ddz_bot_free, ddz_bot_new};
pub use game::{
    DdzGame, ddz_game_act, ddz_game_free, ddz_game_legal_actions, ddz_game_new,
    ddz_game_record_json, ddz_game_scores, ddz_game_to_act, ddz_game_view_json,
};
pub use rules::{
    DdzMove, DdzRules, ddz_beats, ddz_cards_pack, ddz_classify, ddz_legal_moves,
    ddz_legal_moves_packed, ddz_move_text, ddz_rules_free, ddz_rules_new,
};

/// What a call returns on failure (negative) or success (`DDZ_OK`, 0); each failure also sets
/// the message [`ddz_last_error`] returns. No status is -1, which [`ddz_game_to_act`] returns
/// for a game that is over.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DdzStatus {
    /// Success.
    DdzOk = 0,
    /// A required pointer argument is NULL.
    DdzErrNull = -2,
    /// A text argument is not UTF-8.
    DdzErrUtf8 = -3,
    /// Cards or a move that do not read (bad notation, not a combination, not in the hand).
    DdzErrCards = -4,
    /// A rule profile or wild ranks that do not exist.
    DdzErrRules = -5,
    /// An action the game refuses (out of turn, does not beat the table, a bid not allowed).
    DdzErrIllegal = -6,
    /// A robot that does not exist or that failed to decide.
    DdzErrBot = -7,
    /// An argument out of range (a seat other than 0, 1 or 2; a buffer too small for a
    /// packed result).
    DdzErrArgument = -8,
    /// A bug inside ddz (a panic, caught): the handle the call was given should be freed.
    DdzErrInternal = -9,
}

/// A failed call: its status and the message for [`ddz_last_error`].
#[derive(Debug)]
pub(crate) struct Failure {
    status: DdzStatus,
    message: String,
}

impl Failure {
    /// A failure with `status` and `message`.
    pub(crate) fn new(status: DdzStatus, message: impl Into<String>) -> Failure {
        Failure {
            status,
            message: message.into(),
        }
    }
}

thread_local! {
    /// This thread's last error message (what [`ddz_last_error`] points into).
    static LAST_ERROR: RefCell<Option<CString>> = const { RefCell::new(None) };
}

/// Records `message` as this thread's last error.
fn set_last_error(message: String) {
    // A message never holds a NUL (it would end the C string early): replaced, not lost.
    let text = CString::new(message.replace('\0', "\\0")).unwrap_or_default();
    LAST_ERROR.with(|last| *last.borrow_mut() = Some(text));
}

/// The message of a caught panic.
fn panic_message(payload: &(dyn std::any::Any + Send)) -> String {
    let what = payload
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "no message".to_string());
    format!("internal error in ddz (please report it): {what}")
}

/// Runs the body of an entry point that returns a status or a length: clears the last error,
/// catches a panic, and turns a failure into its negative status.
pub(crate) fn guard_int(body: impl FnOnce() -> Result<i64, Failure>) -> i64 {
    LAST_ERROR.with(|last| *last.borrow_mut() = None);
    match catch_unwind(AssertUnwindSafe(body)) {
        Ok(Ok(value)) => value,
        Ok(Err(failure)) => {
            set_last_error(failure.message);
            failure.status as i64
        }
        Err(payload) => {
            set_last_error(panic_message(payload.as_ref()));
            DdzStatus::DdzErrInternal as i64
        }
    }
}

/// [`guard_int`] for an entry point that returns a C `int`.
pub(crate) fn guard_status(body: impl FnOnce() -> Result<i64, Failure>) -> c_int {
    // Every value returned this way is a status, a seat or a boolean: small.
    c_int::try_from(guard_int(body)).unwrap_or(DdzStatus::DdzErrInternal as c_int)
}

/// Runs the body of an entry point that returns a new handle: NULL on failure (the message
/// set), the boxed value otherwise.
pub(crate) fn guard_new<T>(body: impl FnOnce() -> Result<T, Failure>) -> *mut T {
    LAST_ERROR.with(|last| *last.borrow_mut() = None);
    match catch_unwind(AssertUnwindSafe(body)) {
        Ok(Ok(value)) => Box::into_raw(Box::new(value)),
        Ok(Err(failure)) => {
            set_last_error(failure.message);
            core::ptr::null_mut()
        }
        Err(payload) => {
            set_last_error(panic_message(payload.as_ref()));
            core::ptr::null_mut()
        }
    }
}

/// Frees a handle made by [`guard_new`] (NULL ignored), catching a panic in its destructor.
///
/// # Safety
/// `handle` is NULL or a pointer from [`guard_new`] of the same type, not freed before.
pub(crate) unsafe fn free_handle<T>(handle: *mut T) {
    if handle.is_null() {
        return;
    }
    // SAFETY: the caller passes a pointer from Box::into_raw of a T, freed once.
    let boxed = unsafe { Box::from_raw(handle) };
    let _ = catch_unwind(AssertUnwindSafe(move || drop(boxed)));
}

/// The handle behind `ptr`, or the NULL error naming `what`.
///
/// # Safety
/// `ptr` is NULL or points to a live `T` made by this library.
pub(crate) unsafe fn handle<'a, T>(ptr: *const T, what: &str) -> Result<&'a T, Failure> {
    // SAFETY: a non-NULL pointer is a live handle, by the caller's contract.
    unsafe { ptr.as_ref() }
        .ok_or_else(|| Failure::new(DdzStatus::DdzErrNull, format!("{what} is NULL")))
}

/// The handle behind `ptr` for a change, or the NULL error naming `what`.
///
/// # Safety
/// `ptr` is NULL or points to a live `T` made by this library, used by no one else meanwhile.
pub(crate) unsafe fn handle_mut<'a, T>(ptr: *mut T, what: &str) -> Result<&'a mut T, Failure> {
    // SAFETY: a non-NULL pointer is a live handle used only here, by the caller's contract.
    unsafe { ptr.as_mut() }
        .ok_or_else(|| Failure::new(DdzStatus::DdzErrNull, format!("{what} is NULL")))
}

/// The UTF-8 text behind `ptr`, or the error naming `what`.
///
/// # Safety
/// `ptr` is NULL or points to a NUL-terminated string that lives through the call.
pub(crate) unsafe fn text<'a>(ptr: *const c_char, what: &str) -> Result<&'a str, Failure> {
    if ptr.is_null() {
        return Err(Failure::new(
            DdzStatus::DdzErrNull,
            format!("{what} is NULL"),
        ));
    }
    // SAFETY: a non-NULL pointer is a NUL-terminated string, by the caller's contract.
    let bytes = unsafe { CStr::from_ptr(ptr) };
    bytes.to_str().map_err(|e| {
        Failure::new(
            DdzStatus::DdzErrUtf8,
            format!("{what} is not UTF-8 (at byte {})", e.valid_up_to()),
        )
    })
}

/// Writes `text` into the caller's buffer as the ABI's text results do: as much as fits with
/// its NUL, and returns the whole length.
///
/// # Safety
/// `buf` is NULL or points to `len` writable bytes.
pub(crate) unsafe fn write_text(text: &str, buf: *mut c_char, len: usize) -> Result<i64, Failure> {
    let needed = i64::try_from(text.len()).unwrap_or(i64::MAX);
    if len == 0 {
        return Ok(needed);
    }
    if buf.is_null() {
        return Err(Failure::new(
            DdzStatus::DdzErrNull,
            format!("buf is NULL but len is {len}"),
        ));
    }
    let copied = text.len().min(len - 1);
    // SAFETY: buf has len >= copied + 1 writable bytes, by the caller's contract; the source
    // is a live &str of at least `copied` bytes, and the two do not overlap (one is ours).
    unsafe {
        core::ptr::copy_nonoverlapping(text.as_ptr(), buf.cast::<u8>(), copied);
        *buf.add(copied) = 0;
    }
    Ok(needed)
}

/// The version of the library, as `0.1.0`: a static string, never freed.
#[unsafe(no_mangle)]
pub extern "C" fn ddz_version() -> *const c_char {
    const VERSION: &CStr =
        match CStr::from_bytes_with_nul(concat!(env!("CARGO_PKG_VERSION"), "\0").as_bytes()) {
            Ok(version) => version,
            Err(_) => c"unknown",
        };
    VERSION.as_ptr()
}

/// This thread's last error message, or NULL when the last call on this thread succeeded.
/// The text stays valid until the next call into the library on this thread; copy it to keep
/// it.
#[unsafe(no_mangle)]
pub extern "C" fn ddz_last_error() -> *const c_char {
    LAST_ERROR.with(|last| {
        last.borrow()
            .as_ref()
            .map_or(core::ptr::null(), |message| message.as_ptr())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_panic_inside_is_an_internal_error_with_its_message() {
        let status = guard_int(|| panic!("boom"));
        assert_eq!(status, DdzStatus::DdzErrInternal as i64);
        // SAFETY: ddz_last_error's pointer is a live C string until the next call.
        let message = unsafe { CStr::from_ptr(ddz_last_error()) }
            .to_str()
            .unwrap();
        assert!(message.contains("boom"), "{message}");
        let handle: *mut u8 = guard_new(|| -> Result<u8, Failure> { panic!("bang") });
        assert!(handle.is_null());
        // The next call that succeeds clears the message.
        assert_eq!(guard_int(|| Ok(5)), 5);
        assert!(ddz_last_error().is_null());
    }
}
