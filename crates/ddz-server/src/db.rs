//! The games database (SQLite, through `rusqlite`): every finished game's record, result and
//! players, and each room's running totals; read back by `GET /v1/games` and `GET
//! /v1/games/{id}`, and each browser identity's results against each robot
//! ([`Database::player_results`], `GET /v1/players/{id}/results`). The rooms open at a shutdown are saved here ([`SavedRoom`]) and taken
//! back at the next start. The schema is made by numbered migrations (SQLite's `user_version` says
//! which have run); every statement is a constant with bound parameters.
//!
//! ```
//! use ddz_server::db::{Database, FinishedGame, PlayerId};
//!
//! let db = Database::in_memory().unwrap();
//! let player = PlayerId::parse("0123456789abcdef0123456789abcdef").unwrap();
//! let game = FinishedGame {
//!     room: "r1".into(),
//!     number: 1,
//!     rules: "classic".into(),
//!     seed: 18446744073709551615,
//!     winner: "landlord".into(),
//!     scores: [2, -1, -1],
//!     players: ["human".into(), "level:3".into(), "level:3".into()],
//!     identities: [Some(player.as_str().into()), None, None],
//!     totals: [2, -1, -1],
//!     record: serde_json::json!({"format": "ddz-record/1"}),
//! };
//! let id = db.save_game(&game).unwrap();
//! let page = db.games(None, 10).unwrap();
//! assert_eq!(page.games[0].id, id);
//! assert_eq!(db.game(id).unwrap().unwrap().record["format"], "ddz-record/1");
//! let results = db.player_results(&player).unwrap();
//! assert_eq!((results.robots[0].robot.as_str(), results.robots[0].wins), ("level:3", 1));
//! ```

use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::{SystemTime, UNIX_EPOCH};

use rusqlite::{Connection, OptionalExtension, params};
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// The migrations, in order: migration `n` (1-based) brings the schema to version `n`.
const MIGRATIONS: &[&str] = &[
    "
    CREATE TABLE games (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        room TEXT NOT NULL,
        number INTEGER NOT NULL,
        finished_at INTEGER NOT NULL,
        rules TEXT NOT NULL,
        seed TEXT NOT NULL,
        winner TEXT NOT NULL,
        scores TEXT NOT NULL,
        players TEXT NOT NULL,
        record TEXT NOT NULL
    );
    CREATE INDEX games_room ON games (room, number);
    CREATE TABLE rooms (
        id TEXT PRIMARY KEY,
        players TEXT NOT NULL,
        games INTEGER NOT NULL,
        totals TEXT NOT NULL,
        updated_at INTEGER NOT NULL
    );
",
    "
    CREATE TABLE saved_rooms (
        id TEXT PRIMARY KEY,
        saved_at INTEGER NOT NULL,
        players TEXT NOT NULL,
        token_hashes TEXT NOT NULL,
        hint_bot TEXT NOT NULL,
        turn_ms INTEGER NOT NULL,
        robot_delay_ms INTEGER NOT NULL,
        seeded INTEGER NOT NULL,
        game INTEGER NOT NULL,
        totals TEXT NOT NULL,
        step INTEGER NOT NULL,
        last_event INTEGER NOT NULL,
        ready TEXT NOT NULL,
        record TEXT NOT NULL,
        sitting TEXT NOT NULL
    );
",
    "
    ALTER TABLE saved_rooms ADD COLUMN identities TEXT NOT NULL DEFAULT '[null,null,null]';
    CREATE TABLE player_games (
        player TEXT NOT NULL,
        game INTEGER NOT NULL REFERENCES games (id),
        seat INTEGER NOT NULL,
        robot TEXT NOT NULL,
        score INTEGER NOT NULL,
        PRIMARY KEY (player, game, seat)
    );
",
    "
    ALTER TABLE saved_rooms ADD COLUMN auto TEXT NOT NULL DEFAULT '[false,false,false]';
    CREATE TABLE room_actions (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        room TEXT NOT NULL,
        entry TEXT NOT NULL
    );
    CREATE INDEX room_actions_room ON room_actions (room, id);
",
];

/// What went wrong with the database.
#[derive(Debug)]
pub struct DbError(pub String);

impl std::fmt::Display for DbError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for DbError {}

impl From<rusqlite::Error> for DbError {
    fn from(e: rusqlite::Error) -> DbError {
        DbError(format!("database: {e}"))
    }
}

/// A finished game, as it is saved.
#[derive(Clone, Debug, PartialEq)]
pub struct FinishedGame {
    /// The room's id.
    pub room: String,
    /// The game's number in the room (1-based).
    pub number: u32,
    /// The rule profile's name.
    pub rules: String,
    /// The game's seed.
    pub seed: u64,
    /// `landlord` or `farmers`.
    pub winner: String,
    /// Each seat's score.
    pub scores: [i64; 3],
    /// Each seat's player: `human` or the robot's spec.
    pub players: [String; 3],
    /// The browser identity of each person's seat that gave one when joining ([`PlayerId`]);
    /// none for a robot or a person who gave none.
    pub identities: [Option<String>; 3],
    /// The room's running totals after the game.
    pub totals: [i64; 3],
    /// The game record (`ddz-record/1`).
    pub record: Value,
}

/// A game in a list: everything but the record.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GameSummary {
    /// The game's id in the database.
    pub id: i64,
    /// The room's label ([`crate::seeds::room_label`]: not its id, which would let anyone
    /// watch a room still open).
    pub room: String,
    /// The game's number in the room.
    pub game: u32,
    /// When it finished (Unix seconds).
    pub finished_at: i64,
    /// The rule profile's name.
    pub rules: String,
    /// The seed, as decimal text (64 bits do not fit a JavaScript number).
    pub seed: String,
    /// `landlord` or `farmers`.
    pub winner: String,
    /// Each seat's score.
    pub scores: [i64; 3],
    /// Each seat's player: `human` or the robot's spec.
    pub players: [String; 3],
}

/// A page of games, newest first, and the `before` of the next page (none after the last).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GamePage {
    /// The games.
    pub games: Vec<GameSummary>,
    /// Pass as `?before=` for the next page; null on the last.
    pub next: Option<i64>,
}

/// A stored game with its record.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct StoredGame {
    /// The game, as listed.
    #[serde(flatten)]
    pub summary: GameSummary,
    /// The game record (`ddz-record/1`).
    pub record: Value,
}

/// A browser identity: 32 hex digits the page draws once and keeps (no account: whoever
/// holds it sees its results). Checked and lowercased by [`PlayerId::parse`].
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct PlayerId(String);

impl PlayerId {
    /// The identity in `text`, lowercased, when it is 32 hex digits.
    pub fn parse(text: &str) -> Option<PlayerId> {
        (text.len() == 32 && text.bytes().all(|b| b.is_ascii_hexdigit()))
            .then(|| PlayerId(text.to_ascii_lowercase()))
    }

    /// The identity as text.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

/// A player's results against one robot: the games in which every robot seat was that robot.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RobotResults {
    /// The robot's spec (`level:3`), `mixed` for games against different robots, `none` for
    /// games among people.
    pub robot: String,
    /// Games finished.
    pub games: u32,
    /// Games won (a positive score).
    pub wins: u32,
    /// Games lost (a negative score).
    pub losses: u32,
    /// The sum of the scores.
    pub points: i64,
    /// The wins in a row in the latest games against this robot (0 after a loss).
    pub streak: u32,
    /// The id of the latest game against this robot.
    pub latest_game: i64,
}

/// A player's results, robot by robot, the most recently played first.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlayerResults {
    /// The browser identity.
    pub player: String,
    /// The results against each robot played, the latest played first.
    pub robots: Vec<RobotResults>,
}

/// The robot a game was played against, as [`RobotResults::robot`] names it.
fn opponent_robot(players: &[String; 3]) -> String {
    let mut robots = players.iter().filter(|p| *p != "human");
    match robots.next() {
        None => "none".into(),
        Some(first) if robots.all(|r| r == first) => first.clone(),
        Some(_) => "mixed".into(),
    }
}

/// A room in progress, as the database keeps it while it is open (table `saved_rooms`): its
/// settings, its seats' token hashes, where its sitting stands (the seed and the actions of
/// the current game) and the current game's record so far. Written before any client is told
/// of an action ([`RoomWrite`], through [`crate::journal::Journal`]) and at shutdown; read back
/// at the next start to resume the room.
#[derive(Clone, Debug, PartialEq)]
pub struct SavedRoom {
    /// The room's id.
    pub id: String,
    /// Each seat's player: `human` or the robot's spec.
    pub players: [String; 3],
    /// Each person's seat token as its SHA-256 in hex ([`crate::seeds::token_hash`]); none
    /// for a robot.
    pub token_hashes: [Option<String>; 3],
    /// The robot that gives hints and plays for a person whose time ran out.
    pub hint_bot: String,
    /// A person's time for a turn, in milliseconds (0: no timer).
    pub turn_ms: u64,
    /// The pause before a robot acts, in milliseconds.
    pub robot_delay_ms: u64,
    /// Whether the games follow the seed the room was created with.
    pub seeded: bool,
    /// The current game's number (1-based).
    pub game: u32,
    /// The running totals (the current game counted once it is over).
    pub totals: [i64; 3],
    /// The room's step (actions taken so far): the step of the next action.
    pub step: u64,
    /// The number of the room's latest event.
    pub last_event: u64,
    /// The seats ready for the next game (after game over).
    pub ready: [bool; 3],
    /// The browser identity of each person's seat, as in [`FinishedGame::identities`].
    pub identities: [Option<String>; 3],
    /// The people's seats on auto-play (托管): the hint robot plays their turns.
    pub auto: [bool; 3],
    /// The current game's record so far (`ddz-record/1` or `/2`, a result once over).
    pub record: Value,
    /// The sitting (`ddz-sitting/1`: [`ddz_game::SavedSitting`]): what the room's game is
    /// rebuilt from.
    pub sitting: Value,
}

/// One room's write, committed before any client is told of what it records
/// ([`Database::commit`]).
#[derive(Clone, Debug, PartialEq)]
pub enum RoomWrite {
    /// The room's whole state (at its creation and whenever a game is dealt): its row in
    /// `saved_rooms`, its log emptied.
    Save {
        /// The room's state.
        room: Box<SavedRoom>,
        /// The game just finished, saved in the same transaction.
        finished: Option<Box<FinishedGame>>,
    },
    /// One change appended to the room's log (table `room_actions`): what most actions
    /// write, a few hundred bytes instead of the whole state.
    Append {
        /// The room's id.
        room: String,
        /// The change.
        entry: RoomLogEntry,
        /// The game the change finished, saved in the same transaction.
        finished: Option<Box<FinishedGame>>,
    },
    /// The room closed (idle): its row and its log go.
    Close(String),
}

/// A change of a room since its row was written (table `room_actions`, in order): the game's
/// action it took, if any (as `ddz-sitting/1` writes it: [`ddz_game::SavedAction`]), and the
/// room's own state after it. Applied to the row by [`SavedRoom::apply`].
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RoomLogEntry {
    /// The room's step after the change.
    pub step: u64,
    /// The number of the room's latest event after the change.
    pub last_event: u64,
    /// The seats ready for the next game.
    pub ready: [bool; 3],
    /// The seats on auto-play.
    pub auto: [bool; 3],
    /// The people's browser identities.
    pub identities: [Option<String>; 3],
    /// The game's action the change took (a bid, a play, ...), none for the room's own
    /// changes (ready, auto-play).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub action: Option<Value>,
}

impl SavedRoom {
    /// The room after `entry`: the action appended to the sitting's, the room's own state
    /// taken from it. The record is then left out (null: the resumed room rebuilds it from
    /// the sitting, which holds every action).
    pub fn apply(&mut self, entry: &RoomLogEntry) {
        if let Some(action) = &entry.action {
            if let Some(actions) = self
                .sitting
                .get_mut("actions")
                .and_then(Value::as_array_mut)
            {
                actions.push(action.clone());
            }
            self.record = Value::Null;
        }
        self.step = entry.step;
        self.last_event = entry.last_event;
        self.ready = entry.ready;
        self.auto = entry.auto;
        self.identities = entry.identities.clone();
    }
}

/// The games database: one connection, used by one caller at a time.
pub struct Database {
    conn: Mutex<Connection>,
    path: Option<PathBuf>,
}

impl std::fmt::Debug for Database {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Database")
            .field("path", &self.path)
            .finish()
    }
}

/// Where the database lives by default: `ddz/games.sqlite3` under the user's data directory
/// (`$XDG_DATA_HOME`, else `~/.local/share`; `%APPDATA%` on Windows); none when there is no
/// such directory.
pub fn default_path() -> Option<PathBuf> {
    let var = |name: &str| std::env::var_os(name).filter(|v| !v.is_empty());
    let base = var("XDG_DATA_HOME")
        .map(PathBuf::from)
        .or_else(|| var("HOME").map(|h| Path::new(&h).join(".local").join("share")))
        .or_else(|| var("APPDATA").map(PathBuf::from))?;
    Some(base.join("ddz").join("games.sqlite3"))
}

fn now() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs() as i64)
}

impl Database {
    /// Opens (or creates, with its directory) the database at `path` and runs the migrations
    /// it lacks. The file is in write-ahead-log mode with a sync at every commit
    /// (`synchronous = FULL`): a committed action survives a crash of the process and a power
    /// cut, and readers never wait for the writer.
    pub fn open(path: &Path) -> Result<Database, DbError> {
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            std::fs::create_dir_all(dir).map_err(|e| DbError(format!("{}: {e}", dir.display())))?;
        }
        let at = |e: rusqlite::Error| DbError(format!("{}: {e}", path.display()));
        let conn = Connection::open(path).map_err(at)?;
        conn.busy_timeout(std::time::Duration::from_secs(5))
            .map_err(at)?;
        let mode: String = conn
            .query_row("PRAGMA journal_mode = WAL", [], |r| r.get(0))
            .map_err(at)?;
        if !mode.eq_ignore_ascii_case("wal") {
            return Err(DbError(format!(
                "{}: the database cannot keep a write-ahead log (journal mode {mode})",
                path.display()
            )));
        }
        conn.execute_batch("PRAGMA synchronous = FULL")
            .map_err(at)?;
        Database::with(conn, Some(path.to_path_buf()))
    }

    /// A database in memory (tests).
    pub fn in_memory() -> Result<Database, DbError> {
        Database::with(Connection::open_in_memory()?, None)
    }

    fn with(mut conn: Connection, path: Option<PathBuf>) -> Result<Database, DbError> {
        conn.busy_timeout(std::time::Duration::from_secs(5))?;
        let version: i64 = conn.query_row("PRAGMA user_version", [], |r| r.get(0))?;
        let known = MIGRATIONS.len() as i64;
        if version > known {
            return Err(DbError(format!(
                "database: schema version {version} is newer than this ddz knows ({known})"
            )));
        }
        for (i, migration) in MIGRATIONS.iter().enumerate().skip(version as usize) {
            let tx = conn.transaction()?;
            tx.execute_batch(migration)?;
            tx.pragma_update(None, "user_version", i as i64 + 1)?;
            tx.commit()?;
        }
        Ok(Database {
            conn: Mutex::new(conn),
            path,
        })
    }

    /// The schema version (the number of migrations run).
    pub fn version(&self) -> Result<i64, DbError> {
        let conn = self.lock()?;
        Ok(conn.query_row("PRAGMA user_version", [], |r| r.get(0))?)
    }

    fn lock(&self) -> Result<std::sync::MutexGuard<'_, Connection>, DbError> {
        self.conn
            .lock()
            .map_err(|_| DbError("database: a writer failed".into()))
    }

    /// Saves a finished game and its room's totals; the game's id.
    pub fn save_game(&self, game: &FinishedGame) -> Result<i64, DbError> {
        let mut conn = self.lock()?;
        let tx = conn.transaction()?;
        let id = insert_game(&tx, game)?;
        tx.commit()?;
        Ok(id)
    }

    /// Up to `limit` games with ids below `before` (all when none), newest first.
    pub fn games(&self, before: Option<i64>, limit: u32) -> Result<GamePage, DbError> {
        let conn = self.lock()?;
        let mut statement = conn.prepare(
            "SELECT id, room, number, finished_at, rules, seed, winner, scores, players \
             FROM games WHERE id < ?1 ORDER BY id DESC LIMIT ?2",
        )?;
        let rows = statement.query_map(
            params![before.unwrap_or(i64::MAX), i64::from(limit) + 1],
            summary,
        )?;
        let mut games = rows.collect::<Result<Vec<_>, _>>()?;
        let next = if games.len() > limit as usize {
            games.truncate(limit as usize);
            games.last().map(|g| g.id)
        } else {
            None
        };
        Ok(GamePage { games, next })
    }

    /// The game with this id, with its record.
    pub fn game(&self, id: i64) -> Result<Option<StoredGame>, DbError> {
        let conn = self.lock()?;
        let found = conn
            .query_row(
                "SELECT id, room, number, finished_at, rules, seed, winner, scores, players, \
                 record FROM games WHERE id = ?1",
                params![id],
                |row| {
                    let record: String = row.get(9)?;
                    Ok((summary(row)?, record))
                },
            )
            .optional()?;
        found
            .map(|(summary, record)| {
                let record = serde_json::from_str(&record)
                    .map_err(|e| DbError(format!("database: game {id}'s record: {e}")))?;
                Ok(StoredGame { summary, record })
            })
            .transpose()
    }

    /// A player's results against each robot, from every game saved with its identity.
    pub fn player_results(&self, player: &PlayerId) -> Result<PlayerResults, DbError> {
        let conn = self.lock()?;
        let mut statement = conn.prepare(
            "SELECT robot, score, game FROM player_games WHERE player = ?1 ORDER BY game",
        )?;
        let rows = statement.query_map(params![player.as_str()], |row| {
            Ok((
                row.get::<_, String>(0)?,
                row.get::<_, i64>(1)?,
                row.get::<_, i64>(2)?,
            ))
        })?;
        let mut robots: Vec<RobotResults> = Vec::new();
        for row in rows {
            let (robot, score, game) = row?;
            let index = match robots.iter().position(|r| r.robot == robot) {
                Some(i) => i,
                None => {
                    robots.push(RobotResults {
                        robot,
                        games: 0,
                        wins: 0,
                        losses: 0,
                        points: 0,
                        streak: 0,
                        latest_game: game,
                    });
                    robots.len() - 1
                }
            };
            let r = &mut robots[index];
            r.games += 1;
            r.points += score;
            r.latest_game = game;
            if score > 0 {
                r.wins += 1;
                r.streak += 1;
            } else {
                r.losses += u32::from(score < 0);
                r.streak = 0;
            }
        }
        robots.sort_by_key(|r| std::cmp::Reverse(r.latest_game));
        Ok(PlayerResults {
            player: player.as_str().to_string(),
            robots,
        })
    }

    /// Saves rooms in progress (at shutdown), replacing any saved under the same ids.
    pub fn save_rooms(&self, rooms: &[SavedRoom]) -> Result<(), DbError> {
        let mut conn = self.lock()?;
        let tx = conn.transaction()?;
        for room in rooms {
            upsert_room(&tx, room)?;
        }
        tx.commit()?;
        Ok(())
    }

    /// Commits the writes of rooms in one transaction (all or none): each room's state, with
    /// the game it just finished, or a closed room's row deleted.
    pub fn commit<'a>(
        &self,
        writes: impl IntoIterator<Item = &'a RoomWrite>,
    ) -> Result<(), DbError> {
        let mut conn = self.lock()?;
        let tx = conn.transaction()?;
        for write in writes {
            match write {
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
                }
            }
        }
        tx.commit()?;
        Ok(())
    }

    /// The rooms open at the last stop (at start), the oldest first, each with the changes
    /// of its log applied ([`SavedRoom::apply`]). They stay in the database while they are
    /// open: a room's row goes only when it closes ([`RoomWrite::Close`]).
    pub fn open_rooms(&self) -> Result<Vec<SavedRoom>, DbError> {
        let mut rooms = self.room_rows()?;
        let conn = self.lock()?;
        let mut statement =
            conn.prepare("SELECT id, entry FROM room_actions WHERE room = ?1 ORDER BY id")?;
        for room in &mut rooms {
            let rows = statement.query_map(params![room.id], |row| {
                Ok((row.get::<_, i64>(0)?, row.get::<_, String>(1)?))
            })?;
            for row in rows {
                let (id, text) = row?;
                let entry: RoomLogEntry = serde_json::from_str(&text).map_err(|e| {
                    DbError(format!("database: room {}'s log, entry {id}: {e}", room.id))
                })?;
                room.apply(&entry);
            }
        }
        Ok(rooms)
    }

    /// The rows of `saved_rooms`, as written.
    fn room_rows(&self) -> Result<Vec<SavedRoom>, DbError> {
        let conn = self.lock()?;
        let mut statement = conn.prepare(
            "SELECT id, players, token_hashes, hint_bot, turn_ms, robot_delay_ms, seeded, game, \
             totals, step, last_event, ready, record, sitting, identities, auto FROM \
             saved_rooms ORDER BY saved_at, id",
        )?;
        let rows = statement.query_map([], |row| {
            Ok(SavedRoom {
                id: row.get(0)?,
                players: parse(1, row.get(1)?)?,
                token_hashes: parse(2, row.get(2)?)?,
                hint_bot: row.get(3)?,
                turn_ms: row.get::<_, i64>(4)?.max(0) as u64,
                robot_delay_ms: row.get::<_, i64>(5)?.max(0) as u64,
                seeded: row.get(6)?,
                game: row.get(7)?,
                totals: parse(8, row.get(8)?)?,
                step: row.get::<_, i64>(9)?.max(0) as u64,
                last_event: row.get::<_, i64>(10)?.max(0) as u64,
                ready: parse(11, row.get(11)?)?,
                record: parse(12, row.get(12)?)?,
                sitting: parse(13, row.get(13)?)?,
                identities: parse(14, row.get(14)?)?,
                auto: parse(15, row.get(15)?)?,
            })
        })?;
        Ok(rows.collect::<Result<Vec<_>, _>>()?)
    }

    /// A room's games so far and running totals, when it finished one.
    pub fn room_totals(&self, room: &str) -> Result<Option<(u32, [i64; 3])>, DbError> {
        let conn = self.lock()?;
        let found: Option<(u32, String)> = conn
            .query_row(
                "SELECT games, totals FROM rooms WHERE id = ?1",
                params![room],
                |r| Ok((r.get(0)?, r.get(1)?)),
            )
            .optional()?;
        found
            .map(|(games, totals)| {
                serde_json::from_str(&totals)
                    .map(|t| (games, t))
                    .map_err(|e| DbError(format!("database: room {room}'s totals: {e}")))
            })
            .transpose()
    }
}

/// Inserts a finished game, its players' results and its room's totals; the game's id.
fn insert_game(tx: &rusqlite::Transaction<'_>, game: &FinishedGame) -> Result<i64, DbError> {
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
                "INSERT OR IGNORE INTO player_games (player, game, seat, robot, score) \
                 VALUES (?1, ?2, ?3, ?4, ?5)",
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
fn upsert_room(tx: &rusqlite::Transaction<'_>, room: &SavedRoom) -> Result<(), DbError> {
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

/// A JSON column read back.
fn parse<T: serde::de::DeserializeOwned>(i: usize, text: String) -> rusqlite::Result<T> {
    serde_json::from_str(&text).map_err(|e| {
        rusqlite::Error::FromSqlConversionFailure(i, rusqlite::types::Type::Text, Box::new(e))
    })
}

/// A row of `games` (its first nine columns) as a summary.
fn summary(row: &rusqlite::Row<'_>) -> rusqlite::Result<GameSummary> {
    Ok(GameSummary {
        id: row.get(0)?,
        room: crate::seeds::room_label(&row.get::<_, String>(1)?),
        game: row.get(2)?,
        finished_at: row.get(3)?,
        rules: row.get(4)?,
        seed: row.get(5)?,
        winner: row.get(6)?,
        scores: parse(7, row.get(7)?)?,
        players: parse(8, row.get(8)?)?,
    })
}

/// A value as JSON text.
fn json(value: &impl Serialize) -> String {
    serde_json::to_string(value).unwrap_or_else(|_| "null".into())
}
