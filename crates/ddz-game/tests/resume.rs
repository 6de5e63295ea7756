//! Saving a sitting between any two actions and resuming it (the web rooms' restart, issue
//! 20): games with random legal actions and random physical cards under every profile, the
//! section 7 rules and no-shuffle deals from the previous game's cards; at every step the
//! sitting saved as JSON and resumed holds the same game (record, turn, legal actions), the
//! same physical cards, totals and numbering, and goes on identically; the latest action
//! alone ([`Sitting::last_action`], for an action log) is the save's last. Broken saves are
//! refused with the action and what is wrong.

use ddz_core::{Bidding, CardSet, DealMethod, PileSource, Profile, Rules};
use ddz_game::{
    Action, Actions, GameRecord, Phase, SavedAction, SavedSitting, Seat, Sitting, below, rng,
};

/// A random legal action of the sitting's current game, with random physical cards for a
/// play (the highest ids of each rank every other time).
fn random_action(sitting: &Sitting, r: &mut impl rand::Rng) -> (Seat, Action, Option<CardSet>) {
    let game = sitting.game();
    let mut below = |n: usize| below(r, n as u64) as usize;
    let seat = game.turn();
    match (game.phase(), game.legal_actions()) {
        (Phase::Bidding, Actions::Bids(bids)) => (seat, Action::Bid(bids[below(bids.len())]), None),
        (Phase::Doubling, Actions::Double(factors)) => {
            let may = game.to_act();
            let f = factors[below(factors.len())];
            (may[below(may.len())], Action::Double(f), None)
        }
        (_, Actions::Show { .. }) => (seat, Action::Show(below(4) == 0), None),
        (_, Actions::Moves(moves)) => {
            let m = moves[below(moves.len())];
            let hand = sitting.physical(seat);
            let chosen = if below(2) == 0 {
                let mut ids: Vec<_> = hand.iter().collect();
                ids.reverse();
                let mut set = CardSet::EMPTY;
                for rank in m.cards().ranks() {
                    let want = m.cards().count(rank) as usize;
                    for card in ids.iter().filter(|c| c.rank() == rank).take(want) {
                        set = set.with(*card);
                    }
                }
                Some(set)
            } else {
                None
            };
            (seat, Action::Play(m), chosen)
        }
        (phase, actions) => panic!("{phase:?}: unexpected actions {actions:?}"),
    }
}

/// The sitting saved as JSON and resumed.
fn round_trip(sitting: &Sitting) -> Sitting {
    let text = serde_json::to_string(&sitting.save()).unwrap();
    let saved: SavedSitting = serde_json::from_str(&text).unwrap();
    Sitting::resume(&saved).unwrap_or_else(|e| panic!("{e}: {text}"))
}

/// Everything a room shows of a sitting is the same in both.
fn assert_same(a: &Sitting, b: &Sitting) {
    assert_eq!(a.save(), b.save());
    assert_eq!(a.number(), b.number());
    assert_eq!(a.seed(), b.seed());
    assert_eq!(a.totals(), b.totals());
    assert_eq!(a.finished(), b.finished());
    assert_eq!(a.ending(), b.ending());
    assert_eq!(
        GameRecord::from_game(a.game()),
        GameRecord::from_game(b.game())
    );
    assert_eq!(a.game().legal_actions(), b.game().legal_actions());
    assert_eq!(a.game().phase(), b.game().phase());
    assert_eq!(a.trick_start(), b.trick_start());
    for seat in Seat::ALL {
        assert_eq!(a.physical(seat), b.physical(seat));
        assert_eq!(a.game().view(seat), b.game().view(seat));
    }
    for i in 0..a.game().history().count() {
        assert_eq!(a.played_physical(i), b.played_physical(i));
    }
}

/// `games` games of random actions; at every step the sitting is saved and resumed, and the
/// resumed one is the one played on (so resuming twice in a row is tested too).
fn check(rules: &Rules, seed: u64, games: u32) {
    let mut sitting = Sitting::new(rules, seed);
    let mut r = rng(seed ^ 0x5A5A);
    while sitting.number() <= games {
        let resumed = round_trip(&sitting);
        assert_same(&sitting, &resumed);
        sitting = resumed;
        if sitting.is_over() {
            sitting.next_game();
            continue;
        }
        let (seat, action, chosen) = random_action(&sitting, &mut r);
        sitting.act(seat, action, chosen).unwrap();
        // An action log appends the latest action as the whole save writes it.
        assert_eq!(
            sitting.last_action().as_ref(),
            sitting.save().actions.last(),
            "last_action"
        );
    }
}

#[test]
fn every_profile_resumes_at_every_step() {
    for (i, profile) in Profile::ALL.into_iter().enumerate() {
        check(&Rules::profile(profile), 100 + i as u64, 3);
    }
    let mut call_rob = Rules::classic();
    call_rob.bidding = Bidding::CallRob;
    check(&call_rob, 200, 3);
}

#[test]
fn no_shuffle_deals_from_the_previous_game_resume() {
    let mut rules = Rules::huanle();
    rules.deal = DealMethod::NoShuffle;
    rules.no_shuffle.source = PileSource::Previous;
    for seed in 0..3 {
        check(&rules, 300 + seed, 4);
    }
}

#[test]
fn a_forfeit_is_resumed() {
    let mut sitting = Sitting::new(&Rules::classic(), 5);
    sitting.forfeit(Seat::ALL[1], "the robot failed");
    let resumed = round_trip(&sitting);
    assert_same(&sitting, &resumed);
    assert_eq!(resumed.totals(), sitting.totals());
}

#[test]
fn broken_saves_are_refused_with_the_action() {
    let mut sitting = Sitting::new(&Rules::classic(), 11);
    while sitting.game().phase() == Phase::Bidding {
        let seat = sitting.game().turn();
        let bid = *sitting.game().legal_bids().last().unwrap();
        sitting.act(seat, Action::Bid(bid), None).unwrap();
    }
    let landlord = sitting.game().turn();
    let lead = sitting.game().legal_moves()[0];
    sitting.act(landlord, Action::Play(lead), None).unwrap();
    let saved = sitting.save();
    let plays_at = saved.actions.len();

    let mut bad = saved.clone();
    bad.format = "ddz-sitting/9".into();
    let e = Sitting::resume(&bad).unwrap_err();
    assert_eq!(e.at, "format");

    let mut bad = saved.clone();
    let SavedAction::Play { ids, .. } = &mut bad.actions[plays_at - 1] else {
        panic!("the last action is a play");
    };
    ids[0] = 60;
    let e = Sitting::resume(&bad).unwrap_err();
    assert_eq!(
        e.to_string(),
        format!("action {plays_at}: item 1: 60 is not a card id 0-53")
    );

    let mut bad = saved.clone();
    let SavedAction::Play { play, .. } = &mut bad.actions[plays_at - 1] else {
        panic!("the last action is a play");
    };
    *play = "pass".into();
    let e = Sitting::resume(&bad).unwrap_err();
    assert_eq!(e.at, format!("action {plays_at}"));

    let mut bad = saved.clone();
    bad.actions.swap(0, 1);
    let e = Sitting::resume(&bad).unwrap_err();
    assert_eq!(e.at, "action 1", "{e}");

    let mut bad = saved;
    bad.game = 0;
    assert_eq!(Sitting::resume(&bad).unwrap_err().at, "game");
}
