//! Game analysis (`ddz_bots::review`): the positions rated are the record's, every proven
//! losing play with a winning one is flagged exact, a play that throws away a win shows the
//! loss, a random robot loses more per decision than a greedy one, and the decisions before
//! the play (bids, doubling, showing) are rated under every profile.

use crate::common::{bots, configs};
use ddz_bots::play_game;
use ddz_bots::review::{AnalysisOptions, Mark, analyse};
use ddz_bots::solver::{OpenPosition, Solver};
use ddz_core::{Move, Rules};
use ddz_game::{Action, Budget, Game, GameRecord, Phase, Seat};

/// Quick options: 12 samples a play.
fn quick() -> AnalysisOptions {
    AnalysisOptions {
        budget: Budget::Count(12),
        ..AnalysisOptions::default()
    }
}

/// Every play of a game with the position before it, rebuilt by playing the record's plays
/// from its landlord decision on (apart from the analysis's own replay).
fn plays_with_positions(game: &Game) -> Vec<(Game, Seat, Move)> {
    let mut replay = game.clone();
    let mut undone = Vec::new();
    while replay.phase() != Phase::Bidding && replay.undo().is_ok() {
        undone.push(replay.clone());
    }
    let history: Vec<(Seat, Move)> = game.history().collect();
    // `undone[k]` is the game before the last k+1 plays.
    let mut out = Vec::new();
    for (k, before) in undone.iter().enumerate() {
        let (seat, play) = history[history.len() - 1 - k];
        out.push((before.clone(), seat, play));
    }
    out.reverse();
    out
}

#[test]
fn every_proven_losing_play_with_a_winning_one_is_flagged() {
    let rules = Rules::classic();
    let mut flagged = 0;
    for seed in 0..12u64 {
        let game = play_game(
            &rules,
            seed,
            &mut bots(["greedy", "random", "greedy"], seed),
        )
        .unwrap();
        let record = GameRecord::from_game(&game);
        let options = AnalysisOptions {
            budget: Budget::Count(4),
            exact_cards: 14,
            ..AnalysisOptions::default()
        };
        let analysis = analyse(&record, &options, &mut |_, _| {}).unwrap();
        let plays: Vec<_> = analysis
            .decisions
            .iter()
            .filter(|d| d.kind == "play")
            .collect();
        let positions = plays_with_positions(&game);
        assert_eq!(plays.len(), positions.len(), "seed {seed}");
        for (d, (before, seat, play)) in plays.iter().zip(&positions) {
            assert_eq!(d.seat, *seat, "seed {seed} step {}", d.step);
            assert_eq!(d.played, Action::Play(*play).notation(&rules));
            let cards: u32 = Seat::ALL.iter().map(|&s| before.hand(s).len()).sum();
            if cards > 14 {
                assert_eq!(d.exact, None, "seed {seed} step {}: {cards} cards", d.step);
                continue;
            }
            let position = OpenPosition::from_game(before).unwrap();
            let mut solver = Solver::new(&rules);
            let played_wins = solver.move_wins(&position, play).unwrap();
            let could_win = solver.wins(&position).unwrap();
            let exact = d.exact.as_ref().expect("a verdict at 14 cards or fewer");
            assert_eq!(
                (exact.played_wins, exact.could_win),
                (played_wins, could_win),
                "seed {seed} step {}",
                d.step
            );
            if could_win && !played_wins {
                flagged += 1;
                let winning = exact.winning.as_deref().expect("the winning play named");
                let m = match Action::parse(winning, &rules, before.last().map(|(_, m)| m).as_ref())
                    .unwrap()
                {
                    Action::Play(m) => m,
                    other => panic!("{other:?}"),
                };
                assert!(solver.move_wins(&position, &m).unwrap(), "{winning} wins");
            }
        }
    }
    assert!(flagged > 0, "greedy and random throw away some won endings");
}

#[test]
fn a_play_that_gives_up_an_immediate_win_is_a_loss() {
    // Whenever a seat could play its whole hand and played something else, the best play
    // wins for sure and the loss is what the play made gave up.
    let rules = Rules::classic();
    let mut seen = 0;
    for seed in 0..20u64 {
        let game = play_game(
            &rules,
            seed,
            &mut bots(["random", "random", "random"], seed),
        )
        .unwrap();
        let record = GameRecord::from_game(&game);
        let analysis = analyse(&record, &quick(), &mut |_, _| {}).unwrap();
        let positions = plays_with_positions(&game);
        let plays = analysis.decisions.iter().filter(|d| d.kind == "play");
        for (d, (before, seat, play)) in plays.zip(&positions) {
            let hand = before.hand(*seat);
            let whole = before
                .legal_moves()
                .into_iter()
                .find(|m| !m.is_pass() && m.cards() == hand);
            if let Some(whole) = whole
                && whole != *play
            {
                seen += 1;
                assert_eq!(d.win_best, Some(1.0), "seed {seed} step {}: {d:?}", d.step);
                let loss = d.loss.unwrap();
                assert!((loss - (1.0 - d.win_played.unwrap())).abs() < 1e-9);
                assert_eq!(d.mark, Mark::of(loss));
            }
        }
    }
    assert!(seen > 0, "random robots miss going out at once");
}

#[test]
fn random_loses_more_per_decision_than_greedy() {
    let rules = Rules::classic();
    let mut losses = [Vec::new(), Vec::new()];
    for seed in 0..6u64 {
        // Random in seat 0 for even seeds and in seat 1 for odd ones, greedy elsewhere.
        let names = if seed % 2 == 0 {
            ["random", "greedy", "greedy"]
        } else {
            ["greedy", "random", "greedy"]
        };
        let game = play_game(&rules, 100 + seed, &mut bots(names, 100 + seed)).unwrap();
        let analysis = analyse(&GameRecord::from_game(&game), &quick(), &mut |_, _| {}).unwrap();
        for d in &analysis.decisions {
            if let Some(loss) = d.loss {
                let random = names[d.seat.index()] == "random";
                losses[usize::from(!random)].push(loss);
            }
        }
    }
    let mean = |v: &Vec<f64>| v.iter().sum::<f64>() / v.len() as f64;
    assert!(
        mean(&losses[0]) > mean(&losses[1]),
        "random {:.3} over {} decisions, greedy {:.3} over {}",
        mean(&losses[0]),
        losses[0].len(),
        mean(&losses[1]),
        losses[1].len()
    );
}

#[test]
fn the_analysis_is_repeatable_and_follows_the_seats_asked_for() {
    for rules in configs() {
        let game = play_game(&rules, 5, &mut bots(["greedy", "greedy", "greedy"], 5)).unwrap();
        let record = GameRecord::from_game(&game);
        let mut options = quick();
        options.seats = vec![Seat::ALL[1]];
        let mut progress = Vec::new();
        let one = analyse(&record, &options, &mut |done, total| {
            progress.push((done, total))
        })
        .unwrap();
        assert!(
            one.decisions.iter().all(|d| d.seat == Seat::ALL[1]),
            "{}",
            rules.profile
        );
        assert_eq!(progress.last().map(|p| p.0), Some(one.decisions.len()));
        assert_eq!(one.summary.seats.len(), 1);
        options.threads = 2;
        let again = analyse(&record, &options, &mut |_, _| {}).unwrap();
        assert_eq!(one, again, "{}: the same with two threads", rules.profile);
        // Every play and bid with a choice is rated (bids after no redeal), forced ones are
        // not; doubling and showing get the chance of winning, not a rating.
        for d in &one.decisions {
            let rated = !d.forced && (d.kind == "play" || (d.kind == "bid" && record.redeals == 0));
            assert_eq!(d.loss.is_some(), rated, "{}: {d:?}", rules.profile);
            if d.kind == "double" || d.kind == "show" {
                assert!(d.win_played.is_some() == (record.redeals == 0), "{d:?}");
            }
        }
        if rules.profile == ddz_core::Profile::Huanle {
            assert!(
                one.decisions
                    .iter()
                    .any(|d| d.kind == "double" || d.kind == "show"),
                "huanle has doubling and showing"
            );
        }
    }
}

#[test]
fn a_record_that_does_not_replay_is_refused_with_its_step() {
    let game = play_game(
        &Rules::classic(),
        3,
        &mut bots(["greedy", "greedy", "greedy"], 3),
    )
    .unwrap();
    let mut record = GameRecord::from_game(&game);
    record.plays[2].1 = "3".into();
    record.plays[2].0 = (record.plays[2].0 + 1) % 3;
    let e = analyse(&record, &quick(), &mut |_, _| {}).unwrap_err();
    assert!(e.to_string().starts_with("play 3 "), "{e}");
}
