//! Perft checked two ways: against a brute-force perft that does not use ddz-core's move
//! generator (every sub-multiset of the mover's hand, classified, filtered by `Move::beats`,
//! with its own play loop), on seeded deals, reduced hands and mid-trick positions of every
//! profile; and against counts pinned in `tests/data/perft.txt`.

use std::collections::{HashMap, HashSet};

use ddz_core::{Cards, Move, Rank, Rules, classify};
use ddz_game::{BySeat, Deal, Seat, below, rng, shuffle};
use ddz_game::{PlayState, Trick, deal_rules, perft_deal, perft_from};

const PROFILES: [&str; 6] = ["classic", "douzero", "rlcard", "botzone", "laizi", "tiandi"];

fn profile(name: &str) -> Rules {
    Rules::profile(name.parse().expect("a profile name"))
}

/// Every non-empty sub-multiset of `hand` (also the brute force of `variants.rs`).
pub(crate) fn sub_multisets(hand: Cards) -> Vec<Cards> {
    let mut out = vec![[0u8; 15]];
    for (i, &c) in hand.counts().iter().enumerate() {
        let mut next = Vec::with_capacity(out.len() * (c as usize + 1));
        for base in &out {
            for k in 0..=c {
                let mut b = *base;
                b[i] = k;
                next.push(b);
            }
        }
        out = next;
    }
    out.iter()
        .map(Cards::from_counts)
        .filter(|c| !c.is_empty())
        .collect()
}

/// The brute-force side: every reading of every sub-multiset, cached per hand.
struct Brute {
    rules: Rules,
    readings: HashMap<Cards, Vec<Move>>,
}

/// A position of the brute-force play loop (kept apart from `PlayState`).
#[derive(Clone, Copy)]
struct Node {
    hands: [Cards; 3],
    turn: usize,
    last: Option<Move>,
    passes: u8,
}

impl Brute {
    fn new(rules: Rules) -> Brute {
        Brute {
            rules,
            readings: HashMap::new(),
        }
    }

    /// Every distinct move (cards, kind, main, length, class) `hand` can make when leading.
    fn leads(&mut self, hand: Cards) -> &[Move] {
        let rules = &self.rules;
        self.readings.entry(hand).or_insert_with(|| {
            let mut seen = HashSet::new();
            let mut out = Vec::new();
            for sub in sub_multisets(hand) {
                for m in classify(sub, rules) {
                    if seen.insert((m.cards(), m.kind(), m.main(), m.length(), m.class())) {
                        out.push(m);
                    }
                }
            }
            out
        })
    }

    fn moves(&mut self, node: &Node) -> Vec<Move> {
        let hand = node.hands[node.turn];
        let rules = self.rules.clone();
        let leads = self.leads(hand);
        match node.last {
            None => leads.to_vec(),
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

    fn perft(&mut self, node: &Node, depth: usize) -> Vec<u64> {
        let mut counts = vec![0; depth];
        self.walk(node, &mut counts);
        counts
    }

    fn walk(&mut self, node: &Node, counts: &mut [u64]) {
        if counts.is_empty() || node.hands.iter().any(|h| h.is_empty()) {
            return;
        }
        let moves = self.moves(node);
        counts[0] += moves.len() as u64;
        for m in moves {
            let child = play(node, m);
            self.walk(&child, &mut counts[1..]);
        }
    }
}

fn play(node: &Node, m: Move) -> Node {
    let mut n = *node;
    if m.is_pass() {
        n.passes += 1;
        if n.passes == 2 {
            n.passes = 0;
            n.last = None;
        }
    } else {
        n.hands[node.turn] = node.hands[node.turn]
            .difference(m.cards())
            .expect("a move's cards are in hand");
        n.last = Some(m);
        n.passes = 0;
    }
    n.turn = (node.turn + 1) % 3;
    n
}

fn to_position(node: &Node) -> PlayState {
    let turn = Seat::ALL[node.turn];
    // The player before the passes made the play to beat ([`Trick::at`] reads the passes
    // from the seats).
    let last = node
        .last
        .map(|m| (Seat::ALL[(node.turn + 2 - node.passes as usize) % 3], m));
    PlayState::with_trick(BySeat(node.hands), Trick::at(turn, last))
}

fn deal_node(deal: &Deal) -> Node {
    let p = PlayState::dealt(deal);
    Node {
        hands: p.hands().0,
        turn: 0,
        last: None,
        passes: 0,
    }
}

/// `n` cards of `hand` chosen at random.
pub(crate) fn reduce(hand: Cards, n: usize, r: &mut impl rand::Rng) -> Cards {
    let mut cards: Vec<Rank> = hand.iter().collect();
    shuffle(r, &mut cards);
    cards[..n.min(cards.len())].iter().copied().collect()
}

/// Full seeded deals at depth 4 (3 for the profiles with wild cards).
#[test]
fn full_deals_match_brute_force() {
    for name in PROFILES {
        let base = profile(name);
        let wild = !base.laizi.is_empty() || base.wild != ddz_core::Wild::None;
        let depth = if wild { 3 } else { 4 };
        for seed in 1..=2 {
            let deal = Deal::from_seed(seed, &base);
            let rules = deal_rules(&deal, &base).unwrap();
            let want = Brute::new(rules.clone()).perft(&deal_node(&deal), depth);
            let got = perft_deal(&deal, &base, depth).unwrap();
            assert_eq!(got, want, "{name} seed {seed}");
        }
    }
}

/// Reduced hands (5-8 cards each) from seeded deals at depth 8 (7 with wild cards), from the lead and from
/// positions a few random moves later (mid-trick, after passes).
#[test]
fn small_positions_match_brute_force() {
    let mut leaves = 0;
    for name in PROFILES {
        let base = profile(name);
        for seed in 1..=20u64 {
            let deal = Deal::from_seed(seed, &base);
            let rules = deal_rules(&deal, &base).unwrap();
            let mut r = rng(seed ^ 0x5EED);
            let full = deal_node(&deal);
            let mut hands = full.hands;
            for h in hands.iter_mut() {
                let n = 5 + below(&mut r, 4) as usize;
                *h = reduce(*h, n, &mut r);
            }
            let mut node = Node { hands, ..full };
            let mut brute = Brute::new(rules.clone());
            let depth = if rules.laizi.is_empty() { 8 } else { 7 };
            for step in 0..4 {
                let want = brute.perft(&node, depth);
                let got = perft_from(&to_position(&node), &rules, depth);
                assert_eq!(got, want, "{name} seed {seed} after {step} random moves");
                leaves += want.iter().sum::<u64>();
                let moves = brute.moves(&node);
                if moves.is_empty() {
                    break;
                }
                let m = moves[below(&mut r, moves.len() as u64) as usize];
                node = play(&node, m);
                if node.hands.iter().any(|h| h.is_empty()) {
                    break;
                }
            }
        }
    }
    eprintln!("{leaves} leaves checked");
    assert!(leaves > 1_000_000, "{leaves}");
}

/// The counts in `tests/data/perft.txt`: `profile seed depth n1 ... nD`, from
/// `Deal::from_seed(seed)` with seat 0 as the landlord.
#[test]
fn pinned_counts() {
    let text = include_str!("data/perft.txt");
    let mut lines = 0;
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let f: Vec<&str> = line.split_whitespace().collect();
        let rules = profile(f[0]);
        let seed: u64 = f[1].parse().unwrap();
        let depth: usize = f[2].parse().unwrap();
        let want: Vec<u64> = f[3..].iter().map(|n| n.parse().unwrap()).collect();
        assert_eq!(want.len(), depth, "line {}", i + 1);
        let deal = Deal::from_seed(seed, &rules);
        assert_eq!(
            perft_deal(&deal, &rules, depth).unwrap(),
            want,
            "line {}: {line}",
            i + 1
        );
        lines += 1;
    }
    assert!(lines >= 12);
}
