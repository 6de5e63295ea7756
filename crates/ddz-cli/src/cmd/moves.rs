//! `ddz moves HAND`: every legal move, or a batch of JSON lines.

use std::io::{BufRead, BufReader, Write};

use anyhow::{Context, Result, bail};
use ddz_core::{Kind, Move, Rules, legal_moves, moves_of_kind, parse_cards_in, parse_move};
use serde_json::{Value, json};

use crate::common::{RulesArgs, move_from_value, move_line, move_value, parse_laizi, print_json};

/// Every legal move of a hand: leading, or beating `--beat`; or, with `--input`, one JSON line
/// of moves per input line {"hand": "...", "last": null | "MOVE NOTATION" | MOVE}.
#[derive(clap::Args)]
pub struct Args {
    /// The hand, e.g. 33344456789TJQKA2BR. Not used with --input.
    #[arg(required_unless_present = "input")]
    hand: Option<String>,
    /// The move to beat, in move notation; without it, the moves that lead.
    #[arg(long, value_name = "MOVE")]
    beat: Option<String>,
    /// Only the moves of one kind (single, pair, trio, trio_single, trio_pair, straight,
    /// pair_chain, airplane, airplane_singles, airplane_pairs, four_two_singles, four_two_pairs,
    /// bomb, rocket, space_shuttle, space_shuttle_singles, space_shuttle_pairs).
    #[arg(long, value_name = "KIND")]
    kind: Option<String>,
    /// Batch mode: read JSON lines from FILE ('-' for stdin), write one {"moves": [...]} line
    /// each; a bad line gives {"line": N, "error": "..."} and the run goes on.
    #[arg(long, value_name = "FILE", conflicts_with_all = ["hand", "beat", "kind"])]
    input: Option<String>,
    #[command(flatten)]
    rules: RulesArgs,
    /// Print {"moves": [MOVE...]} instead of text.
    #[arg(long)]
    json: bool,
}

/// Runs the command.
pub fn run(args: Args) -> Result<()> {
    let rules = args.rules.load_any_table()?;
    let mut out = std::io::stdout().lock();
    if let Some(input) = &args.input {
        return batch(input, &rules);
    }
    let hand_text = args.hand.as_deref().unwrap_or_default();
    let hand =
        parse_cards_in(hand_text, &rules).with_context(|| format!("hand \"{hand_text}\""))?;
    let last = args
        .beat
        .as_deref()
        .map(|b| parse_move(b, &rules, None).with_context(|| format!("--beat \"{b}\"")))
        .transpose()?;
    let kind = args
        .kind
        .as_deref()
        .map(|k| k.parse::<Kind>().with_context(|| "--kind".to_string()))
        .transpose()?;
    let moves: Vec<Move> = match (kind, &last) {
        (Some(k), None) => moves_of_kind(hand, k, &rules),
        (Some(k), Some(l)) => legal_moves(hand, Some(l), &rules)
            .into_iter()
            .filter(|m| m.kind() == k)
            .collect(),
        (None, l) => legal_moves(hand, l.as_ref(), &rules),
    };
    if args.json {
        let list: Vec<Value> = moves.iter().map(move_value).collect();
        print_json(&mut out, &json!({"moves": list}))?;
        return Ok(());
    }
    let what = match &last {
        Some(l) => format!("beating {l}"),
        None => "leading".to_string(),
    };
    writeln!(out, "{hand}: {} moves {what}", moves.len())?;
    for m in &moves {
        writeln!(out, "  {}", move_line(m, &rules))?;
    }
    Ok(())
}

/// The moves for one batch line.
fn batch_line(line: &str, rules: &Rules) -> Result<Value> {
    let v: Value = serde_json::from_str(line).context("not JSON")?;
    let Value::Object(obj) = &v else {
        bail!("expected an object {{\"hand\", \"last\"}}")
    };
    for key in obj.keys() {
        if !matches!(key.as_str(), "hand" | "last" | "laizi") {
            bail!("unknown key \"{key}\" (keys: hand, last, laizi)");
        }
    }
    let Some(Value::String(hand_text)) = obj.get("hand") else {
        bail!("\"hand\" must be a string of cards");
    };
    let hand = parse_cards_in(hand_text, rules).with_context(|| format!("hand \"{hand_text}\""))?;
    let line_rules;
    let rules = match obj.get("laizi") {
        None | Some(Value::Null) => rules,
        Some(Value::Array(items)) => {
            let mut ranks = Vec::new();
            for item in items {
                let Value::String(t) = item else {
                    bail!("\"laizi\": expected rank strings")
                };
                ranks.extend(parse_laizi(t)?);
            }
            line_rules = rules.with_laizi(&ranks).context("\"laizi\"")?;
            &line_rules
        }
        Some(_) => bail!("\"laizi\": expected a list of ranks such as [\"9\"]"),
    };
    let last = match obj.get("last") {
        None => None,
        Some(l) => move_from_value(l, rules).context("\"last\"")?,
    };
    let list: Vec<Value> = legal_moves(hand, last.as_ref(), rules)
        .iter()
        .map(move_value)
        .collect();
    Ok(json!({"moves": list}))
}

fn batch(input: &str, rules: &Rules) -> Result<()> {
    let reader: Box<dyn BufRead> = if input == "-" {
        Box::new(BufReader::new(std::io::stdin()))
    } else {
        let f = std::fs::File::open(input).with_context(|| format!("cannot open {input}"))?;
        Box::new(BufReader::new(f))
    };
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    for (i, line) in reader.lines().enumerate() {
        let n = i + 1;
        let line = line.with_context(|| format!("reading line {n} of {input}"))?;
        if line.trim().is_empty() {
            continue;
        }
        let reply = batch_line(&line, rules)
            .unwrap_or_else(|e| json!({"line": n, "error": format!("{e:#}")}));
        writeln!(out, "{reply}")?;
    }
    Ok(())
}
