//! `ddz replay FILE`: a recorded game (`ddz-record/1`, or `ddz-table-record/1` at two and
//! four seats) step by step, checked.

use std::io::{Read, Write};

use anyhow::{Context, Result};
use ddz_game::{GameRecord, ReplayStep, Step};
use serde_json::json;

use crate::common::print_json;

/// A recorded game step by step: the deal, the bids, the landlord and kitty, every play with
/// the seat, its role and the cards it has left, and the result. Every step is checked against
/// the rules; a corrupt or illegal record is an error naming the step, e.g. `play 17 (seat 2,
/// "3334"): does not beat ...` (exit code 2).
#[derive(clap::Args)]
pub struct Args {
    /// The record file (JSON, format "ddz-record/1", or "ddz-table-record/1" for a game at two
    /// or four seats), or - to read standard input.
    #[arg(value_name = "FILE")]
    file: String,
    /// Print {"ok": true, "steps": N, "result": {...}} (N = bids + plays; result null for an
    /// unfinished game) instead of the game step by step.
    #[arg(long)]
    json: bool,
    /// Then rate every play as `ddz analyse` does at its default budget (with --json: the
    /// analysis under "analysis").
    #[arg(long)]
    analyse: bool,
}

fn read_input(file: &str) -> Result<String> {
    if file == "-" {
        let mut text = String::new();
        std::io::stdin()
            .read_to_string(&mut text)
            .context("cannot read the record from standard input")?;
        Ok(text)
    } else {
        std::fs::read_to_string(file).with_context(|| format!("cannot read record file {file}"))
    }
}

/// Runs the command.
pub fn run(args: Args) -> Result<()> {
    let text = read_input(&args.file)?;
    if let Ok(value) = serde_json::from_str::<serde_json::Value>(&text)
        && value.get("format").and_then(|f| f.as_str()) == Some(ddz_game::TABLE_RECORD_FORMAT)
    {
        return crate::cmd::replay_table::run(&text, &value, args.json, args.analyse);
    }
    let record = GameRecord::parse(&text)?;
    let mut out = std::io::stdout().lock();
    if args.json {
        record.replay()?;
        let mut v = json!({
            "ok": true,
            "steps": record.bids.len() + record.plays.len(),
            "result": record.result,
        });
        if args.analyse {
            v["analysis"] = serde_json::to_value(crate::cmd::analyse::default_analysis(&record)?)?;
        }
        print_json(&mut out, &v)?;
        return Ok(());
    }

    let rules = &record.rules;
    writeln!(
        out,
        "{} game, seed {}, bidding {}",
        rules.profile,
        record.seed,
        serde_json::to_value(rules.bidding)?
            .as_str()
            .unwrap_or_default()
    )?;
    let deal = &record.deal;
    writeln!(out, "deal:")?;
    writeln!(out, "  seat 0: {} (the kitty not included)", seat0(deal))?;
    writeln!(out, "  seat 1: {}", deal.landlord_down)?;
    writeln!(out, "  seat 2: {}", deal.landlord_up)?;
    writeln!(out, "  kitty:  {}", deal.kitty)?;
    if let Some(laizi) = &deal.laizi {
        // Heaven (drawn before bidding) first, then earth.
        let label = if laizi.len() == 2 {
            format!("{} (heaven), {} (earth)", laizi[0], laizi[1])
        } else {
            laizi.join(", ")
        };
        writeln!(out, "  wild ranks: {label}")?;
    }
    if record.redeals > 0 {
        writeln!(
            out,
            "  (the final deal, after {} redeals from the seed)",
            record.redeals
        )?;
    }
    writeln!(out, "first bidder: seat {}", record.first_bidder)?;
    // Write each step as it is checked, so the game is shown up to a failing step.
    let mut io_error = None;
    let replayed = record.replay_each(|game, step| {
        if io_error.is_none()
            && let Err(e) = write_step(&mut out, game, step)
        {
            io_error = Some(e);
        }
    });
    if let Some(e) = io_error {
        return Err(e);
    }
    let game = replayed?;
    match game.result() {
        None => writeln!(
            out,
            "unfinished: seat {} to act; the record checks out so far",
            game.turn()
        )?,
        Some(r) => {
            crate::cmd::replay_table::write_result(&mut out, r, "the farmers win", "rocket")?;
            writeln!(
                out,
                "checked: {} bids, {} plays and the result",
                record.bids.len(),
                record.plays.len()
            )?;
        }
    }
    if args.analyse {
        writeln!(out, "analysis (ddz analyse):")?;
        let analysis = crate::cmd::analyse::default_analysis(&record)?;
        crate::cmd::analyse::write_text(&mut out, &analysis)?;
    }
    Ok(())
}

/// Seat 0's 17 cards: the deal line's landlord hand without the kitty.
fn seat0(deal: &ddz_game::DealLine) -> String {
    let all: Option<ddz_core::Cards> = deal.landlord.parse().ok();
    let kitty: Option<ddz_core::Cards> = deal.kitty.parse().ok();
    match (all, kitty) {
        (Some(a), Some(k)) => a.saturating_minus(k).to_string(),
        _ => deal.landlord.clone(),
    }
}

fn write_step(out: &mut impl Write, game: &ddz_game::Game, step: &ReplayStep) -> Result<()> {
    match &step.step {
        Step::Landlord => {
            writeln!(
                out,
                "landlord: seat {} takes the kitty {}: {} cards {}; base {}, multiplier {} so far",
                step.seat,
                game.deal().kitty.to_cards(),
                step.hand.len(),
                step.hand,
                game.base(),
                game.multiplier()
            )?;
            if !game.laizi().is_empty() {
                let ranks: Vec<String> = game.laizi().iter().map(|r| r.to_string()).collect();
                writeln!(out, "wild ranks in force: {}", ranks.join(", "))?;
            }
        }
        _ => writeln!(out, "{step}")?,
    }
    Ok(())
}
