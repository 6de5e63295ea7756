//! The `net` robot: a small network trained by self-play (Deep Monte-Carlo, in the
//! `ddz-train` crate) scores every legal play from the seat's view ([`features`]), and the
//! robot makes the best-scored one. The score estimates the seat's outcome (+1 a win, −1 a
//! loss) when it makes that play and every seat plays on as the trained robots do.
//!
//! Bids: the seat's chance as landlord is the network's best score for the opening lead
//! with its hand and sampled kitties (mapped from [−1, 1] to [0, 1]), against a threshold
//! ([`crate::search::bidding::bid_for_chance`]). Doubling and showing follow `ddzlib`'s rules
//! ([`crate::stakes`]).
//!
//! The weights shipped in the crate (`weights/net-classic*.safetensors`, see each file's
//! metadata for the command, frames and hours that made them) were trained under the classic
//! profile. The robot averages four shipped networks by default ([`Net::shipped_ensemble`]):
//! `net-classic` (also the search robot's network), `net-classic-wide` (it widened and trained
//! on), `net-classic-expert` (it trained on by expert iteration) and `net-classic-expert3`
//! (that one trained on by a third run);
//! `net:weights=FILE` loads others, and `net:weights=A+B+...` several, whose scores the
//! robot averages (an ensemble: one network pass each). In a position of more than
//! `rescore` plays (32 by default) the first network screens them and the others score
//! only its best ([`Ensemble::set_rescore`]), which bounds a decision's cost.

pub mod features;
pub mod mlp;

use std::path::Path;
use std::sync::{Arc, OnceLock};

use ddz_core::{Cards, Move, Rank, Rules};
use ddz_game::{Bid, BySeat, SeatView, SplitMix64};

use crate::{Bot, BotError, stakes};
pub(crate) use features::Position;
use features::{INPUT_LEN, LAYOUT, STATE_LEN, action_features, state_features};
pub use mlp::{Mlp, NetError};

/// The shipped weights (classic rules).
const EMBEDDED: &[u8] = include_bytes!("../../weights/net-classic.safetensors");

/// The other members of the `net` robot's shipped ensemble, by name.
const ENSEMBLE: [(&str, &[u8]); 3] = [
    (
        "net-classic-wide",
        include_bytes!("../../weights/net-classic-wide.safetensors"),
    ),
    (
        "net-classic-expert",
        include_bytes!("../../weights/net-classic-expert.safetensors"),
    ),
    (
        "net-classic-expert3",
        include_bytes!("../../weights/net-classic-expert3.safetensors"),
    ),
];

/// The search robot's playout network: a third of `net-classic`'s size, so a third of its
/// cost a playout, trained by imitation of `net-classic-expert` and `net-classic-expert3`.
const SMALL: &[u8] = include_bytes!("../../weights/net-classic-small.safetensors");

/// Kitties sampled at most to estimate a hand's chance as landlord when bidding.
const BID_SAMPLES: usize = 8;

/// The first network's opening scores a bid may spend: kitties are sampled while the next
/// one's openings (about as many as the last one's) fit, at least one. A hand of 40 opening
/// plays is read with 8 kitties, of 67 (the median 20-card hand) with 4, of 300 with 1, so
/// that a bid costs a few milliseconds whatever the hand.
const BID_PASSES: usize = 320;

/// The plays the other networks rescore after the first's screen when bidding: only the
/// best score counts there, not which play has it.
const BID_RESCORE: usize = 8;

/// A network checked against this build's features: what the robot and the trainer share.
#[derive(Clone, Debug, PartialEq)]
pub struct Net {
    mlp: Mlp,
}

impl Net {
    /// The shipped weights, read once.
    pub fn embedded() -> Arc<Net> {
        static NET: OnceLock<Arc<Net>> = OnceLock::new();
        NET.get_or_init(|| Net::shipped(EMBEDDED, "embedded"))
            .clone()
    }

    /// The `net` robot's shipped networks, read once: [`Net::embedded`] and the three trained
    /// on from it (wider, by expert iteration, and by more of it), whose scores it averages.
    pub fn shipped_ensemble() -> Vec<Arc<Net>> {
        static NETS: OnceLock<Vec<Arc<Net>>> = OnceLock::new();
        NETS.get_or_init(|| {
            let mut nets = vec![Net::embedded()];
            nets.extend(
                ENSEMBLE
                    .iter()
                    .map(|(name, bytes)| Net::shipped(bytes, name)),
            );
            nets
        })
        .clone()
    }

    /// The search robot's playout network by default, read once: `net-classic-small`
    /// (128-64 hidden units against `net-classic`'s 256-256-128, a third of the cost a
    /// playout and about as strong alone, STRENGTH.md).
    pub fn small() -> Arc<Net> {
        static NET: OnceLock<Arc<Net>> = OnceLock::new();
        NET.get_or_init(|| Net::shipped(SMALL, "net-classic-small"))
            .clone()
    }

    /// A shipped network of the crate's own bytes, which its tests check load.
    fn shipped(bytes: &[u8], name: &str) -> Arc<Net> {
        Arc::new(
            Net::from_bytes(bytes, name)
                .expect("the shipped weights are checked by the crate's tests"),
        )
    }

    /// A network from a safetensors file's bytes (`path` names it in errors).
    pub fn from_bytes(bytes: &[u8], path: &str) -> Result<Net, NetError> {
        Ok(Net {
            mlp: Mlp::from_safetensors(bytes, path, LAYOUT, INPUT_LEN)?,
        })
    }

    /// A network from a safetensors file.
    pub fn load(path: &Path) -> Result<Net, NetError> {
        let name = path.display().to_string();
        let bytes = std::fs::read(path).map_err(|e| NetError::Io {
            path: name.clone(),
            why: e.to_string(),
        })?;
        Net::from_bytes(&bytes, &name)
    }

    /// A network of `mlp`, which must read [`INPUT_LEN`] inputs; the feature layout is set in
    /// its metadata.
    pub fn from_mlp(mut mlp: Mlp) -> Result<Net, NetError> {
        if mlp.inputs() != INPUT_LEN {
            return Err(NetError::Format {
                path: "(in memory)".to_string(),
                why: format!("{} inputs, the features have {INPUT_LEN}", mlp.inputs()),
            });
        }
        mlp.set_metadata(mlp::LAYOUT_KEY, LAYOUT.to_string());
        Ok(Net { mlp })
    }

    /// The network of the file a robot's `weights=FILE` option names; an error naming the
    /// option and the file's fault otherwise.
    pub fn for_option(path: &str) -> Result<Arc<Net>, BotError> {
        Net::load(Path::new(path))
            .map(Arc::new)
            .map_err(|e| BotError::NetOption {
                option: format!("weights={path}"),
                why: e.to_string(),
            })
    }

    /// The networks of a robot's `weights=FILE+FILE...` option, given its value `files`
    /// (at least one file, joined by `+`); an error naming the option and what is wrong.
    pub fn for_files_option(files: &str) -> Result<Vec<Arc<Net>>, BotError> {
        let paths: Vec<&str> = files.split('+').map(str::trim).collect();
        if paths.iter().any(|path| path.is_empty()) {
            return Err(BotError::NetOption {
                option: format!("weights={files}"),
                why: "weights takes files joined by +".to_string(),
            });
        }
        paths.into_iter().map(Net::for_option).collect()
    }

    /// The network.
    pub fn mlp(&self) -> &Mlp {
        &self.mlp
    }
}

/// The active inputs of a position's state and of each of its plays: what every network of
/// the layout reads, worked out once for all of them.
#[derive(Clone, Debug, Default)]
pub struct Inputs {
    state: Vec<u16>,
    /// Every play's active inputs, one after another, and where each ends.
    actions: Vec<u16>,
    ends: Vec<u32>,
}

impl Inputs {
    /// The inputs of the state of `pos` and of each of `moves`. `rules` must hold the wild
    /// ranks in force.
    pub fn fill(&mut self, pos: &Position, rules: &Rules, moves: &[Move]) {
        self.state.clear();
        state_features(pos, &mut self.state);
        self.actions.clear();
        self.ends.clear();
        for play in moves {
            action_features(pos, play, rules, &mut self.actions);
            self.ends.push(self.actions.len() as u32);
        }
    }

    /// The same state with the plays of `inputs` numbered `picked`, in that order.
    pub fn fill_picked(&mut self, inputs: &Inputs, picked: &[usize]) {
        self.state.clone_from(&inputs.state);
        self.actions.clear();
        self.ends.clear();
        for &k in picked {
            let start = if k == 0 {
                0
            } else {
                inputs.ends[k - 1] as usize
            };
            let end = inputs.ends[k] as usize;
            self.actions.extend_from_slice(&inputs.actions[start..end]);
            self.ends.push(self.actions.len() as u32);
        }
    }

    /// Number of plays.
    pub fn plays(&self) -> usize {
        self.ends.len()
    }
}

/// Scores plays with a network, reusing its buffers between calls.
#[derive(Clone, Debug)]
pub struct Scorer {
    net: Arc<Net>,
    inputs: Inputs,
    scratch: mlp::Scratch,
    /// The last scores [`Scorer::best`] worked out.
    scores: Vec<f32>,
}

impl Scorer {
    /// A scorer with `net`.
    pub fn new(net: Arc<Net>) -> Scorer {
        Scorer {
            net,
            inputs: Inputs::default(),
            scratch: mlp::Scratch::default(),
            scores: Vec::new(),
        }
    }

    /// The network.
    pub fn net(&self) -> &Arc<Net> {
        &self.net
    }

    /// Replaces the network (the trainer's actors take each new one).
    pub fn set_net(&mut self, net: Arc<Net>) {
        self.net = net;
    }

    /// The score of each of `moves` for the seat of `pos`, into `out` (cleared first).
    /// `rules` must hold the wild ranks in force.
    pub fn scores(&mut self, pos: &Position, rules: &Rules, moves: &[Move], out: &mut Vec<f32>) {
        let mut inputs = std::mem::take(&mut self.inputs);
        inputs.fill(pos, rules, moves);
        self.score_inputs(&inputs, out);
        self.inputs = inputs;
    }

    /// The score of each play of `inputs`, into `out` (cleared first).
    pub fn score_inputs(&mut self, inputs: &Inputs, out: &mut Vec<f32>) {
        out.clear();
        self.net.mlp().score_plays(
            &inputs.state,
            &inputs.actions,
            &inputs.ends,
            &mut self.scratch,
            out,
        );
    }

    /// The index of the best-scored of `moves` (the first of equals) and its score; `moves`
    /// must not be empty.
    pub fn best(&mut self, pos: &Position, rules: &Rules, moves: &[Move]) -> (usize, f32) {
        let mut scores = std::mem::take(&mut self.scores);
        self.scores(pos, rules, moves, &mut scores);
        let best = best_of(scores.iter().copied());
        self.scores = scores;
        best
    }

    /// The active inputs of the state of `pos` and of `play` (state indices first), as the
    /// trainer stores them.
    pub fn inputs(pos: &Position, play: &Move, rules: &Rules, out: &mut Vec<u16>) {
        out.clear();
        state_features(pos, out);
        debug_assert!(out.iter().all(|&i| usize::from(i) < STATE_LEN));
        action_features(pos, play, rules, out);
    }
}

/// Scores plays by the mean of several networks' scores (one [`Scorer`] a network).
///
/// [`Ensemble::best`] can screen: with more plays than its `rescore` number (see
/// [`Ensemble::set_rescore`]), the first network scores them all and only its `rescore`
/// best-scored are scored by the others; the best mean among those wins. Its cost then grows
/// with one network's passes, not with every network's.
#[derive(Clone, Debug)]
pub struct Ensemble {
    scorers: Vec<Scorer>,
    /// Plays the other networks rescore after the first's screen; 0 for all of them.
    rescore: usize,
    /// The position's inputs; screening, those of the plays picked and which they are.
    inputs: Inputs,
    picked_inputs: Inputs,
    picked: Vec<usize>,
    /// One network's scores, and the mean (or, screening, the first network's scores).
    scores: Vec<f32>,
    mean: Vec<f32>,
}

impl Ensemble {
    /// An ensemble of `nets`, every network scoring every play.
    ///
    /// # Panics
    ///
    /// If `nets` is empty.
    pub fn new(nets: &[Arc<Net>]) -> Ensemble {
        assert!(!nets.is_empty(), "an ensemble needs a network");
        Ensemble {
            scorers: nets.iter().cloned().map(Scorer::new).collect(),
            rescore: 0,
            inputs: Inputs::default(),
            picked_inputs: Inputs::default(),
            picked: Vec::new(),
            scores: Vec::new(),
            mean: Vec::new(),
        }
    }

    /// From now on [`Ensemble::best`] lets the first network screen positions of more than
    /// `rescore` plays (0: never; the other networks score every play).
    pub fn set_rescore(&mut self, rescore: usize) {
        self.rescore = rescore;
    }

    /// The first network (the one the search robot's playouts read).
    pub fn first(&self) -> &Arc<Net> {
        self.scorers[0].net()
    }

    /// The mean score over the networks of each of `moves` for the seat of `pos`, into
    /// `out` (cleared first), as [`Scorer::scores`]. Every network scores every play.
    pub fn scores(&mut self, pos: &Position, rules: &Rules, moves: &[Move], out: &mut Vec<f32>) {
        if let [scorer] = self.scorers.as_mut_slice() {
            return scorer.scores(pos, rules, moves, out);
        }
        self.inputs.fill(pos, rules, moves);
        out.clear();
        out.resize(moves.len(), 0.0);
        for scorer in &mut self.scorers {
            scorer.score_inputs(&self.inputs, &mut self.scores);
            for (total, score) in out.iter_mut().zip(&self.scores) {
                *total += score;
            }
        }
        let count = self.scorers.len() as f32;
        out.iter_mut().for_each(|total| *total /= count);
    }

    /// The index of the play of `moves` (not empty) with the best mean score (the first of
    /// equals), and that mean; screened by the first network when there are more plays than
    /// the rescore number ([`Ensemble::set_rescore`]).
    pub fn best(&mut self, pos: &Position, rules: &Rules, moves: &[Move]) -> (usize, f32) {
        self.best_screened(pos, rules, moves, self.rescore)
    }

    /// [`Ensemble::best`] with `rescore` in place of the ensemble's own.
    pub fn best_screened(
        &mut self,
        pos: &Position,
        rules: &Rules,
        moves: &[Move],
        rescore: usize,
    ) -> (usize, f32) {
        if let [scorer] = self.scorers.as_mut_slice() {
            return scorer.best(pos, rules, moves);
        }
        if rescore == 0 || moves.len() <= rescore {
            let mut mean = std::mem::take(&mut self.mean);
            self.scores(pos, rules, moves, &mut mean);
            let best = best_of(mean.iter().copied());
            self.mean = mean;
            return best;
        }
        // The first network's best `rescore` plays (ties to the earlier), in their order.
        self.inputs.fill(pos, rules, moves);
        let (first, others) = self.scorers.split_first_mut().expect("not empty");
        first.score_inputs(&self.inputs, &mut self.mean);
        let screen = &self.mean;
        self.picked.clear();
        self.picked.extend(0..moves.len());
        self.picked.select_nth_unstable_by(rescore - 1, |&a, &b| {
            screen[b].total_cmp(&screen[a]).then(a.cmp(&b))
        });
        self.picked.truncate(rescore);
        self.picked.sort_unstable();
        self.picked_inputs.fill_picked(&self.inputs, &self.picked);
        let mut totals: Vec<f32> = self.picked.iter().map(|&k| screen[k]).collect();
        for scorer in others {
            scorer.score_inputs(&self.picked_inputs, &mut self.scores);
            for (total, score) in totals.iter_mut().zip(&self.scores) {
                *total += score;
            }
        }
        let count = self.scorers.len() as f32;
        totals.iter_mut().for_each(|total| *total /= count);
        let (best, mean) = best_of(totals.iter().copied());
        (self.picked[best], mean)
    }
}

/// The index of the best of `scores` (the first of equals) and that score.
fn best_of(scores: impl Iterator<Item = f32>) -> (usize, f32) {
    scores
        .enumerate()
        .fold((0, f32::NEG_INFINITY), |best, (i, s)| {
            if s > best.1 { (i, s) } else { best }
        })
}

/// The `net` robot's options.
#[derive(Clone, Debug)]
pub struct NetConfig {
    /// The networks whose scores the robot averages, at least one
    /// ([`Net::shipped_ensemble`] unless `weights=FILE+...`).
    pub nets: Vec<Arc<Net>>,
    /// The chance as landlord from which the robot bids (`bid_at=0.6`, [`BID_AT`]).
    pub bid_threshold: f64,
    /// With several networks, the plays the others rescore after the first's screen in
    /// positions of more plays (`rescore=32`; 0: every network scores every play).
    pub rescore: usize,
}

impl Default for NetConfig {
    /// The shipped networks, [`BID_AT`], [`RESCORE`]: the `net` robot without options.
    fn default() -> NetConfig {
        NetConfig {
            nets: Net::shipped_ensemble(),
            bid_threshold: BID_AT,
            rescore: RESCORE,
        }
    }
}

/// The default of [`NetConfig::rescore`].
pub const RESCORE: usize = 32;

/// The default of [`NetConfig::bid_threshold`]: the four networks' mean best opening score
/// reads high as a chance; from 0.5 to 0.7 in steps of 0.05, 0.6 won the most points in
/// `--bidding` games against `ddzlib` (STRENGTH.md).
pub const BID_AT: f64 = 0.6;

impl NetConfig {
    /// The options after `net:`: `weights=FILE[+FILE...]`, `bid_at=X` (0 to 1) and
    /// `rescore=N`. A file that cannot be read is an error naming it.
    pub fn parse<'a>(options: impl Iterator<Item = &'a str>) -> Result<NetConfig, BotError> {
        let mut nets = None;
        let mut bid_threshold = BID_AT;
        let mut rescore = RESCORE;
        for option in options {
            let bad = |why: &str| BotError::NetOption {
                option: option.to_string(),
                why: why.to_string(),
            };
            let (key, value) = option
                .split_once('=')
                .ok_or_else(|| bad("not key=value (weights=FILE, bid_at=0.6, rescore=32)"))?;
            match key.trim() {
                "weights" => nets = Some(Net::for_files_option(value)?),
                "bid_at" => {
                    bid_threshold = value
                        .trim()
                        .parse::<f64>()
                        .ok()
                        .filter(|x| (0.0..=1.0).contains(x))
                        .ok_or_else(|| bad("bid_at takes a number from 0 to 1"))?;
                }
                "rescore" => {
                    rescore = value
                        .trim()
                        .parse::<usize>()
                        .map_err(|_| bad("rescore takes a number of plays (0 for every play)"))?;
                }
                _ => return Err(bad("unknown option (options: weights, bid_at, rescore)")),
            }
        }
        Ok(NetConfig {
            nets: nets.unwrap_or_else(Net::shipped_ensemble),
            bid_threshold,
            rescore,
        })
    }
}

/// The `net` robot: see the [module documentation](self).
#[derive(Clone, Debug)]
pub struct NetBot {
    /// Its networks.
    nets: Ensemble,
    bid_threshold: f64,
    rng: SplitMix64,
}

impl NetBot {
    /// A robot of `config` seeded with `seed` (for the kitties it samples when bidding).
    pub fn new(config: &NetConfig, seed: u64) -> NetBot {
        let mut nets = Ensemble::new(&config.nets);
        nets.set_rescore(config.rescore);
        NetBot {
            nets,
            bid_threshold: config.bid_threshold,
            rng: SplitMix64::new(seed),
        }
    }

    /// The seat's chance as landlord: the mean over sampled kitties of the network's best
    /// opening score with the hand and the kitty, mapped to [0, 1]. It samples up to 8
    /// kitties, fewer (at least one) when their openings have too many plays to score them
    /// all in a few milliseconds (at most `BID_PASSES` scorings), and the networks after the first rescore
    /// the first's 8 best openings.
    pub fn landlord_chance(&mut self, view: &SeatView) -> f64 {
        let seen = view
            .shown()
            .0
            .iter()
            .flatten()
            .fold(view.hand(), |seen, &cards| seen.union(cards));
        let unseen: Vec<Rank> = Cards::FULL_DECK.saturating_minus(seen).iter().collect();
        if unseen.len() < 3 {
            return 0.5;
        }
        let rules = &view.rules();
        let rescore = match self.nets.rescore {
            0 => BID_RESCORE,
            n => n.min(BID_RESCORE),
        };
        let (mut total, mut samples, mut passes) = (0.0, 0, 0);
        let mut moves = Vec::new();
        while samples < BID_SAMPLES {
            let mut picked = [usize::MAX; 3];
            for k in 0..3 {
                let mut i = self.rng.below(unseen.len() as u64) as usize;
                while picked[..k].contains(&i) {
                    i = (i + 1) % unseen.len();
                }
                picked[k] = i;
            }
            let hand = picked
                .iter()
                .fold(view.hand(), |hand, &i| hand.add(unseen[i], 1));
            let mut cards_left = BySeat([17; 3]);
            cards_left[view.seat()] = hand.len();
            let pos = Position {
                seat: view.seat(),
                landlord: view.seat(),
                hand,
                cards_left,
                played: BySeat::default(),
                history: &[],
                last: None,
                laizi: view.laizi(),
            };
            ddz_core::legal_moves_into(hand, None, rules, &mut moves);
            total += f64::from(self.nets.best_screened(&pos, rules, &moves, rescore).1);
            samples += 1;
            passes += moves.len();
            // The next kitty's openings are about as many as this one's.
            if passes + moves.len() > BID_PASSES {
                break;
            }
        }
        ((total / samples as f64 + 1.0) / 2.0).clamp(0.0, 1.0)
    }
}

impl Bot for NetBot {
    fn name(&self) -> &str {
        "net"
    }

    fn bid(&mut self, view: &SeatView, allowed: &[Bid]) -> Bid {
        if allowed.len() < 2 {
            return allowed.first().copied().unwrap_or(0);
        }
        let chance = self.landlord_chance(view);
        crate::search::bidding::bid_for_chance(view, allowed, chance, self.bid_threshold)
    }

    /// [`stakes::ddzlib_double`].
    fn double(&mut self, view: &SeatView, allowed: &[u32]) -> u32 {
        stakes::ddzlib_double(view, allowed)
    }

    /// [`stakes::ddzlib_show`].
    fn show(&mut self, view: &SeatView, _factor: u32) -> bool {
        stakes::ddzlib_show(view)
    }

    fn play(&mut self, view: &SeatView, allowed: &[Move]) -> Move {
        if let Some(m) = crate::obvious_play(view.hand(), allowed) {
            return m;
        }
        let Some(pos) = Position::of_view(view) else {
            return allowed[0];
        };
        let (best, _) = self.nets.best(&pos, view.rules(), allowed);
        allowed[best]
    }
}
