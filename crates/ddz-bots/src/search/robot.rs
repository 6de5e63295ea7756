//! The `search` robot itself: bidding, doubling, showing and playing by the search.

use super::config::*;
use super::sample::*;
use super::schedule::*;
use crate::Bot;
use crate::blog::Valuer;
use crate::ddzlib::DdzlibBot;
use crate::net::features::Position;
use crate::net::{Ensemble, Net};
use crate::value_bot::ValueBot;
use ddz_core::Move;
use ddz_game::{Bid, SeatView, derive_seed};
use std::sync::Arc;

/// The `search` robot (see the [module docs](super)).
pub struct SearchBot {
    pub(super) config: SearchConfig,
    pub(super) seed: u64,
    /// Decisions made so far: each draws its own samples.
    pub(super) decisions: u64,
    pub(super) valuer: Valuer,
    pub(super) value: ValueBot,
    pub(super) ddzlib: DdzlibBot,
    /// The networks' scorer, when the configuration reads the network: the candidates and the
    /// prior average every network's scores.
    pub(super) net: Option<Ensemble>,
    /// The network of the playouts (`pweights`) when it is not the shipped one ([`Net::small`]).
    pub(super) playout_net: Option<Arc<Net>>,
    pub(super) name: String,
}

impl SearchBot {
    /// Makes the robot read `nets` instead of the shipped network (when the configuration reads
    /// the network; otherwise it reads none): the candidates and the prior average their
    /// scores.
    ///
    /// # Panics
    ///
    /// If `nets` is empty.
    pub fn set_nets(&mut self, nets: &[Arc<Net>]) {
        if let Some(ensemble) = &mut self.net {
            *ensemble = Ensemble::new(nets);
        }
    }

    /// Makes the last rounds' playouts read `net` instead of the shipped
    /// playout network ([`Net::small`]).
    pub fn set_playout_net(&mut self, net: Arc<Net>) {
        self.playout_net = Some(net);
    }

    /// A search robot with `config`, drawing its samples from `seed`.
    pub fn new(config: SearchConfig, seed: u64) -> SearchBot {
        SearchBot {
            config,
            seed,
            decisions: 0,
            valuer: Valuer::new(),
            value: ValueBot::new(),
            ddzlib: DdzlibBot::new(),
            net: config
                .reads_net()
                .then(|| Ensemble::new(&[Net::embedded()])),
            playout_net: None,
            name: "search".to_string(),
        }
    }

    /// The candidates: the two seed robots' choices, the pass, the network's best plays
    /// ([`SearchConfig::net_candidates`], scored in `net_scores`), then the best plays by what they leave, without
    /// repeats, at most `config.candidates`.
    pub(super) fn candidates(
        &mut self,
        view: &SeatView,
        allowed: &[Move],
        net_scores: &[f32],
    ) -> Vec<Move> {
        let mut out: Vec<Move> = Vec::new();
        let push = |m: Move, out: &mut Vec<Move>| {
            if !out.contains(&m) {
                out.push(m);
            }
        };
        push(self.ddzlib.play(view, allowed), &mut out);
        push(self.value.play(view, allowed), &mut out);
        if let Some(&pass) = allowed.iter().find(|m| m.is_pass()) {
            push(pass, &mut out);
        }
        if !net_scores.is_empty() {
            let mut by_net: Vec<usize> = (0..allowed.len()).collect();
            by_net.sort_by(|&a, &b| net_scores[b].total_cmp(&net_scores[a]).then(a.cmp(&b)));
            for &i in by_net.iter().take(self.config.net_candidates) {
                push(allowed[i], &mut out);
            }
        }
        let mut ranked: Vec<(i32, usize)> = allowed
            .iter()
            .enumerate()
            .filter(|(_, m)| !m.is_pass())
            .map(|(i, m)| (-self.valuer.after(view.hand(), m, view.rules()).score(), i))
            .collect();
        ranked.sort_unstable();
        for (_, i) in ranked {
            if out.len() >= self.config.candidates {
                break;
            }
            push(allowed[i], &mut out);
        }
        out.truncate(self.config.candidates.max(2));
        out
    }
}

/// The most legal moves the network scores for the candidates. Past it (only with more wild
/// cards than laizi's four, whose leads have up to about 5,000: a lead of 20 cards with 8 wild
/// ones has 31,278) the candidates come from the robots' choices and the valuer alone: the
/// network's features split the hand left by every move, 2.5 s for those 31,278, before any
/// playout (issue 50: a 100 ms search took 3.5 s).
const MAX_NET_SCORED: usize = 8_000;

impl Bot for SearchBot {
    fn name(&self) -> &str {
        &self.name
    }

    fn bid(&mut self, view: &SeatView, allowed: &[Bid]) -> Bid {
        if !self.config.bid_by_search || allowed.len() < 2 {
            return self.ddzlib.bid(view, allowed);
        }
        self.decisions += 1;
        let seed = derive_seed(self.seed, self.decisions);
        match super::bidding::landlord_chance(view, self.config.budget_for(view.rules()), seed) {
            Some(chance) => {
                super::bidding::bid_for_chance(view, allowed, chance, self.config.bid_threshold)
            }
            None => self.ddzlib.bid(view, allowed),
        }
    }

    fn double(&mut self, view: &SeatView, allowed: &[u32]) -> u32 {
        self.decide_double(view, allowed)
    }

    fn show(&mut self, view: &SeatView, _factor: u32) -> bool {
        self.decide_show(view)
    }

    fn play(&mut self, view: &SeatView, allowed: &[Move]) -> Move {
        if let Some(m) = crate::obvious_play(view.hand(), allowed) {
            return m;
        }
        self.decisions += 1;
        let Some(landlord) = view.landlord() else {
            return self.ddzlib.play(view, allowed);
        };
        let mut net_scores = Vec::new();
        if let (Some(ensemble), Some(pos)) = (self.net.as_mut(), Position::of_view(view))
            && allowed.len() <= MAX_NET_SCORED
        {
            ensemble.scores(&pos, view.rules(), allowed, &mut net_scores);
        }
        let candidates = self.candidates(view, allowed, &net_scores);
        if candidates.len() == 1 {
            return candidates[0];
        }
        let prior: Vec<f64> = if self.config.net_prior > 0.0 && !net_scores.is_empty() {
            candidates
                .iter()
                .map(|c| {
                    allowed
                        .iter()
                        .position(|m| m == c)
                        .map_or(0.0, |i| self.config.net_prior * f64::from(net_scores[i]))
                })
                .collect()
        } else {
            Vec::new()
        };
        let seed = derive_seed(self.seed, self.decisions);
        let position = Decision::of(view, landlord, self.config.infer_bids);
        let playout_net = self
            .net
            .as_ref()
            .map(|_| self.playout_net.clone().unwrap_or_else(Net::small));
        let playout_net = playout_net.filter(|_| self.config.net_in_playouts(view.rules()));
        search(
            &position,
            &candidates,
            &prior,
            playout_net,
            self.config,
            seed,
        )
    }
}
