//! `ddz perft` and `ddz bench games` end to end: counts, output shapes, deal files and errors.

use crate::common;

use common::{ddz, json_lines, stdout};

use serde_json::Value;

/// A temporary file that is removed when dropped.
struct TempFile(std::path::PathBuf);

impl TempFile {
    fn new(name: &str, text: &str) -> TempFile {
        let path = std::env::temp_dir().join(format!("ddz-perft-{}-{name}", std::process::id()));
        std::fs::write(&path, text).unwrap();
        TempFile(path)
    }
    fn path(&self) -> &str {
        self.0.to_str().unwrap()
    }
}

impl Drop for TempFile {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0);
    }
}

fn counts(v: &Value) -> Vec<u64> {
    v["perft"]
        .as_array()
        .unwrap()
        .iter()
        .map(|n| n.as_u64().unwrap())
        .collect()
}

#[test]
fn perft_seed_json_shape_and_counts() {
    // The deal `ddz deal --seed 1` prints, counted by the library's perft (itself checked
    // against a brute-force perft in crates/ddz-game/tests/perft.rs).
    let v = json_lines(&ddz(&["perft", "--seed", "1", "--depth", "4", "--json"]));
    assert_eq!(v.len(), 1);
    let rules = ddz_core::Rules::classic();
    let deal = ddz_game::Deal::from_seed(ddz_game::derive_seed(1, 0), &rules);
    let expected = ddz_game::perft_deal(&deal, &rules, 4).unwrap();
    assert_eq!(counts(&v[0]), expected);
    assert_eq!(expected, [40, 119, 617, 2433]);
    assert!(v[0]["seconds"].as_f64().unwrap() >= 0.0);
    assert!(v[0]["nodes_per_sec"].as_f64().unwrap() > 0.0);
    let keys: Vec<&String> = v[0].as_object().unwrap().keys().collect();
    assert_eq!(keys.len(), 3, "{keys:?}");
    let v = json_lines(&ddz(&[
        "perft", "--seed", "2", "--depth", "2", "--rules", "laizi", "--json",
    ]));
    let laizi = ddz_core::Rules::laizi();
    let deal = ddz_game::Deal::from_seed(ddz_game::derive_seed(2, 0), &laizi);
    assert_eq!(
        counts(&v[0]),
        ddz_game::perft_deal(&deal, &laizi, 2).unwrap()
    );
}

#[test]
fn perft_text_lists_every_depth() {
    let text = stdout(&ddz(&["perft", "--seed", "1", "--depth", "3"]));
    assert!(text.contains("33445688899TTJJKKA22"), "{text}");
    for (d, n) in [(1, 40), (2, 119), (3, 617)] {
        assert!(
            text.lines()
                .any(|l| l.split_whitespace().collect::<Vec<_>>()
                    == ["depth", &d.to_string(), &n.to_string()]),
            "{text}"
        );
    }
    assert!(text.contains("leaves/s"), "{text}");
}

#[test]
fn perft_deal_file_gives_one_line_per_deal() {
    let deals = stdout(&ddz(&["deal", "--seed", "9", "--count", "2", "--json"]));
    let file = TempFile::new("deals.jsonl", &deals);
    let v = json_lines(&ddz(&[
        "perft",
        "--deal",
        file.path(),
        "--depth",
        "3",
        "--json",
    ]));
    assert_eq!(v.len(), 2);
    // The same counts as the deal given by seed (ddz deal's deal i is dealt from
    // derive_seed(9, i), a different seed from 9 itself, so compare line to line only).
    for (line, result) in deals.lines().zip(&v) {
        let one = TempFile::new("one.jsonl", line);
        let again = json_lines(&ddz(&[
            "perft",
            "--deal",
            one.path(),
            "--depth",
            "3",
            "--json",
        ]));
        assert_eq!(counts(&again[0]), counts(result));
        assert_eq!(counts(result).len(), 3);
    }
}

#[test]
fn perft_bad_deal_line_names_the_line() {
    let good = stdout(&ddz(&["deal", "--seed", "1", "--json"]));
    let file = TempFile::new("bad.jsonl", &format!("{good}{{\"landlord\": 3}}\n{good}"));
    let out = ddz(&["perft", "--deal", file.path(), "--depth", "1", "--json"]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("line 2"), "{err}");
    // The run goes on: results for lines 1 and 3, the error in place of line 2.
    let lines: Vec<Value> = String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 3);
    assert_eq!(counts(&lines[0]), counts(&lines[2]));
    assert_eq!(lines[1]["line"], 2);
    assert!(
        lines[1]["error"]
            .as_str()
            .unwrap()
            .contains("not a deal line")
    );
    let out = ddz(&["perft", "--depth", "2"]);
    assert_eq!(out.status.code(), Some(2), "--deal or --seed is required");
}

#[test]
fn bench_games_json() {
    let v = json_lines(&ddz(&["bench", "games", "--json", "--seconds", "0.2"]));
    assert_eq!(v.len(), 1);
    assert!(v[0]["games_per_sec"].as_f64().unwrap() > 0.0);
    assert!(v[0]["games"].as_u64().unwrap() >= 1);
    // Every table plays games, and the play phase alone.
    for rules in ["two", "four", "classic"] {
        for extra in [None, Some("--play-only")] {
            let mut args = vec![
                "bench",
                "games",
                "--json",
                "--seconds",
                "0",
                "--rules",
                rules,
            ];
            args.extend(extra);
            let v = json_lines(&ddz(&args));
            assert_eq!(v[0]["play_only"], extra.is_some(), "{args:?}");
            assert!(v[0]["moves_per_sec"].as_f64().unwrap() > 0.0, "{args:?}");
        }
    }
}
