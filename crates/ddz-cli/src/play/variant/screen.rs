//! `ddz play --rules two|four` on the screen: the table of two or four seats in the terminal
//! (ratatui), laid out for the seat count.
//!
//! Two seats: the other player across the top, the trick in the middle, your hand below.
//! Four seats: the three others across the top in the order they sit around you (the seat
//! before yours on the left, the seat across in the middle, the seat after yours on the
//! right). A hand of up to 33 cards (the four-seat landlord's) wraps onto two rows; the
//! cards are ranks, as a two-deck game has no suits to tell apart.

use std::time::Duration;

use anyhow::Result;
use ddz_core::{Bidding, Cards, Move, Rank, move_notation};
use ddz_game::{Phase, Seat, TrickOf};
use ratatui::Frame;
use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyEventKind};
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span, Text};
use ratatui::widgets::{Block, Borders, Clear, Paragraph, Wrap};

use super::super::screen_loop::{MIN_HEIGHT, MIN_WIDTH, TableScreen, event_loop};
use super::super::tui::{overlay, rank_of_key};
use super::{VariantEvent, VariantTable};

/// What the keys do at the moment.
#[derive(Clone, Debug, PartialEq)]
pub enum Mode {
    /// The table: select cards, play, pass, bid, hint.
    Table,
    /// The selection has several readings: choose one.
    Readings {
        /// The readings offered.
        readings: Vec<Move>,
        /// The one highlighted.
        index: usize,
    },
    /// The help overlay.
    Help,
    /// Esc was pressed: quit?
    ConfirmQuit,
}

/// The screen's state around a table of `N` seats.
pub struct Screen<const N: usize> {
    /// The table.
    pub table: VariantTable<N>,
    /// Index of the card under the cursor in your hand (in rank order).
    pub cursor: usize,
    /// Which of your cards (by index in rank order) are selected.
    pub selected: Vec<bool>,
    /// What the keys do now.
    pub mode: Mode,
    /// The status line: a message and whether it is a refusal.
    pub message: Option<(String, bool)>,
    /// Whether to leave.
    pub quit: bool,
}

impl<const N: usize> Screen<N> {
    /// A screen on a table.
    pub fn new(table: VariantTable<N>) -> Screen<N> {
        let n = table.game().hand(table.me()).len() as usize;
        Screen {
            table,
            cursor: 0,
            selected: vec![false; n],
            mode: Mode::Table,
            message: None,
            quit: false,
        }
    }

    /// Your cards in rank order.
    pub fn hand(&self) -> Vec<Rank> {
        self.table.game().hand(self.table.me()).iter().collect()
    }

    /// The selected cards.
    pub fn selection(&self) -> Cards {
        let mut cards = Cards::EMPTY;
        for (rank, _) in self
            .hand()
            .into_iter()
            .zip(&self.selected)
            .filter(|(_, s)| **s)
        {
            cards = cards.add(rank, 1);
        }
        cards
    }

    /// Whether a robot may act now (not while an overlay or a question is open).
    pub fn robot_may_act(&self) -> bool {
        self.mode == Mode::Table && self.table.robot_to_act()
    }

    /// Lets the robot to act play once and shows what it did.
    pub fn robot_step(&mut self) {
        if let Some(events) = self.table.robot_step() {
            self.show_events(&events);
        }
    }

    /// Puts the last event worth reading in the status line; clears the selection when your
    /// hand changed.
    fn show_events(&mut self, events: &[VariantEvent]) {
        if let Some(e) = events.iter().rev().find(|e| **e != VariantEvent::Over) {
            self.message = Some((self.table.describe(e), false));
        }
        let n = self.hand().len();
        if self.selected.len() != n {
            self.selected = vec![false; n];
        }
        self.cursor = self.cursor.min(n.saturating_sub(1));
    }

    fn refuse(&mut self, why: impl Into<String>) {
        self.message = Some((why.into(), true));
    }

    /// Takes one key press.
    pub fn key(&mut self, key: KeyEvent) {
        if key.kind != KeyEventKind::Press {
            return;
        }
        match self.mode.clone() {
            Mode::Help => self.mode = Mode::Table,
            Mode::ConfirmQuit => {
                if matches!(key.code, KeyCode::Char('y' | 'Y')) {
                    self.quit = true;
                } else {
                    self.mode = Mode::Table;
                }
            }
            Mode::Readings { readings, index } => self.reading_key(key.code, readings, index),
            Mode::Table if self.table.is_over() => self.over_key(key.code),
            Mode::Table => self.table_key(key.code),
        }
    }

    fn over_key(&mut self, code: KeyCode) {
        match code {
            KeyCode::Enter | KeyCode::Char('n' | 'N' | ' ') => match self.table.next_game() {
                Ok(()) => {
                    self.selected = vec![false; self.hand().len()];
                    self.cursor = 0;
                    let seed = self.table.game().seed();
                    self.message =
                        Some((format!("game {}, seed {seed}", self.table.number()), false));
                }
                Err(e) => self.refuse(e),
            },
            KeyCode::Esc | KeyCode::Char('q' | 'Q') => self.mode = Mode::ConfirmQuit,
            KeyCode::Char('?') => self.mode = Mode::Help,
            _ => {}
        }
    }

    fn reading_key(&mut self, code: KeyCode, readings: Vec<Move>, index: usize) {
        let n = readings.len();
        match code {
            KeyCode::Up | KeyCode::Left => {
                let index = (index + n - 1) % n;
                self.mode = Mode::Readings { readings, index };
            }
            KeyCode::Down | KeyCode::Right | KeyCode::Tab => {
                let index = (index + 1) % n;
                self.mode = Mode::Readings { readings, index };
            }
            KeyCode::Enter => {
                self.mode = Mode::Table;
                self.play(readings[index]);
            }
            KeyCode::Char(c) if c.is_ascii_digit() => {
                let i = c.to_digit(10).unwrap_or(0) as usize;
                if (1..=n).contains(&i) {
                    self.mode = Mode::Table;
                    self.play(readings[i - 1]);
                }
            }
            KeyCode::Esc => {
                self.mode = Mode::Table;
                self.message = Some(("no play made".into(), false));
            }
            _ => {}
        }
    }

    fn table_key(&mut self, code: KeyCode) {
        let n = self.hand().len();
        match code {
            KeyCode::Esc => self.mode = Mode::ConfirmQuit,
            KeyCode::Char('?') => self.mode = Mode::Help,
            KeyCode::Left => self.cursor = self.cursor.saturating_sub(1),
            KeyCode::Right => self.cursor = (self.cursor + 1).min(n.saturating_sub(1)),
            KeyCode::Home => self.cursor = 0,
            KeyCode::End => self.cursor = n.saturating_sub(1),
            _ if self.table.game().phase() == Phase::Bidding => self.bid_key(code),
            KeyCode::Char(' ') | KeyCode::Up | KeyCode::Down => {
                if let Some(s) = self.selected.get_mut(self.cursor) {
                    *s = !*s;
                }
            }
            KeyCode::Backspace | KeyCode::Delete => self.selected.fill(false),
            KeyCode::Enter => self.play_selection(),
            KeyCode::Char('p' | 'P') => self.pass(),
            KeyCode::Char('h' | 'H') => self.next_hint(),
            KeyCode::Char(c) => match rank_of_key(c) {
                Some(rank) => self.select_rank(rank),
                None => self.refuse(format!("\"{c}\" does nothing here; ? shows the keys")),
            },
            _ => {}
        }
    }

    fn bid_key(&mut self, code: KeyCode) {
        let callrob = self.table.rules().bidding == Bidding::CallRob;
        let bid = match code {
            KeyCode::Char(c @ '0'..='3') if !callrob => c.to_digit(10).map(|d| d as u8),
            KeyCode::Char('p' | 'P' | 'n' | 'N') => Some(0),
            KeyCode::Char('c' | 'C' | 'r' | 'R' | 'y' | 'Y') if callrob => Some(1),
            _ => None,
        };
        match bid {
            None => self.refuse("bidding: use the bid keys on the bottom line"),
            Some(bid) => match self.table.bid(bid) {
                Ok(events) => self.show_events(&events),
                Err(why) => self.refuse(why),
            },
        }
    }

    /// Selects the next unselected card of `rank` (moving the cursor to it); when every card
    /// of the rank is selected, deselects them all.
    fn select_rank(&mut self, rank: Rank) {
        let hand = self.hand();
        let of_rank: Vec<usize> = (0..hand.len()).filter(|&i| hand[i] == rank).collect();
        if of_rank.is_empty() {
            self.refuse(format!("you hold no {rank}"));
            return;
        }
        match of_rank.iter().find(|&&i| !self.selected[i]) {
            Some(&i) => {
                self.selected[i] = true;
                self.cursor = i;
            }
            None => of_rank.iter().for_each(|&i| self.selected[i] = false),
        }
    }

    fn play_selection(&mut self) {
        let cards = self.selection();
        if cards.is_empty() {
            self.refuse("select cards first (space, or a rank key), or p to pass");
            return;
        }
        match self.table.readings(cards) {
            Ok(readings) if readings.len() == 1 => self.play(readings[0]),
            Ok(readings) => self.mode = Mode::Readings { readings, index: 0 },
            Err(why) => self.refuse(why),
        }
    }

    fn play(&mut self, play: Move) {
        match self.table.play(play) {
            Ok(events) => {
                self.selected = vec![false; self.hand().len()];
                self.show_events(&events);
            }
            Err(why) => self.refuse(why),
        }
    }

    fn pass(&mut self) {
        match self.table.pass() {
            Ok(events) => self.show_events(&events),
            Err(why) => self.refuse(why),
        }
    }

    /// Selects the next hint's cards (enter plays them).
    fn next_hint(&mut self) {
        let Some((hint, i, n)) = self.table.next_hint() else {
            self.refuse("hints are given on your turn to play");
            return;
        };
        let hand = self.hand();
        self.selected = vec![false; hand.len()];
        let mut wanted = hint.cards();
        for (k, rank) in hand.iter().enumerate() {
            if wanted.count(*rank) > 0 {
                wanted = wanted.remove(*rank, 1).unwrap_or(wanted);
                self.selected[k] = true;
            }
        }
        let rules = self.table.rules();
        let text = if hint.is_pass() {
            format!("hint {i}/{n}: pass (p)")
        } else {
            format!(
                "hint {i}/{n}: {} (enter plays it)",
                move_notation(&hint, rules)
            )
        };
        self.message = Some((text, false));
    }
}

/// A seat's action in the trick so far, for its panel: the cards, "pass", or nothing yet.
fn last_action<const N: usize>(table: &VariantTable<N>, seat: Seat) -> Line<'static> {
    let game = table.game();
    let dim = Style::new().fg(Color::DarkGray);
    if game.phase() == Phase::Bidding {
        let bids = game.bids();
        let words: Vec<String> = bids
            .iter()
            .enumerate()
            .filter(|(_, (s, _))| *s == seat)
            .map(|(i, &(_, b))| table.bid_word(b, &bids[..i]))
            .collect();
        return match words.is_empty() {
            true => Line::from(Span::styled("no bid yet", dim)),
            false => Line::from(format!("bid: {}", words.join(", "))),
        };
    }
    let history = game.history();
    let start = TrickOf::<N>::shown_start(history);
    match history[start..].iter().rev().find(|(s, _)| *s == seat) {
        None => Line::from(Span::styled("—", dim)),
        Some((_, m)) if m.is_pass() => Line::from(Span::styled("pass", dim)),
        Some((_, m)) => Line::from(cards_spans(m.cards(), None)),
    }
}

/// Cards as faces in a line: ` 5  5 10 ` on white (or in `style`).
fn cards_spans(cards: Cards, style: Option<Style>) -> Vec<Span<'static>> {
    cards
        .iter()
        .flat_map(|r| {
            [
                Span::styled(face(r), style.unwrap_or(card_style(r))),
                Span::raw(" "),
            ]
        })
        .collect()
}

/// A card's face, two columns: ` 5`, `10`, `jk` (small joker), `JK` (big joker).
fn face(rank: Rank) -> String {
    match rank {
        Rank::Ten => "10".into(),
        Rank::SmallJoker => "jk".into(),
        Rank::BigJoker => "JK".into(),
        r => format!(" {r}"),
    }
}

/// A card's colours: black on white, the big joker red.
fn card_style(rank: Rank) -> Style {
    let fg = if rank == Rank::BigJoker {
        Color::Red
    } else {
        Color::Black
    };
    Style::new().bg(Color::White).fg(fg)
}

/// Another seat's panel: its role, cards left and its last action in the trick.
fn seat_panel<const N: usize>(table: &VariantTable<N>, seat: Seat, area: Rect, frame: &mut Frame) {
    let game = table.game();
    let role = table.role_word(seat);
    let role_style = match role {
        "landlord" => Style::new()
            .fg(Color::LightRed)
            .add_modifier(Modifier::BOLD),
        _ => Style::new().fg(Color::LightGreen),
    };
    let mut lines = vec![
        Line::from(vec![
            Span::styled(role.to_string(), role_style),
            Span::raw(format!("  {} cards", game.hand(seat).len())),
        ]),
        last_action(table, seat),
    ];
    if let Some((farmer, cards)) = game.handicap()
        && farmer == seat
    {
        lines.push(Line::from(format!("wins at {cards} card(s) or fewer")));
    }
    if table.is_over() && !game.hand(seat).is_empty() {
        lines.push(Line::from(format!("held: {}", game.hand(seat))));
    }
    let turn = !table.is_over() && game.turn() == seat;
    let border = match turn {
        true => Style::new().fg(Color::Cyan).add_modifier(Modifier::BOLD),
        false => Style::new(),
    };
    let block = Block::bordered()
        .title(format!(" {} ", table.seat_label(seat)))
        .border_style(border);
    frame.render_widget(
        Paragraph::new(lines).wrap(Wrap { trim: true }).block(block),
        area,
    );
}

/// Whose turn it is, in words.
fn turn_text<const N: usize>(table: &VariantTable<N>) -> String {
    let game = table.game();
    match game.phase() {
        Phase::Over => "the game is over".into(),
        _ if table.my_turn() && game.phase() == Phase::Bidding => "your bid".into(),
        _ if table.my_turn() => match game.last() {
            Some(_) => "your turn: beat it or pass".into(),
            None => "your lead".into(),
        },
        _ => format!("{} to act", table.seat_label(game.turn())),
    }
}

/// The middle panel: kitty, stake, handicap, turn and the trick so far.
fn centre_panel<const N: usize>(table: &VariantTable<N>, area: Rect, frame: &mut Frame) {
    let game = table.game();
    let dim = Style::new().fg(Color::DarkGray);
    let mut info = vec![Span::raw("kitty ")];
    match game.landlord() {
        Some(_) => info.extend(cards_spans(game.deal().kitty, None)),
        None => info.push(Span::styled(
            "▯".repeat(table.rules().kitty_cards() as usize),
            dim,
        )),
    }
    let multiplier = game.rob_multiplier() * game.play_state().bomb_multiplier();
    info.push(Span::raw(format!("  base {} × {multiplier}", game.base())));
    let mut lines = vec![Line::from(info)];
    if let Some((farmer, cards)) = game.handicap() {
        lines.push(Line::from(format!(
            "handicap (让牌): a win for {} at {cards} card(s) or fewer",
            table.seat_label(farmer)
        )));
    }
    lines.push(Line::from(Span::styled(
        turn_text(table),
        Style::new().fg(Color::Cyan).add_modifier(Modifier::BOLD),
    )));
    let history = game.history();
    let trick = &history[TrickOf::<N>::shown_start(history)..];
    let room = area.height.saturating_sub(lines.len() as u16 + 2) as usize;
    for (seat, m) in trick.iter().skip(trick.len().saturating_sub(room)) {
        let mut spans = vec![Span::raw(format!("{:<18}", table.seat_label(*seat)))];
        if m.is_pass() {
            spans.push(Span::styled("pass", dim));
        } else {
            spans.extend(cards_spans(m.cards(), None));
            spans.push(Span::styled(format!("{}", m.kind()), dim));
        }
        lines.push(Line::from(spans));
    }
    let title = format!(
        " game {} · seed {} · {} · {N} seats ",
        table.number(),
        game.seed(),
        table.rules().profile
    );
    frame.render_widget(
        Paragraph::new(lines).block(Block::bordered().title(title)),
        area,
    );
}

/// Your hand on up to two rows: selected cards on yellow, the cursor marked below.
fn hand_panel<const N: usize>(screen: &Screen<N>, area: Rect, frame: &mut Frame) {
    let table = &screen.table;
    let me = table.me();
    let hand = screen.hand();
    let per_row = (area.width as usize / 3).max(1);
    let mut lines = Vec::new();
    for (row, cards) in hand.chunks(per_row).enumerate() {
        let mut faces = Vec::new();
        let mut marks = String::new();
        for (k, &rank) in cards.iter().enumerate() {
            let i = row * per_row + k;
            let style = match screen.selected.get(i) {
                Some(true) => Style::new()
                    .bg(Color::Yellow)
                    .fg(Color::Black)
                    .add_modifier(Modifier::BOLD),
                _ => card_style(rank),
            };
            faces.push(Span::styled(face(rank), style));
            faces.push(Span::raw(" "));
            marks.push_str(if i == screen.cursor { "^^ " } else { "   " });
        }
        lines.push(Line::from(faces));
        lines.push(Line::from(Span::styled(
            marks,
            Style::new().fg(Color::Cyan),
        )));
    }
    let mut last = vec![Span::styled("last: ", Style::new().fg(Color::DarkGray))];
    last.extend(last_action(table, me).spans);
    lines.insert(0, Line::from(last));
    let mine = table.my_turn();
    let border = match mine {
        true => Style::new().fg(Color::Cyan).add_modifier(Modifier::BOLD),
        false => Style::new(),
    };
    let title = format!(
        " you · seat {me} · {} · {} cards · total {:+} ",
        table.role_word(me),
        hand.len(),
        table.totals()[me]
    );
    let block = Block::new()
        .borders(Borders::TOP | Borders::BOTTOM)
        .title(title)
        .border_style(border);
    frame.render_widget(Paragraph::new(lines).block(block), area);
}

/// The keys that work now.
fn keys_line<const N: usize>(screen: &Screen<N>) -> Line<'static> {
    let table = &screen.table;
    let game = table.game();
    let text = match &screen.mode {
        Mode::Readings { .. } => "↑↓ choose · enter play · 1-9 pick · esc cancel".to_string(),
        Mode::Help => "any key closes the help".to_string(),
        Mode::ConfirmQuit => "quit? y leaves · any other key stays".to_string(),
        Mode::Table if table.is_over() => "enter/n next game · q or esc quit · ? help".into(),
        Mode::Table if table.my_turn() && game.phase() == Phase::Bidding => {
            let bids: Vec<String> = table
                .my_bids()
                .iter()
                .map(|&b| match (table.rules().bidding, b) {
                    (Bidding::CallRob, 0) => format!("p {}", table.bid_word(b, game.bids())),
                    (Bidding::CallRob, _) => format!("c {}", table.bid_word(b, game.bids())),
                    (_, 0) => "0 or p pass".to_string(),
                    (_, n) => format!("{n} bids {n}"),
                })
                .collect();
            format!("bid: {} · ? help · esc quit", bids.join(" · "))
        }
        Mode::Table => {
            "←→ move · space select · 3-9 0 j q k a 2 b r pick · enter play · p pass · h hint · ? help"
                .to_string()
        }
    };
    Line::from(Span::styled(text, Style::new().fg(Color::DarkGray)))
}

/// The help overlay's text.
pub const HELP_TEXT: &str = "\
ddz play at two or four seats (docs/variants.md)

←/→, Home/End    move the cursor over your cards
space, ↑/↓       select or deselect the card under the cursor
3-9 0/t j q k a 2 b r
                 select a card of that rank (again: the next one;
                 when all are selected, deselect them); b/r jokers
backspace        clear the selection
enter            play the selection (several readings: choose one)
p                pass
h                the robot's hints, one after another, pre-selected
bidding          0-3 bid points, p passes; call-and-rob (two
                 seats): c calls or robs, p declines
esc              quit (asks first)

Under `two` the farmer wins once it holds the handicap (让牌) or fewer cards.";

/// Renders the whole screen.
pub fn draw<const N: usize>(frame: &mut Frame, screen: &Screen<N>) {
    let area = frame.area();
    if area.width < MIN_WIDTH || area.height < MIN_HEIGHT {
        let text = format!(
            "This terminal is {}×{}; ddz play needs at least {MIN_WIDTH}×{MIN_HEIGHT}.\nEnlarge it, or run ddz play --plain for line mode.\nEsc quits.",
            area.width, area.height
        );
        frame.render_widget(Paragraph::new(text).wrap(Wrap { trim: true }), area);
        return;
    }
    let table = &screen.table;
    let [top, centre, hand, status, keys] = Layout::vertical([
        Constraint::Length(5),
        Constraint::Min(6),
        Constraint::Length(7),
        Constraint::Length(1),
        Constraint::Length(1),
    ])
    .areas(area);
    // The others from the seat before yours (left) round to the seat after yours (right).
    let mut others: Vec<Seat> = table.seats_from_me()[1..].to_vec();
    others.reverse();
    let places = Layout::horizontal(vec![
        Constraint::Ratio(1, others.len() as u32);
        others.len()
    ])
    .split(top);
    for (seat, place) in others.iter().zip(places.iter()) {
        seat_panel(table, *seat, *place, frame);
    }
    centre_panel(table, centre, frame);
    hand_panel(screen, hand, frame);
    let message = screen
        .message
        .as_ref()
        .filter(|(_, refusal)| *refusal || !table.is_over());
    let status_line = match message {
        Some((text, true)) => Line::from(Span::styled(
            text.clone(),
            Style::new()
                .fg(Color::LightRed)
                .add_modifier(Modifier::BOLD),
        )),
        Some((text, false)) => Line::from(text.clone()),
        None => Line::from(turn_text(table)),
    };
    frame.render_widget(Paragraph::new(status_line), status);
    frame.render_widget(Paragraph::new(keys_line(screen)), keys);
    match &screen.mode {
        Mode::Readings { readings, index } => {
            let lines: Vec<Line> = readings
                .iter()
                .enumerate()
                .map(|(i, m)| {
                    let text = format!("{}) {}", i + 1, move_notation(m, table.rules()));
                    match i == *index {
                        true => Line::from(Span::styled(
                            format!("▶ {text}"),
                            Style::new().add_modifier(Modifier::REVERSED),
                        )),
                        false => Line::from(format!("  {text}")),
                    }
                })
                .collect();
            let height = lines.len() as u16;
            overlay(frame, " choose a reading ", Text::from(lines), 60, height);
        }
        Mode::Help => {
            let height = HELP_TEXT.lines().count() as u16;
            overlay(frame, " help ", Text::from(HELP_TEXT), 72, height);
        }
        Mode::ConfirmQuit => overlay(
            frame,
            " quit ",
            Text::from("Leave the table? y quits, any other key stays."),
            52,
            3,
        ),
        Mode::Table if table.is_over() => {
            let lines: Vec<Line> = table
                .outcome_lines()
                .into_iter()
                .map(Line::from)
                .chain([Line::from(""), Line::from("enter: next game · q: quit")])
                .collect();
            frame.render_widget(Clear, centre);
            frame.render_widget(
                Paragraph::new(Text::from(lines))
                    .wrap(Wrap { trim: false })
                    .block(Block::bordered().title(" game over ")),
                centre,
            );
        }
        Mode::Table => {}
    }
}

/// Runs the table until you quit; prints the totals after.
pub fn run<const N: usize>(table: VariantTable<N>, delay: Duration) -> Result<()> {
    let mut terminal = ratatui::init();
    let result = event_loop(&mut terminal, Screen::new(table), delay);
    ratatui::restore();
    let screen = result?;
    println!("{}", screen.table.totals_line());
    Ok(())
}

impl<const N: usize> TableScreen for Screen<N> {
    fn draw(&self, frame: &mut Frame) {
        draw(frame, self);
    }

    fn robot_may_act(&self) -> bool {
        Screen::robot_may_act(self)
    }

    fn robot_step(&mut self) {
        Screen::robot_step(self);
    }

    fn key(&mut self, key: KeyEvent) {
        Screen::key(self, key);
    }

    fn quit(&self) -> bool {
        self.quit
    }

    fn leave(&mut self) {
        self.quit = true;
    }
}

#[cfg(test)]
mod tests;
