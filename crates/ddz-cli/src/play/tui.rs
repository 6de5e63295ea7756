//! The table on the terminal (ratatui): your hand as cards, the two robots, the kitty and the
//! stake, the trick, and the keys.
//!
//! [`App`] holds everything the screen shows beyond the [`Table`] (cursor, selection, the
//! mode: table, reading choice, help, quit question) and takes keys; [`draw`] renders an
//! `App` into a frame and is what the snapshot tests call; [`run`] is the event loop, pacing
//! the robots with a short delay so their plays can be followed.

use std::time::Duration;

use anyhow::Result;
use ddz_core::{Bidding, Card, CardSet, Move, Rank, Rules, move_notation};
use ddz_game::{Phase, Seat};
use ratatui::Frame;
use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyEventKind};
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span, Text};
use ratatui::widgets::{Block, Borders, Clear, Paragraph, Wrap};

use super::describe::{
    describe_event, hand_text, kind_words, outcome_lines, role_name, seat_label, turn_text,
    wild_text,
};
use super::screen_loop::{MIN_HEIGHT, MIN_WIDTH, TableScreen, event_loop};
use super::table::{Event, Table};

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
    /// The analysis of the game just played (your plays rated), scrolled to `top`.
    Analysis {
        /// The analysis as lines of text.
        lines: Vec<String>,
        /// The first line shown.
        top: usize,
    },
}

/// The screen's state around the table.
pub struct App {
    /// The game table.
    pub table: Table,
    /// Index of the card under the cursor in your hand.
    pub cursor: usize,
    /// Your selected cards.
    pub selected: CardSet,
    /// What the keys do now.
    pub mode: Mode,
    /// The status line: a message and whether it is a refusal.
    pub message: Option<(String, bool)>,
    /// The hint last applied to the selection, played as is when the selection is unchanged.
    pub hint: Option<Move>,
    /// Whether to leave.
    pub quit: bool,
}

impl App {
    /// A screen on a table.
    pub fn new(table: Table) -> App {
        App {
            table,
            cursor: 0,
            selected: CardSet::EMPTY,
            mode: Mode::Table,
            message: None,
            hint: None,
            quit: false,
        }
    }

    /// Your cards in display order (rank, then suit).
    fn hand(&self) -> Vec<Card> {
        self.table.physical(self.table.me()).iter().collect()
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

    /// Puts the last event worth reading in the status line.
    fn show_events(&mut self, events: &[Event]) {
        let shown = events
            .iter()
            .rev()
            .find(|e| !matches!(e, Event::Over(_)))
            .map(|e| describe_event(&self.table, e));
        if let Some(text) = shown {
            self.message = Some((text, matches!(events.last(), Some(Event::Forfeit { .. }))));
        }
        self.after_change();
    }

    /// Keeps the cursor and selection within the hand after the hand changed.
    fn after_change(&mut self) {
        let hand = self.table.physical(self.table.me());
        self.selected =
            CardSet::from_bits(self.selected.bits() & hand.bits()).unwrap_or(CardSet::EMPTY);
        let n = hand.len() as usize;
        if self.cursor >= n {
            self.cursor = n.saturating_sub(1);
        }
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
            Mode::Analysis { lines, top } => {
                let last = lines.len().saturating_sub(1);
                let top = match key.code {
                    KeyCode::Down | KeyCode::Char('j') => (top + 1).min(last),
                    KeyCode::Up | KeyCode::Char('k') => top.saturating_sub(1),
                    KeyCode::PageDown | KeyCode::Char(' ') => (top + 10).min(last),
                    KeyCode::PageUp => top.saturating_sub(10),
                    _ => {
                        self.mode = Mode::Table;
                        return;
                    }
                };
                self.mode = Mode::Analysis { lines, top };
            }
            Mode::Table if self.table.is_over() => self.over_key(key.code),
            Mode::Table => self.table_key(key.code),
        }
    }

    fn over_key(&mut self, code: KeyCode) {
        match code {
            KeyCode::Enter | KeyCode::Char('n' | 'N' | ' ') => match self.table.next_game() {
                Ok(()) => {
                    self.selected = CardSet::EMPTY;
                    self.cursor = 0;
                    self.hint = None;
                    self.message = Some((
                        format!("game {}, seed {}", self.table.number(), self.table.seed()),
                        false,
                    ));
                }
                Err(e) => self.refuse(e),
            },
            KeyCode::Char('a' | 'A') => match self.table.analysis_lines() {
                Ok(lines) => self.mode = Mode::Analysis { lines, top: 0 },
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
                self.mode = Mode::Readings {
                    readings,
                    index: (index + n - 1) % n,
                }
            }
            KeyCode::Down | KeyCode::Right | KeyCode::Tab => {
                self.mode = Mode::Readings {
                    readings,
                    index: (index + 1) % n,
                }
            }
            KeyCode::Char(c) if c.is_ascii_digit() => {
                let i = c.to_digit(10).unwrap_or(0) as usize;
                if (1..=n).contains(&i) {
                    self.mode = Mode::Table;
                    self.play(readings[i - 1]);
                }
            }
            KeyCode::Enter => {
                self.mode = Mode::Table;
                self.play(readings[index]);
            }
            KeyCode::Esc => {
                self.mode = Mode::Table;
                self.message = Some(("no play made".into(), false));
            }
            _ => {}
        }
    }

    fn table_key(&mut self, code: KeyCode) {
        let bidding = self.table.game().phase() == Phase::Bidding;
        match code {
            KeyCode::Esc => self.mode = Mode::ConfirmQuit,
            KeyCode::Char('?') => self.mode = Mode::Help,
            KeyCode::Left => self.cursor = self.cursor.saturating_sub(1),
            KeyCode::Right => {
                let n = self.hand().len();
                if self.cursor + 1 < n {
                    self.cursor += 1;
                }
            }
            KeyCode::Home => self.cursor = 0,
            KeyCode::End => self.cursor = self.hand().len().saturating_sub(1),
            _ if self.table.my_show_factor().is_some() => self.show_key(code),
            _ if !self.table.my_doublings().is_empty() => self.double_key(code),
            _ if bidding => self.bid_key(code),
            KeyCode::Char(' ') | KeyCode::Up | KeyCode::Down => self.toggle_cursor(),
            KeyCode::Backspace | KeyCode::Delete => {
                self.selected = CardSet::EMPTY;
                self.hint = None;
            }
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

    /// A show window: s shows the hand, n or p keeps it hidden.
    fn show_key(&mut self, code: KeyCode) {
        let show = match code {
            KeyCode::Char('s' | 'S' | 'y' | 'Y') => true,
            KeyCode::Char('n' | 'N' | 'p' | 'P') => false,
            _ => {
                self.refuse("show your hand? s shows, n keeps it hidden");
                return;
            }
        };
        match self.table.show(show) {
            Ok(events) => self.show_events(&events),
            Err(r) => self.refuse(r.to_string()),
        }
    }

    /// The doubling decision: d doubles (x2), s super-doubles (x4), n or p does not; or the
    /// factor's digit.
    fn double_key(&mut self, code: KeyCode) {
        let factor = match code {
            KeyCode::Char('d' | 'D') => 2,
            KeyCode::Char('s' | 'S') => 4,
            KeyCode::Char('n' | 'N' | 'p' | 'P') => 1,
            KeyCode::Char(c) if c.is_ascii_digit() => c.to_digit(10).unwrap_or(0),
            _ => {
                self.refuse("doubling: d doubles (x2), s super-doubles (x4), n does not");
                return;
            }
        };
        match self.table.double(factor) {
            Ok(events) => self.show_events(&events),
            Err(r) => self.refuse(r.to_string()),
        }
    }

    fn bid_key(&mut self, code: KeyCode) {
        let callrob = self.table.options().rules.bidding == Bidding::CallRob;
        let bid = match code {
            KeyCode::Char(c @ '0'..='3') if !callrob => c.to_digit(10).map(|d| d as u8),
            KeyCode::Char('p' | 'P' | 'n' | 'N') => Some(0),
            KeyCode::Char('c' | 'C' | 'r' | 'R' | 'y' | 'Y') if callrob => Some(1),
            KeyCode::Char('h' | 'H') => {
                self.refuse("no hints while bidding; the bid keys are on the bottom line");
                None
            }
            _ => {
                self.refuse("bidding: use the bid keys on the bottom line");
                None
            }
        };
        if let Some(bid) = bid {
            match self.table.bid(bid) {
                Ok(events) => self.show_events(&events),
                Err(r) => self.refuse(r.to_string()),
            }
        }
    }

    fn toggle_cursor(&mut self) {
        if let Some(&card) = self.hand().get(self.cursor) {
            self.selected = if self.selected.contains(card) {
                self.selected.without(card)
            } else {
                self.selected.with(card)
            };
            self.hint = None;
        }
    }

    /// Selects the next unselected card of `rank` (moving the cursor to it); when every card
    /// of the rank is selected, deselects them all.
    fn select_rank(&mut self, rank: Rank) {
        let hand = self.hand();
        let of_rank: Vec<(usize, Card)> = hand
            .iter()
            .copied()
            .enumerate()
            .filter(|(_, c)| c.rank() == rank)
            .collect();
        if of_rank.is_empty() {
            self.refuse(format!("you hold no {}", rank_label(rank)));
            return;
        }
        self.hint = None;
        match of_rank.iter().find(|(_, c)| !self.selected.contains(*c)) {
            Some(&(i, c)) => {
                self.selected = self.selected.with(c);
                self.cursor = i;
            }
            None => {
                for (_, c) in of_rank {
                    self.selected = self.selected.without(c);
                }
            }
        }
    }

    fn next_hint(&mut self) {
        match self.table.next_hint() {
            Some((m, i, n)) => {
                let hand = self.table.physical(self.table.me());
                self.selected = if m.is_pass() {
                    CardSet::EMPTY
                } else {
                    hand.take(m.cards()).unwrap_or(CardSet::EMPTY)
                };
                self.hint = Some(m);
                let what = if m.is_pass() {
                    "pass".to_string()
                } else {
                    format!(
                        "{}  ({})",
                        move_notation(&m, &self.table.rules()),
                        kind_words(&m)
                    )
                };
                self.message = Some((format!("hint {i}/{n}: {what}; enter plays it"), false));
            }
            None => self.refuse(if self.table.my_turn() {
                "no hint now".to_string()
            } else {
                "hints are given on your turn".to_string()
            }),
        }
    }

    fn pass(&mut self) {
        match self.table.pass() {
            Ok(events) => {
                self.selected = CardSet::EMPTY;
                self.hint = None;
                self.show_events(&events);
            }
            Err(r) => self.refuse(r.to_string()),
        }
    }

    fn play_selection(&mut self) {
        // Enter plays the hint shown, a pass included (a pass hint selects no cards).
        if let Some(hint) = self.hint
            && hint.cards() == self.selected.to_cards()
        {
            if hint.is_pass() {
                self.pass();
            } else {
                self.play(hint);
            }
            return;
        }
        match self.table.readings(self.selected.to_cards()) {
            Ok(readings) if readings.len() == 1 => self.play(readings[0]),
            Ok(readings) => {
                self.message = Some((
                    "these cards have several readings: choose one".into(),
                    false,
                ));
                self.mode = Mode::Readings { readings, index: 0 };
            }
            Err(r) => self.refuse(r.to_string()),
        }
    }

    fn play(&mut self, m: Move) {
        let chosen = Some(self.selected);
        match self.table.play(m, chosen) {
            Ok(events) => {
                self.selected = CardSet::EMPTY;
                self.hint = None;
                self.show_events(&events);
            }
            Err(r) => self.refuse(r.to_string()),
        }
    }
}

/// The rank a key selects: 3-9, 0 or t for ten, j, q, k, a, 2, b and r for the jokers.
pub fn rank_of_key(c: char) -> Option<Rank> {
    let letter = match c.to_ascii_uppercase() {
        '0' => 'T',
        other => other,
    };
    Rank::ALL.into_iter().find(|r| r.letter() == letter)
}

/// A rank as players say it: `10`, `J`, `small joker`.
fn rank_label(rank: Rank) -> String {
    match rank {
        Rank::Ten => "10".into(),
        Rank::SmallJoker => "small joker".into(),
        Rank::BigJoker => "big joker".into(),
        r => r.to_string(),
    }
}

/// A card's face, three columns: ` 3♥`, `10♠`, `jkr` (small joker), `JKR` (big joker).
fn face(card: Card) -> String {
    match (card.rank(), card.suit()) {
        (Rank::SmallJoker, _) => "jkr".into(),
        (Rank::BigJoker, _) => "JKR".into(),
        (Rank::Ten, Some(s)) => format!("10{}", s.symbol()),
        (r, Some(s)) => format!(" {r}{}", s.symbol()),
        (r, None) => format!(" {r} "),
    }
}

/// A card's colours: red suits and the big joker red, the others black, on white; wild
/// cards on yellow.
fn card_style(card: Card, rules: &Rules) -> Style {
    let red = card.suit().is_some_and(|s| s.is_red()) || card.rank() == Rank::BigJoker;
    let bg = if rules.laizi.contains(card.rank()) {
        Color::Yellow
    } else {
        Color::White
    };
    let style = Style::new()
        .bg(bg)
        .fg(if red { Color::Red } else { Color::Black });
    if card.suit().is_none() {
        style.add_modifier(Modifier::BOLD)
    } else {
        style
    }
}

/// Cards as small faces in a line: `3♥ 3♠ 4♦` (the reading after `=` under wildcards).
fn cards_line(cards: CardSet, m: Option<&Move>, rules: &Rules) -> Vec<Span<'static>> {
    let mut spans = Vec::new();
    for c in cards.iter() {
        spans.push(Span::styled(
            face(c).trim_start().to_string(),
            card_style(c, rules),
        ));
        spans.push(Span::raw(" "));
    }
    if let Some(m) = m
        && m.reading() != m.cards()
    {
        spans.push(Span::styled(
            format!("as {}", m.reading()),
            Style::new().fg(Color::Yellow),
        ));
    }
    spans
}

/// A seat's last action for the panels: the cards, "pass", or nothing yet.
fn action_line(app: &App, seat: Seat) -> Line<'static> {
    let rules = app.table.rules();
    let trick = app.table.trick();
    match trick.iter().rev().find(|(_, s, _)| *s == seat) {
        None => Line::from(Span::styled("—", Style::new().fg(Color::DarkGray))),
        Some((_, _, m)) if m.is_pass() => {
            Line::from(Span::styled("pass", Style::new().fg(Color::DarkGray)))
        }
        Some(&(i, _, m)) => Line::from(cards_line(app.table.played_physical(i), Some(&m), &rules)),
    }
}

/// A robot's panel: name, seat, role, cards left and its last action.
fn robot_panel(app: &App, seat: Seat, area: Rect, frame: &mut Frame) {
    let game = app.table.game();
    let turn = !app.table.is_over() && game.turn() == seat;
    let role = role_name(&app.table, seat);
    let role_style = if role == "landlord" {
        Style::new()
            .fg(Color::LightRed)
            .add_modifier(Modifier::BOLD)
    } else {
        Style::new().fg(Color::LightGreen)
    };
    let mut lines = vec![
        Line::from(vec![
            Span::styled(role.to_string(), role_style),
            Span::raw(format!("  {} cards", game.hand(seat).len())),
        ]),
        action_line(app, seat),
    ];
    if game.phase() == Phase::Bidding {
        let bids: Vec<String> = game
            .bids()
            .iter()
            .enumerate()
            .filter(|(_, (s, _))| *s == seat)
            .map(|(i, &(_, b))| app.table.bid_word(b, &game.bids()[..i]))
            .collect();
        lines[1] = Line::from(if bids.is_empty() {
            "no bid yet".to_string()
        } else {
            format!("bid: {}", bids.join(", "))
        });
    }
    let view = game.view(app.table.me());
    if let Some(cards) = view.shown()[seat] {
        let text = if cards.is_empty() {
            "(no cards yet)".to_string()
        } else {
            hand_text(cards, &app.table.rules())
        };
        lines.push(Line::from(vec![
            Span::raw("shows "),
            Span::styled(
                text,
                Style::new().fg(Color::White).add_modifier(Modifier::BOLD),
            ),
        ]));
    }
    if let Some(d) = view.doublings()[seat] {
        lines.push(Line::from(format!(
            "doubling x{d} · pair x{}",
            view.seat_multiplier(seat)
        )));
    }
    if app.table.is_over() {
        let left = game.hand(seat);
        if !left.is_empty() {
            lines.push(Line::from(format!("held: {left}")));
        }
    }
    let title = format!(" {} ", seat_label(&app.table, seat));
    let border = if turn {
        Style::new().fg(Color::Cyan).add_modifier(Modifier::BOLD)
    } else {
        Style::new()
    };
    let block = Block::bordered().title(title).border_style(border);
    frame.render_widget(Paragraph::new(lines).block(block), area);
}

/// The middle panel: kitty, wild ranks, stake, turn and the trick so far.
fn centre_panel(app: &App, area: Rect, frame: &mut Frame) {
    let game = app.table.game();
    let rules = app.table.rules();
    let mut info = vec![Span::raw("kitty ")];
    match game.landlord() {
        Some(_) => info.extend(cards_line(game.deal().kitty, None, &rules)),
        None => info.push(Span::styled("▯▯▯ ", Style::new().fg(Color::DarkGray))),
    }
    if !game.laizi().is_empty() {
        info.push(Span::raw(" wild "));
        info.push(Span::styled(
            format!(" {} ", wild_text(game.laizi())),
            Style::new().bg(Color::Yellow).fg(Color::Black),
        ));
    }
    info.push(Span::raw(format!(
        "   base {} × {}",
        game.base(),
        game.multiplier()
    )));
    let rules_now = app.table.rules();
    if rules_now.doubling.enabled && game.landlord().is_some() {
        let view = game.view(app.table.me());
        info.push(Span::raw(format!(
            " · yours ×{}",
            view.seat_multiplier(app.table.me())
        )));
    }
    let mut lines = vec![Line::from(info)];
    lines.push(Line::from(Span::styled(
        turn_text(&app.table),
        Style::new().fg(Color::Cyan).add_modifier(Modifier::BOLD),
    )));
    // The trick, newest last, as many as fit.
    let room = area.height.saturating_sub(4) as usize;
    let trick = app.table.trick();
    for &(i, seat, m) in trick.iter().skip(trick.len().saturating_sub(room)) {
        let mut spans = vec![Span::raw(format!("{:<14}", app.table.seat_name(seat)))];
        if m.is_pass() {
            spans.push(Span::styled("pass", Style::new().fg(Color::DarkGray)));
        } else {
            spans.extend(cards_line(app.table.played_physical(i), Some(&m), &rules));
            spans.push(Span::styled(
                kind_words(&m),
                Style::new().fg(Color::DarkGray),
            ));
        }
        lines.push(Line::from(spans));
    }
    let title = format!(
        " game {} · seed {} · {} ",
        app.table.number(),
        app.table.seed(),
        rules.profile
    );
    frame.render_widget(
        Paragraph::new(lines).block(Block::bordered().title(title)),
        area,
    );
}

/// Your hand: selected cards raised one row, the cursor marked below.
fn hand_panel(app: &App, area: Rect, frame: &mut Frame) {
    let rules = app.table.rules();
    let me = app.table.me();
    let hand = app.hand();
    let mut raised = Vec::new();
    let mut lowered = Vec::new();
    let mut marks = String::new();
    let blank = Span::raw("    ");
    for (i, &card) in hand.iter().enumerate() {
        let cell = Span::styled(face(card), card_style(card, &rules));
        if app.selected.contains(card) {
            raised.push(cell);
            raised.push(Span::raw(" "));
            lowered.push(blank.clone());
        } else {
            lowered.push(cell);
            lowered.push(Span::raw(" "));
            raised.push(blank.clone());
        }
        marks.push_str(if i == app.cursor { " ^^ " } else { "    " });
    }
    let role = role_name(&app.table, me);
    let mine = !app.table.is_over() && app.table.game().turn() == me;
    let title = format!(
        " you · seat {me} · {role} · {} cards · total {:+} ",
        hand.len(),
        app.table.totals()[me]
    );
    let border = if mine {
        Style::new().fg(Color::Cyan).add_modifier(Modifier::BOLD)
    } else {
        Style::new()
    };
    let mut last = vec![Span::styled("last: ", Style::new().fg(Color::DarkGray))];
    last.extend(action_line(app, me).spans);
    let lines = vec![
        Line::from(last),
        Line::from(raised),
        Line::from(lowered),
        Line::from(Span::styled(marks, Style::new().fg(Color::Cyan))),
    ];
    // No side borders: twenty cards of four columns fill an 80-column terminal.
    let block = Block::new()
        .borders(Borders::TOP | Borders::BOTTOM)
        .title(title)
        .border_style(border);
    frame.render_widget(Paragraph::new(lines).block(block), area);
}

/// The keys that work now.
fn keys_line(app: &App) -> Line<'static> {
    let game = app.table.game();
    let text = match &app.mode {
        Mode::Readings { .. } => "↑↓ choose · enter play · 1-9 pick · esc cancel".to_string(),
        Mode::Help => "any key closes the help".to_string(),
        Mode::ConfirmQuit => "quit? y leaves · any other key stays".to_string(),
        Mode::Analysis { .. } => "↑↓ scroll · any other key closes the analysis".to_string(),
        Mode::Table if app.table.is_over() => {
            "enter/n next game · a analyse · q or esc quit · ? help".to_string()
        }
        Mode::Table if app.table.my_show_factor().is_some() => {
            let f = app.table.my_show_factor().unwrap_or(1);
            format!("show your hand? s show (×{f}) · n no · ? help · esc quit")
        }
        Mode::Table if !app.table.my_doublings().is_empty() => {
            let keys: Vec<String> = app
                .table
                .my_doublings()
                .iter()
                .map(|&d| match d {
                    1 => "n no doubling".to_string(),
                    2 => "d double (×2)".to_string(),
                    4 => "s super (×4)".to_string(),
                    d => format!("{d} ×{d}"),
                })
                .collect();
            format!("doubling: {} · ? help · esc quit", keys.join(" · "))
        }
        Mode::Table if app.table.my_turn() && game.phase() == Phase::Bidding => {
            let bids: Vec<String> = app
                .table
                .my_bids()
                .iter()
                .map(|&b| {
                    match (app.table.options().rules.bidding, b) {
                        (Bidding::CallRob, 0) => {
                            format!("p {}", app.table.bid_word(b, game.bids()))
                        }
                        (Bidding::CallRob, _) => {
                            format!("c {}", app.table.bid_word(b, game.bids()))
                        }
                        (_, 0) => "0 or p pass".to_string(),
                        (_, n) => format!("{n} bids {n}"),
                    }
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
ddz play: you against two robots

←/→, Home/End    move the cursor over your cards
space, ↑/↓       select or deselect the card under the cursor
3-9 0/t j q k a 2 b r
                 select a card of that rank (again: the next one;
                 when all are selected, deselect them); b/r jokers
backspace        clear the selection
enter            play the selection (several readings: choose one)
p                pass
h                the robot's hints, one after another, pre-selected
bidding          0-3 bid points, p passes; call-and-rob: c calls or
                 robs, p declines
showing          s shows your hand (明牌) for the factor offered, n not
doubling         d doubles (加倍, ×2), s super-doubles (×4), n not
esc              quit (asks first)

Wild cards are on yellow; the reading of a wild play follows `as`.";

/// Renders the whole screen.
pub fn draw(frame: &mut Frame, app: &App) {
    let area = frame.area();
    if area.width < MIN_WIDTH || area.height < MIN_HEIGHT {
        let text = format!(
            "This terminal is {}×{}; ddz play needs at least {MIN_WIDTH}×{MIN_HEIGHT}.\nEnlarge it, or run ddz play --plain for line mode.\nEsc quits.",
            area.width, area.height
        );
        frame.render_widget(Paragraph::new(text).wrap(Wrap { trim: true }), area);
        return;
    }
    let me = app.table.me();
    let [top, centre, hand, status, keys] = Layout::vertical([
        Constraint::Length(5),
        Constraint::Min(6),
        Constraint::Length(6),
        Constraint::Length(1),
        Constraint::Length(1),
    ])
    .areas(area);
    let [left, right] =
        Layout::horizontal([Constraint::Percentage(50), Constraint::Percentage(50)]).areas(top);
    // The seat before yours sits on the left, the seat after on the right.
    robot_panel(app, me.prev(), left, frame);
    robot_panel(app, me.next(), right, frame);
    centre_panel(app, centre, frame);
    hand_panel(app, hand, frame);
    // Once the game is over only a refusal is news; the last event shown before is stale.
    let message = app
        .message
        .as_ref()
        .filter(|(_, refusal)| *refusal || !app.table.is_over());
    let status_line = match message {
        Some((text, true)) => Line::from(Span::styled(
            text.clone(),
            Style::new()
                .fg(Color::LightRed)
                .add_modifier(Modifier::BOLD),
        )),
        Some((text, false)) => Line::from(text.clone()),
        None => Line::from(turn_text(&app.table)),
    };
    frame.render_widget(Paragraph::new(status_line), status);
    frame.render_widget(Paragraph::new(keys_line(app)), keys);

    match &app.mode {
        Mode::Readings { readings, index } => readings_overlay(app, readings, *index, frame),
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
        Mode::Table if app.table.is_over() => {
            let lines: Vec<Line> = outcome_lines(&app.table)
                .into_iter()
                .map(Line::from)
                .chain([
                    Line::from(""),
                    Line::from("enter: next game · a: analyse your plays · q: quit"),
                ])
                .collect();
            // The outcome takes the table's place: cleared, in the table's own frame, so no
            // border of the table shows beside or under the popup's.
            frame.render_widget(Clear, centre);
            frame.render_widget(
                Paragraph::new(Text::from(lines))
                    .wrap(Wrap { trim: false })
                    .block(Block::bordered().title(" game over ")),
                centre,
            );
        }
        Mode::Analysis { lines, top } => {
            let area = frame.area();
            let height = area.height.saturating_sub(4);
            let shown: Vec<Line> = lines
                .iter()
                .skip(*top)
                .take(height as usize)
                .map(|l| Line::from(l.clone()))
                .collect();
            overlay(
                frame,
                " analysis of your plays (ddz analyse) ",
                Text::from(shown),
                area.width.saturating_sub(4),
                height,
            );
        }
        Mode::Table => {}
    }
}

/// The reading picker.
fn readings_overlay(app: &App, readings: &[Move], index: usize, frame: &mut Frame) {
    let rules = app.table.rules();
    let lines: Vec<Line> = readings
        .iter()
        .enumerate()
        .map(|(i, m)| {
            let text = format!(
                "{}) {:<28} {}",
                i + 1,
                move_notation(m, &rules),
                kind_words(m)
            );
            if i == index {
                Line::from(Span::styled(
                    format!("▶ {text}"),
                    Style::new().add_modifier(Modifier::REVERSED),
                ))
            } else {
                Line::from(format!("  {text}"))
            }
        })
        .collect();
    let height = lines.len() as u16;
    overlay(frame, " choose a reading ", Text::from(lines), 70, height);
}

/// A bordered box in the middle of the screen.
pub(super) fn overlay(frame: &mut Frame, title: &str, text: Text, width: u16, height: u16) {
    let area = frame.area();
    let w = (width + 2).min(area.width);
    let h = (height + 2).min(area.height);
    let rect = Rect::new(
        area.x + (area.width - w) / 2,
        area.y + (area.height - h) / 2,
        w,
        h,
    );
    frame.render_widget(Clear, rect);
    frame.render_widget(
        Paragraph::new(text)
            .wrap(Wrap { trim: false })
            .block(Block::bordered().title(title.to_string())),
        rect,
    );
}

/// Runs the table until you quit.
pub fn run(table: Table, delay: Duration) -> Result<()> {
    let mut terminal = ratatui::init();
    let result = event_loop(&mut terminal, App::new(table), delay);
    ratatui::restore();
    let app = result?;
    println!("{}", super::describe::totals_line(&app.table));
    Ok(())
}

impl TableScreen for App {
    fn draw(&self, frame: &mut Frame) {
        draw(frame, self);
    }

    fn robot_may_act(&self) -> bool {
        App::robot_may_act(self)
    }

    fn robot_step(&mut self) {
        App::robot_step(self);
    }

    fn key(&mut self, key: KeyEvent) {
        App::key(self, key);
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
