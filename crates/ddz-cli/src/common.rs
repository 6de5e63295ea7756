//! Options and helpers shared by the subcommands: rule selection, move JSON, output.

use std::path::PathBuf;
use std::time::Duration;

use anyhow::{Context, Result, anyhow, bail};
use clap::Args;
use ddz_bots::external::Externals;
use ddz_core::{Cards, Move, MoveJson, Profile, Rank, Rules, move_notation};
use serde_json::Value;

/// `--rules`, `--rules-file` and `--laizi`.
#[derive(Args, Clone, Debug)]
pub struct RulesArgs {
    /// Rule profile: classic, laizi, tiandi, douzero, rlcard or botzone.
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
    /// The rules these options select.
    pub fn load(&self) -> Result<Rules> {
        let profile: Profile = self.rules.parse().map_err(|e| anyhow!("--rules: {e}"))?;
        let rules = match &self.rules_file {
            None => Rules::profile(profile),
            Some(path) => {
                let text = std::fs::read_to_string(path)
                    .with_context(|| format!("cannot read rules file {}", path.display()))?;
                let toml = path.extension().is_some_and(|e| e == "toml");
                rules_from_text(&text, toml, profile)
                    .with_context(|| format!("rules file {}", path.display()))?
            }
        };
        if rules.landlord_seat > 2 {
            bail!(
                "landlord_seat {} is not a seat (0, 1 or 2)",
                rules.landlord_seat
            );
        }
        match &self.laizi {
            // Wild ranks from a rules file are checked like those of --laizi.
            None => {
                let ranks: Vec<Rank> = rules.laizi.iter().collect();
                Ok(rules
                    .with_laizi(&ranks)
                    .context("\"laizi\" in the rules file")?)
            }
            Some(text) => Ok(rules.with_laizi(&parse_laizi(text)?).context("--laizi")?),
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

/// Parses a list of wild ranks: `9`, `7,9`, `10`.
pub fn parse_laizi(text: &str) -> Result<Vec<Rank>> {
    text.split(',')
        .map(str::trim)
        .filter(|t| !t.is_empty())
        .map(|t| {
            let cards: Cards = t.parse().with_context(|| format!("wild rank \"{t}\""))?;
            match (cards.len(), cards.lowest()) {
                (1, Some(r)) => Ok(r),
                _ => bail!("wild rank \"{t}\" is not one rank"),
            }
        })
        .collect()
}

/// Rules from a rules file's text: a profile (or `default`) with fields overridden.
pub fn rules_from_text(text: &str, toml: bool, default: Profile) -> Result<Rules> {
    let overrides: Value = if toml {
        let t: toml::Table = toml::from_str(text).context("not valid TOML")?;
        serde_json::to_value(t)?
    } else {
        serde_json::from_str(text).context("not valid JSON")?
    };
    let Value::Object(overrides) = overrides else {
        bail!("expected an object of rule fields");
    };
    let profile = match overrides.get("profile") {
        Some(Value::String(p)) => p.parse::<Profile>()?,
        Some(other) => bail!("\"profile\" must be a string, not {other}"),
        None => default,
    };
    let Value::Object(mut merged) = serde_json::to_value(Rules::profile(profile))? else {
        bail!("rules did not serialise to an object");
    };
    for (key, value) in overrides {
        if !merged.contains_key(&key) {
            let known: Vec<&str> = merged.keys().map(String::as_str).collect();
            bail!(
                "unknown rule field \"{key}\" (fields: {})",
                known.join(", ")
            );
        }
        merged.insert(key, value);
    }
    serde_json::from_value(Value::Object(merged)).context("a rule field has the wrong type")
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

    #[test]
    fn rules_file_overrides_fields() {
        let r = rules_from_text(
            r#"{"profile": "botzone", "four_with_two": false}"#,
            false,
            Profile::Classic,
        )
        .unwrap();
        assert_eq!(r.profile, Profile::Botzone);
        assert!(!r.four_with_two);
        let r = rules_from_text("bomb_in_kickers = true\n", true, Profile::Classic).unwrap();
        assert!(r.bomb_in_kickers);
        let e = rules_from_text(r#"{"fourwithtwo": false}"#, false, Profile::Classic).unwrap_err();
        assert!(
            e.to_string().contains("unknown rule field \"fourwithtwo\""),
            "{e}"
        );
        assert!(rules_from_text(r#"{"four_with_two": 3}"#, false, Profile::Classic).is_err());
        assert!(rules_from_text("[1]", false, Profile::Classic).is_err());
        assert!(rules_from_text(r#"{"profile": "poker"}"#, false, Profile::Classic).is_err());
    }
}
