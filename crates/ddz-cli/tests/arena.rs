//! `ddz arena` and `ddz arena merge`.

use crate::common;

use common::{ddz, json, stdout};
use serde_json::Value;

/// The report without its timings.
fn figures(mut v: Value) -> Value {
    for p in v["pairs"].as_array_mut().unwrap() {
        let p = p.as_object_mut().unwrap();
        p.remove("seconds");
        p.remove("games_per_sec");
        p["tallies"] = Value::Null;
    }
    v
}

#[test]
fn self_play_is_even_and_threads_do_not_matter() {
    let args = [
        "arena",
        "--bots",
        "value,value",
        "--deals",
        "20",
        "--quiet",
        "--json",
    ];
    let v = json(&ddz(&args));
    let p = &v["pairs"][0];
    assert_eq!(
        (p["wp"].as_f64(), p["adp"].as_f64()),
        (Some(0.5), Some(0.0))
    );
    assert_eq!(p["deals"], 20);
    let one = json(&ddz(&[&args[..], &["--threads", "1"]].concat()));
    let two = json(&ddz(&[&args[..], &["--threads", "2"]].concat()));
    assert_eq!(figures(one), figures(two));
}

#[test]
fn shards_merge_into_the_whole_run() {
    let dir = std::env::temp_dir().join(format!("ddz-arena-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let base = [
        "arena",
        "--bots",
        "ddzlib,greedy",
        "--deals",
        "24",
        "--seed",
        "5",
        "--quiet",
    ];
    let whole = json(&ddz(&[&base[..], &["--json"]].concat()));
    let mut files = Vec::new();
    for i in 0..3 {
        let out = dir.join(format!("shard{i}.json"));
        let shard = format!("{i}/3");
        let o = ddz(&[
            &base[..],
            &["--shard", &shard, "--out", out.to_str().unwrap()],
        ]
        .concat());
        assert!(stdout(&o).contains("shard"), "the text names the shard");
        files.push(out);
    }
    let svg = dir.join("chart.svg");
    let mut args = vec!["arena", "merge", "--json", "--svg", svg.to_str().unwrap()];
    args.extend(files.iter().map(|f| f.to_str().unwrap()));
    let merged = json(&ddz(&args));
    assert_eq!(figures(merged), figures(whole));
    assert!(std::fs::read_to_string(&svg).unwrap().starts_with("<svg"));
    // Two shards of three: an error naming the missing one.
    let out = ddz(&[
        "arena",
        "merge",
        files[0].to_str().unwrap(),
        files[1].to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("shard 2/3 is missing"));
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn records_replay_and_decks_play() {
    let dir = std::env::temp_dir().join(format!("ddz-arena-records-{}", std::process::id()));
    let deals = dir.join("deals.txt");
    std::fs::create_dir_all(&dir).unwrap();
    let lines = stdout(&ddz(&["deal", "--seed", "3", "--count", "2", "--json"]));
    std::fs::write(&deals, lines).unwrap();
    let records = dir.join("records");
    let v = json(&ddz(&[
        "arena",
        "--bots",
        "greedy,random",
        "--decks",
        deals.to_str().unwrap(),
        "--records",
        records.to_str().unwrap(),
        "--quiet",
        "--json",
    ]));
    assert_eq!(v["deals"], 2);
    let files: Vec<_> = std::fs::read_dir(&records).unwrap().collect();
    assert_eq!(files.len(), 4, "two games a deal");
    for f in files {
        let path = f.unwrap().path();
        let out = ddz(&["replay", path.to_str().unwrap(), "--json"]);
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn bad_arguments_are_clear_errors() {
    for (args, needle) in [
        (vec!["arena", "--deals", "3"], "--bots is required"),
        (
            vec!["arena", "--bots", "value,nosuch"],
            "unknown robot \"nosuch\"",
        ),
        (vec!["arena", "--bots", "value"], "at least two robots"),
        (
            vec!["arena", "--bots", "value,random", "--shard", "3/3"],
            "--shard",
        ),
        (
            vec!["arena", "--bots", "value,random", "--threads", "0"],
            "--threads",
        ),
        (
            vec!["arena", "--bots", "value,random", "--decks", "/nonexistent"],
            "deal file",
        ),
        (vec!["arena", "merge", "/nonexistent.json"], "cannot read"),
    ] {
        let out = ddz(&args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(needle), "{args:?}: {err}");
    }
}

#[test]
fn two_and_four_seats_play_two_robots() {
    for rules in ["two", "four"] {
        let out = ddz(&[
            "arena",
            "--rules",
            rules,
            "--bots",
            "ddzlib,random",
            "--deals",
            "12",
            "--seed",
            "3",
            "--json",
        ]);
        assert!(out.status.success(), "{out:?}");
        let v = json(&out);
        assert_eq!(v["seats"], if rules == "two" { 2 } else { 4 });
        assert!(v["wp"]["mean"].as_f64().unwrap() > 0.5, "{v}");
        let text = stdout(&ddz(&[
            "arena",
            "--rules",
            rules,
            "--bots",
            "ddzlib,ddzlib",
            "--deals",
            "4",
        ]));
        assert!(text.contains("WP  0.500"), "{text}");
    }
    for (args, needle) in [
        (vec!["--bots", "ddzlib,random,greedy"], "exactly two robots"),
        (vec!["--bots", "ddzlib,value"], "value"),
        (
            vec!["--bots", "ddzlib,random", "--bidding"],
            "--bidding is not available",
        ),
    ] {
        let mut all = vec!["arena", "--rules", "two", "--deals", "2"];
        all.extend(args);
        let out = ddz(&all);
        assert_eq!(out.status.code(), Some(2), "{all:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(needle), "{all:?}: {err}");
    }
}

#[test]
fn external_robots_play_at_two_and_four_seats() {
    let ddz_bin = env!("CARGO_BIN_EXE_ddz");
    for rules in ["two", "four"] {
        // ddzlib through the protocol plays exactly as the built-in ddzlib: every deal is even.
        let exec = format!("ext={ddz_bin} bot --rules {rules} --bot ddzlib");
        let out = ddz(&[
            "arena",
            "--rules",
            rules,
            "--bots",
            "ext,ddzlib",
            "--exec",
            &exec,
            "--deals",
            "6",
            "--seed",
            "5",
            "--json",
        ]);
        assert!(out.status.success(), "{out:?}");
        let v = json(&out);
        assert_eq!(v["wp"]["mean"], 0.5, "{v}");
        assert_eq!(v["adp"]["mean"], 0.0, "{v}");
    }
    // A program that answers for another table forfeits every game it plays: its side loses
    // them all, and the report names the first failures.
    let exec = format!("ext={ddz_bin} bot --rules two");
    let args = [
        "arena",
        "--rules",
        "four",
        "--bots",
        "ext,random",
        "--exec",
        &exec,
    ];
    let mut all = args.to_vec();
    all.extend(["--deals", "2", "--json"]);
    let out = ddz(&all);
    assert!(out.status.success(), "{out:?}");
    let v = json(&out);
    assert_eq!(v["failures"], 4, "{v}");
    assert_eq!(v["wp"]["mean"], 0.0, "{v}");
    let first = v["first_failures"][0].as_str().unwrap();
    assert!(
        first.contains("seat 0 (ext): act: error reply") && first.contains("four rules seat 4"),
        "{first}"
    );
    let mut all = args.to_vec();
    all.extend(["--deals", "1"]);
    let text = stdout(&ddz(&all));
    assert!(
        text.contains("2 game(s) forfeited by a failing robot:"),
        "{text}"
    );
}
