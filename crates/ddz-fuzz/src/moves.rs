//! Move notation (`cards`, `cards:kind:main`, `cards=ranks`, `pass`) and the action text of
//! the C ABI and lists (`bid N`, `double N`, `show`, `hide`).

use ddz_core::{Move, Rules, classify, move_notation, parse_move};
use ddz_game::Action;

use crate::common::rule_sets;

/// Reads the first line of `data` (as text) as a move and as an action under every rule set
/// of [`rule_sets`], against the second line's move when it is one. What parses must be one
/// of its cards' readings, and its notation must read back as the same move.
pub fn moves(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    let (play, beat) = match text.split_once('\n') {
        Some((play, beat)) => (play, Some(beat)),
        None => (&*text, None),
    };
    for rules in rule_sets() {
        // A pass on the table is nothing to beat (the lead).
        let beat = beat
            .and_then(|b| parse_move(b, rules, None).ok())
            .filter(|b| !b.is_pass());
        check_move(play, rules, beat.as_ref());
        check_action(play, rules, beat.as_ref());
    }
}

/// A move read under `rules` against `beat`.
fn check_move(text: &str, rules: &Rules, beat: Option<&Move>) {
    let Ok(m) = parse_move(text, rules, beat) else {
        return;
    };
    let written = move_notation(&m, rules);
    let again = parse_move(&written, rules, None);
    assert_eq!(again, Ok(m), "{text:?} read as {m}, written {written:?}");
    if let Some(beat) = beat.filter(|_| !m.is_pass()) {
        assert!(
            m.beats(beat, rules),
            "{text:?} read as {m}, which does not beat {beat}"
        );
        let again = parse_move(&written, rules, Some(beat));
        assert_eq!(
            again,
            Ok(m),
            "{text:?} read as {m} against {beat}, written {written:?}"
        );
    }
    if !m.is_pass() {
        let readings = classify(m.cards(), rules);
        assert!(
            readings.contains(&m),
            "{text:?} read as {m}: not a reading of its cards"
        );
    }
}

/// An action read under `rules` against `beat`: its notation reads back as itself.
fn check_action(text: &str, rules: &Rules, beat: Option<&Move>) {
    let Ok(action) = Action::parse(text, rules, beat) else {
        return;
    };
    let written = action.notation(rules);
    let again = Action::parse(&written, rules, beat);
    assert_eq!(
        again,
        Ok(action),
        "{text:?} read as {action:?}, written {written:?}"
    );
}
