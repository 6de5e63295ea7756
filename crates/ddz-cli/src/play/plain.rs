//! `ddz play --plain`: the game as lines of text, for scripts and screen readers.
//!
//! Every event is narrated on its own line; when it is your turn the state is printed and a
//! prompt line starting with `your ` ends with `?`. Input is one command a line (see
//! [`HELP`]); a command that cannot be done is refused with the reason and the game goes on.

use std::io::{BufRead, Write};

use anyhow::Result;
use ddz_core::{Cards, Move, Rules, parse_move};
use ddz_game::{Phase, Seat};

use super::describe::{
    describe_event, hand_text, outcome_lines, role_name, seat_label, totals_line, wild_text,
};
use super::table::{Event, Table};

/// The line mode's commands.
pub const HELP: &str = "\
commands:
  33344, 7779=7777, 333444555666:airplane_singles:6   play cards in move notation
                 (cards alone are enough unless they have several readings)
  pass           pass (also: p)
  hint           the next of the robot's hints (also: h)
  bid N          bid N points (0 passes); under call-and-rob 1 calls or robs, 0 declines
                 (also: call, rob, decline)
  show           show your hand (明牌) when asked, for the factor offered; no keeps it hidden
                 (also: noshow)
  double         double (加倍, x2); super: super-double (超级加倍, x4); double 1 or nodouble:
                 no doubling (also: double 2, double 4)
  auto           let the robot finish this game for you
  state          print the table again (also: s)
  help           this list (also: ?)
  quit           leave (q alone is a queen); after a game: y plays again, a analyses your
                 plays (ddz analyse), n leaves";

/// Plays a sitting in line mode until the input ends or you quit.
pub fn run(mut table: Table, input: &mut impl BufRead, out: &mut impl Write) -> Result<()> {
    let rules = table.rules();
    writeln!(
        out,
        "ddz play: {} rules; you are seat {}; robots {} (seat {}) and {} (seat {}). Type help for the commands.",
        rules.profile,
        table.me(),
        table.seat_name(table.me().next()),
        table.me().next(),
        table.seat_name(table.me().prev()),
        table.me().prev(),
    )?;
    let mut auto = false;
    // Readings offered for cards that have several, to be picked by number.
    let mut offered: Vec<Move> = Vec::new();
    game_start(&table, out)?;
    loop {
        // Robots act until it is your turn or the game is over.
        while let Some(events) = table.robot_step() {
            narrate(&table, &events, out)?;
        }
        if table.is_over() {
            auto = false;
            writeln!(out, "play again? (y/n; a: analyse your plays)")?;
            match read_command(input)? {
                Some(line) if matches!(line.as_str(), "y" | "yes" | "again") => {
                    table.next_game().map_err(anyhow::Error::msg)?;
                    game_start(&table, out)?;
                    continue;
                }
                Some(line) if matches!(line.as_str(), "a" | "analyse" | "analyze") => {
                    match table.analysis_lines() {
                        Ok(lines) => {
                            for line in lines {
                                writeln!(out, "{line}")?;
                            }
                        }
                        Err(e) => writeln!(out, "refused: {e}")?,
                    }
                    continue;
                }
                _ => break,
            }
        }
        if auto {
            match table.auto_step() {
                Ok(events) => narrate(&table, &events, out)?,
                Err(r) => writeln!(out, "refused: {}", r)?,
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
                        "  {}) {}  {}",
                        i + 1,
                        ddz_core::move_notation(m, &table.rules()),
                        describe_kind(m)
                    )?;
                }
                offered = readings;
            }
            Reply::Auto => auto = true,
            Reply::Quiet => {}
            Reply::Quit => break,
        }
    }
    writeln!(out, "{}", totals_line(&table))?;
    Ok(())
}

/// What a command led to.
enum Reply {
    Events(Vec<Event>),
    Refused(String),
    Choose(Vec<Move>),
    Auto,
    Quiet,
    Quit,
}

/// Reads the next non-empty line, trimmed; `None` at the end of the input.
pub(super) fn read_command(input: &mut impl BufRead) -> Result<Option<String>> {
    let mut line = String::new();
    loop {
        line.clear();
        if input.read_line(&mut line)? == 0 {
            return Ok(None);
        }
        let trimmed = line.trim();
        if !trimmed.is_empty() {
            return Ok(Some(trimmed.to_string()));
        }
    }
}

/// Does one command.
fn command(table: &mut Table, line: &str, offered: &[Move], out: &mut impl Write) -> Result<Reply> {
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
                writeln!(
                    out,
                    "hint {i}/{n}: {}",
                    ddz_core::move_notation(&m, &table.rules())
                )?;
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
        ["show"] => outcome(table.show(true)),
        ["no"] | ["noshow"] => outcome(table.show(false)),
        ["double"] => outcome(table.double(2)),
        ["super"] => outcome(table.double(4)),
        ["nodouble"] => outcome(table.double(1)),
        ["double", n] => match n.trim_start_matches('x').parse::<u32>() {
            Ok(f) => outcome(table.double(f)),
            Err(_) => Reply::Refused(format!("\"{n}\" is not a doubling factor (1, 2, 4)")),
        },
        ["pass"] | ["p"] if table.my_show_factor().is_some() => outcome(table.show(false)),
        ["pass"] | ["p"] if !table.my_doublings().is_empty() => outcome(table.double(1)),
        ["pass"] | ["p"] if table.game().phase() == Phase::Bidding => outcome(table.bid(0)),
        ["pass"] | ["p"] => outcome(table.pass()),
        [n] if !offered.is_empty() && n.parse::<usize>().is_ok() => {
            let i = n.parse::<usize>().unwrap_or(0);
            match i.checked_sub(1).and_then(|i| offered.get(i)) {
                Some(&m) => outcome(table.play(m, None)),
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
fn outcome(r: Result<Vec<Event>, super::table::Refusal>) -> Reply {
    match r {
        Ok(events) => Reply::Events(events),
        Err(why) => Reply::Refused(why.to_string()),
    }
}

/// Plays a move typed in notation: cards alone (asking which reading when there are several)
/// or a full reading.
fn play_text(table: &mut Table, text: &str) -> Reply {
    let rules = table.rules();
    if table.my_turn() && table.game().phase() == Phase::Bidding {
        return Reply::Refused(format!("\"{text}\": bid first (bid N, or pass)"));
    }
    if let Some(f) = table.my_show_factor() {
        return Reply::Refused(format!(
            "\"{text}\": first say whether you show your hand (show for x{f}, or no)"
        ));
    }
    if !table.my_doublings().is_empty() {
        return Reply::Refused(format!(
            "\"{text}\": first choose your doubling (double, super, or nodouble)"
        ));
    }
    if let Ok(cards) = text.parse::<Cards>() {
        return match table.readings(cards) {
            Ok(readings) if readings.len() == 1 => outcome(table.play(readings[0], None)),
            Ok(readings) => Reply::Choose(readings),
            Err(why) => Reply::Refused(why.to_string()),
        };
    }
    let last = table.game().last().map(|(_, m)| m);
    match parse_move(text, &rules, last.as_ref()) {
        Ok(m) => outcome(table.play(m, None)),
        Err(e) => Reply::Refused(format!("\"{text}\": {e}")),
    }
}

/// A move's kind, main rank and length, for the reading list.
fn describe_kind(m: &Move) -> String {
    if m.length() > 1 {
        format!("({} from {}, length {})", m.kind(), m.low(), m.length())
    } else {
        format!("({} {})", m.kind(), m.main())
    }
}

/// The lines that open a game.
fn game_start(table: &Table, out: &mut impl Write) -> Result<()> {
    let game = table.game();
    writeln!(
        out,
        "== game {}, seed {} (replay this deal with --seed {}) ==",
        table.number(),
        table.seed(),
        table.seed()
    )?;
    if let Some(l) = game.landlord() {
        writeln!(
            out,
            "{} is the landlord (no bidding under these rules); kitty {}",
            seat_label(table, l),
            game.deal().kitty.to_cards()
        )?;
    }
    if !game.laizi().is_empty() {
        writeln!(out, "wild rank: {}", wild_text(game.laizi()))?;
    }
    Ok(())
}

/// Narrates events, one line each, and the result when the game ends.
fn narrate(table: &Table, events: &[Event], out: &mut impl Write) -> Result<()> {
    for e in events {
        if matches!(e, Event::Over(_)) {
            for line in outcome_lines(table) {
                writeln!(out, "{line}")?;
            }
        } else {
            writeln!(out, "{}", describe_event(table, e))?;
        }
    }
    Ok(())
}

/// The table as text: your hand, the others' counts and roles, the play to beat.
fn print_state(table: &Table, out: &mut impl Write) -> Result<()> {
    let game = table.game();
    let rules: Rules = table.rules();
    let me = table.me();
    let others: Vec<String> = [me.next(), me.prev()]
        .into_iter()
        .map(|s| {
            format!(
                "seat {s} {} ({}) {} cards",
                table.seat_name(s),
                role_name(table, s),
                game.hand(s).len()
            )
        })
        .collect();
    writeln!(out, "table: {}", others.join("; "))?;
    let view = game.view(me);
    for s in [me.next(), me.prev()] {
        if let Some(cards) = view.shown()[s] {
            writeln!(out, "seat {s} shows: {}", hand_text(cards, &rules))?;
        }
    }
    if rules.doubling.enabled || rules.show.enabled {
        if let Some(landlord) = game.landlord() {
            let pairs: Vec<String> = Seat::ALL
                .into_iter()
                .filter(|&s| s != landlord)
                .map(|s| format!("seat {s} vs the landlord x{}", view.seat_multiplier(s)))
                .collect();
            let doublings: Vec<String> = Seat::ALL
                .into_iter()
                .map(|s| match view.doublings()[s] {
                    Some(d) => format!("seat {s} x{d}"),
                    None => format!("seat {s} -"),
                })
                .collect();
            writeln!(
                out,
                "stake: base {}, table x{}, doubling {}; pairs {}; yours x{}",
                game.base(),
                view.multiplier(),
                doublings.join(", "),
                pairs.join(", "),
                view.seat_multiplier(me)
            )?;
        } else if view.multiplier() > 1 {
            writeln!(out, "stake: table x{}", view.multiplier())?;
        }
    } else if game.phase() == Phase::Playing {
        writeln!(
            out,
            "stake: base {} x multiplier {}",
            game.base(),
            game.multiplier()
        )?;
    }
    writeln!(
        out,
        "your hand ({}, {} cards): {}",
        role_name(table, me),
        game.hand(me).len(),
        hand_text(game.hand(me), &rules)
    )?;
    if game.phase() == Phase::Playing {
        match game.last() {
            Some((s, m)) => writeln!(
                out,
                "to beat: {} by {}",
                ddz_core::move_notation(&m, &rules),
                seat_label(table, s)
            )?,
            None => writeln!(out, "you lead")?,
        }
    }
    Ok(())
}

/// The prompt line for your turn.
fn prompt(table: &Table, out: &mut impl Write) -> Result<()> {
    if let Some(f) = table.my_show_factor() {
        writeln!(out, "your show? (show for x{f}, no)")?;
        return Ok(());
    }
    let doublings = table.my_doublings();
    if !doublings.is_empty() {
        let words: Vec<String> = doublings
            .iter()
            .map(|&d| match d {
                1 => "nodouble (x1)".to_string(),
                2 => "double (x2)".to_string(),
                4 => "super (x4)".to_string(),
                d => format!("double {d}"),
            })
            .collect();
        writeln!(out, "your doubling? ({})", words.join(", "))?;
        return Ok(());
    }
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
