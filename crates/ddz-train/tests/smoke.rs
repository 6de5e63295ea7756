//! The training pipeline in miniature (seconds, never the real run): the loss falls, a run
//! checkpoints, reports and resumes, and bad checkpoints are clear errors.

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::Arc;

use ddz_bots::net::{Net, Scorer};
use ddz_core::Rules;
use ddz_train::{
    Actor, Behaviour, CHECKPOINT, Frame, Learner, METRICS, TrainConfig, read_checkpoint, train,
};

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("ddz-train-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

fn frames_of_games(games: u64) -> Vec<Frame> {
    let learner = Learner::new(&[16], 1e-3).unwrap();
    let net = Net::from_mlp(learner.export(HashMap::new()).unwrap()).unwrap();
    let mut actor = Actor::new(Scorer::new(Arc::new(net)), 7);
    let behaviour = Behaviour {
        epsilon: 0.1,
        teacher: 0.5,
        teacher_temperature: 0.5,
    };
    let mut frames = Vec::new();
    for n in 0..games {
        let added = actor.play(&Rules::classic(), n, behaviour, &mut frames);
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
