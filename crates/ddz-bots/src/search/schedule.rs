//! Scheduling the budget: sequential halving over the candidates in rounds, batches of samples over the threads.

use super::config::*;
use super::playout::*;
use super::sample::*;
use super::tempering::*;
use super::tuning::*;
use crate::net::Net;
use crate::solver::{OpenPosition as SolverPosition, Solver};
use ddz_core::{Move, Rules};
use ddz_game::{Budget, derive_seed};
use std::sync::Arc;
use std::time::Instant;

/// The work a whole playout by `net` counts for in a `Count` budget: [`NET_PLAYOUT_WORK`] in
/// proportion to its parameters (rounded, at least 1), which a playout's cost follows: the
/// shipped playout network ([`Net::small`]), 35% of `net-classic`'s, costs 35% as much
/// (BENCHMARKS.md) and counts 6.
pub(super) fn net_playout_work(net: &Net) -> u64 {
    let parameters = net.mlp().parameters() as u64;
    ((NET_PLAYOUT_WORK * parameters + NET_PLAYOUT_WORK_PARAMETERS / 2)
        / NET_PLAYOUT_WORK_PARAMETERS)
        .max(1)
}

/// How sequential halving shares the budget among its rounds: the rounds by `ddzlib` playouts
/// equally, and with [`SearchConfig::final_net`] the last rounds, by the network's playouts,
/// equally among them, [`SearchConfig::final_share`] of the budget in all.
pub(super) struct Rounds {
    /// Rounds from the first one on that play by the network.
    pub(super) net_from: u32,
    /// Each round's share of the budget, first to last.
    pub(super) shares: Vec<f64>,
}

impl Rounds {
    /// Round `round`'s share of a budget of `n` playouts.
    pub(super) fn count_share(&self, n: u64, round: u32) -> u64 {
        if self.net_from as usize >= self.shares.len() {
            // Every round by `ddzlib`: equal integer shares.
            n / self.shares.len().max(1) as u64
        } else {
            let share = self.shares.get(round as usize).copied().unwrap_or(1.0);
            (n as f64 * share) as u64
        }
    }

    /// The rounds of a search among `candidates` candidates under `config` and `rules`.
    pub(super) fn of(candidates: usize, config: &SearchConfig, rules: &Rules) -> Rounds {
        let final_net = config.final_net_for(rules);
        // How many candidates each round starts with.
        let mut alive = Vec::new();
        let mut k = candidates.max(2);
        while k > 1 {
            alive.push(k);
            k = k.div_ceil(2);
        }
        let by_net = alive
            .iter()
            .filter(|&&k| final_net >= 2 && k <= final_net)
            .count();
        let by_ddzlib = alive.len() - by_net;
        let net_share = match (by_ddzlib, by_net) {
            (_, 0) => 0.0,
            (0, _) => 1.0,
            _ => config.final_share,
        };
        let shares = alive
            .iter()
            .enumerate()
            .map(|(i, _)| {
                if i < by_ddzlib {
                    (1.0 - net_share) / by_ddzlib as f64
                } else {
                    net_share / by_net as f64
                }
            })
            .collect();
        Rounds {
            net_from: by_ddzlib as u32,
            shares,
        }
    }
}

/// Sequential halving over the candidates on shared samples: ⌈log2 K⌉ rounds share the budget
/// ([`Rounds`]); each round scores every candidate still in on new batches of samples until its
/// share is spent, then keeps the better half by weighted total (in the network's rounds, by the mean of its `ddzlib` and network playouts' mean worths). Returns
/// the best candidate.
pub(super) fn search(
    p: &Decision,
    candidates: &[Move],
    prior: &[f64],
    playout_net: Option<Arc<Net>>,
    config: SearchConfig,
    seed: u64,
) -> Move {
    let start = Instant::now();
    let budget = config.budget_for(&p.rules);
    // A time budget is a deadline: past it no sample starts and the halving ends with the
    // best candidate so far (with 8 wild cards one round's first batch took seconds: a
    // 100 ms search answered in 3.5 s, issue 50). A count of playouts has none: it is
    // deterministic.
    let deadline = match budget {
        Budget::Time(limit) => Some(start + limit),
        Budget::Count(_) => None,
    };
    let past = || deadline.is_some_and(|d| Instant::now() >= d);
    let net_work = playout_net
        .as_deref()
        .map_or(NET_PLAYOUT_WORK, net_playout_work);
    // One set of playout robots per thread, kept over the batches: their split memos fill up
    // with the sampled hands (a memo changes no decision, so the results do not depend on it).
    let mut players: Vec<Players> = (0..config.threads.clamp(1, BATCH as usize))
        .map(|_| Players::new(playout_net.as_ref()))
        .collect();
    let tempering = Tempering::of(p, config, seed, &mut players[0]);
    let mut alive: Vec<usize> = (0..candidates.len()).collect();
    // The weighted worths of the `ddzlib` playouts ([0]) and of the network's ([1]), and the
    // samples' total weights: every alive candidate has seen every sample of its kind so far.
    let mut totals = [vec![0f64; candidates.len()], vec![0f64; candidates.len()]];
    let mut weights = [0f64; 2];
    let rounds = Rounds::of(candidates.len(), &config, &p.rules);
    let mut sample: u32 = 0;
    let mut round = 0;
    // The share of the budget the rounds so far may take.
    let mut allowed = 0.0;
    while alive.len() > 1 {
        let by_net = round >= rounds.net_from && playout_net.is_some();
        let kind = usize::from(by_net);
        allowed += rounds.shares.get(round as usize).copied().unwrap_or(0.0);
        round += 1;
        let mut used: u64 = 0;
        let mut out_of_time;
        loop {
            let batch = Batch {
                alive: &alive,
                from: sample,
                tempering,
                by_net,
                deadline,
            };
            let (rows, work) = run_batch(p, candidates, &batch, config, seed, &mut players);
            // Summed in sample order, whatever the threads: the totals are the same bits.
            for row in rows {
                weights[kind] += row.weight;
                for (k, &c) in alive.iter().enumerate() {
                    totals[kind][c] += row.weight * row.worth[k];
                }
            }
            sample += BATCH;
            used += if by_net { work * net_work } else { work };
            let done = match budget {
                Budget::Count(n) => used >= rounds.count_share(n, round - 1),
                // Each round until the share of the time of the rounds so far is spent.
                Budget::Time(limit) => start.elapsed() >= limit.mul_f64(allowed.min(1.0)),
            };
            out_of_time = past();
            if done || out_of_time {
                break;
            }
        }
        // Every alive candidate has seen the same samples: compare mean worths (plus the
        // network's prior when asked; without it the order is the totals'), in the network's
        // rounds the mean of the two kinds of playouts' means.
        let mean = |kind: usize, c: usize| totals[kind][c] / weights[kind].max(f64::MIN_POSITIVE);
        let rank = |c: usize| match (prior.get(c), weights[1] > 0.0) {
            (None, false) => totals[0][c],
            (Some(prior), false) => mean(0, c) + prior,
            (prior, true) => {
                let ddzlib = if weights[0] > 0.0 {
                    mean(0, c)
                } else {
                    mean(1, c)
                };
                (ddzlib + mean(1, c)) / 2.0 + prior.copied().unwrap_or(0.0)
            }
        };
        alive.sort_by(|&a, &b| rank(b).total_cmp(&rank(a)).then(a.cmp(&b)));
        let keep = if out_of_time {
            1
        } else {
            alive.len().div_ceil(2)
        };
        alive.truncate(keep);
    }
    candidates[alive[0]]
}

/// What one batch scores: the candidates still in (indices), the first sample, the weighting.
pub(super) struct Batch<'a> {
    pub(super) alive: &'a [usize],
    pub(super) from: u32,
    pub(super) tempering: Option<Tempering>,
    /// Whether the playouts are the network's (the last rounds).
    pub(super) by_net: bool,
    /// When no more samples start (a time budget's end): each thread's first sample is
    /// always played, so that a batch is never empty.
    pub(super) deadline: Option<Instant>,
}

/// One sample's results: its weight and what each alive candidate was worth on it.
pub(super) struct Row {
    pub(super) weight: f64,
    pub(super) worth: Vec<f64>,
}

/// Scores each alive candidate on one batch of samples (from `from` on), the samples split
/// over the threads; returns a row a sample, in sample order, and the work done in playouts
/// (a solver call counts its nodes). Neither depends on the split.
pub(super) fn run_batch(
    p: &Decision,
    candidates: &[Move],
    batch: &Batch,
    config: SearchConfig,
    seed: u64,
    players: &mut [Players],
) -> (Vec<Row>, u64) {
    let Batch {
        alive,
        from,
        tempering,
        by_net,
        deadline,
    } = *batch;
    let samples: Vec<u32> = (from..from + BATCH).collect();
    let work = |part: &[u32], players: &mut Players| -> (Vec<Row>, u64) {
        let Players { seats, model, net } = players;
        let mut rows = Vec::with_capacity(part.len());
        let mut work = 0;
        for (i, &s) in part.iter().enumerate() {
            if i > 0 && deadline.is_some_and(|d| Instant::now() >= d) {
                break;
            }
            let sample_seed = derive_seed(seed, u64::from(s));
            let Some(hands) = deal(p, sample_seed) else {
                work += alive.len() as u64;
                continue;
            };
            let weight = match (&p.observations, tempering) {
                (Some(seen), Some(t)) => {
                    t.weight(read_sample(seen, &hands, &p.rules, &config, model))
                }
                _ => 1.0,
            };
            // A fresh solver for each sample: what it proves depends on the sample alone.
            let mut solver = (config.solve_cards > 0
                && hands.0.iter().map(|h| h.len()).sum::<u32>() <= config.solve_cards)
                .then(|| {
                    Solver::new(&p.rules)
                        .with_node_limit(config.solve_nodes)
                        .with_table_bits(18)
                });
            let mut worth = Vec::with_capacity(alive.len());
            for &c in alive {
                let exact = solver.as_mut().and_then(|solver| {
                    let position =
                        SolverPosition::three(hands.0, p.landlord, p.me, p.last, &p.rules).ok()?;
                    let won = solver.move_wins(&position, &candidates[c]);
                    work += 1 + solver.nodes() / NODES_PER_PLAYOUT;
                    won.ok()
                });
                worth.push(match exact {
                    Some(won) => {
                        if won {
                            1.0
                        } else {
                            -1.0
                        }
                    }
                    None => {
                        work += 1;
                        playout(
                            p,
                            hands,
                            candidates[c],
                            seats,
                            net.as_mut().filter(|_| by_net),
                        )
                    }
                });
            }
            rows.push(Row { weight, worth });
        }
        (rows, work)
    };
    let threads = players.len().clamp(1, samples.len());
    if threads == 1 {
        return work(&samples, &mut players[0]);
    }
    let chunk = samples.len().div_ceil(threads);
    let parts: Vec<(Vec<Row>, u64)> = std::thread::scope(|scope| {
        let handles: Vec<_> = samples
            .chunks(chunk)
            .zip(players.iter_mut())
            .map(|(part, players)| scope.spawn(move || work(part, players)))
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().unwrap_or_else(|_| (Vec::new(), 0)))
            .collect()
    });
    let mut rows = Vec::with_capacity(samples.len());
    let mut work = 0;
    for (part, w) in parts {
        work += w;
        rows.extend(part);
    }
    (rows, work)
}
