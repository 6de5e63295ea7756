//! Speed of the exact open-hand solver ([`ddz_bots::solver`]).
//!
//! - `solver_duels`: the duel puzzles of `benches/solver_duels.txt` (the Hupu puzzle and its
//!   follow-ups, which `scripts/bench_resolver.py` also times with the `doudizhu-resolver`
//!   Python package, and larger seeded duels), each solved in full ([`Solver::solve`]: every
//!   winning first move and a principal line) by a fresh solver. The answers are checked
//!   against the file before timing.
//! - `solver_random`: sets of seeded random positions from a shuffled 54-card deck, classic
//!   rules: three seats of 5, 6 and 7 cards a hand (the landlord, seat 0, to lead) and duels
//!   of 8 and 10 cards a hand, each answered by [`Solver::wins`] from a fresh solver.
//!
//! Before criterion runs, per-puzzle times (fastest of 10 runs) and the median, 90th
//! percentile and worst time of each random set (fastest of 3 runs per position) are printed
//! on stderr, with the nodes searched. Run with `cargo bench -p ddz-bots --bench solver`.

use std::hint::black_box;
use std::time::{Duration, Instant};

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use ddz_bots::solver::{OpenPosition, Solver};
use ddz_core::{Cards, Rank, Rules, move_notation, parse_move};
use ddz_game::Seat;
use ddz_game::{rng, shuffle};

/// One puzzle of the duel file.
struct Puzzle {
    name: String,
    position: OpenPosition,
    wins: bool,
    winning: Vec<String>,
}

fn puzzles(rules: &Rules) -> Vec<Puzzle> {
    let text = include_str!("solver_duels.txt");
    let mut out = Vec::new();
    for line in text.lines().map(str::trim) {
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let field = |key: &str| {
            line.split_whitespace()
                .find_map(|f| f.strip_prefix(key).and_then(|r| r.strip_prefix('=')))
        };
        let hands: Vec<Cards> = field("hands")
            .unwrap()
            .split(',')
            .map(|h| h.parse().unwrap())
            .collect();
        let turn = Seat::ALL[field("turn").map_or(0, |t| t.parse().unwrap())];
        let last = field("last").map(|m| {
            let by = Seat::ALL[field("last_seat").unwrap().parse::<usize>().unwrap()];
            (by, parse_move(m, rules, None).unwrap())
        });
        let position = OpenPosition::duel([hands[0], hands[1]], turn, last, rules).unwrap();
        out.push(Puzzle {
            name: field("name").unwrap().to_string(),
            position,
            wins: field("wins").unwrap() == "true",
            winning: match field("winning").unwrap() {
                "-" => Vec::new(),
                list => list.split(',').map(str::to_string).collect(),
            },
        });
    }
    out
}

/// `n` positions of `seats` hands of `cards` cards, dealt from seeded shuffles.
fn random_set(seats: usize, cards: usize, n: u64, rules: &Rules) -> Vec<OpenPosition> {
    let deck: Vec<Rank> = Cards::FULL_DECK.iter().collect();
    (0..n)
        .map(|i| {
            let mut d = deck.clone();
            shuffle(&mut rng(1000 * cards as u64 + i), &mut d);
            let hand = |s: usize| d[s * cards..(s + 1) * cards].iter().copied().collect();
            let s0 = Seat::ALL[0];
            if seats == 2 {
                OpenPosition::duel([hand(0), hand(1)], s0, None, rules).unwrap()
            } else {
                OpenPosition::three([hand(0), hand(1), hand(2)], s0, s0, None, rules).unwrap()
            }
        })
        .collect()
}

fn bench(c: &mut Criterion) {
    let rules = Rules::classic();
    let puzzles = puzzles(&rules);
    eprintln!("solver_duels: full solve from a fresh solver, fastest of 10 runs");
    for p in &puzzles {
        let mut fastest = Duration::MAX;
        let mut nodes = 0;
        for _ in 0..10 {
            let mut solver = Solver::new(&rules);
            let t = Instant::now();
            let outcome = solver.solve(&p.position).unwrap();
            fastest = fastest.min(t.elapsed());
            nodes = outcome.nodes;
            let winning: Vec<String> = outcome
                .winning_moves
                .iter()
                .map(|m| move_notation(m, &rules))
                .collect();
            assert_eq!(outcome.to_move_wins, p.wins, "{}", p.name);
            assert_eq!(winning, p.winning, "{}", p.name);
        }
        eprintln!(
            "  {:<20} {:>10.3} ms {:>8} nodes",
            p.name,
            fastest.as_secs_f64() * 1e3,
            nodes
        );
    }
    let mut group = c.benchmark_group("solver_duels");
    group.sample_size(20);
    group.measurement_time(Duration::from_secs(2));
    for p in &puzzles {
        group.bench_function(&p.name, |b| {
            b.iter(|| {
                Solver::new(&rules)
                    .solve(black_box(&p.position))
                    .unwrap()
                    .to_move_wins
            })
        });
    }
    group.finish();

    let sets = [
        ("three/5", random_set(3, 5, 50, &rules)),
        ("three/6", random_set(3, 6, 50, &rules)),
        ("three/7", random_set(3, 7, 50, &rules)),
        ("duel/8", random_set(2, 8, 50, &rules)),
        ("duel/10", random_set(2, 10, 50, &rules)),
    ];
    eprintln!("solver_random: wins() from a fresh solver, fastest of 3 runs per position");
    for (name, set) in &sets {
        let mut times = Vec::new();
        let mut nodes = Vec::new();
        for p in set {
            let mut fastest = Duration::MAX;
            for _ in 0..3 {
                let mut solver = Solver::new(&rules);
                let t = Instant::now();
                black_box(solver.wins(p).unwrap());
                fastest = fastest.min(t.elapsed());
                if nodes.len() < times.len() + 1 {
                    nodes.push(solver.nodes());
                }
            }
            times.push(fastest);
        }
        let total_nodes: u64 = nodes.iter().sum();
        let total_time: Duration = times.iter().sum();
        times.sort();
        nodes.sort();
        let ms = |d: Duration| d.as_secs_f64() * 1e3;
        eprintln!(
            "  {name:<8} median {:>8.3} ms  p90 {:>8.3} ms  worst {:>8.3} ms  median nodes {:>7}  worst {:>8}  {:.2} M nodes/s",
            ms(times[times.len() / 2]),
            ms(times[times.len() * 9 / 10]),
            ms(times[times.len() - 1]),
            nodes[nodes.len() / 2],
            nodes[nodes.len() - 1],
            total_nodes as f64 / total_time.as_secs_f64() / 1e6,
        );
    }
    let mut group = c.benchmark_group("solver_random");
    group.sample_size(10);
    group.measurement_time(Duration::from_secs(5));
    for (name, set) in &sets {
        group.throughput(Throughput::Elements(set.len() as u64));
        group.bench_function(*name, |b| {
            b.iter(|| {
                set.iter()
                    .filter(|p| Solver::new(&rules).wins(black_box(p)).unwrap())
                    .count()
            })
        });
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
