//! JSON form of moves (RULES.md section 3), behind the `serde` feature.
//!
//! A move is `{"cards": "333444555666", "kind": "airplane_singles", "main": "6", "len": 3}`;
//! a pass is `{"cards": "pass", "kind": "pass"}`.

use serde::{Deserialize, Serialize};

use crate::kind::Kind;
use crate::move_notation::{MoveError, parse_move};
use crate::play::Move;
use crate::rules::Rules;

/// A move as JSON: the object of RULES.md section 3.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MoveJson {
    /// Canonical cards, or `pass`.
    pub cards: String,
    /// Kind name (`pass` for the pass).
    pub kind: String,
    /// Main rank letter; absent for a pass.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub main: Option<String>,
    /// Number of body ranks; absent for a pass.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub len: Option<u8>,
    /// The ranks the play is read as, when a wild card stands for another rank.
    #[serde(default, rename = "as", skip_serializing_if = "Option::is_none")]
    pub read_as: Option<String>,
    /// Bomb class (`soft`, `hard`, `pure`) in the wild profiles.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub class: Option<String>,
}

impl From<&Move> for MoveJson {
    fn from(m: &Move) -> Self {
        if m.is_pass() {
            return MoveJson {
                cards: "pass".into(),
                kind: "pass".into(),
                main: None,
                len: None,
                read_as: None,
                class: None,
            };
        }
        MoveJson {
            cards: m.cards().to_string(),
            kind: m.kind().name().into(),
            main: Some(m.main().letter().to_string()),
            len: Some(m.length()),
            read_as: (m.reading() != m.cards()).then(|| m.reading().to_string()),
            class: m.class().map(|c| c.name().to_string()),
        }
    }
}

impl MoveJson {
    /// The move this object names under `rules` (its kind and main must be a reading of its
    /// cards; `len`, when given, must agree).
    pub fn to_move(&self, rules: &Rules) -> Result<Move, MoveError> {
        if self.kind == "pass" || self.cards == "pass" {
            return Ok(Move::PASS);
        }
        let kind: Kind = self.kind.parse().map_err(MoveError::Kind)?;
        let mut text = self.cards.clone();
        if let Some(r) = &self.read_as {
            text.push('=');
            text.push_str(r);
        }
        text.push(':');
        text.push_str(kind.name());
        if let Some(main) = &self.main {
            text.push(':');
            text.push_str(main);
        } else {
            return Err(MoveError::Syntax(format!(
                "move {} has no \"main\"",
                self.cards
            )));
        }
        let m = parse_move(&text, rules, None)?;
        match self.len {
            Some(len) if len != m.length() => Err(MoveError::Syntax(format!(
                "move {} has \"len\": {len}, but its reading has length {}",
                self.cards,
                m.length()
            ))),
            _ => Ok(m),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip() {
        let rules = Rules::classic();
        for text in [
            "333444555666:airplane_singles:6",
            "BR",
            "3",
            "pass",
            "34567",
        ] {
            let m = parse_move(text, &rules, None).unwrap();
            let j = MoveJson::from(&m);
            assert_eq!(j.to_move(&rules), Ok(m), "{text}");
        }
        let j =
            MoveJson::from(&parse_move("333444555666:airplane_singles:6", &rules, None).unwrap());
        assert_eq!(j.len, Some(3));
        assert_eq!(j.main.as_deref(), Some("6"));
        let bad = MoveJson { len: Some(4), ..j };
        assert!(bad.to_move(&rules).is_err());
    }
}
