//! `ddz classify CARDS`: every reading of a set of cards.

use std::io::Write;

use anyhow::{Context, Result};
use ddz_core::{classify, parse_cards_in};
use serde_json::json;

use crate::common::{RulesArgs, move_line, move_value, print_json};

/// Every reading of a set of cards.
#[derive(clap::Args)]
pub struct Args {
    /// The cards, e.g. 333444555666 (aliases: 10, lower case, X/D or 小王/大王 for the jokers).
    cards: String,
    #[command(flatten)]
    rules: RulesArgs,
    /// Print {"cards": ..., "readings": [MOVE...]} instead of text.
    #[arg(long)]
    json: bool,
}

/// Runs the command.
pub fn run(args: Args) -> Result<()> {
    let rules = args.rules.load_any_table()?;
    let mut out = std::io::stdout().lock();
    let cards =
        parse_cards_in(&args.cards, &rules).with_context(|| format!("cards \"{}\"", args.cards))?;
    let readings = classify(cards, &rules);
    if args.json {
        let list: Vec<_> = readings.iter().map(move_value).collect();
        print_json(
            &mut out,
            &json!({"cards": cards.to_string(), "readings": list}),
        )?;
        return Ok(());
    }
    match readings.len() {
        0 => writeln!(
            out,
            "{cards}: not a combination under {} rules",
            rules.profile
        ),
        1 => writeln!(out, "{cards}: 1 reading"),
        n => writeln!(out, "{cards}: {n} readings"),
    }?;
    for m in &readings {
        writeln!(out, "  {}", move_line(m, &rules))?;
    }
    Ok(())
}
