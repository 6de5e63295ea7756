//! The difficulty levels: every level plays whole games legally under every profile and
//! repeats itself for a seed; the weak levels choose by their temperature (not always the
//! network's best play); a level that does not exist is a clear error.

use crate::common;

use common::configs;

use ddz_bots::{Bot, BotSpec, LEVELS, Level, bot_seed, make_bot, play_game};
use ddz_game::{GameRecord, Seat};

#[test]
fn every_level_plays_every_profile_and_repeats_itself() {
    for rules in &configs() {
        // Level 8 is the search robot, whose games cost far more: one game a profile.
        for number in LEVELS.filter(|&n| n < 8) {
            let spec = format!("level:{number}");
            for seed in 0..2 {
                let record = |seed| {
                    let names = [spec.as_str(), "ddzlib", "greedy"];
                    let mut bots: [Box<dyn Bot>; 3] =
                        Seat::ALL.map(|s| make_bot(names[s.index()], bot_seed(seed, s)).unwrap());
                    let game = play_game(rules, seed, &mut bots)
                        .unwrap_or_else(|e| panic!("{} {spec} seed {seed}: {e}", rules.profile));
                    assert!(game.result().is_some());
                    GameRecord::from_game(&game).to_json()
                };
                assert_eq!(
                    record(seed),
                    record(seed),
                    "{} {spec} seed {seed}",
                    rules.profile
                );
            }
        }
    }
}

#[test]
fn level_eight_is_the_search_robot() {
    let rules = ddz_core::Rules::classic();
    let mut bots: [Box<dyn Bot>; 3] = Seat::ALL.map(|s| {
        make_bot(
            if s.index() == 0 { "level:8" } else { "level:1" },
            s.index() as u64,
        )
        .unwrap()
    });
    assert_eq!(bots[0].name(), "search");
    let game = play_game(&rules, 3, &mut bots).unwrap();
    assert!(game.result().is_some());
}

#[test]
fn weak_levels_do_not_always_take_the_best_play() {
    // Over many decisions level 1 and the net robot part ways often, level 6 rarely.
    let rules = ddz_core::Rules::classic();
    let mut differs = [0usize; 2];
    let mut decisions = 0;
    for seed in 0..20 {
        let mut game = ddz_game::Game::new(&rules, seed);
        let mut net = make_bot("net", 1).unwrap();
        let mut one = make_bot("level:1", seed).unwrap();
        let mut six = make_bot("level:6", seed).unwrap();
        while game.phase() != ddz_game::Phase::Over {
            let seat = game.turn();
            let view = game.view(seat);
            if game.phase() == ddz_game::Phase::Playing {
                let allowed = game.legal_moves();
                if allowed.len() > 2 {
                    let best = net.play(&view, &allowed);
                    differs[0] += usize::from(one.play(&view, &allowed) != best);
                    differs[1] += usize::from(six.play(&view, &allowed) != best);
                    decisions += 1;
                }
            }
            ddz_bots::take_turn(&mut game, net.as_mut()).unwrap();
        }
    }
    assert!(decisions > 200, "{decisions} decisions");
    assert!(
        differs[0] * 3 > decisions,
        "level 1 differs from net in {} of {decisions}",
        differs[0]
    );
    assert!(
        differs[1] < differs[0] / 2,
        "level 6 {} against level 1 {}",
        differs[1],
        differs[0]
    );
}

#[test]
fn levels_that_do_not_exist_are_clear_errors() {
    for (spec, expected) in [
        (
            "level:0",
            "\"level:0\" is not a level: level:1 (a beginner) to level:8 (the strongest)",
        ),
        ("level:9", "\"level:9\" is not a level"),
        ("level:x", "\"level:x\" is not a level"),
        ("level", "\"level\" needs a number"),
        (
            "level:3:fast",
            "robot \"level:3:fast\" takes no option (got \"fast\")",
        ),
    ] {
        let e = BotSpec::parse(spec).unwrap_err().to_string();
        assert!(e.starts_with(expected), "{spec}: {e}");
    }
    let summaries: Vec<&str> = Level::all().iter().map(Level::summary).collect();
    assert_eq!(summaries.len(), 8);
    assert!(summaries.iter().all(|s| !s.is_empty() && !s.contains('\n')));
}
