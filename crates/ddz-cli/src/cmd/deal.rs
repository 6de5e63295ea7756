//! `ddz deal`: seeded deals, shuffled or without shuffling, as text or as deal-file lines.

use std::io::Write;

use anyhow::{Result, bail};
use ddz_core::{CardSet, DealMethod, Rules};
use ddz_game::{Deal, Seat, count_bombs, derive_seed};

use crate::common::{RulesArgs, print_json};

/// One or more seeded deals, as text or as deal-file JSON lines.
#[derive(clap::Args)]
pub struct Args {
    /// The seed: deal i of a run is dealt from derive_seed(SEED, i), or from SEED + i without
    /// shuffling (the no-shuffle generator's own seed, as RULES.md section 7's test vectors
    /// name it). Under the wildcard profiles the wild ranks are drawn from that seed too,
    /// unless --laizi gives them.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Deal without shuffling (不洗牌, RULES.md section 7): rank groups, a cut, 8 swaps, chunks
    /// of 6, 6 and 5 from seat 0; bomb-rich hands. The same as a rules file's
    /// `deal = "no_shuffle"`, whose `no_shuffle` fields (cuts, swaps, chunks, min_bombs,
    /// max_attempts) apply. `ddz deal --seed 1 --no-shuffle --json` gives section 7's test
    /// vector.
    #[arg(long)]
    no_shuffle: bool,
    /// How many deals.
    #[arg(long, default_value_t = 1)]
    count: u64,
    #[command(flatten)]
    rules: RulesArgs,
    /// Print deal-file lines ({"landlord", "landlord_down", "landlord_up", "kitty", "laizi"},
    /// seat 0 as the landlord) instead of text.
    #[arg(long)]
    json: bool,
}

fn physical(set: CardSet) -> String {
    set.iter()
        .map(|c| c.to_string())
        .collect::<Vec<_>>()
        .join(" ")
}

/// Runs the command.
pub fn run(args: Args) -> Result<()> {
    let mut rules: Rules = args.rules.load()?;
    if args.no_shuffle {
        rules.deal = DealMethod::NoShuffle;
    }
    let no_shuffle = rules.deal == DealMethod::NoShuffle;
    if args.count == 0 {
        bail!("--count must be at least 1");
    }
    let mut out = std::io::stdout().lock();
    for i in 0..args.count {
        let seed = if no_shuffle {
            args.seed.wrapping_add(i)
        } else {
            derive_seed(args.seed, i)
        };
        let mut deal = Deal::from_seed(seed, &rules);
        if !rules.laizi.is_empty() {
            // --laizi chooses the wild ranks instead of the seed's draw.
            deal.laizi = rules.laizi.iter().collect();
        }
        if args.json {
            print_json(&mut out, &serde_json::to_value(deal.to_line())?)?;
            continue;
        }
        if no_shuffle {
            writeln!(
                out,
                "deal {i} (no shuffle, seed {seed}, {} bombs)",
                count_bombs(&deal.hands)
            )?;
        } else {
            writeln!(
                out,
                "deal {i} (seed {seed}, from --seed {} index {i})",
                args.seed
            )?;
        }
        for seat in Seat::ALL {
            let hand = deal.hands[seat];
            writeln!(
                out,
                "  seat {seat}: {:<20} {}",
                hand.to_cards().to_string(),
                physical(hand)
            )?;
        }
        writeln!(
            out,
            "  kitty:  {:<20} {}",
            deal.kitty.to_cards().to_string(),
            physical(deal.kitty)
        )?;
        if !deal.laizi.is_empty() {
            let ranks: Vec<String> = deal.laizi.iter().map(|r| r.to_string()).collect();
            writeln!(out, "  wild ranks: {}", ranks.join(", "))?;
        }
    }
    Ok(())
}
