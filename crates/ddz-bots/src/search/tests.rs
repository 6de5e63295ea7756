//! The search robot's unit tests.

use super::bidding::Seats;
use super::config::*;
use super::playout::*;
use super::sample::*;
use super::schedule::*;
use super::tuning::*;
use crate::Bot;
use crate::ddzlib::DdzlibBot;
use crate::net::Net;
use ddz_core::{Cards, Move, Rules};
use ddz_core::{Profile, legal_moves_into};
use ddz_game::rng;
use ddz_game::{BySeat, SeatView, derive_seed};
use ddz_game::{Game, Phase, below};

/// The playout as it was before the play state: the trick re-derived from the last play and
/// a [`SeatView`] built for every simulated move; 1 when `p.me`'s side wins, −1 when it loses.
fn former_playout(
    p: &Decision,
    hands: BySeat<Cards>,
    first: Move,
    bots: &mut [DdzlibBot; 3],
) -> i64 {
    let rules = &p.rules;
    let mut hands = hands;
    let mut last = p.last;
    let mut seat = p.me;
    let mut play = first;
    let mut buf: Vec<Move> = Vec::new();
    loop {
        if !play.is_pass() {
            hands[seat] = hands[seat].minus(play.cards());
            if hands[seat].is_empty() {
                return if (seat == p.landlord) == (p.me == p.landlord) {
                    1
                } else {
                    -1
                };
            }
            last = Some((seat, play));
        }
        seat = seat.next();
        let to_beat = last.filter(|(s, _)| *s != seat);
        legal_moves_into(
            hands[seat],
            to_beat.as_ref().map(|(_, m)| m),
            rules,
            &mut buf,
        );
        let cards_left = BySeat::from_fn(|s| hands[s].len());
        let view = SeatView::position(rules, seat, p.landlord, hands[seat], cards_left, to_beat);
        play = bots[seat.index()].play(&view, &buf);
    }
}

#[test]
fn playouts_equal_the_former_copy_on_random_positions() {
    let mut checked = 0;
    for profile in Profile::ALL {
        let mut rules = Rules::profile(profile);
        rules.bidding = ddz_core::Bidding::Fixed;
        for seed in 0..300u64 {
            let mut game = Game::new(&rules, seed);
            let mut r = rng(seed);
            // Somewhere into the game, at random.
            let steps = below(&mut r, 40);
            for _ in 0..steps {
                let moves = game.legal_moves();
                if game.phase() != Phase::Playing || moves.len() < 2 {
                    break;
                }
                let m = moves[below(&mut r, moves.len() as u64) as usize];
                game.play(game.turn(), m).unwrap();
            }
            if game.phase() != Phase::Playing {
                continue;
            }
            let view = game.view(game.turn());
            let p = Decision::of(&view, view.landlord().unwrap(), true);
            let allowed = game.legal_moves();
            for sample in 0..3 {
                let Some(hands) = deal(&p, derive_seed(seed, sample)) else {
                    continue;
                };
                for &first in allowed.iter().take(6) {
                    let mut a = Seats::with_memo(64);
                    let mut b = [DdzlibBot::new(), DdzlibBot::new(), DdzlibBot::new()];
                    assert_eq!(
                        playout(&p, hands, first, &mut a, None),
                        former_playout(&p, hands, first, &mut b) as f64,
                        "{profile} seed {seed} first {first}"
                    );
                    checked += 1;
                }
            }
        }
    }
    assert!(checked > 5_000, "only {checked} playouts checked");
}

#[test]
fn a_network_playout_counts_as_its_share_of_net_classics_parameters() {
    assert_eq!(net_playout_work(&Net::embedded()), NET_PLAYOUT_WORK);
    assert_eq!(net_playout_work(&Net::small()), 6);
}

#[test]
fn the_rounds_share_the_budget_between_the_two_kinds_of_playouts() {
    let classic = Rules::classic();
    let with = |final_net: usize, final_share: f64| SearchConfig {
        final_net: Some(final_net),
        final_share,
        ..SearchConfig::default()
    };
    // 12 candidates: rounds of 12, 6, 3 and 2.
    let plain = Rounds::of(12, &with(0, 0.5), &classic);
    assert_eq!((plain.net_from, plain.shares.len()), (4, 4));
    assert_eq!(plain.count_share(1000, 0), 250, "equal integer shares");
    let hybrid = Rounds::of(12, &with(3, 0.4), &classic);
    assert_eq!(hybrid.net_from, 2, "the rounds of 3 and 2 by the network");
    let expected = [0.3, 0.3, 0.2, 0.2];
    for (share, want) in hybrid.shares.iter().zip(expected) {
        assert!((share - want).abs() < 1e-12, "{:?}", hybrid.shares);
    }
    assert_eq!(hybrid.count_share(1000, 2), 200);
    // Every round by the network: the whole budget.
    let all = Rounds::of(3, &with(4, 0.4), &classic);
    assert_eq!(all.net_from, 0);
    assert!((all.shares.iter().sum::<f64>() - 1.0).abs() < 1e-12);
    // The default: by the network from three candidates on without wild cards, never
    // with them.
    let default = SearchConfig::default();
    assert_eq!(Rounds::of(12, &default, &classic).net_from, 2);
    assert_eq!(Rounds::of(12, &default, &Rules::laizi()).net_from, 4);
}

/// Issue 50: a time budget is a deadline. A batch started past it plays one sample a thread
/// (so that it is never empty) and no more; without one it plays all of its samples.
#[test]
fn a_batch_past_its_deadline_plays_one_sample() {
    let rules = Rules::classic();
    let game = Game::new(&rules, 7);
    let mut game = game;
    while game.phase() != Phase::Playing {
        let bids = game.legal_bids();
        game.bid(game.turn(), *bids.last().unwrap()).unwrap();
    }
    let view = game.view(game.turn());
    let p = Decision::of(&view, view.landlord().unwrap(), true);
    let candidates: Vec<Move> = game.legal_moves().into_iter().take(3).collect();
    let alive: Vec<usize> = (0..candidates.len()).collect();
    let config = SearchConfig::default();
    for (deadline, samples) in [(Some(std::time::Instant::now()), 1), (None, BATCH as usize)] {
        let mut players = vec![Players::new(None)];
        let batch = Batch {
            alive: &alive,
            from: 0,
            tempering: None,
            by_net: false,
            deadline,
        };
        let (rows, _) = run_batch(&p, &candidates, &batch, config, 1, &mut players);
        assert_eq!(rows.len(), samples, "deadline {deadline:?}");
        assert!(rows.iter().all(|r| r.worth.len() == alive.len()));
    }
}
