//! Difficulty levels for players: `level:1` (a beginner) to `level:8` (the strongest robot),
//! each a robot usable wherever a robot spec is ([`crate::BotSpec`]).
//!
//! The weak levels err as people do rather than by random moves: they read the same
//! evaluation as the `net` robot (its network's score of each legal play) but choose among
//! the plays by a softmax at a temperature, so that a play scored nearly as well as the best is
//! often taken and a poor one rarely; and they forget: a level remembers only its last few
//! plays of the table (the cards gone before are out of its mind, so it counts what is left
//! wrongly and keeps or breaks its combinations by a wrong count). Level 7 is the `net` robot
//! itself (four networks, the best play); level 8 the `search` robot at its default budget.
//! Bidding, doubling and showing are the `net` robot's at every level below 8.
//!
//! The levels' ratings on the scale of `ddz ratings` are in STRENGTH.md, with the command that
//! measured them (docs/strength-runs/levels-calibration.md).

use ddz_core::{Cards, Move};
use ddz_game::{Bid, BySeat, SeatView, SplitMix64};

use crate::net::{Net, NetBot, NetConfig, Position, Scorer};
use crate::search::{SearchBot, SearchConfig};
use crate::{Bot, BotError};

/// The levels, weakest first.
pub const LEVELS: core::ops::RangeInclusive<u8> = 1..=8;

/// How a level below 7 chooses its plays.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Habits {
    /// The softmax temperature over the network's scores of the plays (scores are chances of
    /// winning mapped to -1..1).
    temperature: f32,
    /// How many of the table's last plays (passes included) the level remembers; `None` for
    /// all of them.
    memory: Option<usize>,
}

/// One level: its number, what it is in one line, and how it plays.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Level {
    number: u8,
    summary: &'static str,
    habits: Option<Habits>,
}

/// The table of levels. The temperatures and memories were set by the calibration of
/// docs/strength-runs/levels-calibration.md.
const TABLE: [Level; 8] = [
    Level {
        number: 1,
        summary: "a beginner: plays what looks good at a glance, often not the best, and forgets every card played",
        habits: Some(Habits {
            temperature: 0.9,
            memory: Some(0),
        }),
    },
    Level {
        number: 2,
        summary: "a novice: sees the obvious plays, remembers only the last two plays of the table",
        habits: Some(Habits {
            temperature: 0.3,
            memory: Some(2),
        }),
    },
    Level {
        number: 3,
        summary: "a casual player: a fair eye for a play, remembers the last round or so",
        habits: Some(Habits {
            temperature: 0.12,
            memory: Some(3),
        }),
    },
    Level {
        number: 4,
        summary: "a club player: usually the right kind of play, remembers the last two rounds",
        habits: Some(Habits {
            temperature: 0.06,
            memory: Some(6),
        }),
    },
    Level {
        number: 5,
        summary: "a good player: rarely a poor play, keeps count of most of what was played",
        habits: Some(Habits {
            temperature: 0.03,
            memory: Some(14),
        }),
    },
    Level {
        number: 6,
        summary: "a strong player: counts nearly every card, now and then a second-best play",
        habits: Some(Habits {
            temperature: 0.02,
            memory: Some(24),
        }),
    },
    Level {
        number: 7,
        summary: "an expert: the net robot, the best play by four networks, every card counted",
        habits: None,
    },
    Level {
        number: 8,
        summary: "a master: the search robot, thousands of playouts over the hidden hands",
        habits: None,
    },
];

impl Level {
    /// Level `number` (1 to 8), or the error that names the levels.
    pub fn get(number: u8) -> Result<Level, BotError> {
        TABLE
            .iter()
            .find(|level| level.number == number)
            .copied()
            .ok_or_else(|| BotError::UnknownLevel(number.to_string()))
    }

    /// The level a spec's option names (`3` in `level:3`).
    pub fn parse(option: &str) -> Result<Level, BotError> {
        match option.trim().parse::<u8>() {
            Ok(number) => Level::get(number),
            Err(_) => Err(BotError::UnknownLevel(option.trim().to_string())),
        }
    }

    /// Every level, weakest first.
    pub fn all() -> [Level; 8] {
        TABLE
    }

    /// The level's number.
    pub const fn number(&self) -> u8 {
        self.number
    }

    /// How the level plays, in one line.
    pub const fn summary(&self) -> &'static str {
        self.summary
    }

    /// A robot of this level seeded with `seed`.
    pub fn build(&self, seed: u64) -> Box<dyn Bot> {
        match (self.number, self.habits) {
            (_, Some(habits)) => Box::new(LevelBot::new(self.number, habits, seed)),
            (8, None) => Box::new(SearchBot::new(SearchConfig::default(), seed)),
            _ => Box::new(NetBot::new(&NetConfig::default(), seed)),
        }
    }
}

/// A level below 7: the network's scores, a temperature, a memory.
#[derive(Clone, Debug)]
struct LevelBot {
    name: String,
    habits: Habits,
    scorer: Scorer,
    scores: Vec<f32>,
    /// The `net` robot, for bids, doublings and shows.
    net: NetBot,
    rng: SplitMix64,
}

impl LevelBot {
    fn new(number: u8, habits: Habits, seed: u64) -> LevelBot {
        LevelBot {
            name: format!("level:{number}"),
            habits,
            scorer: Scorer::new(Net::embedded()),
            scores: Vec::new(),
            net: NetBot::new(&NetConfig::default(), seed),
            rng: SplitMix64::new(seed ^ 0x1e7e1),
        }
    }

    /// The index of the play chosen among `scores` by a softmax at the level's temperature.
    fn sample(&mut self, scores: &[f32]) -> usize {
        let top = scores.iter().copied().fold(f32::NEG_INFINITY, f32::max);
        let t = self.habits.temperature.max(1e-6);
        let weights: Vec<f64> = scores
            .iter()
            .map(|&s| f64::from(((s - top) / t).exp()))
            .collect();
        let total: f64 = weights.iter().sum();
        // A uniform draw in [0, total) from 53 random bits.
        let mut draw = (self.rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64 * total;
        for (i, w) in weights.iter().enumerate() {
            if draw < *w {
                return i;
            }
            draw -= w;
        }
        weights.len() - 1
    }
}

/// The position a seat sees when it remembers only the last `memory` plays of `history`:
/// the cards played before are forgotten (counted as still out).
fn remembered<'a>(pos: Position<'a>, memory: Option<usize>) -> Position<'a> {
    let Some(memory) = memory else {
        return pos;
    };
    let start = pos.history.len().saturating_sub(memory);
    let history = &pos.history[start..];
    let mut played = BySeat([Cards::EMPTY; 3]);
    for &(seat, m) in history {
        played[seat] = played[seat].union(m.cards());
    }
    Position {
        history,
        played,
        ..pos
    }
}

impl Bot for LevelBot {
    fn name(&self) -> &str {
        &self.name
    }

    fn bid(&mut self, view: &SeatView, allowed: &[Bid]) -> Bid {
        self.net.bid(view, allowed)
    }

    fn double(&mut self, view: &SeatView, allowed: &[u32]) -> u32 {
        self.net.double(view, allowed)
    }

    fn show(&mut self, view: &SeatView, factor: u32) -> bool {
        self.net.show(view, factor)
    }

    fn play(&mut self, view: &SeatView, allowed: &[Move]) -> Move {
        if let Some(m) = crate::obvious_play(view.hand(), allowed) {
            return m;
        }
        let Some(pos) = Position::of_view(view) else {
            return allowed[0];
        };
        let pos = remembered(pos, self.habits.memory);
        let mut scores = std::mem::take(&mut self.scores);
        self.scorer.scores(&pos, view.rules(), allowed, &mut scores);
        let chosen = self.sample(&scores);
        self.scores = scores;
        allowed[chosen]
    }
}

/// The levels as robot specs, for lists (`level:1`, ..., `level:8`).
pub fn level_specs() -> Vec<String> {
    LEVELS.map(|n| format!("level:{n}")).collect()
}
