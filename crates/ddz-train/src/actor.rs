//! Self-play: games played by the network (ε-greedy, with `ddzlib` as a fading teacher),
//! each decision kept as a frame labelled with the deciding seat's outcome.

use ddz_bots::ddzlib::DdzlibBot;
use ddz_bots::net::Scorer;
use ddz_core::{Move, Rules};
use ddz_game::{Deal, Seat, SplitMix64, derive_seed};

use crate::table::{LANDLORD, Table};

/// One decision: the active inputs of the state and the move made, and the deciding seat's
/// outcome (+1 won, −1 lost).
#[derive(Clone, Debug, PartialEq)]
pub struct Frame {
    /// Active input indices (state, then action).
    pub inputs: Box<[u16]>,
    /// The deciding seat's outcome.
    pub target: f32,
}

/// How an actor picks its moves.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Behaviour {
    /// Chance of a uniformly random legal move.
    pub epsilon: f64,
    /// Chance of `ddzlib`'s move (the teacher), before the ε draw.
    pub teacher: f64,
    /// The teacher's temperature: 0 makes its first choice; above, its move is drawn from its
    /// ladder, falling by `e^(−1/T)` a place ([`DdzlibBot::choose_softly`]), so that the
    /// frames show the outcomes of its likely alternatives too.
    pub teacher_temperature: f64,
}

/// A player of self-play games: its own scorer, teacher and buffers.
pub struct Actor {
    scorer: Scorer,
    teacher: DdzlibBot,
    rng: SplitMix64,
    moves: Vec<Move>,
    buf: Vec<Move>,
    inputs: Vec<u16>,
}

impl Actor {
    /// An actor with `scorer`'s network, drawing its choices from `seed`.
    pub fn new(scorer: Scorer, seed: u64) -> Actor {
        Actor {
            scorer,
            teacher: DdzlibBot::new(),
            rng: SplitMix64::new(seed),
            moves: Vec::new(),
            buf: Vec::new(),
            inputs: Vec::new(),
        }
    }

    /// The actor's scorer (to give it a newer network).
    pub fn scorer_mut(&mut self) -> &mut Scorer {
        &mut self.scorer
    }

    /// A uniform draw in [0, 1).
    fn unit(&mut self) -> f64 {
        (self.rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }

    /// Plays the deal of `game_seed` under `rules` (seat 0 the landlord with the kitty, no
    /// bidding) and appends its frames to `out`: one for each decision with more than one
    /// legal move. Returns the number of frames added.
    pub fn play(
        &mut self,
        rules: &Rules,
        game_seed: u64,
        behaviour: Behaviour,
        out: &mut Vec<Frame>,
    ) -> usize {
        let mut table = Table::start(&Deal::from_seed(game_seed, rules), rules);
        let mut decided: Vec<(Seat, Box<[u16]>)> = Vec::with_capacity(48);
        while !table.state.is_over() {
            let seat = table.state.turn();
            table.state.legal_moves_into(&table.rules, &mut self.moves);
            let play = if self.moves.len() == 1 {
                self.moves[0]
            } else {
                let pos = table.position();
                let draw = self.unit();
                let play = if draw < behaviour.teacher {
                    let turn = table.state.turn_view(&table.rules, LANDLORD);
                    if behaviour.teacher_temperature > 0.0 {
                        let unit = self.unit();
                        let t = behaviour.teacher_temperature;
                        self.teacher.choose_softly(&turn, &mut self.buf, t, unit)
                    } else {
                        self.teacher.choose_legal(&turn, &mut self.buf)
                    }
                } else if draw < behaviour.teacher + behaviour.epsilon {
                    let i = self.rng.below(self.moves.len() as u64) as usize;
                    self.moves[i]
                } else {
                    let (i, _) = self.scorer.best(&pos, &table.rules, &self.moves);
                    self.moves[i]
                };
                Scorer::inputs(&pos, &play, &table.rules, &mut self.inputs);
                decided.push((seat, self.inputs.as_slice().into()));
                play
            };
            table.apply(play);
        }
        let landlord_won = table.landlord_won();
        let added = decided.len();
        out.extend(decided.into_iter().map(|(seat, inputs)| {
            let won = (seat == LANDLORD) == landlord_won;
            Frame {
                inputs,
                target: if won { 1.0 } else { -1.0 },
            }
        }));
        added
    }
}

/// The seed of game `n` of a run seeded `seed`, actor `actor`.
pub fn game_seed(seed: u64, actor: usize, n: u64) -> u64 {
    derive_seed(derive_seed(seed, 0xAC70 + actor as u64), n)
}
