//! `ddz play --rules two|four`: you against robots at a table of two or four seats
//! (docs/variants.md), on the screen ([`screen`]) or line by line ([`plain`]).
//!
//! [`VariantTable`] is the sitting: the game in play (a [`TableGame`]), the table robots
//! ([`TableBot`]) in the other seats, the running totals and the saved records
//! (`ddz-table-record/1`, which `ddz replay` reads). The three-seat table, with showing,
//! doubling, wildcards and physical cards, is `super::table`.

pub mod plain;
pub mod screen;

use std::path::{Path, PathBuf};

use ddz_bots::table::{TABLE_ROBOTS, TableBot};
use ddz_core::{Bidding, Cards, Move, Rules};
use ddz_game::{
    Bid, BySeat, GameResult, Phase, Role, Seat, Side, TableGame, TableRecord, derive_seed,
};

/// What a table is set up with.
pub struct VariantOptions {
    /// The rules: a two- or four-seat profile.
    pub rules: Rules,
    /// The robots' specs, one per other seat in the order they play after yours.
    pub bots: Vec<String>,
    /// The robot that gives hints and plays for you on `auto`.
    pub hint_bot: String,
    /// Your seat.
    pub seat: Seat,
    /// The first game's seed; game n is dealt from `seed + n - 1`.
    pub seed: u64,
    /// Where each finished game's record is saved, if anywhere.
    pub records: Option<PathBuf>,
}

/// Something that happened at the table, to narrate or draw.
#[derive(Clone, Debug, PartialEq)]
pub enum VariantEvent {
    /// A seat bid (under call-and-rob: 1 calls or robs, 0 declines).
    Bid {
        /// Who bid.
        seat: Seat,
        /// The bid.
        bid: Bid,
    },
    /// Nobody bid: the cards are dealt again.
    Redeal,
    /// The bidding is over: `seat` is the landlord and takes the kitty.
    Landlord {
        /// The landlord.
        seat: Seat,
        /// The kitty, shown to all.
        kitty: Cards,
    },
    /// A seat played (or passed).
    Play {
        /// Who played.
        seat: Seat,
        /// The play.
        play: Move,
    },
    /// The game is over ([`VariantTable::outcome_lines`]).
    Over,
}

/// A finished game, as the table keeps it.
pub struct VariantOutcome<const N: usize> {
    /// The result.
    pub result: GameResult<N>,
    /// Where the record was saved, or why it could not be.
    pub record: Option<Result<PathBuf, String>>,
}

/// You and the robots at a table of `N` seats, game after game.
pub struct VariantTable<const N: usize> {
    options: VariantOptions,
    game: TableGame<N>,
    number: u32,
    /// The robot of every seat but yours.
    bots: BySeat<Option<TableBot>, N>,
    hinter: TableBot,
    totals: BySeat<i64, N>,
    finished: u32,
    outcome: Option<VariantOutcome<N>>,
    /// The hints for the current turn and the index of the next one.
    hints: Option<(Vec<Move>, usize)>,
}

impl<const N: usize> VariantTable<N> {
    /// The table's first game; refused with the reason when a robot's spec is not a table
    /// robot's, the specs do not fit the seats, or the rules are not an `N`-seat game's.
    pub fn new(options: VariantOptions) -> Result<VariantTable<N>, String> {
        let others = N - 1;
        if options.bots.len() != 1 && options.bots.len() != others {
            return Err(format!(
                "--bots takes one robot name or {others}, one for each other seat; \
                 at this table the robots are {}",
                TABLE_ROBOTS.join(", ")
            ));
        }
        let game = TableGame::<N>::new(&options.rules, options.seed).map_err(|e| e.to_string())?;
        let mut table = VariantTable {
            hinter: robot(&options.hint_bot, options.seed, "--hint-bot")?,
            game,
            number: 1,
            bots: BySeat::default(),
            totals: BySeat::default(),
            finished: 0,
            outcome: None,
            hints: None,
            options,
        };
        table.seat_robots()?;
        Ok(table)
    }

    /// Seats this game's robots, each seeded from the game's seed and its seat.
    fn seat_robots(&mut self) -> Result<(), String> {
        let seed = self.game.seed();
        let me = self.me();
        let mut seat = me;
        for i in 0..N - 1 {
            seat = seat.next_of::<N>();
            let spec = &self.options.bots[i.min(self.options.bots.len() - 1)];
            self.bots[seat] = Some(robot(spec, derive_seed(seed, 100 + i as u64), "--bots")?);
        }
        self.bots[me] = None;
        self.hinter = robot(&self.options.hint_bot, derive_seed(seed, 99), "--hint-bot")?;
        Ok(())
    }

    /// Deals the next game (seed + 1).
    pub fn next_game(&mut self) -> Result<(), String> {
        let seed = self.game.seed().wrapping_add(1);
        self.game = TableGame::<N>::new(&self.options.rules, seed).map_err(|e| e.to_string())?;
        self.number += 1;
        self.outcome = None;
        self.hints = None;
        self.seat_robots()
    }

    /// The game in play (or just over).
    pub const fn game(&self) -> &TableGame<N> {
        &self.game
    }

    /// The rules.
    pub const fn rules(&self) -> &Rules {
        &self.options.rules
    }

    /// Your seat.
    pub const fn me(&self) -> Seat {
        self.options.seat
    }

    /// This game's number in the sitting, from 1.
    pub const fn number(&self) -> u32 {
        self.number
    }

    /// Each seat's total over the finished games.
    pub const fn totals(&self) -> BySeat<i64, N> {
        self.totals
    }

    /// Whether the game is over.
    pub fn is_over(&self) -> bool {
        self.game.phase() == Phase::Over
    }

    /// Who sits in `seat`: `you` or the robot's name.
    pub fn seat_name(&self, seat: Seat) -> String {
        match &self.bots[seat] {
            Some(bot) => bot.name().to_string(),
            None => "you".to_string(),
        }
    }

    /// "you (seat 0)" or "ddzlib (seat 1)".
    pub fn seat_label(&self, seat: Seat) -> String {
        format!("{} (seat {seat})", self.seat_name(seat))
    }

    /// A seat's role, once the landlord is known.
    pub fn role(&self, seat: Seat) -> Option<Role> {
        self.game.landlord().map(|l| Role::at::<N>(seat, l))
    }

    /// A seat's role in a word: landlord, farmer, or bidding before the landlord is known.
    pub fn role_word(&self, seat: Seat) -> &'static str {
        match self.role(seat) {
            Some(Role::Landlord) => "landlord",
            Some(_) => "farmer",
            None => "bidding",
        }
    }

    /// The seats in the order they play after yours, yours first.
    pub fn seats_from_me(&self) -> [Seat; N] {
        let mut seats = [self.me(); N];
        for i in 1..N {
            seats[i] = seats[i - 1].next_of::<N>();
        }
        seats
    }

    /// Whether it is your turn to act.
    pub fn my_turn(&self) -> bool {
        !self.is_over() && self.game.turn() == self.me()
    }

    /// Whether a robot is to act.
    pub fn robot_to_act(&self) -> bool {
        !self.is_over() && self.game.turn() != self.me()
    }

    /// How a bid is said under these rules, given the bids before it.
    pub fn bid_word(&self, bid: Bid, earlier: &[(Seat, Bid)]) -> String {
        super::table::bid_word(self.rules().bidding, bid, earlier)
    }

    /// The bids you may make now (empty off your bidding turn).
    pub fn my_bids(&self) -> Vec<Bid> {
        if self.my_turn() {
            self.game.legal_bids()
        } else {
            Vec::new()
        }
    }

    /// Your bid.
    pub fn bid(&mut self, bid: Bid) -> Result<Vec<VariantEvent>, String> {
        self.bid_as(self.me(), bid)
    }

    /// Your play.
    pub fn play(&mut self, play: Move) -> Result<Vec<VariantEvent>, String> {
        self.play_as(self.me(), play)
    }

    /// Your pass (declining, when bidding).
    pub fn pass(&mut self) -> Result<Vec<VariantEvent>, String> {
        if self.game.phase() == Phase::Bidding {
            return self.bid(0);
        }
        self.play(Move::PASS)
    }

    /// Every legal reading of exactly these cards of yours, or why there is none.
    pub fn readings(&self, cards: Cards) -> Result<Vec<Move>, String> {
        self.game
            .readings(self.me(), cards)
            .map_err(|e| e.to_string())
    }

    /// The next hint for your turn to play, with its number and how many there are: the
    /// hint robot's choice first, then every other legal play, fewest cards first.
    pub fn next_hint(&mut self) -> Option<(Move, usize, usize)> {
        if !self.my_turn() || self.game.phase() != Phase::Playing {
            return None;
        }
        if self.hints.is_none() {
            let legal = self.game.legal_moves();
            let turn = self.game.turn_view()?;
            let choice = self.hinter.play(&turn, &legal);
            let mut rest: Vec<Move> = legal
                .into_iter()
                .filter(|m| *m != choice && !m.is_pass())
                .collect();
            rest.sort_by_key(|m| (m.card_count(), m.main()));
            let mut list = vec![choice];
            list.extend(rest);
            self.hints = Some((list, 0));
        }
        let (list, next) = self.hints.as_mut()?;
        let hint = *list.get(*next)?;
        let at = *next;
        *next = (*next + 1) % list.len();
        Some((hint, at + 1, list.len()))
    }

    /// The hint robot acts for you once (the `auto` command).
    pub fn auto_step(&mut self) -> Result<Vec<VariantEvent>, String> {
        if !self.my_turn() {
            return Err("it is not your turn".into());
        }
        let me = self.me();
        self.robot_act(me)
    }

    /// One robot action when a robot is to act: its events, or `None`.
    pub fn robot_step(&mut self) -> Option<Vec<VariantEvent>> {
        if !self.robot_to_act() {
            return None;
        }
        self.robot_act(self.game.turn()).ok()
    }

    /// The action of the robot in `seat` (the hint robot in yours).
    fn robot_act(&mut self, seat: Seat) -> Result<Vec<VariantEvent>, String> {
        let bot = match self.bots[seat].as_mut() {
            Some(bot) => bot,
            None => &mut self.hinter,
        };
        match self.game.phase() {
            Phase::Bidding => {
                let allowed = self.game.legal_bids();
                let bid = bot.bid(&self.game, &allowed);
                self.bid_as(seat, bid)
            }
            _ => {
                let allowed = self.game.legal_moves();
                let turn = self.game.turn_view().ok_or("the game is over")?;
                let play = bot.play(&turn, &allowed);
                self.play_as(seat, play)
            }
        }
    }

    fn bid_as(&mut self, seat: Seat, bid: Bid) -> Result<Vec<VariantEvent>, String> {
        let redeals = self.game.redeals();
        self.game.bid(seat, bid).map_err(|e| e.to_string())?;
        self.hints = None;
        let mut events = vec![VariantEvent::Bid { seat, bid }];
        if self.game.redeals() > redeals {
            events.push(VariantEvent::Redeal);
        }
        if let Some(landlord) = self.game.landlord() {
            events.push(VariantEvent::Landlord {
                seat: landlord,
                kitty: self.game.deal().kitty,
            });
        }
        Ok(events)
    }

    fn play_as(&mut self, seat: Seat, play: Move) -> Result<Vec<VariantEvent>, String> {
        self.game.play(seat, play).map_err(|e| e.to_string())?;
        self.hints = None;
        let mut events = vec![VariantEvent::Play { seat, play }];
        if let Some(result) = self.game.result().cloned() {
            for seat in Seat::all::<N>() {
                self.totals[seat] += result.scores[seat];
            }
            self.finished += 1;
            let record = self
                .options
                .records
                .as_deref()
                .map(|dir| save_record(dir, &self.game, self.number));
            self.outcome = Some(VariantOutcome { result, record });
            events.push(VariantEvent::Over);
        }
        Ok(events)
    }

    /// One line for an event (the end of the game has [`VariantTable::outcome_lines`]).
    pub fn describe(&self, event: &VariantEvent) -> String {
        let rules = self.rules();
        match event {
            VariantEvent::Bid { seat, bid } => {
                // The bid's word depends on the bids before it.
                let bids = self.game.bids();
                let earlier = bids
                    .iter()
                    .rposition(|&(s, b)| s == *seat && b == *bid)
                    .map_or(bids, |i| &bids[..i]);
                match (rules.bidding, *bid) {
                    (Bidding::Points, 0) => format!("{} passes", self.seat_label(*seat)),
                    (Bidding::Points, b) => format!("{} bids {b}", self.seat_label(*seat)),
                    _ => format!(
                        "{}: {}",
                        self.seat_label(*seat),
                        self.bid_word(*bid, earlier)
                    ),
                }
            }
            VariantEvent::Redeal => "nobody bid: the cards are dealt again".to_string(),
            VariantEvent::Landlord { seat, kitty } => {
                let mut line = format!(
                    "{} is the landlord and takes the kitty {}",
                    self.seat_label(*seat),
                    hand_text(*kitty)
                );
                if let Some((farmer, cards)) = self.game.handicap() {
                    line += &format!(
                        "; handicap (让牌): a win for {} at {cards} card(s) or fewer",
                        self.seat_label(farmer)
                    );
                }
                line
            }
            VariantEvent::Play { seat, play } if play.is_pass() => {
                format!("{} passes", self.seat_label(*seat))
            }
            VariantEvent::Play { seat, play } => format!(
                "{} plays {} ({} left)",
                self.seat_label(*seat),
                ddz_core::move_notation(play, rules),
                self.game.hand(*seat).len()
            ),
            VariantEvent::Over => "the game is over".to_string(),
        }
    }

    /// The lines that tell a finished game: who won, the stake, each seat's score and total,
    /// and where the record went.
    pub fn outcome_lines(&self) -> Vec<String> {
        let Some(outcome) = &self.outcome else {
            return Vec::new();
        };
        let r = &outcome.result;
        let me = self.me();
        let mine = self.role(me).map(|role| {
            let landlord = matches!(role, Role::Landlord);
            landlord == (r.winner == Side::Landlord)
        });
        let side = match r.winner {
            Side::Landlord => "the landlord wins",
            Side::Farmers if N == 2 => "the farmer wins",
            Side::Farmers => "the farmers win",
        };
        let verdict = if mine == Some(true) {
            "you win"
        } else {
            "you lose"
        };
        let mut how = Vec::new();
        if r.spring {
            how.push("spring".to_string());
        }
        if r.anti_spring {
            how.push("anti-spring".to_string());
        }
        if r.bombs > 0 {
            how.push(format!("{} bomb(s)", r.bombs));
        }
        if r.rocket {
            how.push("top bomb".to_string());
        }
        let mut lines = vec![format!(
            "game over: {side}, {verdict}; {} out first; stake base {} x {}{}",
            self.seat_label(r.first_out),
            r.base,
            r.multiplier,
            if how.is_empty() {
                String::new()
            } else {
                format!(" ({})", how.join(", "))
            }
        )];
        for seat in self.seats_from_me() {
            lines.push(format!(
                "  {}, {}: {:+} (total {:+}), left {}",
                self.seat_label(seat),
                self.role_word(seat),
                r.scores[seat],
                self.totals[seat],
                hand_text(self.game.hand(seat))
            ));
        }
        match &outcome.record {
            Some(Ok(path)) => lines.push(format!("record saved: {}", path.display())),
            Some(Err(why)) => lines.push(format!("record not saved: {why}")),
            None => {}
        }
        lines
    }

    /// The running totals in a line.
    pub fn totals_line(&self) -> String {
        let parts: Vec<String> = self
            .seats_from_me()
            .iter()
            .map(|&s| format!("{} {:+}", self.seat_label(s), self.totals[s]))
            .collect();
        format!(
            "totals after {} game(s): {}",
            self.finished,
            parts.join(", ")
        )
    }
}

/// A table robot from its spec, the option named in the error.
fn robot(spec: &str, seed: u64, option: &str) -> Result<TableBot, String> {
    TableBot::from_spec(spec.trim(), seed).map_err(|e| {
        format!(
            "{option} \"{}\": {e} (at two and four seats the robots are {})",
            spec.trim(),
            TABLE_ROBOTS.join(", ")
        )
    })
}

/// A hand as rank letters separated by spaces: `5 5 9 T J R`; `-` when empty.
pub fn hand_text(hand: Cards) -> String {
    if hand.is_empty() {
        return "-".to_string();
    }
    let cards: Vec<String> = hand.iter().map(|r| r.to_string()).collect();
    cards.join(" ")
}

/// Saves a finished game's record (`ddz-table-record/1`) in `dir`
/// ([`super::records::save_record_text`]).
fn save_record<const N: usize>(
    dir: &Path,
    game: &TableGame<N>,
    number: u32,
) -> Result<PathBuf, String> {
    let text = TableRecord::from_game(game).to_json() + "\n";
    super::records::save_record_text(dir, game.seed(), number, &text)
}
