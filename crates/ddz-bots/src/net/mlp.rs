//! The network: a multilayer perceptron scoring a (state, action) pair, read from and written
//! to safetensors files.
//!
//! A file holds `layers.{i}.weight` (`[out, in]`, f32, row-major, as `candle_nn::Linear`
//! stores them) and `layers.{i}.bias` (`[out]`) for `i` = 0, 1, ...; every layer but the last
//! is followed by a ReLU, and the last has one output. Its metadata names the feature layout
//! ([`super::features::LAYOUT`], checked on loading) and how the weights were made.

use std::collections::HashMap;
use std::fmt;

use pulp::{Arch, Simd, WithSimd};
use safetensors::{Dtype, SafeTensors, tensor::TensorView};

/// Key of the feature layout in a weights file's metadata.
pub const LAYOUT_KEY: &str = "features";

/// Outputs a hidden layer sums at a time, held in registers over the layer's inputs.
const BLOCK: usize = 64;

/// One layer's outputs for `input` into `out`: the biases plus, for each input that is not
/// zero, its column of weights times it, inputs in order (after a ReLU most inputs are zero,
/// and a column is a contiguous run of the outputs' weights that vectorises: a fraction of the
/// work of a dense product). The outputs are summed [`BLOCK`] at a time over every nonzero
/// input, so that their sums stay in registers. `nonzero` is scratch for the inputs that are
/// not zero; `relu` clamps the outputs at zero.
#[inline(always)]
fn layer_forward(
    layer: &Layer,
    input: &[f32],
    nonzero: &mut Vec<(usize, f32)>,
    out: &mut Vec<f32>,
    relu: bool,
) {
    let width = layer.outputs;
    // Written without a branch: each input goes to the next free place, which moves on
    // only when the input is not zero.
    nonzero.resize(layer.inputs, (0, 0.0));
    let mut count = 0;
    for (i, &x) in input[..layer.inputs].iter().enumerate() {
        nonzero[count] = (i * width, x);
        count += usize::from(x != 0.0);
    }
    let nonzero = &nonzero[..count];
    out.clear();
    out.extend_from_slice(&layer.bias);
    let blocks = width / BLOCK * BLOCK;
    for (start, sums) in out[..blocks].chunks_exact_mut(BLOCK).enumerate() {
        let start = start * BLOCK;
        let mut acc = [0.0f32; BLOCK];
        acc.copy_from_slice(sums);
        for &(at, x) in nonzero {
            let column = &layer.columns[at + start..][..BLOCK];
            for (a, w) in acc.iter_mut().zip(column) {
                *a += w * x;
            }
        }
        sums.copy_from_slice(&acc);
    }
    for (o, sum) in out.iter_mut().enumerate().skip(blocks) {
        for &(at, x) in nonzero {
            *sum += layer.columns[at + o] * x;
        }
    }
    if relu {
        for o in out.iter_mut() {
            *o = o.max(0.0);
        }
    }
}

/// Adds the first layer's row of each of `active` to `acc`: see [`Mlp::add_inputs`].
#[inline(always)]
fn add_rows(first: &Layer, active: &[u16], acc: &mut [f32]) {
    let width = first.outputs;
    for &i in active {
        let row = &first.columns[usize::from(i) * width..][..width];
        for (a, w) in acc.iter_mut().zip(row) {
            *a += w;
        }
    }
}

/// The output for first-layer pre-activations `first`: see [`Mlp::finish`].
#[inline(always)]
fn finish_layers(mlp: &Mlp, first: &mut [f32], scratch: &mut Scratch) -> f32 {
    for a in first.iter_mut() {
        *a = a.max(0.0);
    }
    let Some((layer, rest)) = mlp.layers[1..].split_first() else {
        return first[0];
    };
    let Scratch {
        nonzero,
        current,
        next,
        ..
    } = scratch;
    layer_forward(layer, first, nonzero, current, !rest.is_empty());
    for (k, layer) in rest.iter().enumerate() {
        layer_forward(layer, current, nonzero, next, k + 1 < rest.len());
        std::mem::swap(current, next);
    }
    current[0]
}

/// [`Mlp::score_plays`]'s work, compiled once for each instruction set `pulp` dispatches to
/// (everything it calls is inlined into it).
struct ScorePlays<'a> {
    mlp: &'a Mlp,
    state: &'a [u16],
    actions: &'a [u16],
    ends: &'a [u32],
    scratch: &'a mut Scratch,
    out: &'a mut Vec<f32>,
}

impl WithSimd for ScorePlays<'_> {
    type Output = ();

    #[inline(always)]
    fn with_simd<S: Simd>(self, _simd: S) {
        let ScorePlays {
            mlp,
            state,
            actions,
            ends,
            scratch,
            out,
        } = self;
        let mut base = std::mem::take(&mut scratch.base);
        base.clear();
        base.extend_from_slice(&mlp.layers[0].bias);
        add_rows(&mlp.layers[0], state, &mut base);
        let mut first = std::mem::take(&mut scratch.first);
        let mut start = 0;
        for &end in ends {
            let end = end as usize;
            first.clear();
            first.extend_from_slice(&base);
            add_rows(&mlp.layers[0], &actions[start..end], &mut first);
            out.push(finish_layers(mlp, &mut first, scratch));
            start = end;
        }
        scratch.first = first;
        scratch.base = base;
    }
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

/// The buffers of a pass through the layers after the first, kept between passes.
#[derive(Clone, Debug, Default)]
pub struct Scratch {
    /// The inputs of a layer that are not zero: where their column starts, and their value.
    nonzero: Vec<(usize, f32)>,
    /// The outputs of the layer before.
    current: Vec<f32>,
    /// The outputs of this layer.
    next: Vec<f32>,
    /// The first layer's pre-activations for the state alone, and for one play.
    base: Vec<f32>,
    first: Vec<f32>,
}

/// One fully connected layer.
#[derive(Clone, Debug, PartialEq)]
struct Layer {
    inputs: usize,
    outputs: usize,
    /// `[outputs][inputs]`, as the files store it.
    weight: Vec<f32>,
    /// The same transposed, `[inputs][outputs]`: an input's column of weights is contiguous
    /// (a binary input of the first layer adds its column; a hidden layer adds the columns of
    /// its inputs that are not zero).
    columns: Vec<f32>,
    bias: Vec<f32>,
}

/// A multilayer perceptron with ReLUs between layers and one output, plus its metadata.
#[derive(Clone, Debug, PartialEq)]
pub struct Mlp {
    layers: Vec<Layer>,
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
            let mut columns = vec![0.0; weight.len()];
            for o in 0..outputs {
                for i in 0..width {
                    columns[i * outputs + o] = weight[o * width + i];
                }
            }
            built.push(Layer {
                inputs: width,
                outputs,
                weight,
                columns,
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
        Ok(Mlp {
            layers: built,
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
        add_rows(&self.layers[0], active, acc);
    }

    /// The first layer's biases: where [`Mlp::add_inputs`] starts.
    pub fn first_bias(&self) -> &[f32] {
        &self.layers[0].bias
    }

    /// The output for first-layer pre-activations `first` (consumed as scratch), with
    /// `scratch` holding the layers' outputs.
    pub fn finish(&self, first: &mut [f32], scratch: &mut Scratch) -> f32 {
        finish_layers(self, first, scratch)
    }

    /// The outputs for several plays of one state, appended to `out`: play `k`'s first-layer
    /// pre-activations are the biases plus the state's active inputs `state` plus its own
    /// `actions[ends[k - 1]..ends[k]]` (from 0 for the first), then [`Mlp::finish`]. The same
    /// figures, bit for bit, as [`Mlp::add_inputs`] and [`Mlp::finish`] one play at a time,
    /// but compiled for the widest vector instructions the processor has (AVX2 on most
    /// x86-64 machines of the last ten years, found when it runs): the sums are the same
    /// additions in the same order, only more of them at once.
    pub fn score_plays(
        &self,
        state: &[u16],
        actions: &[u16],
        ends: &[u32],
        scratch: &mut Scratch,
        out: &mut Vec<f32>,
    ) {
        Arch::new().dispatch(ScorePlays {
            mlp: self,
            state,
            actions,
            ends,
            scratch,
            out,
        });
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
        self.finish(&mut acc, &mut Scratch::default())
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
            // A NaN or an infinity would make every score NaN and every choice arbitrary.
            for (name, values) in [("weight", &weight), ("bias", &bias)] {
                if let Some(k) = values.iter().position(|v| !v.is_finite()) {
                    return Err(format(format!(
                        "layers.{i}.{name}[{k}] is {}, not a finite number",
                        values[k]
                    )));
                }
            }
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
        assert!((mlp.finish(&mut acc, &mut Scratch::default()) - expected).abs() < 1e-6);
    }

    #[test]
    fn the_sparse_layers_equal_a_dense_product_and_plays_together_equal_one_at_a_time() {
        // 37 inputs -> 150 -> 70 -> 1 (widths that are not multiples of 8, nor of `BLOCK`:
        // the blocks of outputs and the rest), weights from a fixed sequence with both signs.
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
        let layers = vec![layer(150, 37), layer(70, 150), layer(1, 70)];
        // The reference: dense products in f64, every term, ReLU between layers.
        let dense = |first: &[f32]| {
            let mut v: Vec<f64> = first.iter().map(|&a| f64::from(a.max(0.0))).collect();
            for (k, (weight, bias)) in layers.iter().enumerate().skip(1) {
                v = (0..bias.len())
                    .map(|o| {
                        let row = &weight[o * v.len()..][..v.len()];
                        let sum = f64::from(bias[o])
                            + row
                                .iter()
                                .zip(&v)
                                .map(|(w, x)| f64::from(*w) * x)
                                .sum::<f64>();
                        if k + 1 < layers.len() {
                            sum.max(0.0)
                        } else {
                            sum
                        }
                    })
                    .collect();
            }
            v[0]
        };
        let meta = HashMap::from([(LAYOUT_KEY.to_string(), "test".to_string())]);
        let mlp = Mlp::from_layers(layers.clone(), 37, meta).unwrap();
        for n in [1, 2, 7, 8, 9, 29] {
            let firsts: Vec<f32> = (0..n * 150).map(|i| (i as f32 * 0.37).sin()).collect();
            let single: Vec<f32> = firsts
                .chunks_exact(150)
                .map(|f| mlp.finish(&mut f.to_vec(), &mut Scratch::default()))
                .collect();
            for (f, got) in firsts.chunks_exact(150).zip(&single) {
                let want = dense(f);
                assert!(
                    (f64::from(*got) - want).abs() < 1e-5,
                    "{got} against {want}"
                );
            }
        }
        // Plays of one state, each its own active inputs on the state's: `score_plays` (the
        // widest instructions) against `add_inputs` and `finish` one at a time, bit for bit.
        let state: Vec<u16> = vec![0, 5, 11, 36];
        let mut base = mlp.first_bias().to_vec();
        mlp.add_inputs(&state, &mut base);
        for n in [1, 2, 7, 8, 9, 29] {
            let mut actions = Vec::new();
            let mut ends = Vec::new();
            let mut single = Vec::new();
            for k in 0..n as u16 {
                let play: Vec<u16> = (0..37u16).filter(|i| (i * 7 + k) % 5 == 0).collect();
                let mut first = base.clone();
                mlp.add_inputs(&play, &mut first);
                single.push(mlp.finish(&mut first, &mut Scratch::default()));
                actions.extend_from_slice(&play);
                ends.push(actions.len() as u32);
            }
            let mut many = Vec::new();
            mlp.score_plays(&state, &actions, &ends, &mut Scratch::default(), &mut many);
            let bits = |v: &[f32]| v.iter().map(|f| f.to_bits()).collect::<Vec<_>>();
            assert_eq!(bits(&many), bits(&single), "{n} plays");
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

    #[test]
    fn weights_that_are_not_finite_are_refused() {
        // Issue 50: a network file with a NaN weight loaded, and every score was NaN.
        let meta = HashMap::from([(LAYOUT_KEY.to_string(), "test".to_string())]);
        for bad in [f32::NAN, f32::INFINITY, f32::NEG_INFINITY] {
            let net = Mlp::from_layers(
                vec![
                    (vec![1.0, -1.0, 0.5, 0.25, bad, -3.0], vec![0.1, -0.2]),
                    (vec![1.5, -0.5], vec![0.05]),
                ],
                3,
                meta.clone(),
            )
            .unwrap();
            let e = Mlp::from_safetensors(&net.to_safetensors(), "t.safetensors", "test", 3)
                .unwrap_err()
                .to_string();
            assert!(
                e.contains(&format!("layers.0.weight[4] is {bad}, not a finite number")),
                "{e}"
            );
        }
    }
}
