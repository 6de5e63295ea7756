//! DouZero's one reading per card set (kwai/DouZero `move_detector.py`), placeholder.

use crate::cards::Cards;
use crate::play::Move;
use crate::rules::Rules;

/// The reading DouZero's move detector gives `cards`.
pub(crate) fn detect(cards: Cards, rules: &Rules) -> Option<Move> {
    crate::classify::default_reading(
        cards,
        &Rules {
            readings: crate::rules::Readings::All,
            ..rules.clone()
        },
    )
}
