//! What a decision knows as the search reads it, and the random deals of the cards it cannot see.

use super::infer::Observations;
use ddz_core::{Cards, Move, Rank, Rules};
use ddz_game::{BySeat, Seat, SeatView};
use ddz_game::{rng, shuffle};
use std::sync::Arc;

/// What a decision knows, as the search needs it.
#[derive(Clone, Debug)]
pub(super) struct Decision {
    pub(super) rules: Rules,
    pub(super) me: Seat,
    pub(super) landlord: Seat,
    pub(super) hand: Cards,
    pub(super) cards_left: BySeat<u32>,
    pub(super) last: Option<(Seat, Move)>,
    /// Cards neither in the hand nor played: the other two hands (and, in a position without
    /// history, cards out of the game).
    pub(super) unknown: Cards,
    /// Cards the landlord must hold (its unplayed kitty cards), when the landlord is another
    /// seat.
    pub(super) forced: Cards,
    /// The other seats' past turns, to weigh samples by (`None`: no inference).
    pub(super) observations: Option<Observations>,
    /// The cards each seat has played.
    pub(super) played: BySeat<Cards>,
    /// Every turn so far, passes included (what the network reads in playouts).
    pub(super) history: Arc<Vec<(Seat, Move)>>,
}

impl Decision {
    /// What `view` knows, `landlord` being the landlord's seat; `bids`: whether the
    /// observations keep the bids.
    pub(super) fn of(view: &SeatView, landlord: Seat, bids: bool) -> Decision {
        Decision {
            rules: view.rules().clone(),
            me: view.seat(),
            landlord,
            hand: view.hand(),
            cards_left: view.cards_left(),
            last: view.last(),
            unknown: unknown_cards(view),
            forced: forced_for_landlord(view),
            observations: Observations::of(view, landlord)
                .map(|o| if bids { o } else { o.without_bids() })
                .filter(|o| !o.is_empty()),
            played: view.played(),
            history: view.shared_history(),
        }
    }
}

/// Every card the seat cannot see: not in its hand, not played by anyone.
pub fn unknown_cards(view: &SeatView) -> Cards {
    let played = Seat::ALL
        .iter()
        .fold(Cards::EMPTY, |acc, &s| acc.union(view.played()[s]));
    Cards::FULL_DECK
        .saturating_minus(view.hand())
        .saturating_minus(played)
}

/// The kitty cards the landlord (another seat) still holds for sure: the kitty less what it
/// has played of those ranks.
pub(super) fn forced_for_landlord(view: &SeatView) -> Cards {
    match (view.landlord(), view.kitty()) {
        (Some(l), Some(kitty)) if l != view.seat() => {
            let forced = kitty.saturating_minus(view.played()[l]);
            // Within what is unknown (a view without history may not list every play).
            forced.saturating_minus(forced.saturating_minus(unknown_cards(view)))
        }
        _ => Cards::EMPTY,
    }
}

/// Deals the unknown cards to the two other seats of `view` at random, consistently with it
/// (cards left per seat; the landlord's unplayed kitty cards in the landlord's hand), from
/// `seed`. Returns every seat's hand (the seat's own as it is), or `None` when the view is
/// impossible (fewer unknown cards than the others hold).
pub fn sample_hidden(view: &SeatView, seed: u64) -> Option<BySeat<Cards>> {
    let landlord = view.landlord().unwrap_or(view.seat());
    let position = Decision::of(view, landlord, false);
    deal(&position, seed)
}

/// One random deal of the unknown cards (see [`sample_hidden`]).
pub(super) fn deal(p: &Decision, seed: u64) -> Option<BySeat<Cards>> {
    let others = [p.me.next(), p.me.prev()];
    let need: u32 = others.iter().map(|&s| p.cards_left[s]).sum();
    if p.unknown.len() < need || p.forced.len() > p.cards_left[p.landlord] {
        return None;
    }
    let mut pool: Vec<Rank> = p.unknown.saturating_minus(p.forced).iter().collect();
    shuffle(&mut rng(seed), &mut pool);
    let mut hands = BySeat([Cards::EMPTY; 3]);
    hands[p.me] = p.hand;
    let mut next = pool.into_iter();
    for seat in others {
        let mut hand = if seat == p.landlord {
            p.forced
        } else {
            Cards::EMPTY
        };
        while hand.len() < p.cards_left[seat] {
            hand = hand.add(next.next()?, 1);
        }
        hands[seat] = hand;
    }
    Some(hands)
}
