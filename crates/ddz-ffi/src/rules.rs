//! The rules through the C ABI: a rule set ([`DdzRules`]), what cards can be read as
//! ([`ddz_classify`]), the legal moves of a hand as text ([`ddz_legal_moves`]) or packed
//! ([`ddz_legal_moves_packed`], [`DdzMove`]), and comparison ([`ddz_beats`]).

use core::ffi::{c_char, c_int};

use ddz_core::{
    BombClass, Cards, Kind, Move, Rules, classify, legal_moves, legal_moves_into, move_notation,
    parse_move,
};

use crate::{DdzStatus, Failure, free_handle, guard_int, guard_new, guard_status, handle, text};

/// A rule set (a profile with its wild ranks): immutable, shared freely between threads.
pub struct DdzRules {
    pub(crate) rules: Rules,
}

/// A move packed for engines that care about speed: the cards and their reading as ddz's
/// packed card counts (4 bits a rank, rank index `i` in bits `4i..4i+4`: 0 is the 3, 12 the
/// 2, 13 the black joker, 14 the red joker), and the kind, main rank, length and bomb class.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct DdzMove {
    /// The cards played (0 for the pass).
    pub cards: u64,
    /// The ranks the cards are read as: the cards themselves unless a wild card stands for
    /// another rank.
    pub reading: u64,
    /// The kind, in RULES.md's table order: 0 pass, 1 single, 2 pair, 3 trio, 4 trio with a
    /// single, 5 trio with a pair, 6 chain, 7 pair chain, 8 airplane, 9 airplane with singles,
    /// 10 airplane with pairs, 11 four with two singles, 12 four with two pairs, 13 bomb,
    /// 14 rocket, 15-17 Botzone's space shuttles (ddz_core's `Kind`).
    pub kind: u8,
    /// The main rank's index (0 is the 3, as in `cards`).
    pub main: u8,
    /// The number of body ranks (a chain's length; 1 for most kinds).
    pub length: u8,
    /// Under wildcards, the bomb's class: 1 soft, 2 hard, 3 pure; 0 otherwise.
    pub bomb_class: u8,
}

impl DdzMove {
    /// The packed form of `m`.
    pub(crate) fn of(m: &Move) -> DdzMove {
        DdzMove {
            cards: m.cards().bits(),
            reading: m.reading().bits(),
            kind: m.kind() as u8,
            main: u8::try_from(m.main().index()).unwrap_or(u8::MAX),
            length: m.length(),
            bomb_class: match m.class() {
                None => 0,
                Some(BombClass::Soft) => 1,
                Some(BombClass::Hard) => 2,
                Some(BombClass::Pure) => 3,
            },
        }
    }

    /// The move this packs under `rules`: one of the readings of its cards, so that only a
    /// move the rules allow comes back.
    pub(crate) fn unpack(&self, rules: &Rules) -> Result<Move, Failure> {
        if self.cards == 0 && self.kind == Kind::Pass as u8 {
            return Ok(Move::PASS);
        }
        let cards = Cards::from_bits(self.cards).ok_or_else(|| {
            Failure::new(
                DdzStatus::DdzErrCards,
                format!("{:#x} is not a packed set of cards", self.cards),
            )
        })?;
        classify(cards, rules)
            .into_iter()
            .find(|m| DdzMove::of(m) == *self)
            .ok_or_else(|| {
                Failure::new(
                    DdzStatus::DdzErrCards,
                    format!("{self:?} is not a reading of the cards {cards}"),
                )
            })
    }
}

/// Parses cards in ddz's notation, naming `what` in the error.
pub(crate) fn cards_of(text: &str, what: &str) -> Result<Cards, Failure> {
    text.parse::<Cards>()
        .map_err(|e| Failure::new(DdzStatus::DdzErrCards, format!("{what}: {e}")))
}

/// Parses a move in ddz's notation against the play it answers.
fn move_of(text: &str, rules: &Rules, beat: Option<&Move>, what: &str) -> Result<Move, Failure> {
    parse_move(text, rules, beat)
        .map_err(|e| Failure::new(DdzStatus::DdzErrCards, format!("{what}: \"{text}\": {e}")))
}

/// One move a line, in move notation.
fn lines(moves: &[Move], rules: &Rules) -> String {
    let mut out = String::new();
    for m in moves {
        out.push_str(&move_notation(m, rules));
        out.push('\n');
    }
    out
}

/// A rule set: `profile` is a profile name (`classic`, `laizi`, `tiandi`, `douzero`,
/// `rlcard`, `botzone`, `huanle`; any case); `laizi` is NULL or the wild ranks (`9`, `7,9`)
/// for the profiles that have them. NULL on error ([`crate::ddz_last_error`] says why).
///
/// # Safety
/// `profile` is a NUL-terminated string or NULL; so is `laizi`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ddz_rules_new(
    profile: *const c_char,
    laizi: *const c_char,
) -> *mut DdzRules {
    guard_new(|| {
        // SAFETY: the caller's contract for both strings.
        let name = unsafe { text(profile, "profile") }?;
        let rules = Rules::from_profile_name(name)
            .map_err(|e| Failure::new(DdzStatus::DdzErrRules, e.to_string()))?;
        let rules = if laizi.is_null() {
            rules
        } else {
            // SAFETY: as above.
            let wild = unsafe { text(laizi, "laizi") }?;
            rules
                .with_laizi_text(wild)
                .map_err(|e| Failure::new(DdzStatus::DdzErrRules, e.to_string()))?
        };
        Ok(DdzRules { rules })
    })
}

/// Frees a rule set (NULL is ignored). Games and robots made from it do not need it after
/// they are made.
///
/// # Safety
/// `rules` is NULL or from [`ddz_rules_new`], not freed before.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ddz_rules_free(rules: *mut DdzRules) {
    // SAFETY: the caller's contract.
    unsafe { free_handle(rules) }
}

/// Every reading of `cards` as a play under the rules, one a line in move notation
/// (`333444555666:airplane:6`); nothing when the cards are no combination. Returns the
/// length of the text (see the buffer rules in docs/ffi.md) or a negative status.
///
/// # Safety
/// `rules` is NULL or a live rule set; `cards` a NUL-terminated string or NULL; `buf` NULL or
/// `len` writable bytes.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ddz_classify(
    rules: *const DdzRules,
    cards: *const c_char,
    buf: *mut c_char,
    len: usize,
) -> i64 {
    guard_int(|| {
        // SAFETY: the caller's contract for each pointer.
        let rules = &unsafe { handle(rules, "rules") }?.rules;
        // SAFETY: as above.
        let cards = cards_of(unsafe { text(cards, "cards") }?, "cards")?;
        let text = lines(&classify(cards, rules), rules);
        // SAFETY: as above.
        unsafe { crate::write_text(&text, buf, len) }
    })
}

/// The legal moves of `hand` against `beat` (NULL, or an empty string, to lead), one a line
/// in move notation, `pass` first when following. Returns the length of the text or a
/// negative status.
///
/// # Safety
/// `rules` is NULL or a live rule set; `hand` and `beat` NUL-terminated strings or NULL;
/// `buf` NULL or `len` writable bytes.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ddz_legal_moves(
    rules: *const DdzRules,
    hand: *const c_char,
    beat: *const c_char,
    buf: *mut c_char,
    len: usize,
) -> i64 {
    guard_int(|| {
        // SAFETY: the caller's contract for each pointer.
        let rules = &unsafe { handle(rules, "rules") }?.rules;
        // SAFETY: as above.
        let hand = cards_of(unsafe { text(hand, "hand") }?, "hand")?;
        let beat = beat_of(rules, beat)?;
        let text = lines(&legal_moves(hand, beat.as_ref(), rules), rules);
        // SAFETY: as above.
        unsafe { crate::write_text(&text, buf, len) }
    })
}

/// The play to beat from its text: `None` for NULL or empty (a lead); never the pass.
fn beat_of(rules: &Rules, beat: *const c_char) -> Result<Option<Move>, Failure> {
    if beat.is_null() {
        return Ok(None);
    }
    // SAFETY: a non-NULL `beat` is a NUL-terminated string, by the entry point's contract.
    let text = unsafe { text(beat, "beat") }?;
    if text.trim().is_empty() {
        return Ok(None);
    }
    let m = move_of(text, rules, None, "beat")?;
    if m.is_pass() {
        return Err(Failure::new(
            DdzStatus::DdzErrCards,
            "beat: \"pass\" is no play to beat (NULL or \"\" to lead)",
        ));
    }
    Ok(Some(m))
}

/// The legal moves of a packed `hand` (ddz's card counts, as [`DdzMove::cards`]) against
/// `beat` (NULL to lead), packed into `out` (room for `cap` moves). Returns how many moves
/// there are; when that is more than `cap`, only the first `cap` were written and the call
/// can be repeated with more room. The same moves in the same order as [`ddz_legal_moves`].
///
/// # Safety
/// `rules` is NULL or a live rule set; `beat` NULL or one readable [`DdzMove`]; `out` NULL
/// or `cap` writable [`DdzMove`]s.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ddz_legal_moves_packed(
    rules: *const DdzRules,
    hand: u64,
    beat: *const DdzMove,
    out: *mut DdzMove,
    cap: usize,
) -> i64 {
    guard_int(|| {
        // SAFETY: the caller's contract for each pointer.
        let rules = &unsafe { handle(rules, "rules") }?.rules;
        let hand = Cards::from_bits(hand).ok_or_else(|| {
            Failure::new(
                DdzStatus::DdzErrCards,
                format!("hand: {hand:#x} is not a packed set of cards"),
            )
        })?;
        // SAFETY: as above.
        let beat = match unsafe { beat.as_ref() } {
            None => None,
            Some(packed) => match packed.unpack(rules)? {
                m if m.is_pass() => {
                    return Err(Failure::new(
                        DdzStatus::DdzErrCards,
                        "beat: the pass is no play to beat (NULL to lead)",
                    ));
                }
                m => Some(m),
            },
        };
        MOVES.with(|moves| {
            let mut moves = moves.borrow_mut();
            legal_moves_into(hand, beat.as_ref(), rules, &mut moves);
            let count = moves.len();
            if cap > 0 {
                if out.is_null() {
                    return Err(Failure::new(
                        DdzStatus::DdzErrNull,
                        format!("out is NULL but cap is {cap}"),
                    ));
                }
                for (i, m) in moves.iter().take(cap).enumerate() {
                    // SAFETY: out has cap writable moves, i < cap.
                    unsafe { out.add(i).write(DdzMove::of(m)) };
                }
            }
            Ok(i64::try_from(count).unwrap_or(i64::MAX))
        })
    })
}

thread_local! {
    /// The packed generation's move list, kept between calls so that a call allocates nothing.
    static MOVES: std::cell::RefCell<Vec<Move>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// Packs cards written in ddz's notation (`33445`, `BR` the jokers) into `out` as
/// [`DdzMove::cards`] holds them. Returns `DDZ_OK` or a negative status.
///
/// # Safety
/// `cards` is a NUL-terminated string or NULL; `out` NULL or one writable `uint64_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ddz_cards_pack(cards: *const c_char, out: *mut u64) -> c_int {
    guard_status(|| {
        // SAFETY: the caller's contract.
        let cards = cards_of(unsafe { text(cards, "cards") }?, "cards")?;
        // SAFETY: as above.
        let out = unsafe { out.as_mut() }
            .ok_or_else(|| Failure::new(DdzStatus::DdzErrNull, "out is NULL"))?;
        *out = cards.bits();
        Ok(0)
    })
}

/// A packed move in move notation (as [`ddz_legal_moves`] writes it). Returns the length of
/// the text or a negative status.
///
/// # Safety
/// `rules` is NULL or a live rule set; `m` NULL or one readable [`DdzMove`]; `buf` NULL or
/// `len` writable bytes.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ddz_move_text(
    rules: *const DdzRules,
    m: *const DdzMove,
    buf: *mut c_char,
    len: usize,
) -> i64 {
    guard_int(|| {
        // SAFETY: the caller's contract for each pointer.
        let rules = &unsafe { handle(rules, "rules") }?.rules;
        // SAFETY: as above.
        let packed = unsafe { handle(m, "m") }?;
        let text = move_notation(&packed.unpack(rules)?, rules);
        // SAFETY: as above.
        unsafe { crate::write_text(&text, buf, len) }
    })
}

/// Whether the play `a` beats the play `b` (both in move notation; plain cards in `a` take the
/// reading that beats `b` when one does): 1 when it does, 0 when it does not, a negative
/// status when either is no play.
///
/// # Safety
/// `rules` is NULL or a live rule set; `a` and `b` NUL-terminated strings or NULL.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ddz_beats(
    rules: *const DdzRules,
    a: *const c_char,
    b: *const c_char,
) -> c_int {
    guard_status(|| {
        // SAFETY: the caller's contract for each pointer.
        let rules = &unsafe { handle(rules, "rules") }?.rules;
        // SAFETY: as above.
        let b = move_of(unsafe { text(b, "b") }?, rules, None, "b")?;
        // SAFETY: as above.
        let a = unsafe { text(a, "a") }?;
        // Read against `b`, the cards take the reading that beats it; when none does, they
        // must still be a play for the answer to be "no".
        match parse_move(a, rules, Some(&b)) {
            Ok(m) => Ok(i64::from(m.beats(&b, rules))),
            Err(_) => move_of(a, rules, None, "a").map(|_| 0),
        }
    })
}
