//! Hand-analysis speed on seeded random hands: the best split ([`ddz_bots::best_split`]), the
//! blog's hand value ([`ddz_bots::blog::Valuer`], at the best reading of the wild cards) and
//! the ddzlib split ([`ddz_bots::ddzlib::split`]).
//!
//! Sets of 17- and 20-card hands, each dealt from a 54-card deck shuffled with
//! `ddz_game::shuffle` (seed = set seed + hand number), under:
//!
//! - `classic`: natural hands (classic rules);
//! - `laizi`: single laizi with 9 wild, keeping only hands that hold at least one 9;
//! - `tiandi`: heaven-and-earth with 7 and Q wild, keeping only hands that hold a wild card.
//!
//! Each hand is solved by a fresh [`SplitSolver`] or [`Valuer`] (nothing learnt from other
//! hands), so a figure is the cost of one hand from scratch.
//!
//! Before criterion runs, the median, 90th percentile and worst time per hand of each set
//! are printed on stderr: each hand is solved three times and its fastest time is kept, which
//! takes out most of the noise of a shared machine. Criterion then measures the mean time per
//! hand over the whole set (throughput in hands per second). Run with
//! `cargo bench -p ddz-bots --bench analysis`.

use std::hint::black_box;
use std::time::{Duration, Instant};

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use ddz_bots::best_split::SplitSolver;
use ddz_bots::blog::Valuer;
use ddz_bots::ddzlib;
use ddz_core::{Cards, Rank, Rules};
use ddz_game::{rng, shuffle};

/// Hands in each set.
const HANDS: usize = 200;

/// One benchmark set: its name, rules and hands.
struct Set {
    name: String,
    rules: Rules,
    hands: Vec<Cards>,
}

/// `HANDS` hands of `n` cards dealt from seed `seed` on, keeping those that hold a card of
/// `need` (any hand when `need` is empty).
fn deal(seed: u64, n: usize, need: &[Rank]) -> Vec<Cards> {
    let deck: Vec<Rank> = Cards::FULL_DECK.iter().collect();
    let mut hands = Vec::with_capacity(HANDS);
    let mut i = 0;
    while hands.len() < HANDS {
        let mut d = deck.clone();
        shuffle(&mut rng(seed + i), &mut d);
        i += 1;
        let hand: Cards = d[..n].iter().copied().collect();
        if need.is_empty() || need.iter().any(|&r| hand.count(r) > 0) {
            hands.push(hand);
        }
    }
    hands
}

fn sets() -> Vec<Set> {
    let laizi = Rules::laizi().with_laizi(&[Rank::Nine]).unwrap();
    let tiandi = Rules::tiandi()
        .with_laizi(&[Rank::Seven, Rank::Queen])
        .unwrap();
    let mut out = Vec::new();
    for n in [17, 20] {
        let seed = 1000 * n as u64;
        out.push(Set {
            name: format!("classic/{n}"),
            rules: Rules::classic(),
            hands: deal(seed, n, &[]),
        });
        out.push(Set {
            name: format!("laizi/{n}"),
            rules: laizi.clone(),
            hands: deal(seed, n, &[Rank::Nine]),
        });
        out.push(Set {
            name: format!("tiandi/{n}"),
            rules: tiandi.clone(),
            hands: deal(seed, n, &[Rank::Seven, Rank::Queen]),
        });
    }
    out
}

/// An analysis timed: its name and what it computes for a hand (a number, kept from the
/// optimiser).
type Analysis = (&'static str, fn(Cards, &Rules) -> i64);

/// The analyses, each from scratch.
const ANALYSES: [Analysis; 3] = [
    ("best_split", |hand, rules| {
        SplitSolver::new(rules).solve(hand).plays as i64
    }),
    ("hand_value", |hand, rules| {
        Valuer::new().best_reading(hand, rules).1.sum_value as i64
    }),
    ("ddzlib_split", |hand, rules| {
        ddzlib::split(hand, rules).len() as i64
    }),
];

/// Median, 90th percentile and worst time per hand of each set (fastest of three runs per
/// hand), on stderr.
fn print_distribution(sets: &[Set], (name, analyse): Analysis) {
    eprintln!("{name}: time per hand (fastest of 3 runs), {HANDS} hands a set");
    for set in sets {
        let mut times = Vec::with_capacity(set.hands.len());
        let mut worst_hand = Cards::EMPTY;
        for &hand in &set.hands {
            let mut fastest = Duration::MAX;
            for _ in 0..3 {
                let t = Instant::now();
                black_box(analyse(hand, &set.rules));
                fastest = fastest.min(t.elapsed());
            }
            if times.iter().all(|&t| t < fastest) {
                worst_hand = hand;
            }
            times.push(fastest);
        }
        times.sort();
        let ms = |d: Duration| d.as_secs_f64() * 1e3;
        eprintln!(
            "  {:<10} median {:>8.3} ms  p90 {:>8.3} ms  worst {:>8.3} ms ({worst_hand})",
            set.name,
            ms(times[times.len() / 2]),
            ms(times[times.len() * 9 / 10]),
            ms(times[times.len() - 1]),
        );
    }
}

fn bench(c: &mut Criterion) {
    let sets = sets();
    for analysis in ANALYSES {
        print_distribution(&sets, analysis);
        let (name, analyse) = analysis;
        let mut group = c.benchmark_group(name);
        group.sample_size(10);
        group.measurement_time(Duration::from_secs(5));
        for set in &sets {
            group.throughput(Throughput::Elements(set.hands.len() as u64));
            group.bench_function(&set.name, |b| {
                b.iter(|| {
                    set.hands
                        .iter()
                        .map(|&h| analyse(black_box(h), &set.rules))
                        .sum::<i64>()
                })
            });
        }
        group.finish();
    }
}

criterion_group!(benches, bench);
criterion_main!(benches);
