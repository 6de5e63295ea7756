//! Issue 50, several instances on one database: the same contract on SQLite and PostgreSQL
//! (on the server `DDZ_TEST_POSTGRES` names, when set; CI sets it). Two handles with two
//! owners stand for two instances: a room's lease is held by one at a time, every write is
//! fenced by the epoch it was claimed at, and an expired lease is taken over.

use std::time::Duration;

use ddz_server::db::{Database, LeasedWrite, Located, RoomLogEntry, RoomWrite, test_postgres};
use serde_json::json;

use crate::resume::saved_room;

/// How long the tests' leases last.
const LEASE: Duration = Duration::from_millis(300);

/// Two instances (owners `http://a` and `http://b`) on one database of each back end
/// available, with the back end's name.
fn instances(name: &str) -> Vec<(&'static str, Database, Database)> {
    let dir = std::env::temp_dir().join(format!("ddz-leases-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let path = dir.join("games.sqlite3");
    let mut both = vec![(
        "sqlite",
        Database::open(&path).unwrap().with_owner("http://a", LEASE),
        Database::open(&path).unwrap().with_owner("http://b", LEASE),
    )];
    let db_name = format!("ddz_leases_{name}_{}", std::process::id());
    if let Some(url) = test_postgres(&db_name).unwrap() {
        both.push((
            "postgres",
            Database::connect(&url)
                .unwrap()
                .with_owner("http://a", LEASE),
            Database::connect(&url)
                .unwrap()
                .with_owner("http://b", LEASE),
        ));
    }
    both
}

fn write(epoch: u64, write: RoomWrite) -> LeasedWrite {
    LeasedWrite { epoch, write }
}

fn save(id: &str) -> RoomWrite {
    RoomWrite::Save {
        room: Box::new(saved_room(id)),
        finished: None,
    }
}

#[test]
fn a_room_is_written_only_under_its_live_lease() {
    for (backend, a, b) in instances("fence") {
        let epoch = a.claim("r", false).unwrap().expect("nobody holds r");
        assert_eq!(epoch, 1, "{backend}");
        a.commit([&write(epoch, save("r"))]).unwrap();
        assert_eq!(b.claim("r", false).unwrap(), None, "{backend}: a holds it");
        assert_eq!(
            b.claim("r", true).unwrap(),
            None,
            "{backend}: own_too takes only the owner's own"
        );
        assert_eq!(
            b.locate("r").unwrap(),
            Located::Held {
                owner: "http://a".into()
            },
            "{backend}"
        );
        assert_eq!(b.locate("nothing").unwrap(), Located::Nowhere, "{backend}");
        assert_eq!(
            b.claimable(false).unwrap(),
            Vec::<String>::new(),
            "{backend}"
        );
        // The heartbeat keeps it: renewed past several leases, it is still a's.
        for _ in 0..4 {
            std::thread::sleep(LEASE / 2);
            assert_eq!(a.renew().unwrap(), 1, "{backend}");
        }
        assert_eq!(b.claim("r", false).unwrap(), None, "{backend}: renewed");

        // a stops renewing: once its lease expires, b takes the room over.
        std::thread::sleep(LEASE + Duration::from_millis(100));
        assert_eq!(b.claimable(false).unwrap(), ["r"], "{backend}");
        assert_eq!(b.locate("r").unwrap(), Located::Free, "{backend}");
        let taken = b.claim("r", false).unwrap().expect("expired");
        assert_eq!(taken, 2, "{backend}: the epoch goes up");
        // a's writes under its old epoch are refused, whole transactions included.
        let entry = RoomLogEntry {
            step: 99,
            last_event: 99,
            ready: [false; 3],
            auto: [false; 3],
            identities: [None, None, None],
            action: None,
        };
        let append = |epoch| {
            write(
                epoch,
                RoomWrite::Append {
                    room: "r".into(),
                    entry: entry.clone(),
                    finished: None,
                },
            )
        };
        let e = a.commit([&append(epoch)]).unwrap_err();
        assert!(e.is_lease_lost(), "{backend}: {e}");
        a.claim("s", false).unwrap().unwrap();
        let e = a
            .commit([&write(1, save("s")), &append(epoch)])
            .unwrap_err();
        assert!(e.is_lease_lost(), "{backend}: {e}");
        assert_eq!(a.open_room("s").unwrap(), None, "{backend}: all or nothing");
        a.commit([&write(1, save("s"))]).unwrap();
        assert_eq!(a.renew().unwrap(), 1, "{backend}: a renews only s");
        let e = a.save_rooms(&[saved_room("r")]).unwrap_err().to_string();
        assert!(e.contains("run by another instance"), "{backend}: {e}");
        // b's writes go through; the room read back is b's.
        b.commit([&append(taken)]).unwrap();
        assert_eq!(a.open_room("r").unwrap().unwrap().step, 99, "{backend}");
        // A restart of a (the same owner) takes back what it holds, not b's room.
        assert_eq!(a.claimable(true).unwrap(), ["s"], "{backend}");
        assert_eq!(a.claim("r", true).unwrap(), None, "{backend}");
        // A shutdown releases the leases at once: b may take s over.
        a.save_rooms(&[saved_room("s")]).unwrap();
        assert_eq!(b.claim("s", false).unwrap(), Some(2), "{backend}");
        // Closing a room removes its row, its log and its lease.
        b.commit([&write(taken, RoomWrite::Close("r".into()))])
            .unwrap();
        assert_eq!(b.locate("r").unwrap(), Located::Nowhere, "{backend}");
        let e = b
            .commit([&write(taken, RoomWrite::Close("r".into()))])
            .unwrap_err();
        assert!(e.is_lease_lost(), "{backend}: {e}");
    }
}

#[test]
fn both_back_ends_keep_the_same_games_and_rooms() {
    for (backend, a, b) in instances("contract") {
        assert_eq!(a.version().unwrap(), 5, "{backend}");
        let game = ddz_server::db::FinishedGame {
            room: "r1".into(),
            number: 1,
            rules: "classic".into(),
            seed: u64::MAX,
            winner: "farmers".into(),
            scores: [-4, 2, 2],
            players: ["human".into(), "greedy".into(), "greedy".into()],
            identities: [Some("ab".repeat(16)), None, None],
            totals: [-4, 2, 2],
            record: json!({"format": "ddz-record/1", "plays": []}),
        };
        let first = a.save_game(&game).unwrap();
        let second = b
            .save_game(&ddz_server::db::FinishedGame {
                number: 2,
                totals: [-8, 4, 4],
                ..game.clone()
            })
            .unwrap();
        assert!(second > first, "{backend}");
        // Each instance lists the games of both.
        let page = b.games(None, 1).unwrap();
        assert_eq!(page.games.len(), 1, "{backend}");
        assert_eq!(page.games[0].id, second, "{backend}");
        assert_eq!(page.next, Some(second), "{backend}");
        let rest = a.games(page.next, 10).unwrap();
        assert_eq!(rest.games[0].id, first, "{backend}");
        assert_eq!(rest.games[0].seed, u64::MAX.to_string(), "{backend}");
        assert_eq!(rest.next, None, "{backend}");
        let stored = a.game(second).unwrap().unwrap();
        assert_eq!(stored.record["format"], "ddz-record/1", "{backend}");
        assert_eq!(a.game(second + 100).unwrap(), None, "{backend}");
        assert_eq!(a.room_totals("r1").unwrap(), Some((2, [-8, 4, 4])));
        let player = ddz_server::db::PlayerId::parse(&"ab".repeat(16)).unwrap();
        let results = b.player_results(&player).unwrap();
        assert_eq!(results.robots[0].games, 2, "{backend}");
        assert_eq!(results.robots[0].losses, 2, "{backend}");

        // A room with a log: its row and the entries after it, read back applied.
        let epoch = a.claim("room", false).unwrap().unwrap();
        let room = saved_room("room");
        a.commit([&write(
            epoch,
            RoomWrite::Save {
                room: Box::new(room.clone()),
                finished: None,
            },
        )])
        .unwrap();
        let entry = RoomLogEntry {
            step: room.step + 1,
            last_event: room.last_event + 1,
            ready: [false; 3],
            auto: [false, true, false],
            identities: room.identities.clone(),
            action: None,
        };
        a.commit([&write(
            epoch,
            RoomWrite::Append {
                room: "room".into(),
                entry: entry.clone(),
                finished: None,
            },
        )])
        .unwrap();
        let mut expected = room.clone();
        expected.apply(&entry);
        assert_eq!(b.open_room("room").unwrap(), Some(expected.clone()));
        assert_eq!(b.open_rooms().unwrap(), [expected], "{backend}");
    }
}
