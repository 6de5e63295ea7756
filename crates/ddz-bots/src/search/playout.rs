//! Playouts: a sampled deal played to the end by the playout robots of one thread.

use super::bidding::Seats;
use super::net_playout::{NetPlayer, Root};
use super::sample::*;
use crate::ddzlib::DdzlibBot;
use crate::net::Net;
use ddz_core::{Cards, Move};
use ddz_game::{BySeat, PlayState, Trick};
use std::sync::Arc;

/// Plays a position to the end, starting with `first` played by `p.me`, and returns its
/// worth for `p.me`: 1 when its side wins, −1 when it loses. Every seat is played by its
/// `ddzlib` robot, or with `net` every turn after `first` by the network (the last rounds'
/// playouts). Moves go through
/// [`PlayState::apply_legal`]: each is one the seat may make, and no view is built.
pub(super) fn playout(
    p: &Decision,
    hands: BySeat<Cards>,
    first: Move,
    seats: &mut Seats,
    net: Option<&mut NetPlayer>,
) -> f64 {
    let rules = &p.rules;
    let mut state = PlayState::with_trick(hands, Trick::at(p.me, p.last));
    state.apply_legal(first, rules);
    if let Some(net) = net {
        let root = Root {
            landlord: p.landlord,
            played: p.played,
            history: &p.history,
        };
        net.start(&root, &[(p.me, first)]);
        net.play(&mut state, &root, &hands, rules, seats);
    }
    let landlord_won = super::bidding::finish(&mut state, rules, p.landlord, seats);
    if (p.me == p.landlord) == landlord_won {
        1.0
    } else {
        -1.0
    }
}

/// The playout robots of one thread (one `ddzlib` robot a seat, and the thread's move
/// buffer), the model of the inference, and the network's player.
pub(super) struct Players {
    pub(super) seats: Seats,
    pub(super) model: DdzlibBot,
    /// The network's player, when the last rounds' playouts read it.
    pub(super) net: Option<NetPlayer>,
}

/// Hands a playout robot's split memo holds: a decision's playouts meet thousands.
pub(super) const PLAYOUT_MEMO: usize = 4096;

impl Players {
    /// A thread's players, the network's among them when `net` is given.
    pub(super) fn new(net: Option<&Arc<Net>>) -> Players {
        Players {
            seats: Seats::with_memo(PLAYOUT_MEMO),
            model: DdzlibBot::with_memo(PLAYOUT_MEMO),
            net: net.map(|net| NetPlayer::new(net.clone())),
        }
    }
}
