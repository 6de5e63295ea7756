//! The network: a multilayer perceptron scoring a (state, action) pair, read from and written
//! to safetensors files.
//!
//! A file holds `layers.{i}.weight` (`[out, in]`, f32, row-major, as `candle_nn::Linear`
//! stores them) and `layers.{i}.bias` (`[out]`) for `i` = 0, 1, ...; every layer but the last
//! is followed by a ReLU, and the last has one output. Its metadata names the feature layout
//! ([`super::features::LAYOUT`], checked on loading) and how the weights were made.

use std::collections::HashMap;
use std::fmt;

use safetensors::{Dtype, SafeTensors, tensor::TensorView};

/// Key of the feature layout in a weights file's metadata.
pub const LAYOUT_KEY: &str = "features";

/// Vectors [`Mlp::finish_many`] takes through the layers together.
pub const GROUP: usize = 8;

/// One unit's pre-activation: `bias` plus the dot product of `row` with the start of `input`
/// (eight partial sums, so that the loop vectorises; every caller sums in this order, so the
/// single and grouped passes agree bit for bit).
#[inline]
fn neuron(bias: f32, row: &[f32], input: &[f32]) -> f32 {
    let input = &input[..row.len()];
    let mut lanes = [0.0f32; 8];
    let chunks = row.len() / 8 * 8;
    for (w, x) in row[..chunks]
        .chunks_exact(8)
        .zip(input[..chunks].chunks_exact(8))
    {
        for j in 0..8 {
            lanes[j] += w[j] * x[j];
        }
    }
    let mut sum = bias + lanes.iter().sum::<f32>();
    for j in chunks..row.len() {
        sum += row[j] * input[j];
    }
    sum
}

/// Why a weights file could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NetError {
    /// The file could not be read.
    Io {
        /// The file.
        path: String,
        /// The system's reason.
        why: String,
    },
    /// The bytes are not a safetensors file, or its tensors are not a network's.
    Format {
        /// The file (or `embedded`).
        path: String,
        /// What is wrong.
        why: String,
    },
}

impl fmt::Display for NetError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NetError::Io { path, why } => write!(f, "weights file {path}: {why}"),
            NetError::Format { path, why } => {
                write!(f, "weights file {path}: not a ddz network: {why}")
            }
        }
    }
}

impl std::error::Error for NetError {}

/// One fully connected layer.
#[derive(Clone, Debug, PartialEq)]
struct Layer {
    inputs: usize,
    outputs: usize,
    /// `[outputs][inputs]`.
    weight: Vec<f32>,
    bias: Vec<f32>,
}

/// A multilayer perceptron with ReLUs between layers and one output, plus its metadata.
#[derive(Clone, Debug, PartialEq)]
pub struct Mlp {
    layers: Vec<Layer>,
    /// The first layer's weights transposed (`[inputs][outputs]`): a binary input adds a row.
    first_rows: Vec<f32>,
    metadata: HashMap<String, String>,
}

impl Mlp {
    /// A network from its layers, each `(weight [out][in] row-major, bias [out])`, first to
    /// last. Fails when the shapes do not chain or the last layer has more than one output.
    pub fn from_layers(
        layers: Vec<(Vec<f32>, Vec<f32>)>,
        inputs: usize,
        metadata: HashMap<String, String>,
    ) -> Result<Mlp, String> {
        let mut built = Vec::with_capacity(layers.len());
        let mut width = inputs;
        for (i, (weight, bias)) in layers.into_iter().enumerate() {
            let outputs = bias.len();
            if outputs == 0 || weight.len() != outputs * width {
                return Err(format!(
                    "layer {i}: {} weights for {outputs} outputs of {width} inputs",
                    weight.len()
                ));
            }
            built.push(Layer {
                inputs: width,
                outputs,
                weight,
                bias,
            });
            width = outputs;
        }
        if built.is_empty() || width != 1 {
            return Err(format!(
                "{} layers ending in {width} outputs (one is needed)",
                built.len()
            ));
        }
        let first = &built[0];
        let mut first_rows = vec![0.0; first.inputs * first.outputs];
        for o in 0..first.outputs {
            for i in 0..first.inputs {
                first_rows[i * first.outputs + o] = first.weight[o * first.inputs + i];
            }
        }
        Ok(Mlp {
            layers: built,
            first_rows,
            metadata,
        })
    }

    /// Number of inputs.
    pub fn inputs(&self) -> usize {
        self.layers[0].inputs
    }

    /// Width of every layer, first to last (the last is 1).
    pub fn widths(&self) -> Vec<usize> {
        self.layers.iter().map(|l| l.outputs).collect()
    }

    /// Number of weights and biases.
    pub fn parameters(&self) -> usize {
        self.layers
            .iter()
            .map(|l| l.weight.len() + l.bias.len())
            .sum()
    }

    /// The layers as `(weight [out][in], bias [out])`, first to last.
    pub fn layers(&self) -> impl Iterator<Item = (&[f32], &[f32])> {
        self.layers
            .iter()
            .map(|l| (l.weight.as_slice(), l.bias.as_slice()))
    }

    /// The metadata (feature layout, how the weights were made).
    pub fn metadata(&self) -> &HashMap<String, String> {
        &self.metadata
    }

    /// Sets one metadata entry.
    pub fn set_metadata(&mut self, key: &str, value: String) {
        self.metadata.insert(key.to_string(), value);
    }

    /// The first layer's pre-activations for the binary input whose active indices are
    /// `active`, added to `acc` (which holds the first layer's width). Start from
    /// [`Mlp::first_bias`] and add the state once, then each action's indices on a copy.
    pub fn add_inputs(&self, active: &[u16], acc: &mut [f32]) {
        let width = self.layers[0].outputs;
        for &i in active {
            let row = &self.first_rows[usize::from(i) * width..][..width];
            for (a, w) in acc.iter_mut().zip(row) {
                *a += w;
            }
        }
    }

    /// The first layer's biases: where [`Mlp::add_inputs`] starts.
    pub fn first_bias(&self) -> &[f32] {
        &self.layers[0].bias
    }

    /// The output for first-layer pre-activations `first` (consumed as scratch), with
    /// `scratch` holding the layers' outputs.
    pub fn finish(&self, first: &mut [f32], scratch: &mut Vec<f32>) -> f32 {
        for a in first.iter_mut() {
            *a = a.max(0.0);
        }
        let mut input: &[f32] = first;
        let mut next = std::mem::take(scratch);
        let mut current = Vec::new();
        let last = self.layers.len() - 1;
        for (k, layer) in self.layers.iter().enumerate().skip(1) {
            next.clear();
            for o in 0..layer.outputs {
                let row = &layer.weight[o * layer.inputs..][..layer.inputs];
                let sum = neuron(layer.bias[o], row, input);
                next.push(if k == last { sum } else { sum.max(0.0) });
            }
            std::mem::swap(&mut current, &mut next);
            input = &current;
        }
        let out = if self.layers.len() == 1 {
            first[0]
        } else {
            current[0]
        };
        *scratch = current;
        out
    }

    /// The outputs for several first-layer pre-activation vectors stored one after another
    /// in `firsts` (consumed as scratch), appended to `out`: each the same number, bit for bit,
    /// as [`Mlp::finish`] gives for that vector. They go through the layers [`GROUP`] at a
    /// time, so that each weight row is read once for the group (a row serves every vector
    /// while it is in the fastest cache: one vector at a time, the layers' weights would be
    /// streamed again for each). `scratch` holds the layers' outputs.
    pub fn finish_many(&self, firsts: &mut [f32], scratch: &mut [Vec<f32>; 2], out: &mut Vec<f32>) {
        let width = self.layers[0].outputs;
        for a in firsts.iter_mut() {
            *a = a.max(0.0);
        }
        if self.layers.len() == 1 {
            out.extend(firsts.chunks_exact(width).map(|first| first[0]));
            return;
        }
        let last = self.layers.len() - 1;
        let [current, next] = scratch;
        for group in firsts.chunks(width * GROUP) {
            let n = group.len() / width;
            current.clear();
            current.extend_from_slice(group);
            for (k, layer) in self.layers.iter().enumerate().skip(1) {
                next.clear();
                next.resize(n * layer.outputs, 0.0);
                for o in 0..layer.outputs {
                    let row = &layer.weight[o * layer.inputs..][..layer.inputs];
                    for b in 0..n {
                        let sum = neuron(layer.bias[o], row, &current[b * layer.inputs..]);
                        next[b * layer.outputs + o] = if k == last { sum } else { sum.max(0.0) };
                    }
                }
                std::mem::swap(current, next);
            }
            out.extend_from_slice(&current[..n]);
        }
    }

    /// The output for a dense input `x` (every value, not only 0 or 1): for tests and tools.
    pub fn forward_dense(&self, x: &[f32]) -> f32 {
        let first = &self.layers[0];
        let mut acc = first.bias.clone();
        for (o, a) in acc.iter_mut().enumerate() {
            let row = &first.weight[o * first.inputs..][..first.inputs];
            *a += row.iter().zip(x).map(|(w, v)| w * v).sum::<f32>();
        }
        if self.layers.len() == 1 {
            return acc[0];
        }
        self.finish(&mut acc, &mut Vec::new())
    }

    /// The network as a safetensors file's bytes, with its metadata.
    pub fn to_safetensors(&self) -> Vec<u8> {
        let bytes: Vec<(String, Vec<usize>, Vec<u8>)> = self
            .layers
            .iter()
            .enumerate()
            .flat_map(|(i, l)| {
                [
                    (
                        format!("layers.{i}.weight"),
                        vec![l.outputs, l.inputs],
                        le_bytes(&l.weight),
                    ),
                    (
                        format!("layers.{i}.bias"),
                        vec![l.outputs],
                        le_bytes(&l.bias),
                    ),
                ]
            })
            .collect();
        let views = bytes.iter().map(|(name, shape, data)| {
            let view = TensorView::new(Dtype::F32, shape.clone(), data)
                .expect("shape and data agree by construction");
            (name.clone(), view)
        });
        safetensors::serialize(views, Some(self.metadata.clone()))
            .expect("f32 tensors of consistent shapes serialise")
    }

    /// A network from a safetensors file's bytes; `path` names it in errors. The metadata's
    /// feature layout must be `layout` and the inputs `inputs`.
    pub fn from_safetensors(
        bytes: &[u8],
        path: &str,
        layout: &str,
        inputs: usize,
    ) -> Result<Mlp, NetError> {
        let format = |why: String| NetError::Format {
            path: path.to_string(),
            why,
        };
        let (_, header) = SafeTensors::read_metadata(bytes).map_err(|e| format(e.to_string()))?;
        let metadata = header.metadata().clone().unwrap_or_default();
        match metadata.get(LAYOUT_KEY) {
            Some(found) if found == layout => {}
            Some(found) => {
                return Err(format(format!(
                    "made for features {found}, this build reads {layout}"
                )));
            }
            None => return Err(format(format!("no \"{LAYOUT_KEY}\" in its metadata"))),
        }
        let tensors = SafeTensors::deserialize(bytes).map_err(|e| format(e.to_string()))?;
        let mut layers = Vec::new();
        while let Ok(weight) = tensors.tensor(&format!("layers.{}.weight", layers.len())) {
            let i = layers.len();
            let bias = tensors
                .tensor(&format!("layers.{i}.bias"))
                .map_err(|_| format(format!("layers.{i}.bias is missing")))?;
            let weight =
                f32s(&weight).ok_or_else(|| format(format!("layers.{i}.weight is not f32")))?;
            let bias = f32s(&bias).ok_or_else(|| format(format!("layers.{i}.bias is not f32")))?;
            layers.push((weight, bias));
        }
        if tensors.len() != 2 * layers.len() {
            return Err(format(format!(
                "{} tensors, of which {} are layers.0.. in order",
                tensors.len(),
                2 * layers.len()
            )));
        }
        Mlp::from_layers(layers, inputs, metadata).map_err(format)
    }
}

/// Little-endian bytes of `values`.
fn le_bytes(values: &[f32]) -> Vec<u8> {
    values.iter().flat_map(|v| v.to_le_bytes()).collect()
}

/// The values of an f32 tensor.
fn f32s(view: &TensorView) -> Option<Vec<f32>> {
    (view.dtype() == Dtype::F32).then(|| {
        view.data()
            .chunks_exact(4)
            .map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]]))
            .collect()
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tiny() -> Mlp {
        let meta = HashMap::from([(LAYOUT_KEY.to_string(), "test".to_string())]);
        // 3 inputs -> 2 -> 1.
        Mlp::from_layers(
            vec![
                (vec![1.0, -1.0, 0.5, 0.25, 2.0, -3.0], vec![0.1, -0.2]),
                (vec![1.5, -0.5], vec![0.05]),
            ],
            3,
            meta,
        )
        .unwrap()
    }

    #[test]
    fn sparse_equals_dense_and_hand_computed() {
        let mlp = tiny();
        // Inputs 0 and 2 on: hidden = relu(0.1 + 1 + 0.5, -0.2 + 0.25 - 3) = (1.6, 0).
        let expected = 0.05 + 1.5 * 1.6;
        assert!((mlp.forward_dense(&[1.0, 0.0, 1.0]) - expected).abs() < 1e-6);
        let mut acc = mlp.first_bias().to_vec();
        mlp.add_inputs(&[0, 2], &mut acc);
        assert!((mlp.finish(&mut acc, &mut Vec::new()) - expected).abs() < 1e-6);
    }

    #[test]
    fn grouped_pass_equals_single_pass_bit_for_bit() {
        // 37 inputs -> 19 -> 13 -> 1 (widths that are not multiples of 8), weights from a
        // fixed sequence with both signs.
        let mut x: u32 = 12345;
        let mut draw = || {
            x = x.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
            (x >> 8) as f32 / (1u32 << 24) as f32 - 0.5
        };
        let mut layer = |outs: usize, ins: usize| {
            let weight: Vec<f32> = (0..outs * ins).map(|_| draw()).collect();
            let bias: Vec<f32> = (0..outs).map(|_| draw()).collect();
            (weight, bias)
        };
        let layers = vec![layer(19, 37), layer(13, 19), layer(1, 13)];
        let meta = HashMap::from([(LAYOUT_KEY.to_string(), "test".to_string())]);
        let mlp = Mlp::from_layers(layers, 37, meta).unwrap();
        for n in [1, 2, GROUP - 1, GROUP, GROUP + 1, 3 * GROUP + 5] {
            let firsts: Vec<f32> = (0..n * 19).map(|i| (i as f32 * 0.37).sin()).collect();
            let single: Vec<f32> = firsts
                .chunks_exact(19)
                .map(|f| mlp.finish(&mut f.to_vec(), &mut Vec::new()))
                .collect();
            let mut grouped = Vec::new();
            let mut scratch = [Vec::new(), Vec::new()];
            mlp.finish_many(&mut firsts.clone(), &mut scratch, &mut grouped);
            let bits = |v: &[f32]| v.iter().map(|f| f.to_bits()).collect::<Vec<_>>();
            assert_eq!(bits(&grouped), bits(&single), "{n} vectors");
        }
    }

    #[test]
    fn round_trip_and_bad_files() {
        let mlp = tiny();
        let bytes = mlp.to_safetensors();
        assert_eq!(Mlp::from_safetensors(&bytes, "t", "test", 3).unwrap(), mlp);
        let err = Mlp::from_safetensors(&bytes, "t", "other", 3).unwrap_err();
        assert!(err.to_string().contains("made for features test"), "{err}");
        let err = Mlp::from_safetensors(&bytes, "t", "test", 4).unwrap_err();
        assert!(err.to_string().contains("layer 0"), "{err}");
        for cut in [0, 7, 8, 20, bytes.len() - 1] {
            assert!(Mlp::from_safetensors(&bytes[..cut], "t", "test", 3).is_err());
        }
        let mut flipped = bytes.clone();
        flipped[3] ^= 0x40;
        assert!(Mlp::from_safetensors(&flipped, "t", "test", 3).is_err());
    }
}
