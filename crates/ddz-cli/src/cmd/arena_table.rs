//! `ddz arena --rules two|four`: two robots at a table of two or four seats
//! (ddz_arena::table), with the options that apply there.

use anyhow::{Result, anyhow, bail};
use ddz_arena::table::{Outside, TableReport, run_table_with};
use ddz_bots::table::TablePlayer;
use ddz_core::Rules;
use ddz_protocol::external::{ExternalBot, Externals};

use crate::common::print_json;
use indicatif::ProgressBar;

/// What the table arena takes of `ddz arena`'s options.
pub struct TableRun<'a> {
    /// The rules, seating two or four.
    pub rules: Rules,
    /// The `--bots` list.
    pub bots: &'a str,
    /// `--deals`.
    pub deals: u64,
    /// `--seed`.
    pub seed: u64,
    /// `--threads` (default: one per core).
    pub threads: Option<usize>,
    /// The progress bar over the deals (`ddz arena`'s, hidden with `--quiet`).
    pub bar: ProgressBar,
    /// The robots of `--exec`, one program a seat and game.
    pub externals: Externals,
    /// `--json`.
    pub json: bool,
    /// The options given that only the three-seat arena has, by name.
    pub three_seat_only: Vec<&'static str>,
}

/// Runs robot A against robot B at the rules' table and prints the figures.
pub fn run(run: TableRun) -> Result<()> {
    if let Some(option) = run.three_seat_only.first() {
        bail!(
            "{option} is not available under --rules {}: the arena at {} seats plays two \
             built-in robots over seeded deals with a fixed landlord",
            run.rules.profile,
            run.rules.seats
        );
    }
    let bots: Vec<&str> = run.bots.split(',').map(str::trim).collect();
    let [a, b] = bots.as_slice() else {
        bail!(
            "--bots: the arena at {} seats takes exactly two robots (of random, greedy, \
             ddzlib, search, or a NAME defined with --exec), e.g. --bots search,ddzlib",
            run.rules.seats
        );
    };
    let programs = Programs(&run.externals);
    let threads = match run.threads {
        Some(0) => bail!("--threads must be at least 1"),
        Some(t) => t,
        None => std::thread::available_parallelism().map_or(1, |n| n.get()),
    };
    let bar = &run.bar;
    bar.set_length(run.deals);
    let on_deal = |done: u64| bar.set_position(done);
    let (specs, deals) = ((*a, *b), (run.deals, run.seed));
    let report = match run.rules.seats {
        2 => run_table_with::<2>(&run.rules, specs, deals, threads, &on_deal, &programs),
        4 => run_table_with::<4>(&run.rules, specs, deals, threads, &on_deal, &programs),
        n => bail!("--rules: no arena at {n} seats"),
    }
    .map_err(|e| anyhow!("--bots: {e}"))?;
    bar.finish_and_clear();
    if run.json {
        let value = serde_json::to_value(&report)?;
        print_json(&mut std::io::stdout().lock(), &value)?;
        return Ok(());
    }
    print!("{}", text(&report));
    Ok(())
}

/// The report as text.
fn text(r: &TableReport) -> String {
    let est = |e: &ddz_arena::Estimate| format!("{:.3} [{:.3}, {:.3}]", e.mean, e.ci[0], e.ci[1]);
    let mut failures = String::new();
    if r.failures > 0 {
        failures = format!("  {} game(s) forfeited by a failing robot:\n", r.failures);
        for f in &r.first_failures {
            failures += &format!("    {f}\n");
        }
    }
    let figures = format!(
        "{} rules, {} seats: {} deals ({} games), seed {}\n\
         A {} against B {}\n  WP  {}\n  ADP {}\n  WP as the landlord {}, as the farmers {}\n",
        r.rules,
        r.seats,
        r.deals,
        2 * r.deals,
        r.seed,
        r.a,
        r.b,
        est(&r.wp),
        est(&r.adp),
        est(&r.wp_as_landlord),
        est(&r.wp_as_farmers),
    );
    figures + &failures
}

/// The `--exec` programs as players at a table: one process a seat and game.
struct Programs<'a>(&'a Externals);

impl<const N: usize> Outside<N> for Programs<'_> {
    fn knows(&self, name: &str) -> bool {
        self.0.get(name).is_some()
    }

    fn start(&self, name: &str) -> Result<Box<dyn TablePlayer<N>>, String> {
        let external = self
            .0
            .get(name)
            .ok_or_else(|| format!("no --exec robot is named {name}"))?;
        // A program that starts but fails its hello fails at its first decision (a forfeit).
        let bot = ExternalBot::spawn(name, external).map_err(|e| e.to_string())?;
        Ok(Box::new(bot))
    }
}
