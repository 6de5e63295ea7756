//! `ddz.VecEnv`: many games stepped in one call, in parallel, into preallocated numpy arrays.

use numpy::{PyArray1, PyArray2, PyArray3, PyArrayMethods, PyReadonlyArray1};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use rayon::prelude::*;

use ddz_bots::{BotSpec, bot_seed, decide};
use ddz_core::{Bidding, Rules};
use ddz_game::{Phase, Seat, derive_seed};

use crate::actions::{NUM_ACTIONS, action_space};
use crate::encode::{
    CARDS_LEN, DOUZERO_FARMER_LEN, DOUZERO_Z_LEN, RLCARD_FARMER_LEN, WILD_LEN, cards54, douzero_x,
    douzero_z, move_features, move_features_len, rlcard_obs, wild_ranks13,
};
use crate::env_game::{EnvGame, NO_ID};
use crate::illegal::IllegalMoveError;
use crate::illegal::illegal_with_code;
use crate::py_env::{Env, make_rules, seat_arg};

/// Move features of every game: `(offsets, rows)`.
type Features<'py> = (Bound<'py, PyArray1<i64>>, Bound<'py, PyArray2<i8>>);

/// Which observation a `VecEnv` writes.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Encoding {
    Rlcard,
    Douzero,
}

/// Which payoff a finished game writes into `rewards`.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Reward {
    Score,
    Win,
    Wp,
}

/// One environment's share of the outputs, for one step.
struct Slot<'a> {
    table: &'a mut EnvGame,
    games: &'a mut u64,
    robot_turns: &'a mut u64,
    written: &'a mut Vec<u16>,
    obs: &'a mut [i8],
    z: Option<&'a mut [i8]>,
    mask: Option<&'a mut [bool]>,
    seat: &'a mut i64,
    phase: &'a mut i8,
    num_moves: &'a mut i64,
    reward: &'a mut [f32],
    done: &'a mut bool,
}

/// What the environments share: how to encode and reward, and the seed of env `i`.
#[derive(Clone, Copy)]
struct Setup {
    seed: u64,
    encoding: Encoding,
    reward: Reward,
    /// The wild ranks after RLCard's vector (`wild=True`).
    rlcard_wild: bool,
}

impl Setup {
    /// The seed of game `k` of environment `i`.
    fn game_seed(&self, i: usize, k: u64) -> u64 {
        derive_seed(derive_seed(self.seed, i as u64), k)
    }

    /// Writes the outputs of a slot for the position of its table (after a step or a reset).
    fn write(&self, slot: &mut Slot<'_>) {
        let t = &*slot.table;
        if let Some(mask) = slot.mask.as_deref_mut() {
            for &id in slot.written.iter() {
                mask[usize::from(id)] = false;
            }
            slot.written.clear();
            for &id in t.ids() {
                if let Some(v) = mask.get_mut(usize::from(id)) {
                    *v = true;
                    slot.written.push(id);
                }
            }
        }
        *slot.num_moves = t.option_count() as i64;
        *slot.phase = phase_code(t.game().phase());
        let Some(seat) = t.turn() else {
            *slot.seat = -1;
            slot.obs.fill(0);
            return;
        };
        *slot.seat = seat as i64;
        let Some(pos) = t.position() else {
            if let Some(z) = slot.z.as_deref_mut() {
                z.fill(0);
            }
            slot.obs.fill(0);
            if t.bidding_obs(seat, slot.obs).is_none() {
                // A show window while dealing: no landlord yet, only the hand so far.
                cards54(t.hand(seat), &mut slot.obs[..CARDS_LEN]);
            }
            return;
        };
        let len = match self.encoding {
            Encoding::Rlcard => {
                let len = rlcard_obs(&pos, seat, slot.obs);
                match (self.rlcard_wild, t.wild_mask()) {
                    (true, Some(mask)) => {
                        wild_ranks13(mask, &mut slot.obs[len..]);
                        len + WILD_LEN
                    }
                    _ => len,
                }
            }
            Encoding::Douzero => {
                if let Some(z) = slot.z.as_deref_mut() {
                    douzero_z(&pos, z);
                }
                douzero_x(&pos, seat, t.wild_mask(), slot.obs)
            }
        };
        slot.obs[len..].fill(0);
    }

    /// Plays option `index` in a slot, then [`Setup::advance`]s it.
    fn step(
        &self,
        i: usize,
        slot: &mut Slot<'_>,
        index: usize,
        robots: Option<&Robots>,
    ) -> Result<(), String> {
        slot.table.choose(index).map_err(|e| e.to_string())?;
        slot.reward.fill(0.0);
        *slot.done = false;
        self.advance(i, slot, robots)?;
        self.write(slot);
        Ok(())
    }

    /// Starts the next game of a slot (its robots not yet moved).
    fn next_game(&self, i: usize, slot: &mut Slot<'_>) {
        *slot.games += 1;
        *slot.robot_turns = 0;
        slot.table.reset(self.game_seed(i, *slot.games - 1));
    }

    /// Until the caller is to act: a finished game writes its payoffs and is replaced by the
    /// next game of the environment, and the robots (if any) act in the seats the learner
    /// does not play. Robot `k` of a game's seat is seeded from the game's seed, the seat and
    /// the number of robot decisions in the game so far, so runs repeat exactly.
    fn advance(
        &self,
        i: usize,
        slot: &mut Slot<'_>,
        robots: Option<&Robots>,
    ) -> Result<(), String> {
        loop {
            let Some(seat) = slot.table.turn() else {
                self.finish(slot);
                self.next_game(i, slot);
                continue;
            };
            let Some(r) = robots.filter(|r| !r.learner[seat]) else {
                return Ok(());
            };
            let game_seed = self.game_seed(i, *slot.games - 1);
            let seed = derive_seed(bot_seed(game_seed, Seat::ALL[seat]), *slot.robot_turns);
            *slot.robot_turns += 1;
            let mut bot = r
                .spec
                .build(seed)
                .map_err(|e| format!("robot {}: {e}", r.spec))?;
            let (_, action) = decide(slot.table.game(), bot.as_mut())
                .map_err(|e| format!("robot {} in seat {seat}: {e}", r.spec))?;
            slot.table
                .act(action)
                .map_err(|e| format!("robot {} in seat {seat}: {e}", r.spec))?;
        }
    }

    /// Writes the payoffs of a finished game and sets its done flag.
    fn finish(&self, slot: &mut Slot<'_>) {
        let values: [f32; 3] = match self.reward {
            Reward::Score => slot.table.scores().unwrap_or_default().map(|s| s as f32),
            Reward::Win => slot.table.wins().unwrap_or_default().map(f32::from),
            Reward::Wp => slot
                .table
                .wins()
                .unwrap_or_default()
                .map(|w| if w == 1 { 1.0 } else { -1.0 }),
        };
        slot.reward.copy_from_slice(&values);
        *slot.done = true;
    }
}

/// ddz robots in the seats the learner does not play (`VecEnv(..., learner=..., opponents=...)`).
struct Robots {
    /// The robot, as `ddz arena --bots` names it.
    spec: BotSpec,
    /// The seats the caller plays.
    learner: [bool; 3],
}

/// Many games stepped together, in parallel on all cores with the GIL released, into numpy
/// arrays allocated once.
///
/// `VecEnv(n, rules="rlcard", seed=0, laizi=None, landlord=None, encoding="rlcard",
/// reward="score", actions=None, learner=None, opponents=None, bidding=None, wild=False)`.
/// `wild=True` (the rlcard encoding under wildcard rules) writes the 13 wild-rank values of
/// `Env.observe(wild=True)` right after RLCard's vector, in rows of 914. `rules`,
/// `laizi`, `landlord` and `bidding` are `Env`'s: the rlcard and douzero profiles have a fixed
/// landlord; the others bid unless given `landlord=SEAT`. By default every seat is
/// played by the caller (self-play). With `learner` (a seat, `"landlord"` or `"farmers"`) the
/// caller plays those seats only and the robot `opponents` (a robot spec as `ddz arena
/// --bots` takes it, default `"value"`) plays the others inside Rust, with the GIL released:
/// `step` and `reset` return when every game waits for the learner. A finished game writes
/// its payoffs into `rewards`, sets `dones` and is replaced by the environment's next game.
///
/// Arrays (the same objects after every call): `obs` (int8, n × 901 for `rlcard`, the
/// landlord's 790 values padded with zeros; n × 430 for `douzero`, DouZero's `x_no_action`,
/// 443 under wildcards), `z` (`douzero` only: int8, n × 5 × 162), `mask` (rlcard profile
/// only: bool, n × 27,472 legal RLCard actions), `seats` (int64, the seat to act), `phases`
/// (int8: 0 playing, 1 show window, 2 doubling; `VecEnv.PHASES` names them), `num_moves`
/// (int64, options of the seat to act), `rewards` (float32, n × 3 by seat) and `dones` (bool).
///
/// `step(actions)`: one action per game, an RLCard action id under the rlcard profile (with a
/// fixed landlord and no show or doubling), else the index of an option in that game's
/// `legal_moves(i)`: while playing a move (the row of `move_features()`); while bidding the
/// bids (`"bid 0"`, `"bid 1"`, ...); in a show window (明牌, `huanle`) `["hide", "show"]`;
/// while doubling (加倍) the factors `["x1", "x2", ...]`. `actions="index"` takes indices
/// under the rlcard profile too (`num_moves` bounds them). While bidding, `obs` holds the
/// seat's bidding observation (`Env.observe`'s, 78 values at the head of the row; `z` zeros);
/// in a show window before the landlord is known, only the hand dealt so far (the first 54
/// values, as in both encodings); once the landlord is known it is the encoding of the seat
/// to act (shown hands are not part of the RLCard and DouZero encodings).
#[pyclass(module = "ddz._ddz", name = "VecEnv")]
pub struct VecEnv {
    setup: Setup,
    ids: bool,
    rules: Rules,
    tables: Vec<EnvGame>,
    games: Vec<u64>,
    robot_turns: Vec<u64>,
    robots: Option<Robots>,
    written: Vec<Vec<u16>>,
    width: usize,
    obs: Py<PyArray2<i8>>,
    z: Option<Py<PyArray3<i8>>>,
    mask: Option<Py<PyArray2<bool>>>,
    seats: Py<PyArray1<i64>>,
    phases: Py<PyArray1<i8>>,
    num_moves: Py<PyArray1<i64>>,
    rewards: Py<PyArray2<f32>>,
    dones: Py<PyArray1<bool>>,
}

impl VecEnv {
    /// Runs `f` on every slot in parallel with the GIL released; `f` gets the environment's
    /// index and its slot.
    fn each_slot<F>(&mut self, py: Python<'_>, f: F) -> PyResult<Vec<Result<(), String>>>
    where
        F: Fn(usize, &mut Slot<'_>) -> Result<(), String> + Sync + Send,
    {
        let n = self.tables.len();
        let width = self.width;
        let busy = |_| PyValueError::new_err("a VecEnv array is borrowed elsewhere");
        let obs = self.obs.bind(py);
        let mut obs = obs.try_readwrite().map_err(busy)?;
        let obs = obs.as_slice_mut()?;
        let z = self.z.as_ref().map(|z| z.bind(py).clone());
        let mut z_rw = match &z {
            Some(z) => Some(z.try_readwrite().map_err(busy)?),
            None => None,
        };
        let z_slice = match z_rw.as_mut() {
            Some(z) => Some(z.as_slice_mut()?),
            None => None,
        };
        let mask = self.mask.as_ref().map(|m| m.bind(py).clone());
        let mut mask_rw = match &mask {
            Some(m) => Some(m.try_readwrite().map_err(busy)?),
            None => None,
        };
        let mask_slice = match mask_rw.as_mut() {
            Some(m) => Some(m.as_slice_mut()?),
            None => None,
        };
        let seats = self.seats.bind(py);
        let mut seats = seats.try_readwrite().map_err(busy)?;
        let seats = seats.as_slice_mut()?;
        let phases = self.phases.bind(py);
        let mut phases = phases.try_readwrite().map_err(busy)?;
        let phases = phases.as_slice_mut()?;
        let num_moves = self.num_moves.bind(py);
        let mut num_moves = num_moves.try_readwrite().map_err(busy)?;
        let num_moves = num_moves.as_slice_mut()?;
        let rewards = self.rewards.bind(py);
        let mut rewards = rewards.try_readwrite().map_err(busy)?;
        let rewards = rewards.as_slice_mut()?;
        let dones = self.dones.bind(py);
        let mut dones = dones.try_readwrite().map_err(busy)?;
        let dones = dones.as_slice_mut()?;

        let mut z_rows = z_slice.map(|z| z.chunks_exact_mut(DOUZERO_Z_LEN));
        let mut mask_rows = mask_slice.map(|m| m.chunks_exact_mut(NUM_ACTIONS));
        let mut slots: Vec<Slot<'_>> = Vec::with_capacity(n);
        for (
            (((((((table, (games, robot_turns)), written), obs), seat), phase), moves), reward),
            done,
        ) in self
            .tables
            .iter_mut()
            .zip(self.games.iter_mut().zip(self.robot_turns.iter_mut()))
            .zip(self.written.iter_mut())
            .zip(obs.chunks_exact_mut(width))
            .zip(seats.iter_mut())
            .zip(phases.iter_mut())
            .zip(num_moves.iter_mut())
            .zip(rewards.chunks_exact_mut(3))
            .zip(dones.iter_mut())
        {
            slots.push(Slot {
                table,
                games,
                robot_turns,
                written,
                obs,
                z: z_rows.as_mut().and_then(Iterator::next),
                mask: mask_rows.as_mut().and_then(Iterator::next),
                seat,
                phase,
                num_moves: moves,
                reward,
                done,
            });
        }
        Ok(py.detach(|| {
            slots
                .par_iter_mut()
                .enumerate()
                .with_min_len(8)
                .map(|(i, slot)| f(i, slot))
                .collect()
        }))
    }

    /// Starts every game afresh (the next game of each environment with `next`, else the
    /// current one, as made by the constructor), lets the robots act up to the learner's turn
    /// and writes the outputs.
    fn settle(&mut self, py: Python<'_>, next: bool) -> PyResult<()> {
        let s = self.setup;
        let robots = self.robots.take();
        let results = self.each_slot(py, |i, slot| {
            if next {
                s.next_game(i, slot);
            }
            slot.reward.fill(0.0);
            *slot.done = false;
            s.advance(i, slot, robots.as_ref())?;
            s.write(slot);
            Ok(())
        });
        self.robots = robots;
        if let Some((i, Err(e))) = results?.into_iter().enumerate().find(|(_, r)| r.is_err()) {
            return Err(PyValueError::new_err(format!("game {i}: {e}")));
        }
        Ok(())
    }

    /// The outputs as a tuple `(obs, mask, seats, rewards, dones)`.
    fn outputs<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, pyo3::types::PyTuple>> {
        let mask = self.mask.as_ref().map(|m| m.bind(py).clone());
        pyo3::types::PyTuple::new(
            py,
            [
                self.obs.bind(py).clone().into_any(),
                mask.map_or_else(|| py.None().into_bound(py), Bound::into_any),
                self.seats.bind(py).clone().into_any(),
                self.rewards.bind(py).clone().into_any(),
                self.dones.bind(py).clone().into_any(),
            ],
        )
    }

    fn table(&self, i: usize) -> PyResult<&EnvGame> {
        self.tables.get(i).ok_or_else(|| {
            PyValueError::new_err(format!(
                "environment {i}: there are {} environments",
                self.tables.len()
            ))
        })
    }
}

#[pymethods]
impl VecEnv {
    #[new]
    #[pyo3(signature = (n, rules = "rlcard", seed = 0, laizi = None, landlord = None, encoding = "rlcard", reward = "score", actions = None, learner = None, opponents = None, bidding = None, wild = false))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        py: Python<'_>,
        n: usize,
        rules: &str,
        seed: u64,
        laizi: Option<&str>,
        landlord: Option<u8>,
        encoding: &str,
        reward: &str,
        actions: Option<&str>,
        learner: Option<&Bound<'_, PyAny>>,
        opponents: Option<&str>,
        bidding: Option<&str>,
        wild: bool,
    ) -> PyResult<VecEnv> {
        if n == 0 {
            return Err(PyValueError::new_err("a VecEnv needs at least one game"));
        }
        let rules = make_rules(rules, laizi, landlord, bidding)?;
        let robots = robots(&rules, learner, opponents)?;
        let encoding = match encoding {
            "rlcard" => Encoding::Rlcard,
            "douzero" => Encoding::Douzero,
            _ => {
                return Err(PyValueError::new_err(format!(
                    "encoding \"{encoding}\": encodings are rlcard, douzero"
                )));
            }
        };
        let reward = match reward {
            "score" => Reward::Score,
            "win" => Reward::Win,
            "wp" => Reward::Wp,
            _ => {
                return Err(PyValueError::new_err(format!(
                    "reward \"{reward}\": rewards are score, win, wp"
                )));
            }
        };
        let has_wild = rules.wild != ddz_core::Wild::None;
        if wild && (encoding != Encoding::Rlcard || !has_wild) {
            return Err(PyValueError::new_err(
                "wild=True adds the wild ranks to the rlcard encoding under wildcard rules (the \
                 douzero encoding has them always)",
            ));
        }
        let setup = Setup {
            seed,
            encoding,
            reward,
            rlcard_wild: wild,
        };
        let wild = has_wild;
        let width = match encoding {
            Encoding::Rlcard => RLCARD_FARMER_LEN + if setup.rlcard_wild { WILD_LEN } else { 0 },
            Encoding::Douzero => DOUZERO_FARMER_LEN + if wild { 13 } else { 0 },
        };
        let tables = (0..n)
            .map(|i| EnvGame::new(&rules, setup.game_seed(i, 0)))
            .collect();
        let with_ids = rules.profile == ddz_core::Profile::Rlcard;
        let decisions =
            rules.bidding != Bidding::Fixed || rules.show.enabled || rules.doubling.enabled;
        let ids = match actions {
            None => with_ids && !decisions,
            Some("ids") if with_ids && !decisions => true,
            Some("ids") if with_ids => {
                return Err(PyValueError::new_err(
                    "actions=\"ids\": bids, shows and doublings have no RLCard id (use \
                     actions=\"index\")",
                ));
            }
            Some("ids") => {
                return Err(PyValueError::new_err(
                    "actions=\"ids\": RLCard action ids exist under the rlcard profile only",
                ));
            }
            Some("index") => false,
            Some(other) => {
                return Err(PyValueError::new_err(format!(
                    "actions \"{other}\": ids (RLCard action ids) or index (legal move indices)"
                )));
            }
        };
        let mut v = VecEnv {
            ids,
            setup,
            rules,
            tables,
            games: vec![1; n],
            robot_turns: vec![0; n],
            robots,
            written: vec![Vec::new(); n],
            width,
            obs: PyArray2::zeros(py, [n, width], false).unbind(),
            z: (encoding == Encoding::Douzero)
                .then(|| PyArray3::zeros(py, [n, 5, 162], false).unbind()),
            mask: with_ids.then(|| PyArray2::zeros(py, [n, NUM_ACTIONS], false).unbind()),
            seats: PyArray1::zeros(py, n, false).unbind(),
            phases: PyArray1::zeros(py, n, false).unbind(),
            num_moves: PyArray1::zeros(py, n, false).unbind(),
            rewards: PyArray2::zeros(py, [n, 3], false).unbind(),
            dones: PyArray1::zeros(py, n, false).unbind(),
        };
        v.settle(py, false)?;
        Ok(v)
    }

    /// `"ids"` if `step` takes RLCard action ids, `"index"` if legal move indices.
    #[getter]
    fn actions(&self) -> &'static str {
        if self.ids { "ids" } else { "index" }
    }

    /// Number of games.
    #[getter]
    fn num_envs(&self) -> usize {
        self.tables.len()
    }

    /// The rule profile's name.
    #[getter]
    fn rules(&self) -> &'static str {
        self.rules.profile.name()
    }

    /// Observations (int8, one row per game; see the class docs).
    #[getter]
    fn obs<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray2<i8>> {
        self.obs.bind(py).clone()
    }

    /// DouZero's history features (int8, n × 5 × 162), with `encoding="douzero"`.
    #[getter]
    fn z<'py>(&self, py: Python<'py>) -> Option<Bound<'py, PyArray3<i8>>> {
        self.z.as_ref().map(|z| z.bind(py).clone())
    }

    /// Legal RLCard actions (bool, n × 27,472), under the rlcard profile.
    #[getter]
    fn mask<'py>(&self, py: Python<'py>) -> Option<Bound<'py, PyArray2<bool>>> {
        self.mask.as_ref().map(|m| m.bind(py).clone())
    }

    /// The seat to act in each game.
    #[getter]
    fn seats<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<i64>> {
        self.seats.bind(py).clone()
    }

    /// The phase of each game (int8): 0 playing, 1 a show window (明牌), 2 doubling (加倍), 3
    /// bidding; `VecEnv.PHASES` names them.
    #[getter]
    fn phases<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<i8>> {
        self.phases.bind(py).clone()
    }

    /// The names of the codes of `phases`, by code.
    #[classattr]
    #[allow(non_snake_case)]
    fn PHASES() -> (&'static str, &'static str, &'static str, &'static str) {
        ("playing", "show", "doubling", "bidding")
    }

    /// Number of options of the seat to act in each game (legal moves while playing).
    #[getter]
    fn num_moves<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<i64>> {
        self.num_moves.bind(py).clone()
    }

    /// Payoffs by seat of the games that ended in the last step (zero elsewhere).
    #[getter]
    fn rewards<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray2<f32>> {
        self.rewards.bind(py).clone()
    }

    /// True for the games that ended in the last step (they were replaced by new ones).
    #[getter]
    fn dones<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<bool>> {
        self.dones.bind(py).clone()
    }

    /// Starts a new game in every environment; returns `(obs, mask, seats, rewards, dones)`.
    fn reset<'py>(&mut self, py: Python<'py>) -> PyResult<Bound<'py, pyo3::types::PyTuple>> {
        self.settle(py, true)?;
        self.outputs(py)
    }

    /// Plays one action in every game (see the class docs) and returns
    /// `(obs, mask, seats, rewards, dones)`. Nothing is played if any action is illegal: the
    /// error names the first game whose action is.
    fn step<'py>(
        &mut self,
        py: Python<'py>,
        actions: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, pyo3::types::PyTuple>> {
        let actions: Vec<i64> = match actions.extract::<PyReadonlyArray1<'py, i64>>() {
            Ok(a) => a.as_slice()?.to_vec(),
            Err(_) => actions.extract().map_err(|_| {
                PyValueError::new_err("actions: one int per game (a numpy array or a list)")
            })?,
        };
        if actions.len() != self.tables.len() {
            return Err(PyValueError::new_err(format!(
                "actions: {} given for {} games",
                actions.len(),
                self.tables.len()
            )));
        }
        // Resolve every action to a move index first, so that an illegal one changes nothing.
        let with_ids = self.ids;
        let indices: Result<Vec<usize>, String> = self
            .tables
            .iter()
            .zip(&actions)
            .enumerate()
            .map(|(i, (t, &a))| resolve(t, a, with_ids).map_err(|e| format!("game {i}: {e}")))
            .collect();
        let indices = indices.map_err(|e| illegal_with_code(e, "bad_choice"))?;
        let s = self.setup;
        let robots = self.robots.take();
        let results = self.each_slot(py, |i, slot| s.step(i, slot, indices[i], robots.as_ref()));
        self.robots = robots;
        let results = results?;
        if let Some((i, Err(e))) = results.into_iter().enumerate().find(|(_, r)| r.is_err()) {
            return Err(IllegalMoveError::new_err(format!("game {i}: {e}")));
        }
        self.outputs(py)
    }

    /// The options of game `i` in index order: the legal moves in notation while playing;
    /// `["hide", "show"]` in a show window; `"x1"`, `"x2"`, ... (the factors) while doubling.
    fn legal_moves(&self, i: usize) -> PyResult<Vec<String>> {
        Ok(self.table(i)?.option_names())
    }

    /// RLCard ids of the legal moves of game `i` (rlcard profile), in `legal_moves(i)` order.
    fn legal_action_ids<'py>(
        &self,
        py: Python<'py>,
        i: usize,
    ) -> PyResult<Bound<'py, PyArray1<i64>>> {
        let t = self.table(i)?;
        if !t.has_ids() {
            return Err(PyValueError::new_err(
                "RLCard action ids exist under the rlcard profile only",
            ));
        }
        let ids = t.ids().iter().filter(|&&x| x != NO_ID);
        Ok(PyArray1::from_vec(py, ids.map(|&x| i64::from(x)).collect()))
    }

    /// The feature rows of every game's legal moves (DouZero's action features: 54 card
    /// values, 15 more under wildcards): `(offsets, features)`, the rows of game `i` being
    /// `features[offsets[i]:offsets[i + 1]]`.
    fn move_features<'py>(&self, py: Python<'py>) -> PyResult<Features<'py>> {
        let wild = self.rules.wild != ddz_core::Wild::None;
        let row = move_features_len(wild);
        let mut offsets = Vec::with_capacity(self.tables.len() + 1);
        offsets.push(0i64);
        let total: usize = self.tables.iter().map(|t| t.moves().len()).sum();
        let mut feats = vec![0i8; total * row];
        let mut at = 0;
        for t in &self.tables {
            for m in t.moves() {
                move_features(m, wild, &mut feats[at * row..(at + 1) * row]);
                at += 1;
            }
            offsets.push(at as i64);
        }
        Ok((
            PyArray1::from_vec(py, offsets),
            PyArray1::from_vec(py, feats).reshape([total, row])?,
        ))
    }

    /// A copy of game `i` as an `Env` (`ddz.Env`; for inspection, stepping it does not change
    /// the VecEnv).
    fn env<'py>(&self, py: Python<'py>, i: usize) -> PyResult<Bound<'py, PyAny>> {
        Env::from_table(self.table(i)?.clone(), self.setup.seed).into_package_object(py)
    }

    fn __len__(&self) -> usize {
        self.tables.len()
    }

    fn __repr__(&self) -> String {
        format!(
            "VecEnv(n={}, rules={:?})",
            self.tables.len(),
            self.rules.profile.name()
        )
    }
}

/// The move index of action `a` in a table: an RLCard id with `with_ids`, else an index.
fn resolve(t: &EnvGame, a: i64, with_ids: bool) -> Result<usize, String> {
    if t.turn().is_none() {
        return Err("the game is over".into());
    }
    if with_ids {
        let found = u16::try_from(a)
            .ok()
            .filter(|&id| id != NO_ID)
            .and_then(|id| t.ids().iter().position(|&x| x == id));
        found.ok_or_else(|| {
            let what = usize::try_from(a)
                .ok()
                .and_then(|i| action_space().word(i))
                .map_or_else(|| "not an RLCard id".to_string(), |w| format!("\"{w}\""));
            format!(
                "action {a} ({what}) is not legal: {} legal actions",
                t.ids().len()
            )
        })
    } else {
        usize::try_from(a)
            .ok()
            .filter(|&i| i < t.option_count())
            .ok_or_else(|| {
                format!(
                    "index {a} is out of range: {} options ({})",
                    t.option_count(),
                    t.option_names().join(", ")
                )
            })
    }
}

/// The code of a phase in `VecEnv.phases` (see `VecEnv.PHASES`).
fn phase_code(phase: Phase) -> i8 {
    match phase {
        Phase::Playing | Phase::Over => 0,
        Phase::Dealing | Phase::LandlordShow => 1,
        Phase::Doubling => 2,
        Phase::Bidding => 3,
    }
}

/// The robots of `learner` and `opponents` (see the class docs); None when the caller plays
/// every seat.
fn robots(
    rules: &Rules,
    learner: Option<&Bound<'_, PyAny>>,
    opponents: Option<&str>,
) -> PyResult<Option<Robots>> {
    let Some(learner) = learner.filter(|l| !l.is_none()) else {
        return match opponents {
            None => Ok(None),
            Some(_) => Err(PyValueError::new_err(
                "opponents: robots play the seats the learner does not: give learner too (a \
                 seat, \"landlord\" or \"farmers\")",
            )),
        };
    };
    let landlord = usize::from(rules.landlord_seat);
    let fixed = rules.bidding == Bidding::Fixed;
    let seats: [bool; 3] = if let Ok(seat) = learner.extract::<i64>() {
        let seat = seat_arg(seat)
            .map_err(|_| PyValueError::new_err(format!("learner {seat}: seats are 0, 1 and 2")))?;
        core::array::from_fn(|s| s == seat)
    } else {
        match learner.extract::<String>().as_deref() {
            Ok(side @ ("landlord" | "farmers")) if !fixed => {
                return Err(PyValueError::new_err(format!(
                    "learner \"{side}\": the {} rules bid, so the sides are not known before \
                     the bidding (give a seat, or landlord=SEAT)",
                    rules.profile
                )));
            }
            Ok("landlord") => core::array::from_fn(|s| s == landlord),
            Ok("farmers") => core::array::from_fn(|s| s != landlord),
            _ => {
                return Err(PyValueError::new_err(format!(
                    "learner {learner}: a seat (0, 1, 2), \"landlord\" or \"farmers\""
                )));
            }
        }
    };
    let text = opponents.unwrap_or("value");
    let spec = BotSpec::parse(text)
        .map_err(|e| PyValueError::new_err(format!("opponents \"{text}\": {e}")))?;
    Ok(Some(Robots {
        spec,
        learner: seats,
    }))
}
