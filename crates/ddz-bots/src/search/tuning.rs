//! The search's tuning constants, each with the measurement that set it. They were options
//! once (`search:candidates=12`, ...); each sits on a plateau where the studies of
//! docs/strength-runs/ found no better value, and a user sets none of them. The options that
//! measured weaker or no better and were removed are listed in
//! docs/strength-runs/search-options-removed.md.

/// Most candidate moves searched (was `candidates`): 12 since the first generation; the
/// candidates past the twelfth by the seed robots' ladders are rarely the best
/// (docs/strength-runs/search-first-classic-500.md, search-2nd-gen.md).
pub const CANDIDATES: usize = 12;

/// Samples holding at most this many cards in all three hands are solved exactly (the
/// default of the `solve` option; docs/strength-runs/search-2nd-gen.md).
pub const SOLVE_CARDS: u32 = 16;

/// Node budget of one exact solve of a sample (was `nodes`); past it the sample is played
/// out (docs/strength-runs/search-2nd-gen.md).
pub const SOLVE_NODES: u64 = 5_000;

/// The inference weighs the samples by the other seats' bids too (was `ibid`; measured
/// stronger with it: docs/strength-runs/search-net-default-bid-inference-round4.md).
pub const INFER_BIDS: bool = true;

/// The inference model's temperature (was `temp`; 1.0 on the plateau of
/// docs/strength-runs/search-2nd-gen.md and search-ablation-win-budgets.md).
pub const TEMPERATURE: f64 = 1.0;

/// The effective sample size the tempered weights keep (was `ess`;
/// docs/strength-runs/search-2nd-gen.md, search-fnet3-and-sharp.md).
pub const ESS: f64 = 0.5;

/// The chance as landlord from which the robot bids (was `bid_at`;
/// docs/strength-runs/laizi-bidding-win-objective.md).
pub const BID_THRESHOLD: f64 = 0.5;

/// The network's best-scored plays added to the candidates (was `netc`;
/// docs/strength-runs/net-four-networks.md, fshare-fnet-equal-time.md).
pub const NET_CANDIDATES: usize = 4;

/// The weight of the network's score as a prior on each candidate (was `prior`;
/// docs/strength-runs/net-four-networks.md, fshare-fnet-equal-time.md).
pub const NET_PRIOR: f64 = 0.5;

/// The share of the budget the network's last rounds take (was `fshare`; no gain elsewhere
/// at equal time: docs/strength-runs/fshare-fnet-equal-time.md,
/// net-playouts-last-rounds-default.md).
pub const FINAL_SHARE: f64 = 0.5;

/// Samples dealt at a time: every alive candidate is scored on each, the work split over the
/// threads; the budget is looked at between batches, so the batch size (not the thread
/// count) decides how many samples a round takes.
pub(super) const BATCH: u32 = 4;

/// Solver nodes that count as one playout in the budget (a playout costs about as much as
/// this many nodes).
pub(super) const NODES_PER_PLAYOUT: u64 = 50;

/// Samples whose log-likelihoods set a decision's tempering ([`Tempering::of`]).
pub(super) const PILOT: u32 = 16;

/// The work a whole playout by `net-classic` (256-256-128 hidden units) counts for in a
/// `Count` budget: at the median it costs about seven `ddzlib` playouts (0.2 ms against
/// 28 µs, BENCHMARKS.md), more in the slow decisions (leads with many plays), and at 16 the
/// budget of the time kept its 99th percentile within 150 ms (at 8 it reached 148 ms).
/// Another network's playout counts in proportion to its parameters
/// ([`net_playout_work`]).
pub(super) const NET_PLAYOUT_WORK: u64 = 16;

/// `net-classic`'s parameters, the measure of [`NET_PLAYOUT_WORK`].
pub(super) const NET_PLAYOUT_WORK_PARAMETERS: u64 = 273_153;
