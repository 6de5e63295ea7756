//! The event loop of a table on the screen, shared by the three-seat table (`super::tui`) and
//! the two- and four-seat tables (`super::variant::screen`).

use std::time::{Duration, Instant};

use anyhow::Result;
use ratatui::Frame;
use ratatui::crossterm::event::{self, Event as TermEvent, KeyCode, KeyEvent};

/// The smallest terminal the table fits in.
pub const MIN_WIDTH: u16 = 80;
/// The smallest terminal height the table fits in.
pub const MIN_HEIGHT: u16 = 24;

/// A table on the screen, as the event loop drives it: the three-seat [`App`] and the
/// screen of the two- and four-seat tables.
pub trait TableScreen {
    /// Draws the whole screen.
    fn draw(&self, frame: &mut Frame);
    /// Whether a robot may act now.
    fn robot_may_act(&self) -> bool;
    /// Lets the robot to act act once.
    fn robot_step(&mut self);
    /// Takes one key press.
    fn key(&mut self, key: KeyEvent);
    /// Whether to leave.
    fn quit(&self) -> bool;
    /// Leave (Esc on a terminal too small for the table).
    fn leave(&mut self);
}

/// Draws `screen` and takes keys until it quits, a robot acting `delay` after the screen
/// last changed when one is to act.
pub fn event_loop<S: TableScreen>(
    terminal: &mut ratatui::DefaultTerminal,
    mut screen: S,
    delay: Duration,
) -> Result<S> {
    let mut robot_due: Option<Instant> = None;
    while !screen.quit() {
        terminal.draw(|f| screen.draw(f))?;
        let size = terminal.size()?;
        let too_small = size.width < MIN_WIDTH || size.height < MIN_HEIGHT;
        let wait = if screen.robot_may_act() && !too_small {
            let due = *robot_due.get_or_insert_with(|| Instant::now() + delay);
            Some(due.saturating_duration_since(Instant::now()))
        } else {
            robot_due = None;
            None
        };
        let ready = match wait {
            Some(w) => event::poll(w)?,
            None => true,
        };
        if !ready {
            robot_due = None;
            screen.robot_step();
            continue;
        }
        match event::read()? {
            TermEvent::Key(k) if too_small && k.code == KeyCode::Esc => screen.leave(),
            TermEvent::Key(_) if too_small => {}
            TermEvent::Key(k) => screen.key(k),
            _ => {}
        }
    }
    Ok(screen)
}
