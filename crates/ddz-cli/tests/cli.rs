//! The `ddz` command end to end: output shapes, batch mode, errors and exit codes.

use crate::common;

use common::{ddz, ddz_stdin, json};

use serde_json::Value;

#[test]
fn classify_json_lists_every_reading() {
    let v = json(&ddz(&["classify", "333444555666", "--json"]));
    assert_eq!(v["cards"], "333444555666");
    let kinds: Vec<&str> = v["readings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["kind"].as_str().unwrap())
        .collect();
    assert_eq!(kinds, ["airplane", "airplane_singles", "airplane_singles"]);
    assert_eq!(v["readings"][0]["len"], 4);
    assert_eq!(v["readings"][0]["main"], "6");
}

#[test]
fn classify_under_another_profile() {
    let v = json(&ddz(&[
        "classify",
        "333444555666",
        "--rules",
        "rlcard",
        "--json",
    ]));
    assert_eq!(v["readings"].as_array().unwrap().len(), 1);
}

#[test]
fn compare_json_covers_every_pair_of_readings() {
    let v = json(&ddz(&[
        "compare",
        "555666777888",
        "444555666777:airplane_singles:6",
        "--json",
    ]));
    assert_eq!(
        v["beats"], false,
        "the airplane of 4 does not beat an airplane with singles"
    );
    let pairs = v["pairs"].as_array().unwrap();
    assert_eq!(pairs.len(), 3);
    assert_eq!(pairs.iter().filter(|p| p["beats"] == true).count(), 2);
}

#[test]
fn moves_json_and_text() {
    let v = json(&ddz(&["moves", "3445BR", "--beat", "33", "--json"]));
    let cards: Vec<&str> = v["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["cards"].as_str().unwrap())
        .collect();
    assert_eq!(cards, ["44", "BR", "pass"]);
    let out = ddz(&["moves", "3456789", "--kind", "straight"]);
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.starts_with("3456789: 6 moves leading"), "{text}");
}

#[test]
fn moves_batch_reports_bad_lines_and_goes_on() {
    let input = concat!(
        "{\"hand\": \"3345\", \"last\": \"3\"}\n",
        "not json\n",
        "{\"hand\": \"33Z\"}\n",
        "{\"hand\": \"3344\", \"last\": {\"cards\": \"33\", \"kind\": \"pair\", \"main\": \"3\", \"len\": 1}}\n",
        "{\"hand\": \"3344\", \"last\": null}\n",
    );
    let out = ddz_stdin(&["moves", "--input", "-"], input);
    assert!(out.status.success());
    let lines: Vec<Value> = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 5);
    assert_eq!(lines[0]["moves"].as_array().unwrap().len(), 3); // 4, 5, pass
    assert_eq!(lines[1]["line"], 2);
    assert!(lines[2]["error"].as_str().unwrap().contains("position 3"));
    assert_eq!(lines[3]["moves"][0]["cards"], "44");
    assert!(lines[4]["moves"].as_array().unwrap().len() > 3);
}

#[test]
fn bad_input_exits_2_with_a_clear_message() {
    for (args, needle) in [
        (vec!["moves", "33Z"], "\"Z\" at position 3 is not a rank"),
        (
            vec!["moves", "333", "--beat", "3345"],
            "is not a combination",
        ),
        (vec!["classify", "33333"], "a deck has only 4"),
        (
            vec!["classify", "3", "--rules", "poker"],
            "is not a rule profile",
        ),
        (vec!["moves", "3", "--kind", "plane"], "is not a kind"),
        (
            vec!["moves", "--rules", "two", "3345"],
            "rank 3 is not in this game's deck",
        ),
        (
            vec!["classify", "--rules", "four", "555555555"],
            "two decks have only 8",
        ),
        (vec!["moves", "--input", "/nonexistent/file"], "cannot open"),
    ] {
        let out = ddz(&args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(needle), "{args:?}: {err}");
    }
}

#[test]
fn moves_and_classify_take_the_variants_decks() {
    // Four: five of a rank is a bomb, and BBRR the four jokers.
    let out = ddz(&["moves", "--rules", "four", "33333BBRR", "--json"]);
    assert!(out.status.success(), "{out:?}");
    let kinds: Vec<String> = json(&out)["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["kind"].as_str().unwrap().to_string())
        .collect();
    assert!(kinds.iter().any(|k| k == "four_jokers"), "{kinds:?}");
    assert_eq!(
        kinds.iter().filter(|k| *k == "bomb").count(),
        2,
        "{kinds:?}"
    );
    // Two: the 5s are the lowest rank there is.
    let out = ddz(&["classify", "--rules", "two", "55", "--json"]);
    assert!(out.status.success(), "{out:?}");
    assert_eq!(json(&out)["readings"][0]["kind"], "pair");
}

#[test]
fn rules_file_overrides_fields() {
    let dir = std::env::temp_dir().join(format!("ddz-cli-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("rules.toml");
    std::fs::write(&path, "profile = \"classic\"\nfour_with_two = false\n").unwrap();
    let v = json(&ddz(&[
        "classify",
        "444455",
        "--rules-file",
        path.to_str().unwrap(),
        "--json",
    ]));
    assert_eq!(v["readings"].as_array().unwrap().len(), 0);
    std::fs::write(&path, "nonsense = 1\n").unwrap();
    let out = ddz(&["classify", "444455", "--rules-file", path.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("unknown rule field"));
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn bench_movegen_json() {
    let v = json(&ddz(&[
        "bench",
        "movegen",
        "--hands",
        "20",
        "--seconds",
        "0.05",
        "--json",
    ]));
    assert!(v["lead"]["hands_per_sec"].as_f64().unwrap() > 0.0);
    assert!(v["follow"]["moves_per_sec"].as_f64().unwrap() > 0.0);
}

#[test]
fn wildcards_on_the_command_line() {
    let v = json(&ddz(&[
        "classify", "7779", "--rules", "laizi", "--laizi", "7", "--json",
    ]));
    let readings = v["readings"].as_array().unwrap();
    assert_eq!(readings.len(), 14);
    let bomb = readings.iter().find(|r| r["kind"] == "bomb").unwrap();
    assert_eq!(bomb["as"], "9999");
    assert_eq!(bomb["class"], "soft");
    let v = json(&ddz(&[
        "compare",
        "3333",
        "7779=9999",
        "--rules",
        "laizi",
        "--laizi",
        "7",
        "--json",
    ]));
    assert_eq!(v["beats"], true, "a hard bomb beats a soft one");
    let v = json(&ddz(&[
        "moves", "79", "--rules", "tiandi", "--laizi", "7,9", "--json",
    ]));
    let pairs: Vec<&Value> = v["moves"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|m| m["kind"] == "pair")
        .collect();
    assert_eq!(pairs.len(), 2, "79 is the pair 77 or 99");
}

#[test]
fn wildcard_batch_lines_and_errors() {
    let input = concat!(
        "{\"hand\": \"8889\", \"last\": null, \"laizi\": [\"9\"]}\n",
        "{\"hand\": \"8889\", \"laizi\": [\"B\"]}\n",
        "{\"hand\": \"8889\", \"laizi\": [\"7\", \"9\"]}\n",
    );
    let out = ddz_stdin(&["moves", "--input", "-", "--rules", "laizi"], input);
    let lines: Vec<Value> = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let moves = lines[0]["moves"].as_array().unwrap();
    assert!(
        moves
            .iter()
            .any(|m| m["kind"] == "bomb" && m["class"] == "soft")
    );
    assert!(
        lines[1]["error"]
            .as_str()
            .unwrap()
            .contains("jokers are never wild")
    );
    assert!(lines[2]["error"].as_str().unwrap().contains("1 wild rank"));
    for (args, needle) in [
        (
            vec!["classify", "7779", "--laizi", "7"],
            "classic rules have 0 wild ranks",
        ),
        (
            vec!["classify", "7779", "--rules", "laizi", "--laizi", "77"],
            "is not one rank",
        ),
        (
            vec![
                "moves",
                "7779",
                "--rules",
                "laizi",
                "--laizi",
                "7",
                "--beat",
                "7779=3339",
            ],
            "",
        ),
        (
            vec![
                "moves",
                "7779",
                "--rules",
                "laizi",
                "--laizi",
                "7",
                "--beat",
                "7779=7778",
            ],
            "cannot be read as",
        ),
    ] {
        let out = ddz(&args);
        if needle.is_empty() {
            assert!(out.status.success(), "{args:?}");
        } else {
            assert_eq!(out.status.code(), Some(2), "{args:?}");
            assert!(
                String::from_utf8_lossy(&out.stderr).contains(needle),
                "{args:?}"
            );
        }
    }
}

#[test]
fn deal_is_seeded_and_prints_deal_lines() {
    let a = ddz(&["deal", "--seed", "9", "--count", "3", "--json"]);
    let b = ddz(&["deal", "--seed", "9", "--count", "3", "--json"]);
    assert_eq!(a.stdout, b.stdout);
    let lines: Vec<Value> = String::from_utf8(a.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 3);
    assert_eq!(lines[0]["landlord"].as_str().unwrap().len(), 20);
    assert!(lines[0].get("laizi").is_none());
    let w = json(&ddz(&["deal", "--rules", "tiandi", "--json"]));
    assert_eq!(w["laizi"].as_array().unwrap().len(), 2);
    assert_eq!(ddz(&["deal", "--count", "0"]).status.code(), Some(2));
}

#[test]
fn deal_no_shuffle_gives_the_section_7_vector() {
    let v = json(&ddz(&["deal", "--seed", "1", "--no-shuffle", "--json"]));
    assert_eq!(v["landlord"], "347789999TTQQQQAAAA2");
    assert_eq!(v["landlord_down"], "3344466668TKK222R");
    assert_eq!(v["landlord_up"], "355557788TJJJJKKB");
    assert_eq!(v["kitty"], "899");
    // Deal i of a run is seed + i: the second deal is seed 2's vector.
    let out =
        String::from_utf8(ddz(&["deal", "--seed", "1", "--count", "2", "--no-shuffle"]).stdout)
            .unwrap();
    assert!(
        out.contains("deal 0 (no shuffle, seed 1, 5 bombs)"),
        "{out}"
    );
    assert!(
        out.contains("deal 1 (no shuffle, seed 2, 2 bombs)"),
        "{out}"
    );
    let help = String::from_utf8(ddz(&["deal", "--help"]).stdout).unwrap();
    assert!(help.contains("--no-shuffle"), "{help}");
}

#[test]
fn train_runs_reports_json_and_resumes() {
    let dir = std::env::temp_dir().join(format!("ddz-cli-train-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let d = dir.to_str().unwrap();
    let tiny = [
        "--hidden",
        "8",
        "--batch",
        "64",
        "--replay",
        "2000",
        "--eval-every",
        "0",
        "--eval-deals",
        "2",
        "--report-every",
        "1000",
        "--quiet",
        "--json",
    ];
    let run = |frames: &str, resume: bool| {
        let mut args = vec!["train", "--dir", d, "--frames", frames];
        if resume {
            args.push("--resume");
        }
        args.extend(tiny);
        json(&ddz(&args))
    };
    let first = run("2000", false);
    assert!(first["frames"].as_u64().unwrap() >= 2000, "{first}");
    assert_eq!(first["eval_games"], 4);
    let second = run("3000", true);
    assert!(second["frames"].as_u64().unwrap() >= 3000, "{second}");
    assert!(second["games"].as_u64() > first["games"].as_u64());
    // Resumed wider (8 hidden units to 12), and refused narrower.
    let mut wider = vec!["train", "--dir", d, "--frames", "4000", "--resume"];
    wider.extend(tiny);
    let third = json(&ddz(&[&wider[..], &["--widen", "12"]].concat()));
    assert!(third["frames"].as_u64().unwrap() >= 4000, "{third}");
    let bytes = std::fs::read(dir.join("checkpoint.safetensors")).unwrap();
    let header_len = u64::from_le_bytes(bytes[..8].try_into().unwrap()) as usize;
    let header: serde_json::Value = serde_json::from_slice(&bytes[8..8 + header_len]).unwrap();
    assert_eq!(header["layers.0.weight"]["shape"][0], 12, "{header}");
    let narrower = ddz(&[&wider[..], &["--widen", "4"]].concat());
    assert!(!narrower.status.success());
    let err = String::from_utf8_lossy(&narrower.stderr);
    assert!(
        err.contains("cannot widen hidden layers [12] to [4]"),
        "{err}"
    );
    // The checkpoint plays: the net robot reads it.
    let weights = format!("net:weights={d}/checkpoint.safetensors");
    let bots = format!("{weights},ddzlib");
    let out = ddz(&["arena", "--bots", &bots, "--deals", "2", "--json"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn train_imitates_recorded_games() {
    let dir = std::env::temp_dir().join(format!("ddz-cli-imitate-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let records = dir.join("records");
    let (r, run) = (records.to_str().unwrap(), dir.join("run"));
    let out = ddz(&[
        "arena",
        "--bots",
        "ddzlib,greedy",
        "--deals",
        "4",
        "--records",
        r,
        "--quiet",
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let args = [
        "train",
        "--dir",
        run.to_str().unwrap(),
        "--imitate",
        r,
        "--frames",
        "300",
        "--batch",
        "32",
        "--hidden",
        "8",
        "--keep-moves",
        "4",
        "--eval-deals",
        "2",
        "--quiet",
        "--json",
    ];
    let report = json(&ddz(&args));
    assert!(report["frames"].as_u64().unwrap() >= 300, "{report}");
    let matched = report["matched"].as_f64().unwrap();
    assert!((0.0..=1.0).contains(&matched), "{report}");
    assert_eq!(report["eval_games"], 4);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn train_refuses_bad_settings() {
    for (args, says) in [
        (vec!["--hidden", "8,x"], "--hidden"),
        (vec!["--epsilon", "1.5"], "--epsilon"),
        (vec!["--lr", "0"], "--lr"),
        (vec!["--minutes=-1"], "--minutes"),
        (vec!["--rules", "nosuch"], "--rules"),
        (vec!["--imitate", "/tmp", "--epsilon", "0.1"], "--epsilon"),
        (vec!["--versus-ddzlib", "1.5"], "--versus-ddzlib"),
        (vec!["--rollouts", "x"], "--rollouts"),
        (vec!["--imitate", "/tmp", "--rollouts", "4"], "--rollouts"),
        (vec!["--rollout-deals", "4"], "--rollouts"),
        (
            vec!["--rollouts", "0", "--rollout-deals", "4"],
            "--rollouts",
        ),
        (
            vec!["--rollouts", "4", "--rollout-deals", "x"],
            "--rollout-deals",
        ),
        (vec!["--keep-moves", "4"], "--imitate"),
        (vec!["--expert", "ddzlib"], "--expert"),
        (vec!["--expert", "search:iters=x"], "--expert"),
        (vec!["--expert", "search", "--rollouts", "4"], "--rollouts"),
        (vec!["--widen", "512"], "--resume"),
        (vec!["--resume", "--widen", "512,x"], "--widen"),
        (
            vec!["--imitate", "/tmp", "--keep-moves", "1"],
            "--keep-moves",
        ),
        (
            vec!["--imitate", "/tmp", "--value-weight=-1"],
            "--value-weight",
        ),
        (
            vec!["--imitate", "/nonexistent/records"],
            "/nonexistent/records",
        ),
    ] {
        let mut all = vec!["train", "--dir", "/nonexistent/ddz-train-test", "--quiet"];
        all.extend(args.iter().copied());
        let out = ddz(&all);
        assert!(!out.status.success());
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(says), "{args:?}: {err}");
    }
}
