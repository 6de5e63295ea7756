//! Playouts: a sampled deal played to the end by the playout robots of one thread.

use super::bidding::{Endgame, Seats, SoftDraws};
use super::config::*;
use super::infer::NetModel;
use super::net_playout::{NetPlayer, Root};
use super::sample::*;
use crate::ddzlib::DdzlibBot;
use crate::net::Net;
use crate::solver::Solver;
use ddz_core::{Cards, Move};
use ddz_game::{BySeat, PlayState, Seat, Trick};
use std::sync::Arc;

/// Plays a position to the end with every seat played by `ddzlib`, starting with `first`
/// played by `p.me`; returns its worth for `p.me` by `config.objective` at the bomb stake
/// (capped; no base, no spring) and the playouts it took. With `net` (`pnet`, `leaf=net`),
/// the network plays the first `config.playout_net_turns` turns after `first`, and with
/// `leaf=net` the playout ends there, worth the network's estimate of the outcome at the
/// stake so far. With `config.replies` above 1, the next seat's first choices are each played
/// out (with the same draws) and the worst for `p.me` counts when that seat is an opponent,
/// the best when it is the teammate. Moves go through [`PlayState::apply_legal`]: each is one
/// the seat may make, and no view is built.
#[allow(clippy::too_many_arguments)]
pub(super) fn playout(
    p: &Decision,
    hands: BySeat<Cards>,
    first: Move,
    config: &SearchConfig,
    seats: &mut Seats,
    soft: Option<&mut SoftDraws>,
    mut endgame: Option<&mut Endgame>,
    mut net: Option<&mut NetPlayer>,
) -> (f64, u64) {
    let rules = &p.rules;
    let mut state = PlayState::with_trick(hands, Trick::at(p.me, p.last));
    state.apply_legal(first, rules);
    let root = Root {
        landlord: p.landlord,
        played: p.played,
        history: &p.history,
        ddzlib_seats: p.ddzlib_seats,
    };
    let stake = |state: &PlayState| {
        state
            .bomb_multiplier()
            .min(rules.multiplier_cap.unwrap_or(u32::MAX))
    };
    let mut to_end = |mut state: PlayState,
                      seats: &mut Seats,
                      soft: Option<&mut SoftDraws>,
                      moves: &[(Seat, Move)]| {
        if let Some(net) = net.as_deref_mut() {
            net.start(&root, moves);
            net.play(
                &mut state,
                &root,
                &hands,
                rules,
                seats,
                config.playout_net_turns,
            );
            if config.net_leaf && !state.is_over() {
                let value = net.landlord_value(&state, &root, &hands, rules);
                let side = if p.me == p.landlord { value } else { -value };
                // The expected worth: a win's worth times the chance to win less the chance
                // to lose.
                let win =
                    config
                        .objective
                        .worth(p.me, p.landlord, p.me == p.landlord, stake(&state));
                return side * win as f64;
            }
        }
        if let Some(end) = endgame.as_deref_mut() {
            end.reset();
        }
        let landlord_won = super::bidding::finish(
            &mut state,
            rules,
            p.landlord,
            seats,
            soft,
            endgame.as_deref_mut(),
        );
        config
            .objective
            .worth(p.me, p.landlord, landlord_won, stake(&state)) as f64
    };
    if config.replies > 1 && state.first_out().is_none() {
        let seat = state.turn();
        let turn = state.turn_view(rules, p.landlord);
        let Seats { bots, buf } = seats;
        let replies: Vec<Move> = bots[seat.index()]
            .options(&turn, buf, config.replies)
            .to_vec();
        if replies.len() > 1 {
            let friend = (seat == p.landlord) == (p.me == p.landlord);
            let mut worst_or_best: Option<f64> = None;
            for &reply in &replies {
                let mut branch = state;
                branch.apply_legal(reply, rules);
                let mut draws = soft.as_deref().cloned();
                let moves = [(p.me, first), (seat, reply)];
                let worth = to_end(branch, seats, draws.as_mut(), &moves);
                worst_or_best = Some(match worst_or_best {
                    None => worth,
                    Some(w) if friend => w.max(worth),
                    Some(w) => w.min(worth),
                });
            }
            return (worst_or_best.unwrap_or(0.0), replies.len() as u64);
        }
    }
    (to_end(state, seats, soft, &[(p.me, first)]), 1)
}

/// The playout robots of one thread (one `ddzlib` robot a seat), the opponent model of the
/// inference, the solver of the playouts' endgames, and the thread's move buffer.
pub(super) struct Players {
    pub(super) seats: Seats,
    pub(super) model: DdzlibBot,
    pub(super) endgames: Option<Solver>,
    /// The network's player, when the playouts read it (`pnet`, `leaf=net`).
    pub(super) net: Option<NetPlayer>,
    /// The network as the opponent model of the follows, when asked (`inet`).
    pub(super) opponents: Option<NetModel>,
}

/// Hands a playout robot's split memo holds: a decision's playouts meet thousands.
pub(super) const PLAYOUT_MEMO: usize = 4096;

impl Players {
    /// A thread's players, the network's among them when `net` is given, and the network
    /// model of the other seats' follows at its temperature when `opponents` is.
    pub(super) fn new(net: Option<&Arc<Net>>, opponents: Option<&(Arc<Net>, f64)>) -> Players {
        Players {
            seats: Seats::with_memo(PLAYOUT_MEMO),
            model: DdzlibBot::with_memo(PLAYOUT_MEMO),
            endgames: None,
            net: net.map(|net| NetPlayer::new(net.clone())),
            opponents: opponents.map(|(net, t)| NetModel::new(net.clone(), *t)),
        }
    }
}
