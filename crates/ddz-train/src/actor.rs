//! Self-play: games played by the network (ε-greedy, with `ddzlib` as a fading teacher),
//! each decision kept as a frame labelled with the deciding seat's outcome. A share of the
//! games ([`Behaviour::versus`]) can be played against `ddzlib` instead: one side by the
//! network, the other by `ddzlib`'s first choices, and only the network's side's decisions
//! kept, so that the scores learn the outcomes against that opponent. With an expert
//! ([`Behaviour::expert`], expert iteration), the search robot decides the network's turns
//! instead and its plays are learnt as in imitation.

use ddz_bots::Bot;
use ddz_bots::ddzlib::DdzlibBot;
use ddz_bots::net::Scorer;
use ddz_bots::net::features::{action_features, state_features};
use ddz_bots::search::{SearchBot, SearchConfig};
use ddz_core::{Move, Rules};
use ddz_game::{Deal, Seat, SplitMix64, derive_seed};

use crate::imitate::TrainingExample;
use crate::train_game::{LANDLORD, TrainGame};

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
    /// Chance that a game is played against `ddzlib`: the network (with its ε and teacher)
    /// takes the landlord or the farmers, one or the other with even chances, `ddzlib` the
    /// other side at its first choice, and only the network's side makes frames.
    pub versus: f64,
    /// Plays tried at each of the network's decisions (0: none, plain Deep Monte-Carlo): its
    /// best-scored plays, each played out to the end from the true position (the network
    /// greedy on its side, the other side as in the game); the decision is kept (a
    /// [`TrainingExample`]) with the plays whose play-outs won preferred and the best-scored play
    /// valued at its outcome, instead of a frame of the move made. The play-outs of one
    /// decision share the hidden cards, so they teach the differences between plays that one
    /// game's outcome cannot (at the price of knowing the cards, unless
    /// [`Behaviour::rollout_deals`] deals them again).
    pub rollouts: usize,
    /// With rollouts, the deals each tried play is played out on (0: the true position, one
    /// play-out each): that many deals of the hidden cards drawn at random consistently with
    /// the network's view ([`TrainGame::with_hidden_dealt`]), the same deals for every play; the
    /// plays that won the most of them are preferred (none when all won as many), and the
    /// best-scored play is valued at its mean outcome. Play-outs that cannot know the cards
    /// teach plays good for what the network can see, not for the true hands.
    pub rollout_deals: usize,
    /// Expert iteration (instead of rollouts): the search robot decides each of the
    /// network's turns, and the decision is kept (a [`TrainingExample`]) with its play preferred.
    pub expert: Option<Expert>,
}

/// Expert iteration's teacher ([`Behaviour::expert`]): at each of the network's turns the
/// search robot of `search` chooses the play made (but for the ε draw); the decision is kept
/// with that play first and preferred, among it and the network's best-scored other plays
/// (`keep_moves` in all, or every legal play when fewer), its score valued at the game's
/// outcome for the deciding seat.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Expert {
    /// The search robot's settings.
    pub search: SearchConfig,
    /// The plays kept at each decision, the expert's first.
    pub keep_moves: usize,
}

/// A player of self-play games: its own scorer, teacher and buffers.
pub struct Actor {
    scorer: Scorer,
    teacher: DdzlibBot,
    rng: SplitMix64,
    moves: Vec<Move>,
    buf: Vec<Move>,
    inputs: Vec<u16>,
    scores: Vec<f32>,
    rollout_moves: Vec<Move>,
    /// The search robot of [`Behaviour::expert`], made at its first decision.
    expert: Option<SearchBot>,
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
            scores: Vec::new(),
            rollout_moves: Vec::new(),
            expert: None,
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
    /// legal move, of the network's side only in a game against `ddzlib`
    /// ([`Behaviour::versus`]); with [`Behaviour::rollouts`] or [`Behaviour::expert`], the
    /// network's decisions go to `tried` instead. Returns the number of frames and decisions
    /// added.
    pub fn play(
        &mut self,
        rules: &Rules,
        game_seed: u64,
        behaviour: Behaviour,
        out: &mut Vec<Frame>,
        tried: &mut Vec<TrainingExample>,
    ) -> usize {
        let mut table = TrainGame::start(&Deal::from_seed(game_seed, rules), rules);
        let mut decided: Vec<(Seat, Box<[u16]>)> = Vec::with_capacity(48);
        let tried_before = tried.len();
        // The seat of each decision the expert taught, valued at the game's end.
        let mut taught: Vec<Seat> = Vec::new();
        // In a game against ddzlib, whether the network plays the landlord (no draw without
        // such games, so that self-play runs keep their games).
        let versus = if behaviour.versus > 0.0 && self.unit() < behaviour.versus {
            Some(self.unit() < 0.5)
        } else {
            None
        };
        while !table.state.is_over() {
            let seat = table.state.turn();
            table.state.legal_moves_into(&table.rules, &mut self.moves);
            let opponent_turn = versus.is_some_and(|net_lands| (seat == LANDLORD) != net_lands);
            let play = if self.moves.len() == 1 {
                self.moves[0]
            } else if opponent_turn {
                let turn = table.state.turn_view(&table.rules, LANDLORD);
                self.teacher.choose_legal(&turn, &mut self.buf)
            } else {
                let mut expert_play = None;
                if let Some(expert) = behaviour.expert {
                    expert_play = Some(self.ask_expert(&table, expert, tried));
                    taught.push(seat);
                } else if behaviour.rollouts > 0 {
                    let (k, deals) = (behaviour.rollouts, behaviour.rollout_deals);
                    self.try_plays(&table, versus, k, deals, tried);
                }
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
                } else if let Some(play) = expert_play {
                    play
                } else {
                    let (i, _) = self.scorer.best(&pos, &table.rules, &self.moves);
                    self.moves[i]
                };
                if behaviour.rollouts == 0 && behaviour.expert.is_none() {
                    Scorer::inputs(&pos, &play, &table.rules, &mut self.inputs);
                    decided.push((seat, self.inputs.as_slice().into()));
                }
                play
            };
            table.apply(play);
        }
        let landlord_won = table.landlord_won();
        for (decision, seat) in tried[tried_before..].iter_mut().zip(taught) {
            let won = (seat == LANDLORD) == landlord_won;
            decision.target = if won { 1.0 } else { -1.0 };
        }
        let added = decided.len() + tried.len() - tried_before;
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

impl Actor {
    /// The decision of [`Behaviour::rollouts`] at the network's turn in `table`: its `k`
    /// best-scored legal plays (all of them when fewer), each played out to the end on the
    /// true position or on `deals` deals of the hidden cards ([`Behaviour::rollout_deals`]),
    /// the plays that won the most first and preferred (none when all won as many), the
    /// best-scored one valued at its play-outs' mean outcome.
    fn try_plays(
        &mut self,
        table: &TrainGame,
        versus: Option<bool>,
        k: usize,
        deals: usize,
        out: &mut Vec<TrainingExample>,
    ) {
        let seat = table.state.turn();
        table
            .state
            .legal_moves_into(&table.rules, &mut self.rollout_moves);
        let pos = table.position();
        self.scorer
            .scores(&pos, &table.rules, &self.rollout_moves, &mut self.scores);
        let mut order: Vec<usize> = (0..self.rollout_moves.len()).collect();
        order.sort_by(|&a, &b| self.scores[b].total_cmp(&self.scores[a]));
        order.truncate(k);
        let starts: Vec<TrainGame> = if deals == 0 {
            vec![table.clone()]
        } else {
            (0..deals)
                .filter_map(|_| table.with_hidden_dealt(self.rng.next_u64()))
                .collect()
        };
        let moves = std::mem::take(&mut self.rollout_moves);
        // (play-outs won, the play's inputs, whether it is the best-scored), best-scored first.
        let mut tried = Vec::with_capacity(order.len());
        for (rank, &i) in order.iter().enumerate() {
            let play = moves[i];
            self.inputs.clear();
            action_features(&pos, &play, &table.rules, &mut self.inputs);
            let inputs: Box<[u16]> = self.inputs.as_slice().into();
            let mut won = 0;
            for start in &starts {
                let mut rollout = start.clone();
                rollout.apply(play);
                let landlord_won = rollout.play_out(&mut self.scorer, &mut self.teacher, versus);
                won += usize::from((seat == LANDLORD) == landlord_won);
            }
            tried.push((won, inputs, rank == 0));
        }
        self.rollout_moves = moves;
        // The most won first (a stable sort keeps the scores' order among equals).
        tried.sort_by_key(|(won, _, _)| std::cmp::Reverse(*won));
        let most = tried.first().map_or(0, |(won, _, _)| *won);
        let leaders = tried.iter().filter(|(won, _, _)| *won == most).count();
        let valued = tried.iter().position(|(_, _, best)| *best).unwrap_or(0);
        let share = tried[valued].0 as f32 / starts.len().max(1) as f32;
        self.inputs.clear();
        state_features(&pos, &mut self.inputs);
        out.push(TrainingExample {
            state: self.inputs.as_slice().into(),
            preferred: if leaders < tried.len() { leaders } else { 0 },
            moves: tried.into_iter().map(|(_, inputs, _)| inputs).collect(),
            target: 2.0 * share - 1.0,
            valued,
        });
    }
}

impl Actor {
    /// The decision of [`Behaviour::expert`] at the network's turn in `table`, into `out`
    /// (its target, the game's outcome, is set when the game ends): the expert's play first
    /// and preferred, then the network's best-scored other plays, `expert.keep_moves` in all.
    /// Returns the expert's play.
    fn ask_expert(
        &mut self,
        table: &TrainGame,
        expert: Expert,
        out: &mut Vec<TrainingExample>,
    ) -> Move {
        let view = table.seat_view();
        table
            .state
            .legal_moves_into(&table.rules, &mut self.rollout_moves);
        let seed = self.rng.next_u64();
        let bot = self
            .expert
            .get_or_insert_with(|| SearchBot::new(expert.search, seed));
        let chosen = bot.play(&view, &self.rollout_moves);
        let pos = table.position();
        self.scorer
            .scores(&pos, &table.rules, &self.rollout_moves, &mut self.scores);
        let mut others: Vec<usize> = (0..self.rollout_moves.len())
            .filter(|&i| self.rollout_moves[i] != chosen)
            .collect();
        others.sort_by(|&a, &b| self.scores[b].total_cmp(&self.scores[a]));
        others.truncate(expert.keep_moves.saturating_sub(1));
        let mut moves = Vec::with_capacity(others.len() + 1);
        for play in std::iter::once(chosen).chain(others.iter().map(|&i| self.rollout_moves[i])) {
            self.inputs.clear();
            action_features(&pos, &play, &table.rules, &mut self.inputs);
            moves.push(self.inputs.as_slice().into());
        }
        self.inputs.clear();
        state_features(&pos, &mut self.inputs);
        out.push(TrainingExample {
            state: self.inputs.as_slice().into(),
            moves,
            target: 0.0,
            preferred: 1,
            valued: 0,
        });
        chosen
    }
}

/// The seed of game `n` of a run seeded `seed`, actor `actor`.
pub fn game_seed(seed: u64, actor: usize, n: u64) -> u64 {
    derive_seed(derive_seed(seed, 0xAC70 + actor as u64), n)
}
