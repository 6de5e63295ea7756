//! The `net` robot's hardest decisions: the landlord's opening lead with a 20-card hand (the
//! positions with the most legal plays, each scored by every network of the shipped
//! ensemble), and bidding (the best opening score over 8 sampled kitties).
//!
//! From 2,000 seeded 20-card hands (dealt from a 54-card deck shuffled with
//! `ddz_game::shuffle`, seed = 20,000 + hand number), the 20 with the most legal opening
//! plays make the `lead/most-plays` set and 20 from the middle of the order the
//! `lead/median` set; `bid` is 20 seeded 17-card hands, `bid/most-plays` the 20 of 2,000
//! 17-card hands (seeds 30,000 on) with the most opening plays. The robot's ensemble lets its first
//! network screen positions of more than `RESCORE` plays (the others rescore its best);
//! `lead/most-plays/rescore=0` times every network scoring every play. Before criterion runs, each
//! decision's fastest time of three runs is printed on stderr (median and worst of each set,
//! with the plays scored), which takes out most of the noise of a shared machine. Criterion
//! then measures the mean time per decision over each set. Run with
//! `cargo bench -p ddz-bots --bench net`.

use std::hint::black_box;
use std::sync::Arc;
use std::time::{Duration, Instant};

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use ddz_bots::net::features::Position;
use ddz_bots::net::{Ensemble, Net, NetBot, NetConfig, RESCORE};
use ddz_core::{Cards, Move, Rank, RankSet, Rules};
use ddz_game::{Seat, SeatView};
use ddz_game::{rng, shuffle};

/// Hands dealt to find the openings with the most plays.
const DEALT: u64 = 2000;

/// Decisions in each set.
const SET: usize = 20;

/// A seeded hand of `n` cards.
fn hand(seed: u64, n: usize) -> Cards {
    let mut deck: Vec<Rank> = Cards::FULL_DECK.iter().collect();
    shuffle(&mut rng(seed), &mut deck);
    deck[..n].iter().copied().collect()
}

/// A landlord's opening lead: the hand and its legal plays.
type Lead = (Cards, Vec<Move>);

/// The landlord's opening lead with `hand`.
fn opening(hand: Cards, rules: &Rules) -> Lead {
    let mut moves = Vec::new();
    ddz_core::legal_moves_into(hand, None, rules, &mut moves);
    (hand, moves)
}

/// The position of the landlord (seat 0) leading with `hand`.
fn position(hand: Cards) -> Position<'static> {
    Position {
        seat: Seat::ALL[0],
        landlord: Seat::ALL[0],
        hand,
        cards_left: ddz_game::BySeat([20, 17, 17]),
        played: ddz_game::BySeat::default(),
        history: &[],
        last: None,
        laizi: RankSet::EMPTY,
    }
}

/// The two lead sets: the openings with the most plays, and from the middle.
fn lead_sets(rules: &Rules) -> [Vec<Lead>; 2] {
    let mut all: Vec<_> = (0..DEALT)
        .map(|i| opening(hand(20_000 + i, 20), rules))
        .collect();
    all.sort_by_key(|(_, moves)| std::cmp::Reverse(moves.len()));
    let middle = all.len() / 2;
    let median = all[middle..middle + SET].to_vec();
    all.truncate(SET);
    [all, median]
}

/// Median and worst of each decision's fastest time of three runs, on stderr.
/// `decide(i)` makes decision `i` and returns the plays it scored, if one position's.
fn print_distribution(name: &str, mut decide: impl FnMut(usize) -> Option<usize>, n: usize) {
    let mut times: Vec<(Duration, Option<usize>)> = (0..n)
        .map(|i| {
            let mut fastest = Duration::MAX;
            let mut plays = None;
            for _ in 0..3 {
                let t = Instant::now();
                plays = black_box(decide(i));
                fastest = fastest.min(t.elapsed());
            }
            (fastest, plays)
        })
        .collect();
    times.sort();
    let show = |(time, plays): (Duration, Option<usize>)| match plays {
        Some(plays) => format!("{:>7.3} ms ({plays} plays)", time.as_secs_f64() * 1e3),
        None => format!("{:>7.3} ms", time.as_secs_f64() * 1e3),
    };
    eprintln!(
        "  {name:<26} median {}  worst {}",
        show(times[n / 2]),
        show(times[n - 1])
    );
}

fn bench(c: &mut Criterion) {
    let rules = Rules::classic();
    let nets: Vec<Arc<Net>> = Net::shipped_ensemble();
    let mut ensemble = Ensemble::new(&nets);
    eprintln!(
        "net: time per decision (fastest of 3 runs), {} networks",
        nets.len()
    );
    let mut group = c.benchmark_group("net");
    group.sample_size(10);
    group.measurement_time(Duration::from_secs(5));
    let [most, median] = lead_sets(&rules);
    // The robot's ensemble (the first network screens, the others rescore its best), then
    // every network scoring every play.
    for (name, set, rescore) in [
        ("lead/most-plays", &most, RESCORE),
        ("lead/median", &median, RESCORE),
        ("lead/most-plays/rescore=0", &most, 0),
    ] {
        ensemble.set_rescore(rescore);
        print_distribution(
            name,
            |i| {
                let (hand, moves) = &set[i];
                ensemble.best(&position(*hand), &rules, moves);
                Some(moves.len())
            },
            set.len(),
        );
        group.throughput(Throughput::Elements(set.len() as u64));
        group.bench_function(name, |b| {
            b.iter(|| {
                set.iter()
                    .map(|(hand, moves)| ensemble.best(&position(*hand), &rules, moves).0)
                    .sum::<usize>()
            })
        });
    }
    // Bids: seeded hands, and the hands of the most opening plays among 2,000.
    let config = NetConfig::parse(std::iter::empty()).expect("the default net robot");
    let mut bot = NetBot::new(&config, 1);
    let bid_view = |hand: Cards| SeatView::bidding(&rules, Seat::ALL[0], hand, vec![]);
    let seeded: Vec<SeatView> = (0..SET as u64)
        .map(|i| bid_view(hand(30_000 + i, 17)))
        .collect();
    let mut most: Vec<Lead> = (0..DEALT)
        .map(|i| opening(hand(30_000 + i, 17), &rules))
        .collect();
    most.sort_by_key(|(_, moves)| std::cmp::Reverse(moves.len()));
    let most: Vec<SeatView> = most[..SET]
        .iter()
        .map(|(hand, _)| bid_view(*hand))
        .collect();
    for (name, views) in [("bid", &seeded), ("bid/most-plays", &most)] {
        print_distribution(
            name,
            |i| {
                black_box(bot.landlord_chance(&views[i]));
                None
            },
            views.len(),
        );
        group.throughput(Throughput::Elements(views.len() as u64));
        group.bench_function(name, |b| {
            b.iter(|| {
                views
                    .iter()
                    .map(|view| bot.landlord_chance(view))
                    .sum::<f64>()
            })
        });
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
