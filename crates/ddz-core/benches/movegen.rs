//! Move-generation throughput of `ddz_core` against the crates.io crate `dou_dizhu` 0.2.0.
//!
//! Both engines work on the same seeded random hands (rank multisets of 17 and 20 cards dealt
//! from a shuffled 54-card deck). Hands are converted to each engine's representation before
//! any timing, so only move generation is measured.
//!
//! - `lead/17`, `lead/20`: every lead move of every hand.
//! - `follow`: for every 17-card hand, every move that beats each of a few fixed table plays.
//!
//! Throughput is reported in hands per second. Moves per hand for each engine are printed once
//! on stderr, so that moves per second can be derived. Run with
//! `cargo bench -p ddz-core --bench movegen`.

use std::collections::HashSet;
use std::hint::black_box;
use std::ops::ControlFlow;
use std::time::Duration;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use ddz_core::{Cards, Move, Rules, count_legal_moves, default_reading, for_each_legal_move};
use dou_dizhu::core::Guard;
use dou_dizhu::{Hand, Play, PlayKind};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// Hands in each benchmark set.
const HANDS: usize = 1_000;

/// Every `dou_dizhu` play kind: the crate has no list of its own.
const DOU_DIZHU_KINDS: [PlayKind; 14] = [
    PlayKind::Solo,
    PlayKind::Chain,
    PlayKind::Pair,
    PlayKind::PairsChain,
    PlayKind::Trio,
    PlayKind::Airplane,
    PlayKind::TrioWithSolo,
    PlayKind::AirplaneWithSolos,
    PlayKind::TrioWithPair,
    PlayKind::AirplaneWithPairs,
    PlayKind::Bomb,
    PlayKind::FourWithDualSolo,
    PlayKind::FourWithDualPair,
    PlayKind::Rocket,
];

/// Table plays to beat in the `follow` group, as rank counts (index 0 = 3 … 12 = 2,
/// 13 = small joker, 14 = big joker): a single 8, a pair of 5s, 444+3 and the straight 34567.
const TABLE_PLAYS: [[u8; 15]; 4] = [
    [0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0],
    [0, 0, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0],
    [1, 3, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0],
    [1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0],
];

/// One hand in both engines' representations.
struct BothHands {
    ddz: Cards,
    dou: Hand,
}

/// Deals `n_hands` hands of `n_cards` cards, each from a freshly shuffled 54-card deck
/// (Fisher–Yates driven by ChaCha8 seeded with `seed`), as rank counts.
fn deal(seed: u64, n_cards: usize, n_hands: usize) -> Vec<[u8; 15]> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    (0..n_hands)
        .map(|_| {
            // Cards 0..52 are 13 ranks x 4 suits (rank = card / 4); 52 and 53 are the jokers.
            let mut deck: [u8; 54] = std::array::from_fn(|i| i as u8);
            for i in (1..deck.len()).rev() {
                let j = rng.random_range(0..=i);
                deck.swap(i, j);
            }
            let mut counts = [0u8; 15];
            for &card in &deck[..n_cards] {
                let rank = if card < 52 { card / 4 } else { card - 52 + 13 };
                counts[usize::from(rank)] += 1;
            }
            counts
        })
        .collect()
}

/// Converts rank counts to both engines' hands.
fn both(counts: &[[u8; 15]]) -> Vec<BothHands> {
    counts
        .iter()
        .map(|c| BothHands {
            ddz: Cards::from_counts(c),
            dou: Hand::try_from(*c).expect("a dealt hand is a valid dou_dizhu hand"),
        })
        .collect()
}

/// `ddz_core`: number of lead moves of `hand`, each move passed through `black_box` (this
/// costs about what pushing it into a reused `Vec` does).
fn ddz_lead(hand: Cards, rules: &Rules) -> usize {
    let mut n = 0;
    let _ = for_each_legal_move(hand, None, rules, |m| {
        black_box(&m);
        n += 1;
        ControlFlow::<()>::Continue(())
    });
    n
}

/// `ddz_core`: number of moves of `hand` beating `last`, the pass included.
fn ddz_follow(hand: Cards, last: &Move, rules: &Rules) -> usize {
    let mut n = 0;
    let _ = for_each_legal_move(hand, Some(last), rules, |m| {
        black_box(&m);
        n += 1;
        ControlFlow::<()>::Continue(())
    });
    n
}

/// `dou_dizhu`: number of lead moves of `hand` (all 14 kinds), each through `black_box`.
fn dou_lead(hand: Hand) -> usize {
    let mut n = 0;
    for kind in DOU_DIZHU_KINDS {
        for p in hand.plays(kind) {
            black_box(&p);
            n += 1;
        }
    }
    n
}

/// `dou_dizhu`: number of plays of `hand` beating `last`. The crate has no response generator:
/// generate the plays of `last`'s kind, bombs and the rocket, and keep those that compare
/// greater. There is no pass in `dou_dizhu`.
fn dou_follow(hand: Hand, last: &Guard<Play>) -> usize {
    let own = last.kind();
    let mut n = 0;
    for (i, kind) in [own, PlayKind::Bomb, PlayKind::Rocket]
        .into_iter()
        .enumerate()
    {
        // A bomb or rocket on the table: its kind was already generated first.
        if i > 0 && kind == own {
            continue;
        }
        for p in hand.plays(kind) {
            if p > *last {
                black_box(&p);
                n += 1;
            }
        }
    }
    n
}

/// The lead and follow move counts of every engine over the benchmark hands, with a
/// comparison of `ddz` botzone's and `dou_dizhu`'s leads as card sets; printed on stderr once.
fn print_move_counts(sets: &[(&str, &[BothHands])], follow: &[BothHands]) {
    let classic = Rules::classic();
    let botzone = Rules::botzone();
    eprintln!("movegen bench: moves per hand over the benchmark hands");
    for (name, hands) in sets {
        let n = hands.len() as f64;
        let c: usize = hands.iter().map(|h| ddz_lead(h.ddz, &classic)).sum();
        let b: usize = hands.iter().map(|h| ddz_lead(h.ddz, &botzone)).sum();
        let d: usize = hands.iter().map(|h| dou_lead(h.dou)).sum();
        eprintln!(
            "  lead/{name}: ddz_classic {:.2}  ddz_botzone {:.2}  dou_dizhu {:.2}",
            c as f64 / n,
            b as f64 / n,
            d as f64 / n
        );
        // Distinct card sets: ddz gives one move per reading, dou_dizhu one per card set.
        let (mut only_ddz, mut only_dou, mut differ, mut readings) = (0usize, 0usize, 0usize, 0);
        for h in *hands {
            let mut ddz_sets = HashSet::new();
            let _ = for_each_legal_move(h.ddz, None, &botzone, |m| {
                ddz_sets.insert(m.cards().counts());
                ControlFlow::<()>::Continue(())
            });
            readings += ddz_lead(h.ddz, &botzone) - ddz_sets.len();
            let dou_sets: HashSet<[u8; 15]> = DOU_DIZHU_KINDS
                .iter()
                .flat_map(|&k| h.dou.plays(k))
                .map(|p| p.to_hand().to_array())
                .collect();
            let a = ddz_sets.difference(&dou_sets).count();
            let b = dou_sets.difference(&ddz_sets).count();
            only_ddz += a;
            only_dou += b;
            differ += usize::from(a + b > 0);
        }
        eprintln!(
            "  lead/{name} card sets, ddz_botzone vs dou_dizhu: {only_ddz} only in ddz, \
             {only_dou} only in dou_dizhu, {differ} of {} hands differ; \
             {readings} extra readings of a card set in ddz",
            hands.len()
        );
    }
    let n = follow.len() as f64;
    for counts in &TABLE_PLAYS {
        let cards = Cards::from_counts(counts);
        let lc = default_reading(cards, &classic).expect("table play under classic");
        let lb = default_reading(cards, &botzone).expect("table play under botzone");
        let ld = Hand::try_from(*counts).unwrap().to_play().unwrap();
        // Subtract the pass, which only ddz generates.
        let c: usize = follow
            .iter()
            .map(|h| ddz_follow(h.ddz, &lc, &classic) - 1)
            .sum();
        let b: usize = follow
            .iter()
            .map(|h| ddz_follow(h.ddz, &lb, &botzone) - 1)
            .sum();
        let d: usize = follow.iter().map(|h| dou_follow(h.dou, &ld)).sum();
        eprintln!(
            "  follow {cards}: ddz_classic {:.3}  ddz_botzone {:.3}  dou_dizhu {:.3} (pass excluded)",
            c as f64 / n,
            b as f64 / n,
            d as f64 / n
        );
    }
}

/// The `lead/17`, `lead/20` and `follow` groups.
fn movegen(c: &mut Criterion) {
    let hands17 = both(&deal(17, 17, HANDS));
    let hands20 = both(&deal(20, 20, HANDS));
    print_move_counts(&[("17", &hands17), ("20", &hands20)], &hands17);

    let classic = Rules::classic();
    // Botzone is the profile closest to dou_dizhu's rules: kickers of distinct ranks (no
    // `333444+55`, four + two singles never a pair). It still differs: it allows both jokers
    // as kickers and has space shuttles, which dou_dizhu has not.
    let botzone = Rules::botzone();

    for (name, hands) in [("17", &hands17), ("20", &hands20)] {
        let mut g = c.benchmark_group(format!("lead/{name}"));
        g.sample_size(20)
            .warm_up_time(Duration::from_secs(1))
            .measurement_time(Duration::from_secs(3))
            .throughput(Throughput::Elements(hands.len() as u64));
        g.bench_function("ddz_classic", |b| {
            b.iter(|| {
                let total: usize = hands
                    .iter()
                    .map(|h| ddz_lead(black_box(h.ddz), &classic))
                    .sum();
                black_box(total)
            })
        });
        g.bench_function("ddz_botzone", |b| {
            b.iter(|| {
                let total: usize = hands
                    .iter()
                    .map(|h| ddz_lead(black_box(h.ddz), &botzone))
                    .sum();
                black_box(total)
            })
        });
        // Counting only: the moves are not handed to `black_box`, so the compiler may skip
        // building parts of them. An upper bound for the generator alone, not the headline.
        g.bench_function("ddz_classic_count", |b| {
            b.iter(|| {
                let total: usize = hands
                    .iter()
                    .map(|h| count_legal_moves(black_box(h.ddz), None, &classic))
                    .sum();
                black_box(total)
            })
        });
        g.bench_function("dou_dizhu", |b| {
            b.iter(|| {
                let total: usize = hands.iter().map(|h| dou_lead(black_box(h.dou))).sum();
                black_box(total)
            })
        });
        g.finish();
    }

    // Follow: each 17-card hand answers every table play; one element = one hand.
    let classic_last: Vec<Move> = TABLE_PLAYS
        .iter()
        .map(|t| default_reading(Cards::from_counts(t), &classic).expect("table play"))
        .collect();
    let botzone_last: Vec<Move> = TABLE_PLAYS
        .iter()
        .map(|t| default_reading(Cards::from_counts(t), &botzone).expect("table play"))
        .collect();
    let dou_last: Vec<Guard<Play>> = TABLE_PLAYS
        .iter()
        .map(|t| Hand::try_from(*t).unwrap().to_play().expect("table play"))
        .collect();
    let mut g = c.benchmark_group("follow");
    g.sample_size(20)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(3))
        .throughput(Throughput::Elements(hands17.len() as u64));
    g.bench_function("ddz_classic", |b| {
        b.iter(|| {
            let mut total = 0;
            for h in &hands17 {
                for last in &classic_last {
                    total += ddz_follow(black_box(h.ddz), last, &classic);
                }
            }
            black_box(total)
        })
    });
    g.bench_function("ddz_botzone", |b| {
        b.iter(|| {
            let mut total = 0;
            for h in &hands17 {
                for last in &botzone_last {
                    total += ddz_follow(black_box(h.ddz), last, &botzone);
                }
            }
            black_box(total)
        })
    });
    g.bench_function("dou_dizhu", |b| {
        b.iter(|| {
            let mut total = 0;
            for h in &hands17 {
                for last in &dou_last {
                    total += dou_follow(black_box(h.dou), last);
                }
            }
            black_box(total)
        })
    });
    g.finish();
}

criterion_group!(benches, movegen);
criterion_main!(benches);
