//! The learner: the network as candle variables, regressed on frames' outcomes (mean squared
//! error, Adam), and exported to the robot's [`Mlp`] after steps.

use std::collections::HashMap;

use candle_core::{DType, Device, Tensor, Var};
use candle_nn::{AdamW, Linear, Module, Optimizer, ParamsAdamW, VarBuilder, VarMap};
use ddz_bots::net::Mlp;
use ddz_bots::net::features::INPUT_LEN;

use crate::TrainError;
use crate::actor::Frame;

/// The network being trained and its optimiser.
pub struct Learner {
    device: Device,
    varmap: VarMap,
    layers: Vec<Linear>,
    widths: Vec<usize>,
    optimizer: AdamW,
    /// Dense input batch, reused.
    dense: Vec<f32>,
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
            dense: Vec::new(),
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
        let n = frames.len();
        self.dense.clear();
        self.dense.resize(n * INPUT_LEN, 0.0);
        for (row, frame) in frames.iter().enumerate() {
            for &i in frame.inputs.iter() {
                self.dense[row * INPUT_LEN + usize::from(i)] = 1.0;
            }
        }
        let x = Tensor::from_slice(&self.dense, (n, INPUT_LEN), &self.device).map_err(candle)?;
        let targets: Vec<f32> = frames.iter().map(|f| f.target).collect();
        let y = Tensor::from_vec(targets, (n, 1), &self.device).map_err(candle)?;
        let mut h = x;
        let last = self.layers.len() - 1;
        for (k, layer) in self.layers.iter().enumerate() {
            h = layer.forward(&h).map_err(candle)?;
            if k < last {
                h = h.relu().map_err(candle)?;
            }
        }
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
        let learner = Learner::new(&widths[..widths.len() - 1], lr)?;
        for (i, (weight, bias)) in mlp.layers().enumerate() {
            for (name, values) in [("weight", weight), ("bias", bias)] {
                let var = learner.var(&format!("layers.{i}.{name}"))?;
                let t = Tensor::from_slice(values, var.shape(), &learner.device).map_err(candle)?;
                var.set(&t).map_err(candle)?;
            }
        }
        Ok(learner)
    }
}
