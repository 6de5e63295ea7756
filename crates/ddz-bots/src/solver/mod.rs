//! An exact solver for open-hand positions (明牌残局): every hand known, who wins with best
//! play, every winning move, and a principal line.
//!
//! # What it solves
//!
//! An [`OpenPosition`] is either
//!
//! - a **three-seat** position: the landlord against the two farmers as a team (a farmer's
//!   empty hand wins for both), with the seat to move and the play on the table: the last
//!   non-pass play of the trick and who made it. The number of passes since that play follows
//!   from the two seats: the play of the seat just before the mover has had no pass, the play
//!   of the seat after the mover (two seats back) has had one. As in RULES.md section 2, when
//!   the two other seats pass in a row the last player leads a new trick;
//! - a **duel** (two seats, the 残局 puzzles of RULES.md section 2): one pass ends the trick,
//!   so the player who made the last play leads again.
//!
//! [`Solver::solve`] answers whether the side to move wins with best play, lists every
//! winning first move, and gives a principal variation that ends with a winner's empty hand;
//! [`Solver::wins`] answers the first question alone, faster. Both are exact: no move is
//! ever left out, and nothing but proven results is stored. Wild cards (癞子) are included:
//! the moves are those of [`for_each_legal_move`], wild readings and bomb classes included.
//!
//! The best *score* (bombs and the rocket doubling the stake, spring) is **not** computed:
//! the solver answers win or loss only.
//!
//! # Method
//!
//! An AND/OR depth-first search (alpha-beta on a win/loss value): the side to move wins if
//! one of its moves wins; a move wins if the next seat is a teammate who wins, or an opponent
//! who loses. A node stops at its first winning move.
//!
//! - **Immediate wins**: a hand that is one legal move (leading, or beating the table) wins
//!   at once, found while the moves are generated, before anything is searched.
//! - **Move ordering**: the pass last; then the moves whose rest of the hand looks quickest to
//!   play out (a rough count of plays: one per rank held, less the trios that can carry a
//!   kicker and the rocket); bombs and the rocket after other moves; more cards first; the
//!   lower main rank first. Ordering never changes a result, only the time.
//! - **Transposition table**: every proven node is stored under its whole state: the hands,
//!   the seat to move, the passes since the table's play, the teams, and the table's play as
//!   far as beating it is concerned (its kind, main rank, length, card count and bomb class;
//!   under `douzero`'s airplanes with singles, the top trio it is compared by instead of the
//!   main rank). Two plays with the same such signature are beaten by exactly the same moves,
//!   so they lead to the same game. The whole key is stored, so a hash collision never gives a
//!   wrong answer. Before searching its moves, a node looks each child up (enhanced
//!   transposition cutoff): one already proven won ends the node.
//! - **Table size**: buckets of two entries (32 bytes each), one kept by the size of the
//!   search that proved it, one always replaced. The table starts at 2^10 entries and doubles
//!   while more than half full, up to 2^[`DEFAULT_TABLE_BITS`] entries (or
//!   [`Solver::with_table_bits`]); it is kept across calls, so a robot that solves many
//!   related positions reuses what it learnt.
//! - **Budget**: [`Solver::with_node_limit`] bounds the nodes of one call (a node is one
//!   position visited, table hits included); past it the call returns [`Exceeded`] (an
//!   unknown result), and every node it did prove stays in the table for the next call.
//!
//! Moves are generated into one reused buffer (a stack of the moves of every node on the
//! current path), so a search allocates nothing per node once the buffer has grown.
//!
//! # Limits
//!
//! The search is exponential in the cards left. Duels of 10 cards a hand and three-seat
//! positions of 7 cards a hand take about a millisecond at the median and up to about 100 ms
//! (BENCHMARKS.md); full 17- and 20-card hands are far out of reach of an exact search, which
//! is what the node budget is for. See docs/solver.md.
//!
//! ```
//! use ddz_bots::solver::{OpenPosition, Solver};
//! use ddz_core::{Rules, move_notation};
//! use ddz_game::Seat;
//!
//! let rules = Rules::classic();
//! // A duel: 2 Q Q T T 7 7 5 5 3 to move against A A 9. The first player loses.
//! let hands = ["2QQTT77553".parse().unwrap(), "AA9".parse().unwrap()];
//! let position = OpenPosition::duel(hands, Seat::ALL[0], None, &rules).unwrap();
//! let mut solver = Solver::new(&rules);
//! let outcome = solver.solve(&position).unwrap();
//! assert!(!outcome.to_move_wins);
//! assert!(outcome.winning_moves.is_empty());
//! // The line ends with seat 1 playing its last cards.
//! assert_eq!(outcome.line.last().unwrap().0, Seat::ALL[1]);
//!
//! // Against A 9 alone, leading the 3 wins (among other moves).
//! let hands = ["2QQTT77553".parse().unwrap(), "A9".parse().unwrap()];
//! let position = OpenPosition::duel(hands, Seat::ALL[0], None, &rules).unwrap();
//! let outcome = solver.solve(&position).unwrap();
//! assert!(outcome.to_move_wins);
//! assert!(outcome.winning_moves.iter().any(|m| move_notation(m, &rules) == "3"));
//! ```
//!
//! [`for_each_legal_move`]: ddz_core::for_each_legal_move

// Position checking, the AND/OR search and the transposition table; this file holds the
// public API.
mod position;
mod search;
mod transposition;

use core::fmt;

use ddz_core::{Move, Readings, Rules, is_legal};
use ddz_game::Seat;

pub use position::{After, OpenPosition, PositionError};

use position::State;
use transposition::TransTable;

/// The node budget of a call ran out before the position was solved: the result is unknown.
/// What was proven stays in the solver's table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Exceeded {
    /// The nodes searched before stopping.
    pub nodes: u64,
}

impl fmt::Display for Exceeded {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "the node budget ran out after {} nodes: unknown",
            self.nodes
        )
    }
}

impl std::error::Error for Exceeded {}

/// A solved position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Outcome {
    /// True if the side to move wins with best play.
    pub to_move_wins: bool,
    /// Every winning move of the seat to move (the pass included when it wins), in
    /// [`for_each_legal_move`]'s order; empty when the side to move loses.
    ///
    /// [`for_each_legal_move`]: ddz_core::for_each_legal_move
    pub winning_moves: Vec<Move>,
    /// A principal variation: each seat's move in turn, passes included, until a seat empties
    /// its hand; that seat's side is the winner. The winning side always plays a winning move
    /// (the first in the search's order); the losing side plays its first move in that order.
    pub line: Vec<(Seat, Move)>,
    /// Nodes searched by the call.
    pub nodes: u64,
}

/// The exact open-hand solver: a table of proven positions, a node budget and reused move
/// buffers. Make one per rule set and reuse it: the table carries over from call to call.
///
/// ```
/// use ddz_bots::solver::{OpenPosition, Solver};
/// use ddz_core::{Rules, parse_move};
/// use ddz_game::Seat;
///
/// let rules = Rules::classic();
/// let [s0, s1, s2] = Seat::ALL;
/// // The landlord (seat 0) holds 33 and a 4; the farmers hold K and 5. The landlord leads
/// // 33 (nobody holds a pair to beat it), then its 4.
/// let hands = ["334".parse().unwrap(), "K".parse().unwrap(), "5".parse().unwrap()];
/// let position = OpenPosition::three(hands, s0, s0, None, &rules).unwrap();
/// let mut solver = Solver::new(&rules).with_node_limit(100_000);
/// let outcome = solver.solve(&position).unwrap();
/// assert!(outcome.to_move_wins);
/// assert_eq!(outcome.winning_moves, [parse_move("33", &rules, None).unwrap()]);
///
/// // With the farmers to move after the landlord's 4, the K takes the trick and wins.
/// let four = parse_move("4", &rules, None).unwrap();
/// let hands = ["33".parse().unwrap(), "K".parse().unwrap(), "5".parse().unwrap()];
/// let position = OpenPosition::three(hands, s0, s1, Some((s0, four)), &rules).unwrap();
/// assert!(solver.wins(&position).unwrap());
/// # let _ = s2;
/// ```
#[derive(Clone, Debug)]
pub struct Solver {
    rules: Rules,
    table: TransTable,
    node_limit: u64,
    nodes: u64,
    /// The moves of every node on the current path, one after another, with their order keys.
    moves: Vec<(u64, Move)>,
    /// Per call: seats (2 or 3) and the landlord's seat.
    seats: u8,
    landlord: u8,
    /// Whether the key of the table's play needs DouZero's top trio.
    douzero: bool,
}

/// The most entries a table grows to by default: 2^22 entries of 32 bytes (128 MiB). A
/// table starts at 2^10 entries (32 KiB) and doubles as it fills.
pub const DEFAULT_TABLE_BITS: u32 = 22;

impl Solver {
    /// A solver for `rules` with no node limit and a table of at most 2^[`DEFAULT_TABLE_BITS`]
    /// entries (32 bytes each; it starts at 2^10 and doubles as it fills).
    pub fn new(rules: &Rules) -> Solver {
        Solver {
            rules: rules.clone(),
            table: TransTable::new(DEFAULT_TABLE_BITS),
            node_limit: u64::MAX,
            nodes: 0,
            moves: Vec::with_capacity(512),
            seats: 3,
            landlord: 0,
            douzero: rules.readings == Readings::Douzero,
        }
    }

    /// This solver with at most `nodes` nodes searched per call; past it a call returns
    /// [`Exceeded`].
    pub fn with_node_limit(mut self, nodes: u64) -> Solver {
        self.node_limit = nodes;
        self
    }

    /// This solver with a table of at most 2^`bits` entries (32 bytes each; `bits` is kept
    /// within 4..=28), empty.
    pub fn with_table_bits(mut self, bits: u32) -> Solver {
        self.table = TransTable::new(bits.clamp(4, 28));
        self
    }

    /// Sets the node limit of later calls (`None`: no limit).
    pub fn set_node_limit(&mut self, nodes: Option<u64>) {
        self.node_limit = nodes.unwrap_or(u64::MAX);
    }

    /// The rules the solver plays by.
    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    /// Nodes searched by the last call (the budget counts these).
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// Forgets every stored result (the table keeps its size).
    pub fn clear(&mut self) {
        self.table.clear();
    }

    /// Bytes held by the table now (it grows as it fills, up to its most entries).
    pub fn table_bytes(&self) -> usize {
        self.table.bytes()
    }

    /// Does the side to move win `position` with best play? The fastest question: it stops
    /// at the first winning move. `position` is played under the solver's rules (build it
    /// under the same rules).
    pub fn wins(&mut self, position: &OpenPosition) -> Result<bool, Exceeded> {
        self.start(position);
        let result = self.search(&State::of(position));
        self.moves.clear();
        result.map_err(|_| Exceeded { nodes: self.nodes })
    }

    /// Does `play` win for the side to move of `position`? `false` if it is not legal there.
    /// A robot asks this of each candidate move.
    pub fn move_wins(&mut self, position: &OpenPosition, play: &Move) -> Result<bool, Exceeded> {
        self.start(position);
        let hand = position.hands[position.turn as usize];
        if !is_legal(
            hand,
            position.last.map(|(_, m)| m).as_ref(),
            play,
            &self.rules,
        ) {
            return Ok(false);
        }
        let result = self.move_value(&State::of(position), play);
        self.moves.clear();
        result.map_err(|_| Exceeded { nodes: self.nodes })
    }

    /// Solves `position`: who wins, every winning first move, and a principal line. Every
    /// first move is searched, so this costs more than [`Solver::wins`].
    pub fn solve(&mut self, position: &OpenPosition) -> Result<Outcome, Exceeded> {
        self.start(position);
        let result = self.solve_inner(position);
        self.moves.clear();
        result.map_err(|_| Exceeded { nodes: self.nodes })
    }
}
