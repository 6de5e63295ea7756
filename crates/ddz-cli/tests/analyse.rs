//! `ddz analyse` end to end on the record files of `ddz-game`'s test data: JSON in the
//! documented shape, the seat asked for, a folder of records as JSON lines, and bad input
//! (exit code 2, what is wrong named).

use crate::common;

use common::{ddz, ddz_stdin, json, stdout};

use std::path::PathBuf;

fn records() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../ddz-game/tests/data/records")
}

fn record(name: &str) -> String {
    records().join(name).to_string_lossy().into_owned()
}

fn failure(args: &[&str]) -> String {
    let out = ddz(args);
    assert_eq!(out.status.code(), Some(2), "{args:?}: exit code 2");
    String::from_utf8(out.stderr).unwrap()
}

#[test]
fn json_rates_every_play_of_the_seat() {
    let doc = json(&ddz(&[
        "analyse",
        &record("classic.json"),
        "--seat",
        "1",
        "--iters",
        "16",
        "--json",
    ]));
    assert_eq!(doc["format"], "ddz-analysis/1");
    assert_eq!(doc["seats"], serde_json::json!([1]));
    let file: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(record("classic.json")).unwrap()).unwrap();
    let plays = file["plays"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|p| p[0] == 1)
        .count();
    let decisions = doc["decisions"].as_array().unwrap();
    assert_eq!(
        decisions.iter().filter(|d| d["kind"] == "play").count(),
        plays
    );
    for d in decisions {
        assert_eq!(d["seat"], 1, "{d}");
        for key in [
            "step",
            "kind",
            "played",
            "best",
            "win_played",
            "win_best",
            "loss",
            "mark",
            "exact",
        ] {
            assert!(d.get(key).is_some(), "{key} in {d}");
        }
        if let (Some(played), Some(best)) = (d["win_played"].as_f64(), d["win_best"].as_f64()) {
            assert!((0.0..=1.0).contains(&played) && best >= played, "{d}");
            assert!((d["loss"].as_f64().unwrap() - (best - played)).abs() < 1e-9);
        }
    }
    let summary = &doc["summary"]["seats"][0];
    assert_eq!(summary["seat"], 1);
    assert!(summary["mean_loss"].as_f64().unwrap() >= 0.0, "{summary}");
    // The text form says the same, one line a decision and the summary.
    let text = stdout(&ddz(&[
        "analyse",
        &record("classic.json"),
        "--seat",
        "1",
        "--iters",
        "16",
    ]));
    assert_eq!(
        text.lines().filter(|l| l.contains(" seat 1 ")).count(),
        decisions.len(),
        "{text}"
    );
    assert!(text.contains("seat 1: "), "{text}");
}

#[test]
fn a_folder_of_records_gives_a_json_line_each() {
    // The folder holds a corrupt record: it gets its error line, the others their analyses,
    // and the exit code is 2.
    let out = ddz(&[
        "analyse",
        "--records",
        records().to_str().unwrap(),
        "--iters",
        "4",
        "--exact-cards",
        "0",
        "--json",
        "--quiet",
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("1 of 5 records could not be analysed"));
    let lines: Vec<serde_json::Value> = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let count = std::fs::read_dir(records())
        .unwrap()
        .filter(|e| {
            e.as_ref()
                .unwrap()
                .path()
                .extension()
                .is_some_and(|x| x == "json")
        })
        .count();
    assert_eq!(lines.len(), count);
    for line in &lines {
        if line["record"]
            .as_str()
            .unwrap()
            .ends_with("corrupt-play.json")
        {
            assert!(
                line["error"].as_str().unwrap().contains("play 5 "),
                "{line}"
            );
            continue;
        }
        assert_eq!(line["format"], "ddz-analysis/1", "{line}");
        assert!(line["record"].as_str().unwrap().ends_with(".json"));
        assert!(
            line["decisions"]
                .as_array()
                .unwrap()
                .iter()
                .all(|d| d["exact"].is_null())
        );
    }
}

#[test]
fn bad_input_is_refused_by_name() {
    let e = failure(&["analyse", &record("classic.json"), "--seat", "3"]);
    assert!(e.contains("--seat: \"3\" is not 0, 1, 2 or all"), "{e}");
    let e = failure(&["analyse", &record("classic.json"), "--iters", "0"]);
    assert!(e.contains("--iters must be at least 1"), "{e}");
    let e = failure(&["analyse", &record("classic.json"), "--time", "soon"]);
    assert!(e.contains("--time"), "{e}");
    let e = failure(&["analyse"]);
    assert!(e.contains("no record given"), "{e}");
    let e = failure(&["analyse", "/no/such/record.json"]);
    assert!(
        e.contains("cannot read record file /no/such/record.json"),
        "{e}"
    );
    let mut file: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(record("classic.json")).unwrap()).unwrap();
    file["plays"][1][1] = "3".into();
    let out = ddz_stdin(&["analyse", "-"], &file.to_string());
    assert_eq!(out.status.code(), Some(2));
    let e = String::from_utf8(out.stderr).unwrap();
    assert!(e.contains("play 2 "), "{e}");
    let out = ddz_stdin(&["analyse", "-"], "{not json");
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn replay_analyses_on_demand() {
    let doc = json(&ddz(&[
        "replay",
        &record("classic.json"),
        "--json",
        "--analyse",
    ]));
    assert_eq!(doc["ok"], true);
    assert_eq!(doc["analysis"]["format"], "ddz-analysis/1");
    assert_eq!(doc["analysis"]["seats"], serde_json::json!([0, 1, 2]));
    let text = stdout(&ddz(&["replay", &record("classic.json"), "--analyse"]));
    assert!(text.contains("analysis (ddz analyse):\n"), "{text}");
    assert!(
        text.contains("turning point: step ") || text.contains("seat 2: "),
        "{text}"
    );
}
