//! The learner: the network as candle variables, regressed on frames' outcomes (mean squared
//! error, Adam), and exported to the robot's [`Mlp`] after steps.

use std::collections::HashMap;

use candle_core::{DType, Device, Tensor, Var};
use candle_nn::{AdamW, Linear, Module, Optimizer, ParamsAdamW, VarBuilder, VarMap};
use ddz_bots::net::Mlp;
use ddz_bots::net::features::{ACTION_LEN, INPUT_LEN, STATE_LEN};

use crate::TrainError;
use crate::actor::Frame;
use crate::imitate::TrainingExample;

/// The losses of an imitation batch.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct ImitationLoss {
    /// Mean cross-entropy of the preferred moves (the recorded one) under the softmax of
    /// the scores.
    pub cross_entropy: f32,
    /// Mean squared error of the valued moves' scores (the recorded one) against the outcomes.
    pub squared_error: f32,
    /// Decisions whose best-scored move is a preferred one (the recorded one).
    pub matched: usize,
}

/// The network being trained and its optimiser.
pub struct Learner {
    device: Device,
    varmap: VarMap,
    layers: Vec<Linear>,
    widths: Vec<usize>,
    optimizer: AdamW,
}

/// Rows of active inputs as a dense row-major batch of `width` values a row, each index
/// shifted down by `offset`.
fn dense(rows: &[&[u16]], width: usize, offset: usize) -> Vec<f32> {
    let mut x = vec![0f32; rows.len() * width];
    for (row, inputs) in rows.iter().enumerate() {
        for &i in inputs.iter() {
            x[row * width + usize::from(i) - offset] = 1.0;
        }
    }
    x
}

fn candle(e: candle_core::Error) -> TrainError {
    TrainError::Tensor(e.to_string())
}

impl Learner {
    /// A new network with hidden layers `hidden` (then one output), initialised by candle's
    /// default for linear layers, learning at rate `lr`.
    pub fn new(hidden: &[usize], lr: f64) -> Result<Learner, TrainError> {
        let device = Device::Cpu;
        let varmap = VarMap::new();
        let vb = VarBuilder::from_varmap(&varmap, DType::F32, &device);
        let mut widths = hidden.to_vec();
        widths.push(1);
        let mut layers = Vec::new();
        let mut inputs = INPUT_LEN;
        for (i, &w) in widths.iter().enumerate() {
            layers
                .push(candle_nn::linear(inputs, w, vb.pp(format!("layers.{i}"))).map_err(candle)?);
            inputs = w;
        }
        let params = ParamsAdamW {
            lr,
            weight_decay: 0.0,
            ..ParamsAdamW::default()
        };
        let optimizer = AdamW::new(varmap.all_vars(), params).map_err(candle)?;
        Ok(Learner {
            device,
            varmap,
            layers,
            widths,
            optimizer,
        })
    }

    /// The hidden layers' widths.
    pub fn hidden(&self) -> &[usize] {
        &self.widths[..self.widths.len() - 1]
    }

    /// Sets the learning rate.
    pub fn set_lr(&mut self, lr: f64) {
        self.optimizer.set_learning_rate(lr);
    }

    fn var(&self, name: &str) -> Result<Var, TrainError> {
        let data = self
            .varmap
            .data()
            .lock()
            .map_err(|_| TrainError::Tensor("poisoned".into()))?;
        data.get(name)
            .cloned()
            .ok_or_else(|| TrainError::Tensor(format!("no variable {name}")))
    }

    /// The predictions and the loss for `frames`.
    fn forward(&mut self, frames: &[&Frame]) -> Result<(Tensor, Tensor), TrainError> {
        let rows: Vec<&[u16]> = frames.iter().map(|f| &*f.inputs).collect();
        let h = self.scores(&rows)?;
        let targets: Vec<f32> = frames.iter().map(|f| f.target).collect();
        let y = Tensor::from_vec(targets, (frames.len(), 1), &self.device).map_err(candle)?;
        let loss = (&h - &y)
            .map_err(candle)?
            .sqr()
            .map_err(candle)?
            .mean_all()
            .map_err(candle)?;
        Ok((h, loss))
    }

    /// The mean squared error on `frames`, without learning.
    pub fn loss(&mut self, frames: &[&Frame]) -> Result<f32, TrainError> {
        let (_, loss) = self.forward(frames)?;
        loss.to_scalar::<f32>().map_err(candle)
    }

    /// One optimiser step on `frames`; returns the loss before the step.
    pub fn step(&mut self, frames: &[&Frame]) -> Result<f32, TrainError> {
        let (_, loss) = self.forward(frames)?;
        self.optimizer.backward_step(&loss).map_err(candle)?;
        loss.to_scalar::<f32>().map_err(candle)
    }

    /// The scores of `rows` (each a list of active inputs), as a `[rows, 1]` tensor.
    fn scores(&mut self, rows: &[&[u16]]) -> Result<Tensor, TrainError> {
        let x = dense(rows, INPUT_LEN, 0);
        let mut h = Tensor::from_vec(x, (rows.len(), INPUT_LEN), &self.device).map_err(candle)?;
        let last = self.layers.len() - 1;
        for (k, layer) in self.layers.iter().enumerate() {
            h = layer.forward(&h).map_err(candle)?;
            if k < last {
                h = h.relu().map_err(candle)?;
            }
        }
        Ok(h)
    }

    /// The scores of `k` actions for each of `states` (`actions[i * k + j]` the `j`-th of
    /// state `i`'s, each a list of active action inputs), as a `[states, k]` tensor. The same
    /// network as [`Learner::scores`], with the first layer's state half worked out once a
    /// state rather than once an action.
    fn grouped_scores(
        &mut self,
        states: &[&[u16]],
        actions: &[&[u16]],
        k: usize,
    ) -> Result<Tensor, TrainError> {
        let b = states.len();
        let xs = Tensor::from_vec(dense(states, STATE_LEN, 0), (b, STATE_LEN), &self.device)
            .map_err(candle)?;
        let xa = Tensor::from_vec(
            dense(actions, ACTION_LEN, STATE_LEN),
            (b * k, ACTION_LEN),
            &self.device,
        )
        .map_err(candle)?;
        let first = &self.layers[0];
        let weight = first.weight();
        let width = weight.dim(0).map_err(candle)?;
        let of_state = xs
            .matmul(
                &weight
                    .narrow(1, 0, STATE_LEN)
                    .and_then(|w| w.t())
                    .map_err(candle)?,
            )
            .map_err(candle)?;
        let of_action = xa
            .matmul(
                &weight
                    .narrow(1, STATE_LEN, ACTION_LEN)
                    .and_then(|w| w.t())
                    .map_err(candle)?,
            )
            .map_err(candle)?;
        let mut h = of_action
            .reshape((b, k, width))
            .and_then(|t| t.broadcast_add(&of_state.unsqueeze(1)?))
            .map_err(candle)?;
        if let Some(bias) = first.bias() {
            h = h.broadcast_add(bias).map_err(candle)?;
        }
        let mut h = h.reshape((b * k, width)).map_err(candle)?;
        let last = self.layers.len() - 1;
        for (n, layer) in self.layers.iter().enumerate() {
            if n > 0 {
                h = layer.forward(&h).map_err(candle)?;
            }
            if n < last {
                h = h.relu().map_err(candle)?;
            }
        }
        h.reshape((b, k)).map_err(candle)
    }

    /// The imitation loss of `decisions` (see [`Learner::imitation_step`]) and how many of
    /// them the network's best-scored move matches.
    fn imitation_forward(
        &mut self,
        decisions: &[&TrainingExample],
        value_weight: f64,
    ) -> Result<(Tensor, ImitationLoss), TrainError> {
        let b = decisions.len();
        let k = decisions.iter().map(|d| d.moves.len()).max().unwrap_or(1);
        // Every decision padded to k moves; the padding is masked out of the softmax. Each
        // decision's softmax learns toward its preferred moves evenly (`aim`), and its valued
        // move's score (picked out by `pick`) its outcome.
        let mut mask = Vec::with_capacity(b * k);
        let mut aim = Vec::with_capacity(b * k);
        let mut pick = Vec::with_capacity(b * k);
        let mut actions: Vec<&[u16]> = Vec::with_capacity(b * k);
        for d in decisions {
            let preferred = d.preferred.min(d.moves.len());
            for j in 0..k {
                match d.moves.get(j) {
                    Some(action) => {
                        actions.push(action);
                        mask.push(0f32);
                    }
                    None => {
                        actions.push(&[]);
                        mask.push(-1e9);
                    }
                }
                aim.push(if j < preferred {
                    1.0 / preferred as f32
                } else {
                    0.0
                });
                pick.push(if j == d.valued { 1f32 } else { 0.0 });
            }
        }
        let states: Vec<&[u16]> = decisions.iter().map(|d| &*d.state).collect();
        let scores = self.grouped_scores(&states, &actions, k)?;
        let mask = Tensor::from_vec(mask, (b, k), &self.device).map_err(candle)?;
        let aim = Tensor::from_vec(aim, (b, k), &self.device).map_err(candle)?;
        let pick = Tensor::from_vec(pick, (b, k), &self.device).map_err(candle)?;
        let masked = (&scores + &mask).map_err(candle)?;
        let log_p = candle_nn::ops::log_softmax(&masked, 1).map_err(candle)?;
        let cross_entropy = (&log_p * &aim)
            .and_then(|t| t.sum_all())
            .and_then(|t| t / b as f64)
            .and_then(|t| t.neg())
            .map_err(candle)?;
        let targets: Vec<f32> = decisions.iter().map(|d| d.target).collect();
        let y = Tensor::from_vec(targets, (b, 1), &self.device).map_err(candle)?;
        let squared = (&scores * &pick)
            .and_then(|t| t.sum_keepdim(1))
            .and_then(|t| t.sub(&y))
            .and_then(|t| t.sqr())
            .and_then(|t| t.mean_all())
            .map_err(candle)?;
        let loss = (&cross_entropy + (&squared * value_weight).map_err(candle)?).map_err(candle)?;
        let best = masked
            .argmax(1)
            .and_then(|t| t.to_vec1::<u32>())
            .map_err(candle)?;
        let loss_value = ImitationLoss {
            cross_entropy: cross_entropy.to_scalar::<f32>().map_err(candle)?,
            squared_error: squared.to_scalar::<f32>().map_err(candle)?,
            matched: decisions
                .iter()
                .zip(&best)
                .filter(|(d, i)| (**i as usize) < d.preferred)
                .count(),
        };
        Ok((loss, loss_value))
    }

    /// One optimiser step of imitation on `decisions`: the cross-entropy of the softmax of
    /// each decision's move scores against the recorded move, plus `value_weight` times the
    /// squared error of the recorded move's score against the deciding seat's outcome (so that
    /// scores stay win estimates). Returns the losses before the step.
    pub fn imitation_step(
        &mut self,
        decisions: &[&TrainingExample],
        value_weight: f64,
    ) -> Result<ImitationLoss, TrainError> {
        let (loss, value) = self.imitation_forward(decisions, value_weight)?;
        self.optimizer.backward_step(&loss).map_err(candle)?;
        Ok(value)
    }

    /// The imitation losses on `decisions`, without learning.
    pub fn imitation_loss(
        &mut self,
        decisions: &[&TrainingExample],
        value_weight: f64,
    ) -> Result<ImitationLoss, TrainError> {
        Ok(self.imitation_forward(decisions, value_weight)?.1)
    }

    /// The network as the robot reads it, with `metadata`.
    pub fn export(&self, metadata: HashMap<String, String>) -> Result<Mlp, TrainError> {
        let mut layers = Vec::new();
        for i in 0..self.widths.len() {
            let weight = self.var(&format!("layers.{i}.weight"))?;
            let bias = self.var(&format!("layers.{i}.bias"))?;
            let values = |v: &Var| -> Result<Vec<f32>, TrainError> {
                v.as_tensor()
                    .flatten_all()
                    .and_then(|t| t.to_vec1::<f32>())
                    .map_err(candle)
            };
            layers.push((values(&weight)?, values(&bias)?));
        }
        Mlp::from_layers(layers, INPUT_LEN, metadata).map_err(TrainError::Tensor)
    }

    /// A learner whose weights are `mlp`'s (resuming from a checkpoint; the optimiser's moments
    /// start afresh).
    pub fn from_mlp(mlp: &Mlp, lr: f64) -> Result<Learner, TrainError> {
        let widths = mlp.widths();
        Learner::widened(mlp, &widths[..widths.len() - 1], lr)
    }

    /// A learner whose network is `mlp` widened to the hidden widths `hidden` without changing
    /// its function: each layer keeps `mlp`'s weights, the new units get the default random
    /// initialisation on their inputs, and every weight from a new unit into an old one is
    /// zero (so the output is `mlp`'s until learning moves those weights). `hidden` must have
    /// as many layers as `mlp`'s, none narrower (with `mlp`'s own widths, `mlp` itself).
    pub fn widened(mlp: &Mlp, hidden: &[usize], lr: f64) -> Result<Learner, TrainError> {
        let widths = mlp.widths();
        let old_hidden = &widths[..widths.len() - 1];
        if hidden.len() != old_hidden.len() || hidden.iter().zip(old_hidden).any(|(n, o)| n < o) {
            return Err(TrainError::Config(format!(
                "cannot widen hidden layers {old_hidden:?} to {hidden:?}: as many layers are \
                 needed, none narrower"
            )));
        }
        let learner = Learner::new(hidden, lr)?;
        let mut old_inputs = INPUT_LEN;
        for (i, (old_weight, old_bias)) in mlp.layers().enumerate() {
            let old_outputs = old_bias.len();
            let weight = learner.var(&format!("layers.{i}.weight"))?;
            let (outputs, inputs) = weight.dims2().map_err(candle)?;
            let mut values = weight
                .as_tensor()
                .flatten_all()
                .and_then(|t| t.to_vec1::<f32>())
                .map_err(candle)?;
            for o in 0..old_outputs {
                let row = &mut values[o * inputs..(o + 1) * inputs];
                row[..old_inputs]
                    .copy_from_slice(&old_weight[o * old_inputs..(o + 1) * old_inputs]);
                row[old_inputs..].fill(0.0);
            }
            let t = Tensor::from_vec(values, (outputs, inputs), &learner.device).map_err(candle)?;
            weight.set(&t).map_err(candle)?;
            let bias = learner.var(&format!("layers.{i}.bias"))?;
            let mut values = bias.as_tensor().to_vec1::<f32>().map_err(candle)?;
            values[..old_outputs].copy_from_slice(old_bias);
            let t = Tensor::from_vec(values, outputs, &learner.device).map_err(candle)?;
            bias.set(&t).map_err(candle)?;
            old_inputs = old_outputs;
        }
        Ok(learner)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn grouped_scores_are_the_plain_scores() {
        let mut learner = Learner::new(&[24, 8], 1e-3).unwrap();
        let states: [&[u16]; 2] = [&[0, 7, 300, 520], &[3, 4, 5]];
        let actions: [&[u16]; 6] = [
            &[521, 600],
            &[530, 679],
            &[],
            &[522],
            &[523, 524, 650],
            &[679],
        ];
        let grouped = learner.grouped_scores(&states, &actions, 3).unwrap();
        let grouped = grouped.to_vec2::<f32>().unwrap();
        for (i, state) in states.iter().enumerate() {
            for j in 0..3 {
                let row: Vec<u16> = state.iter().chain(actions[i * 3 + j]).copied().collect();
                let plain = learner.scores(&[&row]).unwrap().to_vec2::<f32>().unwrap()[0][0];
                assert!(
                    (plain - grouped[i][j]).abs() < 1e-5,
                    "{plain} {}",
                    grouped[i][j]
                );
            }
        }
    }

    #[test]
    fn widening_keeps_the_function_and_refuses_narrowing() {
        let mut small = Learner::new(&[24, 8], 1e-3).unwrap();
        let rows: [&[u16]; 3] = [&[0, 7, 300, 520, 600], &[3, 4, 5, 679], &[1, 530]];
        let mlp = small.export(HashMap::new()).unwrap();
        let before = small.scores(&rows).unwrap().to_vec2::<f32>().unwrap();
        let mut wide = Learner::widened(&mlp, &[40, 8], 1e-3).unwrap();
        assert_eq!(wide.hidden(), &[40, 8]);
        let after = wide.scores(&rows).unwrap().to_vec2::<f32>().unwrap();
        for (b, a) in before.iter().zip(&after) {
            assert!((b[0] - a[0]).abs() < 1e-5, "{b:?} {a:?}");
        }
        // The new units are live: their inputs are not all zero.
        let exported = wide.export(HashMap::new()).unwrap();
        let (first, _) = exported.layers().next().unwrap();
        assert!(first[24 * INPUT_LEN..].iter().any(|w| *w != 0.0));
        for bad in [&[16usize, 8][..], &[40], &[40, 8, 4]] {
            let err = Learner::widened(&mlp, bad, 1e-3).err().unwrap().to_string();
            assert!(err.contains("cannot widen"), "{err}");
        }
    }
}
