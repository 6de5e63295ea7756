//! How samples are weighed: their likelihood under the `ddzlib` model of the other seats,
//! tempered so that the weights keep an effective sample size.

use super::config::*;
use super::infer::Observations;
use super::playout::*;
use super::sample::*;
use super::tuning::*;
use crate::ddzlib::DdzlibBot;
use ddz_core::{Cards, Rules};
use ddz_game::{BySeat, derive_seed};

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
        let model = &mut players.model;
        let lls: Vec<f64> = (0..PILOT)
            .filter_map(|s| deal(p, derive_seed(seed, u64::from(s))))
            .map(|hands| read_sample(seen, &hands, &p.rules, &config, model))
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

/// The log-likelihood of a sample's `hands` given what was `seen`, under the `ddzlib` model
/// at `config`'s temperature.
pub(super) fn read_sample(
    seen: &Observations,
    hands: &BySeat<Cards>,
    rules: &Rules,
    config: &SearchConfig,
    model: &mut DdzlibBot,
) -> f64 {
    seen.log_likelihood(hands, rules, config.temperature, model)
}
