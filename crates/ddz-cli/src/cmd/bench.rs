//! `ddz bench movegen`: move-generation throughput; `ddz bench games`: random playouts;
//! `ddz bench bots` (in [`super::bench_bots`]): robot decision times.

use std::io::BufRead;
use std::ops::ControlFlow;
use std::time::{Duration, Instant};

use std::io::Write;

use anyhow::{Context, Result, bail};
use clap::Subcommand;
use ddz_core::{Cards, Move, Rank, Rules, for_each_legal_move, legal_moves, parse_cards_in};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde_json::{Value, json};

use crate::common::{RulesArgs, move_from_value, print_json};

/// Built-in speed measurements.
#[derive(clap::Args)]
pub struct Args {
    #[command(subcommand)]
    what: What,
}

#[derive(Subcommand)]
enum What {
    /// Legal-move generation only (nothing printed per move), leading and following.
    Movegen(MovegenArgs),
    /// Random games (deal included, fixed landlord) per second on one thread, at any table;
    /// --play-only for the play phase alone.
    Games(GamesArgs),
    /// Decision time per robot, median and 99th percentile, on seeded positions.
    Bots(super::bench_bots::BotsArgs),
}

/// Options of `ddz bench games`.
#[derive(clap::Args)]
struct GamesArgs {
    /// Seconds to play games for (at least one game is played).
    #[arg(long, default_value_t = 2.0)]
    seconds: f64,
    /// Seed: game i is dealt from derive_seed(SEED, i), the random moves drawn from SEED.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    #[command(flatten)]
    rules: RulesArgs,
    /// Play the play phase alone, from the table deal with seat 0 as the landlord (no game,
    /// no record): the same measure at every table.
    #[arg(long)]
    play_only: bool,
    /// Print {"games_per_sec": ..., "moves_per_sec": ..., "games": ..., "seconds": ...}
    /// instead of text.
    #[arg(long)]
    json: bool,
}

/// Options of `ddz bench movegen`.
#[derive(clap::Args)]
struct MovegenArgs {
    /// Hands from a batch file of JSON lines {"hand": "...", "last": ...} (as `ddz moves
    /// --input`); default: seeded random 17- and 20-card hands.
    #[arg(long, value_name = "FILE")]
    input: Option<String>,
    /// Number of random hands of each size (17 and 20 cards; 25 and 33 under four) without
    /// --input, dealt from the rules' deck.
    #[arg(long, default_value_t = 1000)]
    hands: usize,
    /// Seed of the random hands and table moves.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// With --laizi: deal each random hand so that it holds exactly this many wild cards (0-4
    /// of the first wild rank), the rest of the hand as dealt. Table moves come from hands dealt
    /// the same way.
    #[arg(long, value_name = "N")]
    wild_cards: Option<u8>,
    /// Seconds to measure each of lead and follow (repeating over the hands).
    #[arg(long, default_value_t = 2.0)]
    seconds: f64,
    #[command(flatten)]
    rules: RulesArgs,
    /// Print {"lead": {"hands_per_sec", "moves_per_sec"}, "follow": {...}} instead of text.
    #[arg(long)]
    json: bool,
}

/// Runs the command.
pub fn run(args: Args) -> Result<()> {
    match args.what {
        What::Movegen(a) => movegen(a),
        What::Games(a) => games(a),
        What::Bots(a) => super::bench_bots::run(a),
    }
}

/// `n` cards of the rules' deck (54 cards in classic) shuffled by Fisher-Yates: for i from
/// the last card down to 1, swap card i with card j drawn uniformly from 0..=i.
fn deal(rng: &mut ChaCha8Rng, n: usize, rules: &Rules) -> Cards {
    let mut deck: Vec<Rank> = rules.deck().iter().collect();
    for i in (1..deck.len()).rev() {
        let j = rng.random_range(0..=i);
        deck.swap(i, j);
    }
    deck[..n].iter().copied().collect()
}

/// `n` cards dealt so that exactly `wild` of them are of rank `wild_rank` (when given): the
/// deal's own cards of that rank are set aside and the hand is topped up from the rest.
fn deal_with_wild(
    rng: &mut ChaCha8Rng,
    n: usize,
    wild: Option<(Rank, u8)>,
    rules: &Rules,
) -> Cards {
    let Some((rank, count)) = wild else {
        return deal(rng, n, rules);
    };
    let mut deck: Vec<Rank> = Cards::FULL_DECK.iter().filter(|&r| r != rank).collect();
    for i in (1..deck.len()).rev() {
        let j = rng.random_range(0..=i);
        deck.swap(i, j);
    }
    let count = count.min(4) as usize;
    let naturals: Cards = deck[..n - count].iter().copied().collect();
    naturals.add(rank, count as u8)
}

/// A random lead of a random landlord's hand (20 cards, 33 under four): the table move for
/// the follow measurement.
fn random_table(rng: &mut ChaCha8Rng, rules: &Rules, wild: Option<(Rank, u8)>) -> Move {
    let size = (rules.hand_cards() + rules.kitty_cards()) as usize;
    let leads = legal_moves(deal_with_wild(rng, size, wild, rules), None, rules);
    leads[rng.random_range(0..leads.len())]
}

/// (hand, table move) pairs to measure.
fn positions(args: &MovegenArgs, rules: &Rules) -> Result<Vec<(Cards, Move)>> {
    let mut rng = ChaCha8Rng::seed_from_u64(args.seed);
    let wild = match args.wild_cards {
        None => None,
        Some(n) if n > 4 => bail!("--wild-cards takes 0 to 4"),
        Some(n) => match rules.laizi.iter().next() {
            Some(rank) => Some((rank, n)),
            None => bail!("--wild-cards needs a wild rank: add --rules laizi --laizi RANK"),
        },
    };
    let Some(input) = &args.input else {
        let mut out = Vec::new();
        let seat = rules.hand_cards() as usize;
        for size in [seat, seat + rules.kitty_cards() as usize] {
            for _ in 0..args.hands {
                let hand = deal_with_wild(&mut rng, size, wild, rules);
                out.push((hand, random_table(&mut rng, rules, wild)));
            }
        }
        return Ok(out);
    };
    let file = std::fs::File::open(input).with_context(|| format!("cannot open {input}"))?;
    let mut out = Vec::new();
    for (i, line) in std::io::BufReader::new(file).lines().enumerate() {
        let line = line?;
        if line.trim().is_empty() {
            continue;
        }
        let v: Value =
            serde_json::from_str(&line).with_context(|| format!("line {}: not JSON", i + 1))?;
        let hand = v
            .get("hand")
            .and_then(Value::as_str)
            .with_context(|| format!("line {}: no \"hand\"", i + 1))?;
        let hand = parse_cards_in(hand, rules).with_context(|| format!("line {}: hand", i + 1))?;
        let last = match v.get("last") {
            Some(l) => {
                move_from_value(l, rules).with_context(|| format!("line {}: last", i + 1))?
            }
            None => None,
        };
        let table = last.unwrap_or_else(|| random_table(&mut rng, rules, wild));
        out.push((hand, table));
    }
    if out.is_empty() {
        bail!("{input} has no hands");
    }
    Ok(out)
}

/// Repeats generation over the positions for at least `seconds`; returns (hands/s, moves/s).
fn measure(positions: &[(Cards, Move)], follow: bool, rules: &Rules, seconds: f64) -> (f64, f64) {
    let budget = Duration::from_secs_f64(seconds.max(0.01));
    let start = Instant::now();
    let (mut hands, mut moves) = (0u64, 0u64);
    while start.elapsed() < budget {
        for (hand, table) in positions {
            let last = follow.then_some(table);
            let _ = for_each_legal_move(*hand, last, rules, |m| {
                moves += 1;
                std::hint::black_box(m);
                ControlFlow::<()>::Continue(())
            });
        }
        hands += positions.len() as u64;
    }
    let secs = start.elapsed().as_secs_f64();
    (hands as f64 / secs, moves as f64 / secs)
}

fn movegen(args: MovegenArgs) -> Result<()> {
    let rules = args.rules.load_any_table()?;
    let mut out = std::io::stdout().lock();
    let positions = positions(&args, &rules)?;
    // With wild cards in hand, also measure the same hands with nothing wild.
    let mut runs = vec![("", rules.clone())];
    if args.wild_cards.is_some() {
        let natural = Rules {
            laizi: ddz_core::RankSet::EMPTY,
            ..rules.clone()
        };
        runs.push(("no_wild", natural));
    }
    let mut results = Vec::new();
    for (name, rules) in &runs {
        let what = if name.is_empty() {
            String::new()
        } else {
            format!(" ({name})")
        };
        eprintln!(
            "measuring lead generation{what} over {} hands for {:.1} s ...",
            positions.len(),
            args.seconds
        );
        let lead = measure(&positions, false, rules, args.seconds);
        eprintln!(
            "measuring follow generation{what} for {:.1} s ...",
            args.seconds
        );
        let follow = measure(&positions, true, rules, args.seconds);
        results.push((*name, lead, follow));
    }
    let (_, lead, follow) = results[0];
    if args.json {
        let mut v = json!({
            "rules": rules.profile.name(),
            "hands": positions.len(),
            "lead": {"hands_per_sec": lead.0, "moves_per_sec": lead.1},
            "follow": {"hands_per_sec": follow.0, "moves_per_sec": follow.1},
        });
        if let Some((_, l, f)) = results.get(1) {
            v["no_wild"] = json!({
                "lead": {"hands_per_sec": l.0, "moves_per_sec": l.1},
                "follow": {"hands_per_sec": f.0, "moves_per_sec": f.1},
            });
        }
        print_json(&mut out, &v)?;
        return Ok(());
    }
    let wild = match args.wild_cards {
        Some(n) => format!(", {n} wild cards in each hand"),
        None => String::new(),
    };
    writeln!(
        out,
        "move generation, {} rules, {} hands{wild}, one thread",
        rules.profile,
        positions.len()
    )?;
    writeln!(out, "  {:<16} {:>14} {:>14}", "", "hands/s", "moves/s")?;
    for (name, lead, follow) in &results {
        let suffix = if name.is_empty() {
            String::new()
        } else {
            format!(" {name}")
        };
        for (what, (h, m)) in [("lead", lead), ("follow", follow)] {
            let label = format!("{what}{suffix}");
            writeln!(out, "  {label:<16} {h:>14.0} {m:>14.0}")?;
        }
    }
    Ok(())
}

/// `ddz bench games`: random playouts through the game engine (two and four: the table game,
/// [`ddz_game::bench_table_games`]), the bidding replaced by a fixed landlord (seat 0), wild
/// ranks as each seeded deal draws them; with `--play-only` the play phase alone
/// ([`ddz_game::bench_playouts`]).
fn games(args: GamesArgs) -> Result<()> {
    let rules = args.rules.load_any_table()?;
    if !args.seconds.is_finite() || args.seconds < 0.0 {
        bail!("--seconds must be a number of seconds, 0 or more");
    }
    let play_only = args.play_only;
    if play_only && rules.wild != ddz_core::Wild::None {
        bail!("--play-only: the play phase alone is measured without wild cards");
    }
    eprintln!(
        "playing random games ({} rules{}) for {:.1} s ...",
        rules.profile,
        if play_only { ", play phase only" } else { "" },
        args.seconds
    );
    let seconds = Duration::try_from_secs_f64(args.seconds).context("--seconds is too large")?;
    let budget = ddz_game::Budget::Time(seconds);
    let b = match (play_only, rules.seats) {
        (false, 2) => ddz_game::bench_table_games::<2>(&rules, budget, args.seed)?,
        (false, 4) => ddz_game::bench_table_games::<4>(&rules, budget, args.seed)?,
        (false, _) => ddz_game::bench_games(&rules, budget, args.seed),
        (true, 2) => ddz_game::bench_playouts::<2>(&rules, budget, args.seed)?,
        (true, 4) => ddz_game::bench_playouts::<4>(&rules, budget, args.seed)?,
        (true, _) => ddz_game::bench_playouts::<3>(&rules, budget, args.seed)?,
    };
    let mut out = std::io::stdout().lock();
    if args.json {
        let v = json!({
            "rules": rules.profile.name(),
            "play_only": play_only,
            "games": b.games,
            "seconds": b.seconds,
            "games_per_sec": b.games_per_sec(),
            "moves_per_sec": b.moves_per_sec(),
        });
        print_json(&mut out, &v)?;
        return Ok(());
    }
    writeln!(
        out,
        "random games{}, {} rules, fixed landlord, one thread: {} games in {:.2} s",
        if play_only { " (play phase only)" } else { "" },
        rules.profile,
        b.games,
        b.seconds
    )?;
    writeln!(out, "  {:>14.0} games/s", b.games_per_sec())?;
    writeln!(
        out,
        "  {:>14.0} moves/s ({:.1} moves a game)",
        b.moves_per_sec(),
        b.moves as f64 / b.games.max(1) as f64
    )?;
    Ok(())
}
