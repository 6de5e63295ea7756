//! The `search` robot: options, consistent samples of the hidden hands, legal and deterministic
//! choices whatever the thread count.

use crate::common;

use common::{bots, configs};

use ddz_bots::ddzlib::DdzlibBot;
use ddz_bots::search::bidding::{bid_for_chance, landlord_chance};
use ddz_bots::search::infer::Observations;
use ddz_bots::search::{SearchBot, SearchConfig, sample_hidden, unknown_cards};
use ddz_bots::{Bot, make_bot};
use ddz_core::{Cards, Move, parse_move};
use ddz_game::{Budget, BySeat, Game, Phase, PublicPlay, Seat, SeatView};

/// Views of the seat to play at every decision of games between `ddzlib` robots.
fn positions(rules: &ddz_core::Rules, games: u64) -> Vec<(SeatView, Vec<Move>)> {
    let mut out = Vec::new();
    for seed in 0..games {
        let mut game = Game::new(rules, seed);
        let mut robots = bots(["ddzlib", "ddzlib", "ddzlib"], seed);
        while game.phase() != Phase::Over {
            let seat = game.turn();
            let view = game.view(seat);
            if game.phase() == Phase::Bidding {
                let bid = robots[seat.index()].bid(&view, &view.legal_bids());
                game.bid(seat, bid).unwrap();
                continue;
            }
            if game.phase() != Phase::Playing {
                // Show and doubling decisions (huanle): the robot's answer.
                let action = robots[seat.index()]
                    .act(&view, &game.legal_actions())
                    .unwrap();
                game.act(seat, action).unwrap();
                continue;
            }
            let allowed = game.legal_moves();
            out.push((view.clone(), allowed.clone()));
            let m = robots[seat.index()].play(&view, &allowed);
            game.play(seat, m).unwrap();
        }
    }
    out
}

#[test]
fn the_default_budget_is_the_rules_and_a_given_one_wins() {
    use ddz_bots::search::{DEFAULT_LAIZI_PLAYOUTS, DEFAULT_PLAYOUTS, DEFAULT_TIANDI_PLAYOUTS};
    use ddz_core::Rules;
    let default = SearchConfig::default();
    assert_eq!(default.budget, None);
    for (rules, playouts) in [
        (Rules::classic(), DEFAULT_PLAYOUTS),
        (Rules::laizi(), DEFAULT_LAIZI_PLAYOUTS),
        (Rules::tiandi(), DEFAULT_TIANDI_PLAYOUTS),
    ] {
        assert_eq!(default.budget_for(&rules), Budget::Count(playouts));
    }
    let given = SearchConfig::parse(["iters=77"].into_iter()).unwrap();
    for rules in [Rules::classic(), Rules::laizi()] {
        assert_eq!(given.budget_for(&rules), Budget::Count(77));
    }
}

/// The options the search once had: measured leftovers and tuning knobs, now refused.
const REMOVED_OPTIONS: [&str; 20] = [
    "candidates",
    "nodes",
    "ibid",
    "temp",
    "sharp",
    "stemp",
    "ess",
    "objective",
    "ptemp",
    "reply",
    "psolve",
    "bid_at",
    "netc",
    "prior",
    "pnet",
    "leaf",
    "fnet",
    "fshare",
    "popp",
    "inet",
];

#[test]
fn options_parse_and_bad_ones_are_named() {
    let c = SearchConfig::parse("iters=2000:threads=3".split(':')).unwrap();
    assert_eq!(c.budget, Some(Budget::Count(2000)));
    assert_eq!(c.threads, 3);
    let c = SearchConfig::parse("solve=0".split(':')).unwrap();
    assert_eq!(c.solve_cards, 0);
    let c = SearchConfig::parse(["time=500ms"].into_iter()).unwrap();
    assert_eq!(
        c.budget,
        Some(Budget::Time(std::time::Duration::from_millis(500)))
    );
    let c = SearchConfig::parse(["time=1.5s"].into_iter()).unwrap();
    assert_eq!(
        c.budget,
        Some(Budget::Time(std::time::Duration::from_millis(1500)))
    );
    let c = SearchConfig::parse("infer=0:bid=ddzlib".split(':')).unwrap();
    assert!(!c.infer && !c.bid_by_search);
    let c = SearchConfig::parse("infer=1:bid=search".split(':')).unwrap();
    assert!(c.infer && c.bid_by_search);
    for (bad, says) in [
        ("iters=0", "not a positive number"),
        ("iters=many", "not a positive number"),
        ("time=fast", "not a duration"),
        ("time=-3s", "not a duration"),
        ("depth=3", "unknown search option \"depth\""),
        ("iters", "not key=value"),
        ("infer=2", "search option infer: \"2\" is not 0 or 1"),
        ("bid=maybe", "is not search or ddzlib"),
    ] {
        let e = SearchConfig::parse([bad].into_iter()).unwrap_err();
        assert!(e.to_string().contains(says), "{bad}: {e}");
    }
    for removed in REMOVED_OPTIONS {
        let option = format!("{removed}=1");
        let e = SearchConfig::parse([option.as_str()].into_iter()).unwrap_err();
        assert!(
            e.to_string()
                .contains(&format!("unknown search option \"{removed}\"")),
            "{option}: {e}"
        );
        assert!(
            make_bot(&format!("search:{option}"), 1).is_err(),
            "{option}"
        );
    }
    assert!(SearchConfig::OPTIONS.len() <= 8);
    assert!(make_bot("search:iters=10", 1).is_ok());
    assert!(make_bot("search:nope=1", 1).is_err());
    assert!(make_bot("value:iters=10", 1).is_err());
}

#[test]
fn samples_are_consistent_with_the_view() {
    for rules in &configs() {
        for (view, _) in positions(rules, 4).iter().step_by(3) {
            let unknown = unknown_cards(view);
            let mut distinct = std::collections::HashSet::new();
            for s in 0..20 {
                let hands = sample_hidden(view, s).expect("a game's view is possible");
                assert_eq!(hands[view.seat()], view.hand());
                let mut others = Cards::EMPTY;
                for seat in Seat::ALL {
                    assert_eq!(
                        hands[seat].len(),
                        view.cards_left()[seat],
                        "{}",
                        rules.profile
                    );
                    if seat != view.seat() {
                        others = others.union(hands[seat]);
                    }
                }
                // In a game every unknown card is in one of the other two hands.
                assert_eq!(others, unknown, "{}", rules.profile);
                if let (Some(l), Some(kitty)) = (view.landlord(), view.kitty())
                    && l != view.seat()
                {
                    let still = kitty.saturating_minus(view.played()[l]);
                    assert!(hands[l].contains(still), "the landlord keeps {still}");
                }
                distinct.insert(hands.0);
            }
            let free: u32 = Seat::ALL
                .iter()
                .filter(|&&s| s != view.seat())
                .map(|&s| view.cards_left()[s])
                .min()
                .unwrap_or(0);
            if free >= 3 && unknown.distinct_ranks() >= 3 {
                assert!(distinct.len() > 1, "samples vary: {view:?}");
            }
        }
    }
}

#[test]
fn an_impossible_view_gives_no_sample() {
    let view = SeatView::position(
        &ddz_core::Rules::classic(),
        Seat::ALL[0],
        Seat::ALL[0],
        "3456789TJQKA2BR222".parse().unwrap(),
        ddz_game::BySeat([0, 17, 17]),
        None,
    );
    // 18 cards in hand leave 36 unknown: enough for 17 + 17, not for 20 + 20.
    assert!(sample_hidden(&view, 1).is_some());
    let greedy = view.clone().with_cards_left(ddz_game::BySeat([18, 20, 20]));
    assert!(sample_hidden(&greedy, 1).is_none());
}

#[test]
fn choices_are_allowed_and_the_same_whatever_the_thread_count() {
    for rules in &configs() {
        for (i, (view, allowed)) in positions(rules, 2).iter().enumerate().step_by(5) {
            // Samples of up to 30 cards solved exactly: the solver's share must be as
            // deterministic as the playouts'.
            let config = SearchConfig {
                budget: Some(Budget::Count(120)),
                threads: 1,
                candidates: 6,
                solve_cards: 30,
                solve_nodes: 2_000,
                // Weighted samples too: their sums must not depend on the split.
                infer: true,
                ..SearchConfig::default()
            };
            let seed = 40 + i as u64;
            let one = SearchBot::new(config, seed).play(view, allowed);
            let three = SearchBot::new(
                SearchConfig {
                    threads: 3,
                    ..config
                },
                seed,
            )
            .play(view, allowed);
            assert!(
                allowed.contains(&one),
                "{}: {one} not allowed",
                rules.profile
            );
            assert_eq!(one, three, "{} position {i}", rules.profile);
            // Narrowed: only the first two allowed moves.
            if allowed.len() > 2 {
                let narrow = &allowed[..2];
                let m = SearchBot::new(config, seed).play(view, narrow);
                assert!(narrow.contains(&m));
            }
        }
    }
}

#[test]
fn a_time_budget_returns_an_allowed_move() {
    let rules = ddz_core::Rules::classic();
    let config = SearchConfig::parse(["time=5ms"].into_iter()).unwrap();
    for (view, allowed) in positions(&rules, 1).iter().step_by(7) {
        let m = SearchBot::new(config, 3).play(view, allowed);
        assert!(allowed.contains(&m));
    }
}

#[test]
fn it_plays_out_its_hand_when_it_can() {
    let rules = ddz_core::Rules::classic();
    let view = SeatView::position(
        &rules,
        Seat::ALL[1],
        Seat::ALL[0],
        "33".parse().unwrap(),
        ddz_game::BySeat([5, 2, 6]),
        None,
    );
    let allowed = ddz_core::legal_moves(view.hand(), None, &rules);
    let m = make_bot("search:iters=50", 1)
        .unwrap()
        .play(&view, &allowed);
    assert_eq!(m.cards(), view.hand());
}

/// The landlord (seat 0) led a single 3 and the next farmer (seat 1) passed; seat 2 asks how
/// likely that pass is under the opponent model for two hands seat 1 might hold.
fn pass_on_a_single_three() -> (ddz_core::Rules, SeatView) {
    let rules = ddz_core::Rules::classic();
    let [landlord, farmer, me] = Seat::ALL;
    let mut public = PublicPlay::new(landlord);
    let three = parse_move("3", &rules, None).unwrap();
    public.push(landlord, three, &rules).unwrap();
    public.push(farmer, Move::PASS, &rules).unwrap();
    let hand: Cards = "44556677889TTJJQQ".parse().unwrap();
    let view = SeatView::playing(&rules, me, landlord, hand, BySeat([19, 17, 17]), public);
    (rules, view)
}

/// Seat 1's pass: its log-probability when it holds `farmer` (the landlord holding the rest).
fn pass_log_probability(view: &SeatView, rules: &ddz_core::Rules, farmer: &str, t: f64) -> f64 {
    let farmer: Cards = farmer.parse().unwrap();
    let landlord = unknown_cards(view).minus(farmer);
    assert_eq!(
        landlord.len(),
        19,
        "the test's hands must fill the landlord's 19 cards"
    );
    let hands = BySeat([landlord, farmer, view.hand()]);
    let seen = Observations::of(view, Seat::ALL[0]).unwrap();
    let mut model = DdzlibBot::new();
    let turns = seen.log_probabilities(&hands, rules, t, &mut model);
    assert_eq!(turns.len(), 2, "the lead and the pass");
    // Latest first: the pass.
    assert_eq!((turns[0].0, turns[0].1), (Seat::ALL[1], Move::PASS));
    turns[0].2
}

#[test]
fn inference_finds_a_pass_on_a_small_single_unlikely_with_loose_singles() {
    let (rules, view) = pass_on_a_single_three();
    // Loose small singles (5, 7, 9) the ladder would follow a 3 with...
    let loose = "3579KKKAAA222BR66";
    // ...and a hand of pairs, trios and a bomb, nothing the ladder breaks for a single 3.
    let solid = "66778899QQKKKKAAA";
    for t in [0.5, 1.0, 2.0] {
        let with_singles = pass_log_probability(&view, &rules, loose, t);
        let without = pass_log_probability(&view, &rules, solid, t);
        assert!(
            with_singles < without - 0.5,
            "T={t}: pass with loose singles {with_singles:.3}, without {without:.3}"
        );
        assert!(with_singles.exp() < 0.25, "T={t}: {}", with_singles.exp());
    }
    // A colder model trusts the ladder more: the pass with loose singles grows less likely.
    let cold = pass_log_probability(&view, &rules, loose, 0.5);
    let warm = pass_log_probability(&view, &rules, loose, 2.0);
    assert!(cold < warm, "cold {cold:.3} warm {warm:.3}");
}

/// Seat 1's view at its first play: seat 0 is the landlord after the bids `bids`, the kitty
/// `8TT`. Two hands the model reads apart by the `ddzlib` bid: `STRONG` (a rocket and three
/// bombs: it wants 3) and `WEAK` (it wants to pass).
fn after_the_bidding(rules: &ddz_core::Rules, bids: Vec<(Seat, u8)>) -> SeatView {
    let [landlord, me, _] = Seat::ALL;
    let hand: Cards = "33444555666677888".parse().unwrap();
    let public = PublicPlay::new(landlord);
    SeatView::playing(rules, me, landlord, hand, BySeat([20, 17, 17]), public)
        .with_bids(bids)
        .with_kitty(Some("8TT".parse().unwrap()))
}
const STRONG: &str = "2222BRAAAAKKKKQQQ";
const WEAK: &str = "33457799TJJQKKAA2";

/// Every seat's hand when `seat` (0 or 2) held `bidding_hand` when it bid, the kitty going to
/// the landlord (seat 0) and the rest of the unknown cards to the other seat.
fn deal_with(view: &SeatView, seat: usize, bidding_hand: &str) -> BySeat<Cards> {
    let kitty = view.kitty().unwrap();
    let held: Cards = bidding_hand.parse().unwrap();
    let rest = unknown_cards(view).minus(held).minus(kitty);
    let mut hands = BySeat([Cards::EMPTY, view.hand(), Cards::EMPTY]);
    hands[Seat::ALL[seat]] = held;
    hands[Seat::ALL[2 - seat]] = rest;
    hands[Seat::ALL[0]] = hands[Seat::ALL[0]].union(kitty);
    assert_eq!(
        (hands[Seat::ALL[0]].len(), hands[Seat::ALL[2]].len()),
        (20, 17)
    );
    hands
}

#[test]
fn bid_inference_finds_a_bid_of_three_likely_with_a_strong_hand_and_a_pass_unlikely() {
    let rules = ddz_core::Rules::classic();
    let rules = ddz_core::Rules {
        bidding: ddz_core::Bidding::Points,
        ..rules
    };
    assert_eq!(
        ddz_bots::ddzlib::desired_bid(STRONG.parse().unwrap(), &rules),
        3
    );
    assert_eq!(
        ddz_bots::ddzlib::desired_bid(WEAK.parse().unwrap(), &rules),
        0
    );
    let [landlord, me, other] = Seat::ALL;
    // The landlord opened at 3.
    let view = after_the_bidding(&rules, vec![(landlord, 3)]);
    let seen = Observations::of(&view, landlord).unwrap();
    assert_eq!((seen.turns(), seen.bids()), (0, 1));
    assert!(!seen.is_empty(), "a bid is something to weigh");
    for t in [0.5, 1.0, 2.0] {
        let lp = |hand: &str| {
            let bids = seen.bid_log_probabilities(&deal_with(&view, 0, hand), t);
            assert_eq!((bids.len(), bids[0].0, bids[0].1), (1, landlord, 3));
            bids[0].2
        };
        let (strong, weak) = (lp(STRONG), lp(WEAK));
        assert!(
            strong > weak + 1.0,
            "T={t}: strong {strong:.3}, weak {weak:.3}"
        );
        // With nothing played, the likelihood is the bids'.
        let mut model = DdzlibBot::new();
        let ll = seen.log_likelihood(&deal_with(&view, 0, STRONG), &rules, t, &mut model);
        assert!((ll - strong).abs() < 1e-12, "T={t}: {ll} {strong}");
    }
    // The other farmer passed first, then the landlord bid 1 and this seat passed: the pass is
    // unlikely from the strong hand, the bid of 1 too (it wanted 3).
    let view = after_the_bidding(&rules, vec![(other, 0), (landlord, 1), (me, 0)]);
    let seen = Observations::of(&view, landlord).unwrap();
    assert_eq!(seen.bids(), 2, "this seat's own pass is not weighed");
    let pass = |hand: &str| seen.bid_log_probabilities(&deal_with(&view, 2, hand), 1.0)[0];
    let (strong, weak) = (pass(STRONG), pass(WEAK));
    assert_eq!((strong.0, strong.1), (other, 0));
    assert!(
        strong.2 < weak.2 - 2.0,
        "pass: strong {:.3}, weak {:.3}",
        strong.2,
        weak.2
    );
    assert!(weak.2.exp() > 0.5, "a weak hand passes: {}", weak.2.exp());
    // Without the bids, or with a fixed landlord, nothing is left to weigh.
    assert!(seen.clone().without_bids().is_empty());
    let fixed = ddz_core::Rules::classic();
    let fixed = ddz_core::Rules {
        bidding: ddz_core::Bidding::Fixed,
        ..fixed
    };
    let view = after_the_bidding(&fixed, vec![(landlord, 3)]);
    assert!(Observations::of(&view, landlord).unwrap().is_empty());
}

#[test]
fn bid_inference_at_call_and_rob_reads_calls_and_robs() {
    let rules = ddz_core::Rules {
        bidding: ddz_core::Bidding::CallRob,
        ..ddz_core::Rules::classic()
    };
    let [landlord, me, other] = Seat::ALL;
    // The other farmer called, the landlord robbed, this seat and the other did not rob.
    let view = after_the_bidding(&rules, vec![(other, 1), (landlord, 1), (me, 0), (other, 0)]);
    let seen = Observations::of(&view, landlord).unwrap();
    assert_eq!(seen.bids(), 3);
    let weigh = |seat: usize, hand: &str| {
        let bids = seen.bid_log_probabilities(&deal_with(&view, seat, hand), 1.0);
        assert_eq!(bids.iter().map(|b| b.1).collect::<Vec<_>>(), [1, 1, 0]);
        bids
    };
    // The landlord's rob: likely from the strong hand (it robs), not from the weak (it would
    // not even call).
    let (strong, weak) = (weigh(0, STRONG), weigh(0, WEAK));
    assert!(strong[1].2 > weak[1].2 + 1.5, "{strong:?} {weak:?}");
    // The other farmer called and then did not rob back: its call is unlikely from the weak
    // hand, its refusal to rob unlikely from the strong one.
    let (strong, weak) = (weigh(2, STRONG), weigh(2, WEAK));
    assert!(strong[0].2 > weak[0].2 + 0.5, "call: {strong:?} {weak:?}");
    assert!(strong[2].2 < weak[2].2 - 1.0, "no rob: {strong:?} {weak:?}");
}

#[test]
fn the_tuning_defaults_and_when_the_network_is_read() {
    let default = SearchConfig::default();
    assert!(default.infer && default.infer_bids && default.bid_by_search);
    assert_eq!((default.net_candidates, default.net_prior), (4, 0.5));
    assert_eq!(default.final_net_for(&ddz_core::Rules::classic()), 3);
    assert_eq!(default.final_net_for(&ddz_core::Rules::laizi()), 0);
    assert!(default.reads_net(), "candidates, prior and last rounds");
    let no_net = SearchConfig {
        net_candidates: 0,
        net_prior: 0.0,
        final_net: Some(0),
        ..default
    };
    assert!(!no_net.reads_net());
    assert_eq!(
        no_net.final_net_for(&ddz_core::Rules::classic()),
        0,
        "the field wins"
    );
    let last_rounds = SearchConfig {
        final_net: Some(3),
        ..no_net
    };
    assert!(last_rounds.reads_net());
}

#[test]
fn the_landlord_chance_ranks_a_strong_hand_above_a_weak_one_and_is_repeatable() {
    let rules = ddz_core::Rules::classic();
    let view = |hand: &str| SeatView::bidding(&rules, Seat::ALL[0], hand.parse().unwrap(), vec![]);
    let strong = view("BR2222AAAKKKQQJJT");
    let weak = view("3345567899TJQKA2B");
    let budget = Budget::Count(300);
    let high = landlord_chance(&strong, budget, 7).unwrap();
    let low = landlord_chance(&weak, budget, 7).unwrap();
    assert!(high > 0.8, "strong hand: {high}");
    assert!(low < high - 0.3, "weak {low}, strong {high}");
    assert_eq!(
        landlord_chance(&weak, budget, 7),
        Some(low),
        "same seed, same chance"
    );
    // Points: the highest bid from the threshold on, else the pass.
    let allowed = [0, 1, 2, 3];
    assert_eq!(bid_for_chance(&strong, &allowed, 0.7, 0.5), 3);
    assert_eq!(bid_for_chance(&strong, &allowed, 0.4, 0.5), 0);
}
