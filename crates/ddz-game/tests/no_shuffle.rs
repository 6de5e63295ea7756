//! No-shuffle deals (RULES.md section 7): the test vectors of the rules, pinned in
//! `tests/data/no_shuffle.jsonl` (the kitty written in canonical order: section 7 writes seed
//! 2's as `226`), the mean bombs over seeds 0..19,999, and the deal a game makes.

use std::path::PathBuf;

use ddz_core::{Card, CardSet, DealMethod, NoShuffle, PileSource, Rules};
use ddz_game::{BySeat, Deal, Game, Seat, count_bombs, deal_no_shuffle, gather_pile};

#[derive(serde::Deserialize)]
struct Vector {
    seed: u64,
    first: u8,
    hands: [String; 3],
    kitty: String,
    bombs: u32,
}

fn vectors() -> Vec<Vector> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/no_shuffle.jsonl");
    std::fs::read_to_string(&path)
        .unwrap()
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{}: {e}", path.display())))
        .collect()
}

#[test]
fn section_7_test_vectors() {
    let vectors = vectors();
    assert_eq!(vectors.len(), 2);
    for v in vectors {
        let first = Seat::new(v.first).unwrap();
        let dealt = deal_no_shuffle(v.seed, first, &NoShuffle::DEFAULT, None);
        for (seat, want) in Seat::ALL.iter().zip(&v.hands) {
            assert_eq!(
                &dealt.deal.hands[*seat].to_cards().to_string(),
                want,
                "seed {} seat {seat}",
                v.seed
            );
        }
        assert_eq!(dealt.deal.kitty.to_cards().to_string(), v.kitty);
        assert_eq!(dealt.bombs, v.bombs);
        assert_eq!(dealt.attempts, 1);
        // The rules' deal of the seed alone is the same (seat 0 first).
        let mut rules = Rules::classic();
        rules.deal = DealMethod::NoShuffle;
        assert_eq!(Deal::from_seed(v.seed, &rules), dealt.deal);
    }
}

#[test]
fn mean_bombs_over_twenty_thousand_seeds() {
    let total: u64 = (0..20_000u64)
        .map(|s| u64::from(deal_no_shuffle(s, Seat::ALL[0], &NoShuffle::DEFAULT, None).bombs))
        .sum();
    let mean = total as f64 / 20_000.0;
    assert!((mean - 3.04).abs() <= 0.05, "mean bombs {mean}");
    // A uniform shuffle: about 0.58.
    let rules = Rules::classic();
    let shuffled: u64 = (0..20_000u64)
        .map(|s| u64::from(count_bombs(&Deal::from_seed(s, &rules).hands)))
        .sum();
    let mean = shuffled as f64 / 20_000.0;
    assert!((mean - 0.58).abs() <= 0.05, "mean bombs shuffled {mean}");
}

#[test]
fn deals_are_whole_and_chunks_follow_the_first_seat() {
    let mut params = NoShuffle::DEFAULT;
    for seed in 0..200 {
        for first in Seat::ALL {
            let deal = deal_no_shuffle(seed, first, &params, None).deal;
            let all = deal
                .hands
                .0
                .iter()
                .fold(deal.kitty.bits(), |a, h| a | h.bits());
            assert_eq!(all, CardSet::FULL_DECK.bits());
            assert!(deal.hands.0.iter().all(|h| h.len() == 17));
        }
    }
    // The first seat takes the first chunk: with seat 1 first, seat 1 gets seat 0's cards of
    // a deal from seat 0.
    let a = deal_no_shuffle(7, Seat::ALL[0], &params, None).deal;
    let b = deal_no_shuffle(7, Seat::ALL[1], &params, None).deal;
    assert_eq!(a.hands[Seat::ALL[0]], b.hands[Seat::ALL[1]]);
    assert_eq!(a.hands[Seat::ALL[2]], b.hands[Seat::ALL[0]]);
    assert_eq!(a.kitty, b.kitty);
    // Cards are received chunk by chunk.
    assert_eq!(a.received(Seat::ALL[0], 6).len(), 6);
    assert_eq!(a.received(Seat::ALL[0], 17), a.hands[Seat::ALL[0]]);
    params.min_bombs = 6;
    let rich = deal_no_shuffle(7, Seat::ALL[0], &params, None);
    assert!(rich.bombs >= 6 || rich.attempts == params.max_attempts);
}

#[test]
fn a_previous_pile_replaces_the_rank_groups() {
    // Gathered in id order and dealt with no cut and no swap: seat 0 first takes ids 0-5.
    let mut params = NoShuffle::DEFAULT;
    params.cuts = 0;
    params.swaps = 0;
    let pile: Vec<Card> = CardSet::FULL_DECK.iter().collect();
    let deal = deal_no_shuffle(3, Seat::ALL[0], &params, Some(&pile)).deal;
    let ids: Vec<u8> = deal
        .received(Seat::ALL[0], 6)
        .iter()
        .map(|c| c.id())
        .collect();
    assert_eq!(ids, [0, 1, 2, 3, 4, 5]);
    assert_eq!(
        deal.kitty.iter().map(|c| c.id()).collect::<Vec<_>>(),
        [51, 52, 53]
    );
    // A pile that is not the deck is ignored.
    let short = &pile[..50];
    assert_eq!(
        deal_no_shuffle(3, Seat::ALL[0], &params, Some(short)).deal,
        deal_no_shuffle(3, Seat::ALL[0], &params, None).deal
    );
    // The gather order: plays first, then the hands from the landlord.
    let hands = BySeat::from_fn(|s| deal.hands[s]);
    let gathered = gather_pile(&[], &hands, Some(Seat::ALL[2]));
    assert!(deal.hands[Seat::ALL[2]].contains(gathered[0]));
    // Rules with source = previous use it; source = groups does not.
    let mut rules = Rules::classic();
    rules.deal = DealMethod::NoShuffle;
    let groups = Deal::dealt(3, &rules, Seat::ALL[0], Some(&pile));
    assert_eq!(groups, Deal::from_seed(3, &rules));
    rules.no_shuffle.source = PileSource::Previous;
    let previous = Deal::dealt(3, &rules, Seat::ALL[0], Some(&pile));
    assert_ne!(previous, groups);
}

#[test]
fn a_no_shuffle_game_deals_from_its_first_bidder() {
    let mut rules = Rules::classic();
    rules.deal = DealMethod::NoShuffle;
    for seed in 0..30 {
        let game = Game::new(&rules, seed);
        let want = Deal::dealt(seed, &rules, game.first_bidder(), None);
        assert_eq!(game.deal(), &want, "seed {seed}");
    }
}

#[test]
fn a_sitting_deals_the_next_game_from_the_previous_pile() {
    use ddz_game::{Action, Phase, Sitting, SittingEvent};
    let mut rules = Rules::huanle();
    rules.deal = DealMethod::NoShuffle;
    rules.no_shuffle.source = PileSource::Previous;
    let mut sitting = Sitting::new(&rules, 5);
    let mut events = Vec::new();
    while !sitting.is_over() {
        let game = sitting.game();
        let seat = game.turn();
        let action = match game.phase() {
            Phase::Dealing | Phase::LandlordShow => Action::Show(game.shows().is_empty()),
            Phase::Bidding => Action::Bid(game.legal_bids()[1]),
            Phase::Doubling => Action::Double(2),
            _ => Action::Play(game.legal_moves()[0]),
        };
        events.extend(sitting.act(seat, action, None).unwrap());
    }
    assert!(
        events
            .iter()
            .any(|e| matches!(e, SittingEvent::Double { factor: 2, .. }))
    );
    // The first show was before the deal: no cards shown yet.
    let first_show = events
        .iter()
        .find_map(|e| match e {
            SittingEvent::Show { factor, cards, .. } if *factor > 0 => Some((*factor, *cards)),
            _ => None,
        })
        .unwrap();
    assert_eq!(first_show, (5, CardSet::EMPTY));
    // The pile of game 2: game 1's plays in order, then the hands from the landlord.
    let game = sitting.game();
    let mut plays = Vec::new();
    for i in 0..game.history().count() {
        plays.push(sitting.played_physical(i));
    }
    let landlord = game.landlord().unwrap();
    let hands = BySeat::from_fn(|s| sitting.physical(s));
    let pile = gather_pile(&plays, &hands, Some(landlord));
    sitting.next_game();
    let second = sitting.game();
    let want = Deal::dealt(sitting.seed(), &rules, second.first_seat(), Some(&pile));
    assert_eq!(second.deal(), &want);
    assert_ne!(
        second.deal(),
        &Deal::dealt(sitting.seed(), &rules, second.first_seat(), None)
    );
}
