//! Hand-analysis speed: the best split ([`ddz_bots::best_split`]) of seeded random hands.
//!
//! Sets of 17- and 20-card hands, each dealt from a 54-card deck shuffled with
//! `ddz_game::shuffle` (seed = set seed + hand number), under:
//!
//! - `classic`: natural hands (classic rules);
//! - `laizi`: single laizi with 9 wild, keeping only hands that hold at least one 9;
//! - `tiandi`: heaven-and-earth with 7 and Q wild, keeping only hands that hold a wild card.
//!
//! Each hand is solved by a fresh [`SplitSolver`] (nothing learnt from other hands), so a
//! figure is the cost of one hand from scratch, candidate generation included.
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
use ddz_core::{Cards, Rank, Rules};
use ddz_game::shuffle::{rng, shuffle};

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

/// Solves `hand` from scratch and returns the number of plays.
fn solve(hand: Cards, rules: &Rules) -> usize {
    SplitSolver::new(rules).solve(hand).plays
}

/// Median, 90th percentile and worst time per hand of each set (fastest of three runs per
/// hand), and the mean number of plays, on stderr.
fn print_distribution(sets: &[Set]) {
    eprintln!("best_split: time per hand (fastest of 3 runs), {HANDS} hands a set");
    for set in sets {
        let mut times = Vec::with_capacity(set.hands.len());
        let mut worst_hand = Cards::EMPTY;
        let mut plays = 0;
        for &hand in &set.hands {
            let mut fastest = Duration::MAX;
            for _ in 0..3 {
                let t = Instant::now();
                plays += black_box(solve(hand, &set.rules));
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
            "  {:<10} median {:>8.3} ms  p90 {:>8.3} ms  worst {:>8.3} ms ({worst_hand})  \
             mean plays {:.2}",
            set.name,
            ms(times[times.len() / 2]),
            ms(times[times.len() * 9 / 10]),
            ms(times[times.len() - 1]),
            plays as f64 / (3 * set.hands.len()) as f64,
        );
    }
}

fn bench(c: &mut Criterion) {
    let sets = sets();
    print_distribution(&sets);
    let mut group = c.benchmark_group("best_split");
    group.sample_size(10);
    group.measurement_time(Duration::from_secs(5));
    for set in &sets {
        group.throughput(Throughput::Elements(set.hands.len() as u64));
        group.bench_function(&set.name, |b| {
            b.iter(|| {
                set.hands
                    .iter()
                    .map(|&h| solve(black_box(h), &set.rules))
                    .sum::<usize>()
            })
        });
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
