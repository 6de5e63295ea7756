//! `ddz replay` of a two- or four-seat record (`ddz-table-record/1`, docs/variants.md): the
//! deal, the bids, the landlord and kitty, the handicap, every play and the result, checked.

use std::io::Write;

use anyhow::{Result, bail};
use ddz_game::{Phase, TableGame, TableRecord};
use serde_json::json;

use crate::common::print_json;

/// Replays the table record `text` (its `format` already read as a table record's): with
/// `json` the summary object, else the game step by step. `analyse` is refused: the
/// analysis rates three-seat games.
pub fn run(text: &str, value: &serde_json::Value, json: bool, analyse: bool) -> Result<()> {
    if analyse {
        bail!(
            "--analyse: the analysis (ddz analyse) rates three-seat games; this is a table record"
        );
    }
    match value.pointer("/rules/seats").and_then(|s| s.as_u64()) {
        Some(2) => replay::<2>(text, json),
        Some(4) => replay::<4>(text, json),
        Some(n) => bail!("\"rules\".\"seats\": a table record seats 2 or 4 players, not {n}"),
        None => bail!("\"rules\".\"seats\": a table record names its seat count (2 or 4)"),
    }
}

fn replay<const N: usize>(text: &str, json: bool) -> Result<()> {
    let record = TableRecord::<N>::parse(text)?;
    let game = record.replay()?;
    let mut out = std::io::stdout().lock();
    if json {
        let v = json!({
            "ok": true,
            "seats": N,
            "steps": record.bids.len() + record.plays.len(),
            "result": record.result,
        });
        print_json(&mut out, &v)?;
        return Ok(());
    }
    write_game(&mut out, &record, &game)
}

/// The replayed game step by step.
fn write_game<const N: usize>(
    out: &mut impl Write,
    record: &TableRecord<N>,
    game: &TableGame<N>,
) -> Result<()> {
    let rules = &record.rules;
    let bidding = serde_json::to_value(rules.bidding)?;
    writeln!(
        out,
        "{} game ({N} seats), seed {}, bidding {}",
        rules.profile,
        record.seed,
        bidding.as_str().unwrap_or_default()
    )?;
    writeln!(out, "deal:")?;
    for (seat, hand) in record.deal.hands.iter().enumerate() {
        writeln!(out, "  seat {seat}: {hand}")?;
    }
    writeln!(out, "  kitty:  {}", record.deal.kitty)?;
    if !record.deal.out_of_play.is_empty() {
        writeln!(
            out,
            "  out of play (seen by neither player): {}",
            record.deal.out_of_play
        )?;
    }
    if record.redeals > 0 {
        writeln!(
            out,
            "  (the final deal, after {} redeals from the seed)",
            record.redeals
        )?;
    }
    for (i, (seat, bid)) in record.bids.iter().enumerate() {
        writeln!(out, "bid {}: seat {seat} bids {bid}", i + 1)?;
    }
    if let Some(landlord) = game.landlord() {
        writeln!(
            out,
            "landlord: seat {landlord} takes the kitty {}; base {}, robs x{}",
            game.deal().kitty,
            game.base(),
            game.rob_multiplier()
        )?;
    }
    if let Some((farmer, cards)) = game.handicap() {
        writeln!(
            out,
            "handicap (让牌): seat {farmer} wins at {cards} card(s) or fewer"
        )?;
    }
    for (i, (seat, play)) in game.history().iter().enumerate() {
        let text = ddz_core::move_notation(play, rules);
        writeln!(out, "play {}: seat {seat} {text}", i + 1)?;
    }
    match game.result() {
        Some(r) if game.phase() == Phase::Over => {
            let (farmers, top) = match N {
                2 => ("the farmer wins", "rocket"),
                _ => ("the farmers win", "four jokers"),
            };
            write_result(out, r, farmers, top)?;
            writeln!(
                out,
                "checked: {} bids, {} plays and the result",
                record.bids.len(),
                record.plays.len()
            )?;
        }
        _ => writeln!(
            out,
            "unfinished: seat {} to act; the record checks out so far",
            game.turn()
        )?,
    }
    Ok(())
}

/// A game's result in two lines, `result: ...` and `scores: ...`, as `ddz replay` shows it at
/// every table: `farmers` is how the
/// farmers' win is said, `top` the name of the top bomb (the rocket, the four jokers).
pub(super) fn write_result<const N: usize>(
    out: &mut impl Write,
    r: &ddz_game::GameResult<N>,
    farmers: &str,
    top: &str,
) -> Result<()> {
    let winner = match r.winner {
        ddz_game::Side::Landlord => "the landlord wins",
        ddz_game::Side::Farmers => farmers,
    };
    let mut extras = vec![format!("bombs {}", r.bombs)];
    if r.rocket {
        extras.push(top.into());
    }
    if r.spring {
        extras.push("spring".into());
    }
    if r.anti_spring {
        extras.push("anti-spring".into());
    }
    writeln!(
        out,
        "result: {winner} (seat {} out first); base {} x multiplier {} ({})",
        r.first_out,
        r.base,
        r.multiplier,
        extras.join(", ")
    )?;
    let scores: Vec<String> = r
        .scores
        .iter()
        .map(|(s, v)| format!("seat {s} {v:+}"))
        .collect();
    writeln!(out, "scores: {}", scores.join(", "))?;
    Ok(())
}
