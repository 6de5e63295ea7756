//! The search's tuning constants, each with the measurement that set it.

/// Samples dealt at a time: every alive candidate is scored on each, the work split over the
/// threads; the budget is looked at between batches, so the batch size (not the thread
/// count) decides how many samples a round takes.
pub(super) const BATCH: u32 = 4;

/// The node budget of a playout's endgame solve (about 20 playouts' work).
pub(super) const ENDGAME_NODES: u64 = 1_000;

/// The size of the playouts' endgame solver's table (2^bits entries), emptied every sample.
pub(super) const ENDGAME_TABLE_BITS: u32 = 12;

/// Solver nodes that count as one playout in the budget (a playout costs about as much as
/// this many nodes).
pub(super) const NODES_PER_PLAYOUT: u64 = 50;

/// Samples whose log-likelihoods set a decision's tempering ([`Tempering::of`]).
pub(super) const PILOT: u32 = 16;

/// The fewest samples `popp=auto` reads the other seats from: the `ddzlib` rounds' samples,
/// topped up with samples of their own when they are fewer (at 64 a test reads `ddzlib`
/// players as such in two cases of three, at 256 in four of five).
pub const MIN_READINGS: u32 = 128;

/// The work a whole playout by `net-classic` (256-256-128 hidden units) counts for in a
/// `Count` budget: at the median it costs about seven `ddzlib` playouts (0.2 ms against
/// 28 µs, BENCHMARKS.md), more in the slow decisions (leads with many plays), and at 16 the
/// budget of the time kept its 99th percentile within 150 ms (at 8 it reached 148 ms).
/// Another network's playout counts in proportion to its parameters
/// ([`net_playout_work`]).
pub(super) const NET_PLAYOUT_WORK: u64 = 16;

/// `net-classic`'s parameters, the measure of [`NET_PLAYOUT_WORK`].
pub(super) const NET_PLAYOUT_WORK_PARAMETERS: u64 = 273_153;
