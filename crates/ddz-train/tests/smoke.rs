//! The training pipeline in miniature (seconds, never the real run): the loss falls, a run
//! checkpoints, reports and resumes, and bad checkpoints are clear errors; recorded games
//! become decisions, imitation learns their moves, and bad records are clear errors.

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::Arc;

use ddz_bots::net::features::STATE_LEN;
use ddz_bots::net::{Net, Scorer};
use ddz_bots::search::SearchConfig;
use ddz_core::Rules;
use ddz_game::GameRecord;
use ddz_train::{
    Actor, Behaviour, CHECKPOINT, Expert, Frame, ImitateConfig, Learner, METRICS, TrainConfig,
    TrainingExample, imitate, load_records, read_checkpoint, train,
};

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("ddz-train-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

/// An actor with an untrained network of one small hidden layer.
fn untrained_actor(seed: u64) -> Actor {
    let learner = Learner::new(&[16], 1e-3).unwrap();
    let net = Net::from_mlp(learner.export(HashMap::new()).unwrap()).unwrap();
    Actor::new(Scorer::new(Arc::new(net)), seed)
}

fn frames_of_games(games: u64) -> Vec<Frame> {
    let mut actor = untrained_actor(7);
    let behaviour = Behaviour {
        epsilon: 0.1,
        teacher: 0.5,
        teacher_temperature: 0.5,
        versus: 0.0,
        rollouts: 0,
        rollout_deals: 0,
        expert: None,
    };
    let mut frames = Vec::new();
    for n in 0..games {
        let added = actor.play(
            &Rules::classic(),
            n,
            behaviour,
            &mut frames,
            &mut Vec::new(),
        );
        assert!(added > 0, "game {n} gave no frame");
    }
    frames
}

#[test]
fn frames_are_labelled_with_the_outcome() {
    let frames = frames_of_games(10);
    assert!(frames.iter().all(|f| f.target == 1.0 || f.target == -1.0));
    // Both outcomes occur: each game has a winning and a losing side that decided.
    assert!(frames.iter().any(|f| f.target > 0.0) && frames.iter().any(|f| f.target < 0.0));
}

#[test]
fn games_against_ddzlib_keep_only_the_networks_side() {
    let mut actor = untrained_actor(9);
    // The teacher makes most of the network's side's moves, so that the side wins some games.
    let versus = Behaviour {
        epsilon: 0.05,
        teacher: 0.9,
        teacher_temperature: 0.0,
        versus: 1.0,
        rollouts: 0,
        rollout_deals: 0,
        expert: None,
    };
    let (mut wins, mut losses) = (0, 0);
    for n in 0..40 {
        let mut frames = Vec::new();
        let added = actor.play(&Rules::classic(), n, versus, &mut frames, &mut Vec::new());
        // One side's frames only: they share the side's outcome (in self-play both sides
        // decide, and every game has a winner and a loser). A side may have had no choice.
        let Some(target) = frames.first().map(|f| f.target) else {
            continue;
        };
        assert_eq!(added, frames.len());
        assert!(
            frames.iter().all(|f| f.target == target),
            "game {n} kept frames of both sides"
        );
        if target > 0.0 { wins += 1 } else { losses += 1 }
    }
    assert!(wins > 0 && losses > 0, "{wins} wins, {losses} losses");
}

/// The decisions of ten games with rollouts of the four best plays (on `deals` deals of the
/// hidden cards, or from the true position when 0), half of them against `ddzlib`.
fn rollout_decisions(seed: u64, deals: usize) -> Vec<TrainingExample> {
    let mut actor = untrained_actor(seed);
    let behaviour = Behaviour {
        epsilon: 0.05,
        teacher: 0.5,
        teacher_temperature: 0.0,
        versus: 0.5,
        rollouts: 4,
        rollout_deals: deals,
        expert: None,
    };
    let (mut frames, mut decisions) = (Vec::new(), Vec::new());
    for n in 0..10 {
        actor.play(&Rules::classic(), n, behaviour, &mut frames, &mut decisions);
    }
    // With rollouts every decision of the network is kept as a decision, none as a frame.
    assert!(frames.is_empty());
    assert!(decisions.len() > 50, "{} decisions", decisions.len());
    decisions
}

#[test]
fn rollout_decisions_prefer_the_plays_that_won() {
    let mut mixed = 0;
    for d in &rollout_decisions(11, 0) {
        assert!((2..=4).contains(&d.moves.len()), "{} moves", d.moves.len());
        assert!(d.preferred < d.moves.len() && d.valued < d.moves.len());
        // The preferred plays are the winners, first: the valued play won if it is one of
        // them, and lost if it is not while some play won.
        if d.preferred > 0 {
            mixed += 1;
            let expected = if d.valued < d.preferred { 1.0 } else { -1.0 };
            assert_eq!(d.target, expected);
        } else {
            assert!(d.target == 1.0 || d.target == -1.0);
        }
    }
    assert!(mixed > 0, "no decision where some plays won and some lost");
}

#[test]
fn rollouts_on_dealt_hidden_cards_prefer_the_plays_that_won_the_most() {
    let deals = 3;
    let decisions = rollout_decisions(12, deals);
    // The valued play's target is its share of the deals won, from -1 to 1 in steps of 2/3.
    let steps = |target: f32| (target + 1.0) * deals as f32 / 2.0;
    let mut shared = 0;
    for d in &decisions {
        assert!((2..=4).contains(&d.moves.len()), "{} moves", d.moves.len());
        assert!(d.preferred < d.moves.len() && d.valued < d.moves.len());
        let won = steps(d.target);
        assert!(
            (won - won.round()).abs() < 1e-4 && (0.0..=3.0).contains(&won),
            "{d:?}"
        );
        // Shares strictly between all and none: the play-outs ran on different deals (the
        // true position alone gives only wins and losses).
        if won.round() == 1.0 || won.round() == 2.0 {
            shared += 1;
        }
        // When a play won more than the valued one, the valued one is not preferred.
        if d.preferred > 0 && d.valued >= d.preferred {
            assert!(won.round() < deals as f32, "{d:?}");
        }
    }
    assert!(shared > 0, "no play won some deals and lost others");
}

/// A small search robot as the expert (`search:iters=200`), keeping four plays a decision.
fn small_expert() -> Expert {
    Expert {
        search: SearchConfig::parse(["iters=200"].into_iter()).unwrap(),
        keep_moves: 4,
    }
}

#[test]
fn expert_decisions_prefer_the_experts_play_and_learn_the_outcome() {
    let rules = Rules::classic();
    let greedy = Behaviour {
        epsilon: 0.0,
        teacher: 0.0,
        teacher_temperature: 0.0,
        versus: 1.0,
        rollouts: 0,
        rollout_deals: 0,
        expert: None,
    };
    let taught = Behaviour {
        expert: Some(small_expert()),
        ..greedy
    };
    let (mut expert_wins, mut network_wins, mut disagreements) = (0, 0, 0);
    let mut actor = untrained_actor(13);
    let net = actor.scorer_mut().net().clone();
    for n in 0..12 {
        let (mut frames, mut decisions) = (Vec::new(), Vec::new());
        let added = actor.play(&rules, n, taught, &mut frames, &mut decisions);
        // Every decision of the network's side is the expert's, none a frame.
        assert!(frames.is_empty());
        assert_eq!(added, decisions.len());
        let Some(first) = decisions.first() else {
            continue;
        };
        for d in &decisions {
            assert!((2..=4).contains(&d.moves.len()), "{} moves", d.moves.len());
            assert_eq!((d.preferred, d.valued), (1, 0));
            // One side's decisions: they share its outcome.
            assert_eq!(d.target, first.target, "game {n}");
            // The network's scores of the kept plays: the expert's first is not always its best.
            let mut inputs: Vec<u16> = Vec::new();
            let scores: Vec<f32> = d
                .moves
                .iter()
                .map(|m| {
                    inputs.clear();
                    inputs.extend_from_slice(&d.state);
                    inputs.extend_from_slice(m);
                    let mut dense = vec![0.0; ddz_bots::net::features::INPUT_LEN];
                    for &i in &inputs {
                        dense[usize::from(i)] = 1.0;
                    }
                    net.mlp().forward_dense(&dense)
                })
                .collect();
            if scores[1..].iter().any(|&s| s > scores[0]) {
                disagreements += 1;
            }
        }
        assert!(first.target == 1.0 || first.target == -1.0);
        expert_wins += usize::from(first.target > 0.0);
        // The same deal with the untrained network deciding: it wins less often.
        let mut frames = Vec::new();
        actor.play(&rules, n, greedy, &mut frames, &mut Vec::new());
        network_wins += usize::from(frames.first().is_some_and(|f| f.target > 0.0));
    }
    assert!(
        disagreements > 0,
        "the expert always chose the network's best play"
    );
    assert!(
        expert_wins > network_wins,
        "expert {expert_wins} wins, untrained network {network_wins}"
    );
}

#[test]
fn loss_falls_on_fixed_frames() {
    let frames = frames_of_games(20);
    let refs: Vec<&Frame> = frames.iter().take(512).collect();
    let mut learner = Learner::new(&[32], 3e-3).unwrap();
    let before = learner.loss(&refs).unwrap();
    for _ in 0..150 {
        learner.step(&refs).unwrap();
    }
    let after = learner.loss(&refs).unwrap();
    assert!(after < 0.7 * before, "loss {before} -> {after}");
}

fn tiny(dir: PathBuf, frames: u64) -> TrainConfig {
    let mut config = TrainConfig::new(dir);
    config.hidden = vec![8];
    config.frames = frames;
    config.batch = 64;
    config.replay = 2_000;
    config.report_every = 1_000;
    config.checkpoint_every = 1_000;
    config.eval_every = 0;
    config.eval_deals = 2;
    config.teacher_frames = 2_000;
    config
}

#[test]
fn a_run_checkpoints_reports_and_resumes() {
    let dir = scratch("resume");
    let mut reports = 0;
    let first = train(&tiny(dir.clone(), 3_000), false, &mut |_| reports += 1).unwrap();
    assert!(first.counters.frames >= 3_000);
    assert!(reports >= 3, "{reports} reports");
    let wp = first.wp_vs_ddzlib.expect("the last report evaluates");
    assert!((0.0..=1.0).contains(&wp));
    assert_eq!(first.eval_games, Some(4));
    let (_, saved) = read_checkpoint(&dir.join(CHECKPOINT)).unwrap();
    assert_eq!(saved.frames, first.counters.frames);
    assert_eq!(saved.games, first.counters.games);
    let lines = std::fs::read_to_string(dir.join(METRICS)).unwrap();
    assert_eq!(lines.lines().count(), reports);
    for line in lines.lines() {
        let v: serde_json::Value = serde_json::from_str(line).unwrap();
        assert!(v["frames"].as_u64().is_some() && v["frames_per_second"].as_f64().is_some());
    }

    // A run with rollouts (on dealt hidden cards) learns from its decisions and checkpoints
    // as well.
    let rollouts = scratch("rollouts");
    let mut config = tiny(rollouts.clone(), 1_500);
    config.rollouts = 3;
    config.rollout_deals = 2;
    config.versus = 0.5;
    let report = train(&config, false, &mut |_| {}).unwrap();
    assert!(report.counters.frames >= 1_500 && report.counters.steps > 0);
    assert!(report.loss.is_some_and(f64::is_finite));
    read_checkpoint(&rollouts.join(CHECKPOINT)).unwrap();

    // So does a run taught by an expert (expert iteration).
    let expert = scratch("expert");
    let mut config = tiny(expert.clone(), 400);
    config.replay = 300;
    config.expert = Some(small_expert());
    config.versus = 1.0;
    let report = train(&config, false, &mut |_| {}).unwrap();
    assert!(report.counters.frames >= 400 && report.counters.steps > 0);
    assert!(report.loss.is_some_and(f64::is_finite));
    let (_, saved) = read_checkpoint(&expert.join(CHECKPOINT)).unwrap();
    assert_eq!(saved.frames, report.counters.frames);

    // A new run over an existing one is refused; resuming continues the counters.
    let err = train(&tiny(dir.clone(), 3_000), false, &mut |_| {}).unwrap_err();
    assert!(err.to_string().contains("resume it"), "{err}");
    let second = train(&tiny(dir.clone(), 5_000), true, &mut |_| {}).unwrap();
    assert!(second.counters.frames >= 5_000);
    assert!(second.counters.games > first.counters.games);
    assert!(second.counters.steps >= first.counters.steps);
    assert!(second.counters.seconds >= first.counters.seconds);

    // The checkpoint is a robot's weights file.
    let spec = format!("net:weights={}", dir.join(CHECKPOINT).display());
    let robot = ddz_bots::make_bot(&spec, 1).unwrap();
    assert_eq!(robot.name(), "net");

    // A damaged checkpoint is an error naming the file.
    let path = dir.join(CHECKPOINT);
    let bytes = std::fs::read(&path).unwrap();
    std::fs::write(&path, &bytes[..bytes.len() / 2]).unwrap();
    let err = train(&tiny(dir.clone(), 6_000), true, &mut |_| {}).unwrap_err();
    assert!(err.to_string().contains(CHECKPOINT), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn settings_that_cannot_work_are_refused() {
    let mut config = tiny(scratch("config"), 100);
    config.replay = 10;
    let err = train(&config, false, &mut |_| {}).unwrap_err();
    assert!(err.to_string().contains("replay buffer"), "{err}");
    let err = train(&tiny(scratch("missing"), 100), true, &mut |_| {}).unwrap_err();
    assert!(err.to_string().contains("No such file"), "{err}");
}

/// Writes `games` records of `ddzlib` playing itself with a fixed landlord in seat 0 (as
/// `ddz arena --records` does) into a new directory, and one bidding game, which
/// [`load_records`] skips.
fn records(name: &str, games: u64) -> PathBuf {
    let dir = scratch(name);
    std::fs::create_dir_all(dir.join("nested")).unwrap();
    let mut fixed = Rules::classic();
    fixed.bidding = ddz_core::Bidding::Fixed;
    fixed.landlord_seat = 0;
    let bots = || -> [Box<dyn ddz_bots::Bot>; 3] {
        std::array::from_fn(|_| ddz_bots::make_bot("ddzlib", 1).unwrap())
    };
    for seed in 0..games {
        let game = ddz_bots::play_game(&fixed, seed, &mut bots()).unwrap();
        let text = GameRecord::from_game(&game).to_json();
        // Half of them one directory down: records are found at any depth.
        let sub = if seed % 2 == 0 { "" } else { "nested" };
        std::fs::write(dir.join(sub).join(format!("g{seed:03}.json")), text).unwrap();
    }
    let bidding = ddz_bots::play_game(&Rules::classic(), 1, &mut bots()).unwrap();
    std::fs::write(
        dir.join("bidding.json"),
        GameRecord::from_game(&bidding).to_json(),
    )
    .unwrap();
    dir
}

#[test]
fn recorded_games_become_decisions() {
    let dir = records("records", 60);
    let data = load_records(&dir, 8, 1).unwrap();
    assert_eq!((data.games, data.skipped), (60, 1));
    // The games of seeds 0 and 50 are held out.
    assert!(!data.validation.is_empty() && data.train.len() > 20 * data.validation.len());
    for d in data.train.iter().chain(&data.validation) {
        assert!((2..=8).contains(&d.moves.len()), "{} moves", d.moves.len());
        assert!(d.target == 1.0 || d.target == -1.0);
        assert!(d.state.iter().all(|&i| usize::from(i) < STATE_LEN));
        let first = &d.moves[0];
        assert!(d.moves[1..].iter().all(|m| m != first), "a move kept twice");
    }
    // The same seed keeps the same sample.
    let again = load_records(&dir, 8, 1).unwrap();
    assert_eq!(again.train, data.train);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn imitation_learns_the_recorded_moves() {
    let dir = records("imitation", 30);
    let data = load_records(&dir, 16, 1).unwrap();
    let batch: Vec<&TrainingExample> = data.train.iter().take(256).collect();
    let mut learner = Learner::new(&[64], 3e-3).unwrap();
    let before = learner.imitation_loss(&batch, 1.0).unwrap();
    for _ in 0..150 {
        learner.imitation_step(&batch, 1.0).unwrap();
    }
    let after = learner.imitation_loss(&batch, 1.0).unwrap();
    assert!(
        after.cross_entropy < 0.5 * before.cross_entropy,
        "{before:?} -> {after:?}"
    );
    assert!(
        after.squared_error < before.squared_error,
        "{before:?} -> {after:?}"
    );
    assert!(
        after.matched > before.matched && after.matched > 200,
        "{after:?}"
    );

    // A run: reports the matched shares, checkpoints weights a robot plays with.
    let run = scratch("imitation-run");
    let mut config = tiny(run.clone(), 2_000);
    config.report_every = 500;
    let mut lines = 0;
    let report = imitate(
        &config,
        &ImitateConfig::default(),
        &data,
        false,
        &mut |_| lines += 1,
    )
    .unwrap();
    assert!(lines >= 4 && report.counters.frames >= 2_000);
    assert!(report.matched.is_some_and(|m| (0.0..=1.0).contains(&m)));
    assert!(report.validation_matched.is_some() && report.validation_loss.is_some());
    let (net, _) = read_checkpoint(&run.join(CHECKPOINT)).unwrap();
    assert!(net.mlp().metadata()["method"].contains("imitation"));
    let spec = format!("net:weights={}", run.join(CHECKPOINT).display());
    assert_eq!(ddz_bots::make_bot(&spec, 1).unwrap().name(), "net");
    // Self-play can continue from it.
    let more = train(&tiny(run.clone(), 6_000), true, &mut |_| {}).unwrap();
    assert!(more.counters.steps > report.counters.steps);
    let _ = std::fs::remove_dir_all(&dir);
    let _ = std::fs::remove_dir_all(&run);
}

#[test]
fn bad_records_are_clear_errors() {
    let empty = scratch("no-records");
    std::fs::create_dir_all(&empty).unwrap();
    let err = load_records(&empty, 8, 1).unwrap_err().to_string();
    assert!(err.contains("no game records"), "{err}");

    let dir = records("bad-records", 2);
    let good = std::fs::read_to_string(dir.join("g000.json")).unwrap();
    std::fs::write(dir.join("g000.json"), &good[..good.len() / 2]).unwrap();
    let err = load_records(&dir, 8, 1).unwrap_err().to_string();
    assert!(err.contains("g000.json"), "{err}");

    // A play that is not legal where it stands names the play (the leader cannot pass).
    let mut record = GameRecord::parse(&good).unwrap();
    record.plays[0].1 = "pass".to_string();
    std::fs::write(dir.join("g000.json"), record.to_json()).unwrap();
    let err = load_records(&dir, 8, 1).unwrap_err().to_string();
    assert!(
        err.contains("g000.json") && err.contains("play 1") && err.contains("not a legal move"),
        "{err}"
    );
    let _ = std::fs::remove_dir_all(&dir);
    let _ = std::fs::remove_dir_all(&empty);
}
