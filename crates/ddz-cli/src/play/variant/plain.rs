//! `ddz play --rules two|four --plain`: the game at two or four seats as lines of text, as
//! the three-seat line mode tells it (`super::super::plain`).
//!
//! Every event is narrated on its own line; when it is your turn the state is printed and a
//! prompt line starting with `your ` ends with `?`. Input is one command a line ([`HELP`]); a
//! command that cannot be done is refused with the reason and the game goes on.

use std::io::{BufRead, Write};

use anyhow::Result;
use ddz_core::{Cards, Move, parse_cards_in, parse_move};
use ddz_game::Phase;

use super::super::plain::read_command;
use super::{VariantEvent, VariantTable, hand_text};

/// The line mode's commands at two and four seats.
pub const HELP: &str = "\
commands:
  33344, 555666777888:airplane_pairs:3   play cards in move notation
                 (cards alone are enough unless they have several readings)
  pass           pass (also: p)
  hint           the next of the robot's hints (also: h)
  bid N          bid N points (0 passes); under call-and-rob 1 calls or robs, 0 declines
                 (also: call, rob, decline)
  auto           let the robot finish this game for you
  state          print the table again (also: s)
  help           this list (also: ?)
  quit           leave (q alone is a queen); after a game: y plays again, n leaves";

/// Plays a sitting in line mode until the input ends or you quit.
pub fn run<const N: usize>(
    mut table: VariantTable<N>,
    input: &mut impl BufRead,
    out: &mut impl Write,
) -> Result<()> {
    let robots: Vec<String> = table.seats_from_me()[1..]
        .iter()
        .map(|&s| table.seat_label(s))
        .collect();
    writeln!(
        out,
        "ddz play: {} rules, {N} seats; you are seat {}; robots {}. Type help for the commands.",
        table.rules().profile,
        table.me(),
        robots.join(", "),
    )?;
    let mut auto = false;
    let mut offered: Vec<Move> = Vec::new();
    game_start(&table, out)?;
    loop {
        while let Some(events) = table.robot_step() {
            narrate(&table, &events, out)?;
        }
        if table.is_over() {
            auto = false;
            writeln!(out, "play again? (y/n)")?;
            match read_command(input)? {
                Some(line) if matches!(line.as_str(), "y" | "yes" | "again") => {
                    table.next_game().map_err(anyhow::Error::msg)?;
                    game_start(&table, out)?;
                    continue;
                }
                _ => break,
            }
        }
        if auto {
            match table.auto_step() {
                Ok(events) => narrate(&table, &events, out)?,
                Err(why) => writeln!(out, "refused: {why}")?,
            }
            continue;
        }
        print_state(&table, out)?;
        prompt(&table, out)?;
        let Some(line) = read_command(input)? else {
            break;
        };
        let picked = std::mem::take(&mut offered);
        match command(&mut table, &line, &picked, out)? {
            Reply::Events(events) => narrate(&table, &events, out)?,
            Reply::Refused(why) => writeln!(out, "refused: {why}")?,
            Reply::Choose(readings) => {
                writeln!(
                    out,
                    "these cards have several readings; type one in full or its number:"
                )?;
                for (i, m) in readings.iter().enumerate() {
                    writeln!(
                        out,
                        "  {}) {}",
                        i + 1,
                        ddz_core::move_notation(m, table.rules())
                    )?;
                }
                offered = readings;
            }
            Reply::Auto => auto = true,
            Reply::Quiet => {}
            Reply::Quit => break,
        }
    }
    writeln!(out, "{}", table.totals_line())?;
    Ok(())
}

/// What a command led to.
enum Reply {
    Events(Vec<VariantEvent>),
    Refused(String),
    Choose(Vec<Move>),
    Auto,
    Quiet,
    Quit,
}

/// Does one command.
fn command<const N: usize>(
    table: &mut VariantTable<N>,
    line: &str,
    offered: &[Move],
    out: &mut impl Write,
) -> Result<Reply> {
    let lower = line.to_ascii_lowercase();
    let words: Vec<&str> = lower.split_whitespace().collect();
    let reply = match words.as_slice() {
        ["help"] | ["?"] => {
            writeln!(out, "{HELP}")?;
            Reply::Quiet
        }
        ["quit"] | ["exit"] => Reply::Quit,
        ["state"] | ["s"] => Reply::Quiet,
        ["auto"] => Reply::Auto,
        ["hint"] | ["h"] => match table.next_hint() {
            Some((m, i, n)) => {
                let text = ddz_core::move_notation(&m, table.rules());
                writeln!(out, "hint {i}/{n}: {text}")?;
                Reply::Quiet
            }
            None => Reply::Refused("hints are given on your turn to play".into()),
        },
        ["bid", n] => match n.parse::<u8>() {
            Ok(bid) => outcome(table.bid(bid)),
            Err(_) => Reply::Refused(format!("\"{n}\" is not a bid (0-3)")),
        },
        ["call"] | ["rob"] => outcome(table.bid(1)),
        ["decline"] => outcome(table.bid(0)),
        ["pass"] | ["p"] => outcome(table.pass()),
        [n] if !offered.is_empty() && n.parse::<usize>().is_ok() => {
            let i = n.parse::<usize>().unwrap_or(0);
            match i.checked_sub(1).and_then(|i| offered.get(i)) {
                Some(&m) => outcome(table.play(m)),
                None => Reply::Refused(format!("pick a reading from 1 to {}", offered.len())),
            }
        }
        [_] => play_text(table, line.trim()),
        _ => Reply::Refused(format!(
            "\"{line}\" is not a command; type help for the list"
        )),
    };
    Ok(reply)
}

/// A command's refusal or events.
fn outcome(r: Result<Vec<VariantEvent>, String>) -> Reply {
    match r {
        Ok(events) => Reply::Events(events),
        Err(why) => Reply::Refused(why),
    }
}

/// Plays a move typed in notation: cards alone (asking which reading when there are several)
/// or a full reading.
fn play_text<const N: usize>(table: &mut VariantTable<N>, text: &str) -> Reply {
    if table.my_turn() && table.game().phase() == Phase::Bidding {
        return Reply::Refused(format!("\"{text}\": bid first (bid N, or pass)"));
    }
    let rules = table.rules().clone();
    if let Ok(cards) = parse_cards_in(text, &rules) {
        return match table.readings(cards) {
            Ok(readings) if readings.len() == 1 => outcome(table.play(readings[0])),
            Ok(readings) => Reply::Choose(readings),
            Err(why) => Reply::Refused(why),
        };
    }
    let last = table.game().last().map(|(_, m)| m);
    match parse_move(text, &rules, last.as_ref()) {
        Ok(m) => outcome(table.play(m)),
        Err(e) => Reply::Refused(format!("\"{text}\": {e}")),
    }
}

/// The lines that open a game.
fn game_start<const N: usize>(table: &VariantTable<N>, out: &mut impl Write) -> Result<()> {
    let seed = table.game().seed();
    writeln!(
        out,
        "== game {}, seed {seed} (replay this deal with --seed {seed}) ==",
        table.number(),
    )?;
    if let Some(l) = table.game().landlord() {
        writeln!(
            out,
            "{} is the landlord (no bidding under these rules); kitty {}",
            table.seat_label(l),
            hand_text(table.game().deal().kitty)
        )?;
    }
    Ok(())
}

/// Narrates events, one line each, and the result when the game ends.
fn narrate<const N: usize>(
    table: &VariantTable<N>,
    events: &[VariantEvent],
    out: &mut impl Write,
) -> Result<()> {
    for e in events {
        if matches!(e, VariantEvent::Over) {
            for line in table.outcome_lines() {
                writeln!(out, "{line}")?;
            }
        } else {
            writeln!(out, "{}", table.describe(e))?;
        }
    }
    Ok(())
}

/// The table as text: the others' counts and roles, the handicap, your hand, the play to beat.
fn print_state<const N: usize>(table: &VariantTable<N>, out: &mut impl Write) -> Result<()> {
    let game = table.game();
    let me = table.me();
    let others: Vec<String> = table.seats_from_me()[1..]
        .iter()
        .map(|&s| {
            format!(
                "{} ({}) {} cards",
                table.seat_label(s),
                table.role_word(s),
                game.hand(s).len()
            )
        })
        .collect();
    writeln!(out, "table: {}", others.join("; "))?;
    if let Some((farmer, cards)) = game.handicap() {
        writeln!(
            out,
            "handicap (让牌): a win for {} at {cards} card(s) or fewer",
            table.seat_label(farmer)
        )?;
    }
    if game.phase() == Phase::Playing {
        writeln!(
            out,
            "stake: base {} x multiplier {}",
            game.base(),
            game.rob_multiplier() * game.play_state().bomb_multiplier()
        )?;
    }
    let hand: Cards = game.hand(me);
    writeln!(
        out,
        "your hand ({}, {} cards): {}",
        table.role_word(me),
        hand.len(),
        hand_text(hand)
    )?;
    if game.phase() == Phase::Playing {
        match game.last() {
            Some((s, m)) => writeln!(
                out,
                "to beat: {} by {}",
                ddz_core::move_notation(&m, table.rules()),
                table.seat_label(s)
            )?,
            None => writeln!(out, "you lead")?,
        }
    }
    Ok(())
}

/// The prompt line for your turn.
fn prompt<const N: usize>(table: &VariantTable<N>, out: &mut impl Write) -> Result<()> {
    if table.game().phase() == Phase::Bidding {
        let choices: Vec<String> = table
            .my_bids()
            .iter()
            .map(|&b| match table.bid_word(b, table.game().bids()) {
                word if word == b.to_string() => format!("bid {b}"),
                word => format!("bid {b} ({word})"),
            })
            .collect();
        writeln!(out, "your bid? ({})", choices.join(", "))?;
    } else {
        let pass = if table.game().last().is_some() {
            "pass, "
        } else {
            ""
        };
        writeln!(out, "your play? (cards, {pass}hint, auto, help)")?;
    }
    Ok(())
}
