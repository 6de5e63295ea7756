//! The SQLite back end (`rusqlite`): one file, one connection.

use std::path::Path;
use std::sync::{Mutex, MutexGuard};

use rusqlite::{Connection, OptionalExtension, Transaction, params};

use super::{
    DbError, FinishedGame, GameSummary, LeasedWrite, Located, MIGRATIONS, RoomWrite, SavedRoom,
    Store, StoredRoom, from_json, json, now, opponent_robot,
};

/// The database's clock in Unix milliseconds, as SQL: leases expire on one clock.
const NOW_MS: &str = "CAST((julianday('now') - 2440587.5) * 86400000.0 AS INTEGER)";

impl From<rusqlite::Error> for DbError {
    fn from(e: rusqlite::Error) -> DbError {
        DbError::new(format!("database: {e}"))
    }
}

/// A SQLite database.
pub(super) struct Sqlite {
    conn: Mutex<Connection>,
}

impl Sqlite {
    /// Opens (or creates, with its directory) the file at `path`, in write-ahead-log mode with
    /// a sync at every commit, and migrates it.
    pub(super) fn open(path: &Path) -> Result<Sqlite, DbError> {
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            std::fs::create_dir_all(dir)
                .map_err(|e| DbError::new(format!("{}: {e}", dir.display())))?;
        }
        let at = |e: rusqlite::Error| DbError::new(format!("{}: {e}", path.display()));
        let conn = Connection::open(path).map_err(at)?;
        conn.busy_timeout(std::time::Duration::from_secs(5))
            .map_err(at)?;
        let mode: String = conn
            .query_row("PRAGMA journal_mode = WAL", [], |r| r.get(0))
            .map_err(at)?;
        if !mode.eq_ignore_ascii_case("wal") {
            return Err(DbError::new(format!(
                "{}: the database cannot keep a write-ahead log (journal mode {mode})",
                path.display()
            )));
        }
        conn.execute_batch("PRAGMA synchronous = FULL")
            .map_err(at)?;
        let store =
            Sqlite::migrated(conn).map_err(|e| DbError::new(format!("{}: {e}", path.display())))?;
        // A database that cannot be written would lose every game: refused now, not at the
        // first action (a file already migrated and in WAL mode opens without one write).
        store
            .lock()?
            .execute_batch("BEGIN IMMEDIATE; CREATE TABLE ddz_write_probe (x INTEGER); ROLLBACK")
            .map_err(|e| {
                DbError::new(format!(
                    "{}: cannot be written ({e}): ddz serve writes every action there",
                    path.display()
                ))
            })?;
        Ok(store)
    }

    /// A database in memory.
    pub(super) fn in_memory() -> Result<Sqlite, DbError> {
        Sqlite::migrated(Connection::open_in_memory()?)
    }

    fn migrated(mut conn: Connection) -> Result<Sqlite, DbError> {
        conn.busy_timeout(std::time::Duration::from_secs(5))?;
        let version: i64 = conn.query_row("PRAGMA user_version", [], |r| r.get(0))?;
        let known = MIGRATIONS.len() as i64;
        if version > known {
            return Err(DbError::new(format!(
                "database: schema version {version} is newer than this ddz knows ({known})"
            )));
        }
        for (i, migration) in MIGRATIONS.iter().enumerate().skip(version as usize) {
            let tx = conn.transaction()?;
            tx.execute_batch(migration)?;
            tx.pragma_update(None, "user_version", i as i64 + 1)?;
            tx.commit()?;
        }
        Ok(Sqlite {
            conn: Mutex::new(conn),
        })
    }

    fn lock(&self) -> Result<MutexGuard<'_, Connection>, DbError> {
        self.conn
            .lock()
            .map_err(|_| DbError::new("database: a writer failed"))
    }
}

impl Store for Sqlite {
    fn version(&self) -> Result<i64, DbError> {
        Ok(self
            .lock()?
            .query_row("PRAGMA user_version", [], |r| r.get(0))?)
    }

    fn save_game(&self, game: &FinishedGame) -> Result<i64, DbError> {
        let mut conn = self.lock()?;
        let tx = conn.transaction()?;
        let id = insert_game(&tx, game)?;
        tx.commit()?;
        Ok(id)
    }

    fn games(&self, before: i64, limit: i64) -> Result<Vec<GameSummary>, DbError> {
        let conn = self.lock()?;
        let mut statement = conn.prepare(
            "SELECT id, room, number, finished_at, rules, seed, winner, scores, players \
             FROM games WHERE id < ?1 ORDER BY id DESC LIMIT ?2",
        )?;
        let rows = statement.query_map(params![before, limit], raw_summary)?;
        let mut games = Vec::new();
        for row in rows {
            games.push(row?.summary()?);
        }
        Ok(games)
    }

    fn game(&self, id: i64) -> Result<Option<(GameSummary, String)>, DbError> {
        let conn = self.lock()?;
        let found = conn
            .query_row(
                "SELECT id, room, number, finished_at, rules, seed, winner, scores, players, \
                 record FROM games WHERE id = ?1",
                params![id],
                |row| Ok((raw_summary(row)?, row.get::<_, String>(9)?)),
            )
            .optional()?;
        found
            .map(|(raw, record)| Ok((raw.summary()?, record)))
            .transpose()
    }

    fn player_games(&self, player: &str) -> Result<Vec<(String, i64, i64)>, DbError> {
        let conn = self.lock()?;
        let mut statement = conn.prepare(
            "SELECT robot, score, game FROM player_games WHERE player = ?1 ORDER BY game",
        )?;
        let rows = statement.query_map(params![player], |row| {
            Ok((row.get(0)?, row.get(1)?, row.get(2)?))
        })?;
        Ok(rows.collect::<Result<Vec<_>, _>>()?)
    }

    fn save_rooms(&self, rooms: &[SavedRoom], owner: &str) -> Result<Vec<String>, DbError> {
        let mut conn = self.lock()?;
        let tx = conn.transaction()?;
        let mut elsewhere = Vec::new();
        for room in rooms {
            let held: Option<String> = tx
                .query_row(
                    &format!(
                        "SELECT owner FROM room_leases WHERE room = ?1 AND owner <> ?2 AND \
                         expires_at >= {NOW_MS}"
                    ),
                    params![room.id, owner],
                    |r| r.get(0),
                )
                .optional()?;
            if held.is_some() {
                elsewhere.push(room.id.clone());
                continue;
            }
            upsert_room(&tx, room)?;
            tx.execute(
                "UPDATE room_leases SET expires_at = 0 WHERE room = ?1 AND owner = ?2",
                params![room.id, owner],
            )?;
        }
        tx.commit()?;
        Ok(elsewhere)
    }

    fn commit(&self, writes: &[&LeasedWrite], owner: &str, ttl_ms: i64) -> Result<(), DbError> {
        let mut conn = self.lock()?;
        let tx = conn.transaction()?;
        for leased in writes {
            let room = leased.write.room_id();
            let held = tx.execute(
                &format!(
                    "UPDATE room_leases SET expires_at = {NOW_MS} + ?1 WHERE room = ?2 AND \
                     owner = ?3 AND epoch = ?4"
                ),
                params![ttl_ms, room, owner, leased.epoch as i64],
            )?;
            if held != 1 {
                return Err(DbError::lease_lost(room));
            }
            match &leased.write {
                RoomWrite::Save { room, finished } => {
                    upsert_room(&tx, room)?;
                    if let Some(game) = finished {
                        insert_game(&tx, game)?;
                    }
                }
                RoomWrite::Append {
                    room,
                    entry,
                    finished,
                } => {
                    tx.execute(
                        "INSERT INTO room_actions (room, entry) VALUES (?1, ?2)",
                        params![room, json(entry)],
                    )?;
                    if let Some(game) = finished {
                        insert_game(&tx, game)?;
                    }
                }
                RoomWrite::Close(id) => {
                    tx.execute("DELETE FROM saved_rooms WHERE id = ?1", params![id])?;
                    tx.execute("DELETE FROM room_actions WHERE room = ?1", params![id])?;
                    tx.execute("DELETE FROM room_leases WHERE room = ?1", params![id])?;
                }
            }
        }
        tx.commit()?;
        Ok(())
    }

    fn rooms(&self, only: Option<&str>) -> Result<Vec<StoredRoom>, DbError> {
        let conn = self.lock()?;
        let mut statement = conn.prepare(
            "SELECT id, players, token_hashes, hint_bot, turn_ms, robot_delay_ms, seeded, game, \
             totals, step, last_event, ready, record, sitting, identities, auto FROM \
             saved_rooms WHERE ?1 IS NULL OR id = ?1 ORDER BY saved_at, id",
        )?;
        let rows = statement.query_map(params![only], |row| {
            RawRoom::read(|i| row.get(i), |i| row.get(i))
        })?;
        let raws = rows.collect::<Result<Vec<_>, _>>()?;
        let mut log_of =
            conn.prepare("SELECT id, entry FROM room_actions WHERE room = ?1 ORDER BY id")?;
        let mut rooms = Vec::new();
        for raw in raws {
            let log = log_of
                .query_map(params![raw.id], |row| Ok((row.get(0)?, row.get(1)?)))?
                .collect::<Result<Vec<_>, _>>()?;
            rooms.push(StoredRoom {
                room: raw.room()?,
                log,
            });
        }
        Ok(rooms)
    }

    fn room_totals(&self, room: &str) -> Result<Option<(u32, String)>, DbError> {
        Ok(self
            .lock()?
            .query_row(
                "SELECT games, totals FROM rooms WHERE id = ?1",
                params![room],
                |r| Ok((r.get(0)?, r.get(1)?)),
            )
            .optional()?)
    }

    fn claim(
        &self,
        room: &str,
        owner: &str,
        ttl_ms: i64,
        own_too: bool,
    ) -> Result<Option<u64>, DbError> {
        // In a transaction of its own: a statement with RETURNING hands its row over before
        // its commit, and a commit that fails (a full disk) would go unseen.
        let mut conn = self.lock()?;
        let tx = conn.transaction()?;
        let epoch: Option<i64> = tx
            .query_row(
                &format!(
                    "INSERT INTO room_leases (room, owner, epoch, expires_at) VALUES (?1, ?2, \
                     1, {NOW_MS} + ?3) ON CONFLICT (room) DO UPDATE SET owner = \
                     excluded.owner, epoch = room_leases.epoch + 1, expires_at = \
                     excluded.expires_at WHERE room_leases.expires_at < {NOW_MS} OR (?4 AND \
                     room_leases.owner = excluded.owner) RETURNING epoch"
                ),
                params![room, owner, ttl_ms, own_too],
                |r| r.get(0),
            )
            .optional()?;
        tx.commit()?;
        Ok(epoch.map(|e| e.max(0) as u64))
    }

    fn claimable(&self, owner: &str, own_too: bool) -> Result<Vec<String>, DbError> {
        let conn = self.lock()?;
        let mut statement = conn.prepare(&format!(
            "SELECT s.id FROM saved_rooms s LEFT JOIN room_leases l ON l.room = s.id WHERE \
             l.room IS NULL OR l.expires_at < {NOW_MS} OR (?2 AND l.owner = ?1) ORDER BY \
             s.saved_at, s.id"
        ))?;
        let rows = statement.query_map(params![owner, own_too], |r| r.get(0))?;
        Ok(rows.collect::<Result<Vec<_>, _>>()?)
    }

    fn renew(&self, owner: &str, ttl_ms: i64) -> Result<u64, DbError> {
        let renewed = self.lock()?.execute(
            &format!(
                "UPDATE room_leases SET expires_at = {NOW_MS} + ?1 WHERE owner = ?2 AND \
                 expires_at > 0"
            ),
            params![ttl_ms, owner],
        )?;
        Ok(renewed as u64)
    }

    fn locate(&self, room: &str) -> Result<Located, DbError> {
        let found: Option<(Option<String>, Option<bool>)> = self
            .lock()?
            .query_row(
                &format!(
                    "SELECT l.owner, l.expires_at >= {NOW_MS} FROM saved_rooms s LEFT JOIN \
                     room_leases l ON l.room = s.id WHERE s.id = ?1"
                ),
                params![room],
                |r| Ok((r.get(0)?, r.get(1)?)),
            )
            .optional()?;
        Ok(match found {
            None => Located::Nowhere,
            Some((Some(owner), Some(true))) => Located::Held { owner },
            Some(_) => Located::Free,
        })
    }
}

/// A row of `games` as read, its JSON columns still text.
pub(super) struct RawSummary {
    pub(super) id: i64,
    pub(super) room: String,
    pub(super) number: i64,
    pub(super) finished_at: i64,
    pub(super) rules: String,
    pub(super) seed: String,
    pub(super) winner: String,
    pub(super) scores: String,
    pub(super) players: String,
}

impl RawSummary {
    /// The summary, its JSON columns parsed.
    pub(super) fn summary(self) -> Result<GameSummary, DbError> {
        Ok(GameSummary {
            id: self.id,
            room: crate::seeds::room_label(&self.room),
            game: u32::try_from(self.number)
                .map_err(|_| DbError::new(format!("database: game {}: number", self.id)))?,
            finished_at: self.finished_at,
            rules: self.rules,
            seed: self.seed,
            winner: self.winner,
            scores: from_json("games.scores", &self.scores)?,
            players: from_json("games.players", &self.players)?,
        })
    }
}

fn raw_summary(row: &rusqlite::Row<'_>) -> rusqlite::Result<RawSummary> {
    Ok(RawSummary {
        id: row.get(0)?,
        room: row.get(1)?,
        number: row.get(2)?,
        finished_at: row.get(3)?,
        rules: row.get(4)?,
        seed: row.get(5)?,
        winner: row.get(6)?,
        scores: row.get(7)?,
        players: row.get(8)?,
    })
}

/// A row of `saved_rooms` as read: its JSON columns (players, token_hashes, totals, ready,
/// record, sitting, identities, auto) still text, its numbers (turn_ms, robot_delay_ms,
/// seeded, game, step, last_event) as stored.
pub(super) struct RawRoom {
    pub(super) id: String,
    pub(super) texts: [String; 8],
    pub(super) hint_bot: String,
    pub(super) numbers: [i64; 6],
}

impl RawRoom {
    /// A row of the rooms' query (its columns in the order of `SELECT id, players,
    /// token_hashes, hint_bot, turn_ms, robot_delay_ms, seeded, game, totals, step,
    /// last_event, ready, record, sitting, identities, auto`), read by column index through
    /// the back end's getters of text and of numbers.
    pub(super) fn read<E>(
        text: impl Fn(usize) -> Result<String, E>,
        number: impl Fn(usize) -> Result<i64, E>,
    ) -> Result<RawRoom, E> {
        Ok(RawRoom {
            id: text(0)?,
            texts: [
                text(1)?,
                text(2)?,
                text(8)?,
                text(11)?,
                text(12)?,
                text(13)?,
                text(14)?,
                text(15)?,
            ],
            hint_bot: text(3)?,
            numbers: [
                number(4)?,
                number(5)?,
                number(6)?,
                number(7)?,
                number(9)?,
                number(10)?,
            ],
        })
    }

    /// The room, its columns parsed and checked.
    pub(super) fn room(self) -> Result<SavedRoom, DbError> {
        let id = self.id;
        let column = |name: &str| format!("room {id}'s {name}");
        let t = &self.texts;
        let [turn_ms, robot_delay_ms, seeded, game, step, last_event] = self.numbers;
        Ok(SavedRoom {
            players: from_json(&column("players"), &t[0])?,
            token_hashes: from_json(&column("token_hashes"), &t[1])?,
            hint_bot: self.hint_bot,
            turn_ms: turn_ms.max(0) as u64,
            robot_delay_ms: robot_delay_ms.max(0) as u64,
            seeded: seeded != 0,
            game: u32::try_from(game)
                .map_err(|_| DbError::new(format!("database: {}", column("game"))))?,
            totals: from_json(&column("totals"), &t[2])?,
            step: step.max(0) as u64,
            last_event: last_event.max(0) as u64,
            ready: from_json(&column("ready"), &t[3])?,
            record: from_json(&column("record"), &t[4])?,
            sitting: from_json(&column("sitting"), &t[5])?,
            identities: from_json(&column("identities"), &t[6])?,
            auto: from_json(&column("auto"), &t[7])?,
            id,
        })
    }
}

/// Inserts a finished game, its players' results and its room's totals; the game's id.
fn insert_game(tx: &Transaction<'_>, game: &FinishedGame) -> Result<i64, DbError> {
    let at = now();
    tx.execute(
        "INSERT INTO games (room, number, finished_at, rules, seed, winner, scores, players, \
         record) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)",
        params![
            game.room,
            game.number,
            at,
            game.rules,
            game.seed.to_string(),
            game.winner,
            json(&game.scores),
            json(&game.players),
            json(&game.record),
        ],
    )?;
    let id = tx.last_insert_rowid();
    let robot = opponent_robot(&game.players);
    for (seat, player) in game.identities.iter().enumerate() {
        if let Some(player) = player {
            tx.execute(
                "INSERT INTO player_games (player, game, seat, robot, score) VALUES (?1, ?2, \
                 ?3, ?4, ?5) ON CONFLICT DO NOTHING",
                params![player, id, seat as i64, robot, game.scores[seat]],
            )?;
        }
    }
    tx.execute(
        "INSERT INTO rooms (id, players, games, totals, updated_at) VALUES (?1, ?2, ?3, ?4, \
         ?5) ON CONFLICT (id) DO UPDATE SET games = excluded.games, totals = \
         excluded.totals, updated_at = excluded.updated_at",
        params![
            game.room,
            json(&game.players),
            game.number,
            json(&game.totals),
            at
        ],
    )?;
    Ok(id)
}

/// Writes a room's row, replacing the one under its id, and empties its log (the row holds
/// every change).
fn upsert_room(tx: &Transaction<'_>, room: &SavedRoom) -> Result<(), DbError> {
    tx.execute("DELETE FROM room_actions WHERE room = ?1", params![room.id])?;
    tx.execute(
        "INSERT OR REPLACE INTO saved_rooms (id, saved_at, players, token_hashes, hint_bot, \
         turn_ms, robot_delay_ms, seeded, game, totals, step, last_event, ready, record, \
         sitting, identities, auto) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, \
         ?12, ?13, ?14, ?15, ?16, ?17)",
        params![
            room.id,
            now(),
            json(&room.players),
            json(&room.token_hashes),
            room.hint_bot,
            room.turn_ms as i64,
            room.robot_delay_ms as i64,
            room.seeded,
            room.game,
            json(&room.totals),
            room.step as i64,
            room.last_event as i64,
            json(&room.ready),
            json(&room.record),
            json(&room.sitting),
            json(&room.identities),
            json(&room.auto),
        ],
    )?;
    Ok(())
}
