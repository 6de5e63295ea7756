//! A room as the database keeps it, written before any client hears of an action and at
//! shutdown, and resumed at the next start ([`Room::save`], [`Room::resume`]): the seats
//! (robots' specs, people's token hashes, auto-play), the room's step and event number, and
//! its sitting as `ddz-sitting/1` ([`ddz_game::SavedSitting`]). Resuming rebuilds the game by
//! replaying the saved actions through the engine ([`Sitting::resume`]); the game's record
//! saved with it must be the replayed game's.

use std::time::Duration;

use ddz_bots::BotSpec;
use ddz_game::{BySeat, GameRecord, SavedSitting, Seat, Sitting};
use serde_json::Value;

use super::Room;
use crate::db::{PlayerId, RoomLogEntry, SavedRoom};

impl Room {
    /// The room as the database keeps it, under its id and with its turn time and robots' pause
    /// (which the room's task keeps).
    pub fn save(&self, id: &str, turn_time: Duration, robot_delay: Duration) -> SavedRoom {
        let totals = self.sitting.totals();
        SavedRoom {
            id: id.to_string(),
            players: Seat::ALL.map(|s| self.robot(s).unwrap_or("human").to_string()),
            token_hashes: self.token_hashes.0.clone(),
            hint_bot: self.hint_bot.as_str().to_string(),
            turn_ms: turn_time.as_millis() as u64,
            robot_delay_ms: robot_delay.as_millis() as u64,
            seeded: self.seeded,
            game: self.number(),
            totals: totals.0,
            step: self.step,
            last_event: self.last_event,
            ready: self.ready.0,
            identities: Seat::ALL.map(|s| self.identity(s).map(|p| p.as_str().to_string())),
            auto: self.auto_play.0,
            record: serde_json::to_value(GameRecord::from_game(self.game())).unwrap_or(Value::Null),
            sitting: serde_json::to_value(self.sitting.save()).unwrap_or(Value::Null),
        }
    }

    /// The room's change to append to its log after an action or a change of its own
    /// ([`crate::db::RoomWrite::Append`]): with the game's latest action when `acted` (a bid,
    /// a play, a show or a doubling), and the room's own state.
    pub fn log_entry(&self, acted: bool) -> RoomLogEntry {
        RoomLogEntry {
            step: self.step,
            last_event: self.last_event,
            ready: self.ready.0,
            auto: self.auto_play.0,
            identities: Seat::ALL.map(|s| self.identity(s).map(|p| p.as_str().to_string())),
            action: acted
                .then(|| self.sitting.last_action())
                .flatten()
                .and_then(|a| serde_json::to_value(a).ok()),
        }
    }

    /// A saved room, resumed: its game rebuilt from the saved actions, its seats' tokens
    /// checked against the saved hashes, every seat disconnected, the step and event numbers
    /// going on from the saved ones (no events are kept: a connection that rejoins gets the
    /// whole state with `resync`). Refused with what is wrong (a robot that does not build, a
    /// sitting that does not replay, a record other than the replayed game's when the room
    /// has one).
    pub fn resume(saved: &SavedRoom) -> Result<Room, String> {
        let spec = |name: &str| BotSpec::parse(name).map_err(|e| format!("robot \"{name}\": {e}"));
        let mut robots = BySeat([None, None, None]);
        for (seat, player) in Seat::ALL.into_iter().zip(&saved.players) {
            let hash = &saved.token_hashes[seat.index()];
            robots[seat] = match (player.as_str(), hash) {
                ("human", Some(hash))
                    if hash.len() == 64 && hash.bytes().all(|b| b.is_ascii_hexdigit()) =>
                {
                    None
                }
                ("human", _) => {
                    return Err(format!(
                        "seat {seat}: a person's seat without a token hash (64 hex digits)"
                    ));
                }
                (robot, None) => Some(spec(robot)?),
                (_, Some(_)) => return Err(format!("seat {seat}: a robot's seat with a token")),
            };
        }
        let sitting: SavedSitting = serde_json::from_value(saved.sitting.clone())
            .map_err(|e| format!("sitting: not ddz-sitting/1: {e}"))?;
        let sitting = Sitting::resume(&sitting).map_err(|e| format!("sitting: {e}"))?;
        if sitting.number() != saved.game {
            return Err(format!(
                "sitting: game {}, but the room was at game {}",
                sitting.number(),
                saved.game
            ));
        }
        let record = serde_json::to_value(GameRecord::from_game(sitting.game()))
            .map_err(|e| format!("record: {e}"))?;
        // A room resumed from its row and log has no record to check (null): the sitting
        // holds every action.
        if !saved.record.is_null() && record != saved.record {
            return Err("record: the saved record is not the replayed game's".into());
        }
        let mut identities = BySeat([None, None, None]);
        for seat in Seat::ALL {
            let saved_identity = saved.identities[seat.index()].as_deref();
            identities[seat] = match saved_identity.map(|text| (text, PlayerId::parse(text))) {
                None => None,
                Some((_, Some(player))) if robots[seat].is_none() => Some(player),
                Some((text, _)) => {
                    return Err(format!(
                        "seat {seat}: {text:?} is not a person's browser identity (32 hex digits)"
                    ));
                }
            };
        }
        // Only people's seats play on auto.
        let auto_play = BySeat::from_fn(|s| saved.auto[s.index()] && robots[s].is_none());
        Ok(Room {
            robots,
            tokens: BySeat([None, None, None]),
            token_hashes: BySeat(saved.token_hashes.clone()),
            identities,
            hint_bot: spec(&saved.hint_bot)?,
            seeded: saved.seeded,
            sitting,
            ready: BySeat(saved.ready),
            connected: BySeat([false; 3]),
            auto_play,
            step: saved.step,
            events: Default::default(),
            last_event: saved.last_event,
        })
    }
}
