//! `ddz.TableEnv`: one game at a two- or four-seat table (docs/variants.md) from Python, the
//! game `ddz.Env("two")` and `ddz.Env("four")` give.
//!
//! The game is ddz-game's [`TableGame`] at 2 or 4 seats ([`Table`]); the environment keeps
//! the legal moves of the seat to act, its seed sequence (as `Env`'s), and writes a seat's
//! view ([`TableGame::view`]) into numpy arrays ([`TableEnv::observe`]).

use numpy::{PyArray1, PyArrayMethods};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyString};

use ddz_bots::table::{TABLE_ROBOTS, TableBot};
use ddz_core::{Bidding, Cards, Move, Rules, move_notation, parse_move};
use ddz_game::{ActionError, Bid, Phase, Role, Seat, Side, TableGame, TableRecord, derive_seed};

use crate::env_game::{Refused, phase_name};
use crate::illegal::{illegal, illegal_with_code};

/// Ranks a count vector has, in ddz's order: 3 4 5 6 7 8 9 T J Q K A 2, small and big joker.
pub const RANKS: usize = 15;

/// Width of the legal-bid mask of an observation (bids 0 to 3).
const BID_MASK: usize = 4;

/// A game at a table of two or four seats.
#[derive(Clone, Debug)]
pub enum Table {
    /// Two seats (`two`, 二人斗地主).
    Two(TableGame<2>),
    /// Four seats (`four`, 四人斗地主 with two decks).
    Four(TableGame<4>),
}

/// Runs `$body` with `$g` bound to the table's game, whatever its size.
macro_rules! on_table {
    ($table:expr, $g:ident => $body:expr) => {
        match $table {
            Table::Two($g) => $body,
            Table::Four($g) => $body,
        }
    };
}

impl Table {
    /// The game of `seed` under `rules` at their table (2 or 4 seats).
    pub fn new(rules: &Rules, seed: u64) -> Result<Table, String> {
        match rules.seats {
            2 => TableGame::<2>::new(rules, seed)
                .map(Table::Two)
                .map_err(|e| e.to_string()),
            4 => TableGame::<4>::new(rules, seed)
                .map(Table::Four)
                .map_err(|e| e.to_string()),
            n => Err(format!(
                "the rules seat {n} players: a TableEnv has 2 or 4 seats"
            )),
        }
    }

    /// Seats at the table.
    pub fn seats(&self) -> usize {
        match self {
            Table::Two(_) => 2,
            Table::Four(_) => 4,
        }
    }

    /// The rules in force.
    pub fn rules(&self) -> &Rules {
        on_table!(self, g => g.rules())
    }

    /// The phase: bidding, playing or over.
    pub fn phase(&self) -> Phase {
        on_table!(self, g => g.phase())
    }

    /// The seat to act, while the game is not over.
    pub fn turn(&self) -> Option<usize> {
        on_table!(self, g => (g.phase() != Phase::Over).then(|| g.turn().index()))
    }

    /// The landlord's seat, once decided.
    pub fn landlord(&self) -> Option<usize> {
        on_table!(self, g => g.landlord().map(Seat::index))
    }

    /// A seat's cards (`seat` below [`Table::seats`]).
    pub fn hand(&self, seat: usize) -> Cards {
        on_table!(self, g => g.hand(seat_of(g, seat)))
    }

    /// The legal moves of the seat to act (empty unless playing).
    pub fn legal_moves(&self) -> Vec<Move> {
        on_table!(self, g => g.legal_moves())
    }

    /// The bids the seat to act may make (empty unless bidding).
    pub fn legal_bids(&self) -> Vec<Bid> {
        on_table!(self, g => g.legal_bids())
    }

    /// The plays so far, `(seat, move)`, passes included.
    pub fn history(&self) -> Vec<(usize, Move)> {
        on_table!(self, g => g.history().iter().map(|&(s, m)| (s.index(), m)).collect())
    }

    /// The bids of the current deal, `(seat, bid)`.
    pub fn bids(&self) -> Vec<(usize, Bid)> {
        on_table!(self, g => g.bids().iter().map(|&(s, b)| (s.index(), b)).collect())
    }

    /// The play to beat and who made it, or `None` when the seat to act leads.
    pub fn last(&self) -> Option<(usize, Move)> {
        on_table!(self, g => g.last().map(|(s, m)| (s.index(), m)))
    }

    /// Cards left in each hand, by seat.
    pub fn cards_left(&self) -> Vec<u32> {
        on_table!(self, g => g.cards_left().0.to_vec())
    }

    /// The handicap under `two` (让牌): the farmer's seat and the cards it goes out at.
    pub fn handicap(&self) -> Option<(usize, u32)> {
        on_table!(self, g => g.handicap().map(|(s, r)| (s.index(), r)))
    }

    /// The kitty, once the landlord has it.
    pub fn kitty(&self) -> Option<Cards> {
        on_table!(self, g => g.landlord().map(|_| g.deal().kitty))
    }

    /// The role of `seat` once the landlord is decided.
    pub fn role(&self, seat: usize) -> Option<Role> {
        on_table!(self, g => role_of(g, seat))
    }

    /// A bid by the seat to act.
    pub fn bid(&mut self, bid: Bid) -> Result<(), ActionError> {
        on_table!(self, g => g.bid(g.turn(), bid))
    }

    /// A play by the seat to act, checked.
    pub fn play(&mut self, m: Move) -> Result<(), ActionError> {
        on_table!(self, g => g.play(g.turn(), m))
    }

    /// Takes back the last play.
    pub fn undo(&mut self) -> Result<(), ActionError> {
        on_table!(self, g => g.undo())
    }

    /// Each seat's points once the game is over (zero-sum).
    pub fn scores(&self) -> Option<Vec<i64>> {
        on_table!(self, g => g.result().map(|r| r.scores.0.to_vec()))
    }

    /// 1 for each seat of the winning side, 0 for the others, once the game is over.
    pub fn wins(&self) -> Option<Vec<u8>> {
        let landlord = self.landlord()?;
        let winner = on_table!(self, g => g.result().map(|r| r.winner))?;
        Some(
            (0..self.seats())
                .map(|s| u8::from((s == landlord) == (winner == Side::Landlord)))
                .collect(),
        )
    }

    /// The game's `ddz-table-record/1` JSON record.
    pub fn record(&self) -> String {
        on_table!(self, g => TableRecord::from_game(g).to_json())
    }

    /// The move notation of `m` under the table's rules.
    pub fn notation(&self, m: &Move) -> String {
        move_notation(m, self.rules())
    }
}

/// Seat `i` (below `N`) of `game`'s table.
fn seat_of<const N: usize>(_game: &TableGame<N>, i: usize) -> Seat {
    Seat::all::<N>()[i]
}

/// The role of `seat` in `game`, once the landlord is decided.
fn role_of<const N: usize>(game: &TableGame<N>, seat: usize) -> Option<Role> {
    let landlord = game.landlord()?;
    Some(Role::at::<N>(seat_of(game, seat), landlord))
}

/// The per-rank counts of `cards`, as int8.
fn counts(cards: Cards) -> [i8; RANKS] {
    cards.counts().map(|c| c as i8)
}

/// What a robot chose: a bid or a play.
enum Choice {
    Bid(Bid),
    Play(Move),
}

/// The choice of `bot` for the seat to act of `game`, whose legal moves are `moves`.
fn robot_choice<const N: usize>(
    game: &TableGame<N>,
    bot: &mut TableBot,
    moves: &[Move],
) -> Option<Choice> {
    match game.phase() {
        Phase::Bidding => Some(Choice::Bid(bot.bid(game, &game.legal_bids()))),
        Phase::Playing => {
            let turn = game.turn_view()?;
            Some(Choice::Play(bot.play(&turn, moves)))
        }
        _ => None,
    }
}

/// The observation of `seat` of `game` ([`TableEnv::observe`] documents it).
fn observation<'py, const N: usize>(
    py: Python<'py>,
    game: &TableGame<N>,
    seat: usize,
    moves: &[Move],
) -> PyResult<Bound<'py, PyDict>> {
    let s = Seat::all::<N>()[seat];
    let view = game.view(s);
    let turn = (game.phase() != Phase::Over).then(|| game.turn());
    let to_act = turn == Some(s);
    let one_hot = |at: Option<Seat>| {
        let mut v = vec![0i8; N];
        if let Some(at) = at {
            v[at.index()] = 1;
        }
        v
    };
    let played = view.played();
    let mut seen = view.hand();
    let mut played_rows = Vec::with_capacity(N * RANKS);
    for p in &played.0 {
        seen = seen.union(*p);
        played_rows.extend_from_slice(&counts(*p));
    }
    let unseen = game.rules().deck().saturating_minus(seen);
    let mut bids = vec![-1i8; N];
    for &(by, b) in view.bids() {
        bids[by.index()] = b as i8;
    }
    let mut handicap = vec![0i8; N];
    if let Some((farmer, r)) = view.handicap() {
        handicap[farmer.index()] = r as i8;
    }
    let last = view.last();
    let moves: &[Move] = if to_act { moves } else { &[] };
    let mut move_rows = Vec::with_capacity(moves.len() * RANKS);
    for m in moves {
        move_rows.extend_from_slice(&counts(m.cards()));
    }
    let mut bid_mask = vec![0i8; BID_MASK];
    if to_act && game.phase() == Phase::Bidding {
        for b in game.legal_bids() {
            if let Some(v) = bid_mask.get_mut(usize::from(b)) {
                *v = 1;
            }
        }
    }
    let cards_left: Vec<i8> = view.cards_left().0.iter().map(|&c| c as i8).collect();
    let d = PyDict::new(py);
    d.set_item("seat", seat)?;
    d.set_item("phase", phase_name(view.phase()))?;
    d.set_item("role", view.landlord().map(|l| Role::at::<N>(s, l).name()))?;
    d.set_item("hand", PyArray1::from_slice(py, &counts(view.hand())))?;
    d.set_item("unseen", PyArray1::from_slice(py, &counts(unseen)))?;
    d.set_item(
        "played",
        PyArray1::from_vec(py, played_rows).reshape([N, RANKS])?,
    )?;
    d.set_item("cards_left", PyArray1::from_vec(py, cards_left))?;
    d.set_item(
        "last_move",
        PyArray1::from_slice(py, &counts(last.map_or(Cards::EMPTY, |(_, m)| m.cards()))),
    )?;
    d.set_item(
        "last_seat",
        PyArray1::from_vec(py, one_hot(last.map(|(by, _)| by))),
    )?;
    d.set_item("landlord", PyArray1::from_vec(py, one_hot(view.landlord())))?;
    d.set_item("to_act", PyArray1::from_vec(py, one_hot(turn)))?;
    d.set_item(
        "kitty",
        PyArray1::from_slice(py, &counts(view.kitty().unwrap_or(Cards::EMPTY))),
    )?;
    d.set_item("bids", PyArray1::from_vec(py, bids))?;
    d.set_item("handicap", PyArray1::from_vec(py, handicap))?;
    let stake = [view.base(), view.multiplier()].map(|v| i32::try_from(v).unwrap_or(i32::MAX));
    d.set_item("stake", PyArray1::from_slice(py, &stake))?;
    d.set_item(
        "legal_moves",
        PyArray1::from_vec(py, move_rows).reshape([moves.len(), RANKS])?,
    )?;
    d.set_item("legal_bids", PyArray1::from_vec(py, bid_mask))?;
    Ok(d)
}

/// The rules of a table profile name (`two` or `four`), with a fixed landlord seat or another
/// bidding (`"points"`, `"call_rob"`) in place of the profile's.
fn table_rules(rules: &str, landlord: Option<i64>, bidding: Option<&str>) -> PyResult<Rules> {
    let mut r =
        Rules::from_profile_name(rules).map_err(|e| PyValueError::new_err(e.to_string()))?;
    if !matches!(r.seats, 2 | 4) {
        return Err(PyValueError::new_err(format!(
            "rules \"{rules}\": a TableEnv plays the two- and four-seat profiles two and four; \
             ddz.Env plays the three-seat {rules}"
        )));
    }
    crate::py_env::bidding_form(&mut r, landlord.is_some(), bidding)?;
    if let Some(seat) = landlord {
        r.landlord_seat = u8::try_from(seat)
            .ok()
            .filter(|&s| s < r.seats)
            .ok_or_else(|| {
                PyValueError::new_err(format!(
                    "landlord seat {seat}: {}",
                    seats_are(usize::from(r.seats))
                ))
            })?;
        r.bidding = Bidding::Fixed;
    }
    Ok(r)
}

/// `seats are 0 and 1` or `seats are 0, 1, 2 and 3`.
fn seats_are(n: usize) -> String {
    let all: Vec<String> = (0..n).map(|s| s.to_string()).collect();
    match all.split_last() {
        Some((last, rest)) if !rest.is_empty() => {
            format!("seats are {} and {last}", rest.join(", "))
        }
        _ => format!("the seat is {}", all.join("")),
    }
}

/// One game of two-player (`two`, 二人斗地主) or four-player (`four`, two decks) Dou Dizhu
/// (docs/variants.md), as `ddz.Env("two")` and `ddz.Env("four")` give it.
///
/// `TableEnv(rules="two", seed=0, landlord=None, bidding=None)`: `rules` is `two` or
/// `four`; `seed` seeds the sequence of deals as `Env`'s does; `landlord` fixes the
/// landlord's seat (no bidding); `bidding` (`"points"` or `"call_rob"`) replaces the
/// profile's bidding (`two` calls and robs, `four` bids points). Moves are written and read in
/// ddz's move notation (`"55"`, `"BBRR"`, `"88888888"`, `"pass"`, `"cards:kind:main"`); there
/// are no RLCard action ids at these tables.
#[pyclass(module = "ddz._ddz", name = "TableEnv")]
#[derive(Clone)]
pub struct TableEnv {
    table: Table,
    /// The legal moves of the seat to act, kept up to date after every action.
    moves: Vec<Move>,
    seed: u64,
    games: u64,
}

impl TableEnv {
    fn from_table(table: Table, seed: u64, games: u64) -> TableEnv {
        let moves = table.legal_moves();
        TableEnv {
            table,
            moves,
            seed,
            games,
        }
    }

    fn refresh(&mut self) {
        self.moves = self.table.legal_moves();
    }

    /// A seat argument, checked against the table.
    fn seat_arg(&self, seat: i64) -> PyResult<usize> {
        let n = self.table.seats();
        usize::try_from(seat)
            .ok()
            .filter(|&s| s < n)
            .ok_or_else(|| PyValueError::new_err(format!("seat {seat}: {}", seats_are(n))))
    }

    /// The seat named, or the seat to act.
    fn seat_or_turn(&self, seat: Option<i64>) -> PyResult<usize> {
        match seat {
            Some(s) => self.seat_arg(s),
            None => self
                .table
                .turn()
                .ok_or_else(|| PyValueError::new_err("the game is over: name the seat to observe")),
        }
    }

    /// Refuses a play outside the play phase, as ddz-game refuses it.
    fn require_playing(&self) -> PyResult<()> {
        match self.table.phase() {
            Phase::Playing => Ok(()),
            phase => Err(illegal(ActionError::in_phase(phase).into())),
        }
    }

    fn apply(&mut self, m: Move) -> PyResult<()> {
        self.table.play(m).map_err(|e| illegal(e.into()))?;
        self.refresh();
        Ok(())
    }

    /// The seed of a robot's draws at this position: the robot's seed, the game's, the
    /// redeals, and the bids and plays so far.
    fn robot_seed(&self, seed: u64) -> u64 {
        let (game_seed, redeals) = on_table!(&self.table, g => (g.seed(), g.redeals()));
        let at = (u64::from(redeals) << 40)
            | ((self.table.bids().len() as u64) << 20)
            | self.table.history().len() as u64;
        derive_seed(derive_seed(seed, game_seed), at)
    }
}

#[pymethods]
impl TableEnv {
    #[new]
    #[pyo3(signature = (rules = "two", seed = 0, landlord = None, bidding = None))]
    fn new(
        rules: &str,
        seed: u64,
        landlord: Option<i64>,
        bidding: Option<&str>,
    ) -> PyResult<TableEnv> {
        let r = table_rules(rules, landlord, bidding)?;
        let table = Table::new(&r, derive_seed(seed, 0)).map_err(PyValueError::new_err)?;
        Ok(TableEnv::from_table(table, seed, 1))
    }

    /// The robot names `robot_move` knows: `random`, `greedy`, `ddzlib`, `search` (options
    /// `search:worlds=N:moves=K`).
    #[staticmethod]
    fn robot_names() -> Vec<&'static str> {
        TABLE_ROBOTS.to_vec()
    }

    /// Starts a new game and returns the seat to act. Without `seed` the next game of the
    /// environment's seed sequence is dealt (as `Env.reset` deals it); with `seed`, the game
    /// of that seed.
    #[pyo3(signature = (seed = None))]
    fn reset(&mut self, seed: Option<u64>) -> PyResult<usize> {
        let seed = seed.unwrap_or_else(|| {
            self.games += 1;
            derive_seed(self.seed, self.games - 1)
        });
        self.table = Table::new(self.table.rules(), seed).map_err(PyValueError::new_err)?;
        self.refresh();
        Ok(on_table!(&self.table, g => g.turn().index()))
    }

    /// The rule profile's name (`two` or `four`).
    #[getter]
    fn rules(&self) -> &'static str {
        self.table.rules().profile.name()
    }

    /// Seats at the table (2 or 4).
    #[getter]
    fn num_seats(&self) -> usize {
        self.table.seats()
    }

    /// The seat to act, or `None` once the game is over.
    #[getter]
    fn seat(&self) -> Option<usize> {
        self.table.turn()
    }

    /// `"bidding"`, `"playing"` or `"over"`.
    #[getter]
    fn phase(&self) -> &'static str {
        phase_name(self.table.phase())
    }

    /// True once the game is over.
    #[getter]
    fn done(&self) -> bool {
        self.table.phase() == Phase::Over
    }

    /// The landlord's seat, once decided.
    #[getter]
    fn landlord(&self) -> Option<usize> {
        self.table.landlord()
    }

    /// The kitty (底牌: 3 cards under `two`, 8 under `four`), shown once the landlord is
    /// decided; `""` before.
    #[getter]
    fn kitty(&self) -> String {
        self.table
            .kitty()
            .map(|k| k.to_string())
            .unwrap_or_default()
    }

    /// The handicap under `two` (让牌) from the end of the bidding: `(farmer_seat, cards)`,
    /// the farmer winning once it holds `cards` (1 + robs) or fewer after one of its plays;
    /// `None` before, and under `four`.
    #[getter]
    fn handicap(&self) -> Option<(usize, u32)> {
        self.table.handicap()
    }

    /// The seat's role once the landlord is known: `landlord`, `landlord_down` (the seat
    /// after it; the farmer under `two`), `landlord_across` (four seats) or `landlord_up`.
    fn role(&self, seat: i64) -> PyResult<Option<&'static str>> {
        let s = self.seat_arg(seat)?;
        Ok(self.table.role(s).map(Role::name))
    }

    /// A seat's cards, rank letters ascending (`55567TTJQ2BB`).
    fn hand(&self, seat: i64) -> PyResult<String> {
        Ok(self.table.hand(self.seat_arg(seat)?).to_string())
    }

    /// Every hand, by seat (perfect information).
    fn hands(&self) -> Vec<String> {
        (0..self.table.seats())
            .map(|s| self.table.hand(s).to_string())
            .collect()
    }

    /// Cards left in each hand, by seat.
    fn cards_left(&self) -> Vec<u32> {
        self.table.cards_left()
    }

    /// The bids of the current deal as `(seat, bid)`, in order.
    fn bids(&self) -> Vec<(usize, u32)> {
        self.table
            .bids()
            .into_iter()
            .map(|(s, b)| (s, u32::from(b)))
            .collect()
    }

    /// Every play so far as `(seat, move)`, passes included.
    fn history(&self) -> Vec<(usize, String)> {
        self.table
            .history()
            .iter()
            .map(|(s, m)| (*s, self.table.notation(m)))
            .collect()
    }

    /// The play to beat and who made it, or `None` when the seat to act leads.
    fn last_move(&self) -> Option<(usize, String)> {
        self.table.last().map(|(s, m)| (s, self.table.notation(&m)))
    }

    /// The legal moves of the seat to act in move notation (`pass` last when following), in
    /// ddz's generation order: the order `step_index` and the `legal_moves` rows of `observe`
    /// use. Empty unless playing.
    fn legal_moves(&self) -> Vec<String> {
        self.moves.iter().map(|m| self.table.notation(m)).collect()
    }

    /// Number of legal moves of the seat to act.
    fn num_legal_moves(&self) -> usize {
        self.moves.len()
    }

    /// The bids the seat to act may make (empty unless bidding): points bidding 0 (pass) and
    /// every bid above the current one; call-and-rob 0 (decline) and 1 (call or rob).
    fn legal_bids(&self) -> Vec<u32> {
        self.table.legal_bids().into_iter().map(u32::from).collect()
    }

    /// A bid by the seat to act; returns the seat to act next (the landlord once the bidding
    /// is over). A bid that is not allowed raises `IllegalMoveError` and changes nothing.
    fn bid(&mut self, bid: i64) -> PyResult<usize> {
        let b = u8::try_from(bid).map_err(|_| {
            let allowed: Vec<String> = self.legal_bids().iter().map(u32::to_string).collect();
            illegal_with_code(
                format!(
                    "bid {bid} is not allowed now (allowed: {})",
                    allowed.join(", ")
                ),
                "bad_bid",
            )
        })?;
        self.table.bid(b).map_err(|e| illegal(e.into()))?;
        self.refresh();
        Ok(on_table!(&self.table, g => g.turn().index()))
    }

    /// Plays for the seat to act a move in notation (`"55"`, `"pass"`, `"BBRR"`,
    /// `"555666:airplane:6"`); plain cards take their default reading among those that beat
    /// the table. An illegal move raises `IllegalMoveError` and changes nothing. There are no
    /// RLCard action ids at these tables: an int raises `IllegalMoveError` (`step_index`
    /// plays a legal move by its index).
    fn step(&mut self, action: &Bound<'_, PyAny>) -> PyResult<()> {
        self.require_playing()?;
        if let Ok(text) = action.cast::<PyString>() {
            let text = text.to_cow()?;
            let rules = self.table.rules();
            let last = self.table.last().map(|(_, m)| m);
            let m = parse_move(&text, rules, last.as_ref()).map_err(|e| {
                illegal(Refused::Game(ActionError::Notation {
                    text: text.to_string(),
                    error: e.to_string(),
                }))
            })?;
            return self.apply(m);
        }
        if action.extract::<i64>().is_ok() {
            return Err(illegal(Refused::Choice(format!(
                "RLCard action ids exist under the rlcard profile only (these rules are {}); \
                 play a move string or a legal move index (step_index)",
                self.rules()
            ))));
        }
        Err(PyValueError::new_err(
            "an action is a move string (step_index takes a legal move's index)",
        ))
    }

    /// Plays the legal move at `index` of `legal_moves()`.
    fn step_index(&mut self, index: i64) -> PyResult<()> {
        self.require_playing()?;
        let m = usize::try_from(index)
            .ok()
            .and_then(|i| self.moves.get(i).copied())
            .ok_or_else(|| {
                illegal(Refused::Choice(format!(
                    "move index {index} is out of range: there are {} legal moves",
                    self.moves.len()
                )))
            })?;
        self.apply(m)
    }

    /// Takes back the last play (not bids).
    fn undo(&mut self) -> PyResult<()> {
        self.table.undo().map_err(|e| illegal(e.into()))?;
        self.refresh();
        Ok(())
    }

    /// The robot `name` (`random`, `greedy`, `ddzlib`, `search`, `search:worlds=N:moves=K`)
    /// chooses for the seat to act from that seat's view: a bid (int) while bidding, else a
    /// move string. With `play=True` (the default) the choice is made and the seat to act
    /// moves on; with `play=False` nothing changes. Its draws are seeded by `seed` and the
    /// position (the game, the bids and the plays so far), so the same position and seed give
    /// the same choice.
    #[pyo3(signature = (name = "ddzlib", seed = 0, play = true))]
    fn robot_move<'py>(
        &mut self,
        py: Python<'py>,
        name: &str,
        seed: u64,
        play: bool,
    ) -> PyResult<Bound<'py, PyAny>> {
        let robot = name.split_once(':').map_or(name, |(robot, _)| robot);
        if !TABLE_ROBOTS.contains(&robot) {
            return Err(PyValueError::new_err(format!(
                "robot \"{name}\": the robots at two and four seats are {} \
                 (search:worlds=N:moves=K)",
                TABLE_ROBOTS.join(", ")
            )));
        }
        let mut bot = TableBot::from_spec(name, self.robot_seed(seed))
            .map_err(|e| PyValueError::new_err(format!("robot \"{name}\": {e}")))?;
        let table = &self.table;
        let moves = &self.moves;
        let choice = py
            .detach(|| on_table!(table, g => robot_choice(g, &mut bot, moves)))
            .ok_or_else(|| PyValueError::new_err("the game is over: nothing to choose"))?;
        match choice {
            Choice::Bid(b) => {
                if play {
                    self.bid(i64::from(b))?;
                }
                Ok(b.into_pyobject(py)?.into_any())
            }
            Choice::Play(m) => {
                let text = self.table.notation(&m);
                if play {
                    self.apply(m)?;
                }
                Ok(text.into_pyobject(py)?.into_any())
            }
        }
    }

    /// The payoffs by seat once the game is over: `kind="score"` the points (zero-sum: the
    /// landlord ±(seats − 1) × stake, each farmer ∓stake), `"win"` 1 for each seat of the
    /// winning side and 0 for the others, `"wp"` ±1 (win or lose).
    #[pyo3(signature = (kind = "score"))]
    fn payoffs<'py>(&self, py: Python<'py>, kind: &str) -> PyResult<Bound<'py, PyArray1<f64>>> {
        let (scores, wins) = (self.table.scores(), self.table.wins());
        crate::py_env::payoff_vector(py, scores.as_deref(), wins.as_deref(), kind)
    }

    /// The result once over, as a dict: `winner` (`landlord` or `farmers`), `first_out` (the
    /// seat whose play ended the game), `landlord`, `base`, `multiplier`, `bombs`, `rocket`
    /// (under `four`: the four jokers), `spring`, `anti_spring`, `scores`; `None` before.
    fn result<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyDict>>> {
        let landlord = self.table.landlord();
        on_table!(&self.table, g => {
            let Some(r) = g.result() else {
                return Ok(None);
            };
            let d = PyDict::new(py);
            let winner = match r.winner {
                Side::Landlord => "landlord",
                Side::Farmers => "farmers",
            };
            d.set_item("winner", winner)?;
            d.set_item("first_out", r.first_out.index())?;
            d.set_item("landlord", landlord)?;
            d.set_item("base", r.base)?;
            d.set_item("multiplier", r.multiplier)?;
            d.set_item("bombs", r.bombs)?;
            d.set_item("rocket", r.rocket)?;
            d.set_item("spring", r.spring)?;
            d.set_item("anti_spring", r.anti_spring)?;
            d.set_item("scores", r.scores.0.to_vec())?;
            Ok(Some(d))
        })
    }

    /// What `seat` (default: the seat to act) may know, as a dict of numpy arrays (int8 unless
    /// said). A count vector has 15 entries, the number of cards of each rank in the order
    /// 3 4 5 6 7 8 9 T J Q K A 2 B R (0-4 of a rank and 0-1 of a joker under `two`, 0-8 and 0-2
    /// under `four`). Seats are absolute (row `i` is seat `i`); N is the number of seats.
    ///
    /// - `seat` (int), `phase` (str), `role` (str, `None` while bidding);
    /// - `hand` (15): the seat's own cards;
    /// - `unseen` (15): the rules' deck less the seat's hand and every card played (the other
    ///   hands, and under `two` the 9 cards out of play);
    /// - `played` (N × 15): the cards each seat has played;
    /// - `cards_left` (N): cards in each hand (while bidding, as dealt);
    /// - `last_move` (15) and `last_seat` (N, one-hot): the play to beat and who made it,
    ///   zeros when the seat to act leads;
    /// - `landlord` (N, one-hot; zeros while bidding), `to_act` (N, one-hot; zeros once over);
    /// - `kitty` (15): the kitty once the landlord is known, zeros before;
    /// - `bids` (N): each seat's last bid of the current deal, −1 before it bid;
    /// - `handicap` (N): under `two`, the farmer's entry is the cards it goes out at (1 + robs),
    ///   zeros elsewhere and before the bidding ends;
    /// - `stake` (int32, 2): the base score and the multiplier so far;
    /// - `legal_moves` (M × 15): one count vector per legal move in `legal_moves()` order (a
    ///   pass is a row of zeros), when `seat` is to play; 0 rows otherwise;
    /// - `legal_bids` (4): 1 for each bid 0-3 `seat` may make now, zeros unless it is to bid.
    #[pyo3(signature = (seat = None))]
    fn observe<'py>(&self, py: Python<'py>, seat: Option<i64>) -> PyResult<Bound<'py, PyDict>> {
        let s = self.seat_or_turn(seat)?;
        on_table!(&self.table, g => observation(py, g, s, &self.moves))
    }

    /// The game as a `ddz-table-record/1` JSON record (the rules, the seed, the deal with the
    /// cards out of play, the bids, the plays and the result), replayable by ddz.
    fn record(&self) -> String {
        self.table.record()
    }

    /// An independent copy of the environment (same game, same seed sequence).
    fn clone(&self) -> TableEnv {
        Clone::clone(self)
    }

    fn __copy__(&self) -> TableEnv {
        Clone::clone(self)
    }

    fn __deepcopy__(&self, _memo: &Bound<'_, PyAny>) -> TableEnv {
        Clone::clone(self)
    }

    fn __repr__(&self) -> String {
        let seat = self
            .table
            .turn()
            .map_or_else(|| "None".to_string(), |s| s.to_string());
        format!(
            "TableEnv(rules={:?}, phase={:?}, seat={seat}, hands={:?})",
            self.rules(),
            self.phase(),
            self.hands()
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tables_play_to_zero_sum_results() {
        for rules in [Rules::two(), Rules::four()] {
            for seed in 0..5u64 {
                let mut t = Table::new(&rules, seed).unwrap();
                while t.phase() == Phase::Bidding {
                    // The highest bid: somebody bids, so no redeal.
                    let bids = t.legal_bids();
                    t.bid(bids[bids.len() - 1]).unwrap();
                }
                while t.phase() == Phase::Playing {
                    let moves = t.legal_moves();
                    t.play(moves[moves.len() / 2]).unwrap();
                }
                assert_eq!(t.scores().unwrap().iter().sum::<i64>(), 0);
                let wins = t.wins().unwrap();
                assert!(wins.contains(&1) && wins.contains(&0), "{wins:?}");
            }
        }
        assert!(Table::new(&Rules::classic(), 0).is_err());
    }

    #[test]
    fn seats_are_named() {
        assert_eq!(seats_are(2), "seats are 0 and 1");
        assert_eq!(seats_are(4), "seats are 0, 1, 2 and 3");
        assert_eq!(counts("55B".parse().unwrap())[2], 2);
    }
}
