//! Options and helpers shared by the subcommands: rule selection, move JSON, output.

use std::path::PathBuf;
use std::time::Duration;

use anyhow::{Context, Result, anyhow, bail};
use clap::Args;
use ddz_core::{Move, MoveJson, Rank, Rules, RulesError, move_notation, parse_wild_ranks};
use ddz_protocol::external::Externals;
use serde_json::Value;

/// `--rules`, `--rules-file` and `--laizi`.
#[derive(Args, Clone, Debug)]
pub struct RulesArgs {
    /// Rule profile: classic, laizi, tiandi, douzero, rlcard, botzone or huanle; two and four
    /// (two and four players, docs/variants.md) for play, bot, replay, the arena and the
    /// commands on hands and positions (moves, classify, compare, perft, bench movegen and
    /// games) only.
    #[arg(long, default_value = "classic", value_name = "PROFILE")]
    pub rules: String,
    /// A rules file (JSON, or TOML when the name ends in .toml): `profile` and any rule fields
    /// to override, e.g. {"profile": "classic", "four_with_two": false}.
    #[arg(long, value_name = "FILE")]
    pub rules_file: Option<PathBuf>,
    /// The wild ranks (with --rules laizi: one rank; tiandi: two), e.g. --laizi 9 or 7,9.
    #[arg(long, value_name = "RANK[,RANK]")]
    pub laizi: Option<String>,
}

impl RulesArgs {
    /// The rules these options select ([`Rules::build`]): a three-seat table.
    pub fn load(&self) -> Result<Rules> {
        let rules = Rules::build(
            &self.rules,
            self.rules_file.as_deref(),
            self.laizi.as_deref(),
        );
        rules.map_err(Self::error)
    }

    /// The rules these options select at any table ([`Rules::build_any_table`]), for the
    /// commands that work on hands and positions.
    pub fn load_any_table(&self) -> Result<Rules> {
        let rules = Rules::build_any_table(
            &self.rules,
            self.rules_file.as_deref(),
            self.laizi.as_deref(),
        );
        rules.map_err(Self::error)
    }

    /// The error of a rules option, naming the option where one is at fault.
    fn error(e: RulesError) -> anyhow::Error {
        match e {
            RulesError::Profile(_) | RulesError::NotPlayedYet { .. } => anyhow!("--rules: {e}"),
            RulesError::Laizi(_) => anyhow!("--laizi: {e}"),
            e => e.into(),
        }
    }
}

/// The external robots of `--exec NAME=COMMAND` definitions, each allowed `timeout_ms` per
/// decision.
pub fn externals(definitions: &[String], timeout_ms: u64) -> Result<Externals> {
    if timeout_ms == 0 {
        bail!("--timeout must be at least 1 ms");
    }
    let mut externals = Externals::new();
    for definition in definitions {
        externals
            .add(definition, Duration::from_millis(timeout_ms))
            .map_err(|e| anyhow!("--exec: {e}"))?;
    }
    Ok(externals)
}

/// Parses a list of wild ranks: `9`, `7,9`, `10` ([`parse_wild_ranks`]).
pub fn parse_laizi(text: &str) -> Result<Vec<Rank>> {
    Ok(parse_wild_ranks(text)?)
}

/// A move as a JSON value.
pub fn move_value(m: &Move) -> Value {
    serde_json::to_value(MoveJson::from(m)).unwrap_or(Value::Null)
}

/// Reads a move given as JSON: notation text, a MOVE object, or null (no move).
pub fn move_from_value(v: &Value, rules: &Rules) -> Result<Option<Move>> {
    match v {
        Value::Null => Ok(None),
        Value::String(s) => Ok(Some(ddz_core::parse_move(s, rules, None)?)),
        Value::Object(_) => {
            let j: MoveJson = serde_json::from_value(v.clone()).context("not a MOVE object")?;
            Ok(Some(j.to_move(rules)?))
        }
        other => bail!("expected move notation, a MOVE object or null, not {other}"),
    }
}

/// One line of aligned text for a move: its shortest notation, then kind, main and length.
pub fn move_line(m: &Move, rules: &Rules) -> String {
    if m.is_pass() {
        return "pass".to_string();
    }
    let len = if m.length() > 1 {
        format!(", length {}", m.length())
    } else {
        String::new()
    };
    format!(
        "{:<32} {} {}{}",
        move_notation(m, rules),
        m.kind(),
        m.main(),
        len
    )
}

/// Writes a JSON value on one line.
pub fn print_json(out: &mut impl std::io::Write, v: &Value) -> std::io::Result<()> {
    writeln!(out, "{v}")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn load(rules: &str, laizi: Option<&str>) -> Result<Rules> {
        RulesArgs {
            rules: rules.into(),
            rules_file: None,
            laizi: laizi.map(str::to_string),
        }
        .load()
    }

    #[test]
    fn rule_errors_name_the_option() {
        assert_eq!(load("laizi", Some("9")).unwrap().laizi.len(), 1);
        let e = load("poker", None).unwrap_err();
        assert!(
            format!("{e:#}").starts_with("--rules: \"poker\" is not a rule profile"),
            "{e:#}"
        );
        let e = load("classic", Some("9")).unwrap_err();
        assert_eq!(
            format!("{e:#}"),
            "--laizi: classic rules have 0 wild ranks (1 given; use --rules laizi or tiandi)"
        );
        let e = load("laizi", Some("79")).unwrap_err();
        assert_eq!(format!("{e:#}"), "wild rank \"79\" is not one rank");
    }
}
