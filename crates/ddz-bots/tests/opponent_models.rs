//! A measurement, not a check (ignored; run by hand): how well each opponent model the
//! search's inference can read predicts a robot's plays. Self-play games of one robot
//! (`SPEC`, by default the search robot without the network at 100 ms a decision), and at
//! each of its decisions with a choice (`FILTER=lead` or `follow` for only those) the mean
//! log-probability of the play made under
//!
//! - the `ddzlib` ladder as the inference reads it (place `k` of `L` distinct entries, every
//!   play the ladder does not list at place `L`, probability `∝ e^(−k/T)`), over the places
//!   (what the inference weighs by) and over the legal plays (comparable with the networks);
//! - a network's softmax over the legal plays at temperature τ (`inet`), the playout network
//!   (`net-classic-small`) and the candidates' (`net-classic`).
//!
//! ```text
//! GAMES=100 cargo test --release -p ddz-bots --test bots opponent_models -- --ignored --nocapture
//! ```
//! (STRENGTH.md.)

use ddz_bots::ddzlib::DdzlibBot;
use ddz_bots::net::features::Position;
use ddz_bots::net::{Net, Scorer};
use ddz_bots::{make_bot, obvious_play};
use ddz_core::{Move, Rules};
use ddz_game::{Action, Actions, Game, Phase};

/// The temperatures T the ladder is read at.
const LADDER_TEMPERATURES: [f64; 6] = [0.5, 1.0, 1.5, 2.0, 3.0, 5.0];
/// The temperatures τ the networks are read at.
const NET_TEMPERATURES: [f64; 8] = [0.1, 0.2, 0.3, 0.4, 0.6, 1.0, 2.0, 4.0];

/// The place of `play` on `ladder` among the distinct entries the play to beat allows, and
/// how many there are (a play not listed: the place after the last).
fn ladder_place(ladder: &[Move], play: &Move, last: Option<&Move>, rules: &Rules) -> (f64, f64) {
    let mut distinct: Vec<&Move> = Vec::new();
    let mut place = None;
    for m in ladder {
        let allowed = match last {
            None => !m.is_pass(),
            Some(last) => m.is_pass() || m.beats(last, rules),
        };
        if !allowed || distinct.contains(&m) {
            continue;
        }
        let same = m == play
            || (!m.is_pass()
                && !play.is_pass()
                && m.cards() == play.cards()
                && m.kind() == play.kind());
        if place.is_none() && same {
            place = Some(distinct.len());
        }
        distinct.push(m);
    }
    let entries = distinct.len() as f64;
    (place.map_or(entries, |p| p as f64), entries)
}

/// `ln` of the softmax at `index` of `logits`.
fn log_softmax(logits: impl Iterator<Item = f64> + Clone, index: usize) -> f64 {
    let top = logits.clone().fold(f64::NEG_INFINITY, f64::max);
    let z: f64 = logits.clone().map(|x| (x - top).exp()).sum();
    logits.clone().nth(index).unwrap_or(top) - top - z.ln()
}

#[test]
#[ignore = "a measurement: run by hand"]
fn opponent_models() {
    let rules = Rules::classic();
    let spec = std::env::var("SPEC").unwrap_or_else(|_| "search:time=100ms".to_string());
    let games: u64 = std::env::var("GAMES")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(20);
    let filter = std::env::var("FILTER").unwrap_or_default();
    let mut ladder = DdzlibBot::new();
    let mut nets = [
        ("net-classic-small", Scorer::new(Net::small())),
        ("net-classic", Scorer::new(Net::embedded())),
    ];
    let mut by_place = [0.0; LADDER_TEMPERATURES.len()];
    let mut by_play = [0.0; LADDER_TEMPERATURES.len()];
    let mut by_net = [[0.0; NET_TEMPERATURES.len()]; 2];
    let (mut decisions, mut plays, mut ladder_first, mut net_first) = (0usize, 0usize, 0, [0; 2]);
    let mut scores = Vec::new();
    for g in 0..games {
        let mut game = Game::new(&rules, 7000 + g);
        let mut robots: Vec<_> = (0..3)
            .map(|s| make_bot(&spec, g * 3 + s).expect("SPEC is a robot"))
            .collect();
        while game.phase() != Phase::Over {
            let seat = game.turn();
            let actions = game.legal_actions();
            let view = game.view(seat);
            let action = robots[seat.index()].act(&view, &actions).unwrap();
            let wanted = match filter.as_str() {
                "lead" => view.last().is_none(),
                "follow" => view.last().is_some(),
                _ => true,
            };
            if let (Actions::Moves(allowed), Action::Play(play), true) = (&actions, &action, wanted)
                && allowed.len() >= 2
                && obvious_play(view.hand(), allowed).is_none()
            {
                decisions += 1;
                plays += allowed.len();
                let entries = ladder.ladder(&view.turn_view());
                let last = view.last().map(|(_, m)| m);
                let (place, listed) = ladder_place(&entries, play, last.as_ref(), &rules);
                let places: Vec<f64> = allowed
                    .iter()
                    .map(|m| ladder_place(&entries, m, last.as_ref(), &rules).0)
                    .collect();
                let made = allowed.iter().position(|m| m == play).unwrap();
                ladder_first += usize::from(place == 0.0);
                for (k, &t) in LADDER_TEMPERATURES.iter().enumerate() {
                    let over_places = (0..=listed as usize).map(|p| -(p as f64) / t);
                    by_place[k] += log_softmax(over_places, place as usize);
                    by_play[k] += log_softmax(places.iter().map(|p| -p / t), made);
                }
                let pos = Position::of_view(&view).unwrap();
                for (n, (_, scorer)) in nets.iter_mut().enumerate() {
                    scorer.scores(&pos, &rules, allowed, &mut scores);
                    let best = scores.iter().copied().fold(f32::MIN, f32::max);
                    net_first[n] += usize::from(scores[made] >= best);
                    for (k, &t) in NET_TEMPERATURES.iter().enumerate() {
                        by_net[n][k] += log_softmax(scores.iter().map(|&s| f64::from(s) / t), made);
                    }
                }
            }
            game.act(seat, action).unwrap();
        }
    }
    let n = decisions.max(1) as f64;
    println!(
        "{spec}, {games} games, {decisions} decisions ({}), {:.1} legal plays on average",
        if filter.is_empty() { "all" } else { &filter },
        plays as f64 / n
    );
    println!("ddzlib ladder: first choice {:.3}", ladder_first as f64 / n);
    for (k, t) in LADDER_TEMPERATURES.iter().enumerate() {
        println!(
            "  T={t}: mean ln P over the places {:.3}, over the plays {:.3}",
            by_place[k] / n,
            by_play[k] / n
        );
    }
    for (i, (name, _)) in nets.iter().enumerate() {
        println!("{name}: first choice {:.3}", net_first[i] as f64 / n);
        for (k, t) in NET_TEMPERATURES.iter().enumerate() {
            println!("  τ={t}: mean ln P over the plays {:.3}", by_net[i][k] / n);
        }
    }
}
