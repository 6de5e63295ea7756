//! An arena run's report: JSON for programs (with the tallies merging needs), a text table and
//! an SVG chart of the cross table for people, and the merge of shards.

use std::fmt::Write as _;

use ddz_core::Rules;
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use crate::tally::Estimate;
use crate::{ArenaError, DealWins, Format, PairResult, Shard, Tallies};

/// How the confidence intervals are computed, as the JSON report states it.
const CI_METHOD: &str = "95% normal interval over deals: each deal's games are one paired \
observation (ratio estimator of the per-game mean, linearised)";

/// The results of an arena run: what was played and every pairing's tallies.
#[derive(Clone, Debug, PartialEq)]
pub struct Report {
    /// The rules given to the arena (before the duplicate format's fixed landlord and scoring).
    pub rules: Rules,
    /// How each deal was played.
    pub format: Format,
    /// The run's seed.
    pub seed: u64,
    /// Deals in the whole run (every shard).
    pub deals: u64,
    /// The share of the deals played ([`Shard::WHOLE`] once merged).
    pub shard: Shard,
    /// Every pairing, each pair once.
    pub pairs: Vec<PairResult>,
}

/// One cell of the cross table: the row robot's WP and ADP against the column robot.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CrossCell {
    /// The row robot's winning percentage (a fraction).
    pub wp: f64,
    /// The row robot's average difference in points.
    pub adp: f64,
}

/// How many reasons [`Failures`] keeps.
const FAILURE_EXAMPLES: usize = 3;

/// The games of a pair forfeited by a failing external robot: how many by A, how many by B,
/// and the first few reasons.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Failures {
    /// Games A forfeited.
    pub a: u64,
    /// Games B forfeited.
    pub b: u64,
    /// The first few failures (at most 3): the deal, game, seat, robot and reason.
    pub examples: Vec<String>,
}

impl Failures {
    /// Counts one forfeit, by A when `by_a`, else by B, with its reason.
    pub fn add(&mut self, by_a: bool, reason: String) {
        if by_a {
            self.a += 1;
        } else {
            self.b += 1;
        }
        if self.examples.len() < FAILURE_EXAMPLES {
            self.examples.push(reason);
        }
    }

    /// Adds another count (shards, deals), keeping the first few reasons.
    pub fn merge(&mut self, other: &Failures) {
        self.a += other.a;
        self.b += other.b;
        for e in &other.examples {
            if self.examples.len() < FAILURE_EXAMPLES {
                self.examples.push(e.clone());
            }
        }
    }

    /// Games forfeited by either robot.
    pub fn total(&self) -> u64 {
        self.a + self.b
    }
}

/// The parts of a pair's JSON that merging reads back.
#[derive(Deserialize)]
struct PairFile {
    a: String,
    b: String,
    seconds: f64,
    tallies: TallyFile,
    /// Absent in reports written before external robots.
    #[serde(default)]
    failures: Failures,
    /// `[deal, A's wins, games]` a deal; absent in reports written before ratings.
    #[serde(default)]
    deal_wins: Vec<[u64; 3]>,
}

#[derive(Deserialize)]
struct TallyFile {
    all: Tallies,
    as_landlord: Tallies,
    as_farmers: Tallies,
}

/// The parts of a report's JSON that merging reads back.
#[derive(Deserialize)]
struct ReportFile {
    rules: Rules,
    format: Format,
    seed: u64,
    deals: u64,
    shard: Shard,
    pairs: Vec<PairFile>,
}

fn estimate_json(e: Estimate) -> (Value, Value) {
    (json!(e.mean), json!(e.ci))
}

fn side_json(t: &Tallies) -> Value {
    let (wp, wp_ci) = estimate_json(t.wins.estimate());
    let (adp, adp_ci) = estimate_json(t.points.estimate());
    json!({"games": t.wins.games, "wp": wp, "wp_ci": wp_ci, "adp": adp, "adp_ci": adp_ci})
}

impl PairResult {
    /// Games played (all of them, both directions).
    pub fn games(&self) -> u64 {
        self.all.wins.games
    }

    /// Games per second of wall-clock time.
    pub fn games_per_sec(&self) -> f64 {
        if self.seconds > 0.0 {
            self.games() as f64 / self.seconds
        } else {
            0.0
        }
    }

    /// The pair as JSON: A's WP and ADP with intervals, overall and by role, and the tallies.
    pub fn to_json(&self) -> Value {
        let (wp, wp_ci) = estimate_json(self.all.wins.estimate());
        let (adp, adp_ci) = estimate_json(self.all.points.estimate());
        json!({
            "a": self.a,
            "b": self.b,
            "deals": self.all.wins.deals,
            "games": self.games(),
            "wp": wp,
            "wp_ci": wp_ci,
            "adp": adp,
            "adp_ci": adp_ci,
            "as_landlord": side_json(&self.as_landlord),
            "as_farmers": side_json(&self.as_farmers),
            "seconds": self.seconds,
            "games_per_sec": self.games_per_sec(),
            "failures": self.failures,
            "tallies": {
                "all": self.all,
                "as_landlord": self.as_landlord,
                "as_farmers": self.as_farmers,
            },
            "deal_wins": self
                .per_deal
                .iter()
                .map(|d| [d.deal, u64::from(d.wins), u64::from(d.games)])
                .collect::<Vec<_>>(),
        })
    }
}

impl Report {
    /// The report as JSON (`ddz arena --json`, `--out`): the run's settings, the interval
    /// method and every pair ([`PairResult::to_json`]).
    pub fn to_json(&self) -> Value {
        json!({
            "format": self.format,
            "seed": self.seed,
            "deals": self.deals,
            "shard": self.shard,
            "ci_method": CI_METHOD,
            "rules": self.rules,
            "pairs": self.pairs.iter().map(PairResult::to_json).collect::<Vec<_>>(),
        })
    }

    /// Reads a report back from its JSON (the tallies; the figures are recomputed from them).
    pub fn from_json(text: &str) -> Result<Report, ArenaError> {
        let file: ReportFile =
            serde_json::from_str(text).map_err(|e| ArenaError::NotAReport(e.to_string()))?;
        Ok(Report {
            rules: file.rules,
            format: file.format,
            seed: file.seed,
            deals: file.deals,
            shard: file.shard,
            pairs: file
                .pairs
                .into_iter()
                .map(|p| PairResult {
                    a: p.a,
                    b: p.b,
                    all: p.tallies.all,
                    as_landlord: p.tallies.as_landlord,
                    as_farmers: p.tallies.as_farmers,
                    seconds: p.seconds,
                    failures: p.failures,
                    per_deal: p
                        .deal_wins
                        .iter()
                        .map(|&[deal, wins, games]| DealWins {
                            deal,
                            wins: u32::try_from(wins).unwrap_or(u32::MAX),
                            games: u32::try_from(games).unwrap_or(u32::MAX),
                        })
                        .collect(),
                })
                .collect(),
        })
    }

    /// Merges the reports of every shard of one run into the report of the whole run: same
    /// rules, format, seed, deals and pairs, and each shard exactly once.
    pub fn merge(reports: &[Report]) -> Result<Report, ArenaError> {
        let Some(first) = reports.first() else {
            return Err(ArenaError::NothingToMerge);
        };
        let count = first.shard.count;
        let mut seen = vec![false; count as usize];
        let mut merged = Report {
            shard: Shard::WHOLE,
            ..first.clone()
        };
        for p in &mut merged.pairs {
            *p = PairResult {
                all: Tallies::default(),
                as_landlord: Tallies::default(),
                as_farmers: Tallies::default(),
                seconds: 0.0,
                failures: Failures::default(),
                per_deal: Vec::new(),
                ..p.clone()
            };
        }
        for (n, r) in reports.iter().enumerate() {
            let (report, shard) = (n + 1, r.shard);
            if (&r.rules, r.format, r.seed, r.deals, r.shard.count)
                != (&first.rules, first.format, first.seed, first.deals, count)
            {
                return Err(ArenaError::OtherRun { report, shard });
            }
            let slot = seen
                .get_mut(r.shard.index as usize)
                .ok_or(ArenaError::ShardOutOfRange { report, shard })?;
            if std::mem::replace(slot, true) {
                return Err(ArenaError::ShardTwice { report, shard });
            }
            if r.pairs.len() != merged.pairs.len()
                || r.pairs
                    .iter()
                    .zip(&merged.pairs)
                    .any(|(x, y)| (&x.a, &x.b) != (&y.a, &y.b))
            {
                return Err(ArenaError::OtherRobots { report, shard });
            }
            for (into, p) in merged.pairs.iter_mut().zip(&r.pairs) {
                into.all.merge(&p.all);
                into.as_landlord.merge(&p.as_landlord);
                into.as_farmers.merge(&p.as_farmers);
                into.seconds += p.seconds;
                into.failures.merge(&p.failures);
                into.per_deal.extend_from_slice(&p.per_deal);
            }
        }
        for p in &mut merged.pairs {
            p.per_deal.sort_unstable_by_key(|d| d.deal);
        }
        if let Some(missing) = seen.iter().position(|&s| !s) {
            return Err(ArenaError::MissingShard(Shard {
                index: missing as u64,
                count,
            }));
        }
        Ok(merged)
    }

    /// The robots, in order of first appearance.
    pub fn robots(&self) -> Vec<String> {
        let mut out: Vec<String> = Vec::new();
        for p in &self.pairs {
            for name in [&p.a, &p.b] {
                if !out.contains(name) {
                    out.push(name.clone());
                }
            }
        }
        out
    }

    /// The cross table: `cells[r][c]` is robot `r` against robot `c` (both directions of each
    /// pair; `None` on the diagonal and for pairs not played).
    pub fn cross(&self) -> Vec<Vec<Option<CrossCell>>> {
        let robots = self.robots();
        let index = |name: &String| robots.iter().position(|r| r == name).unwrap_or(0);
        let mut cells = vec![vec![None; robots.len()]; robots.len()];
        for p in &self.pairs {
            let (a, b) = (index(&p.a), index(&p.b));
            if a == b {
                continue;
            }
            let wp = p.all.wins.estimate().mean;
            let adp = p.all.points.estimate().mean;
            cells[a][b] = Some(CrossCell { wp, adp });
            cells[b][a] = Some(CrossCell {
                wp: 1.0 - wp,
                adp: -adp,
            });
        }
        cells
    }

    /// A one-line description of how the deals were played.
    fn describe(&self) -> String {
        let how = match self.format {
            Format::Duplicate => {
                "2 games a deal (each robot once landlord in seat 0), no bidding, DouZero scoring"
            }
            Format::Bidding => {
                "6 games a deal (each robot alone in each seat), bidding, full scoring"
            }
        };
        let shard = if self.shard == Shard::WHOLE {
            String::new()
        } else {
            format!(", shard {}/{}", self.shard.index, self.shard.count)
        };
        format!(
            "{} rules, {} deals{shard}, seed {}: {how}",
            self.rules.profile, self.deals, self.seed
        )
    }

    /// The report as a text table (A's figures; intervals are 95%).
    pub fn text(&self) -> String {
        let mut out = String::new();
        let _ = writeln!(out, "arena: {}", self.describe());
        let fmt_est = |e: Estimate, digits: usize| {
            format!(
                "{:+.d$} [{:+.d$}, {:+.d$}]",
                e.mean,
                e.ci[0],
                e.ci[1],
                d = digits
            )
        };
        let fmt_wp = |e: Estimate| format!("{:.3} [{:.3}, {:.3}]", e.mean, e.ci[0], e.ci[1]);
        let _ = writeln!(
            out,
            "{:<16} {:<16} {:>7} {:<22} {:<26} {:<14} {:<14} {:>9}",
            "A", "B", "deals", "A's WP", "A's ADP", "landlord WP", "farmers WP", "games/s"
        );
        for p in &self.pairs {
            let _ = writeln!(
                out,
                "{:<16} {:<16} {:>7} {:<22} {:<26} {:<14.3} {:<14.3} {:>9.0}",
                p.a,
                p.b,
                p.all.wins.deals,
                fmt_wp(p.all.wins.estimate()),
                fmt_est(p.all.points.estimate(), 3),
                p.as_landlord.wins.estimate().mean,
                p.as_farmers.wins.estimate().mean,
                p.games_per_sec()
            );
        }
        let failed: Vec<&PairResult> = self
            .pairs
            .iter()
            .filter(|p| p.failures.total() > 0)
            .collect();
        if !failed.is_empty() {
            let counts: Vec<String> = failed
                .iter()
                .map(|p| {
                    format!(
                        "{} {} and {} {} of {} games",
                        p.a,
                        p.failures.a,
                        p.b,
                        p.failures.b,
                        p.games()
                    )
                })
                .collect();
            let _ = writeln!(
                out,
                "external robot failures (games forfeited): {}",
                counts.join("; ")
            );
            for p in &failed {
                for e in &p.failures.examples {
                    let _ = writeln!(out, "  {} vs {}: {e}", p.a, p.b);
                }
            }
        }
        let robots = self.robots();
        if robots.len() > 2 {
            let _ = writeln!(
                out,
                "\ncross table: WP of the row robot against the column robot"
            );
            let _ = write!(out, "{:<16}", "");
            for r in &robots {
                let _ = write!(out, " {r:>12.12}");
            }
            let _ = writeln!(out);
            for (r, row) in robots.iter().zip(self.cross()) {
                let _ = write!(out, "{r:<16.16}");
                for cell in row {
                    match cell {
                        Some(c) => {
                            let _ = write!(out, " {:>12.3}", c.wp);
                        }
                        None => {
                            let _ = write!(out, " {:>12}", "-");
                        }
                    }
                }
                let _ = writeln!(out);
            }
        }
        out
    }

    /// An SVG chart of the cross table: one square per pair and direction, coloured from red
    /// (the row robot loses) through white (even) to green (it wins), with WP and ADP written
    /// in it.
    pub fn svg(&self) -> String {
        let robots = self.robots();
        let cells = self.cross();
        let n = robots.len();
        let (cell, label) = (96.0, 150.0);
        let title = format!(
            "WP (and ADP) of the row robot against the column robot: {}",
            self.describe()
        );
        // Wide enough for the grid and for the title (about 7 px a character at 15 px).
        let width = (label + cell * n as f64 + 20.0).max(20.0 + 7.5 * title.len() as f64);
        let height = label + cell * n as f64 + 60.0;
        let mut s = String::new();
        let _ = writeln!(
            s,
            r#"<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" font-family="sans-serif" font-size="13">"#
        );
        let _ = writeln!(
            s,
            r#"<text x="10" y="22" font-size="15">{}</text>"#,
            escape(&title)
        );
        for (i, name) in robots.iter().enumerate() {
            let pos = label + cell * i as f64 + cell / 2.0;
            let _ = writeln!(
                s,
                r#"<text x="{}" y="{pos}" text-anchor="end" dominant-baseline="middle">{}</text>"#,
                label - 8.0,
                escape(name)
            );
            let _ = writeln!(
                s,
                r#"<text x="{pos}" y="{}" text-anchor="middle">{}</text>"#,
                label - 8.0,
                escape(name)
            );
        }
        for (r, row) in cells.iter().enumerate() {
            for (c, value) in row.iter().enumerate() {
                let (x, y) = (label + cell * c as f64, label + cell * r as f64);
                let (fill, text) = match value {
                    Some(v) => (colour(v.wp), format!("{:.3}", v.wp)),
                    None => ("#dddddd".to_string(), "-".to_string()),
                };
                let _ = writeln!(
                    s,
                    r##"<rect x="{x}" y="{y}" width="{cell}" height="{cell}" fill="{fill}" stroke="#555"/>"##
                );
                let _ = writeln!(
                    s,
                    r#"<text x="{}" y="{}" text-anchor="middle">{text}</text>"#,
                    x + cell / 2.0,
                    y + cell / 2.0
                );
                if let Some(v) = value {
                    let _ = writeln!(
                        s,
                        r#"<text x="{}" y="{}" text-anchor="middle" font-size="11">ADP {:+.2}</text>"#,
                        x + cell / 2.0,
                        y + cell / 2.0 + 18.0,
                        v.adp
                    );
                }
            }
        }
        s.push_str("</svg>\n");
        s
    }
}

/// Red (WP 0) through white (0.5) to green (1).
fn colour(wp: f64) -> String {
    let t = (wp.clamp(0.0, 1.0) - 0.5) * 2.0;
    let (r, g, b) = if t >= 0.0 {
        (255.0 * (1.0 - t), 255.0 - 80.0 * t, 255.0 * (1.0 - t))
    } else {
        (255.0 - 40.0 * -t, 255.0 * (1.0 + t), 255.0 * (1.0 + t))
    };
    format!("#{:02x}{:02x}{:02x}", r as u8, g as u8, b as u8)
}

/// Escapes text for SVG.
fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn failures_survive_json_and_add_up_in_merges() {
        let shard = |index: u64, a: u64, b: u64, why: &str| {
            let mut failures = Failures::default();
            for n in 0..a + b {
                failures.add(n < a, format!("{why} {n}"));
            }
            let pair = PairResult {
                a: "ext".into(),
                b: "greedy".into(),
                all: Tallies::default(),
                as_landlord: Tallies::default(),
                as_farmers: Tallies::default(),
                seconds: 1.0,
                failures,
                per_deal: Vec::new(),
            };
            let report = Report {
                rules: Rules::classic(),
                format: Format::Duplicate,
                seed: 1,
                deals: 10,
                shard: Shard { index, count: 2 },
                pairs: vec![pair],
            };
            Report::from_json(&report.to_json().to_string()).unwrap()
        };
        let one = shard(0, 2, 0, "timeout");
        assert_eq!(one.pairs[0].failures.a, 2);
        assert_eq!(one.pairs[0].failures.examples, ["timeout 0", "timeout 1"]);
        let merged = Report::merge(&[one, shard(1, 3, 1, "crash")]).unwrap();
        let f = &merged.pairs[0].failures;
        assert_eq!((f.a, f.b, f.total()), (5, 1, 6));
        assert_eq!(f.examples, ["timeout 0", "timeout 1", "crash 0"]);
        assert!(merged.text().contains("ext 5 and greedy 1 of 0 games"));
        // Reports written before external robots read as no failures.
        let old = merged
            .to_json()
            .to_string()
            .replace("\"failures\"", "\"other\"");
        let back = Report::from_json(&old).unwrap();
        assert_eq!(back.pairs[0].failures, Failures::default());
    }
}
