//! RULES.md section 7 by hand: the example of the rules (P = 24, the landlord doubles, F1
//! super-doubles), each show window and its factor, several shows (max and product), the
//! landlord's late show, the first shower bidding first and taking the landlord when nobody
//! calls, the cap per pair, spring, the views of shown hands, and illegal doubling and show
//! decisions refused with typed errors.

use ddz_core::{Bidding, Chunks, DoublingOrder, Rules, ShowCombine};
use ddz_game::{
    Action, ActionError, Actions, BySeat, Deal, DealLine, Game, Phase, Seat, ShowWindow, Side,
};

const S0: Seat = Seat::ALL[0];
const S1: Seat = Seat::ALL[1];
const S2: Seat = Seat::ALL[2];

/// Seat 0 holds a 20-card hand (with the kitty `345`) that goes out in two plays: the straight
/// 3..A, then `33344455`; nobody can beat either, so its landlord wins by spring.
fn spring_deal(rules: &Rules) -> Deal {
    DealLine {
        landlord: "333344445556789TJQKA".into(),
        landlord_down: "5666777888999TTTJ".into(),
        landlord_up: "JJQQQKKKAAA2222BR".into(),
        kitty: "345".into(),
        laizi: None,
    }
    .to_deal(rules)
    .unwrap()
}

/// A game of the spring deal whose deal starts from seat 0.
fn game(rules: &Rules) -> Game {
    let seed = (0..100)
        .find(|&s| Game::with_deal(rules, s, spring_deal(rules)).first_seat() == S0)
        .unwrap();
    Game::with_deal(rules, seed, spring_deal(rules))
}

/// While dealing, every seat in turn shows when `shows` says so (seat, factor of the window).
fn deal(game: &mut Game, shows: &[(Seat, u32)]) {
    while game.phase() == Phase::Dealing {
        let seat = game.turn();
        let Actions::Show { factor } = game.legal_actions() else {
            panic!("a show decision while dealing");
        };
        game.show(seat, shows.contains(&(seat, factor))).unwrap();
    }
}

/// Call-and-rob: `bids` by the seats in turn.
fn bid(game: &mut Game, bids: &[(Seat, u8)]) {
    for &(seat, b) in bids {
        assert_eq!(game.turn(), seat, "{bids:?}");
        game.bid(seat, b).unwrap();
    }
}

/// The landlord (seat 0) plays out the spring deal.
fn play_spring(game: &mut Game) {
    assert_eq!(game.phase(), Phase::Playing);
    game.play_notation(S0, "3456789TJQKA").unwrap();
    game.play_notation(S1, "pass").unwrap();
    game.play_notation(S2, "pass").unwrap();
    game.play_notation(S0, "33344455").unwrap();
    assert_eq!(game.phase(), Phase::Over);
}

#[test]
fn the_example_of_section_7() {
    // P = show x3 (seat 0 shows with 6 cards) × 2^2 robs × spring 2 = 24.
    let rules = Rules::huanle();
    let mut g = game(&rules);
    deal(&mut g, &[(S0, 3)]);
    assert_eq!(g.first_bidder(), S0);
    // Seat 0 calls, seat 1 declines, seat 2 robs, seat 0 robs back.
    bid(&mut g, &[(S0, 1), (S1, 0), (S2, 1), (S0, 1)]);
    assert_eq!(g.landlord(), Some(S0));
    assert_eq!(g.phase(), Phase::Doubling);
    assert_eq!(g.legal_actions(), Actions::Double(vec![1, 2, 4]));
    g.double(S0, 2).unwrap();
    g.double(S1, 4).unwrap();
    g.double(S2, 1).unwrap();
    // The landlord has shown already: no late show.
    play_spring(&mut g);
    let r = g.result().unwrap();
    assert!(r.spring);
    assert_eq!(r.show, 3);
    assert_eq!(r.multiplier, 24);
    assert_eq!(r.doubling, Some(BySeat([2, 4, 1])));
    assert_eq!(r.multipliers, Some(BySeat([240, 192, 48])));
    assert_eq!(r.scores.0, [240, -192, -48]);
    assert_eq!(g.seat_multiplier(S0), 240);
    assert_eq!(g.seat_multiplier(S1), 192);
}

#[test]
fn each_show_window_has_its_factor() {
    let rules = Rules::huanle();
    assert_eq!(
        Game::show_windows(&rules),
        [
            ShowWindow::BeforeDeal,
            ShowWindow::DuringDeal { cards: 6 },
            ShowWindow::DuringDeal { cards: 12 }
        ]
    );
    // Chunks of 5 reach the x4 window.
    let mut fives = rules.clone();
    fives.no_shuffle.chunks = Chunks::new(&[5, 5, 5, 2]).unwrap();
    let windows = Game::show_windows(&fives);
    let factors: Vec<u32> = windows.iter().map(|w| w.factor()).collect();
    assert_eq!(factors, [5, 4, 3, 2]);
    assert_eq!(ShowWindow::Landlord.factor(), 2);
    // Each factor ends up in P (no rob: seat 0 calls, nobody robs; spring x2).
    for (rules, factor) in [(&rules, 5), (&rules, 3), (&rules, 2), (&fives, 4)] {
        let mut g = game(rules);
        deal(&mut g, &[(S0, factor)]);
        assert!(g.has_shown(S0), "x{factor}");
        bid(&mut g, &[(S0, 1), (S1, 0), (S2, 0)]);
        for s in Seat::ALL {
            g.double(s, 1).unwrap();
        }
        play_spring(&mut g);
        let r = g.result().unwrap();
        assert_eq!(r.show, factor);
        assert_eq!(r.multiplier, factor * 2);
        assert_eq!(
            r.scores.0,
            [4 * factor as i64, -2 * factor as i64, -2 * factor as i64]
        );
    }
}

#[test]
fn several_shows_take_the_largest_or_the_product() {
    for (combine, want) in [(ShowCombine::Max, 5), (ShowCombine::Product, 5 * 3 * 2)] {
        let mut rules = Rules::huanle();
        rules.show.combine = combine;
        let mut g = game(&rules);
        // Seat 1 before the deal, seat 2 with 6 cards, seat 0 with 12.
        deal(&mut g, &[(S1, 5), (S2, 3), (S0, 2)]);
        assert_eq!(g.shows().len(), 3);
        assert_eq!(g.show_factor(), want);
        // Seat 1 showed first: it bids first.
        assert_eq!(g.first_bidder(), S1);
        assert_eq!(g.turn(), S1);
        bid(&mut g, &[(S1, 0), (S2, 0), (S0, 1)]);
        assert_eq!(g.landlord(), Some(S0));
        for s in Seat::ALL {
            g.double(s, 1).unwrap();
        }
        play_spring(&mut g);
        assert_eq!(g.result().unwrap().multiplier, want * 2);
    }
}

#[test]
fn the_landlords_late_show() {
    let rules = Rules::huanle();
    let mut g = game(&rules);
    deal(&mut g, &[]);
    bid(&mut g, &[(S0, 1), (S1, 0), (S2, 0)]);
    for s in [S1, S2, S0] {
        g.double(s, 1).unwrap();
    }
    assert_eq!(g.phase(), Phase::LandlordShow);
    assert_eq!(g.legal_actions(), Actions::Show { factor: 2 });
    // Only the landlord decides.
    assert_eq!(
        g.show(S1, true),
        Err(ActionError::NotYourTurn { seat: S1, turn: S0 })
    );
    // Not shown yet: no seat but the landlord sees its cards.
    assert_eq!(g.view(S1).shown()[S0], None);
    g.show(S0, true).unwrap();
    assert_eq!(g.view(S1).shown()[S0].map(|c| c.len()), Some(20));
    assert_eq!(g.view(S2).shown()[S0], Some(g.hand(S0)));
    play_spring(&mut g);
    let r = g.result().unwrap();
    assert_eq!((r.show, r.multiplier), (2, 4));
    // A late show never makes the first bidder.
    assert_eq!(g.first_bidder(), g.first_seat());
}

#[test]
fn the_first_shower_bids_first_and_is_landlord_when_nobody_calls() {
    for bidding in [Bidding::CallRob, Bidding::Points] {
        let mut rules = Rules::huanle();
        rules.bidding = bidding;
        let mut g = game(&rules);
        // Seat 2 shows with 6 cards; seat 1 with 12.
        deal(&mut g, &[(S2, 3), (S1, 2)]);
        assert_eq!(g.first_bidder(), S2);
        bid(&mut g, &[(S2, 0), (S0, 0), (S1, 0)]);
        assert_eq!(g.landlord(), Some(S2), "{bidding:?}");
        assert_eq!(g.redeals(), 0);
        assert_eq!(g.base(), 1);
        // No rob factor: P is the show alone.
        assert_eq!(g.multiplier(), 3);
        assert_eq!(g.hand(S2).len(), 20);
    }
    // Nobody showed and nobody called: the cards are dealt again, shows cleared.
    let rules = Rules::huanle();
    let mut g = game(&rules);
    deal(&mut g, &[]);
    let first = g.turn();
    bid(&mut g, &[(first, 0), (first.next(), 0), (first.prev(), 0)]);
    assert_eq!(g.redeals(), 1);
    assert_eq!(g.phase(), Phase::Dealing);
    assert!(g.shows().is_empty());
}

#[test]
fn doubling_landlord_first_and_caps_per_pair() {
    let mut rules = Rules::huanle();
    rules.doubling.order = DoublingOrder::LandlordFirst;
    rules.multiplier_cap = Some(16);
    let mut g = game(&rules);
    deal(&mut g, &[]);
    bid(&mut g, &[(S0, 1), (S1, 1), (S2, 1), (S0, 1)]);
    // Farmers wait for the landlord.
    assert_eq!(g.to_act(), [S0]);
    assert_eq!(
        g.double(S1, 2),
        Err(ActionError::NotYourTurn { seat: S1, turn: S0 })
    );
    g.double(S0, 4).unwrap();
    // Then either farmer, and each sees the landlord's choice.
    assert_eq!(g.to_act(), [S1, S2]);
    assert_eq!(g.view(S2).doublings()[S0], Some(4));
    assert_eq!(g.view(S2).doublings()[S1], None);
    g.double(S2, 2).unwrap();
    g.double(S1, 1).unwrap();
    g.show(S0, false).unwrap();
    play_spring(&mut g);
    // P = 2^3 robs × spring 2 = 16; F1: 16 × 4 × 1 = 64 → 16; F2: 16 × 4 × 2 = 128 → 16.
    let r = g.result().unwrap();
    assert_eq!(r.multiplier, 16);
    assert_eq!(r.multipliers, Some(BySeat([32, 16, 16])));
    assert_eq!(r.scores.0, [32, -16, -16]);
    // The no-shuffle cap of huanle applies to no-shuffle deals only.
    let mut rules = Rules::huanle();
    assert_eq!(rules.pair_cap(), None);
    rules.deal = ddz_core::DealMethod::NoShuffle;
    assert_eq!(rules.pair_cap(), Some(64));
}

#[test]
fn farmers_winning_pay_each_pair() {
    // The landlord forfeits after doubling: each farmer wins its own pair.
    let rules = Rules::huanle();
    let mut g = game(&rules);
    deal(&mut g, &[(S1, 5)]);
    bid(&mut g, &[(S1, 0), (S2, 0), (S0, 1)]);
    g.double(S0, 2).unwrap();
    g.double(S1, 4).unwrap();
    g.double(S2, 1).unwrap();
    g.show(S0, false).unwrap();
    let r = g.forfeit_result(S0);
    assert_eq!(r.winner, Side::Farmers);
    // P = 5; F1 5 × 2 × 4 = 40, F2 5 × 2 × 1 = 10.
    assert_eq!(r.scores.0, [-50, 40, 10]);
}

#[test]
fn views_show_a_hand_from_the_moment_it_is_shown() {
    let rules = Rules::huanle();
    let mut g = game(&rules);
    // Before the deal nobody holds a card.
    assert_eq!(g.hand(S0).len(), 0);
    assert_eq!(g.view(S1).cards_left().0, [0, 0, 0]);
    while g.phase() == Phase::Dealing {
        let seat = g.turn();
        let cards = g.dealt_so_far();
        for viewer in Seat::ALL {
            let v = g.view(viewer);
            assert_eq!(v.hand().len(), cards);
            if viewer != seat {
                assert_eq!(v.shown()[seat], None, "seat {seat} before it shows");
            }
        }
        // Seat 1 shows with 6 cards: from then on every view has its cards, as they grow.
        g.show(seat, seat == S1 && cards == 6).unwrap();
        if g.has_shown(S1) && g.phase() == Phase::Dealing {
            for viewer in Seat::ALL {
                assert_eq!(g.view(viewer).shown()[S1], Some(g.hand(S1)));
                assert_eq!(g.view(viewer).shown()[S1].unwrap().len(), g.dealt_so_far());
            }
        }
        assert_eq!(g.view(S0).shown()[S2], None);
    }
    assert_eq!(g.view(S2).shown()[S1].map(|c| c.len()), Some(17));
}

#[test]
fn illegal_show_and_double_decisions_are_refused() {
    let rules = Rules::huanle();
    let mut g = game(&rules);
    // While dealing: no doubling, no bid, only the seat to decide may show.
    assert_eq!(
        g.double(S0, 2),
        Err(ActionError::WrongPhase {
            phase: Phase::Dealing
        })
    );
    assert!(matches!(g.bid(S0, 1), Err(ActionError::WrongPhase { .. })));
    assert_eq!(
        g.show(S1, true),
        Err(ActionError::NotYourTurn { seat: S1, turn: S0 })
    );
    deal(&mut g, &[]);
    assert_eq!(
        g.show(S0, true),
        Err(ActionError::WrongPhase {
            phase: Phase::Bidding
        })
    );
    bid(&mut g, &[(S0, 1), (S1, 0), (S2, 0)]);
    let e = g.double(S1, 3).unwrap_err();
    assert_eq!(
        e,
        ActionError::BadDouble {
            factor: 3,
            allowed: vec![1, 2, 4]
        }
    );
    assert_eq!(
        e.to_string(),
        "doubling x3 is not allowed (allowed: 1, 2, 4)"
    );
    g.double(S1, 2).unwrap();
    let e = g.double(S1, 4).unwrap_err();
    assert_eq!(
        e,
        ActionError::AlreadyDoubled {
            seat: S1,
            factor: 2
        }
    );
    assert_eq!(e.to_string(), "seat 1 has already chosen doubling x2");
    let m = ddz_core::parse_move("3", &g.rules(), None).unwrap();
    assert!(matches!(
        g.play(S0, m),
        Err(ActionError::WrongPhase {
            phase: Phase::Doubling
        })
    ));
    // Undo takes back a doubling (not a bid).
    g.undo().unwrap();
    assert_eq!(g.doubling(S1), None);
    g.double(S1, 4).unwrap();
    // Classic has no doubling and no showing.
    let classic = Rules::classic();
    let mut c = Game::new(&classic, 1);
    assert!(matches!(
        c.double(c.turn(), 1),
        Err(ActionError::WrongPhase { .. })
    ));
    assert!(matches!(
        c.act(c.turn(), Action::Show(true)),
        Err(ActionError::WrongPhase { .. })
    ));
    assert_eq!(c.undo(), Err(ActionError::NothingToUndo));
}
