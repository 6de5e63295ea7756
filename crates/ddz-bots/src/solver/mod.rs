//! An exact solver for open-hand positions (明牌残局): every hand known, who wins with best
//! play, every winning move, and a principal line.
//!
//! # What it solves
//!
//! A [`Position`] is either
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
//! use ddz_bots::solver::{Position, Solver};
//! use ddz_core::{Rules, move_notation};
//! use ddz_game::Seat;
//!
//! let rules = Rules::classic();
//! // A duel: 2 Q Q T T 7 7 5 5 3 to move against A A 9. The first player loses.
//! let hands = ["2QQTT77553".parse().unwrap(), "AA9".parse().unwrap()];
//! let position = Position::duel(hands, Seat::ALL[0], None, &rules).unwrap();
//! let mut solver = Solver::new(&rules);
//! let outcome = solver.solve(&position).unwrap();
//! assert!(!outcome.to_move_wins);
//! assert!(outcome.winning_moves.is_empty());
//! // The line ends with seat 1 playing its last cards.
//! assert_eq!(outcome.line.last().unwrap().0, Seat::ALL[1]);
//!
//! // Against A 9 alone, leading the 3 wins (among other moves).
//! let hands = ["2QQTT77553".parse().unwrap(), "A9".parse().unwrap()];
//! let position = Position::duel(hands, Seat::ALL[0], None, &rules).unwrap();
//! let outcome = solver.solve(&position).unwrap();
//! assert!(outcome.to_move_wins);
//! assert!(outcome.winning_moves.iter().any(|m| move_notation(m, &rules) == "3"));
//! ```

use core::fmt;
use core::ops::ControlFlow;

use ddz_core::{Cards, Kind, Move, Rank, Readings, Rules, for_each_legal_move, is_legal};
use ddz_game::{Game, Phase, Seat};

/// What is wrong with a position: the error of [`Position::three`], [`Position::duel`],
/// [`Position::from_game`] and [`Position::after`].
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum PositionError {
    /// A seat given is not a seat of the position (a duel has seats 0 and 1 only).
    NoSuchSeat {
        /// What the seat was given for: `turn`, `last play` or `landlord`.
        what: &'static str,
        /// The seat.
        seat: Seat,
    },
    /// A hand holds no cards: the game is already over.
    EmptyHand {
        /// The seat with no cards.
        seat: Seat,
    },
    /// The hands and the table's play together hold more cards of a rank than one deck.
    TooManyCards {
        /// The rank.
        rank: Rank,
        /// How many cards of it the hands and the table's play hold.
        count: u8,
    },
    /// The table's play is a pass: give the last play that is not a pass, or none.
    LastIsPass,
    /// The table's play is not a combination (a reading its cards have) under the rules.
    NotACombination {
        /// The play.
        play: Move,
    },
    /// The table's play was made by the seat to move: that seat would lead a new trick
    /// instead (give no last play).
    LastBySeatToMove {
        /// The seat.
        seat: Seat,
    },
    /// The game is not in its play phase (bidding, or over).
    NotPlaying,
    /// [`Position::after`]: the move is not legal for the seat to move.
    IllegalMove {
        /// The move.
        play: Move,
    },
}

impl fmt::Display for PositionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PositionError::NoSuchSeat { what, seat } => {
                write!(
                    f,
                    "{what}: seat {seat} is not a seat here (a duel has seats 0 and 1)"
                )
            }
            PositionError::EmptyHand { seat } => {
                write!(f, "seat {seat} holds no cards: the game is already over")
            }
            PositionError::TooManyCards { rank, count } => write!(
                f,
                "the hands and the last play hold {count} cards of {rank}; one deck has {}",
                rank.deck_count()
            ),
            PositionError::LastIsPass => {
                f.write_str("the last play is a pass: give the last play that is not a pass")
            }
            PositionError::NotACombination { play } => {
                write!(
                    f,
                    "the last play {play} is not a combination under these rules"
                )
            }
            PositionError::LastBySeatToMove { seat } => write!(
                f,
                "the last play was made by seat {seat}, the seat to move: it would lead instead"
            ),
            PositionError::NotPlaying => f.write_str("the game is not in its play phase"),
            PositionError::IllegalMove { play } => {
                write!(f, "{play} is not a legal move for the seat to move")
            }
        }
    }
}

impl std::error::Error for PositionError {}

/// An open-hand position: every hand, the teams, the seat to move and the play on the table.
///
/// Built by [`Position::three`], [`Position::duel`] or [`Position::from_game`], which check
/// it (see [`PositionError`]); a `Position` is always playable: every hand holds cards and
/// the table's play can be beaten or passed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Position {
    /// The hands by seat index (seat 2 empty in a duel).
    hands: [Cards; 3],
    /// 2 (a duel) or 3.
    seats: u8,
    /// The landlord's seat index (three seats only; 0 in a duel, unused).
    landlord: u8,
    /// The seat to move.
    turn: u8,
    /// The table's play and who made it.
    last: Option<(u8, Move)>,
}

/// What a move leads to: the next position, or the end of the game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum After {
    /// The game goes on.
    Next(Position),
    /// The seat that moved emptied its hand: its side wins.
    Over {
        /// The seat that went out.
        winner: Seat,
    },
}

impl Position {
    /// A three-seat position: `hands` by seat, the `landlord`'s seat, the seat to move and
    /// the table's play with the seat that made it (`None` when `turn` leads). The passes
    /// since the table's play follow from the seats: none when it was made by the seat just
    /// before `turn`, one when by the seat after `turn`.
    ///
    /// Checks that every hand holds cards, that the hands and the table's play fit in one
    /// deck, and that the table's play is a combination under `rules` made by another seat.
    pub fn three(
        hands: [Cards; 3],
        landlord: Seat,
        turn: Seat,
        last: Option<(Seat, Move)>,
        rules: &Rules,
    ) -> Result<Position, PositionError> {
        Position::build(hands, 3, landlord.index() as u8, turn, last, rules)
    }

    /// A duel (two seats, seats 0 and 1): `hands` by seat, the seat to move, and the table's
    /// play with the seat that made it (the other seat; `None` when `turn` leads). One pass
    /// ends a trick.
    ///
    /// Checks as [`Position::three`] does, and that every seat given is 0 or 1.
    pub fn duel(
        hands: [Cards; 2],
        turn: Seat,
        last: Option<(Seat, Move)>,
        rules: &Rules,
    ) -> Result<Position, PositionError> {
        let hands = [hands[0], hands[1], Cards::EMPTY];
        Position::build(hands, 2, 0, turn, last, rules)
    }

    /// The position of a game in its play phase (three seats, the game's landlord, hands, seat
    /// to move and play to beat). Check it under the game's rules ([`Game::rules`]).
    pub fn from_game(game: &Game) -> Result<Position, PositionError> {
        let (Phase::Playing, Some(landlord)) = (game.phase(), game.landlord()) else {
            return Err(PositionError::NotPlaying);
        };
        let hands = Seat::ALL.map(|s| game.hand(s));
        Position::three(hands, landlord, game.turn(), game.last(), &game.rules())
    }

    fn build(
        hands: [Cards; 3],
        seats: u8,
        landlord: u8,
        turn: Seat,
        last: Option<(Seat, Move)>,
        rules: &Rules,
    ) -> Result<Position, PositionError> {
        let seat_ok = |s: Seat| s.index() < seats as usize;
        if !seat_ok(turn) {
            return Err(PositionError::NoSuchSeat {
                what: "turn",
                seat: turn,
            });
        }
        if let Some((seat, _)) = last
            && !seat_ok(seat)
        {
            return Err(PositionError::NoSuchSeat {
                what: "last play",
                seat,
            });
        }
        for seat in &Seat::ALL[..seats as usize] {
            if hands[seat.index()].is_empty() {
                return Err(PositionError::EmptyHand { seat: *seat });
            }
        }
        // Count in plain integers: packed counts would wrap past 15.
        let mut counts = [0u8; 15];
        let table = last.map_or(Cards::EMPTY, |(_, m)| m.cards());
        for c in hands.iter().chain([&table]) {
            for (total, n) in counts.iter_mut().zip(c.counts()) {
                *total = total.saturating_add(n);
            }
        }
        for rank in Rank::ALL {
            let count = counts[rank.index()];
            if count > rank.deck_count() {
                return Err(PositionError::TooManyCards { rank, count });
            }
        }
        if let Some((seat, play)) = last {
            if play.is_pass() {
                return Err(PositionError::LastIsPass);
            }
            if !is_legal(play.cards(), None, &play, rules) {
                return Err(PositionError::NotACombination { play });
            }
            if seat == turn {
                return Err(PositionError::LastBySeatToMove { seat });
            }
        }
        Ok(Position {
            hands,
            seats,
            landlord,
            turn: turn.index() as u8,
            last: last.map(|(s, m)| (s.index() as u8, m)),
        })
    }

    /// True for a duel (two seats), false for three seats.
    pub fn is_duel(&self) -> bool {
        self.seats == 2
    }

    /// The seats in play: 0 and 1 in a duel, 0, 1 and 2 otherwise.
    pub fn seats(&self) -> &'static [Seat] {
        &Seat::ALL[..self.seats as usize]
    }

    /// The hand of `seat` (empty for seat 2 of a duel).
    pub fn hand(&self, seat: Seat) -> Cards {
        self.hands[seat.index()]
    }

    /// The landlord's seat; `None` in a duel.
    pub fn landlord(&self) -> Option<Seat> {
        (self.seats == 3).then(|| seat(self.landlord))
    }

    /// The seat to move.
    pub fn turn(&self) -> Seat {
        seat(self.turn)
    }

    /// The play to beat and the seat that made it; `None` when the seat to move leads.
    pub fn last(&self) -> Option<(Seat, Move)> {
        self.last.map(|(s, m)| (seat(s), m))
    }

    /// Passes since the table's play (0 in a duel, 0 or 1 with three seats).
    pub fn passes(&self) -> u8 {
        match self.last {
            None => 0,
            Some((s, _)) => (self.turn + self.seats - s - 1) % self.seats,
        }
    }

    /// True if `a` and `b` play on the same side (the same seat in a duel; both farmers, or
    /// both the landlord, with three seats).
    pub fn same_side(&self, a: Seat, b: Seat) -> bool {
        same_side(self.seats, self.landlord, a.index() as u8, b.index() as u8)
    }

    /// The legal moves of the seat to move, in [`for_each_legal_move`]'s order (the pass last
    /// when following).
    pub fn legal_moves(&self, rules: &Rules) -> Vec<Move> {
        ddz_core::legal_moves(
            self.hands[self.turn as usize],
            self.last.map(|(_, m)| m).as_ref(),
            rules,
        )
    }

    /// The position after the seat to move plays `play` (a pass included), or the end of the
    /// game if it empties its hand; an error if `play` is not legal there.
    pub fn after(&self, play: &Move, rules: &Rules) -> Result<After, PositionError> {
        let hand = self.hands[self.turn as usize];
        let table = self.last.map(|(_, m)| m);
        if !is_legal(hand, table.as_ref(), play, rules) {
            return Err(PositionError::IllegalMove { play: *play });
        }
        if play.cards() == hand {
            return Ok(After::Over {
                winner: self.turn(),
            });
        }
        let state = State::of(self).child(play, self.seats);
        Ok(After::Next(Position {
            hands: state.hands,
            seats: self.seats,
            landlord: self.landlord,
            turn: state.turn,
            last: (!state.last.is_pass()).then(|| {
                let by = (state.turn + 2 * self.seats - 1 - state.passes) % self.seats;
                (by, state.last)
            }),
        }))
    }
}

/// The seat of index `i` (0..=2).
fn seat(i: u8) -> Seat {
    Seat::ALL[i as usize % 3]
}

/// Same side: the same seat in a duel, the same role with three seats.
#[inline]
fn same_side(seats: u8, landlord: u8, a: u8, b: u8) -> bool {
    if seats == 2 {
        a == b
    } else {
        (a == landlord) == (b == landlord)
    }
}

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
    pub winning_moves: Vec<Move>,
    /// A principal variation: each seat's move in turn, passes included, until a seat empties
    /// its hand; that seat's side is the winner. The winning side always plays a winning move
    /// (the first in the search's order); the losing side plays its first move in that order.
    pub line: Vec<(Seat, Move)>,
    /// Nodes searched by the call.
    pub nodes: u64,
}

/// The search state of a node: hands, seat to move, table's play (the pass when leading)
/// and passes since it.
#[derive(Clone, Copy, Debug)]
struct State {
    hands: [Cards; 3],
    turn: u8,
    last: Move,
    passes: u8,
}

impl State {
    fn of(p: &Position) -> State {
        State {
            hands: p.hands,
            turn: p.turn,
            last: p.last.map_or(Move::PASS, |(_, m)| m),
            passes: p.passes(),
        }
    }

    /// The state after the seat to move plays `m` (which must not empty its hand).
    #[inline]
    fn child(&self, m: &Move, seats: u8) -> State {
        let next = if self.turn + 1 == seats {
            0
        } else {
            self.turn + 1
        };
        if m.is_pass() {
            if self.passes + 2 == seats {
                // Every other seat passed: the table's player leads.
                State {
                    turn: next,
                    last: Move::PASS,
                    passes: 0,
                    ..*self
                }
            } else {
                State {
                    turn: next,
                    passes: self.passes + 1,
                    ..*self
                }
            }
        } else {
            let mut hands = self.hands;
            hands[self.turn as usize] = hands[self.turn as usize].minus(m.cards());
            State {
                hands,
                turn: next,
                last: *m,
                passes: 0,
            }
        }
    }
}

/// Bits of the last key word that hold the key (the rest hold the entry's data).
const KEY_BITS: u64 = (1 << 48) - 1;
/// Entry flags in the last key word.
const OCCUPIED: u64 = 1 << 63;
const WIN: u64 = 1 << 62;
const WORK_SHIFT: u32 = 48;

/// The transposition table: buckets of two entries, each entry the whole key (four words)
/// with the result and the size of the search that proved it in the spare bits of the last.
/// It starts small and doubles while more than half its entries are in use, up to its most
/// entries; then proven results displace others (the smaller search first).
#[derive(Clone, Debug)]
struct Table {
    slots: Vec<[u64; 4]>,
    mask: usize,
    /// Entries in use.
    used: usize,
    /// The most entries the table may grow to.
    max_len: usize,
}

/// Entries a table starts with.
const FIRST_TABLE_BITS: u32 = 10;

impl Table {
    fn new(max_bits: u32) -> Table {
        let n = 1usize << FIRST_TABLE_BITS.min(max_bits);
        Table {
            slots: vec![[0u64; 4]; n],
            mask: (n - 1) & !1,
            used: 0,
            max_len: 1 << max_bits,
        }
    }

    #[inline]
    fn index(key: &[u64; 4]) -> usize {
        let mut h = key[3].wrapping_mul(0x9E37_79B9_7F4A_7C15);
        h = (h ^ key[0]).wrapping_mul(0xC2B2_AE3D_27D4_EB4F);
        h = (h.rotate_left(29) ^ key[1]).wrapping_mul(0x1656_67B1_9E37_79F9);
        h = (h.rotate_left(31) ^ key[2]).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        (h ^ (h >> 32)) as usize
    }

    #[inline]
    fn matches(slot: &[u64; 4], key: &[u64; 4]) -> bool {
        slot[3] & OCCUPIED != 0
            && slot[3] & KEY_BITS == key[3]
            && slot[0] == key[0]
            && slot[1] == key[1]
            && slot[2] == key[2]
    }

    #[inline]
    fn probe(&self, key: &[u64; 4]) -> Option<bool> {
        let i = Table::index(key) & self.mask;
        for slot in &self.slots[i..i + 2] {
            if Table::matches(slot, key) {
                return Some(slot[3] & WIN != 0);
            }
        }
        None
    }

    #[inline]
    fn store(&mut self, key: &[u64; 4], win: bool, work: u64) {
        let work = (64 - work.leading_zeros()) as u64;
        let entry = [
            key[0],
            key[1],
            key[2],
            key[3] | OCCUPIED | if win { WIN } else { 0 } | work << WORK_SHIFT,
        ];
        self.put(entry);
        if self.used * 2 > self.slots.len() && self.slots.len() < self.max_len {
            self.grow();
        }
    }

    /// Stores a whole entry: the bigger search goes to the first entry of its bucket (the one
    /// there moves to the second), a smaller one to the second.
    #[inline]
    fn put(&mut self, entry: [u64; 4]) {
        let key = [entry[0], entry[1], entry[2], entry[3] & KEY_BITS];
        let i = Table::index(&key) & self.mask;
        let work = (entry[3] >> WORK_SHIFT) & 0x3F;
        let [first, second] = [self.slots[i], self.slots[i + 1]];
        if Table::matches(&first, &key) {
            self.slots[i] = entry;
        } else if Table::matches(&second, &key) {
            self.slots[i + 1] = entry;
        } else if first[3] & OCCUPIED == 0 {
            self.slots[i] = entry;
            self.used += 1;
        } else if work >= (first[3] >> WORK_SHIFT) & 0x3F {
            self.used += (second[3] & OCCUPIED == 0) as usize;
            self.slots[i + 1] = first;
            self.slots[i] = entry;
        } else {
            self.used += (second[3] & OCCUPIED == 0) as usize;
            self.slots[i + 1] = entry;
        }
    }

    /// Doubles the table, keeping every entry.
    fn grow(&mut self) {
        let n = self.slots.len() * 2;
        let old = std::mem::replace(&mut self.slots, vec![[0u64; 4]; n]);
        self.mask = (n - 1) & !1;
        self.used = 0;
        for entry in old {
            if entry[3] & OCCUPIED != 0 {
                self.put(entry);
            }
        }
    }

    fn clear(&mut self) {
        self.slots.fill([0; 4]);
        self.used = 0;
    }

    /// Bytes held.
    fn bytes(&self) -> usize {
        self.slots.len() * 32
    }
}

/// The exact open-hand solver: a table of proven positions, a node budget and reused move
/// buffers. Make one per rule set and reuse it: the table carries over from call to call.
///
/// ```
/// use ddz_bots::solver::{Position, Solver};
/// use ddz_core::{Rules, parse_move};
/// use ddz_game::Seat;
///
/// let rules = Rules::classic();
/// let [s0, s1, s2] = Seat::ALL;
/// // The landlord (seat 0) holds 33 and a 4; the farmers hold K and 5. The landlord leads
/// // 33 (nobody holds a pair to beat it), then its 4.
/// let hands = ["334".parse().unwrap(), "K".parse().unwrap(), "5".parse().unwrap()];
/// let position = Position::three(hands, s0, s0, None, &rules).unwrap();
/// let mut solver = Solver::new(&rules).with_node_limit(100_000);
/// let outcome = solver.solve(&position).unwrap();
/// assert!(outcome.to_move_wins);
/// assert_eq!(outcome.winning_moves, [parse_move("33", &rules, None).unwrap()]);
///
/// // With the farmers to move after the landlord's 4, the K takes the trick and wins.
/// let four = parse_move("4", &rules, None).unwrap();
/// let hands = ["33".parse().unwrap(), "K".parse().unwrap(), "5".parse().unwrap()];
/// let position = Position::three(hands, s0, s1, Some((s0, four)), &rules).unwrap();
/// assert!(solver.wins(&position).unwrap());
/// # let _ = s2;
/// ```
#[derive(Clone, Debug)]
pub struct Solver {
    rules: Rules,
    table: Table,
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
            table: Table::new(DEFAULT_TABLE_BITS),
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
        self.table = Table::new(bits.clamp(4, 28));
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
    pub fn wins(&mut self, position: &Position) -> Result<bool, Exceeded> {
        self.start(position);
        let result = self.search(&State::of(position));
        self.moves.clear();
        result.map_err(|_| Exceeded { nodes: self.nodes })
    }

    /// Does `play` win for the side to move of `position`? `false` if it is not legal there.
    /// A robot asks this of each candidate move.
    pub fn move_wins(&mut self, position: &Position, play: &Move) -> Result<bool, Exceeded> {
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
    pub fn solve(&mut self, position: &Position) -> Result<Outcome, Exceeded> {
        self.start(position);
        let result = self.solve_inner(position);
        self.moves.clear();
        result.map_err(|_| Exceeded { nodes: self.nodes })
    }

    fn solve_inner(&mut self, position: &Position) -> Result<Outcome, Stop> {
        let root = State::of(position);
        let moves = position.legal_moves(&self.rules);
        // Search the first moves in the search's order, report them in generation order.
        let mut order: Vec<usize> = (0..moves.len()).collect();
        let hand = root.hands[root.turn as usize];
        order.sort_by_key(|&i| order_key(&moves[i], hand));
        let mut wins = vec![false; moves.len()];
        for &i in &order {
            wins[i] = self.move_value(&root, &moves[i])?;
        }
        let winning_moves: Vec<Move> = moves
            .iter()
            .zip(&wins)
            .filter(|(_, w)| **w)
            .map(|(m, _)| *m)
            .collect();
        let line = self.principal_line(root)?;
        Ok(Outcome {
            to_move_wins: !winning_moves.is_empty(),
            winning_moves,
            line,
            nodes: self.nodes,
        })
    }

    /// The principal line from `state`: the winner's first winning move at each of its turns,
    /// the loser's first move in the search order.
    fn principal_line(&mut self, mut state: State) -> Result<Vec<(Seat, Move)>, Stop> {
        let mut line = Vec::new();
        let mut moves = Vec::new();
        loop {
            let mover_wins = self.search(&state)?;
            let hand = state.hands[state.turn as usize];
            ddz_core::legal_moves_into(hand, Some(&state.last), &self.rules, &mut moves);
            moves.sort_by_key(|m| order_key(m, hand));
            let Some(&first) = moves.first() else {
                return Ok(line);
            };
            let mut chosen = first;
            if mover_wins {
                for m in &moves {
                    if self.move_value(&state, m)? {
                        chosen = *m;
                        break;
                    }
                }
            }
            line.push((seat(state.turn), chosen));
            if chosen.cards() == hand {
                return Ok(line);
            }
            state = state.child(&chosen, self.seats);
        }
    }

    fn start(&mut self, position: &Position) {
        self.nodes = 0;
        self.seats = position.seats;
        self.landlord = position.landlord;
        self.moves.clear();
    }

    /// Does move `m` (legal in `st`) win for the side to move?
    fn move_value(&mut self, st: &State, m: &Move) -> Result<bool, Stop> {
        if m.cards() == st.hands[st.turn as usize] {
            return Ok(true);
        }
        let child = st.child(m, self.seats);
        let v = self.search(&child)?;
        Ok(
            if same_side(self.seats, self.landlord, child.turn, st.turn) {
                v
            } else {
                !v
            },
        )
    }

    /// The table key of a state: the three hands, and the rest packed in one word.
    #[inline]
    fn key(&self, st: &State) -> [u64; 4] {
        let mut word = 0u64;
        let last = &st.last;
        if !last.is_pass() {
            let kind = last.kind();
            let main = if self.douzero && kind == Kind::AirplaneSingles {
                top_trio(last.cards())
            } else {
                last.main()
            };
            let class = last.class().map_or(0, |c| c as u64 + 1);
            word = kind as u64
                | (main as u64) << 8
                | (last.length() as u64) << 16
                | class << 24
                | (last.card_count() as u64) << 32;
        }
        word |= (st.turn as u64) << 40
            | (st.passes as u64) << 42
            | (self.landlord as u64) << 44
            | ((self.seats == 3) as u64) << 46;
        [
            st.hands[0].bits(),
            st.hands[1].bits(),
            st.hands[2].bits(),
            word,
        ]
    }

    /// Does the side to move win from `st`?
    fn search(&mut self, st: &State) -> Result<bool, Stop> {
        self.nodes += 1;
        if self.nodes > self.node_limit {
            return Err(Stop);
        }
        let key = self.key(st);
        if let Some(v) = self.table.probe(&key) {
            return Ok(v);
        }
        let before = self.nodes;
        let start = self.moves.len();
        let out = if self.generate(st) {
            true
        } else {
            let result = self.search_moves(st, start);
            if result.is_err() {
                self.moves.truncate(start);
            }
            result?
        };
        self.moves.truncate(start);
        self.table.store(&key, out, self.nodes - before + 1);
        Ok(out)
    }

    /// Pushes the moves of the seat to move in `st`, ordered, onto the move stack; true
    /// instead (with nothing pushed) if one of them empties the hand.
    fn generate(&mut self, st: &State) -> bool {
        let hand = st.hands[st.turn as usize];
        let start = self.moves.len();
        let Solver { rules, moves, .. } = self;
        let found = for_each_legal_move(hand, Some(&st.last), rules, |m| {
            if m.cards() == hand {
                return ControlFlow::Break(());
            }
            moves.push((order_key(&m, hand), m));
            ControlFlow::Continue(())
        });
        if found.is_break() {
            moves.truncate(start);
            return true;
        }
        moves[start..].sort_unstable_by_key(|(k, _)| *k);
        false
    }

    /// Searches the moves `self.moves[start..]` of `st` in order: does one win?
    fn search_moves(&mut self, st: &State, start: usize) -> Result<bool, Stop> {
        let end = self.moves.len();
        // A child already proven won ends the node before any search.
        for i in start..end {
            let m = self.moves[i].1;
            let child = st.child(&m, self.seats);
            if let Some(v) = self.table.probe(&self.key(&child))
                && v == same_side(self.seats, self.landlord, child.turn, st.turn)
            {
                return Ok(true);
            }
        }
        for i in start..end {
            let m = self.moves[i].1;
            let child = st.child(&m, self.seats);
            let v = self.search(&child)?;
            if v == same_side(self.seats, self.landlord, child.turn, st.turn) {
                return Ok(true);
            }
        }
        Ok(false)
    }
}

/// The budget ran out (inside the search).
#[derive(Debug)]
struct Stop;

/// The search order of a move of `hand` (lower first): the pass last; then by the plays the
/// rest of the hand would need ([`plays_estimate`]), fewer first; bombs and the rocket after
/// the other moves; more cards first; then the lower main rank.
#[inline]
fn order_key(m: &Move, hand: Cards) -> u64 {
    if m.is_pass() {
        return u64::MAX;
    }
    let rest = plays_estimate(hand.minus(m.cards())) as u64;
    let bomb = m.kind().is_bomb_like() as u64;
    rest << 44 | bomb << 40 | (32 - m.card_count() as u64) << 12 | m.main() as u64
}

/// The top trio of a set of cards, as DouZero compares airplanes with singles by it: the
/// highest rank held exactly three times.
fn top_trio(cards: Cards) -> Rank {
    let threes = cards.mask_at_least(3) & !cards.mask_at_least(4);
    if threes == 0 {
        return Rank::Three;
    }
    Rank::ALL[(15 - threes.leading_zeros() as usize).min(14)]
}

/// A quick estimate of the plays needed to empty `hand`, for the move order only: one per
/// rank held, less one per trio that can carry a single or a pair, less one for the rocket.
#[inline]
fn plays_estimate(hand: Cards) -> u32 {
    let ranks = hand.rank_mask();
    let at3 = hand.mask_at_least(3);
    let at4 = hand.mask_at_least(4);
    let trios = (at3 & !at4).count_ones();
    let small = (ranks & !at3).count_ones();
    let rocket = (ranks & 0x6000 == 0x6000) as u32;
    ranks.count_ones() - trios.min(small) - rocket
}
