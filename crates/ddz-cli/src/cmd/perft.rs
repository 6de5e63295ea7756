//! `ddz perft`: move-tree leaf counts from a deal, for correctness and speed.

use std::io::{BufRead, Write};
use std::path::PathBuf;
use std::time::Instant;

use anyhow::{Context, Result, bail};
use ddz_core::Rules;
use ddz_game::{Deal, DealLine, PlayStateOf, TableDeal, derive_seed, table_start};
use ddz_game::{PlayState, deal_rules, perft_with_progress};
use serde_json::json;

use crate::common::{RulesArgs, print_json};

/// Leaf counts at depths 1..D from a deal with seat 0 as the landlord (it leads; every
/// distinct legal move, the pass when following, is one edge; a position with an empty hand
/// has no moves).
#[derive(clap::Args)]
#[command(group(clap::ArgGroup::new("from").required(true).args(["deal", "seed"])))]
pub struct Args {
    /// A deal file (JSON lines {"landlord", "landlord_down", "landlord_up", "kitty",
    /// "laizi"}): one result per deal; a bad line is reported ({"line": N, "error": "..."}
    /// with --json) and the run goes on, then exits with code 2. --laizi gives the wild ranks
    /// of lines without them.
    #[arg(long, value_name = "FILE")]
    deal: Option<PathBuf>,
    /// The seeded deal: the deal `ddz deal --seed N` prints (dealt from derive_seed(N, 0)),
    /// seat 0 as the landlord. --laizi replaces its wild ranks. With --rules two or four, the
    /// table deal of derive_seed(N, 0) (docs/variants.md; under two seat 1 is out at 1 card).
    #[arg(long, value_name = "N")]
    seed: Option<u64>,
    /// The deepest depth counted.
    #[arg(long, value_name = "D")]
    depth: usize,
    #[command(flatten)]
    rules: RulesArgs,
    /// Print {"perft": [n1, ..., nD], "seconds": ..., "nodes_per_sec": ...} per deal instead
    /// of text.
    #[arg(long)]
    json: bool,
}

/// Runs the command.
pub fn run(args: Args) -> Result<()> {
    let rules = args.rules.load_any_table()?;
    if args.depth == 0 {
        bail!("--depth must be at least 1");
    }
    let mut out = std::io::stdout().lock();
    if rules.seats != 3 {
        let Some(seed) = args.seed else {
            bail!(
                "--deal: deal files hold three-seat deals; give --seed N with --rules {}",
                rules.profile
            );
        };
        return match rules.seats {
            2 => table::<2>(&mut out, seed, &rules, &args),
            _ => table::<4>(&mut out, seed, &rules, &args),
        };
    }
    if let Some(seed) = args.seed {
        let mut deal = Deal::from_seed(derive_seed(seed, 0), &rules);
        if !rules.laizi.is_empty() {
            // --laizi chooses the wild ranks instead of the seed's draw (as in `ddz deal`).
            deal.laizi = rules.laizi.iter().collect();
        }
        return one(&mut out, &format!("seed {seed}"), &deal, &rules, &args);
    }
    let Some(path) = &args.deal else {
        bail!("give --deal FILE or --seed N");
    };
    let file =
        std::fs::File::open(path).with_context(|| format!("cannot open {}", path.display()))?;
    let (mut count, mut bad) = (0, 0);
    for (i, line) in std::io::BufReader::new(file).lines().enumerate() {
        let line = line.with_context(|| format!("{} line {}", path.display(), i + 1))?;
        if line.trim().is_empty() {
            continue;
        }
        count += 1;
        let deal = match DealLine::parse(&line).and_then(|d| d.to_deal(&rules)) {
            Ok(deal) => deal,
            Err(e) => {
                // A bad line is reported (in place of its result with --json) and the run
                // goes on; the command then exits with code 2.
                bad += 1;
                if args.json {
                    print_json(&mut out, &json!({"line": i + 1, "error": e.to_string()}))?;
                }
                eprintln!("error: {} line {}: {e}", path.display(), i + 1);
                continue;
            }
        };
        let mut deal = deal;
        if deal.laizi.is_empty() && !rules.laizi.is_empty() {
            // A line without wild ranks plays with those of --laizi.
            deal.laizi = rules.laizi.iter().collect();
        }
        one(&mut out, &format!("line {}", i + 1), &deal, &rules, &args)?;
    }
    if count == 0 {
        bail!("{} has no deals", path.display());
    }
    if bad > 0 {
        bail!("{bad} of {count} deal lines of {} are bad", path.display());
    }
    Ok(())
}

/// Counts one deal and prints its result.
fn one(out: &mut impl Write, name: &str, deal: &Deal, rules: &Rules, args: &Args) -> Result<()> {
    let rules = deal_rules(deal, rules).with_context(|| format!("{name}: wild ranks"))?;
    let line = deal.to_line();
    let wild = match &line.laizi {
        Some(l) => format!(", wild {}", l.join(",")),
        None => String::new(),
    };
    let header = format!(
        "{name}: {} | {} | {} ({} rules{wild})",
        line.landlord, line.landlord_down, line.landlord_up, rules.profile
    );
    count(out, name, &header, &PlayState::dealt(deal), &rules, args)
}

/// Counts the table deal of `derive_seed(seed, 0)` at two or four seats and prints it.
fn table<const N: usize>(
    out: &mut impl Write,
    seed: u64,
    rules: &Rules,
    args: &Args,
) -> Result<()> {
    let deal = TableDeal::<N>::from_seed(derive_seed(seed, 0), rules)?;
    let start = table_start(&deal, rules);
    let hands: Vec<String> = start.hands().0.iter().map(|h| h.to_string()).collect();
    let name = format!("seed {seed}");
    let header = format!("{name}: {} ({} rules)", hands.join(" | "), rules.profile);
    count(out, &name, &header, &start, rules, args)
}

/// Counts the tree from `pos` and prints the counts under `header` (or as JSON).
fn count<const N: usize>(
    out: &mut impl Write,
    name: &str,
    header: &str,
    pos: &PlayStateOf<N>,
    rules: &Rules,
    args: &Args,
) -> Result<()> {
    let start = Instant::now();
    let mut shown = false;
    let mut next_report = 2.0;
    let counts = perft_with_progress(pos, rules, args.depth, |done, total| {
        // Progress on stderr once a run gets long, at most twice a second.
        let t = start.elapsed().as_secs_f64();
        if t > next_report {
            eprint!("\r{name}: {done}/{total} first moves searched ({t:.0} s)");
            next_report = t + 0.5;
            shown = true;
        }
    });
    if shown {
        eprintln!();
    }
    let seconds = start.elapsed().as_secs_f64();
    let leaves = counts.last().copied().unwrap_or(0);
    let nodes_per_sec = leaves as f64 / seconds.max(1e-9);
    if args.json {
        print_json(
            out,
            &json!({"perft": counts, "seconds": seconds, "nodes_per_sec": nodes_per_sec}),
        )?;
        return Ok(());
    }
    writeln!(out, "{header}")?;
    for (d, n) in counts.iter().enumerate() {
        writeln!(out, "  depth {:>2} {n:>16}", d + 1)?;
    }
    writeln!(
        out,
        "  {seconds:.3} s, {nodes_per_sec:.0} leaves/s (depth {})",
        args.depth
    )?;
    Ok(())
}
