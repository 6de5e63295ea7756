//! How samples are weighed: the tempering of their likelihoods, and reading which other seats play like `ddzlib` (`popp=auto`).

use super::config::*;
use super::infer::{NetModel, Observations};
use super::playout::*;
use super::sample::*;
use super::tuning::*;
use crate::ddzlib::DdzlibBot;
use ddz_core::{Cards, Rules};
use ddz_game::{BySeat, Seat, SeatView, derive_seed};

/// How a decision turns a sample's log-likelihood into its weight: `exp(scale × (ll −
/// reference))`, the scale chosen so that the pilot samples keep the effective size asked
/// for ([`SearchConfig::ess`]).
#[derive(Clone, Copy, Debug)]
pub(super) struct Tempering {
    pub(super) scale: f64,
    pub(super) reference: f64,
}

impl Tempering {
    /// The tempering of decision `p` (drawing the pilot from `seed`, as the first samples are
    /// drawn), or `None` without inference.
    pub(super) fn of(
        p: &Decision,
        config: SearchConfig,
        seed: u64,
        players: &mut Players,
    ) -> Option<Tempering> {
        let seen = p.observations.as_ref().filter(|_| config.infer)?;
        let (model, mut opponents) = (&mut players.model, players.opponents.as_mut());
        let lls: Vec<f64> = (0..PILOT)
            .filter_map(|s| deal(p, derive_seed(seed, u64::from(s))))
            .map(|hands| {
                read_sample(
                    seen,
                    &hands,
                    &p.rules,
                    &config,
                    model,
                    opponents.as_deref_mut(),
                )
                .0
            })
            .collect();
        let reference = lls.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        if !reference.is_finite() {
            return None;
        }
        let ess = |scale: f64| {
            let (sum, squares) = lls.iter().fold((0.0, 0.0), |(a, b), ll| {
                let w = (scale * (ll - reference)).exp();
                (a + w, b + w * w)
            });
            sum * sum / squares / lls.len() as f64
        };
        // The largest scale in [0, 1] keeping the share: the share falls as the scale grows.
        let scale = if ess(1.0) >= config.ess {
            1.0
        } else {
            let (mut low, mut high) = (0.0, 1.0);
            for _ in 0..30 {
                let mid = (low + high) / 2.0;
                if ess(mid) >= config.ess {
                    low = mid;
                } else {
                    high = mid;
                }
            }
            low
        };
        Some(Tempering { scale, reference })
    }

    /// The weight of a sample of log-likelihood `ll`.
    pub(super) fn weight(self, ll: f64) -> f64 {
        // Clamped: below −700 `exp` rounds to 0; above, a sample far likelier than the pilot's
        // best would overflow.
        (self.scale * (ll - self.reference))
            .clamp(-700.0, 60.0)
            .exp()
    }
}

/// The other seats of `view` that `popp=auto` reads as playing like the `ddzlib` robot
/// ([`PlayoutOpponents::Auto`]), by `config`'s models over `samples` samples drawn from
/// `seed` ([`ddzlib_like`]): none before the landlord is known or without a history to read.
/// The search reads them from its own samples; this is the same reading on fresh ones.
pub fn ddzlib_like_seats(
    view: &SeatView,
    config: &SearchConfig,
    seed: u64,
    samples: u32,
) -> BySeat<bool> {
    let Some(landlord) = view.landlord() else {
        return BySeat([false; 3]);
    };
    let p = Decision::of(view, landlord, config.infer_bids);
    let Some(seen) = p.observations.as_ref() else {
        return BySeat([false; 3]);
    };
    let mut model = DdzlibBot::new();
    let readings: Vec<Reading> = (0..samples)
        .filter_map(|s| deal(&p, derive_seed(seed, u64::from(s))))
        .map(|hands| read_sample(seen, &hands, &p.rules, config, &mut model, None).1)
        .collect();
    ddzlib_like(&readings, p.me)
}

/// What a sample says of the other seats under the mixture of the plain and the sharp
/// models ([`SearchConfig::sharp`], at its prior share, or an even one when `sharp=0`): the
/// sample's log-likelihood under it, and each seat's posterior chance of the sharp model
/// given the sample.
#[derive(Clone, Copy, Debug)]
pub(super) struct Reading {
    pub(super) log_likelihood: f64,
    pub(super) sharp_chance: [f64; 3],
}

/// The other seats that play like the `ddzlib` robot, from the `readings` of a set of
/// samples drawn uniformly: those whose posterior chance of the sharp model (each sample's
/// chance weighed by its likelihood under the mixture) is above one half.
pub(super) fn ddzlib_like(readings: &[Reading], me: Seat) -> BySeat<bool> {
    let top = readings
        .iter()
        .map(|r| r.log_likelihood)
        .fold(f64::NEG_INFINITY, f64::max);
    if !top.is_finite() {
        return BySeat([false; 3]);
    }
    let weight = |r: &Reading| (r.log_likelihood - top).exp();
    let total: f64 = readings.iter().map(weight).sum();
    BySeat::from_fn(|seat| {
        let sharp: f64 = readings
            .iter()
            .map(|r| weight(r) * r.sharp_chance[seat.index()])
            .sum();
        seat != me && sharp / total > 0.5
    })
}

/// The log-likelihood of a sample's `hands` given what was `seen`, under the model of
/// `config` (at its temperature, or with [`SearchConfig::sharp`] each seat's own by the
/// mixture of the sharp and the plain model), and, when the sharp model is in use or
/// `popp=auto` reads the seats, the sample's [`Reading`]. Without those, `opponents` (`inet`)
/// reads the follows when given.
pub(super) fn read_sample(
    seen: &Observations,
    hands: &BySeat<Cards>,
    rules: &Rules,
    config: &SearchConfig,
    model: &mut DdzlibBot,
    opponents: Option<&mut NetModel>,
) -> (f64, Reading) {
    let reads = config.playout_opponents == PlayoutOpponents::Auto;
    if config.sharp <= 0.0 && !reads {
        let ll = match opponents {
            Some(net) => seen.log_likelihood_by_net(hands, rules, config.temperature, model, net),
            None => seen.log_likelihood(hands, rules, config.temperature, model),
        };
        let reading = Reading {
            log_likelihood: ll,
            sharp_chance: [0.0; 3],
        };
        return (ll, reading);
    }
    let temperatures = [config.temperature, config.sharp_temperature];
    let seats = seen.seat_log_likelihoods(hands, rules, temperatures, model);
    let share = if config.sharp > 0.0 {
        config.sharp
    } else {
        0.5
    };
    let (plain, sharp) = ((1.0 - share).ln(), share.ln());
    let mut reading = Reading {
        log_likelihood: 0.0,
        sharp_chance: [0.0; 3],
    };
    for (k, &[l0, l1]) in seats.0.iter().enumerate() {
        // ln((1 − s)·e^l0 + s·e^l1), computed from the larger term.
        let (a, b) = (plain + l0, sharp + l1);
        let top = a.max(b);
        let mix = top + ((a - top).exp() + (b - top).exp()).ln();
        reading.log_likelihood += mix;
        reading.sharp_chance[k] = (b - mix).exp();
    }
    let ll = if config.sharp > 0.0 {
        reading.log_likelihood
    } else {
        seats.0.iter().map(|l| l[0]).sum()
    };
    (ll, reading)
}
