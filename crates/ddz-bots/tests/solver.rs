//! The open-hand solver against an independent brute-force minimax (no table, no ordering) on
//! thousands of small seeded random positions of several profiles, the puzzles of
//! `tests/data/solver_puzzles.txt`, the shape of its results (every winning move replayed,
//! the principal line legal move by move and won by the side it claims), the node budget and
//! the position checks.

use ddz_bots::solver::{After, Exceeded, OpenPosition, PositionError, Solver};
use ddz_core::{Cards, Move, Rank, Rules, legal_moves, move_notation, parse_move};
use ddz_game::Seat;
use ddz_game::{below, rng, shuffle};
use rand_chacha::ChaCha8Rng;

fn cards(s: &str) -> Cards {
    s.parse().unwrap()
}

fn seat(i: usize) -> Seat {
    Seat::ALL[i]
}

// ---------------------------------------------------------------------------------------
// The brute force: a plain minimax over the game as RULES.md states it, written apart from
// the solver. The trick is kept as (the table's play, the seat that made it): after a pass,
// if the next seat is the one that made the table's play, every other seat has passed and it
// leads. The value is "side A wins", side A being the landlord (three seats) or seat 0 (a
// duel); A maximises, the other side minimises.
// ---------------------------------------------------------------------------------------

/// A game in progress for the brute force.
#[derive(Clone, Copy, Debug)]
struct Game {
    hands: [Cards; 3],
    seats: usize,
    landlord: usize,
    turn: usize,
    /// The play to beat and who made it.
    table: Option<(usize, Move)>,
}

impl Game {
    fn of(p: &OpenPosition) -> Game {
        Game {
            hands: [0, 1, 2].map(|i| p.hand(seat(i))),
            seats: p.seats().len(),
            landlord: p.landlord().map_or(0, |s| s.index()),
            turn: p.turn().index(),
            table: p.last().map(|(s, m)| (s.index(), m)),
        }
    }

    /// Side A: the landlord with three seats, seat 0 in a duel.
    fn is_a(&self, seat: usize) -> bool {
        if self.seats == 2 {
            seat == 0
        } else {
            seat == self.landlord
        }
    }

    fn moves(&self, rules: &Rules) -> Vec<Move> {
        legal_moves(
            self.hands[self.turn],
            self.table.map(|(_, m)| m).as_ref(),
            rules,
        )
    }

    /// Plays `m` (taken from `moves`); `Err(winner)` when it empties the hand.
    fn play(&self, m: &Move) -> Result<Game, usize> {
        let mut g = *self;
        let next = (self.turn + 1) % self.seats;
        if m.is_pass() {
            let (by, _) = self.table.expect("a pass follows a play");
            if next == by {
                g.table = None;
            }
        } else {
            assert!(g.hands[self.turn].contains(m.cards()));
            g.hands[self.turn] = g.hands[self.turn].minus(m.cards());
            if g.hands[self.turn].is_empty() {
                return Err(self.turn);
            }
            g.table = Some((self.turn, *m));
        }
        g.turn = next;
        Ok(g)
    }
}

/// Minimax: does side A win `g`? `None` when more than `budget` nodes would be needed.
fn a_wins(g: &Game, rules: &Rules, budget: &mut u64) -> Option<bool> {
    if *budget == 0 {
        return None;
    }
    *budget -= 1;
    let maximiser = g.is_a(g.turn);
    for m in g.moves(rules) {
        let v = match g.play(&m) {
            Err(winner) => g.is_a(winner),
            Ok(next) => a_wins(&next, rules, budget)?,
        };
        if v == maximiser {
            return Some(v);
        }
    }
    Some(!maximiser)
}

/// Does the side to move of `g` win, by brute force?
fn brute_wins(g: &Game, rules: &Rules, budget: &mut u64) -> Option<bool> {
    a_wins(g, rules, budget).map(|a| a == g.is_a(g.turn))
}

/// Does move `m` win for the side to move of `g`, by brute force?
fn brute_move_wins(g: &Game, m: &Move, rules: &Rules, budget: &mut u64) -> Option<bool> {
    let a = match g.play(m) {
        Err(winner) => g.is_a(winner),
        Ok(next) => a_wins(&next, rules, budget)?,
    };
    Some(a == g.is_a(g.turn))
}

// ---------------------------------------------------------------------------------------
// Random positions.
// ---------------------------------------------------------------------------------------

/// A rule set drawn at random: classic, single laizi, heaven-and-earth, douzero or botzone,
/// with random wild ranks; and its name.
fn random_rules(r: &mut ChaCha8Rng, i: u64) -> (String, Rules) {
    let wild = |r: &mut ChaCha8Rng| Rank::ALL[below(r, 13) as usize];
    match i % 5 {
        0 => ("classic".into(), Rules::classic()),
        1 => {
            let w = wild(r);
            (
                format!("laizi:{w}"),
                Rules::laizi().with_laizi(&[w]).unwrap(),
            )
        }
        2 => {
            let a = wild(r);
            let mut b = wild(r);
            while b == a {
                b = wild(r);
            }
            (
                format!("tiandi:{a},{b}"),
                Rules::tiandi().with_laizi(&[a, b]).unwrap(),
            )
        }
        3 => ("douzero".into(), Rules::douzero()),
        _ => ("botzone".into(), Rules::botzone()),
    }
}

/// A crowded deck: every card of a few neighbouring ranks, plus the wild ranks, and now and
/// then the 2s and jokers, shuffled; so pairs, trios, bombs, chains and wild cards are common.
fn crowded_deck(r: &mut ChaCha8Rng, rules: &Rules) -> Vec<Rank> {
    let low = below(r, 10) as usize;
    let width = 3 + below(r, 3) as usize;
    let mut ranks: Vec<Rank> = (low..(low + width).min(12)).map(|i| Rank::ALL[i]).collect();
    ranks.extend(rules.laizi.iter());
    if below(r, 3) == 0 {
        ranks.extend([Rank::Two, Rank::SmallJoker, Rank::BigJoker]);
    }
    ranks.sort();
    ranks.dedup();
    let mut deck: Vec<Rank> = ranks
        .iter()
        .flat_map(|&k| std::iter::repeat_n(k, k.deck_count() as usize))
        .collect();
    shuffle(r, &mut deck);
    deck
}

/// A random position: `seats` hands of `lo..=hi` cards, a random landlord and seat to move,
/// and half the time a play on the table (a legal lead of a few more cards from the deck).
fn random_position(
    r: &mut ChaCha8Rng,
    rules: &Rules,
    seats: usize,
    lo: u64,
    hi: u64,
) -> OpenPosition {
    loop {
        let deck = crowded_deck(r, rules);
        let mut at = 0;
        let mut take = |n: usize| -> Cards {
            let c: Cards = deck.iter().skip(at).take(n).copied().collect();
            at += n;
            c
        };
        let mut hands = [Cards::EMPTY; 3];
        for h in hands.iter_mut().take(seats) {
            *h = take((lo + below(r, hi - lo + 1)) as usize);
        }
        let turn = below(r, seats as u64) as usize;
        let mut last = None;
        if below(r, 2) == 0 {
            let spare = take(1 + below(r, 5) as usize);
            let leads = legal_moves(spare, None, rules);
            if !leads.is_empty() {
                let m = leads[below(r, leads.len() as u64) as usize];
                let by = (turn + 1 + below(r, seats as u64 - 1) as usize) % seats;
                last = Some((seat(by), m));
            }
        }
        let position = if seats == 2 {
            OpenPosition::duel([hands[0], hands[1]], seat(turn), last, rules)
        } else {
            let landlord = seat(below(r, 3) as usize);
            OpenPosition::three(hands, landlord, seat(turn), last, rules)
        };
        // A crowded deck can run short of cards: draw again.
        if let Ok(p) = position {
            return p;
        }
    }
}

/// Replays the principal line of `outcome` from `position` with the brute force's rules of
/// play: every move must be legal, the line must end with an empty hand, and that seat's
/// side must be the side the outcome says wins.
fn check_line(position: &OpenPosition, line: &[(Seat, Move)], to_move_wins: bool, rules: &Rules) {
    let mut g = Game::of(position);
    let to_move_is_a = g.is_a(g.turn);
    for (i, (s, m)) in line.iter().enumerate() {
        assert_eq!(
            s.index(),
            g.turn,
            "{position:?}: move {i} by the wrong seat"
        );
        assert!(
            g.moves(rules).contains(m),
            "{position:?}: move {i} {m} is not legal"
        );
        match g.play(m) {
            Ok(next) => g = next,
            Err(winner) => {
                assert_eq!(
                    i,
                    line.len() - 1,
                    "{position:?}: the line goes on after the end"
                );
                assert_eq!(
                    g.is_a(winner) == to_move_is_a,
                    to_move_wins,
                    "{position:?}: the line is won by the other side"
                );
                return;
            }
        }
    }
    panic!("{position:?}: the line {line:?} does not end the game");
}

/// Checks the solver on one position against the brute force (when it is small enough):
/// the value, every winning move, the line. Returns false when the brute force gave up.
fn check_position(solver: &mut Solver, position: &OpenPosition, rules: &Rules) -> bool {
    let g = Game::of(position);
    let mut budget = 2_000_000;
    let Some(expected) = brute_wins(&g, rules, &mut budget) else {
        return false;
    };
    let wins = solver.wins(position).unwrap();
    assert_eq!(wins, expected, "wins: {position:?}");
    let outcome = solver.solve(position).unwrap();
    assert_eq!(outcome.to_move_wins, expected, "solve: {position:?}");
    // Every winning move, exactly: each legal move's value by brute force.
    let mut winning = Vec::new();
    for m in g.moves(rules) {
        let mut budget = 2_000_000;
        if brute_move_wins(&g, &m, rules, &mut budget).expect("a move is smaller than the root") {
            winning.push(m);
        }
    }
    assert_eq!(
        outcome.winning_moves, winning,
        "winning moves: {position:?}"
    );
    check_line(position, &outcome.line, outcome.to_move_wins, rules);
    true
}

/// `n` random positions per rule set, of `seats` seats and hands of `lo..=hi` cards; every
/// rule set reuses one solver (with a small table, so entries are replaced often).
fn random_against_brute_force(seed: u64, n: u64, seats: usize, lo: u64, hi: u64) {
    let mut checked = 0;
    let mut wins = 0;
    let mut with_last = 0;
    for profile in 0..5 {
        let mut r = rng(seed + profile);
        let (name, rules) = random_rules(&mut r, profile);
        let mut solver = Solver::new(&rules).with_table_bits(10);
        for _ in 0..n {
            let p = random_position(&mut r, &rules, seats, lo, hi);
            if check_position(&mut solver, &p, &rules) {
                checked += 1;
                wins += solver.wins(&p).unwrap() as u32;
                with_last += p.last().is_some() as u32;
            }
        }
        eprintln!("{name}: done");
    }
    // The brute force must have checked nearly every position, and both results and both
    // kinds of table must be common, or the test checks little.
    assert!(checked >= 5 * n * 9 / 10, "checked only {checked}");
    assert!(
        wins as u64 > checked / 10 && (wins as u64) < checked * 9 / 10,
        "{wins} wins"
    );
    assert!(
        with_last as u64 > checked / 4,
        "{with_last} with a play on the table"
    );
}

#[test]
fn duels_against_brute_force() {
    random_against_brute_force(100, 600, 2, 2, 7);
}

#[test]
fn three_seats_against_brute_force() {
    random_against_brute_force(200, 500, 3, 1, 5);
}

#[test]
fn three_seats_fuller_hands_against_brute_force() {
    random_against_brute_force(300, 100, 3, 4, 6);
}

// ---------------------------------------------------------------------------------------
// Puzzles from the data file.
// ---------------------------------------------------------------------------------------

/// Rules from a name: a profile, then `:` and the wild ranks (comma-separated).
fn rules_named(name: &str) -> Rules {
    let (profile, wild) = name.split_once(':').unwrap_or((name, ""));
    let rules = Rules::profile(profile.parse().unwrap());
    let ranks: Vec<Rank> = wild
        .split(',')
        .filter(|s| !s.is_empty())
        .map(|s| Rank::from_letter(s.chars().next().unwrap()).unwrap())
        .collect();
    rules.with_laizi(&ranks).unwrap()
}

/// One puzzle of the data file.
struct Puzzle {
    name: String,
    rules: Rules,
    position: OpenPosition,
    wins: bool,
    winning: Vec<String>,
}

fn puzzles() -> Vec<Puzzle> {
    let text = include_str!("data/solver_puzzles.txt");
    let mut out = Vec::new();
    for line in text.lines() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let fields: std::collections::HashMap<&str, &str> = line
            .split_whitespace()
            .map(|f| f.split_once('=').expect("key=value"))
            .collect();
        let name = fields["name"].to_string();
        let rules = rules_named(fields.get("rules").copied().unwrap_or("classic"));
        let hands: Vec<Cards> = fields["hands"].split(',').map(cards).collect();
        let turn = seat(fields.get("turn").map_or(0, |t| t.parse().unwrap()));
        let last = fields.get("last").map(|m| {
            let by = fields["last_seat"].parse().unwrap();
            (seat(by), parse_move(m, &rules, None).unwrap())
        });
        let position = match hands[..] {
            [a, b] => OpenPosition::duel([a, b], turn, last, &rules),
            [a, b, c] => {
                let landlord = seat(fields.get("landlord").map_or(0, |t| t.parse().unwrap()));
                OpenPosition::three([a, b, c], landlord, turn, last, &rules)
            }
            _ => panic!("{name}: two or three hands"),
        }
        .unwrap_or_else(|e| panic!("{name}: {e}"));
        let winning = match fields["winning"] {
            "-" => Vec::new(),
            list => list.split(',').map(str::to_string).collect(),
        };
        out.push(Puzzle {
            name,
            rules,
            position,
            wins: fields["wins"].parse().unwrap(),
            winning,
        });
    }
    out
}

#[test]
fn puzzles_from_the_data_file() {
    let puzzles = puzzles();
    assert!(puzzles.len() >= 15, "{} puzzles", puzzles.len());
    for p in &puzzles {
        let mut solver = Solver::new(&p.rules).with_table_bits(16);
        let outcome = solver.solve(&p.position).unwrap();
        assert_eq!(outcome.to_move_wins, p.wins, "{}", p.name);
        let winning: Vec<String> = outcome
            .winning_moves
            .iter()
            .map(|m| move_notation(m, &p.rules))
            .collect();
        assert_eq!(winning, p.winning, "{}", p.name);
        check_line(&p.position, &outcome.line, p.wins, &p.rules);
        // The brute force agrees (every puzzle is small enough for it): on the value, and on
        // the winning first moves, each legal move valued on its own.
        let g = Game::of(&p.position);
        let mut budget = 50_000_000;
        let brute = brute_wins(&g, &p.rules, &mut budget);
        assert_eq!(brute, Some(p.wins), "{}: brute force", p.name);
        let brute_winning: Vec<String> = g
            .moves(&p.rules)
            .into_iter()
            .filter(|m| {
                brute_move_wins(&g, m, &p.rules, &mut budget)
                    .unwrap_or_else(|| panic!("{}: the brute force ran out", p.name))
            })
            .map(|m| move_notation(&m, &p.rules))
            .collect();
        assert_eq!(brute_winning, p.winning, "{}: brute force moves", p.name);
    }
}

#[test]
fn the_issue_duel_is_lost_by_the_first_player() {
    let rules = Rules::classic();
    let p = OpenPosition::duel([cards("2QQTT77553"), cards("AA9")], seat(0), None, &rules).unwrap();
    let mut solver = Solver::new(&rules);
    assert!(!solver.wins(&p).unwrap());
    let mut budget = u64::MAX;
    assert_eq!(brute_wins(&Game::of(&p), &rules, &mut budget), Some(false));
    // Every first move loses, each by brute force too.
    let outcome = solver.solve(&p).unwrap();
    assert!(outcome.winning_moves.is_empty());
    for m in p.legal_moves(&rules) {
        let mut budget = u64::MAX;
        assert_eq!(
            brute_move_wins(&Game::of(&p), &m, &rules, &mut budget),
            Some(false),
            "{m}"
        );
    }
}

// ---------------------------------------------------------------------------------------
// Budget, table reuse, OpenPosition::after and the position checks.
// ---------------------------------------------------------------------------------------

#[test]
fn node_budget_gives_unknown_or_the_exact_answer() {
    let rules = Rules::classic();
    let mut r = rng(77);
    let mut exceeded = 0;
    for _ in 0..200 {
        let p = random_position(&mut r, &rules, 3, 3, 6);
        let mut fresh = Solver::new(&rules).with_table_bits(12);
        let truth = fresh.wins(&p).unwrap();
        let full = fresh.nodes();
        // Asked again, the solver finds the root in its table.
        assert_eq!(fresh.wins(&p), Ok(truth));
        assert_eq!(fresh.nodes(), 1);
        // A tiny budget, doubled after each call that runs out, with the same solver: the
        // answer is unknown or exact, and what was proven stays in the table.
        let mut limit = 20;
        let mut solver = Solver::new(&rules)
            .with_table_bits(16)
            .with_node_limit(limit);
        loop {
            match solver.wins(&p) {
                Ok(v) => {
                    assert_eq!(v, truth, "{p:?}");
                    assert!(solver.nodes() <= limit);
                    break;
                }
                Err(Exceeded { nodes }) => {
                    assert!(nodes > limit && limit < 2 * full.max(20), "{p:?}");
                    exceeded += 1;
                    limit *= 2;
                    solver.set_node_limit(Some(limit));
                }
            }
        }
    }
    assert!(exceeded > 50, "the budget ran out only {exceeded} times");
}

#[test]
fn move_wins_agrees_with_solve() {
    let rules = Rules::laizi().with_laizi(&[Rank::Eight]).unwrap();
    let mut r = rng(5);
    let mut solver = Solver::new(&rules).with_table_bits(14);
    for _ in 0..100 {
        let p = random_position(&mut r, &rules, 3, 2, 5);
        let outcome = solver.solve(&p).unwrap();
        for m in p.legal_moves(&rules) {
            let wins = solver.move_wins(&p, &m).unwrap();
            assert_eq!(wins, outcome.winning_moves.contains(&m), "{p:?} {m}");
        }
        // A move that is not legal never wins.
        let not_held = parse_move("BR", &rules, None).unwrap();
        if !p.hand(p.turn()).contains(not_held.cards()) {
            assert!(!solver.move_wins(&p, &not_held).unwrap());
        }
    }
}

#[test]
fn after_follows_the_rules_of_play() {
    let rules = Rules::classic();
    let [s0, s1, s2] = Seat::ALL;
    let m = |t: &str| parse_move(t, &rules, None).unwrap();
    // Three seats: seat 1 passes the landlord's 5, seat 2 passes: the landlord leads.
    let p = OpenPosition::three(
        [cards("34"), cards("6"), cards("7")],
        s0,
        s1,
        Some((s0, m("5"))),
        &rules,
    )
    .unwrap();
    assert_eq!(p.passes(), 0);
    let After::Next(q) = p.after(&Move::PASS, &rules).unwrap() else {
        panic!()
    };
    assert_eq!(
        (q.turn(), q.passes(), q.last()),
        (s2, 1, Some((s0, m("5"))))
    );
    let After::Next(q) = q.after(&Move::PASS, &rules).unwrap() else {
        panic!()
    };
    assert_eq!((q.turn(), q.last()), (s0, None));
    // Seat 1 beats it with its last card and wins.
    assert_eq!(
        p.after(&m("6"), &rules).unwrap(),
        After::Over { winner: s1 }
    );
    // A duel: one pass ends the trick.
    let d = OpenPosition::duel([cards("34"), cards("6")], s1, Some((s0, m("5"))), &rules).unwrap();
    let After::Next(q) = d.after(&Move::PASS, &rules).unwrap() else {
        panic!()
    };
    assert_eq!((q.turn(), q.last()), (s0, None));
    assert!(matches!(
        d.after(&m("4"), &rules),
        Err(PositionError::IllegalMove { .. })
    ));
    assert!(p.same_side(s1, s2) && !p.same_side(s0, s1) && !d.same_side(s0, s1));
}

#[test]
fn bad_positions_are_errors_that_say_what() {
    let rules = Rules::classic();
    let [s0, s1, s2] = Seat::ALL;
    let m = |t: &str| parse_move(t, &rules, None).unwrap();
    let err = |r: Result<OpenPosition, PositionError>| r.unwrap_err();

    let e = err(OpenPosition::duel(
        [cards("3"), Cards::EMPTY],
        s0,
        None,
        &rules,
    ));
    assert_eq!(e, PositionError::EmptyHand { seat: s1 });
    assert!(e.to_string().contains("seat 1 holds no cards"), "{e}");

    let e = err(OpenPosition::duel(
        [cards("333"), cards("33")],
        s0,
        None,
        &rules,
    ));
    assert_eq!(
        e,
        PositionError::TooManyCards {
            rank: Rank::Three,
            count: 5
        }
    );
    assert!(e.to_string().contains("5 cards of 3"), "{e}");
    // The table's cards count too, and jokers are one of each.
    let e = err(OpenPosition::duel(
        [cards("33"), cards("33")],
        s0,
        Some((s1, m("3"))),
        &rules,
    ));
    assert!(matches!(e, PositionError::TooManyCards { count: 5, .. }));
    let e = err(OpenPosition::duel(
        [cards("B"), cards("4")],
        s0,
        Some((s1, m("B"))),
        &rules,
    ));
    assert!(matches!(e, PositionError::TooManyCards { count: 2, .. }));
    // More than 15 of a rank in one hand cannot be written as Cards: counts past 4 are
    // still caught when the hands add up.
    let many = Cards::of(Rank::Five, 4);
    let e = err(OpenPosition::three(
        [many, many, many],
        s0,
        s0,
        None,
        &rules,
    ));
    assert!(matches!(e, PositionError::TooManyCards { count: 12, .. }));

    let e = err(OpenPosition::duel(
        [cards("3"), cards("4")],
        s2,
        None,
        &rules,
    ));
    assert!(e.to_string().contains("turn: seat 2"), "{e}");
    let e = err(OpenPosition::duel(
        [cards("3"), cards("4")],
        s0,
        Some((s2, m("5"))),
        &rules,
    ));
    assert!(matches!(e, PositionError::NoSuchSeat { .. }));

    let e = err(OpenPosition::duel(
        [cards("3"), cards("4")],
        s0,
        Some((s0, m("5"))),
        &rules,
    ));
    assert_eq!(e, PositionError::LastBySeatToMove { seat: s0 });

    let e = err(OpenPosition::duel(
        [cards("3"), cards("4")],
        s0,
        Some((s1, Move::PASS)),
        &rules,
    ));
    assert_eq!(e, PositionError::LastIsPass);

    // A play that is a combination in one profile and not in another.
    let botzone = Rules::botzone();
    let shuttle = parse_move("33334444", &botzone, None).unwrap();
    let e = err(OpenPosition::three(
        [cards("5"), cards("6"), cards("7")],
        s0,
        s1,
        Some((s0, shuttle)),
        &rules,
    ));
    assert!(matches!(e, PositionError::NotACombination { .. }));
    assert!(e.to_string().contains("not a combination"), "{e}");
    assert!(
        OpenPosition::three(
            [cards("5"), cards("6"), cards("7")],
            s0,
            s1,
            Some((s0, shuttle)),
            &botzone
        )
        .is_ok()
    );
}

#[test]
fn positions_from_a_game() {
    let mut rules = Rules::classic();
    rules.bidding = ddz_core::Bidding::Fixed;
    let mut game = ddz_game::Game::new(&rules, 3);
    let p = OpenPosition::from_game(&game).unwrap();
    assert_eq!(p.turn(), game.turn());
    assert_eq!(p.landlord(), game.landlord());
    assert_eq!(p.hand(seat(0)).len(), 20);
    let lead = game.legal_moves()[0];
    game.play(game.turn(), lead).unwrap();
    let q = OpenPosition::from_game(&game).unwrap();
    assert_eq!(q.last(), Some((seat(0), lead)));
    assert_eq!(q.passes(), 0);
    assert_eq!(p.after(&lead, &rules).unwrap(), After::Next(q));
}

/// Positions that differ only in how the table's play is beaten must not share a table entry:
/// a soft and a hard bomb of one rank (wild cards), and DouZero's airplanes with singles of
/// one main rank whose kickers hold a higher trio. One solver answers each pair in turn.
#[test]
fn the_table_key_keeps_what_beating_depends_on() {
    let [s0, s1, _] = Seat::ALL;
    // Laizi with 9 wild: the hard bomb 5555 beats the soft 7779=7777 but not the hard 7777.
    let rules = Rules::laizi().with_laizi(&[Rank::Nine]).unwrap();
    let soft = parse_move("7779=7777", &rules, None).unwrap();
    let hard = parse_move("7777", &rules, None).unwrap();
    assert_eq!((soft.main(), hard.main()), (Rank::Seven, Rank::Seven));
    let mut solver = Solver::new(&rules);
    for (table, expected) in [(soft, true), (hard, false), (soft, true)] {
        let p =
            OpenPosition::duel([cards("5555"), cards("3")], s0, Some((s1, table)), &rules).unwrap();
        assert_eq!(solver.wins(&p), Ok(expected), "{table}");
    }
    // DouZero compares airplanes with singles by their highest trio, kickers included: the
    // airplane topped by 8 beats 333444555 + 8 9 T but not 333444555 + JJJ (top trio J).
    let rules = Rules::douzero();
    let plain = parse_move("33344455589T", &rules, None).unwrap();
    let trio_kickers = parse_move("333444555JJJ", &rules, None).unwrap();
    assert_eq!(plain.main(), trio_kickers.main());
    let mut solver = Solver::new(&rules);
    for (table, expected) in [(plain, true), (trio_kickers, false), (plain, true)] {
        let p = OpenPosition::duel(
            [cards("666777888KA2"), cards("Q")],
            s0,
            Some((s1, table)),
            &rules,
        )
        .unwrap();
        assert_eq!(solver.wins(&p), Ok(expected), "{table}");
    }
}
