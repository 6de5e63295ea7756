//! `ddz analyse RECORD...`: every play of a recorded game rated by the search's chance of
//! winning, with the better play and a mark, and the solver's hindsight verdict where the
//! position is small (docs/analysis.md).

use std::io::Write;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result, anyhow, bail};
use ddz_bots::review::{
    Analysis, AnalysisOptions, DEFAULT_SAMPLES, EXACT_CARDS, RatedDecision, analyse,
};
use ddz_game::{Budget, GameRecord, Seat};
use serde_json::{Value, json};

use crate::cmd::arena::progress;
use crate::common::print_json;

/// Rates every play of the chosen seats in recorded games: the chance of winning after the
/// play made and after the best play the search finds (estimated from what the seat knew
/// then: its hand and the public history, the hidden hands sampled and weighted by the
/// inference, never read from the record), the loss and a mark (blunder >= 0.20, mistake >=
/// 0.10, inaccuracy >= 0.05); with at most --exact-cards cards in the three hands, the
/// solver's verdict with every hand known (hindsight, marked apart). Bids are rated the same
/// way; doubling and showing get their chance of winning, not a rating (they change the
/// stake, not the chance). A record that does not replay is an error naming the step
/// (exit code 2; with several records the others are still analysed).
#[derive(clap::Args)]
pub struct Args {
    /// Record files (ddz-record/1 or /2), or - for standard input.
    #[arg(value_name = "RECORD")]
    files: Vec<String>,
    /// Also every *.json record in this folder (as `ddz arena --records` writes them), in name
    /// order.
    #[arg(long = "records", value_name = "DIR")]
    records_dir: Option<PathBuf>,
    /// The seat to analyse (0, 1 or 2), or all.
    #[arg(long, default_value = "all", value_name = "N|all")]
    seat: String,
    /// Samples of the hidden hands each play is scored on (the default budget).
    #[arg(long, value_name = "N", conflicts_with = "time")]
    iters: Option<u64>,
    /// A time for each decision instead (500ms, 2s): repeatable only under --iters.
    #[arg(long, value_name = "D")]
    time: Option<String>,
    /// Threads for the playouts (the results do not depend on it under --iters).
    #[arg(long, default_value_t = 1)]
    threads: usize,
    /// The seed the samples are drawn from.
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// The most cards in the three hands for the solver's hindsight verdict (0: none).
    #[arg(long, default_value_t = EXACT_CARDS, value_name = "N")]
    exact_cards: u32,
    /// Print the analysis as JSON (ddz-analysis/1; one line per record when there are
    /// several, each with its "record").
    #[arg(long)]
    json: bool,
    /// No progress bar (it is hidden anyway when stderr is not a terminal).
    #[arg(long)]
    quiet: bool,
}

/// The record files named, then those of the folder.
fn record_paths(args: &Args) -> Result<Vec<String>> {
    let mut paths = args.files.clone();
    if let Some(dir) = &args.records_dir {
        let mut found: Vec<String> = std::fs::read_dir(dir)
            .with_context(|| format!("cannot read the records folder {}", dir.display()))?
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|x| x == "json"))
            .map(|p| p.display().to_string())
            .collect();
        if found.is_empty() {
            bail!("no *.json record in {}", dir.display());
        }
        found.sort();
        paths.extend(found);
    }
    if paths.is_empty() {
        bail!("no record given: name record files, - for standard input, or --records DIR");
    }
    Ok(paths)
}

fn read_record(path: &str) -> Result<GameRecord> {
    let text = if path == "-" {
        std::io::read_to_string(std::io::stdin())
            .context("cannot read the record from standard input")?
    } else {
        std::fs::read_to_string(Path::new(path))
            .with_context(|| format!("cannot read record file {path}"))?
    };
    GameRecord::parse(&text).with_context(|| path.to_string())
}

/// The options from the arguments.
fn options(args: &Args) -> Result<AnalysisOptions> {
    let seats = match args.seat.trim() {
        "all" => Seat::ALL.to_vec(),
        s => vec![
            s.parse::<u8>()
                .ok()
                .and_then(Seat::new)
                .ok_or_else(|| anyhow!("--seat: \"{s}\" is not 0, 1, 2 or all"))?,
        ],
    };
    let budget = match (&args.time, args.iters) {
        (Some(t), _) => {
            Budget::Time(ddz_bots::search::parse_duration(t).map_err(|e| anyhow!("--time: {e}"))?)
        }
        (None, Some(0)) => bail!("--iters must be at least 1"),
        (None, n) => Budget::Count(n.unwrap_or(DEFAULT_SAMPLES)),
    };
    if args.threads == 0 {
        bail!("--threads must be at least 1");
    }
    Ok(AnalysisOptions {
        seats,
        budget,
        threads: args.threads,
        seed: args.seed,
        exact_cards: args.exact_cards,
        ..AnalysisOptions::default()
    })
}

/// Runs the command. With several records, one that cannot be read or does not replay is
/// reported (a JSON line with its "error", or on stderr) and the others are analysed; the
/// exit code is then 2.
pub fn run(args: Args) -> Result<()> {
    let options = options(&args)?;
    let paths = record_paths(&args)?;
    let mut out = std::io::stdout().lock();
    let mut failed = 0;
    for path in &paths {
        let analysis = match analyse_file(path, &options, args.quiet) {
            Ok(analysis) => analysis,
            Err(e) if paths.len() > 1 => {
                failed += 1;
                if args.json {
                    writeln!(
                        out,
                        "{}",
                        json!({"record": path, "error": format!("{e:#}")})
                    )?;
                } else {
                    eprintln!("error: {e:#}");
                }
                continue;
            }
            Err(e) => return Err(e),
        };
        let doc = serde_json::to_value(&analysis)?;
        if args.json && paths.len() == 1 {
            print_json(&mut out, &doc)?;
        } else if args.json {
            let mut doc = doc;
            if let Value::Object(map) = &mut doc {
                map.insert("record".into(), json!(path));
            }
            writeln!(out, "{doc}")?;
        } else {
            if paths.len() > 1 {
                writeln!(out, "{path}")?;
            }
            write_text(&mut out, &analysis)?;
        }
    }
    if failed > 0 {
        bail!("{failed} of {} records could not be analysed", paths.len());
    }
    Ok(())
}

/// One record read and analysed, with a progress bar over its decisions.
fn analyse_file(path: &str, options: &AnalysisOptions, quiet: bool) -> Result<Analysis> {
    let record = read_record(path)?;
    let bar = progress(0, quiet, "decisions")?;
    let analysis = analyse(&record, options, &mut |done, total| {
        bar.set_length(total as u64);
        bar.set_position(done as u64);
    })
    .with_context(|| path.to_string())?;
    bar.finish_and_clear();
    Ok(analysis)
}

/// A chance as a percentage.
fn percent(chance: Option<f64>) -> String {
    chance.map_or_else(|| "-".into(), |c| format!("{:.0}%", c * 100.0))
}

/// One decision as a line of the table.
fn line(d: &RatedDecision) -> String {
    let mark = d.mark.map_or("", |m| match m {
        ddz_bots::review::Mark::Blunder => "blunder",
        ddz_bots::review::Mark::Mistake => "mistake",
        ddz_bots::review::Mark::Inaccuracy => "inaccuracy",
    });
    let exact = match &d.exact {
        Some(e) if e.could_win && !e.played_wins => format!(
            "  [exact: lost a won game; {} wins]",
            e.winning.as_deref().unwrap_or("?")
        ),
        Some(e) if e.played_wins => "  [exact: wins]".into(),
        Some(_) => "  [exact: lost whatever the play]".into(),
        None => String::new(),
    };
    let rated = match (&d.best, d.loss) {
        _ if d.forced => "forced".to_string(),
        (Some(best), Some(loss)) => format!(
            "{:>4} best {:<14} {:>4} loss {:.2} {mark}",
            percent(d.win_played),
            best,
            percent(d.win_best),
            loss
        ),
        (None, None) if d.win_played.is_some() => format!(
            "{:>4} (the stake changes, not the chance: not rated)",
            percent(d.win_played)
        ),
        _ => "not rated".to_string(),
    };
    format!(
        "{:>3} seat {} {:<6} {:<14} {rated}{exact}",
        d.step, d.seat, d.kind, d.played
    )
}

/// The analysis of a record at the default options, with a progress bar (`ddz replay
/// --analyse`).
pub(crate) fn default_analysis(record: &GameRecord) -> Result<Analysis> {
    let bar = progress(0, false, "decisions")?;
    let analysis = analyse(record, &AnalysisOptions::default(), &mut |done, total| {
        bar.set_length(total as u64);
        bar.set_position(done as u64);
    })?;
    bar.finish_and_clear();
    Ok(analysis)
}

/// The analysis as text: a line a decision, a line a seat, the turning point.
pub(crate) fn write_text(out: &mut impl Write, analysis: &Analysis) -> Result<()> {
    for d in &analysis.decisions {
        writeln!(out, "{}", line(d))?;
    }
    for s in &analysis.summary.seats {
        writeln!(
            out,
            "seat {}: {} plays rated, mean loss {:.3}, {} blunders, {} mistakes, {} inaccuracies, \
             {} proven lost{}",
            s.seat,
            s.decisions,
            s.mean_loss,
            s.blunders,
            s.mistakes,
            s.inaccuracies,
            s.exact_lost,
            s.worst
                .map_or_else(String::new, |w| format!(", costliest at step {w}"))
        )?;
    }
    if let Some(t) = &analysis.summary.turning_point {
        writeln!(
            out,
            "turning point: step {} (seat {}): the landlord's chance {} -> {}",
            t.step,
            t.seat,
            percent(Some(t.landlord_before)),
            percent(Some(t.landlord_after))
        )?;
    }
    Ok(())
}
