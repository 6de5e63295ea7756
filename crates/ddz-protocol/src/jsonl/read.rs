//! The readers of single `ddz-jsonl/1` fields, shared by every request type's parse: each
//! reads what was sent into its type or says, in the protocol's words, what is wrong.

use core::num::NonZeroU32;

use ddz_core::{Cards, Move, Rank, Rules, parse_cards_in, parse_move};
use ddz_game::{Role, Seat};

use serde::Deserialize;

use super::error::{Field, Problem, ProtocolError, invalid, invalid_key};
use crate::sent::{Sent, json_text};

/// The rule fields of every request but `hello` and `result`.
#[derive(Default, Deserialize)]
#[serde(default)]
pub(super) struct RulesFields {
    pub(super) rules: Sent<String>,
    pub(super) laizi: Sent<Vec<Sent<String>>>,
}

/// A seat, its role and the landlord's seat.
#[derive(Default, Deserialize)]
#[serde(default)]
pub(super) struct SeatFields {
    pub(super) seat: Sent<u64>,
    pub(super) landlord_seat: Sent<u64>,
    pub(super) role: Sent<String>,
}

/// A required string field.
pub(super) fn string(sent: Sent<String>, key: &'static str) -> Result<String, ProtocolError> {
    match sent.present() {
        None => Err(ProtocolError::Missing(Field::Key(key))),
        Some(Ok(s)) => Ok(s),
        Some(Err(text)) => invalid_key(key, Problem::NotString(text)),
    }
}

/// A seat from a number sent in `field` (the text sent when it is not a number).
pub(super) fn seat_value<const N: usize>(
    sent: Result<u64, String>,
    field: Field,
) -> Result<Seat, ProtocolError> {
    let seat = sent
        .as_ref()
        .ok()
        .and_then(|&i| u8::try_from(i).ok())
        .and_then(Seat::of::<N>);
    match (seat, sent) {
        (Some(seat), _) => Ok(seat),
        (None, Ok(n)) => invalid(field, Problem::NotSeat(n.to_string(), N)),
        (None, Err(text)) => invalid(field, Problem::NotSeat(text, N)),
    }
}

/// A required seat field.
pub(super) fn seat<const N: usize>(sent: Sent<u64>, field: Field) -> Result<Seat, ProtocolError> {
    match sent.present() {
        None => Err(ProtocolError::Missing(field)),
        Some(s) => seat_value::<N>(s, field),
    }
}

/// Cards in canonical notation from a string sent in `field`.
pub(super) fn cards_value(
    sent: Result<String, String>,
    field: Field,
    rules: &Rules,
) -> Result<Cards, ProtocolError> {
    match sent {
        Ok(s) => parse_cards_in(&s, rules).or_else(|e| invalid(field, Problem::Cards(e))),
        Err(text) => invalid(field, Problem::NotCardString(text)),
    }
}

/// A required cards field.
pub(super) fn cards(
    sent: Sent<String>,
    key: &'static str,
    rules: &Rules,
) -> Result<Cards, ProtocolError> {
    match sent.present() {
        None => Err(ProtocolError::Missing(Field::Key(key))),
        Some(s) => cards_value(s, Field::Key(key), rules),
    }
}

/// A required array field.
pub(super) fn array<T>(sent: Sent<Vec<T>>, key: &'static str) -> Result<Vec<T>, ProtocolError> {
    match sent.present() {
        None => Err(ProtocolError::Missing(Field::Key(key))),
        Some(Ok(items)) => Ok(items),
        Some(Err(text)) => invalid_key(key, Problem::NotArray(text)),
    }
}

/// An optional positive integer (the stake fields), 1 when absent.
pub(super) fn stake(sent: Sent<NonZeroU32>, key: &'static str) -> Result<u32, ProtocolError> {
    match sent.given() {
        None => Ok(1),
        Some(Ok(n)) => Ok(n.get()),
        Some(Err(text)) => invalid_key(key, Problem::NotPositive(text)),
    }
}

/// The rules of a request: its `rules` profile or the default, with its `laizi` applied;
/// refused when they seat another number of players than `N`.
pub(super) fn request_rules<const N: usize>(
    fields: RulesFields,
    default_rules: &Rules,
) -> Result<Rules, ProtocolError> {
    let rules = match fields.rules.given() {
        None => default_rules.clone(),
        Some(Ok(name)) => match Rules::from_profile_name(&name) {
            Ok(rules) => rules,
            Err(e) => return invalid_key("rules", Problem::UnknownProfile(e)),
        },
        Some(Err(text)) => return invalid_key("rules", Problem::NotProfileName(text)),
    };
    if usize::from(rules.seats) != N {
        let problem = Problem::OtherTable {
            profile: rules.profile.name().to_string(),
            seats: rules.seats,
            read: N,
        };
        return invalid_key("rules", problem);
    }
    let items = match fields.laizi.given() {
        None => return Ok(rules),
        Some(Ok(items)) => items,
        Some(Err(text)) => return invalid_key("laizi", Problem::NotRankArray(text)),
    };
    let ranks = items
        .into_iter()
        .enumerate()
        .map(|(i, item)| {
            let field = Field::Entry("laizi", i);
            let item = item.sent();
            let text = item.as_ref().map(json_text).unwrap_or_default();
            let c = cards_value(item, field, &rules)?;
            match (c.len(), c.lowest()) {
                (1, Some(r)) => Ok(r),
                _ => invalid(field, Problem::NotOneRank(text)),
            }
        })
        .collect::<Result<Vec<Rank>, _>>()?;
    rules
        .with_laizi(&ranks)
        .or_else(|e| invalid_key("laizi", Problem::Laizi(e)))
}

/// A role of a table of `N` seats by its name.
pub(super) fn role_of<const N: usize>(sent: Sent<String>) -> Result<Role, ProtocolError> {
    let role = string(sent, "role")?;
    match role.as_str() {
        "landlord" => Ok(Role::Landlord),
        "landlord_down" => Ok(Role::LandlordDown),
        "landlord_up" if N > 2 => Ok(Role::LandlordUp),
        "landlord_across" if N == 4 => Ok(Role::LandlordAcross),
        _ => invalid_key("role", Problem::UnknownRole(role, N)),
    }
}

/// The request's `seat` and `landlord_seat`, checked against its `role`.
pub(super) fn seat_and_landlord<const N: usize>(
    fields: SeatFields,
) -> Result<(Seat, Seat), ProtocolError> {
    let me = seat::<N>(fields.seat, Field::Key("seat"))?;
    let landlord = seat::<N>(fields.landlord_seat, Field::Key("landlord_seat"))?;
    let given = role_of::<N>(fields.role)?;
    let actual = Role::at::<N>(me, landlord);
    if given != actual {
        let problem = Problem::WrongRole {
            seat: me,
            landlord,
            given,
            actual,
        };
        return invalid_key("role", problem);
    }
    Ok((me, landlord))
}

/// The optional `bottom_cards_unplayed`: at most the kitty's cards (3 at the classic table),
/// in the landlord's own hand.
pub(super) fn kitty(
    sent: Sent<String>,
    (me, landlord): (Seat, Seat),
    hand: Cards,
    rules: &Rules,
) -> Result<Option<Cards>, ProtocolError> {
    let Some(bottom) = sent.given() else {
        return Ok(None);
    };
    let bottom = cards_value(bottom, Field::Key("bottom_cards_unplayed"), rules)?;
    if bottom.len() > rules.kitty_cards() {
        return invalid_key("bottom_cards_unplayed", Problem::KittyTooBig(bottom));
    }
    if me == landlord && !hand.contains(bottom) {
        return invalid_key("bottom_cards_unplayed", Problem::KittyNotInHand(bottom));
    }
    Ok(Some(bottom))
}

/// A move sent in `field`, read against the play it answers.
pub(super) fn move_value(
    text: String,
    field: Field,
    rules: &Rules,
    beat: Option<&Move>,
) -> Result<Move, ProtocolError> {
    parse_move(&text, rules, beat).or_else(|error| invalid(field, Problem::BadMove { text, error }))
}
