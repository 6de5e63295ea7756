//! `ddz solve --hands H1,H2[,H3]`: an open-hand puzzle (残局) solved exactly.

use std::io::Write;

use anyhow::{Context, Result, anyhow, bail};
use ddz_bots::solver::{OpenPosition, Solver};
use ddz_core::{Cards, Move, Rules, move_notation, parse_move};
use ddz_game::Seat;
use serde_json::{Value, json};

use crate::common::{RulesArgs, move_value, print_json};

/// An open-hand puzzle (残局, every hand known) solved exactly: who wins with best play, every
/// winning first move, and a principal line of play.
///
/// Three hands make a three-seat position: the landlord against the two farmers as a team
/// (either farmer going out wins for both); when the two other seats pass in a row the last
/// player leads. Two hands make a duel: one pass ends the trick. Win or loss only: the
/// score (bombs, spring) is not computed.
#[derive(clap::Args)]
pub struct Args {
    /// The hands by seat, comma-separated: two for a duel (seats 0 and 1), three for a
    /// three-seat position (seats 0, 1, 2 in play order), e.g. 2QQTT77553,AA9.
    #[arg(long, value_name = "H1,H2[,H3]")]
    hands: String,
    /// The seat to move (default: the landlord with three hands, seat 0 in a duel).
    #[arg(long, value_name = "SEAT")]
    turn: Option<String>,
    /// The play on the table, to beat or pass, in move notation (e.g. 33, 7779=7777,
    /// 333444555666:airplane_singles:6); without it the seat to move leads.
    #[arg(long, value_name = "MOVE")]
    last: Option<String>,
    /// The seat that made --last (default: the seat just before the one to move, so no pass
    /// since; with three seats, the seat after the one to move means one seat has passed).
    #[arg(long, value_name = "SEAT", requires = "last")]
    last_seat: Option<String>,
    /// The landlord's seat, with three hands (default 0).
    #[arg(long, value_name = "SEAT")]
    landlord: Option<String>,
    /// Give up after this many search nodes (an error saying the result is unknown): the
    /// default, 200 million, is about half a minute to a minute; 0 searches without a limit.
    #[arg(long, value_name = "N", default_value_t = 200_000_000)]
    max_nodes: u64,
    #[command(flatten)]
    rules: RulesArgs,
    /// Print {"to_move_wins": bool, "winning_moves": [MOVE...], "line": [[SEAT, MOVE]...],
    /// "winning_notation": [notation...], "winning_seats": [SEAT...], "nodes": N} instead of
    /// text (MOVE as in `ddz moves --json`; the line ends with a winning seat going out).
    #[arg(long)]
    json: bool,
}

/// Parses a seat number.
fn parse_seat(text: &str, option: &str, seats: usize) -> Result<Seat> {
    let what = if seats == 2 { "0 or 1" } else { "0, 1 or 2" };
    text.trim()
        .parse::<u8>()
        .ok()
        .filter(|&i| (i as usize) < seats)
        .and_then(Seat::new)
        .ok_or_else(|| anyhow!("{option} \"{text}\": expected a seat, {what}"))
}

/// The position the options describe.
fn position(args: &Args, rules: &Rules) -> Result<OpenPosition> {
    let hands: Vec<Cards> = args
        .hands
        .split(',')
        .enumerate()
        .map(|(i, h)| {
            h.trim()
                .parse::<Cards>()
                .with_context(|| format!("--hands: hand {} \"{}\"", i + 1, h.trim()))
        })
        .collect::<Result<_>>()?;
    let seats = hands.len();
    if !(2..=3).contains(&seats) {
        bail!(
            "--hands takes two hands (a duel) or three (landlord and farmers), comma-separated; got {seats}"
        );
    }
    let landlord = match &args.landlord {
        None => Seat::ALL[0],
        Some(_) if seats == 2 => bail!("--landlord: a duel (two hands) has no landlord"),
        Some(t) => parse_seat(t, "--landlord", seats)?,
    };
    let turn = match &args.turn {
        None => landlord,
        Some(t) => parse_seat(t, "--turn", seats)?,
    };
    let last = match &args.last {
        None => None,
        Some(text) => {
            let play =
                parse_move(text, rules, None).with_context(|| format!("--last \"{text}\""))?;
            if play.is_pass() {
                bail!("--last \"{text}\": give the last play that is not a pass");
            }
            let by = match &args.last_seat {
                Some(t) => parse_seat(t, "--last-seat", seats)?,
                None if seats == 2 => Seat::ALL[1 - turn.index()],
                None => turn.prev(),
            };
            Some((by, play))
        }
    };
    let position = if seats == 2 {
        OpenPosition::duel([hands[0], hands[1]], turn, last, rules)
    } else {
        OpenPosition::three([hands[0], hands[1], hands[2]], landlord, turn, last, rules)
    };
    Ok(position?)
}

/// A seat's name in text: its number, and its role with three seats.
fn seat_name(p: &OpenPosition, s: Seat) -> String {
    match p.landlord() {
        None => format!("seat {s}"),
        Some(l) if l == s => format!("seat {s} (landlord)"),
        Some(_) => format!("seat {s} (farmer)"),
    }
}

/// A side's name in text.
fn side_name(p: &OpenPosition, s: Seat) -> String {
    match p.landlord() {
        None => format!("seat {s}"),
        Some(l) if l == s => "the landlord".to_string(),
        Some(_) => "the farmers".to_string(),
    }
}

/// Runs the command.
pub fn run(args: Args) -> Result<()> {
    let rules = args.rules.load()?;
    let position = position(&args, &rules)?;
    let mut solver = Solver::new(&rules);
    solver.set_node_limit((args.max_nodes > 0).then_some(args.max_nodes));
    let outcome = solver
        .solve(&position)
        .map_err(|e| anyhow!("{e} (raise --max-nodes, or 0 for no limit)"))?;
    let turn = position.turn();
    let winner = if outcome.to_move_wins {
        turn
    } else {
        position
            .seats()
            .iter()
            .copied()
            .find(|&s| !position.same_side(s, turn))
            .unwrap_or(turn)
    };
    let winning_seats: Vec<Seat> = position
        .seats()
        .iter()
        .copied()
        .filter(|&s| position.same_side(s, winner))
        .collect();
    let notation = |m: &Move| move_notation(m, &rules);
    let mut out = std::io::stdout().lock();
    if args.json {
        let line: Vec<Value> = outcome
            .line
            .iter()
            .map(|(s, m)| json!([s.index(), move_value(m)]))
            .collect();
        let doc = json!({
            "to_move_wins": outcome.to_move_wins,
            "winning_moves": outcome.winning_moves.iter().map(move_value).collect::<Vec<_>>(),
            "line": line,
            "winning_notation": outcome.winning_moves.iter().map(notation).collect::<Vec<_>>(),
            "winning_seats": winning_seats.iter().map(|s| s.index()).collect::<Vec<_>>(),
            "nodes": outcome.nodes,
        });
        print_json(&mut out, &doc)?;
        return Ok(());
    }
    let kind = if position.is_duel() {
        "duel (one pass ends the trick)"
    } else {
        "three seats (the farmers play as a team)"
    };
    writeln!(out, "{kind}, {} rules", rules.profile)?;
    for &s in position.seats() {
        let to_move = if s == turn { "  <- to move" } else { "" };
        writeln!(
            out,
            "  {:<18} {}{to_move}",
            seat_name(&position, s),
            position.hand(s)
        )?;
    }
    match position.last() {
        Some((by, m)) => writeln!(
            out,
            "  to beat: {} by {}",
            notation(&m),
            seat_name(&position, by)
        )?,
        None => writeln!(out, "  {} leads", seat_name(&position, turn))?,
    }
    let verdict = if outcome.to_move_wins {
        "wins"
    } else {
        "loses"
    };
    writeln!(
        out,
        "{} to move {verdict} with best play: {} win{}.",
        seat_name(&position, turn),
        side_name(&position, winner),
        if side_name(&position, winner) == "the farmers" {
            ""
        } else {
            "s"
        }
    )?;
    if outcome.winning_moves.is_empty() {
        writeln!(out, "winning moves: none")?;
    } else {
        let list: Vec<String> = outcome.winning_moves.iter().map(notation).collect();
        writeln!(out, "winning moves ({}): {}", list.len(), list.join("  "))?;
    }
    writeln!(out, "principal line:")?;
    for (s, m) in &outcome.line {
        writeln!(out, "  {:<18} {}", seat_name(&position, *s), notation(m))?;
    }
    writeln!(out, "({} nodes searched)", outcome.nodes)?;
    Ok(())
}
