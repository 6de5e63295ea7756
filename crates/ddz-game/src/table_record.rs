//! The record of a [`TableGame`] (two or four seats) and its replay.
//!
//! A table record is JSON like a three-seat [`crate::GameRecord`], in its own format
//! [`TABLE_RECORD_FORMAT`]: `rules` (which give the seats), `seed`, `deal` (every hand, the
//! kitty and the cards out of play, as rank strings: a table deal has no physical cards yet),
//! `redeals`, `bids` of the final deal, `landlord`, `plays` in move notation and `result`.
//! The all-pass rounds before the redeals are implied, as in three-seat records. The replay
//! rebuilds the game from the seed and checks the deal, every bid and play, and the result.

use serde::{Deserialize, Serialize};

use ddz_core::{Cards, Rules, move_notation, parse_cards_in, parse_move};

use crate::action::{Bid, Phase};
use crate::record::{MAX_REDEALS, ReplayError, Step};
use crate::scoring::GameResult;
use crate::seat::Seat;
use crate::table_game::TableGame;

/// The format version of table records.
pub const TABLE_RECORD_FORMAT: &str = "ddz-table-record/1";

/// A table deal as text: each seat's dealt cards, the kitty and the cards out of play.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TableDealLine {
    /// Each seat's cards as dealt (before the kitty), seat 0 first.
    pub hands: Vec<String>,
    /// The kitty (底牌).
    pub kitty: String,
    /// The cards out of play (`two`: 9), empty when every card is dealt.
    pub out_of_play: String,
}

/// One game at an `N`-seat table as a record (format [`TABLE_RECORD_FORMAT`]).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TableRecord<const N: usize> {
    /// [`TABLE_RECORD_FORMAT`].
    pub format: String,
    /// The rule set (every field); its `seats` is `N`.
    pub rules: Rules,
    /// The game's seed (deal, first bidder and redeals are derived from it).
    pub seed: u64,
    /// The final deal.
    pub deal: TableDealLine,
    /// How many times nobody bid and the cards were dealt again.
    pub redeals: u32,
    /// The bids of the final deal, `[seat, bid]`.
    pub bids: Vec<(u8, Bid)>,
    /// The landlord's seat, once decided.
    pub landlord: Option<u8>,
    /// Every play, `[seat, move notation]`, passes included.
    pub plays: Vec<(u8, String)>,
    /// The result, when the game is over.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub result: Option<GameResult<N>>,
}

impl<const N: usize> TableRecord<N> {
    /// The record of `game` as it stands.
    pub fn from_game(game: &TableGame<N>) -> TableRecord<N> {
        let deal = game.deal();
        TableRecord {
            format: TABLE_RECORD_FORMAT.to_string(),
            rules: game.rules().clone(),
            seed: game.seed(),
            deal: TableDealLine {
                hands: deal.hands.0.iter().map(Cards::to_string).collect(),
                kitty: deal.kitty.to_string(),
                out_of_play: deal.out_of_play.to_string(),
            },
            redeals: game.redeals(),
            bids: game
                .bids()
                .iter()
                .map(|&(s, b)| (s.index() as u8, b))
                .collect(),
            landlord: game.landlord().map(|s| s.index() as u8),
            plays: game
                .history()
                .iter()
                .map(|(s, m)| (s.index() as u8, move_notation(m, game.rules())))
                .collect(),
            result: game.result().cloned(),
        }
    }

    /// Parses a table record's JSON text: the format first, then the fields, the rules (which
    /// must seat `N`) and the bounds of what a replay reads.
    pub fn parse(text: &str) -> Result<TableRecord<N>, ReplayError> {
        let value: serde_json::Value = serde_json::from_str(text)
            .map_err(|e| ReplayError::new(Step::Json, format!("not valid JSON: {e}")))?;
        match value.get("format") {
            Some(serde_json::Value::String(f)) if f == TABLE_RECORD_FORMAT => {}
            other => {
                let found = other.map_or("nothing".to_string(), |v| v.to_string());
                return Err(ReplayError::new(
                    Step::Format,
                    format!("expected \"{TABLE_RECORD_FORMAT}\", found {found}"),
                ));
            }
        }
        let record: TableRecord<N> = serde_json::from_value(value)
            .map_err(|e| ReplayError::new(Step::Json, format!("not a table record: {e}")))?;
        if record.redeals > MAX_REDEALS {
            return Err(ReplayError::new(
                Step::Json,
                format!("\"redeals\": {} is more than {MAX_REDEALS}", record.redeals),
            ));
        }
        let rules = &record.rules;
        rules
            .check_fields()
            .and_then(|()| rules.check_table())
            .map_err(|e| ReplayError::new(Step::Rules, e.to_string()))?;
        if usize::from(rules.seats) != N {
            return Err(ReplayError::new(
                Step::Rules,
                format!("the rules seat {}, not {N}", rules.seats),
            ));
        }
        Ok(record)
    }

    /// The record as JSON text.
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).unwrap_or_default()
    }

    /// Rebuilds the game from the seed, checking the redeals, the deal, every bid, the
    /// landlord, every play and the result.
    pub fn replay(&self) -> Result<TableGame<N>, ReplayError> {
        let rules = &self.rules;
        let mut game = TableGame::<N>::new(rules, self.seed)
            .map_err(|e| ReplayError::new(Step::Rules, e.to_string()))?;
        for round in 1..=self.redeals {
            // Every seat passes (or declines) in turn until the cards are dealt again.
            while game.redeals() < round {
                if game.phase() != Phase::Bidding {
                    return Err(ReplayError::new(
                        Step::Redeal(round),
                        "nobody bid is not a redeal under these rules",
                    ));
                }
                game.bid(game.turn(), 0)
                    .map_err(|e| ReplayError::new(Step::Redeal(round), e.to_string()))?;
            }
        }
        self.check_deal(&game)?;
        for (i, &(seat, bid)) in self.bids.iter().enumerate() {
            let step = Step::Bid {
                index: i + 1,
                seat,
                bid,
            };
            let s = self.seat(seat, &step)?;
            game.bid(s, bid)
                .map_err(|e| ReplayError::new(step.clone(), e.to_string()))?;
            if game.redeals() != self.redeals {
                return Err(ReplayError::new(
                    step,
                    "nobody bid: the cards are dealt again",
                ));
            }
        }
        if game.landlord().map(|s| s.index() as u8) != self.landlord {
            let found = game
                .landlord()
                .map_or("none".to_string(), |s| s.to_string());
            return Err(ReplayError::new(
                Step::Landlord,
                format!("the bids make {found} the landlord"),
            ));
        }
        for (i, (seat, text)) in self.plays.iter().enumerate() {
            let step = Step::Play {
                index: i + 1,
                seat: *seat,
                text: text.clone(),
            };
            let s = self.seat(*seat, &step)?;
            let last = game.last().map(|(_, m)| m);
            let play = parse_move(text, rules, last.as_ref())
                .map_err(|e| ReplayError::new(step.clone(), e.to_string()))?;
            game.play(s, play)
                .map_err(|e| ReplayError::new(step, e.to_string()))?;
        }
        if game.result() != self.result.as_ref() {
            let what = match game.result() {
                Some(r) => format!("the plays give scores {:?}", r.scores.0),
                None => "the plays do not end the game".to_string(),
            };
            return Err(ReplayError::new(Step::Result, what));
        }
        Ok(game)
    }

    /// A recorded seat, refused when the table has no such seat.
    fn seat(&self, seat: u8, step: &Step) -> Result<Seat, ReplayError> {
        Seat::of::<N>(seat)
            .ok_or_else(|| ReplayError::new(step.clone(), format!("no seat {seat} at {N} seats")))
    }

    /// Checks the recorded deal against the seed's.
    fn check_deal(&self, game: &TableGame<N>) -> Result<(), ReplayError> {
        let deal = game.deal();
        let line = &self.deal;
        let parse = |what: &str, text: &str| {
            parse_cards_in(text, &self.rules)
                .map_err(|e| ReplayError::new(Step::Deal, format!("{what}: {e}")))
        };
        if line.hands.len() != N {
            return Err(ReplayError::new(
                Step::Deal,
                format!("{} hands for {N} seats", line.hands.len()),
            ));
        }
        for (i, text) in line.hands.iter().enumerate() {
            if parse(&format!("seat {i}"), text)? != deal.hands.0[i] {
                return Err(ReplayError::new(
                    Step::Deal,
                    format!("seat {i}'s cards are not the seed's ({})", deal.hands.0[i]),
                ));
            }
        }
        if parse("kitty", &line.kitty)? != deal.kitty
            || parse("out of play", &line.out_of_play)? != deal.out_of_play
        {
            return Err(ReplayError::new(
                Step::Deal,
                "the kitty or the cards out of play are not the seed's",
            ));
        }
        Ok(())
    }
}
