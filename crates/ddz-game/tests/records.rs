//! Game records: hundreds of seeded random games per profile round-trip through JSON text and
//! replay to the same state and result; corrupted records are rejected with the step named;
//! the record files under `tests/data/records/` replay.

use std::path::PathBuf;

use ddz_core::{Bidding, Profile, Rank, Rules};
use ddz_core::{DealMethod, DoublingOrder, ShowCombine};
use ddz_game::{
    Actions, Game, GameRecord, Phase, RECORD_FORMAT, RECORD_FORMAT_2, ReplayError, Seat, Step,
    below, rng,
};

const GAMES_PER_PROFILE: u64 = 500;

/// Plays one game with random actions drawn from `seed`; returns it finished, plus a copy of
/// it taken at a random step on the way (for records of unfinished games).
fn random_game(rules: &Rules, seed: u64) -> (Game, Game) {
    let mut game = Game::new(rules, seed);
    let mut r = rng(seed ^ 0x005E_C04D);
    let snapshot_at = below(&mut r, 40);
    let mut snapshot = game.clone();
    let mut steps = 0;
    while game.phase() != Phase::Over {
        steps += 1;
        assert!(steps < 500, "game {seed} does not end");
        if steps == snapshot_at {
            snapshot = game.clone();
        }
        let seat = game.turn();
        match game.phase() {
            Phase::Bidding => {
                let most = if rules.bidding == Bidding::Points {
                    4
                } else {
                    2
                };
                let bid = below(&mut r, most) as u8;
                if game.bid(seat, bid).is_err() {
                    game.bid(seat, 0).expect("a pass is always a legal bid");
                }
            }
            Phase::Playing => {
                let moves = game.legal_moves();
                let m = moves[below(&mut r, moves.len() as u64) as usize];
                game.play(seat, m).expect("a generated move is legal");
            }
            Phase::Dealing | Phase::LandlordShow => {
                let show = below(&mut r, 4) == 0;
                game.show(seat, show).expect("a show decision is legal");
            }
            Phase::Doubling => {
                let Actions::Double(factors) = game.legal_actions() else {
                    unreachable!("doubling factors while doubling")
                };
                let f = factors[below(&mut r, factors.len() as u64) as usize];
                game.double(seat, f).expect("a listed factor is legal");
            }
            Phase::Over => unreachable!(),
        }
    }
    (game, snapshot)
}

/// The record of `game` through JSON text, replayed; checks the replayed game is the same.
fn round_trip(game: &Game) -> GameRecord {
    let record = GameRecord::from_game(game);
    let text = record.to_json();
    let back = GameRecord::parse(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
    assert_eq!(back, record);
    let replayed = back
        .replay()
        .unwrap_or_else(|e| panic!("seed {}: {e}\n{text}", game.seed()));
    assert_eq!(replayed.result(), game.result());
    assert_eq!(replayed.phase(), game.phase());
    assert_eq!(replayed.landlord(), game.landlord());
    assert_eq!(replayed.redeals(), game.redeals());
    assert_eq!(replayed.bids(), game.bids());
    assert_eq!(replayed.laizi(), game.laizi());
    assert_eq!(replayed.turn(), game.turn());
    assert_eq!(replayed.last(), game.last());
    // Seeded deals come back with their suits.
    assert_eq!(replayed.deal(), game.deal());
    for s in Seat::ALL {
        assert_eq!(replayed.hand(s), game.hand(s));
    }
    assert!(replayed.history().eq(game.history()), "same history");
    // Writing the replayed game gives the same record.
    assert_eq!(GameRecord::from_game(&replayed), record);
    // The game as dealt: no action yet, the redeals done, the deal of the game.
    let start = back
        .start()
        .unwrap_or_else(|e| panic!("start: {e}\n{text}"));
    assert_eq!(start.redeals(), game.redeals());
    assert_eq!(start.deal(), game.deal());
    assert!(start.bids().is_empty() && start.show_decisions().is_empty());
    assert_eq!(start.history().count(), 0);
    assert!(matches!(
        start.phase(),
        Phase::Dealing | Phase::Bidding | Phase::Playing
    ));
    record
}

fn rejected(record: &GameRecord) -> ReplayError {
    // Through text, as a file would be.
    match GameRecord::parse(&record.to_json()) {
        Ok(r) => r.replay().expect_err("a corrupted record is rejected"),
        Err(e) => e,
    }
}

fn is_play(e: &ReplayError, n: usize) -> bool {
    matches!(e.step, Step::Play { index, .. } if index == n)
}

/// Corruptions of a finished game's record, each rejected at the right step.
fn check_corruptions(game: &Game, record: &GameRecord, r: &mut impl rand::Rng) {
    let history: Vec<_> = game.history().collect();
    let n = history.len();

    // Change one play's cards: add a rank the seat does not hold at that point.
    let i = below(r, n as u64) as usize;
    let (seat, _) = history[i];
    let mut held = game.hand(seat);
    for (s, m) in &history[i..] {
        if *s == seat {
            held = held.union(m.cards());
        }
    }
    if let Some(&missing) = Rank::ALL.iter().find(|&&k| held.count(k) == 0) {
        let mut bad = record.clone();
        let cards = history[i].1.cards().add(missing, 1);
        bad.plays[i].1 = cards.to_string();
        let e = rejected(&bad);
        assert!(is_play(&e, i + 1), "changed play {}: {e}", i + 1);
        assert!(
            e.to_string()
                .starts_with(&format!("play {} (seat {seat}, \"", i + 1))
        );
    }

    // Drop a play: the next play is out of turn; dropping the last leaves the game unfinished.
    let mut bad = record.clone();
    bad.plays.remove(i);
    let e = rejected(&bad);
    if i + 1 < n {
        assert!(is_play(&e, i + 1), "dropped play {}: {e}", i + 1);
        assert!(e.what.contains("turn"), "{e}");
    } else {
        assert_eq!(e.step, Step::Result, "{e}");
        assert!(e.what.contains("not over"), "{e}");
    }

    // Swap two bids (they are always by different seats).
    if record.bids.len() >= 2 {
        let mut bad = record.clone();
        bad.bids.swap(0, 1);
        let e = rejected(&bad);
        assert!(
            matches!(e.step, Step::Bid { index: 1, .. }),
            "swapped bids: {e}"
        );
    }

    // Alter the score.
    let mut bad = record.clone();
    let result = bad.result.as_mut().unwrap();
    result.scores.0[0] += 2;
    result.scores.0[1] -= 2;
    let e = rejected(&bad);
    assert_eq!(e.step, Step::Result);
    assert!(e.what.starts_with("recorded scores ["), "{e}");

    // Alter the multiplier and the winner.
    let mut bad = record.clone();
    bad.result.as_mut().unwrap().multiplier += 1;
    assert!(rejected(&bad).what.starts_with("recorded multiplier"));

    // A play after the end.
    let mut bad = record.clone();
    let next = history[n - 1].0.next().index() as u8;
    bad.plays.push((next, "pass".into()));
    let e = rejected(&bad);
    assert!(is_play(&e, n + 1), "{e}");
    assert!(e.what.contains("over"), "{e}");

    // The wrong landlord.
    let mut bad = record.clone();
    bad.landlord = bad.landlord.map(|l| (l + 1) % 3);
    assert_eq!(rejected(&bad).step, Step::Landlord);
}

fn check_profile(rules: Rules, master: u64) {
    let mut redealt = 0;
    let mut unfinished_checked = 0;
    let mut r = rng(master);
    for i in 0..GAMES_PER_PROFILE {
        let seed = ddz_game::derive_seed(master, i);
        let (game, snapshot) = random_game(&rules, seed);
        let record = round_trip(&game);
        assert!(record.result.is_some());
        redealt += usize::from(record.redeals > 0);
        let partial = round_trip(&snapshot);
        if snapshot.phase() != Phase::Over {
            assert!(partial.result.is_none());
            unfinished_checked += 1;
        }
        check_corruptions(&game, &record, &mut r);
    }
    assert!(unfinished_checked > GAMES_PER_PROFILE as usize / 2);
    if rules.bidding != Bidding::Fixed {
        assert!(redealt > 0, "some games were redealt");
    }
}

#[test]
fn classic_records() {
    check_profile(Rules::classic(), 11);
}

#[test]
fn call_rob_records() {
    let mut rules = Rules::classic();
    rules.bidding = Bidding::CallRob;
    check_profile(rules, 12);
}

#[test]
fn engine_profile_records() {
    check_profile(Rules::profile(Profile::Douzero), 13);
    check_profile(Rules::profile(Profile::Rlcard), 14);
    check_profile(Rules::profile(Profile::Botzone), 15);
}

#[test]
fn huanle_records() {
    check_profile(Rules::huanle(), 19);
    let mut rules = Rules::huanle();
    rules.deal = DealMethod::NoShuffle;
    rules.doubling.order = DoublingOrder::LandlordFirst;
    rules.show.combine = ShowCombine::Product;
    check_profile(rules, 20);
    // Points bidding with doubling and showing.
    let mut rules = Rules::huanle();
    rules.bidding = Bidding::Points;
    check_profile(rules, 21);
}

#[test]
fn section_7_records_say_so_and_carry_the_decisions() {
    let (game, _) = random_game(&Rules::huanle(), 3);
    let record = GameRecord::from_game(&game);
    assert_eq!(record.format, RECORD_FORMAT_2);
    assert_eq!(record.doublings.len(), 3);
    assert!(record.shows.len() >= 4, "{:?}", record.shows);
    let text = record.to_json();
    assert!(text.contains("\"doubling\":{\"enabled\":true"), "{text}");
    // A doubling of another factor, or a show at another factor, is refused at its step.
    let mut bad = record.clone();
    bad.doublings[0].1 = 3;
    let e = rejected(&bad);
    assert!(matches!(e.step, Step::Double { index: 1, .. }), "{e}");
    assert!(
        e.what
            .contains("doubling x3 is not allowed (allowed: 1, 2, 4)"),
        "{e}"
    );
    let mut bad = record.clone();
    bad.shows[0].1 = 3;
    let e = rejected(&bad);
    assert!(matches!(e.step, Step::Show { index: 1, .. }), "{e}");
    assert_eq!(e.what, "a show now is x5, not x3");
    // Dropping the doublings leaves the plays waiting.
    let mut bad = record;
    bad.doublings.clear();
    let e = rejected(&bad);
    assert!(is_play(&e, 1), "{e}");
    assert_eq!(e.what, "the doubling is not over");
    // The section 4 profiles still write version 1.
    let (game, _) = random_game(&Rules::classic(), 3);
    assert_eq!(GameRecord::from_game(&game).format, RECORD_FORMAT);
}

#[test]
fn laizi_records() {
    check_profile(Rules::laizi(), 16);
}

#[test]
fn tiandi_records() {
    check_profile(Rules::tiandi(), 17);
    let mut rules = Rules::tiandi();
    rules.bidding = Bidding::CallRob;
    check_profile(rules, 18);
}

fn sample_record() -> GameRecord {
    GameRecord::from_game(&random_game(&Rules::classic(), 5).0)
}

#[test]
fn bad_text_and_versions_are_rejected() {
    let e = GameRecord::parse("{\"format\": ").unwrap_err();
    assert_eq!(e.step, Step::Json);
    assert!(e.to_string().starts_with("json: not valid JSON"), "{e}");
    let e = GameRecord::parse("[1, 2]").unwrap_err();
    assert_eq!(e.step, Step::Json);

    let text = sample_record().to_json();
    let v3 = text.replace(RECORD_FORMAT, "ddz-record/3");
    let e = GameRecord::parse(&v3).unwrap_err();
    assert_eq!(e.step, Step::Format);
    assert_eq!(
        e.what,
        "unknown format version \"ddz-record/3\" (this build reads \"ddz-record/1\" and \"ddz-record/2\")"
    );
    let missing = text.replace(&format!("\"format\": \"{RECORD_FORMAT}\","), "");
    assert_eq!(GameRecord::parse(&missing).unwrap_err().step, Step::Format);

    // Unknown fields, anywhere, are refused.
    let extra = text.replacen("\"seed\"", "\"colour\": 1, \"seed\"", 1);
    let e = GameRecord::parse(&extra).unwrap_err();
    assert!(e.what.contains("colour"), "{e}");
    let extra = text.replacen("\"bombs\"", "\"bomb\": 1, \"bombs\"", 1);
    assert!(GameRecord::parse(&extra).unwrap_err().what.contains("bomb"));

    // A bad deal, a bad seat.
    let mut bad = sample_record();
    bad.deal.kitty = "BR3".into();
    assert_eq!(bad.replay().unwrap_err().step, Step::Deal);
    let mut bad = sample_record();
    bad.plays[0].0 = 7;
    let e = bad.replay().unwrap_err();
    assert!(e.what.contains("seat 7 is not 0, 1 or 2"), "{e}");
}

#[test]
fn bid_errors_name_the_bid() {
    // Points bidding: a bid not above the current one.
    let rules = Rules::classic();
    let seed = (0..200)
        .find(|&s| {
            let mut g = Game::new(&rules, s);
            g.bid(g.turn(), 3).is_ok()
        })
        .unwrap();
    let mut g = Game::new(&rules, seed);
    let first = g.turn();
    g.bid(first, 2).unwrap();
    let mut record = GameRecord::from_game(&g);
    record.bids.push((first.next().index() as u8, 2));
    record.landlord = Some(first.next().index() as u8);
    let e = record.replay().unwrap_err();
    assert_eq!(
        e.to_string(),
        format!(
            "bid 2 (seat {}, 2): not allowed now (allowed: 0, 3)",
            first.next()
        )
    );
}

#[test]
fn redeals_and_first_bidder_come_from_the_seed() {
    let rules = Rules::classic();
    let (game, _) = (0..100)
        .map(|s| random_game(&rules, s))
        .find(|(g, _)| g.redeals() > 0)
        .expect("a game with a redeal");
    let record = GameRecord::from_game(&game);
    let mut bad = record.clone();
    bad.redeals = 0;
    assert!(bad.replay().is_err());
    let mut bad = record.clone();
    bad.redeals += 1;
    assert_eq!(bad.replay().unwrap_err().step, Step::Deal);
    let mut bad = record;
    bad.first_bidder = (bad.first_bidder + 1) % 3;
    assert_eq!(bad.replay().unwrap_err().step, Step::FirstBidder);
}

#[test]
fn step_lines_follow_the_game() {
    let (game, _) = random_game(&Rules::laizi(), 9);
    let record = GameRecord::from_game(&game);
    let lines = record.step_lines().unwrap();
    let plays = lines.iter().filter(|l| l.starts_with("play")).count();
    assert_eq!(plays, record.plays.len());
    assert_eq!(
        lines.iter().filter(|l| l.starts_with("bid")).count(),
        record.bids.len()
    );
    assert_eq!(
        lines.iter().filter(|l| l.starts_with("landlord")).count(),
        1
    );
    assert!(lines.last().unwrap().contains("left  0"), "{lines:?}");
}

fn data_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/records")
}

/// The record files kept as test data, and how they were made (seed, rules).
fn data_games() -> Vec<(&'static str, Rules, u64)> {
    let mut call_rob_tiandi = Rules::tiandi();
    call_rob_tiandi.bidding = Bidding::CallRob;
    vec![
        ("classic.json", Rules::classic(), 3),
        ("laizi.json", Rules::laizi(), 4),
        ("tiandi-call-rob.json", call_rob_tiandi, 6),
        ("douzero.json", Rules::profile(Profile::Douzero), 2),
    ]
}

/// Writes the data records (run with `DDZ_WRITE_RECORDS=1` to regenerate them).
#[test]
fn data_records_replay() {
    let write = std::env::var_os("DDZ_WRITE_RECORDS").is_some();
    for (name, rules, seed) in data_games() {
        let path = data_dir().join(name);
        if write {
            let (game, _) = random_game(&rules, seed);
            let mut text = GameRecord::from_game(&game).to_json();
            text.push('\n');
            std::fs::create_dir_all(data_dir()).unwrap();
            std::fs::write(&path, text).unwrap();
        }
        let text = std::fs::read_to_string(&path).unwrap();
        let record = GameRecord::parse(&text).unwrap();
        let game = record.replay().unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(game.phase(), Phase::Over, "{name}");
        let result = game.result().unwrap();
        assert_eq!(record.result.as_ref().unwrap().scores.0, result.scores.0);
        // Written again, the replayed game is the file byte for byte.
        let again = format!("{}\n", GameRecord::from_game(&game).to_json());
        assert_eq!(again, text, "{name} written again");
    }
    // The corrupt record used by the command's tests is rejected at its play 5.
    let text = std::fs::read_to_string(data_dir().join("corrupt-play.json")).unwrap();
    let e = GameRecord::parse(&text).unwrap().replay().unwrap_err();
    assert!(is_play(&e, 5), "{e}");
}

#[test]
fn games_from_deal_files_replay() {
    let rules = Rules::laizi();
    for seed in 0..50 {
        let line = ddz_game::Deal::from_seed(seed + 1000, &rules).to_line();
        let deal = line.to_deal(&rules).unwrap();
        let mut game = Game::with_deal(&rules, seed, deal);
        let mut r = rng(seed);
        while game.phase() != Phase::Over {
            let seat = game.turn();
            if game.phase() == Phase::Bidding {
                let bid = below(&mut r, 4) as u8;
                if game.bid(seat, bid).is_err() {
                    game.bid(seat, 0).unwrap();
                }
            } else {
                let moves = game.legal_moves();
                let m = moves[below(&mut r, moves.len() as u64) as usize];
                game.play(seat, m).unwrap();
            }
        }
        let record = GameRecord::from_game(&game);
        if game.redeals() == 0 {
            assert_eq!(record.deal, line);
        }
        let replayed = GameRecord::parse(&record.to_json())
            .unwrap()
            .replay()
            .unwrap();
        assert_eq!(replayed.result(), game.result());
        assert!(replayed.history().eq(game.history()));
    }
}

/// Counts read from a record are bounded before any work follows them (issue 50: `"redeals":
/// 4294967295` looped a redeal at a time until memory ran out; a no-shuffle record with
/// `min_bombs: 1000, max_attempts: 4294967295` dealt for about 40 minutes).
#[test]
fn counts_from_outside_are_bounded() {
    let mut value: serde_json::Value = serde_json::from_str(&sample_record().to_json()).unwrap();
    value["redeals"] = 4294967295u32.into();
    let e = GameRecord::parse(&value.to_string()).unwrap_err();
    assert_eq!(
        e.to_string(),
        "json: \"redeals\": 4294967295 is more than 1000"
    );
    value["redeals"] = ddz_game::MAX_REDEALS.into();
    let started = std::time::Instant::now();
    let record = GameRecord::parse(&value.to_string()).expect("1000 redeals are read");
    let e = record.replay().unwrap_err();
    assert!(matches!(e.step, Step::Deal | Step::Redeal(_)), "{e}");
    assert!(started.elapsed() < std::time::Duration::from_secs(1));

    let mut huanle: serde_json::Value =
        serde_json::from_str(&GameRecord::from_game(&random_game(&Rules::huanle(), 3).0).to_json())
            .unwrap();
    huanle["rules"]["no_shuffle"]["min_bombs"] = 1000.into();
    huanle["rules"]["no_shuffle"]["max_attempts"] = 4294967295u32.into();
    let started = std::time::Instant::now();
    let e = GameRecord::parse(&huanle.to_string()).unwrap_err();
    assert_eq!(e.step, Step::Rules);
    assert_eq!(
        e.what,
        "no_shuffle.max_attempts: 4294967295 is more than 1000"
    );
    huanle["rules"]["no_shuffle"]["max_attempts"] = 32.into();
    let e = GameRecord::parse(&huanle.to_string()).unwrap_err();
    assert_eq!(e.what, "no_shuffle.min_bombs: 1000 is more than 14");
    huanle["rules"]["no_shuffle"]["min_bombs"] = 0.into();
    huanle["rules"]["no_shuffle"]["swaps"] = 4294967295u32.into();
    let e = GameRecord::parse(&huanle.to_string()).unwrap_err();
    assert_eq!(e.what, "no_shuffle.swaps: 4294967295 is more than 10000");
    assert!(started.elapsed() < std::time::Duration::from_secs(1));
}
