//! `ddz.Env`: one game from Python.

use numpy::{PyArray1, PyArray2, PyArrayMethods};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyString, PyType};

use ddz_core::{Bidding, Cards, Profile, Rank, Rules};
use ddz_game::{DealLine, Phase, Role, Seat, derive_seed};

use crate::actions::{NUM_ACTIONS, action_space};
use crate::encode::{
    BIDDING_LEN, CARDS_LEN, DOUZERO_Z_LEN, RLCARD_FARMER_LEN, WILD_LEN, cards54, douzero_x,
    douzero_z, move_features, move_features_len, rlcard_obs, wild_ranks13,
};
use crate::env_game::{EnvGame, NO_ID, phase_name};
use crate::illegal::illegal;

/// Width of a bid's `action_features` row (one-hot over bids 0-3).
const BID_FEATURES: usize = 4;

/// The rules of a profile name, with wild ranks (`"7"`, `"79"`), a fixed landlord seat, or a
/// bidding (`"points"`, `"call_rob"`) in place of the profile's.
pub(crate) fn make_rules(
    rules: &str,
    laizi: Option<&str>,
    landlord: Option<u8>,
    bidding: Option<&str>,
) -> PyResult<Rules> {
    let mut r =
        Rules::from_profile_name(rules).map_err(|e| PyValueError::new_err(e.to_string()))?;
    if r.seats != 3 {
        return Err(PyValueError::new_err(format!(
            "rules \"{rules}\" seat {} players: ddz.Env(\"{rules}\") gives a ddz.TableEnv for \
             them; this class plays the three-seat profiles",
            r.seats
        )));
    }
    if let Some(text) = laizi {
        let cards: Cards = text
            .parse()
            .map_err(|e| PyValueError::new_err(format!("laizi \"{text}\": {e}")))?;
        let ranks: Vec<Rank> = cards.ranks().collect();
        r = r
            .with_laizi(&ranks)
            .map_err(|e| PyValueError::new_err(format!("laizi \"{text}\": {e}")))?;
    }
    bidding_form(&mut r, landlord.is_some(), bidding)?;
    if let Some(seat) = landlord {
        if seat > 2 {
            return Err(PyValueError::new_err(format!(
                "landlord seat {seat}: seats are 0, 1 and 2"
            )));
        }
        r.bidding = Bidding::Fixed;
        r.landlord_seat = seat;
    }
    Ok(r)
}

/// A seat argument (0, 1 or 2).
pub(crate) fn seat_arg(seat: i64) -> PyResult<usize> {
    usize::try_from(seat)
        .ok()
        .filter(|&s| s < 3)
        .ok_or_else(|| PyValueError::new_err(format!("seat {seat}: seats are 0, 1 and 2")))
}

/// One game of Dou Dizhu for reinforcement learning.
///
/// `Env(rules="classic", laizi=None, seed=0, landlord=None, bidding=None)`: `rules` is a
/// profile name (`classic`, `laizi`, `tiandi`, `douzero`, `rlcard`, `botzone`, `huanle`; the
/// Python class `ddz.Env`, derived from this one, gives a `ddz.TableEnv` for `two` and `four`);
/// `laizi` fixes the wild ranks (`"7"`, `"79"`) of the wildcard profiles, otherwise drawn each
/// deal; `seed` seeds the sequence of deals; `landlord` fixes the landlord's seat (no
/// bidding); `bidding` (`"points"` or `"call_rob"`) makes the seats bid under any profile. The
/// rlcard and douzero profiles have a fixed landlord, seat 0, as RLCard and DouZero do, unless
/// given `bidding`.
#[pyclass(module = "ddz._ddz", name = "Env", subclass)]
#[derive(Clone)]
pub struct Env {
    pub(crate) table: EnvGame,
    profile: Profile,
    seed: u64,
    games: u64,
}

impl Env {
    /// A copy of `env` as an object of the Python class `ty`: `Env` itself, or a subclass of
    /// it (`ddz.Env`), so that copies keep the class of what they copy.
    pub(crate) fn copy_as<'py>(
        env: &Bound<'py, Env>,
        ty: &Bound<'py, PyType>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let py = env.py();
        let base = py.get_type::<Env>();
        if ty.is(&base) || !ty.is_subclass(&base)? {
            return Ok(Bound::new(py, Clone::clone(&*env.borrow()))?.into_any());
        }
        // `Env.__new__(ty, _copy_of=env)`: an object of the subclass holding a copy of the
        // state, made without the subclass's own `__new__` and without dealing a game.
        let kwargs = PyDict::new(py);
        kwargs.set_item("_copy_of", env)?;
        base.getattr("__new__")?.call((ty,), Some(&kwargs))
    }

    /// This environment as an object of the package's class `ddz.Env` (the Rust `Env` if the
    /// package does not define it).
    pub(crate) fn into_package_object(self, py: Python<'_>) -> PyResult<Bound<'_, PyAny>> {
        let ty = py
            .import("ddz")
            .and_then(|m| m.getattr("Env"))
            .ok()
            .and_then(|c| c.cast_into::<PyType>().ok())
            .unwrap_or_else(|| py.get_type::<Env>());
        let env = Bound::new(py, self)?;
        if ty.is(env.get_type()) {
            return Ok(env.into_any());
        }
        Env::copy_as(&env, &ty)
    }

    /// An environment around a table (a copy of one game of a `VecEnv`).
    pub(crate) fn from_table(table: EnvGame, seed: u64) -> Env {
        Env {
            profile: table.base_rules().profile,
            table,
            seed,
            games: 1,
        }
    }

    /// The bidding observation of seat `s` (`x`, [`crate::encode::bidding_obs`]) in an
    /// encoding: the vector itself for `rlcard`; for `douzero` the dict of the play phase with
    /// `position` `"bidding"`, `x_no_action` the vector, `z` zeros, and `action_features` one
    /// row per legal bid of the seat to act (one-hot over bids 0-3).
    fn bidding_observation<'py>(
        &self,
        py: Python<'py>,
        s: usize,
        encoding: &str,
        batch: bool,
        x: Vec<i8>,
    ) -> PyResult<Bound<'py, PyAny>> {
        match encoding {
            "rlcard" => Ok(PyArray1::from_vec(py, x).into_any()),
            "douzero" => {
                let bids = if Some(s) == self.table.turn() {
                    self.table.game().legal_bids()
                } else {
                    Vec::new()
                };
                let mut feats = vec![0i8; bids.len() * BID_FEATURES];
                for (&b, row) in bids.iter().zip(feats.chunks_exact_mut(BID_FEATURES)) {
                    row[usize::from(b.min(3))] = 1;
                }
                let d = PyDict::new(py);
                d.set_item("position", "bidding")?;
                if batch {
                    let width = x.len() + BID_FEATURES;
                    let mut xb = vec![0f32; bids.len() * width];
                    for (out, f) in xb
                        .chunks_exact_mut(width)
                        .zip(feats.chunks_exact(BID_FEATURES))
                    {
                        for (o, &v) in out.iter_mut().zip(x.iter().chain(f)) {
                            *o = f32::from(v);
                        }
                    }
                    d.set_item(
                        "x_batch",
                        PyArray1::from_vec(py, xb).reshape([bids.len(), width])?,
                    )?;
                    d.set_item(
                        "z_batch",
                        PyArray1::from_vec(py, vec![0f32; bids.len() * DOUZERO_Z_LEN])
                            .reshape([bids.len(), 5, 162])?,
                    )?;
                }
                d.set_item("x_no_action", PyArray1::from_vec(py, x))?;
                d.set_item(
                    "z",
                    PyArray1::from_vec(py, vec![0i8; DOUZERO_Z_LEN]).reshape([5, 162])?,
                )?;
                d.set_item(
                    "action_features",
                    PyArray1::from_vec(py, feats).reshape([bids.len(), BID_FEATURES])?,
                )?;
                Ok(d.into_any())
            }
            _ => Err(PyValueError::new_err(format!(
                "encoding \"{encoding}\": encodings are rlcard, douzero, raw"
            ))),
        }
    }

    /// The `raw` observation of seat `s`: what the seat may know, as a dict, in every phase.
    fn raw_observation<'py>(&self, py: Python<'py>, s: usize) -> PyResult<Bound<'py, PyDict>> {
        let to_act = self.table.turn() == Some(s);
        let bids: Vec<(usize, u8)> = self
            .table
            .game()
            .bids()
            .iter()
            .map(|&(seat, b)| (seat.index(), b))
            .collect();
        let d = PyDict::new(py);
        d.set_item("phase", self.phase())?;
        d.set_item("seat", s)?;
        d.set_item("to_act", to_act)?;
        d.set_item("hand", self.table.hand(s).to_string())?;
        d.set_item("landlord", self.landlord())?;
        d.set_item("kitty", self.kitty())?;
        d.set_item("laizi", self.laizi())?;
        d.set_item("bids", bids)?;
        d.set_item("cards_left", self.cards_left())?;
        d.set_item("history", self.history())?;
        d.set_item("shown", self.shown())?;
        d.set_item("doublings", self.doublings())?;
        let legal_bids = if to_act {
            self.legal_bids()
        } else {
            Vec::new()
        };
        d.set_item("legal_bids", legal_bids)?;
        let legal_moves = if to_act {
            self.legal_moves()
        } else {
            Vec::new()
        };
        d.set_item("legal_moves", legal_moves)?;
        Ok(d)
    }

    /// The position for the encoders, or an error while bidding.
    fn position(&self) -> PyResult<crate::encode::EncoderInput<'_>> {
        self.table.position().ok_or_else(|| {
            PyValueError::new_err(
                "no observation while bidding: the landlord is not decided (legal_bids, bid)",
            )
        })
    }

    /// The seat named, or the seat to act.
    fn seat_or_turn(&self, seat: Option<i64>) -> PyResult<usize> {
        match seat {
            Some(s) => seat_arg(s),
            None => self
                .table
                .turn()
                .ok_or_else(|| PyValueError::new_err("the game is over: name the seat to observe")),
        }
    }

    fn require_ids(&self) -> PyResult<()> {
        if self.table.has_ids() {
            Ok(())
        } else {
            Err(PyValueError::new_err(format!(
                "RLCard action ids exist under the rlcard profile only (these rules are {})",
                self.profile
            )))
        }
    }
}

#[pymethods]
impl Env {
    #[new]
    #[pyo3(
        signature = (rules = "classic", laizi = None, seed = 0, landlord = None, bidding = None, *, _copy_of = None),
        text_signature = "(rules='classic', laizi=None, seed=0, landlord=None, bidding=None)"
    )]
    fn new(
        rules: &str,
        laizi: Option<&str>,
        seed: u64,
        landlord: Option<u8>,
        bidding: Option<&str>,
        _copy_of: Option<PyRef<'_, Env>>,
    ) -> PyResult<Env> {
        // The copies of a subclass's objects (`Env::copy_as`) come this way.
        if let Some(env) = _copy_of {
            return Ok(Clone::clone(&*env));
        }
        let r = make_rules(rules, laizi, landlord, bidding)?;
        Ok(Env {
            table: EnvGame::new(&r, derive_seed(seed, 0)),
            profile: r.profile,
            seed,
            games: 1,
        })
    }

    /// Starts a new game and returns the seat to act. Without `seed` the next game of the
    /// environment's seed sequence is dealt; `deal` gives the cards instead, as a deal-file
    /// line: a dict with `landlord` (20 cards, the kitty included), `landlord_down`,
    /// `landlord_up` (17 each), `kitty` (3) and optionally `laizi` (a list of ranks).
    #[pyo3(signature = (seed = None, deal = None))]
    fn reset(&mut self, seed: Option<u64>, deal: Option<&Bound<'_, PyDict>>) -> PyResult<usize> {
        let seed = seed.unwrap_or_else(|| {
            self.games += 1;
            derive_seed(self.seed, self.games - 1)
        });
        match deal {
            None => self.table.reset(seed),
            Some(d) => {
                let field = |name: &str| -> PyResult<String> {
                    d.get_item(name)?
                        .ok_or_else(|| PyValueError::new_err(format!("deal: no \"{name}\"")))?
                        .extract::<String>()
                        .map_err(|_| {
                            PyValueError::new_err(format!("deal: \"{name}\" is not a string"))
                        })
                };
                let laizi = match d.get_item("laizi")? {
                    None => None,
                    Some(v) if v.is_none() => None,
                    Some(v) if v.is_instance_of::<PyString>() => {
                        Some(v.extract::<String>()?.chars().map(String::from).collect())
                    }
                    Some(v) => Some(v.extract::<Vec<String>>().map_err(|_| {
                        PyValueError::new_err("deal: \"laizi\" is not a list of ranks")
                    })?),
                };
                let line = DealLine {
                    landlord: field("landlord")?,
                    landlord_down: field("landlord_down")?,
                    landlord_up: field("landlord_up")?,
                    kitty: field("kitty")?,
                    laizi,
                };
                let deal = line
                    .to_deal(self.table.base_rules())
                    .map_err(|e| PyValueError::new_err(format!("deal: {e}")))?;
                self.table.reset_deal(seed, deal);
            }
        }
        Ok(self.table.game().turn().index())
    }

    /// The rule profile's name.
    #[getter]
    fn rules(&self) -> &'static str {
        self.profile.name()
    }

    /// Number of RLCard action ids (27,472, the pass included).
    #[getter]
    fn num_actions(&self) -> usize {
        NUM_ACTIONS
    }

    /// The seat to act (0, 1 or 2), or `None` once the game is over.
    #[getter]
    fn seat(&self) -> Option<usize> {
        self.table.turn()
    }

    /// `"dealing"`, `"bidding"`, `"doubling"`, `"landlord_show"`, `"playing"` or `"over"`.
    #[getter]
    fn phase(&self) -> &'static str {
        phase_name(self.table.game().phase())
    }

    /// True once a hand is empty.
    #[getter]
    fn done(&self) -> bool {
        self.table.game().phase() == Phase::Over
    }

    /// The landlord's seat, once decided.
    #[getter]
    fn landlord(&self) -> Option<usize> {
        self.table.game().landlord().map(Seat::index)
    }

    /// The wild ranks revealed so far, as rank letters (`""` without wildcards).
    #[getter]
    fn laizi(&self) -> String {
        self.table.game().laizi().iter().map(Rank::letter).collect()
    }

    /// The kitty (底牌), shown once the landlord is decided; `""` before.
    #[getter]
    fn kitty(&self) -> String {
        match self.table.game().landlord() {
            Some(_) => self.table.game().deal().kitty.to_cards().to_string(),
            None => String::new(),
        }
    }

    /// The seat's role (`landlord`, `landlord_down`, `landlord_up`), once the landlord is known.
    fn role(&self, seat: i64) -> PyResult<Option<&'static str>> {
        let s = seat_arg(seat)?;
        Ok(self.table.game().role(Seat::ALL[s]).map(Role::name))
    }

    /// A seat's cards, rank letters ascending (`33344TJQ2BR`).
    fn hand(&self, seat: i64) -> PyResult<String> {
        Ok(self.table.hand(seat_arg(seat)?).to_string())
    }

    /// The three hands, by seat (perfect information).
    fn hands(&self) -> Vec<String> {
        (0..3).map(|s| self.table.hand(s).to_string()).collect()
    }

    /// Cards left in each hand, by seat.
    fn cards_left(&self) -> Vec<u32> {
        (0..3).map(|s| self.table.hand(s).len()).collect()
    }

    /// Every play so far as `(seat, move)`, passes included.
    fn history(&self) -> Vec<(u8, String)> {
        self.table
            .trace()
            .iter()
            .map(|(s, m)| (*s, self.table.notation(m)))
            .collect()
    }

    /// The play to beat and who made it, or `None` when the seat to act leads.
    fn last_move(&self) -> Option<(usize, String)> {
        self.table
            .game()
            .last()
            .map(|(s, m)| (s.index(), self.table.notation(&m)))
    }

    /// The legal moves of the seat to act in move notation (`pass` last when following), in
    /// ddz's generation order: the order `step_index` and the `douzero` rows use.
    fn legal_moves(&self) -> Vec<String> {
        self.table
            .moves()
            .iter()
            .map(|m| self.table.notation(m))
            .collect()
    }

    /// Number of legal moves of the seat to act.
    fn num_legal_moves(&self) -> usize {
        self.table.moves().len()
    }

    /// RLCard action ids of the legal moves, in the order of `legal_moves` (rlcard profile).
    fn legal_action_ids<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray1<i64>>> {
        self.require_ids()?;
        let ids: Vec<i64> = self
            .table
            .ids()
            .iter()
            .filter(|&&i| i != NO_ID)
            .map(|&i| i64::from(i))
            .collect();
        Ok(PyArray1::from_vec(py, ids))
    }

    /// A boolean mask over RLCard's 27,472 actions: True for the legal ones (rlcard profile).
    fn action_mask<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray1<bool>>> {
        self.require_ids()?;
        let mut mask = vec![false; NUM_ACTIONS];
        for &id in self.table.ids() {
            if let Some(v) = mask.get_mut(usize::from(id)) {
                *v = true;
            }
        }
        Ok(PyArray1::from_vec(py, mask))
    }

    /// The bids the seat to act may make (empty unless bidding): points bidding 0 (pass) and
    /// every bid above the current one; call-and-rob 0 (decline) and 1 (call or rob).
    fn legal_bids(&self) -> Vec<u32> {
        let g = self.table.game();
        if g.phase() != Phase::Bidding {
            return Vec::new();
        }
        // A list of ints (pyo3 would turn a Vec<u8> into bytes).
        g.legal_bids().into_iter().map(u32::from).collect()
    }

    /// A bid by the seat to act; returns the seat to act next.
    fn bid(&mut self, bid: u8) -> PyResult<usize> {
        self.table.bid(bid).map_err(illegal)?;
        Ok(self.table.game().turn().index())
    }

    /// The factor a show of the hand (明牌) would give the seat to act now (5 before the deal,
    /// 4, 3 or 2 during it, 2 for the landlord after doubling); None when it is not asked.
    fn legal_show(&self) -> Option<u32> {
        self.table.show_factor()
    }

    /// Whether the seat to act shows its hand now; returns the seat to act next (None once
    /// over).
    fn show(&mut self, show: bool) -> PyResult<Option<usize>> {
        self.table.show(show).map_err(illegal)?;
        Ok(self.table.turn())
    }

    /// The doubling factors (加倍) the seat to act may choose now, 1 first; empty unless
    /// doubling.
    fn legal_doublings(&self) -> Vec<u32> {
        self.table.doubling_choices()
    }

    /// The doubling factor of the seat to act (1, 2 or 4); returns the seat to act next.
    fn double(&mut self, factor: u32) -> PyResult<Option<usize>> {
        self.table.double(factor).map_err(illegal)?;
        Ok(self.table.turn())
    }

    /// Each seat's shown hand (明牌) as it is now, None for a seat that has not shown: public
    /// to every seat.
    fn shown(&self) -> Vec<Option<String>> {
        let view = self.table.game().view(Seat::ALL[0]);
        view.shown()
            .0
            .iter()
            .map(|c| c.map(|c| c.to_string()))
            .collect()
    }

    /// Each seat's doubling factor once chosen, None before (public once made).
    fn doublings(&self) -> Vec<Option<u32>> {
        self.table.game().view(Seat::ALL[0]).doublings().0.to_vec()
    }

    /// The multiplier each seat is shown: a farmer's pair with the landlord, the landlord's
    /// sum of both pairs (the table multiplier before the landlord is decided).
    fn multipliers(&self) -> Vec<u32> {
        let view = self.table.game().view(Seat::ALL[0]);
        Seat::ALL.map(|s| view.seat_multiplier(s)).to_vec()
    }

    /// Plays for the seat to act: a move in notation (`"33344"`, `"pass"`,
    /// `"333444555666:airplane_singles:6"`, `"7779=9999"`) or an RLCard action id (an int,
    /// rlcard profile). An illegal move raises `IllegalMoveError` and changes nothing.
    fn step(&mut self, action: &Bound<'_, PyAny>) -> PyResult<()> {
        if let Ok(text) = action.cast::<PyString>() {
            self.table.play_text(&text.to_cow()?).map_err(illegal)?;
        } else {
            let id: i64 = action.extract().map_err(|_| {
                PyValueError::new_err("an action is a move string or an RLCard action id (int)")
            })?;
            self.table.play_id(id).map_err(illegal)?;
        }
        Ok(())
    }

    /// Plays the legal move at `index` of `legal_moves()` (the row of the `douzero` features).
    fn step_index(&mut self, index: usize) -> PyResult<()> {
        self.table.play_index(index).map_err(illegal)?;
        Ok(())
    }

    /// Takes back the last play (not bids).
    fn undo(&mut self) -> PyResult<()> {
        self.table.undo().map_err(illegal)
    }

    /// The payoffs by seat once the game is over: `kind="score"` the points (zero-sum: the
    /// landlord ±2 × stake, each farmer ∓1 × stake; DouZero's ADP under the rlcard and douzero
    /// profiles), `"win"` RLCard's payoffs (1 for each seat of the winning side, 0 for the
    /// others), `"wp"` ±1 (win or lose).
    #[pyo3(signature = (kind = "score"))]
    fn payoffs<'py>(&self, py: Python<'py>, kind: &str) -> PyResult<Bound<'py, PyArray1<f64>>> {
        let scores = self.table.scores();
        let wins = self.table.wins();
        payoff_vector(
            py,
            scores.as_ref().map(|s| &s[..]),
            wins.as_ref().map(|w| &w[..]),
            kind,
        )
    }

    /// The result once over, as a dict: `winner` (`landlord` or `farmers`), `first_out`,
    /// `base`, `multiplier`, `bombs`, `rocket`, `spring`, `anti_spring`, `scores`.
    fn result<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyDict>>> {
        let Some(r) = self.table.game().result() else {
            return Ok(None);
        };
        let d = PyDict::new(py);
        let winner = match r.winner {
            ddz_game::Side::Landlord => "landlord",
            ddz_game::Side::Farmers => "farmers",
        };
        d.set_item("winner", winner)?;
        d.set_item("first_out", r.first_out.index())?;
        d.set_item("base", r.base)?;
        d.set_item("multiplier", r.multiplier)?;
        d.set_item("bombs", r.bombs)?;
        d.set_item("rocket", r.rocket)?;
        d.set_item("spring", r.spring)?;
        d.set_item("anti_spring", r.anti_spring)?;
        d.set_item("scores", r.scores.0.to_vec())?;
        Ok(Some(d))
    }

    /// The observation of `seat` (default: the seat to act).
    ///
    /// While bidding (neither RLCard nor DouZero bids) both encodings give ddz's bidding
    /// observation of 78 values: the seat's hand (54), the seat one-hot (3), the last bid so
    /// far of the seat, the seat after it and the seat before it, each one-hot over none yet,
    /// 0, 1, 2, 3 (15), and the number of bids so far one-hot over 0-4 and 5 or more (6); under
    /// `douzero` it is the dict's `x_no_action`, with `position` `"bidding"`, `z` zeros and one
    /// `action_features` row per legal bid (one-hot over bids 0-3).
    ///
    /// `encoding="raw"`: in every phase, a dict of what the seat may know: `phase`, `seat`,
    /// `to_act`, `hand`, `landlord`, `kitty` (`""` before the landlord is known), `laizi`,
    /// `bids` (`(seat, bid)` so far), `cards_left`, `history`, `shown`, `doublings`, and for
    /// the seat to act `legal_bids` and `legal_moves` (empty otherwise).
    ///
    /// `encoding="rlcard"`: RLCard's vector (int8; 790 values for the landlord, 901 for a
    /// farmer), equal to `rlcard.make('doudizhu')`'s `state['obs']`. With `wild=True` (wildcard
    /// rules only; RLCard has no wildcards) 13 values follow: 1 for each wild rank 3..2, as
    /// after DouZero's `x_no_action`.
    ///
    /// `encoding="douzero"`: a dict of DouZero's features: `position`, `x_no_action` (int8;
    /// 319 landlord, 430 farmer, 13 more under wildcards: the wild ranks), `z` (int8, 5 × 162:
    /// the last 15 plays), `action_features` (int8, one row per legal move of the seat to act
    /// in `legal_moves` order: its 54 card values, and under wildcards 15 more, the ranks the
    /// move is read as), and with `batch=True` DouZero's `x_batch` (float32, `x_no_action`
    /// then the move's row, one row per legal move) and `z_batch` (float32, `z` repeated).
    #[pyo3(signature = (seat = None, encoding = "rlcard", batch = true, wild = false))]
    fn observe<'py>(
        &self,
        py: Python<'py>,
        seat: Option<i64>,
        encoding: &str,
        batch: bool,
        wild: bool,
    ) -> PyResult<Bound<'py, PyAny>> {
        let s = self.seat_or_turn(seat)?;
        if encoding == "raw" {
            return self.raw_observation(py, s).map(Bound::into_any);
        }
        let mut bidding = [0i8; BIDDING_LEN];
        if self.table.bidding_obs(s, &mut bidding).is_some() {
            return self.bidding_observation(py, s, encoding, batch, bidding.to_vec());
        }
        let pos = self.position()?;
        match encoding {
            "rlcard" => {
                let mut out = vec![0i8; RLCARD_FARMER_LEN + WILD_LEN];
                let mut len = rlcard_obs(&pos, s, &mut out);
                if wild {
                    let mask = self.table.wild_mask().ok_or_else(|| {
                        PyValueError::new_err(format!(
                            "wild=True: the {} rules have no wildcards",
                            self.table.base_rules().profile
                        ))
                    })?;
                    wild_ranks13(mask, &mut out[len..]);
                    len += WILD_LEN;
                }
                out.truncate(len);
                Ok(PyArray1::from_vec(py, out).into_any())
            }
            "douzero" => {
                let wild = self.table.wild_mask();
                let mut x = vec![0i8; 512];
                let xlen = douzero_x(&pos, s, wild, &mut x);
                x.truncate(xlen);
                let mut z = vec![0i8; DOUZERO_Z_LEN];
                douzero_z(&pos, &mut z);
                let moves: &[ddz_core::Move] = if Some(s) == self.table.turn() {
                    self.table.moves()
                } else {
                    &[]
                };
                let row = move_features_len(wild.is_some());
                let mut feats = vec![0i8; moves.len() * row];
                for (m, out) in moves.iter().zip(feats.chunks_exact_mut(row)) {
                    move_features(m, wild.is_some(), out);
                }
                let d = PyDict::new(py);
                let role = self
                    .table
                    .game()
                    .role(Seat::ALL[s])
                    .map_or("landlord", Role::name);
                d.set_item("position", role)?;
                if batch {
                    let width = xlen + row;
                    let mut xb = vec![0f32; moves.len() * width];
                    for (out, f) in xb.chunks_exact_mut(width).zip(feats.chunks_exact(row)) {
                        for (o, &v) in out.iter_mut().zip(x.iter().chain(f)) {
                            *o = f32::from(v);
                        }
                    }
                    let zf: Vec<f32> = z.iter().map(|&v| f32::from(v)).collect();
                    let mut zb = Vec::with_capacity(moves.len() * DOUZERO_Z_LEN);
                    for _ in 0..moves.len() {
                        zb.extend_from_slice(&zf);
                    }
                    d.set_item(
                        "x_batch",
                        PyArray1::from_vec(py, xb).reshape([moves.len(), width])?,
                    )?;
                    d.set_item(
                        "z_batch",
                        PyArray1::from_vec(py, zb).reshape([moves.len(), 5, 162])?,
                    )?;
                }
                d.set_item("x_no_action", PyArray1::from_vec(py, x))?;
                d.set_item("z", PyArray1::from_vec(py, z).reshape([5, 162])?)?;
                d.set_item(
                    "action_features",
                    PyArray1::from_vec(py, feats).reshape([moves.len(), row])?,
                )?;
                Ok(d.into_any())
            }
            _ => Err(PyValueError::new_err(format!(
                "encoding \"{encoding}\": encodings are rlcard, douzero, raw"
            ))),
        }
    }

    /// The 54-value card vector of each legal move, one row per move in `legal_moves` order
    /// (int8; what RLCard's `legal_actions` dict holds for each id).
    fn legal_move_cards<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray2<i8>>> {
        let moves = self.table.moves();
        let mut out = vec![0i8; moves.len() * CARDS_LEN];
        for (m, row) in moves.iter().zip(out.chunks_exact_mut(CARDS_LEN)) {
            cards54(m.cards(), row);
        }
        PyArray1::from_vec(py, out).reshape([moves.len(), CARDS_LEN])
    }

    /// Everything, for training critics: `hand_cards` (the three hands by seat, as RLCard's
    /// `get_perfect_information` gives them), `hand_arrays` (int8, 3 × 54 card vectors),
    /// `trace` (`(seat, move)` plays), `current_player`, `legal_actions` (move strings),
    /// `landlord`, `kitty` and `laizi`.
    fn perfect_information<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        d.set_item("hand_cards", self.hands())?;
        let mut arrays = vec![0i8; 3 * CARDS_LEN];
        for (s, row) in arrays.chunks_exact_mut(CARDS_LEN).enumerate() {
            cards54(self.table.hand(s), row);
        }
        d.set_item(
            "hand_arrays",
            PyArray1::from_vec(py, arrays).reshape([3, CARDS_LEN])?,
        )?;
        d.set_item("trace", self.history())?;
        d.set_item("current_player", self.table.turn())?;
        d.set_item("legal_actions", self.legal_moves())?;
        d.set_item("landlord", self.landlord())?;
        d.set_item("kitty", self.kitty())?;
        d.set_item("laizi", self.laizi())?;
        Ok(d)
    }

    /// The game as a `ddz-record/1` JSON record (docs/records.md), replayable by `ddz replay`.
    fn record(&self) -> String {
        ddz_game::GameRecord::from_game(self.table.game()).to_json()
    }

    /// An independent copy of the environment (same game, same seed sequence, same class).
    fn clone<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyAny>> {
        Env::copy_as(slf, &slf.get_type())
    }

    fn __copy__<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyAny>> {
        Env::copy_as(slf, &slf.get_type())
    }

    fn __deepcopy__<'py>(
        slf: &Bound<'py, Self>,
        _memo: &Bound<'_, PyAny>,
    ) -> PyResult<Bound<'py, PyAny>> {
        Env::copy_as(slf, &slf.get_type())
    }

    fn __repr__(&self) -> String {
        let seat = self
            .table
            .turn()
            .map_or_else(|| "None".to_string(), |s| s.to_string());
        format!(
            "Env(rules={:?}, phase={:?}, seat={seat}, hands={:?})",
            self.profile.name(),
            self.phase(),
            self.hands()
        )
    }
}

/// The RLCard word of an action id (`"33344"`, `"pass"`).
#[pyfunction]
pub fn action_name(id: i64) -> PyResult<&'static str> {
    usize::try_from(id)
        .ok()
        .and_then(|i| action_space().word(i))
        .ok_or_else(|| PyValueError::new_err(format!("action id {id}: ids are 0 to 27471")))
}

/// The RLCard action id of a card set (`"33344"`, `"pass"`), if RLCard has it.
#[pyfunction]
pub fn action_id(cards: &str) -> PyResult<Option<u16>> {
    if cards.trim().eq_ignore_ascii_case("pass") {
        return Ok(Some(crate::actions::PASS_ID));
    }
    let c: Cards = cards
        .parse()
        .map_err(|e| PyValueError::new_err(format!("\"{cards}\": {e}")))?;
    Ok(action_space().id_of_cards(c))
}

/// The 54-value card vector of a card set (int8), as RLCard and DouZero encode cards.
#[pyfunction]
pub fn card_vector<'py>(py: Python<'py>, cards: &str) -> PyResult<Bound<'py, PyArray1<i8>>> {
    let c: Cards = if cards.trim().eq_ignore_ascii_case("pass") {
        Cards::EMPTY
    } else {
        cards
            .parse()
            .map_err(|e| PyValueError::new_err(format!("\"{cards}\": {e}")))?
    };
    let mut out = vec![0i8; CARDS_LEN];
    cards54(c, &mut out);
    Ok(PyArray1::from_vec(py, out))
}

/// The payoffs of a finished game by seat, as `payoffs(kind)` gives them at every table:
/// `score` the points, `win` 1 for each seat of the winning side and 0 for the others, `wp`
/// ±1; an error before the game is over (`scores` or `wins` `None`) or for another kind.
pub(crate) fn payoff_vector<'py>(
    py: Python<'py>,
    scores: Option<&[i64]>,
    wins: Option<&[u8]>,
    kind: &str,
) -> PyResult<Bound<'py, PyArray1<f64>>> {
    let (Some(scores), Some(wins)) = (scores, wins) else {
        return Err(PyValueError::new_err(
            "the game is not over: no payoffs yet",
        ));
    };
    let v: Vec<f64> = match kind {
        "score" => scores.iter().map(|&s| s as f64).collect(),
        "win" => wins.iter().map(|&w| f64::from(w)).collect(),
        "wp" => wins
            .iter()
            .map(|&w| if w == 1 { 1.0 } else { -1.0 })
            .collect(),
        _ => {
            return Err(PyValueError::new_err(format!(
                "payoff kind \"{kind}\": kinds are score, win, wp"
            )));
        }
    };
    Ok(PyArray1::from_vec(py, v))
}

/// Sets the bidding form `bidding` (`"points"` or `"call_rob"`) in `rules`, when given, for
/// `Env` and `TableEnv` alike; refused with a fixed landlord (`landlord_given`) or another
/// name.
pub(crate) fn bidding_form(
    rules: &mut Rules,
    landlord_given: bool,
    bidding: Option<&str>,
) -> PyResult<()> {
    let Some(how) = bidding else {
        return Ok(());
    };
    if landlord_given {
        return Err(PyValueError::new_err(
            "landlord and bidding: a fixed landlord does not bid (give one of them)",
        ));
    }
    rules.bidding = match how {
        "points" => Bidding::Points,
        "call_rob" => Bidding::CallRob,
        _ => {
            return Err(PyValueError::new_err(format!(
                "bidding \"{how}\": points (叫分) or call_rob (叫地主/抢地主)"
            )));
        }
    };
    Ok(())
}
