//! `ddz ratings`: the round robin and its fit, deterministic whatever the thread count and the
//! sharding; the anchor; clear errors.

use crate::common::{ddz, json, stdout};

const BOTS: &str = "random,greedy,ddzlib";

#[test]
fn ratings_are_the_same_on_any_thread_count_and_strongest_first() {
    let args = |threads: &str| {
        json(&ddz(&[
            "ratings",
            "--bots",
            BOTS,
            "--deals",
            "24",
            "--seed",
            "5",
            "--resamples",
            "100",
            "--threads",
            threads,
            "--json",
            "--quiet",
        ]))
    };
    let one = args("1");
    assert_eq!(one, args("2"), "one thread and two");
    assert_eq!(one["format"], "ddz-ratings/1");
    assert_eq!(one["anchor"]["robot"], "random");
    let robots = one["robots"].as_array().unwrap();
    assert_eq!(robots.len(), 3);
    let names: Vec<&str> = robots
        .iter()
        .map(|r| r["robot"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["ddzlib", "greedy", "random"], "{one}");
    for r in robots {
        let (rating, ci) = (r["rating"].as_f64().unwrap(), &r["ci"]);
        assert!(
            ci[0].as_f64().unwrap() <= rating && rating <= ci[1].as_f64().unwrap(),
            "{r}"
        );
        assert_eq!(r["games"], 96, "two pairs of 24 deals, 2 games each: {r}");
    }
    assert_eq!(robots[2]["rating"], 0.0);
}

#[test]
fn shards_fit_to_the_unsharded_ratings() {
    let dir = std::env::temp_dir().join(format!("ddz-ratings-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let common = [
        "ratings",
        "--bots",
        BOTS,
        "--deals",
        "20",
        "--seed",
        "3",
        "--resamples",
        "50",
        "--quiet",
    ];
    let whole = json(&ddz(&[&common[..], &["--json"]].concat()));
    let mut files = Vec::new();
    for i in 0..2 {
        let file = dir.join(format!("shard{i}.json"));
        let shard = format!("{i}/2");
        let out = ddz(&[
            &common[..],
            &["--shard", &shard, "--out", file.to_str().unwrap()],
        ]
        .concat());
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        files.push(file);
    }
    let merged = json(&ddz(&[
        "ratings",
        "--reports",
        files[0].to_str().unwrap(),
        files[1].to_str().unwrap(),
        "--seed",
        "3",
        "--resamples",
        "50",
        "--json",
    ]));
    assert_eq!(merged, whole);
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn the_anchor_sets_the_scale_and_bad_input_is_a_clear_error() {
    let anchored = json(&ddz(&[
        "ratings",
        "--bots",
        "random,greedy",
        "--deals",
        "10",
        "--anchor",
        "greedy=1500",
        "--resamples",
        "20",
        "--json",
        "--quiet",
    ]));
    let greedy = anchored["robots"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["robot"] == "greedy")
        .unwrap()
        .clone();
    assert_eq!(greedy["rating"], 1500.0, "{anchored}");
    let table = stdout(&ddz(&[
        "ratings",
        "--bots",
        "random,greedy",
        "--deals",
        "4",
        "--resamples",
        "10",
        "--quiet",
    ]));
    assert!(
        table.contains("Elo scale, random at 0") && table.contains("greedy"),
        "{table}"
    );
    for (args, needle) in [
        (&["ratings", "--bots", "greedy,greedy"][..], "given twice"),
        (&["ratings", "--bots", "greedy"][..], "two robots or more"),
        (
            &["ratings", "--bots", "greedy,random", "--anchor", "value=0"][..],
            "not one of the robots",
        ),
        (
            &["ratings", "--bots", "greedy,random", "--anchor", "greedy"][..],
            "not NAME=RATING",
        ),
        (
            &["ratings", "--bots", "greedy,random", "--anchor", "greedy=x"][..],
            "not a rating",
        ),
        (
            &["ratings", "--bots", "greedy,random", "--resamples", "0"][..],
            "--resamples",
        ),
        (&["ratings", "--bots", "greedy,nobody"][..], "unknown robot"),
        (
            &["ratings", "--reports", "/nonexistent/ddz.json"][..],
            "cannot read",
        ),
    ] {
        let out = ddz(args);
        assert!(!out.status.success(), "{args:?}");
        let error = String::from_utf8_lossy(&out.stderr);
        assert!(error.contains(needle), "{args:?}: {error}");
    }
    let help = stdout(&ddz(&["ratings", "--help"]));
    for option in [
        "--bots",
        "--deals",
        "--anchor",
        "--resamples",
        "--reports",
        "--shard",
        "--json",
    ] {
        assert!(help.contains(option), "{option}");
    }
}
