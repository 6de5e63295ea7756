//! Bidding: points (叫分), call and rob (叫地主/抢地主) and a fixed landlord; the deals and
//! helpers are the parent module's.

use super::*;

// --- Points bidding ------------------------------------------------------------------------

#[test]
fn points_bid_is_the_base_and_landlord_takes_the_kitty() {
    let rules = Rules::classic();
    let mut g = game_from(&rules, deal_a(&rules), S1);
    assert_eq!(g.hand(S0).len(), 17);
    assert_eq!(g.landlord(), None);
    g.bid(S1, 1).unwrap();
    g.bid(S2, 0).unwrap();
    g.bid(S0, 2).unwrap();
    // Every seat spoke once: the highest bidder is landlord, its bid the base.
    assert_eq!(g.phase(), Phase::Playing);
    assert_eq!(g.landlord(), Some(S0));
    assert_eq!(g.base(), 2);
    assert_eq!(g.turn(), S0);
    assert_eq!(g.hand(S0).len(), 20);
    assert_eq!(g.view(S1).kitty(), Some("2BR".parse().unwrap()));
    spring_deal_a(&mut g);
    let r = result(&g);
    assert_eq!(r.base, 2);
    // bomb x2, rocket x2, spring x2.
    assert_eq!(r.multiplier, 8);
    assert_eq!(r.scores.0, [32, -16, -16]);
    assert_zero_sum(r);
}

#[test]
fn points_bid_not_above_the_current_one_is_refused() {
    let rules = Rules::classic();
    let mut g = game_from(&rules, deal_a(&rules), S0);
    g.bid(S0, 2).unwrap();
    for low in [1, 2] {
        refused(
            &mut g,
            |g| g.bid(S1, low),
            &ActionError::BadBid {
                bid: low,
                allowed: vec![0, 3],
            },
            "not allowed now (allowed: 0, 3)",
        );
    }
    refused(
        &mut g,
        |g| g.bid(S1, 4),
        &ActionError::BadBid {
            bid: 4,
            allowed: vec![0, 3],
        },
        "bid 4 is not allowed now (allowed: 0, 3)",
    );
    g.bid(S1, 0).unwrap();
    g.bid(S2, 0).unwrap();
    assert_eq!(g.landlord(), Some(S0));
    assert_eq!(g.base(), 2);
}

#[test]
fn points_bid_of_three_ends_bidding() {
    let rules = Rules::classic();
    let mut g = game_from(&rules, deal_a(&rules), S2);
    g.bid(S2, 3).unwrap();
    assert_eq!(g.phase(), Phase::Playing);
    assert_eq!(g.landlord(), Some(S2));
    assert_eq!(g.bids(), &[(S2, 3)]);
    assert_eq!(g.base(), 3);
    assert_eq!(g.turn(), S2);
    assert_eq!(g.hand(S2).len(), 20);
    assert_eq!(g.hand(S0).len(), 17);

    // A 3 after a lower bid ends it too, before the third seat speaks.
    let mut g = game_from(&rules, deal_a(&rules), S1);
    g.bid(S1, 1).unwrap();
    g.bid(S2, 3).unwrap();
    assert_eq!(g.landlord(), Some(S2));
    assert_eq!(g.base(), 3);
}

#[test]
fn points_all_pass_redeals() {
    let rules = Rules::classic();
    let deal = deal_a(&rules);
    let mut g = game_from(&rules, deal.clone(), S0);
    g.bid(S0, 0).unwrap();
    g.bid(S1, 0).unwrap();
    assert_eq!(g.redeals(), 0);
    g.bid(S2, 0).unwrap();
    assert_eq!(g.redeals(), 1);
    assert_eq!(g.phase(), Phase::Bidding);
    assert_ne!(g.deal(), &deal, "a new deal");
    assert!(g.bids().is_empty(), "bidding restarts");
    assert_eq!(g.landlord(), None);
    assert_eq!(g.turn(), g.first_bidder());
    for s in Seat::ALL {
        assert_eq!(g.hand(s), g.deal().hands[s].to_cards());
        assert_eq!(g.hand(s).len(), 17);
    }
    // The new deal is bid normally.
    let first = g.turn();
    g.bid(first, 3).unwrap();
    assert_eq!(g.landlord(), Some(first));
    assert_eq!(g.base(), 3);
    assert_eq!(g.hand(first).len(), 20);
}

// --- Call and rob --------------------------------------------------------------------------

#[test]
fn call_rob_nobody_robs_the_caller_is_landlord() {
    let rules = call_rob();
    let mut g = game_from(&rules, deal_a(&rules), S0);
    g.bid(S0, 1).unwrap();
    g.bid(S1, 0).unwrap();
    assert_eq!(g.phase(), Phase::Bidding);
    g.bid(S2, 0).unwrap();
    assert_eq!(g.phase(), Phase::Playing);
    assert_eq!(g.landlord(), Some(S0));
    assert_eq!(g.multiplier(), 1);
    assert_eq!(g.base(), 1);
    spring_deal_a(&mut g);
    let r = result(&g);
    assert_eq!((r.base, r.multiplier), (1, 8));
    assert_eq!(r.scores.0, [16, -8, -8]);
    assert_zero_sum(r);
}

#[test]
fn call_rob_one_rob_doubles_and_the_robber_is_landlord() {
    let rules = call_rob();
    let mut g = game_from(&rules, deal_a(&rules), S2);
    g.bid(S2, 1).unwrap(); // call
    assert_eq!(g.multiplier(), 1);
    g.bid(S0, 1).unwrap(); // rob
    assert_eq!(g.multiplier(), 2);
    g.bid(S1, 0).unwrap(); // decline
    // Someone robbed: the caller may rob back.
    assert_eq!(g.phase(), Phase::Bidding);
    assert_eq!(g.turn(), S2);
    g.bid(S2, 0).unwrap(); // no rob back
    assert_eq!(g.landlord(), Some(S0));
    assert_eq!(g.multiplier(), 2);
    assert_eq!(g.hand(S0).len(), 20);
    spring_deal_a(&mut g);
    let r = result(&g);
    // rob x2, bomb x2, rocket x2, spring x2.
    assert_eq!((r.base, r.multiplier), (1, 16));
    assert_eq!(r.scores.0, [32, -16, -16]);
    assert_zero_sum(r);
}

#[test]
fn call_rob_rob_back_doubles_again_and_the_caller_is_landlord() {
    let rules = call_rob();
    let mut g = game_from(&rules, deal_a(&rules), S0);
    g.bid(S0, 1).unwrap(); // call
    g.bid(S1, 1).unwrap(); // rob
    assert_eq!(g.multiplier(), 2);
    g.bid(S2, 0).unwrap(); // decline
    assert_eq!(g.turn(), S0);
    g.bid(S0, 1).unwrap(); // rob back
    assert_eq!(g.phase(), Phase::Playing);
    assert_eq!(g.landlord(), Some(S0));
    assert_eq!(g.multiplier(), 4);
    spring_deal_a(&mut g);
    let r = result(&g);
    // two robs x4, bomb x2, rocket x2, spring x2.
    assert_eq!((r.base, r.multiplier), (1, 32));
    assert_eq!(r.scores.0, [64, -32, -32]);
    assert_zero_sum(r);
}

#[test]
fn call_rob_every_seat_robs_and_the_caller_robs_back() {
    let rules = call_rob();
    let mut g = game_from(&rules, deal_b(&rules), S0);
    g.bid(S0, 1).unwrap();
    g.bid(S1, 1).unwrap();
    g.bid(S2, 1).unwrap();
    assert_eq!(g.multiplier(), 4);
    assert_eq!(g.turn(), S0);
    g.bid(S0, 1).unwrap();
    assert_eq!(g.landlord(), Some(S0));
    assert_eq!(g.multiplier(), 8);
    // The caller loses with an anti-spring: robs x8, bomb x2, anti-spring x2.
    anti_spring_deal_b(&mut g);
    let r = result(&g);
    assert_eq!(r.winner, Side::Farmers);
    assert!(r.anti_spring);
    assert_eq!(r.multiplier, 32);
    assert_eq!(r.scores.0, [-64, 32, 32]);
    assert_zero_sum(r);
}

#[test]
fn call_rob_a_declined_seat_cannot_rob() {
    let rules = call_rob();
    let mut g = game_from(&rules, deal_a(&rules), S0);
    g.bid(S0, 0).unwrap(); // decline
    g.bid(S1, 1).unwrap(); // call
    // Seat 0 declined: only seat 2 may rob.
    assert_eq!(g.turn(), S2);
    refused(
        &mut g,
        |g| g.bid(S0, 1),
        &ActionError::NotYourTurn { seat: S0, turn: S2 },
        "not seat 0's turn: seat 2 is to act",
    );
    g.bid(S2, 1).unwrap(); // rob
    // Then the caller may rob back; seat 0 still may not rob.
    assert_eq!(g.turn(), S1);
    refused(
        &mut g,
        |g| g.bid(S0, 1),
        &ActionError::NotYourTurn { seat: S0, turn: S1 },
        "seat 1 is to act",
    );
    g.bid(S1, 0).unwrap();
    assert_eq!(g.landlord(), Some(S2));
    assert_eq!(g.multiplier(), 2);
    assert!(g.bids().iter().all(|&(s, b)| s != S0 || b == 0));

    // When every later seat declined and nobody robbed, the call stands at once.
    let mut g = game_from(&rules, deal_a(&rules), S1);
    g.bid(S1, 0).unwrap();
    g.bid(S2, 0).unwrap();
    g.bid(S0, 1).unwrap();
    assert_eq!(g.phase(), Phase::Playing);
    assert_eq!(g.landlord(), Some(S0));
    assert_eq!(g.multiplier(), 1);
}

#[test]
fn call_rob_bids_above_one_are_refused() {
    let rules = call_rob();
    let mut g = game_from(&rules, deal_a(&rules), S0);
    refused(
        &mut g,
        |g| g.bid(S0, 2),
        &ActionError::BadBid {
            bid: 2,
            allowed: vec![0, 1],
        },
        "bid 2 is not allowed now (allowed: 0, 1)",
    );
}

#[test]
fn call_rob_nobody_calls_redeals() {
    let rules = call_rob();
    let deal = deal_a(&rules);
    let mut g = game_from(&rules, deal.clone(), S1);
    g.bid(S1, 0).unwrap();
    g.bid(S2, 0).unwrap();
    g.bid(S0, 0).unwrap();
    assert_eq!(g.redeals(), 1);
    assert_eq!(g.phase(), Phase::Bidding);
    assert_ne!(g.deal(), &deal);
    assert!(g.bids().is_empty());
    assert_eq!(g.multiplier(), 1);
    assert_eq!(g.landlord(), None);
    let first = g.turn();
    assert_eq!(first, g.first_bidder());
    g.bid(first, 1).unwrap();
    g.bid(first.next(), 0).unwrap();
    g.bid(first.next().next(), 0).unwrap();
    assert_eq!(g.landlord(), Some(first));
}

// --- Fixed landlord ------------------------------------------------------------------------

#[test]
fn fixed_landlord_has_no_bidding() {
    let rules = classic_fixed();
    let mut g = Game::with_deal(&rules, 1, deal_a(&rules));
    assert_eq!(g.phase(), Phase::Playing);
    assert_eq!(g.landlord(), Some(S0));
    assert_eq!(g.turn(), S0);
    assert!(g.bids().is_empty());
    assert_eq!(g.hand(S0).len(), 20);
    assert_eq!((g.base(), g.multiplier()), (1, 1));
    refused(
        &mut g,
        |g| g.bid(S0, 3),
        &ActionError::WrongPhase {
            phase: Phase::Playing,
        },
        "the game is in play",
    );

    let mut rules = classic_fixed();
    rules.landlord_seat = 2;
    let g = Game::with_deal(&rules, 1, deal_a(&rules));
    assert_eq!(g.landlord(), Some(S2));
    assert_eq!(g.turn(), S2);
    assert_eq!(g.hand(S2).len(), 20);
    assert_eq!(g.hand(S0).len(), 17);
}
