//! Rules from what a user gives: a profile name, a rules file and wild ranks.
//!
//! The one place that turns those three into [`Rules`], for the `ddz` command's `--rules`,
//! `--rules-file` and `--laizi`, the Python bindings, the robot protocol and the web rooms:
//!
//! - [`Rules::from_profile_name`]: a profile by name (`classic`, `laizi`, ..., any case);
//! - [`Rules::with_laizi_text`] and [`parse_wild_ranks`]: wild ranks written `9`, `7,9`, `10`;
//! - with the `rules-file` feature, `Rules::from_file_text` and `Rules::from_file`: a JSON or
//!   TOML object of a `profile` and any rule fields to override, and `Rules::build`, all three
//!   at once, checked (the landlord seat, the file's wild ranks).
//!
//! ```
//! use ddz_core::{Rank, Rules};
//! let rules = Rules::from_profile_name("tiandi").unwrap().with_laizi_text("7,9").unwrap();
//! assert!(rules.laizi.contains(Rank::Seven) && rules.laizi.contains(Rank::Nine));
//! assert_eq!(
//!     Rules::classic().with_laizi_text("79").unwrap_err().to_string(),
//!     "wild rank \"79\" is not one rank"
//! );
//! ```

use core::fmt;
#[cfg(feature = "rules-file")]
use std::path::{Path, PathBuf};

use crate::cards::Cards;
use crate::notation::ParseCardsError;
use crate::rank::Rank;
use crate::rules::{LaiziError, Profile, Rules, UnknownProfile};

/// What is wrong with a profile name, a rules file or wild ranks (`Rules::build` and its
/// parts). Each message says what and where, as the `ddz` command prints it; the command adds
/// `--rules: ` before [`RulesError::Profile`] and `--laizi: ` before [`RulesError::Laizi`].
#[derive(Debug)]
#[non_exhaustive]
pub enum RulesError {
    /// The profile name is not a profile.
    Profile(UnknownProfile),
    /// The rules file could not be read.
    #[cfg(feature = "rules-file")]
    ReadFile {
        /// The file.
        path: PathBuf,
        /// Why it could not be read.
        error: std::io::Error,
    },
    /// The rules file does not describe rules.
    #[cfg(feature = "rules-file")]
    File {
        /// The file.
        path: PathBuf,
        /// What is wrong with its text.
        error: RulesFileError,
    },
    /// `landlord_seat` is not 0, 1 or 2.
    LandlordSeat(u8),
    /// A wild rank that is not card notation.
    WildRank {
        /// The text given for the rank.
        text: String,
        /// Why it is not card notation.
        error: ParseCardsError,
    },
    /// A wild rank that is not exactly one rank (`79`, `77`, or nothing between commas).
    NotOneRank(String),
    /// The wild ranks given do not fit the rules.
    Laizi(LaiziError),
    /// The wild ranks of the rules file do not fit its rules.
    FileLaizi(LaiziError),
    /// The rules need a table the game engine does not play yet: two or four seats, two
    /// decks, ranks taken out, or the two-seat handicap (docs/variants.md, issue 54).
    NotPlayedYet {
        /// The profile of the rules.
        profile: Profile,
    },
    /// A rule field of RULES.md section 7 holds a value it cannot have.
    BadField {
        /// The field, as a rules file names it (`doubling.factors`, `no_shuffle.chunks`).
        field: &'static str,
        /// What is wrong with its value.
        why: String,
    },
}

impl fmt::Display for RulesError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RulesError::Profile(e) => e.fmt(f),
            #[cfg(feature = "rules-file")]
            RulesError::ReadFile { path, error } => {
                write!(f, "cannot read rules file {}: {error}", path.display())
            }
            #[cfg(feature = "rules-file")]
            RulesError::File { path, error } => {
                write!(f, "rules file {}: {error}", path.display())
            }
            RulesError::LandlordSeat(seat) => {
                write!(f, "landlord_seat {seat} is not a seat (0, 1 or 2)")
            }
            RulesError::WildRank { text, error } => write!(f, "wild rank \"{text}\": {error}"),
            RulesError::NotOneRank(text) => write!(f, "wild rank \"{text}\" is not one rank"),
            RulesError::Laizi(e) => e.fmt(f),
            RulesError::FileLaizi(e) => write!(f, "\"laizi\" in the rules file: {e}"),
            RulesError::BadField { field, why } => write!(f, "{field}: {why}"),
            RulesError::NotPlayedYet { profile } => write!(
                f,
                "{profile} rules: two- and four-player Dou Dizhu (docs/variants.md) are played \
                 by `ddz play`, the arena and the commands on hands and positions (arena, \
                 moves, classify, compare, perft, bench movegen and games), not yet by this one"
            ),
        }
    }
}

impl std::error::Error for RulesError {}

impl From<UnknownProfile> for RulesError {
    fn from(e: UnknownProfile) -> Self {
        RulesError::Profile(e)
    }
}

/// Parses a list of wild ranks, separated by commas: `9`, `7,9`, `10` (spaces around a rank
/// and empty items are ignored, so an empty text is no rank).
///
/// ```
/// use ddz_core::{parse_wild_ranks, Rank};
/// assert_eq!(parse_wild_ranks("7, 10").unwrap(), [Rank::Seven, Rank::Ten]);
/// assert!(parse_wild_ranks("").unwrap().is_empty());
/// assert!(parse_wild_ranks("Z").is_err());
/// ```
pub fn parse_wild_ranks(text: &str) -> Result<Vec<Rank>, RulesError> {
    text.split(',')
        .map(str::trim)
        .filter(|t| !t.is_empty())
        .map(|t| {
            let cards: Cards = t.parse().map_err(|error| RulesError::WildRank {
                text: t.to_string(),
                error,
            })?;
            match (cards.len(), cards.lowest()) {
                (1, Some(r)) => Ok(r),
                _ => Err(RulesError::NotOneRank(t.to_string())),
            }
        })
        .collect()
}

/// The most tries of a no-shuffle deal for its bombs ([`crate::NoShuffle::max_attempts`]).
pub const MAX_DEAL_ATTEMPTS: u32 = 1000;
/// The most cuts of a no-shuffle pile ([`crate::NoShuffle::cuts`]).
pub const MAX_CUTS: u32 = 1000;
/// The most random swaps of a no-shuffle pile ([`crate::NoShuffle::swaps`]).
pub const MAX_SWAPS: u32 = 10_000;

impl Rules {
    /// Checks the table fields (docs/variants.md): 2 or 3 seats with one deck or 4 with two,
    /// no joker taken out, the handicap only at two seats, and at two or four seats no wild
    /// cards, no section 7 rule, and a fixed landlord's seat at the table.
    ///
    /// ```
    /// use ddz_core::Rules;
    /// let mut rules = Rules::four();
    /// assert!(rules.check_table().is_ok());
    /// rules.decks = 1;
    /// assert!(rules.check_table().unwrap_err().to_string().starts_with("decks: "));
    /// ```
    pub fn check_table(&self) -> Result<(), RulesError> {
        let bad = |field: &'static str, why: &str| {
            Err(RulesError::BadField {
                field,
                why: why.to_string(),
            })
        };
        match (self.seats, self.decks) {
            (2 | 3, 1) | (4, 2) => {}
            (2..=4, _) => {
                return bad(
                    "decks",
                    "2 and 3 seats play one deck, 4 seats two decks (docs/variants.md)",
                );
            }
            _ => return bad("seats", "a table has 2, 3 or 4 seats"),
        }
        if self.removed_ranks.iter().any(Rank::is_joker) {
            return bad("removed_ranks", "the jokers cannot be taken out");
        }
        if self.handicap && self.seats != 2 {
            return bad("handicap", "the handicap (让牌) is a two-seat rule");
        }
        if self.seats != 3 {
            if self.wild != crate::rules::Wild::None {
                return bad("wild", "wild cards are played at three seats only");
            }
            if self.doubling.enabled || self.show.enabled || !self.deal.is_shuffle() {
                return bad(
                    "seats",
                    "doubling, showing cards and no-shuffle deals are three-seat rules",
                );
            }
            if self.landlord_seat >= self.seats {
                return bad("landlord_seat", "the landlord's seat is not at the table");
            }
        }
        Ok(())
    }

    /// Checks the fields of RULES.md section 7 that their types do not: doubling factors
    /// are at least 2 and different, no-shuffle chunks are at least 1 card and add up to 17,
    /// `max_attempts` is 1 to [`MAX_DEAL_ATTEMPTS`], `min_bombs` at most 14 (13 bombs and the
    /// rocket: more can never be dealt), `cuts` and `swaps` at most [`MAX_CUTS`] and
    /// [`MAX_SWAPS`] (a deal's work is bounded whatever a file or a record says), and a cap
    /// on the multiplier is at least 1.
    ///
    /// ```
    /// use ddz_core::{Chunks, Rules};
    /// let mut rules = Rules::huanle();
    /// assert!(rules.check_fields().is_ok());
    /// rules.no_shuffle.chunks = Chunks::new(&[6, 6]).unwrap();
    /// assert_eq!(
    ///     rules.check_fields().unwrap_err().to_string(),
    ///     "no_shuffle.chunks: the chunks add up to 12 cards, not 17"
    /// );
    /// ```
    pub fn check_fields(&self) -> Result<(), RulesError> {
        let bad = |field: &'static str, why: String| Err(RulesError::BadField { field, why });
        let factors = self.doubling.factors.as_slice();
        if let Some(f) = factors.iter().find(|&&f| f < 2) {
            return bad(
                "doubling.factors",
                format!("factor {f} is not a doubling (each factor is at least 2)"),
            );
        }
        if let Some((i, f)) = factors
            .iter()
            .enumerate()
            .find(|&(i, f)| factors[..i].contains(f))
        {
            return bad(
                "doubling.factors",
                format!("factor {f} is given twice (item {})", i + 1),
            );
        }
        let chunks = self.no_shuffle.chunks.as_slice();
        if let Some(i) = chunks.iter().position(|&c| c == 0) {
            return bad(
                "no_shuffle.chunks",
                format!("chunk {} is empty (each chunk is at least 1 card)", i + 1),
            );
        }
        let total: u32 = chunks.iter().map(|&c| u32::from(c)).sum();
        if total != 17 {
            return bad(
                "no_shuffle.chunks",
                format!("the chunks add up to {total} cards, not 17"),
            );
        }
        if self.no_shuffle.max_attempts == 0 {
            return bad("no_shuffle.max_attempts", "must be at least 1".to_string());
        }
        for (field, value, most) in [
            (
                "no_shuffle.max_attempts",
                self.no_shuffle.max_attempts,
                MAX_DEAL_ATTEMPTS,
            ),
            ("no_shuffle.min_bombs", self.no_shuffle.min_bombs, 14),
            ("no_shuffle.cuts", self.no_shuffle.cuts, MAX_CUTS),
            ("no_shuffle.swaps", self.no_shuffle.swaps, MAX_SWAPS),
        ] {
            if value > most {
                return bad(field, format!("{value} is more than {most}"));
            }
        }
        for (field, cap) in [
            ("multiplier_cap", self.multiplier_cap),
            ("no_shuffle.multiplier_cap", self.no_shuffle.multiplier_cap),
        ] {
            if cap == Some(0) {
                return bad(field, "a cap must be at least 1".to_string());
            }
        }
        Ok(())
    }

    /// The rules of a profile given by name (`classic`, `laizi`, `tiandi`, `douzero`, `rlcard`,
    /// `botzone` or `huanle`, any case).
    ///
    /// ```
    /// use ddz_core::{Profile, Rules};
    /// assert_eq!(Rules::from_profile_name("DouZero").unwrap().profile, Profile::Douzero);
    /// assert!(Rules::from_profile_name("poker").is_err());
    /// ```
    pub fn from_profile_name(name: &str) -> Result<Rules, UnknownProfile> {
        name.parse().map(Rules::profile)
    }

    /// These rules with the wild ranks of `text` ([`parse_wild_ranks`]), checked by
    /// [`Rules::with_laizi`] ([`RulesError::Laizi`]).
    pub fn with_laizi_text(&self, text: &str) -> Result<Rules, RulesError> {
        self.with_laizi(&parse_wild_ranks(text)?)
            .map_err(RulesError::Laizi)
    }
}

/// The format of a rules file.
#[cfg(feature = "rules-file")]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RulesFormat {
    /// A JSON object.
    Json,
    /// A TOML table.
    Toml,
}

#[cfg(feature = "rules-file")]
impl RulesFormat {
    /// The format of a file by its name: TOML when it ends in `.toml`, else JSON.
    pub fn of_path(path: &Path) -> RulesFormat {
        if path.extension().is_some_and(|e| e == "toml") {
            RulesFormat::Toml
        } else {
            RulesFormat::Json
        }
    }
}

/// What is wrong with the text of a rules file ([`Rules::from_file_text`]).
#[cfg(feature = "rules-file")]
#[derive(Debug)]
#[non_exhaustive]
pub enum RulesFileError {
    /// The text is not TOML.
    Toml(toml::de::Error),
    /// The text is not JSON.
    Json(serde_json::Error),
    /// The JSON is not an object.
    NotAnObject,
    /// `profile` is not a profile name.
    Profile(UnknownProfile),
    /// `profile` is not a string; the value as JSON.
    ProfileNotString(String),
    /// A field that is not a rule field.
    UnknownField {
        /// The field given.
        field: String,
        /// Every rule field, in [`Rules`]' order.
        fields: Vec<String>,
    },
    /// A field's value does not fit it.
    WrongType(serde_json::Error),
}

#[cfg(feature = "rules-file")]
impl fmt::Display for RulesFileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RulesFileError::Toml(e) => write!(f, "not valid TOML: {e}"),
            RulesFileError::Json(e) => write!(f, "not valid JSON: {e}"),
            RulesFileError::NotAnObject => f.write_str("expected an object of rule fields"),
            RulesFileError::Profile(e) => e.fmt(f),
            RulesFileError::ProfileNotString(v) => {
                write!(f, "\"profile\" must be a string, not {v}")
            }
            RulesFileError::UnknownField { field, fields } => write!(
                f,
                "unknown rule field \"{field}\" (fields: {})",
                fields.join(", ")
            ),
            RulesFileError::WrongType(e) => write!(f, "a rule field has the wrong type: {e}"),
        }
    }
}

#[cfg(feature = "rules-file")]
impl std::error::Error for RulesFileError {}

#[cfg(feature = "rules-file")]
impl Rules {
    /// Rules from a rules file's text: an object of a `profile` (else `default`) and any rule
    /// fields to override, e.g. `{"profile": "classic", "four_with_two": false}` or, in TOML,
    /// `bomb_in_kickers = true`. The fields are [`Rules`]' own, with their serde names. Nothing
    /// is checked beyond the types ([`Rules::build`] checks the landlord seat and wild ranks).
    ///
    /// ```
    /// use ddz_core::{Profile, Rules, RulesFormat};
    /// let text = r#"{"profile": "botzone", "four_with_two": false}"#;
    /// let rules = Rules::from_file_text(text, RulesFormat::Json, Profile::Classic).unwrap();
    /// assert_eq!(rules.profile, Profile::Botzone);
    /// assert!(!rules.four_with_two);
    /// ```
    pub fn from_file_text(
        text: &str,
        format: RulesFormat,
        default: Profile,
    ) -> Result<Rules, RulesFileError> {
        use serde_json::Value;
        let overrides: Value = match format {
            RulesFormat::Toml => toml::from_str(text).map_err(RulesFileError::Toml)?,
            RulesFormat::Json => serde_json::from_str(text).map_err(RulesFileError::Json)?,
        };
        let Value::Object(overrides) = overrides else {
            return Err(RulesFileError::NotAnObject);
        };
        let profile = match overrides.get("profile") {
            Some(Value::String(p)) => p.parse::<Profile>().map_err(RulesFileError::Profile)?,
            Some(other) => return Err(RulesFileError::ProfileNotString(other.to_string())),
            None => default,
        };
        let base = Rules::profile(profile);
        let merged = match serde_json::to_value(&base) {
            Ok(Value::Object(fields)) => fields,
            // A struct of plain fields always serialises to an object.
            _ => unreachable!("rules serialise to a JSON object"),
        };
        // A section 7 group is left out while off under a profile whose own is off (see
        // `impl Serialize for Rules`): put it back, so that a file may set any of its fields.
        // The table fields (`seats`, ...) and a section 7 group are left out while they hold
        // the classic or the off value (see `impl Serialize for Rules`): put them back, so that
        // a file may set any of their fields. The table comes right after the profile.
        let table = [
            ("seats", serde_json::to_value(base.seats)),
            ("decks", serde_json::to_value(base.decks)),
            ("removed_ranks", serde_json::to_value(base.removed_ranks)),
            ("handicap", serde_json::to_value(base.handicap)),
            (
                "trio_single_kickers",
                serde_json::to_value(base.trio_single_kickers),
            ),
        ];
        let mut fields = serde_json::Map::new();
        let mut rest = merged.into_iter();
        fields.extend(rest.next());
        for (key, value) in table {
            if let Ok(value) = value {
                fields.insert(key.to_string(), value);
            }
        }
        for (key, value) in rest {
            fields.insert(key, value);
        }
        let mut merged = fields;
        let groups = [
            ("doubling", serde_json::to_value(base.doubling)),
            ("show", serde_json::to_value(base.show)),
            ("deal", serde_json::to_value(base.deal)),
            ("no_shuffle", serde_json::to_value(base.no_shuffle)),
        ];
        for (key, value) in groups {
            if let Ok(value) = value {
                merged.entry(key).or_insert(value);
            }
        }
        for (key, value) in overrides {
            let Some(slot) = merged.get_mut(&key) else {
                return Err(RulesFileError::UnknownField {
                    field: key,
                    fields: merged.keys().cloned().collect(),
                });
            };
            // A group of fields (`doubling`, `no_shuffle`, ...) takes the fields given and
            // keeps the profile's others.
            match (slot, value) {
                (Value::Object(fields), Value::Object(given)) => {
                    for (name, v) in given {
                        if !fields.contains_key(&name) {
                            return Err(RulesFileError::UnknownField {
                                field: format!("{key}.{name}"),
                                fields: fields.keys().map(|n| format!("{key}.{n}")).collect(),
                            });
                        }
                        fields.insert(name, v);
                    }
                }
                (slot, value) => *slot = value,
            }
        }
        serde_json::from_value(Value::Object(merged)).map_err(RulesFileError::WrongType)
    }

    /// Rules from a rules file ([`Rules::from_file_text`], TOML when the name ends in `.toml`).
    pub fn from_file(path: &Path, default: Profile) -> Result<Rules, RulesError> {
        let text = std::fs::read_to_string(path).map_err(|error| RulesError::ReadFile {
            path: path.to_path_buf(),
            error,
        })?;
        Rules::from_file_text(&text, RulesFormat::of_path(path), default).map_err(|error| {
            RulesError::File {
                path: path.to_path_buf(),
                error,
            }
        })
    }

    /// The rules of a profile name, a rules file and wild ranks, as the `ddz` command's
    /// `--rules`, `--rules-file` and `--laizi` give them: the profile (the file's default
    /// profile when it names none), the file's fields over it, then the wild ranks of `laizi`
    /// ([`parse_wild_ranks`]) in place of the file's. The landlord seat must be 0, 1 or 2, and
    /// the wild ranks, from `laizi` or from the file, must fit the rules.
    ///
    /// ```
    /// use ddz_core::{Profile, Rank, Rules};
    /// let rules = Rules::build("laizi", None, Some("9")).unwrap();
    /// assert_eq!(rules.profile, Profile::Laizi);
    /// assert!(rules.laizi.contains(Rank::Nine));
    /// assert!(Rules::build("classic", None, Some("9")).is_err());
    /// ```
    pub fn build(
        profile: &str,
        file: Option<&Path>,
        laizi: Option<&str>,
    ) -> Result<Rules, RulesError> {
        let rules = Rules::build_any_table(profile, file, laizi)?;
        if rules.seats != 3 || rules.decks != 1 || !rules.removed_ranks.is_empty() || rules.handicap
        {
            return Err(RulesError::NotPlayedYet {
                profile: rules.profile,
            });
        }
        Ok(rules)
    }

    /// [`Rules::build`] for the commands that work on hands and positions only (moves,
    /// classification, perft, benchmarks) and those that play a table game of any size
    /// (`ddz play`, the arena): the same checks, but any table of docs/variants.md is
    /// accepted (`two`, `four`).
    ///
    /// ```
    /// use ddz_core::Rules;
    /// assert!(Rules::build("four", None, None).is_err());
    /// assert_eq!(Rules::build_any_table("four", None, None).unwrap().seats, 4);
    /// ```
    pub fn build_any_table(
        profile: &str,
        file: Option<&Path>,
        laizi: Option<&str>,
    ) -> Result<Rules, RulesError> {
        let profile: Profile = profile.parse()?;
        let rules = match file {
            None => Rules::profile(profile),
            Some(path) => Rules::from_file(path, profile)?,
        };
        rules.checked(laizi)
    }

    /// [`Rules::build`]'s checks, for rules from a profile or a file: the landlord seat, and the
    /// wild ranks of `laizi` (else those the rules already have).
    fn checked(self, laizi: Option<&str>) -> Result<Rules, RulesError> {
        self.check_table()?;
        if self.landlord_seat > 2 {
            return Err(RulesError::LandlordSeat(self.landlord_seat));
        }
        self.check_fields()?;
        match laizi {
            // Wild ranks from a rules file are checked like those of `laizi`.
            None => {
                let ranks: Vec<Rank> = self.laizi.iter().collect();
                self.with_laizi(&ranks).map_err(RulesError::FileLaizi)
            }
            Some(text) => self.with_laizi_text(text),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Profile;

    #[test]
    fn two_and_four_seats_are_refused_until_the_engine_plays_them() {
        for name in ["two", "four"] {
            let e = Rules::build(name, None, None).unwrap_err();
            assert!(matches!(e, RulesError::NotPlayedYet { .. }), "{e:?}");
            assert!(e.to_string().starts_with(&format!("{name} rules: ")), "{e}");
        }
    }

    #[test]
    fn the_table_fields_round_trip_and_stay_out_of_classic_records() {
        let classic = serde_json::to_string(&Rules::classic()).unwrap();
        assert!(!classic.contains("seats"), "{classic}");
        for rules in [Rules::two(), Rules::four()] {
            let text = serde_json::to_string(&rules).unwrap();
            let back: Rules = serde_json::from_str(&text).unwrap();
            assert_eq!(back, rules, "{text}");
            let file = Rules::from_file_text(&text, RulesFormat::Json, Profile::Classic);
            assert_eq!(file.unwrap(), rules, "{text}");
        }
        let file = r#"{"profile": "classic", "trio_single_kickers": false}"#;
        let rules = Rules::from_file_text(file, RulesFormat::Json, Profile::Classic).unwrap();
        assert!(!rules.trio_single_kickers);
        assert_eq!(Rules::two().deck().len(), 46);
        assert_eq!(Rules::two().out_of_play_cards(), 9);
        assert_eq!(Rules::four().deck().len(), 108);
        assert_eq!(Rules::four().out_of_play_cards(), 0);
        assert_eq!(Rules::classic().out_of_play_cards(), 0);
    }

    #[test]
    fn profile_names() {
        assert_eq!(
            Rules::from_profile_name("botzone").unwrap(),
            Rules::botzone()
        );
        let e = Rules::from_profile_name("poker").unwrap_err();
        assert_eq!(e, UnknownProfile("poker".into()));
        assert!(
            e.to_string()
                .starts_with("\"poker\" is not a rule profile (profiles: classic")
        );
    }

    #[test]
    fn wild_rank_errors() {
        assert_eq!(parse_wild_ranks("7,9").unwrap(), [Rank::Seven, Rank::Nine]);
        let e = parse_wild_ranks("7,Z").unwrap_err();
        assert!(matches!(&e, RulesError::WildRank { text, .. } if text == "Z"));
        assert!(e.to_string().starts_with("wild rank \"Z\": "), "{e}");
        let e = parse_wild_ranks("79").unwrap_err();
        assert!(matches!(&e, RulesError::NotOneRank(t) if t == "79"));
        assert_eq!(e.to_string(), "wild rank \"79\" is not one rank");
        let e = Rules::classic().with_laizi_text("9").unwrap_err();
        assert!(matches!(
            e,
            RulesError::Laizi(LaiziError::TooMany {
                profile: Profile::Classic,
                most: 0,
                given: 1
            })
        ));
        assert_eq!(
            e.to_string(),
            "classic rules have 0 wild ranks (1 given; use --rules laizi or tiandi)"
        );
    }

    #[cfg(feature = "rules-file")]
    mod file {
        use super::*;
        use crate::rules::Bidding;

        fn json(text: &str) -> Result<Rules, RulesFileError> {
            Rules::from_file_text(text, RulesFormat::Json, Profile::Classic)
        }

        fn toml(text: &str) -> Result<Rules, RulesFileError> {
            Rules::from_file_text(text, RulesFormat::Toml, Profile::Classic)
        }

        /// `off` when `value` is something else, else `on`.
        fn toggle<T: PartialEq>(value: T, off: T, on: T) -> T {
            if value == off { on } else { off }
        }

        /// Found by the `rules_file` fuzz target: huanle with doubling turned off was written
        /// without its `doubling`, and a rules file reads a missing group as the profile's, so
        /// it came back with doubling on. Every profile with each section 7 group on and off
        /// must read back the same through a rules file and through `Deserialize`.
        #[test]
        fn every_profile_with_each_app_group_on_or_off_reads_back() {
            use crate::{DealMethod, DoublingRules, NoShuffle, ShowRules};
            let r = json(r#"{"profile": "huanle", "doubling": {"enabled": false}}"#).unwrap();
            assert!(r.doubling.is_off());
            let written = serde_json::to_string(&r).unwrap();
            assert!(written.contains("\"doubling\""), "{written}");
            for profile in Profile::ALL {
                for mask in 0..16u8 {
                    let mut r = Rules::profile(profile);
                    // Bit k flips group k between its off value and one that is on.
                    let flip = |bit: u8| mask & bit != 0;
                    if flip(1) {
                        r.doubling = toggle(r.doubling, DoublingRules::OFF, DoublingRules::APPS);
                    }
                    if flip(2) {
                        r.show = toggle(r.show, ShowRules::OFF, ShowRules::APPS);
                    }
                    if flip(4) {
                        r.deal = toggle(r.deal, DealMethod::Shuffle, DealMethod::NoShuffle);
                    }
                    if flip(8) {
                        let capped = NoShuffle {
                            multiplier_cap: Some(32),
                            ..NoShuffle::default()
                        };
                        r.no_shuffle = toggle(r.no_shuffle, NoShuffle::default(), capped);
                    }
                    let written = serde_json::to_string(&r).unwrap();
                    assert_eq!(json(&written).unwrap(), r, "{profile:?} {mask}: {written}");
                    let direct: Rules = serde_json::from_str(&written).unwrap();
                    assert_eq!(direct, r, "{profile:?} {mask}: {written}");
                }
            }
            // The other profiles' rules are written as before: no section 7 group when off.
            let classic = serde_json::to_string(&Rules::classic()).unwrap();
            assert!(!classic.contains("doubling") && !classic.contains("no_shuffle"));
        }

        #[test]
        fn fields_override_the_profile() {
            let r = json(r#"{"profile": "botzone", "four_with_two": false}"#).unwrap();
            assert_eq!(r.profile, Profile::Botzone);
            assert!(!r.four_with_two);
            assert!(!r.single_kickers_may_repeat);
            let r = toml("bomb_in_kickers = true\nbidding = \"fixed\"\n").unwrap();
            assert_eq!(r.profile, Profile::Classic);
            assert!(r.bomb_in_kickers);
            assert_eq!(r.bidding, Bidding::Fixed);
            let r = Rules::from_file_text("{}", RulesFormat::Json, Profile::Tiandi).unwrap();
            assert_eq!(r, Rules::tiandi());
        }

        #[test]
        fn section_7_groups_take_the_fields_given() {
            use crate::app_rules::{DealMethod, DoublingOrder, PileSource, ShowCombine};
            // A group keeps the profile's other fields.
            let r = Rules::from_file_text(
                r#"{"doubling": {"order": "landlord_first"}, "deal": "no_shuffle"}"#,
                RulesFormat::Json,
                Profile::Huanle,
            )
            .unwrap();
            assert!(r.doubling.enabled);
            assert_eq!(r.doubling.order, DoublingOrder::LandlordFirst);
            assert_eq!(r.doubling.factors.as_slice(), [2, 4]);
            assert_eq!(r.deal, DealMethod::NoShuffle);
            assert_eq!(r.pair_cap(), Some(64));
            // Classic leaves the groups out, but a file may still set them.
            let r = toml(
                "[show]\nenabled = true\ncombine = \"product\"\n[no_shuffle]\nsource = \"previous\"\nchunks = [5, 5, 5, 2]\n",
            )
            .unwrap();
            assert_eq!(r.show.combine, ShowCombine::Product);
            assert!(r.show.enabled && !r.doubling.enabled);
            assert_eq!(r.no_shuffle.source, PileSource::Previous);
            assert_eq!(r.no_shuffle.chunks.as_slice(), [5, 5, 5, 2]);
            assert_eq!(r.no_shuffle.swaps, 8);
            let e = json(r#"{"doubling": {"colour": 1}}"#).unwrap_err();
            assert!(
                e.to_string().starts_with(
                    "unknown rule field \"doubling.colour\" (fields: doubling.enabled,"
                ),
                "{e}"
            );
            let e = json(r#"{"doubling": {"factors": [2, 2, 2, 2, 2]}}"#).unwrap_err();
            assert!(e.to_string().contains("at most 4 numbers"), "{e}");
        }

        #[test]
        fn section_7_values_are_checked() {
            let cases = [
                (
                    r#"{"doubling": {"factors": [1]}}"#,
                    "doubling.factors: factor 1 is not a doubling (each factor is at least 2)",
                ),
                (
                    r#"{"doubling": {"factors": [2, 2]}}"#,
                    "doubling.factors: factor 2 is given twice (item 2)",
                ),
                (
                    r#"{"no_shuffle": {"chunks": [6, 0, 6, 5]}}"#,
                    "no_shuffle.chunks: chunk 2 is empty (each chunk is at least 1 card)",
                ),
                (
                    r#"{"no_shuffle": {"max_attempts": 0}}"#,
                    "no_shuffle.max_attempts: must be at least 1",
                ),
                (
                    r#"{"no_shuffle": {"multiplier_cap": 0}}"#,
                    "no_shuffle.multiplier_cap: a cap must be at least 1",
                ),
                (
                    r#"{"no_shuffle": {"min_bombs": 1000, "max_attempts": 4294967295}}"#,
                    "no_shuffle.max_attempts: 4294967295 is more than 1000",
                ),
                (
                    r#"{"no_shuffle": {"min_bombs": 15}}"#,
                    "no_shuffle.min_bombs: 15 is more than 14",
                ),
                (
                    r#"{"no_shuffle": {"cuts": 4294967295}}"#,
                    "no_shuffle.cuts: 4294967295 is more than 1000",
                ),
                (
                    r#"{"no_shuffle": {"swaps": 10001}}"#,
                    "no_shuffle.swaps: 10001 is more than 10000",
                ),
            ];
            for (i, (text, want)) in cases.into_iter().enumerate() {
                let f = TempFile::new(&format!("s7-{i}.json"), text);
                let e = Rules::build("huanle", Some(&f.0), None).unwrap_err();
                assert!(matches!(e, RulesError::BadField { .. }), "{e:?}");
                assert_eq!(e.to_string(), want);
            }
        }

        #[test]
        fn bad_text() {
            let e = json("{").unwrap_err();
            assert!(matches!(e, RulesFileError::Json(_)));
            assert!(e.to_string().starts_with("not valid JSON: "), "{e}");
            let e = toml("a = ").unwrap_err();
            assert!(matches!(e, RulesFileError::Toml(_)));
            assert!(e.to_string().starts_with("not valid TOML: "), "{e}");
            let e = json("[1]").unwrap_err();
            assert!(matches!(e, RulesFileError::NotAnObject));
            assert_eq!(e.to_string(), "expected an object of rule fields");
        }

        #[test]
        fn bad_profile() {
            let e = json(r#"{"profile": "poker"}"#).unwrap_err();
            assert!(matches!(&e, RulesFileError::Profile(p) if p.0 == "poker"));
            assert!(e.to_string().starts_with("\"poker\" is not a rule profile"));
            let e = json(r#"{"profile": 3}"#).unwrap_err();
            assert!(matches!(&e, RulesFileError::ProfileNotString(v) if v == "3"));
            assert_eq!(e.to_string(), "\"profile\" must be a string, not 3");
        }

        #[test]
        fn unknown_field_lists_the_fields() {
            let e = json(r#"{"fourwithtwo": false}"#).unwrap_err();
            let RulesFileError::UnknownField { field, fields } = &e else {
                panic!("{e:?}");
            };
            assert_eq!(field, "fourwithtwo");
            assert_eq!(fields.first().map(String::as_str), Some("profile"));
            assert!(fields.iter().any(|f| f == "four_with_two"));
            assert_eq!(fields.last().map(String::as_str), Some("no_shuffle"));
            assert!(
                e.to_string().starts_with(
                    "unknown rule field \"fourwithtwo\" (fields: profile, seats, decks, \
                     removed_ranks, handicap, trio_single_kickers, four_with_two, "
                ),
                "{e}"
            );
            assert!(
                e.to_string()
                    .ends_with(", long_bombs, doubling, show, deal, no_shuffle)"),
                "{e}"
            );
        }

        #[test]
        fn wrong_type() {
            let e = json(r#"{"four_with_two": 3}"#).unwrap_err();
            assert!(matches!(e, RulesFileError::WrongType(_)));
            assert!(
                e.to_string()
                    .starts_with("a rule field has the wrong type: "),
                "{e}"
            );
            assert!(matches!(
                toml("multiplier_cap = \"high\"\n"),
                Err(RulesFileError::WrongType(_))
            ));
        }

        /// A rules file in the system's temporary folder, removed when dropped.
        struct TempFile(PathBuf);

        impl TempFile {
            fn new(name: &str, text: &str) -> TempFile {
                let path = std::env::temp_dir()
                    .join(format!("ddz-core-rules-{}-{name}", std::process::id()));
                std::fs::write(&path, text).unwrap();
                TempFile(path)
            }
        }

        impl Drop for TempFile {
            fn drop(&mut self) {
                let _ = std::fs::remove_file(&self.0);
            }
        }

        #[test]
        fn build_from_a_file() {
            let f = TempFile::new("ok.toml", "profile = \"laizi\"\nlaizi = [\"9\"]\n");
            let r = Rules::build("classic", Some(&f.0), None).unwrap();
            assert_eq!(r.profile, Profile::Laizi);
            assert!(r.laizi.contains(Rank::Nine));
            // --laizi replaces the file's wild ranks.
            let r = Rules::build("classic", Some(&f.0), Some("7")).unwrap();
            assert!(r.laizi.contains(Rank::Seven) && !r.laizi.contains(Rank::Nine));
            let f = TempFile::new("ok.json", r#"{"spring": false}"#);
            let r = Rules::build("douzero", Some(&f.0), None).unwrap();
            assert_eq!(r.profile, Profile::Douzero);
            assert!(!r.spring);
        }

        #[test]
        fn build_errors() {
            let e = Rules::build("poker", None, None).unwrap_err();
            assert!(matches!(e, RulesError::Profile(_)));
            let missing = std::env::temp_dir().join("ddz-core-rules-no-such-file.json");
            let e = Rules::build("classic", Some(&missing), None).unwrap_err();
            assert!(matches!(e, RulesError::ReadFile { .. }));
            assert!(
                e.to_string()
                    .starts_with(&format!("cannot read rules file {}: ", missing.display())),
                "{e}"
            );
            let f = TempFile::new("bad.json", r#"{"fourwithtwo": false}"#);
            let e = Rules::build("classic", Some(&f.0), None).unwrap_err();
            assert!(matches!(
                &e,
                RulesError::File {
                    error: RulesFileError::UnknownField { .. },
                    ..
                }
            ));
            assert!(
                e.to_string().starts_with(&format!(
                    "rules file {}: unknown rule field \"fourwithtwo\"",
                    f.0.display()
                )),
                "{e}"
            );
            let f = TempFile::new("seat.json", r#"{"landlord_seat": 3}"#);
            let e = Rules::build("classic", Some(&f.0), None).unwrap_err();
            assert!(matches!(e, RulesError::LandlordSeat(3)));
            assert_eq!(e.to_string(), "landlord_seat 3 is not a seat (0, 1 or 2)");
            // Wild ranks in the file are checked like those of --laizi.
            let f = TempFile::new("wild.json", r#"{"laizi": ["9"]}"#);
            let e = Rules::build("classic", Some(&f.0), None).unwrap_err();
            assert!(matches!(
                e,
                RulesError::FileLaizi(LaiziError::TooMany { .. })
            ));
            assert_eq!(
                e.to_string(),
                "\"laizi\" in the rules file: classic rules have 0 wild ranks (1 given; use \
                 --rules laizi or tiandi)"
            );
            let f = TempFile::new("joker.json", r#"{"profile": "laizi", "laizi": ["B"]}"#);
            let e = Rules::build("classic", Some(&f.0), None).unwrap_err();
            assert!(matches!(
                e,
                RulesError::FileLaizi(LaiziError::Joker(Rank::SmallJoker))
            ));
            let e = Rules::build("classic", None, Some("9")).unwrap_err();
            assert!(matches!(e, RulesError::Laizi(LaiziError::TooMany { .. })));
            let e = Rules::build("laizi", None, Some("9,Z")).unwrap_err();
            assert!(matches!(e, RulesError::WildRank { .. }));
            let e = Rules::build("tiandi", None, Some("9,9")).unwrap_err();
            assert!(matches!(
                e,
                RulesError::Laizi(LaiziError::Repeated(Rank::Nine))
            ));
            assert_eq!(e.to_string(), "the wild ranks must be different");
        }
    }
}
