//! The games database: every finished game's record, result and players, and each room's
//! running totals; read back by `GET /v1/games` and `GET /v1/games/{id}`, and each browser
//! identity's results against each robot ([`Database::player_results`], `GET
//! /v1/players/{id}/results`). Every open room is kept here as it plays ([`SavedRoom`],
//! [`RoomWrite`]) and taken back at the next start.
//!
//! Two back ends hold the same tables, made by the same numbered migrations: SQLite (a file,
//! through `rusqlite`: the embedded default, [`Database::open`]) and PostgreSQL (through
//! `postgres`, the blocking client of tokio-postgres: [`Database::connect`]), on which several
//! `ddz serve` instances share one database. Each open room is then run by one instance: the
//! holder of the room's **lease** (table `room_leases`: its owner, an epoch raised at every
//! claim, and when it expires, on the database's clock). Every write of a room renews its
//! lease and is **fenced** by it: it commits only while the writer still holds the lease at
//! the epoch it claimed ([`DbError::is_lease_lost`] otherwise), so no room is ever written by
//! two instances. The lease's owner is the instance's advertised URL
//! ([`Database::with_owner`]), which tells a client where its room is run.
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

mod postgres;
mod sqlite;

use std::path::{Path, PathBuf};
use std::time::Duration;

use serde::{Deserialize, Serialize};
use serde_json::Value;

/// The migrations, in order: migration `n` (1-based) brings the schema to version `n`. They
/// are written for SQLite; PostgreSQL runs the same text with its integer types
/// (`postgres::dialect`): the two back ends have the same tables, columns and versions.
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
    "
    CREATE TABLE room_leases (
        room TEXT PRIMARY KEY,
        owner TEXT NOT NULL,
        epoch INTEGER NOT NULL,
        expires_at INTEGER NOT NULL
    );
    CREATE INDEX room_leases_owner ON room_leases (owner);
",
];

/// The lease owner of an instance that gave no URL to advertise: a single instance on its
/// own database (SQLite's case).
pub const LOCAL_OWNER: &str = "local";

/// How long a lease lasts unless renewed, by default.
pub const DEFAULT_LEASE: Duration = Duration::from_secs(10);

/// What went wrong with the database.
#[derive(Debug)]
pub struct DbError {
    message: String,
    lease_lost: bool,
}

impl DbError {
    /// An error with this message.
    pub fn new(message: impl Into<String>) -> DbError {
        DbError {
            message: message.into(),
            lease_lost: false,
        }
    }

    /// A write of `room` refused: this instance no longer holds the room's lease.
    fn lease_lost(room: &str) -> DbError {
        DbError {
            message: format!(
                "room {room}: another instance holds its lease now (the write is refused)"
            ),
            lease_lost: true,
        }
    }

    /// Whether the write was refused because another instance holds the room's lease now:
    /// the room must stop here (it is run elsewhere), not retry.
    pub fn is_lease_lost(&self) -> bool {
        self.lease_lost
    }
}

impl std::fmt::Display for DbError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for DbError {}

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
    /// The room closed (idle): its row, its log and its lease go.
    Close(String),
}

impl RoomWrite {
    /// The id of the room written.
    pub fn room_id(&self) -> &str {
        match self {
            RoomWrite::Save { room, .. } => &room.id,
            RoomWrite::Append { room, .. } | RoomWrite::Close(room) => room,
        }
    }
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

/// A write with the epoch of the room's lease it is made under ([`Database::claim`]).
#[derive(Clone, Debug, PartialEq)]
pub struct LeasedWrite {
    /// The epoch of the writer's lease on the room.
    pub epoch: u64,
    /// The write.
    pub write: RoomWrite,
}

/// Where an open room is run, as the database knows ([`Database::locate`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Located {
    /// No open room has this id.
    Nowhere,
    /// The room is open and no live lease holds it (never leased, released, or expired):
    /// whoever claims it first runs it.
    Free,
    /// The room is run by the holder of a live lease.
    Held {
        /// The lease's owner: the URL its instance advertises (or [`LOCAL_OWNER`]).
        owner: String,
    },
}

/// A room's row as a back end reads it, and the entries of its log.
struct StoredRoom {
    room: SavedRoom,
    log: Vec<(i64, String)>,
}

/// What each back end does; [`Database`] adds what is common (parsing, aggregating).
trait Store: Send + Sync {
    fn version(&self) -> Result<i64, DbError>;
    fn save_game(&self, game: &FinishedGame) -> Result<i64, DbError>;
    /// Up to `limit` games with ids below `before`, newest first.
    fn games(&self, before: i64, limit: i64) -> Result<Vec<GameSummary>, DbError>;
    /// A game and its record's text.
    fn game(&self, id: i64) -> Result<Option<(GameSummary, String)>, DbError>;
    /// A player's games: (robot, score, game id), by game id.
    fn player_games(&self, player: &str) -> Result<Vec<(String, i64, i64)>, DbError>;
    /// Writes rooms not leased by another owner, releases `owner`'s leases on them; the ids
    /// of those leased by another (not written).
    fn save_rooms(&self, rooms: &[SavedRoom], owner: &str) -> Result<Vec<String>, DbError>;
    fn commit(&self, writes: &[&LeasedWrite], owner: &str, ttl_ms: i64) -> Result<(), DbError>;
    /// The open rooms (or the one with this id), the oldest first, with their logs.
    fn rooms(&self, only: Option<&str>) -> Result<Vec<StoredRoom>, DbError>;
    fn room_totals(&self, room: &str) -> Result<Option<(u32, String)>, DbError>;
    fn claim(
        &self,
        room: &str,
        owner: &str,
        ttl_ms: i64,
        own_too: bool,
    ) -> Result<Option<u64>, DbError>;
    fn claimable(&self, owner: &str, own_too: bool) -> Result<Vec<String>, DbError>;
    fn renew(&self, owner: &str, ttl_ms: i64) -> Result<u64, DbError>;
    fn locate(&self, room: &str) -> Result<Located, DbError>;
}

/// The games database, on SQLite or PostgreSQL; one connection, used by one caller at a
/// time; every call blocks (call it off the async workers).
pub struct Database {
    store: Box<dyn Store>,
    /// Where it is: the file, or the server's address (no password).
    place: String,
    owner: String,
    lease: Duration,
}

impl std::fmt::Debug for Database {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Database")
            .field("place", &self.place)
            .field("owner", &self.owner)
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

impl Database {
    /// Opens (or creates, with its directory) the SQLite database at `path` and runs the
    /// migrations it lacks. The file is in write-ahead-log mode with a sync at every commit
    /// (`synchronous = FULL`): a committed action survives a crash of the process and a power
    /// cut, and readers never wait for the writer. Its lease owner is [`LOCAL_OWNER`].
    pub fn open(path: &Path) -> Result<Database, DbError> {
        Ok(Database::with_store(
            Box::new(sqlite::Sqlite::open(path)?),
            path.display().to_string(),
        ))
    }

    /// A SQLite database in memory (tests).
    pub fn in_memory() -> Result<Database, DbError> {
        Ok(Database::with_store(
            Box::new(sqlite::Sqlite::in_memory()?),
            ":memory:".into(),
        ))
    }

    /// Connects to the PostgreSQL database at `url` (`postgres://user:password@host:port/db`,
    /// as libpq reads it; without TLS, for a server on the same host or network) and runs the
    /// migrations it lacks, one instance at a time. Its lease owner is [`LOCAL_OWNER`] until
    /// [`Database::with_owner`] names the instance.
    pub fn connect(url: &str) -> Result<Database, DbError> {
        let (store, place) = postgres::Postgres::connect(url)?;
        Ok(Database::with_store(Box::new(store), place))
    }

    fn with_store(store: Box<dyn Store>, place: String) -> Database {
        Database {
            store,
            place,
            owner: LOCAL_OWNER.into(),
            lease: DEFAULT_LEASE,
        }
    }

    /// The same database, its rooms leased under `owner` (the URL this instance advertises,
    /// where clients reach it) for `lease` at a time.
    pub fn with_owner(mut self, owner: &str, lease: Duration) -> Database {
        self.owner = owner.to_string();
        self.lease = lease;
        self
    }

    /// The owner this instance's leases are held under.
    pub fn owner(&self) -> &str {
        &self.owner
    }

    /// How long a lease lasts unless renewed.
    pub fn lease(&self) -> Duration {
        self.lease
    }

    fn lease_ms(&self) -> i64 {
        self.lease.as_millis().min(i64::MAX as u128) as i64
    }

    /// The schema version (the number of migrations run).
    pub fn version(&self) -> Result<i64, DbError> {
        self.store.version()
    }

    /// Saves a finished game and its room's totals; the game's id.
    pub fn save_game(&self, game: &FinishedGame) -> Result<i64, DbError> {
        self.store.save_game(game)
    }

    /// Up to `limit` games with ids below `before` (all when none), newest first.
    pub fn games(&self, before: Option<i64>, limit: u32) -> Result<GamePage, DbError> {
        let mut games = self
            .store
            .games(before.unwrap_or(i64::MAX), i64::from(limit) + 1)?;
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
        self.store
            .game(id)?
            .map(|(summary, record)| {
                let record = serde_json::from_str(&record)
                    .map_err(|e| DbError::new(format!("database: game {id}'s record: {e}")))?;
                Ok(StoredGame { summary, record })
            })
            .transpose()
    }

    /// A player's results against each robot, from every game saved with its identity.
    pub fn player_results(&self, player: &PlayerId) -> Result<PlayerResults, DbError> {
        let mut robots: Vec<RobotResults> = Vec::new();
        for (robot, score, game) in self.store.player_games(player.as_str())? {
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

    /// Saves rooms in progress (at shutdown), replacing any saved under the same ids, and
    /// releases this instance's leases on them (another instance may take them over at once).
    /// A room whose live lease another instance holds is not written (that instance runs it):
    /// an error names them, after the others are saved.
    pub fn save_rooms(&self, rooms: &[SavedRoom]) -> Result<(), DbError> {
        let elsewhere = self.store.save_rooms(rooms, &self.owner)?;
        if elsewhere.is_empty() {
            Ok(())
        } else {
            Err(DbError::new(format!(
                "{} of the rooms are run by another instance now, not saved here: {}",
                elsewhere.len(),
                elsewhere.join(", ")
            )))
        }
    }

    /// Commits the writes of rooms in one transaction (all or none), each fenced by its
    /// lease: each room's state, with the game it just finished, or a closed room's row
    /// deleted. A write whose lease this instance no longer holds at its epoch fails the whole
    /// transaction with [`DbError::is_lease_lost`]; every other write renews its lease.
    pub fn commit<'a>(
        &self,
        writes: impl IntoIterator<Item = &'a LeasedWrite>,
    ) -> Result<(), DbError> {
        let writes: Vec<&LeasedWrite> = writes.into_iter().collect();
        self.store.commit(&writes, &self.owner, self.lease_ms())
    }

    /// Every open room (the oldest first), each with the changes of its log applied
    /// ([`SavedRoom::apply`]), whoever holds it. A room's row goes only when it closes
    /// ([`RoomWrite::Close`]).
    pub fn open_rooms(&self) -> Result<Vec<SavedRoom>, DbError> {
        self.store.rooms(None)?.into_iter().map(applied).collect()
    }

    /// The open room with this id, its log applied; none when there is none.
    pub fn open_room(&self, id: &str) -> Result<Option<SavedRoom>, DbError> {
        self.store
            .rooms(Some(id))?
            .into_iter()
            .next()
            .map(applied)
            .transpose()
    }

    /// A room's games so far and running totals, when it finished one.
    pub fn room_totals(&self, room: &str) -> Result<Option<(u32, [i64; 3])>, DbError> {
        self.store
            .room_totals(room)?
            .map(|(games, totals)| {
                serde_json::from_str(&totals)
                    .map(|t| (games, t))
                    .map_err(|e| DbError::new(format!("database: room {room}'s totals: {e}")))
            })
            .transpose()
    }

    /// Claims the lease of room `room` for this instance: when nobody holds it, or its lease
    /// has expired, or (`own_too`) this instance's owner holds it (a previous run of this
    /// instance, after a crash). The new epoch, raised by one at each claim, fences every
    /// write of the room made under an older one; none when another holds a live lease.
    pub fn claim(&self, room: &str, own_too: bool) -> Result<Option<u64>, DbError> {
        self.store
            .claim(room, &self.owner, self.lease_ms(), own_too)
    }

    /// The ids of the open rooms this instance may claim ([`Database::claim`]), the oldest
    /// first.
    pub fn claimable(&self, own_too: bool) -> Result<Vec<String>, DbError> {
        self.store.claimable(&self.owner, own_too)
    }

    /// Renews every lease this instance holds (its heartbeat); how many.
    pub fn renew(&self) -> Result<u64, DbError> {
        self.store.renew(&self.owner, self.lease_ms())
    }

    /// Where room `room` is run.
    pub fn locate(&self, room: &str) -> Result<Located, DbError> {
        self.store.locate(room)
    }
}

/// Makes an empty database `name` (lowercase letters, digits, `_`) on the PostgreSQL server
/// of `server_url`, dropping one of that name first, and returns its URL: a scratch database
/// for tests (ddz's own, and a deployment's smoke test).
pub fn create_postgres_database(server_url: &str, name: &str) -> Result<String, DbError> {
    postgres::create_database(server_url, name)
}

/// The URL of a fresh PostgreSQL database `name` for a test, on the server that
/// `DDZ_TEST_POSTGRES` names (`postgres://USER@HOST:PORT/DB`); none when it is not set. With
/// `DDZ_REQUIRE_POSTGRES=1` (CI) its absence is an error, so that no test skips unseen.
pub fn test_postgres(name: &str) -> Result<Option<String>, DbError> {
    let Some(server) = std::env::var("DDZ_TEST_POSTGRES")
        .ok()
        .filter(|v| !v.is_empty())
    else {
        if std::env::var("DDZ_REQUIRE_POSTGRES").as_deref() == Ok("1") {
            return Err(DbError::new(
                "DDZ_REQUIRE_POSTGRES=1 but DDZ_TEST_POSTGRES names no server",
            ));
        }
        eprintln!("{name}: DDZ_TEST_POSTGRES is not set: PostgreSQL not tested");
        return Ok(None);
    };
    create_postgres_database(&server, name)
        .map(Some)
        .map_err(|e| DbError::new(format!("DDZ_TEST_POSTGRES: {e}")))
}

/// A stored room with its log applied.
fn applied(stored: StoredRoom) -> Result<SavedRoom, DbError> {
    let StoredRoom { mut room, log } = stored;
    for (id, text) in log {
        let entry: RoomLogEntry = serde_json::from_str(&text).map_err(|e| {
            DbError::new(format!("database: room {}'s log, entry {id}: {e}", room.id))
        })?;
        room.apply(&entry);
    }
    Ok(room)
}

/// A value as JSON text.
fn json(value: &impl Serialize) -> String {
    serde_json::to_string(value).unwrap_or_else(|_| "null".into())
}

/// A JSON column read back; the error names the column.
fn from_json<T: serde::de::DeserializeOwned>(column: &str, text: &str) -> Result<T, DbError> {
    serde_json::from_str(text).map_err(|e| DbError::new(format!("database: {column}: {e}")))
}

/// Unix seconds now (when a game finished, a room was saved).
fn now() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs() as i64)
}
