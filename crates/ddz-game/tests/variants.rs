//! The play phase at two and four seats (docs/variants.md): perft checked against a
//! brute-force perft with its own play loop (every sub-multiset of the mover's hand,
//! classified, filtered by `Move::beats`; a trick ends after `N - 1` passes; under `two` the
//! farmer is out at its handicap), perft of seeded deals pinned in
//! `tests/data/perft_variants.txt`, and random games that end as the rules say, zero-sum.

use std::collections::{HashMap, HashSet};

use ddz_core::{Cards, Move, Rules, classify};

use crate::perft::{reduce, sub_multisets};
use ddz_game::{
    BySeat, PlayStateOf, Seat, Side, TableDeal, TrickOf, below, bench_playouts, derive_seed,
    handicap_cards, perft_from, perft_table, rng, table_start,
};

/// A position of the brute-force play loop (kept apart from `PlayStateOf`).
#[derive(Clone, Copy)]
struct Node<const N: usize> {
    hands: [Cards; N],
    turn: usize,
    last: Option<Move>,
    passes: usize,
    /// The seat out at this many cards or fewer (the two-seat handicap).
    handicap: Option<(usize, u32)>,
}

impl<const N: usize> Node<N> {
    fn over(&self) -> bool {
        (0..N).any(|s| match self.handicap {
            Some((seat, cards)) if seat == s => self.hands[s].len() <= cards,
            _ => self.hands[s].is_empty(),
        })
    }

    fn play(&self, m: Move) -> Node<N> {
        let mut n = *self;
        if m.is_pass() {
            n.passes += 1;
            if n.passes == N - 1 {
                n.passes = 0;
                n.last = None;
            }
        } else {
            n.hands[self.turn] = self.hands[self.turn]
                .difference(m.cards())
                .expect("a move's cards are in hand");
            n.last = Some(m);
            n.passes = 0;
        }
        n.turn = (self.turn + 1) % N;
        n
    }

    fn position(&self) -> PlayStateOf<N> {
        let turn = Seat::all::<N>()[self.turn];
        let by = (self.turn + N - 1 - self.passes) % N;
        let last = self.last.map(|m| (Seat::all::<N>()[by], m));
        let state = PlayStateOf::with_trick(BySeat(self.hands), TrickOf::at(turn, last));
        match self.handicap {
            Some((seat, cards)) => state.with_handicap(Seat::all::<N>()[seat], cards),
            None => state,
        }
    }
}

/// The brute-force side: every reading of every sub-multiset, cached per hand.
struct Brute {
    rules: Rules,
    readings: HashMap<Cards, Vec<Move>>,
}

impl Brute {
    fn new(rules: &Rules) -> Brute {
        Brute {
            rules: rules.clone(),
            readings: HashMap::new(),
        }
    }

    fn moves<const N: usize>(&mut self, node: &Node<N>) -> Vec<Move> {
        let rules = self.rules.clone();
        let leads = self
            .readings
            .entry(node.hands[node.turn])
            .or_insert_with(|| {
                let mut seen = HashSet::new();
                let mut out = Vec::new();
                for sub in sub_multisets(node.hands[node.turn]) {
                    for m in classify(sub, &rules) {
                        if seen.insert((m.cards(), m.kind(), m.main(), m.length(), m.class())) {
                            out.push(m);
                        }
                    }
                }
                out
            });
        match node.last {
            None => leads.clone(),
            Some(last) => {
                let mut v: Vec<Move> = leads
                    .iter()
                    .copied()
                    .filter(|m| m.beats(&last, &rules))
                    .collect();
                v.push(Move::PASS);
                v
            }
        }
    }

    fn perft<const N: usize>(&mut self, node: &Node<N>, depth: usize) -> Vec<u64> {
        let mut counts = vec![0; depth];
        self.walk(node, &mut counts);
        counts
    }

    fn walk<const N: usize>(&mut self, node: &Node<N>, counts: &mut [u64]) {
        if counts.is_empty() || node.over() {
            return;
        }
        let moves = self.moves(node);
        counts[0] += moves.len() as u64;
        for m in moves {
            self.walk(&node.play(m), &mut counts[1..]);
        }
    }
}

/// Reduced hands (`sizes` cards each, at random) of seeded table deals, from the lead and a
/// few random moves later, against the brute force at `depth`.
fn small_positions<const N: usize>(rules: &Rules, sizes: (u64, u64), depth: usize) -> u64 {
    let mut leaves = 0;
    for seed in 1..=20u64 {
        let deal = TableDeal::<N>::from_seed(seed, rules).unwrap();
        let mut r = rng(seed ^ 0x5EED);
        let hands = deal.landlord_hands(Seat::ALL[0]).0.map(|h| {
            let n = sizes.0 + below(&mut r, sizes.1 - sizes.0 + 1);
            reduce(h, n as usize, &mut r)
        });
        // Under the handicap the farmer (seat 1) holds more than its cards, or it would be
        // out before the first play.
        let handicap = rules
            .handicap
            .then_some((1, handicap_cards(below(&mut r, 3) as u32)));
        let mut node = Node {
            hands,
            turn: 0,
            last: None,
            passes: 0,
            handicap,
        };
        let mut brute = Brute::new(rules);
        for step in 0..4 {
            let want = brute.perft(&node, depth);
            let got = perft_from(&node.position(), rules, depth);
            assert_eq!(got, want, "{} seed {seed} step {step}", rules.profile);
            leaves += want.iter().sum::<u64>();
            let moves = brute.moves(&node);
            if moves.is_empty() || node.over() {
                break;
            }
            node = node.play(moves[below(&mut r, moves.len() as u64) as usize]);
            if node.over() {
                break;
            }
        }
    }
    leaves
}

#[test]
fn two_seat_positions_match_brute_force() {
    let leaves = small_positions::<2>(&Rules::two(), (4, 8), 8);
    assert!(leaves > 10_000, "{leaves} leaves");
}

#[test]
fn four_seat_positions_match_brute_force() {
    let leaves = small_positions::<4>(&Rules::four(), (3, 6), 8);
    assert!(leaves > 10_000, "{leaves} leaves");
}

/// Full seeded table deals at depth 3 against the brute force.
#[test]
fn full_table_deals_match_brute_force() {
    fn check<const N: usize>(rules: &Rules, depth: usize) {
        for seed in 1..=2 {
            let start = table_start(&TableDeal::<N>::from_seed(seed, rules).unwrap(), rules);
            let node = Node::<N> {
                hands: start.hands().0,
                turn: 0,
                last: None,
                passes: 0,
                handicap: start.handicap().map(|(s, c)| (s.index(), c)),
            };
            let want = Brute::new(rules).perft(&node, depth);
            assert_eq!(perft_table::<N>(seed, rules, depth).unwrap(), want);
        }
    }
    check::<2>(&Rules::two(), 3);
    check::<4>(&Rules::four(), 3);
}

/// Perft of seeded table deals, pinned in `tests/data/perft_variants.txt`.
#[test]
fn pinned_table_counts() {
    let text = include_str!("data/perft_variants.txt");
    let mut lines = 0;
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let f: Vec<&str> = line.split_whitespace().collect();
        let rules = Rules::profile(f[0].parse().expect("a profile"));
        let seed: u64 = f[1].parse().expect("a seed");
        let want: Vec<u64> = f[3..].iter().map(|n| n.parse().expect("a count")).collect();
        let depth: usize = f[2].parse().expect("a depth");
        assert_eq!(want.len(), depth, "line {}", i + 1);
        let dealt = derive_seed(seed, 0);
        let got = match rules.seats {
            2 => perft_table::<2>(dealt, &rules, depth),
            4 => perft_table::<4>(dealt, &rules, depth),
            _ => perft_table::<3>(dealt, &rules, depth),
        };
        assert_eq!(got.unwrap(), want, "line {}: {line}", i + 1);
        lines += 1;
    }
    assert!(lines >= 6, "{lines} lines");
}

/// Random games at both tables end as docs/variants.md says, and score zero-sum.
#[test]
fn random_games_end_by_the_rules_and_score_zero_sum() {
    fn play<const N: usize>(rules: &Rules, games: u64) {
        let mut draw = rng(99);
        let mut buf = Vec::new();
        let landlord = Seat::ALL[0];
        for g in 0..games {
            let deal = TableDeal::<N>::from_seed(g, rules).unwrap();
            let mut state = table_start(&deal, rules);
            while !state.is_over() {
                state.legal_moves_into(rules, &mut buf);
                let m = buf[below(&mut draw, buf.len() as u64) as usize];
                state.apply(state.turn(), m, rules).unwrap();
            }
            let out = state.first_out().unwrap();
            let left = state.hand(out).len();
            match state.handicap() {
                Some((farmer, cards)) if out == farmer => {
                    assert!(left <= cards && left > 0 || left == 0)
                }
                _ => assert_eq!(left, 0, "game {g}"),
            }
            let result = state.result(landlord, 1, 1, rules).unwrap();
            assert_eq!(result.scores.0.iter().sum::<i64>(), 0, "game {g}");
            let landlord_score = result.scores[landlord];
            let farmer_score = result.scores[landlord.next_of::<N>()];
            assert_eq!(landlord_score, -(N as i64 - 1) * farmer_score, "game {g}");
            assert_eq!(result.winner == Side::Landlord, out == landlord, "game {g}");
            assert_eq!(landlord_score > 0, out == landlord, "game {g}");
        }
    }
    play::<2>(&Rules::two(), 300);
    play::<4>(&Rules::four(), 300);
}

#[test]
fn playouts_bench_runs_at_every_table() {
    let budget = ddz_game::Budget::Count(5);
    assert_eq!(
        bench_playouts::<2>(&Rules::two(), budget, 1).unwrap().games,
        5
    );
    assert_eq!(
        bench_playouts::<3>(&Rules::classic(), budget, 1)
            .unwrap()
            .games,
        5
    );
    assert_eq!(
        bench_playouts::<4>(&Rules::four(), budget, 1)
            .unwrap()
            .games,
        5
    );
    assert!(bench_playouts::<4>(&Rules::classic(), budget, 1).is_err());
}
