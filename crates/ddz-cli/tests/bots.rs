//! `ddz hint` and `ddz bench bots`.

use crate::common;

use common::{ddz, json, stdout};

#[test]
fn hint_puts_the_robot_choice_first_then_every_legal_play() {
    let v = json(&ddz(&["hint", "22AAKQJ9987776654", "--json"]));
    assert_eq!(v["bot"], "value");
    // The blog leads 777 with the 4 on this hand (seed-origins.md section 4.1).
    assert_eq!(v["choice"]["cards"], "4777");
    let plays = v["plays"].as_array().unwrap();
    assert_eq!(plays[0]["move"], v["choice"]);
    let moves = json(&ddz(&["moves", "22AAKQJ9987776654", "--json"]));
    assert_eq!(plays.len(), moves["moves"].as_array().unwrap().len());
    // After the choice, the plays are ranked by score, best first.
    let scores: Vec<i64> = plays[1..]
        .iter()
        .map(|p| p["score"].as_i64().unwrap())
        .collect();
    assert!(scores.windows(2).all(|w| w[0] >= w[1]), "{scores:?}");
}

/// The value the hint gives each play: the blog's SumValue and NeedRound of the cards left,
/// and score = SumValue - 7 x NeedRound (docs/robots.md), worked out by hand from the group
/// values (a single is worth its rank - 10: 3 = -7, 2 = +5, B = +6, R = +7; a chain one more
/// than its top card's worth; the rocket 20). The remainders BR, 3, 2 and 34567 are also
/// vectors from the original code (crates/ddz-bots/tests/data/blog_values.txt).
#[test]
fn hint_scores_the_cards_left_by_the_blogs_hand_value() {
    let value = |hand: &str| {
        let v = json(&ddz(&["hint", hand, "--json"]));
        v["plays"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| {
                let n = |k: &str| p[k].as_i64().unwrap();
                let cards = p["move"]["cards"].as_str().unwrap().to_string();
                (cards, (n("sum_value"), n("need_round"), n("score")))
            })
            .collect::<std::collections::BTreeMap<_, _>>()
    };
    // BR3: every lead, with the cards left.
    let plays = value("BR3");
    let want: [(&str, (i64, i64, i64)); 4] = [
        ("3", (20, 1, 13)),   // BR: the rocket, 20 - 7
        ("BR", (-7, 1, -14)), // 3: a single 3, -7 - 7
        ("B", (0, 2, -14)),   // R3: singles 7 + -7, 0 - 14
        ("R", (-1, 2, -15)),  // B3: singles 6 + -7, -1 - 14
    ];
    assert_eq!(plays.len(), want.len(), "{plays:?}");
    for (cards, expected) in want {
        assert_eq!(
            plays.get(cards),
            Some(&expected),
            "BR3, play {cards}: {plays:?}"
        );
    }
    // 345672: the chain leaves the 2, the 2 leaves the chain.
    let plays = value("345672");
    assert_eq!(plays.get("34567"), Some(&(5, 1, -2)), "{plays:?}"); // 2: 5 - 7
    assert_eq!(plays.get("2"), Some(&(-2, 1, -9)), "{plays:?}"); // 34567: (-3 + 1) - 7
}

#[test]
fn hint_following_includes_the_pass() {
    let v = json(&ddz(&[
        "hint",
        "22AAKQJ9987776654",
        "--beat",
        "34567",
        "--json",
    ]));
    // The blog's chain follow, with its last-window bug fixed.
    assert_eq!(v["choice"]["cards"], "45678");
    let plays = v["plays"].as_array().unwrap();
    assert!(plays.iter().any(|p| p["move"]["kind"] == "pass"));
    let text = stdout(&ddz(&[
        "hint",
        "3456789TJQKA2BR33",
        "--beat",
        "2",
        "--bot",
        "greedy",
    ]));
    assert!(text.contains("greedy plays: "), "{text}");
}

#[test]
fn hint_roles_wild_cards_and_errors() {
    let v = json(&ddz(&[
        "hint",
        "3339",
        "--rules",
        "laizi",
        "--laizi",
        "9",
        "--role",
        "landlord_up",
        "--left",
        "2,5",
        "--json",
    ]));
    assert_eq!(v["role"], "landlord_up");
    for (args, needle) in [
        (vec!["hint", "33", "--role", "boss"], "--role \"boss\""),
        (vec!["hint", "33", "--left", "3"], "--left takes two counts"),
        (vec!["hint", "33", "--left", "3,0"], "not a card count"),
        (
            vec!["hint", "33", "--bot", "nosuch"],
            "unknown robot \"nosuch\"",
        ),
        (vec!["hint", "33Z"], "hand \"33Z\""),
        (vec!["hint", "33", "--beat", "345"], "--beat \"345\""),
    ] {
        let out = ddz(&args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(needle), "{args:?}: {err}");
    }
}

#[test]
fn bench_bots_json() {
    let v = json(&ddz(&[
        "bench",
        "bots",
        "--positions",
        "50",
        "--bots",
        "random,greedy,value,ddzlib,search:iters=100",
        "--json",
    ]));
    assert_eq!(v["positions"], 50);
    assert_eq!(v["decisions"], "play");
    let bots = v["bots"].as_array().unwrap();
    assert!(bots.iter().any(|b| b["bot"] == "value"));
    assert!(bots.iter().any(|b| b["bot"] == "search:iters=100"));
    for b in bots {
        let (med, p99, max) = (
            b["median_us"].as_f64().unwrap(),
            b["p99_us"].as_f64().unwrap(),
            b["max_us"].as_f64().unwrap(),
        );
        assert!(0.0 <= med && med <= p99 && p99 <= max, "{b}");
    }
    let out = ddz(&["bench", "bots", "--bots", "value,nosuch"]);
    assert_eq!(out.status.code(), Some(2));
    // Bids: every robot bids, under call-and-rob too.
    for rules in ["classic", "huanle"] {
        let v = json(&ddz(&[
            "bench",
            "bots",
            "--bids",
            "--positions",
            "20",
            "--rules",
            rules,
            "--bots",
            "ddzlib,net,search:iters=50",
            "--json",
        ]));
        assert_eq!(
            (v["decisions"].as_str(), v["positions"].as_u64()),
            (Some("bid"), Some(20))
        );
        assert_eq!(v["bots"].as_array().unwrap().len(), 3, "{v}");
    }
}

#[test]
fn split_shows_the_three_analyses() {
    let v = json(&ddz(&["split", "22AAKQJ9987776654", "--json"]));
    // The ddzlib README's hand: nine hands; the blog's greedy line needs ten rounds.
    assert_eq!(v["hand_count"], 9);
    assert_eq!(v["groups"].as_array().unwrap().len(), 9);
    assert_eq!(
        (v["sum_value"].as_i64(), v["need_round"].as_i64()),
        (Some(0), Some(10))
    );
    assert_eq!(v["best"]["plays"], 9);
    assert_eq!(v["best"]["groups"].as_array().unwrap().len(), 9);
    // Wild cards stand where they serve best: 3339 with 9 wild is a bomb of 3s.
    let v = json(&ddz(&[
        "split", "3339BR", "--rules", "laizi", "--laizi", "9", "--json",
    ]));
    assert_eq!(v["hand_count"], 2);
    assert_eq!(v["reading"], "3333BR");
    assert_eq!(v["best"]["plays"], 2);
    let text = stdout(&ddz(&["split", "33344456"]));
    // ddzlib counts the kickers as hands of their own; the best split carries them.
    assert!(
        text.contains("ddzlib split: 3 hands") && text.contains("best split: 1 play,"),
        "{text}"
    );
    let out = ddz(&["split", "33Z"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("hand \"33Z\""));
}
