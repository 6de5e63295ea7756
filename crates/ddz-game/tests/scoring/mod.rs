//! Scripted games from chosen deals: every scoring rule (bids, robs, rob back, each bomb and
//! the rocket, spring, anti-spring, cap, wild bomb classes, DouZero ADP) and every illegal
//! action (refused with the state unchanged), plus undo.

use ddz_core::{Bidding, BombClass, Cards, Kind, Move, Rank, RankSet, Rules, parse_move};
use ddz_game::{ActionError, Deal, DealLine, Game, GameResult, Phase, Seat, SeatView, Side};

const S0: Seat = Seat::ALL[0];
const S1: Seat = Seat::ALL[1];
const S2: Seat = Seat::ALL[2];

mod bidding;

// --- Deals -------------------------------------------------------------------------------

/// A deal line whose `landlord_up` hand is the rest of the deck.
fn line(landlord: &str, kitty: &str, down: &str, laizi: Option<&str>) -> DealLine {
    let l: Cards = landlord.parse().expect("landlord cards");
    let d: Cards = down.parse().expect("landlord_down cards");
    let up = Cards::FULL_DECK.minus(l.union(d));
    DealLine {
        landlord: landlord.to_string(),
        landlord_down: down.to_string(),
        landlord_up: up.to_string(),
        kitty: kitty.to_string(),
        laizi: laizi.map(|r| vec![r.to_string()]),
    }
}

/// Deal A: the landlord plays out in four leads: the straight 3-A, the bomb 2222, the rocket
/// and the pair 33. The kitty is 2BR, so seat 0 bids with 17 cards.
fn deal_a(rules: &Rules) -> Deal {
    let l = line("3456789TJQKA2222BR33", "2BR", "3444555666777888J", None);
    assert_eq!(l.landlord_up, "999TTTJJQQQKKKAAA");
    l.to_deal(rules).expect("deal A")
}

/// Deal B: landlord_down (seat 1) holds the straight 3-A, the bomb 2222 and the small joker;
/// the landlord (seat 0) nothing that matters.
fn deal_b(rules: &Rules) -> Deal {
    let l = line("3334445556667778889R", "89R", "3456789TJQKA2222B", None);
    assert_eq!(l.landlord_up, "99TTTJJJQQQKKKAAA");
    l.to_deal(rules).expect("deal B")
}

/// Wild deal 1 (9 wild): the landlord holds the soft bomb 8889, the hard bomb 2222, the rocket
/// and two straights.
fn deal_wild_1(rules: &Rules) -> Deal {
    let l = line(
        "34567888TJQKA92222BR",
        "TJQ",
        "33344455566677789",
        Some("9"),
    );
    assert_eq!(l.landlord_up, "99TTTJJJQQQKKKAAA");
    l.to_deal(rules).expect("wild deal 1")
}

/// Wild deal 2 (9 wild): the landlord holds the pure bomb 9999.
fn deal_wild_2(rules: &Rules) -> Deal {
    let l = line(
        "345679999TJQKA888223",
        "TJQ",
        "33444555666777822",
        Some("9"),
    );
    assert_eq!(l.landlord_up, "TTTJJJQQQKKKAAABR");
    l.to_deal(rules).expect("wild deal 2")
}

// --- Helpers -------------------------------------------------------------------------------

/// The classic rules with call-and-rob bidding.
fn call_rob() -> Rules {
    let mut r = Rules::classic();
    r.bidding = Bidding::CallRob;
    r
}

fn classic_fixed() -> Rules {
    let mut r = Rules::classic();
    r.bidding = Bidding::Fixed;
    r
}

/// The first seed whose game of `deal` has `first` as its first bidder.
fn seed_with_first_bidder(rules: &Rules, deal: &Deal, first: Seat) -> u64 {
    (0..1000)
        .find(|&s| Game::with_deal(rules, s, deal.clone()).first_bidder() == first)
        .expect("some seed gives that first bidder")
}

/// A game of `deal` whose bidding starts at `first`.
fn game_from(rules: &Rules, deal: Deal, first: Seat) -> Game {
    let seed = seed_with_first_bidder(rules, &deal, first);
    let g = Game::with_deal(rules, seed, deal);
    assert_eq!(g.phase(), Phase::Bidding);
    assert_eq!(g.turn(), first);
    g
}

/// Points bidding: `winner` bids `bid`, everyone else passes.
fn bid_points_to(game: &mut Game, winner: Seat, bid: u8) {
    while game.phase() == Phase::Bidding {
        let seat = game.turn();
        let b = if seat == winner { bid } else { 0 };
        game.bid(seat, b).expect("bid accepted");
    }
    assert_eq!(game.landlord(), Some(winner));
}

/// The move `text` as `game` reads it now (beating the play on the table, if any).
fn mv(game: &Game, text: &str) -> Move {
    let last = game.last().map(|(_, m)| m);
    parse_move(text, &game.rules(), last.as_ref())
        .unwrap_or_else(|e| panic!("\"{text}\" does not parse: {e}"))
}

/// Plays a script of (seat, move) steps, each of which must be accepted.
fn script(game: &mut Game, steps: &[(Seat, &str)]) {
    for &(seat, text) in steps {
        assert_eq!(game.turn(), seat, "turn before {seat} plays {text}");
        let m = mv(game, text);
        game.play(seat, m)
            .unwrap_or_else(|e| panic!("seat {seat} playing {text}: {e}"));
    }
}

/// The landlord (seat 0) plays out deal A: straight, bomb, rocket, pair 33; farmers pass.
fn spring_deal_a(game: &mut Game) {
    script(
        game,
        &[
            (S0, "3456789TJQKA"),
            (S1, "pass"),
            (S2, "pass"),
            (S0, "2222"),
            (S1, "pass"),
            (S2, "pass"),
            (S0, "BR"),
            (S1, "pass"),
            (S2, "pass"),
            (S0, "33"),
        ],
    );
}

/// Deal B with seat 0 landlord: the landlord leads a 3, seat 1 bombs and plays out; the
/// landlord made only its first play.
fn anti_spring_deal_b(game: &mut Game) {
    script(
        game,
        &[
            (S0, "3"),
            (S1, "2222"),
            (S2, "pass"),
            (S0, "pass"),
            (S1, "3456789TJQKA"),
            (S2, "pass"),
            (S0, "pass"),
            (S1, "B"),
        ],
    );
}

fn result(game: &Game) -> &GameResult {
    assert_eq!(game.phase(), Phase::Over);
    game.result().expect("the game is over")
}

fn assert_zero_sum(r: &GameResult) {
    assert_eq!(r.scores.0.iter().sum::<i64>(), 0, "{r:?}");
}

/// Everything observable about a game.
#[derive(Debug, PartialEq)]
struct Snapshot {
    views: Vec<SeatView>,
    turn: Seat,
    phase: Phase,
    last: Option<(Seat, Move)>,
    multiplier: u32,
    base: u32,
    redeals: u32,
    hands: Vec<Cards>,
    result: Option<GameResult>,
}

fn snapshot(g: &Game) -> Snapshot {
    Snapshot {
        views: Seat::ALL.iter().map(|&s| g.view(s)).collect(),
        turn: g.turn(),
        phase: g.phase(),
        last: g.last(),
        multiplier: g.multiplier(),
        base: g.base(),
        redeals: g.redeals(),
        hands: Seat::ALL.iter().map(|&s| g.hand(s)).collect(),
        result: g.result().cloned(),
    }
}

/// `action` must fail with `want` and a Display text containing `says`, leaving `game` as it
/// was.
fn refused(
    game: &mut Game,
    action: impl FnOnce(&mut Game) -> Result<(), ActionError>,
    want: &ActionError,
    says: &str,
) {
    let before = snapshot(game);
    let e = action(game).expect_err("the action must be refused");
    assert_eq!(&e, want);
    let text = e.to_string();
    assert!(text.contains(says), "\"{text}\" should say \"{says}\"");
    assert_eq!(snapshot(game), before, "state changed by a refused action");
}

// --- Classic multipliers, spring, anti-spring, cap, scores ----------------------------------

#[test]
fn each_bomb_and_the_rocket_double() {
    let rules = classic_fixed();
    let mut g = Game::with_deal(&rules, 1, deal_a(&rules));
    script(&mut g, &[(S0, "3456789TJQKA"), (S1, "pass"), (S2, "pass")]);
    assert_eq!(g.multiplier(), 1);
    script(&mut g, &[(S0, "2222")]);
    assert_eq!(g.last().unwrap().1.kind(), Kind::Bomb);
    assert_eq!(g.multiplier(), 2);
    script(&mut g, &[(S1, "pass"), (S2, "pass"), (S0, "BR")]);
    assert_eq!(g.last().unwrap().1.kind(), Kind::Rocket);
    assert_eq!(g.multiplier(), 4);
    script(&mut g, &[(S1, "pass"), (S2, "pass"), (S0, "33")]);
    let r = result(&g);
    assert_eq!(r.winner, Side::Landlord);
    assert_eq!(r.first_out, S0);
    assert_eq!((r.bombs, r.rocket), (1, true));
    assert!(r.spring && !r.anti_spring);
    assert_eq!((r.base, r.multiplier), (1, 8));
    assert_eq!(r.scores.0, [16, -8, -8]);
    assert_zero_sum(r);
}

#[test]
fn farmer_bomb_and_landlord_bomb_both_double() {
    let rules = classic_fixed();
    let l = line("44455566677788822229", "229", "33334567899TJQKAB", None);
    let mut g = Game::with_deal(&rules, 1, l.to_deal(&rules).unwrap());
    script(&mut g, &[(S0, "9"), (S1, "3333")]);
    assert_eq!(g.multiplier(), 2);
    script(&mut g, &[(S2, "pass"), (S0, "2222")]);
    assert_eq!(g.multiplier(), 4);
    script(
        &mut g,
        &[(S1, "pass"), (S2, "pass"), (S0, "444555666777888")],
    );
    let r = result(&g);
    assert_eq!(r.winner, Side::Landlord);
    assert_eq!((r.bombs, r.rocket), (2, false));
    // A farmer played: no spring.
    assert!(!r.spring && !r.anti_spring);
    assert_eq!(r.multiplier, 4);
    assert_eq!(r.scores.0, [8, -4, -4]);
    assert_zero_sum(r);
}

#[test]
fn landlord_wins_plain_plus_two_stakes() {
    let rules = classic_fixed();
    let l = line("3456789TJQKA33KKKAA2", "3KA", "4445556667778882B", None);
    let mut g = Game::with_deal(&rules, 1, l.to_deal(&rules).unwrap());
    script(
        &mut g,
        &[
            (S0, "33"),
            (S1, "44"),
            (S2, "pass"),
            (S0, "AA"),
            (S1, "pass"),
            (S2, "pass"),
            (S0, "3456789TJQKA"),
            (S1, "pass"),
            (S2, "pass"),
            (S0, "KKK2"),
        ],
    );
    let r = result(&g);
    assert_eq!(r.winner, Side::Landlord);
    assert_eq!(r.first_out, S0);
    // Seat 1 played once: no spring; no bomb, no rocket.
    assert!(!r.spring && !r.anti_spring);
    assert_eq!((r.bombs, r.rocket), (0, false));
    assert_eq!((r.base, r.multiplier), (1, 1));
    assert_eq!(r.scores.0, [2, -1, -1]);
    assert_zero_sum(r);
}

#[test]
fn landlord_loses_minus_two_stakes() {
    let rules = classic_fixed();
    let mut g = Game::with_deal(&rules, 1, deal_b(&rules));
    // The landlord plays three times (no anti-spring); one farmer bomb. The big joker played
    // alone is no rocket.
    script(
        &mut g,
        &[
            (S0, "3"),
            (S1, "B"),
            (S2, "pass"),
            (S0, "R"),
            (S1, "pass"),
            (S2, "pass"),
            (S0, "9"),
            (S1, "2222"),
            (S2, "pass"),
            (S0, "pass"),
            (S1, "3456789TJQKA"),
        ],
    );
    let r = result(&g);
    assert_eq!(r.winner, Side::Farmers);
    assert_eq!(r.first_out, S1);
    assert!(!r.spring && !r.anti_spring);
    assert_eq!((r.bombs, r.rocket), (1, false));
    assert_eq!(r.multiplier, 2);
    assert_eq!(r.scores.0, [-4, 2, 2]);
    assert_zero_sum(r);
}

#[test]
fn spring_doubles() {
    // No bomb, no rocket: only the spring doubles.
    let rules = classic_fixed();
    let l = line("3456789TJQKA3334448K", "48K", "555666777999J2222", None);
    let mut g = Game::with_deal(&rules, 1, l.to_deal(&rules).unwrap());
    script(
        &mut g,
        &[
            (S0, "3456789TJQKA"),
            (S1, "pass"),
            (S2, "pass"),
            (S0, "3334448K"),
        ],
    );
    assert_eq!(g.multiplier(), 1, "spring is not in the running multiplier");
    let r = result(&g);
    assert!(r.spring && !r.anti_spring);
    assert_eq!((r.bombs, r.rocket), (0, false));
    assert_eq!(r.multiplier, 2);
    assert_eq!(r.scores.0, [4, -2, -2]);
    assert_zero_sum(r);
}

#[test]
fn anti_spring_doubles_with_a_bomb() {
    let rules = classic_fixed();
    let mut g = Game::with_deal(&rules, 1, deal_b(&rules));
    anti_spring_deal_b(&mut g);
    let r = result(&g);
    assert_eq!(r.winner, Side::Farmers);
    assert_eq!(r.first_out, S1);
    assert!(r.anti_spring && !r.spring);
    assert_eq!((r.bombs, r.rocket), (1, false));
    // bomb x2, anti-spring x2.
    assert_eq!(r.multiplier, 4);
    assert_eq!(r.scores.0, [-8, 4, 4]);
    assert_zero_sum(r);
}

#[test]
fn spring_off_in_the_rules_does_not_double() {
    let mut rules = classic_fixed();
    rules.spring = false;
    let mut g = Game::with_deal(&rules, 1, deal_a(&rules));
    spring_deal_a(&mut g);
    let r = result(&g);
    assert!(!r.spring);
    assert_eq!(r.multiplier, 4);
    let mut g = Game::with_deal(&rules, 1, deal_b(&rules));
    anti_spring_deal_b(&mut g);
    let r = result(&g);
    assert!(!r.anti_spring);
    assert_eq!(r.multiplier, 2);
}

#[test]
fn cap_bounds_the_whole_multiplier() {
    let mut rules = Rules::classic();
    rules.multiplier_cap = Some(4);
    // Bid 3, bomb, rocket, spring: 8 capped at 4; the base is not capped.
    let mut g = game_from(&rules, deal_a(&rules), S0);
    bid_points_to(&mut g, S0, 3);
    spring_deal_a(&mut g);
    let r = result(&g);
    assert!(r.spring);
    assert_eq!((r.base, r.multiplier), (3, 4));
    assert_eq!(r.scores.0, [24, -12, -12]);
    assert_zero_sum(r);

    // Robs count under the cap too: rob back x4, bomb, rocket, spring = 32, capped at 4.
    let mut rules = call_rob();
    rules.multiplier_cap = Some(4);
    let mut g = game_from(&rules, deal_a(&rules), S0);
    for (s, b) in [(S0, 1), (S1, 1), (S2, 0), (S0, 1)] {
        g.bid(s, b).unwrap();
    }
    spring_deal_a(&mut g);
    let r = result(&g);
    assert_eq!((r.base, r.multiplier), (1, 4));
    assert_eq!(r.scores.0, [8, -4, -4]);

    // A cap above the multiplier changes nothing; a cap of 2 bounds an anti-spring too.
    let mut rules = classic_fixed();
    rules.multiplier_cap = Some(4);
    let mut g = Game::with_deal(&rules, 1, deal_b(&rules));
    anti_spring_deal_b(&mut g);
    assert_eq!(result(&g).multiplier, 4);
    rules.multiplier_cap = Some(2);
    let mut g = Game::with_deal(&rules, 1, deal_b(&rules));
    anti_spring_deal_b(&mut g);
    let r = result(&g);
    assert!(r.anti_spring);
    assert_eq!(r.multiplier, 2);
    assert_eq!(r.scores.0, [-4, 2, 2]);
    assert_zero_sum(r);
}

// --- Wild profiles -------------------------------------------------------------------------

#[test]
fn wild_rank_comes_from_the_deal_and_is_revealed_after_the_landlord() {
    let rules = Rules::laizi();
    let deal = deal_wild_1(&rules);
    assert_eq!(deal.laizi, vec![Rank::Nine]);
    let mut g = game_from(&rules, deal, S1);
    assert_eq!(g.laizi(), RankSet::EMPTY);
    assert_eq!(g.rules().laizi, RankSet::EMPTY);
    g.bid(S1, 0).unwrap();
    g.bid(S2, 0).unwrap();
    assert_eq!(g.laizi(), RankSet::EMPTY, "not revealed while bidding");
    g.bid(S0, 3).unwrap();
    let nine = RankSet::single(Rank::Nine);
    assert_eq!(g.laizi(), nine);
    assert_eq!(g.rules().laizi, nine);
    for s in Seat::ALL {
        assert_eq!(g.view(s).laizi(), nine);
    }
}

#[test]
fn wild_soft_hard_and_rocket_use_the_bomb_table() {
    let rules = Rules::laizi();
    let mut g = game_from(&rules, deal_wild_1(&rules), S0);
    bid_points_to(&mut g, S0, 1);
    script(&mut g, &[(S0, "34567"), (S1, "pass"), (S2, "pass")]);
    assert_eq!(g.multiplier(), 1);
    script(&mut g, &[(S0, "8889=8888")]);
    let soft = g.last().unwrap().1;
    assert_eq!(
        (soft.kind(), soft.class()),
        (Kind::Bomb, Some(BombClass::Soft))
    );
    assert_eq!(g.multiplier(), 2, "soft bomb x2");
    script(&mut g, &[(S1, "pass"), (S2, "pass"), (S0, "2222")]);
    let hard = g.last().unwrap().1;
    assert_eq!(
        (hard.kind(), hard.class()),
        (Kind::Bomb, Some(BombClass::Hard))
    );
    assert_eq!(g.multiplier(), 8, "hard bomb x4");
    script(&mut g, &[(S1, "pass"), (S2, "pass"), (S0, "BR")]);
    assert_eq!(g.multiplier(), 32, "rocket x4");
    script(&mut g, &[(S1, "pass"), (S2, "pass"), (S0, "TJQKA")]);
    let r = result(&g);
    assert_eq!((r.bombs, r.rocket), (2, true));
    assert!(r.spring);
    assert_eq!((r.base, r.multiplier), (1, 64));
    assert_eq!(r.scores.0, [128, -64, -64]);
    assert_zero_sum(r);
}

#[test]
fn wild_pure_bomb_is_x4() {
    let mut rules = Rules::laizi();
    rules.bidding = Bidding::Fixed;
    let mut g = Game::with_deal(&rules, 1, deal_wild_2(&rules));
    assert_eq!(g.laizi(), RankSet::single(Rank::Nine));
    script(
        &mut g,
        &[(S0, "34567"), (S1, "pass"), (S2, "pass"), (S0, "9999")],
    );
    let pure = g.last().unwrap().1;
    assert_eq!(
        (pure.kind(), pure.class()),
        (Kind::Bomb, Some(BombClass::Pure))
    );
    assert_eq!(g.multiplier(), 4);
    script(
        &mut g,
        &[
            (S1, "pass"),
            (S2, "pass"),
            (S0, "88822"),
            (S1, "pass"),
            (S2, "pass"),
            (S0, "TJQKA"),
            (S1, "pass"),
            (S2, "pass"),
            (S0, "3"),
        ],
    );
    let r = result(&g);
    assert_eq!((r.bombs, r.rocket), (1, false));
    assert!(r.spring);
    assert_eq!(r.multiplier, 8);
    assert_eq!(r.scores.0, [16, -8, -8]);
    assert_zero_sum(r);
}

// --- DouZero ADP ---------------------------------------------------------------------------

#[test]
fn douzero_adp_landlord_wins() {
    let rules = Rules::douzero();
    let mut g = Game::with_deal(&rules, 1, deal_a(&rules));
    assert_eq!(g.landlord(), Some(S0));
    spring_deal_a(&mut g);
    let r = result(&g);
    assert_eq!(r.winner, Side::Landlord);
    // A spring happened but ADP has none: 2^(1 bomb + 1 rocket).
    assert!(!r.spring);
    assert_eq!((r.bombs, r.rocket), (1, true));
    assert_eq!((r.base, r.multiplier), (1, 4));
    assert_eq!(r.scores.0, [8, -4, -4]);
    assert_zero_sum(r);
}

#[test]
fn douzero_adp_farmers_win() {
    let rules = Rules::douzero();
    let mut g = Game::with_deal(&rules, 1, deal_b(&rules));
    anti_spring_deal_b(&mut g);
    let r = result(&g);
    assert_eq!(r.winner, Side::Farmers);
    assert!(!r.anti_spring);
    assert_eq!((r.base, r.multiplier), (1, 2));
    assert_eq!(r.scores.0, [-4, 2, 2]);
    assert_zero_sum(r);
}

#[test]
fn douzero_adp_no_bombs_is_two_and_one() {
    let rules = Rules::douzero();
    let l = line("3456789TJQKA33KKKAA2", "3KA", "4445556667778882B", None);
    let mut g = Game::with_deal(&rules, 1, l.to_deal(&rules).unwrap());
    script(
        &mut g,
        &[
            (S0, "3456789TJQKA"),
            (S1, "pass"),
            (S2, "pass"),
            (S0, "33"),
            (S1, "44"),
            (S2, "pass"),
            (S0, "AA"),
            (S1, "pass"),
            (S2, "pass"),
            (S0, "KKK2"),
        ],
    );
    let r = result(&g);
    assert_eq!(r.multiplier, 1);
    assert_eq!(r.scores.0, [2, -1, -1]);
}

// --- Illegal actions -----------------------------------------------------------------------

#[test]
fn illegal_actions_are_refused_and_change_nothing() {
    let rules = Rules::classic();
    let mut g = game_from(&rules, deal_a(&rules), S1);
    let three = parse_move("3", &rules, None).unwrap();

    // While bidding.
    refused(
        &mut g,
        |g| g.play(S1, three),
        &ActionError::WrongPhase {
            phase: Phase::Bidding,
        },
        "the bidding is not over",
    );
    refused(
        &mut g,
        |g| g.bid(S0, 1),
        &ActionError::NotYourTurn { seat: S0, turn: S1 },
        "not seat 0's turn: seat 1 is to act",
    );
    refused(
        &mut g,
        |g| g.undo(),
        &ActionError::NothingToUndo,
        "nothing to undo",
    );
    g.bid(S1, 0).unwrap();
    g.bid(S2, 0).unwrap();
    g.bid(S0, 3).unwrap();
    assert_eq!(g.phase(), Phase::Playing);

    // While playing, the landlord (seat 0) to lead.
    refused(
        &mut g,
        |g| g.bid(S0, 3),
        &ActionError::WrongPhase {
            phase: Phase::Playing,
        },
        "the game is in play",
    );
    refused(
        &mut g,
        |g| g.undo(),
        &ActionError::NothingToUndo,
        "nothing to undo",
    );
    refused(
        &mut g,
        |g| g.play(S0, Move::PASS),
        &ActionError::PassWhenLeading,
        "you cannot pass",
    );
    refused(
        &mut g,
        |g| g.play(S1, three),
        &ActionError::NotYourTurn { seat: S1, turn: S0 },
        "not seat 1's turn: seat 0 is to act",
    );
    refused(
        &mut g,
        |g| g.play(S2, Move::PASS),
        &ActionError::NotYourTurn { seat: S2, turn: S0 },
        "seat 0 is to act",
    );
    // The landlord has one card of each rank 4..A and three 3s.
    for text in ["44", "JJJ", "3333", "QQKKAA"] {
        let m = parse_move(text, &rules, None).unwrap();
        refused(
            &mut g,
            |g| g.play(S0, m),
            &ActionError::NotInHand { cards: m.cards() },
            "not all of these cards are in hand",
        );
    }
    let m = parse_move("44", &rules, None).unwrap();
    assert_eq!(
        ActionError::NotInHand { cards: m.cards() }.to_string(),
        "44: not all of these cards are in hand"
    );
    // Four 2s with the rocket as kickers: a combination under DouZero's rules, not classic.
    assert!(parse_move("2222BR", &rules, None).is_err());
    let four_two = parse_move("2222BR", &Rules::douzero(), None).unwrap();
    assert_eq!(four_two.kind(), Kind::FourTwoSingles);
    refused(
        &mut g,
        |g| g.play(S0, four_two),
        &ActionError::NotACombination {
            cards: four_two.cards(),
            reading: four_two.reading(),
        },
        "is not a combination under these rules",
    );
    // A wild reading in a game without wild cards: 3332 read as the soft bomb 3333.
    let wild = Rules::laizi().with_laizi(&[Rank::Two]).unwrap();
    let soft = parse_move("3332=3333", &wild, None).unwrap();
    assert_eq!(soft.class(), Some(BombClass::Soft));
    refused(
        &mut g,
        |g| g.play(S0, soft),
        &ActionError::NotACombination {
            cards: soft.cards(),
            reading: soft.reading(),
        },
        "3332=3333 is not a combination under these rules",
    );

    // Following.
    script(&mut g, &[(S0, "33")]);
    let single_j = parse_move("J", &rules, None).unwrap();
    let pair_33 = g.last().unwrap().1;
    refused(
        &mut g,
        |g| g.play(S1, single_j),
        &ActionError::DoesNotBeat {
            play: single_j,
            last: pair_33,
            by: S0,
        },
        "J does not beat 33 (played by seat 0)",
    );
    script(&mut g, &[(S1, "88"), (S2, "99"), (S0, "pass")]);
    let pair_44 = parse_move("44", &rules, None).unwrap();
    let pair_99 = g.last().unwrap().1;
    refused(
        &mut g,
        |g| g.play(S1, pair_44),
        &ActionError::DoesNotBeat {
            play: pair_44,
            last: pair_99,
            by: S2,
        },
        "44 does not beat 99 (played by seat 2)",
    );

    // Back to the lead and play the game out.
    for _ in 0..4 {
        g.undo().unwrap();
    }
    assert_eq!(g.turn(), S0);
    assert_eq!(g.last(), None);
    spring_deal_a(&mut g);
    assert_eq!(g.phase(), Phase::Over);
    let over = ActionError::GameOver;
    let pass = Move::PASS;
    for s in Seat::ALL {
        refused(&mut g, |g| g.play(s, three), &over, "the game is over");
        refused(&mut g, |g| g.play(s, pass), &over, "the game is over");
        refused(&mut g, |g| g.bid(s, 1), &over, "the game is over");
    }
}

// --- Undo ----------------------------------------------------------------------------------

#[test]
fn undo_restores_bombs_trick_ends_and_the_end() {
    let rules = classic_fixed();
    let mut g = Game::with_deal(&rules, 1, deal_a(&rules));
    let start = snapshot(&g);
    let mut snaps = vec![];
    let steps: [(Seat, &str); 10] = [
        (S0, "3456789TJQKA"),
        (S1, "pass"),
        (S2, "pass"),
        (S0, "2222"),
        (S1, "pass"),
        (S2, "pass"),
        (S0, "BR"),
        (S1, "pass"),
        (S2, "pass"),
        (S0, "33"),
    ];
    for (i, &(seat, text)) in steps.iter().enumerate() {
        let before = snapshot(&g);
        let m = mv(&g, text);
        g.play(seat, m).unwrap();
        let after = snapshot(&g);
        // Undo then redo: undo restores the state before exactly.
        g.undo().unwrap();
        assert_eq!(snapshot(&g), before, "undo of step {i} ({text})");
        g.play(seat, m).unwrap();
        assert_eq!(snapshot(&g), after, "redo of step {i} ({text})");
        snaps.push(before);
    }
    assert_eq!(g.phase(), Phase::Over);

    // Spot checks: after the trick end (two passes), undo brings back the play to beat.
    let after_trick = &snaps[2];
    assert_eq!(after_trick.turn, S2);
    assert_eq!(
        after_trick.last.map(|(s, m)| (s, m.kind())),
        Some((S0, Kind::Straight))
    );
    // After the bomb, the multiplier goes back from 2 to 1 and the 2s to the hand.
    let before_bomb = &snaps[3];
    assert_eq!(before_bomb.multiplier, 1);
    assert_eq!(before_bomb.last, None);
    assert_eq!(before_bomb.hands[0], "2222BR33".parse().unwrap());
    assert_eq!(snaps[4].multiplier, 2);

    // Undo everything, back to the start.
    for i in (0..steps.len()).rev() {
        g.undo().unwrap();
        assert_eq!(snapshot(&g), snaps[i], "unwinding step {i}");
    }
    assert_eq!(snapshot(&g), start);
    assert_eq!(g.undo(), Err(ActionError::NothingToUndo));
    assert_eq!(snapshot(&g), start);
}

// --- More bidding and wild variants --------------------------------------------------------

#[test]
fn points_highest_bidder_wins_when_not_first() {
    let rules = Rules::classic();
    let mut g = game_from(&rules, deal_a(&rules), S1);
    g.bid(S1, 1).unwrap();
    g.bid(S2, 2).unwrap();
    g.bid(S0, 0).unwrap();
    assert_eq!(g.landlord(), Some(S2));
    assert_eq!(g.base(), 2);
    assert_eq!(g.turn(), S2);
    assert_eq!(g.hand(S2).len(), 20);
    assert!(g.hand(S2).contains("2BR".parse().unwrap()));
}

#[test]
fn call_rob_caller_declines_rob_back_last_robber_is_landlord() {
    let rules = call_rob();
    let mut g = game_from(&rules, deal_a(&rules), S0);
    g.bid(S0, 1).unwrap();
    g.bid(S1, 1).unwrap();
    g.bid(S2, 1).unwrap();
    g.bid(S0, 0).unwrap();
    assert_eq!(g.landlord(), Some(S2));
    assert_eq!(g.multiplier(), 4);
    assert_eq!(g.turn(), S2);
    assert_eq!(g.hand(S2).len(), 20);
}

#[test]
fn fixed_landlord_other_seat_spring_scores_that_seat() {
    // Seat 1 is the fixed landlord: its 17 cards and the kitty are a spring hand.
    let mut rules = classic_fixed();
    rules.landlord_seat = 1;
    // The deal's "landlord" hand keeps the kitty (R33) but seat 1 is the one that takes it.
    let l = line("3334445556667778889R", "R33", "3456789TJQKA2222B", None);
    let mut g = Game::with_deal(&rules, 1, l.to_deal(&rules).unwrap());
    assert_eq!(g.landlord(), Some(S1));
    assert_eq!(g.hand(S1).len(), 20);
    assert_eq!(g.hand(S0).len(), 17);
    script(
        &mut g,
        &[
            (S1, "3456789TJQKA"),
            (S2, "pass"),
            (S0, "pass"),
            (S1, "2222"),
            (S2, "pass"),
            (S0, "pass"),
            (S1, "BR"),
            (S2, "pass"),
            (S0, "pass"),
            (S1, "33"),
        ],
    );
    let r = result(&g);
    assert_eq!((r.winner, r.first_out), (Side::Landlord, S1));
    assert!(r.spring);
    assert_eq!(r.multiplier, 8);
    assert_eq!(r.scores.0, [-8, 16, -8]);
    assert_zero_sum(r);
}

#[test]
fn wild_rank_revealed_before_bidding_when_the_rules_say() {
    let mut rules = Rules::laizi();
    rules.laizi_reveal = ddz_core::LaiziReveal::BeforeBidding;
    let mut g = game_from(&rules, deal_wild_1(&rules), S0);
    let nine = RankSet::single(Rank::Nine);
    assert_eq!(g.laizi(), nine);
    bid_points_to(&mut g, S0, 1);
    assert_eq!(g.laizi(), nine);
}

#[test]
fn tiandi_heaven_before_bidding_earth_after_and_long_bomb_x4() {
    let rules = Rules::tiandi();
    let lord: Cards = "88889TJQKA33344422BR".parse().unwrap();
    let down: Cards = "55566677799JJQQKK".parse().unwrap();
    let l = DealLine {
        landlord: lord.to_string(),
        landlord_down: down.to_string(),
        landlord_up: Cards::FULL_DECK.minus(lord.union(down)).to_string(),
        kitty: "2BR".into(),
        laizi: Some(vec!["9".into(), "7".into()]),
    };
    let mut g = game_from(&rules, l.to_deal(&rules).unwrap(), S0);
    let nine = RankSet::single(Rank::Nine);
    assert_eq!(g.laizi(), nine, "heaven is revealed before bidding");
    bid_points_to(&mut g, S0, 1);
    assert_eq!(
        g.laizi(),
        nine.with(Rank::Seven),
        "earth after the landlord"
    );
    script(&mut g, &[(S0, "TJQKA"), (S1, "pass"), (S2, "pass")]);
    script(&mut g, &[(S0, "88889=88888")]);
    let long = g.last().unwrap().1;
    assert_eq!((long.kind(), long.card_count()), (Kind::Bomb, 5));
    assert_eq!(g.multiplier(), 4, "a five-card bomb x4");
    script(&mut g, &[(S1, "pass"), (S2, "pass"), (S0, "BR")]);
    assert_eq!(g.multiplier(), 16, "rocket x4");
    script(&mut g, &[(S1, "pass"), (S2, "pass"), (S0, "33344422")]);
    let r = result(&g);
    assert!(r.spring);
    assert_eq!((r.bombs, r.rocket), (1, true));
    assert_eq!(r.multiplier, 32);
    assert_eq!(r.scores.0, [64, -32, -32]);
    assert_zero_sum(r);
}

#[test]
fn douzero_scoring_ignores_robs() {
    // ADP with call-and-rob bidding (not the profile's default): robs do not count.
    let mut rules = Rules::douzero();
    rules.bidding = Bidding::CallRob;
    let mut g = game_from(&rules, deal_a(&rules), S0);
    for (s, b) in [(S0, 1), (S1, 1), (S2, 0), (S0, 1)] {
        g.bid(s, b).unwrap();
    }
    assert_eq!(g.multiplier(), 4);
    spring_deal_a(&mut g);
    let r = result(&g);
    assert_eq!((r.base, r.multiplier), (1, 4));
    assert_eq!(r.scores.0, [8, -4, -4]);
}
