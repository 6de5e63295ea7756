//! `ddz compare A B`: does A beat B.

use std::io::Write;

use anyhow::{Context, Result};
use ddz_core::{Move, classify, parse_move};
use serde_json::json;

use crate::common::{RulesArgs, move_value, print_json};

/// Does move A, as written, beat move B, as written (each in its declared or default
/// reading), and the same for every pair of readings of their cards.
#[derive(clap::Args)]
pub struct Args {
    /// The move that tries to beat, in move notation (33344, 333444555666:airplane_singles:6).
    a: String,
    /// The move on the table, in move notation.
    b: String,
    #[command(flatten)]
    rules: RulesArgs,
    /// Print {"beats": bool, "pairs": [{"a", "b", "beats"}...]} instead of text.
    #[arg(long)]
    json: bool,
}

/// Every reading of a written move's cards (just the declared one when declared).
fn readings_of(text: &str, m: &Move, rules: &ddz_core::Rules) -> Vec<Move> {
    if m.is_pass() || text.contains(':') {
        vec![*m]
    } else {
        classify(m.cards(), rules)
    }
}

/// Runs the command.
pub fn run(args: Args) -> Result<()> {
    let rules = args.rules.load_any_table()?;
    let mut out = std::io::stdout().lock();
    let a = parse_move(&args.a, &rules, None).with_context(|| format!("move A \"{}\"", args.a))?;
    let b = parse_move(&args.b, &rules, None).with_context(|| format!("move B \"{}\"", args.b))?;
    let beats = a.beats(&b, &rules);
    let mut pairs = Vec::new();
    for ra in readings_of(&args.a, &a, &rules) {
        for rb in readings_of(&args.b, &b, &rules) {
            pairs.push((ra, rb, ra.beats(&rb, &rules)));
        }
    }
    if args.json {
        let list: Vec<_> = pairs
            .iter()
            .map(|(x, y, w)| json!({"a": move_value(x), "b": move_value(y), "beats": w}))
            .collect();
        print_json(&mut out, &json!({"beats": beats, "pairs": list}))?;
        return Ok(());
    }
    writeln!(
        out,
        "{a} {} {b}",
        if beats { "beats" } else { "does not beat" }
    )?;
    if pairs.len() > 1 {
        writeln!(out, "every pair of readings:")?;
        for (x, y, w) in &pairs {
            writeln!(
                out,
                "  {:<40} {:<40} {}",
                x.to_string(),
                y.to_string(),
                if *w { "beats" } else { "-" }
            )?;
        }
    }
    Ok(())
}
