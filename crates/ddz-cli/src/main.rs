//! `ddz`: the Dou Dizhu (斗地主) engine's command line.
//!
//! Every subcommand prints aligned text for people, or JSON with `--json`. Bad input is
//! reported on stderr as `error: ...` and the command exits with code 2.

mod cmd;
mod common;
mod play;

use std::process::ExitCode;

use clap::{Parser, Subcommand};

/// Dou Dizhu (斗地主) rules engine, robots and tools.
#[derive(Parser)]
#[command(name = "ddz", version, about, long_about = None)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// A game in the terminal against two robots, or one or three at two or four seats
    /// (--rules two|four); --plain for line mode.
    Play(play::Args),
    /// Every reading of a set of cards.
    Classify(cmd::classify::Args),
    /// Does one move beat another, and the same for every pair of their readings.
    Compare(cmd::compare::Args),
    /// Every legal move of a hand, leading or beating a move; or a batch of JSON lines.
    Moves(cmd::moves::Args),
    /// Hand analysis: the ddzlib split and hand count, the blog's hand value, the best split.
    Split(cmd::split::Args),
    /// A robot's choice for a hand, then every other legal play ranked.
    Hint(cmd::hint::Args),
    /// Built-in speed measurements.
    Bench(cmd::bench::Args),
    /// Robots against each other over duplicate deals: WP and ADP with confidence intervals.
    Arena(cmd::arena::Args),
    /// Every robot on one rating scale (Elo), from a round robin over duplicate deals.
    Ratings(cmd::ratings::Args),
    /// A robot behind the stdio protocol (PROTOCOL.md).
    Bot(cmd::bot::Args),
    /// Seeded deals, as text or deal-file lines.
    Deal(cmd::deal::Args),
    /// A recorded game step by step, checked.
    Replay(cmd::replay::Args),
    /// Every play of a recorded game rated by the search (复盘): the chance of winning, the
    /// better play, blunders and mistakes.
    Analyse(cmd::analyse::Args),
    /// Move-tree leaf counts from a deal, for correctness and speed.
    Perft(cmd::perft::Args),
    /// An open-hand puzzle (残局) solved exactly: who wins, every winning move, a line.
    Solve(cmd::solve::Args),
    /// The web game and the robot service (HTTP, WebSocket rooms, the page).
    Serve(cmd::serve::Args),
    /// Train the net robot's network by self-play (checkpoints, resume, metrics).
    Train(cmd::train::Args),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Play(a) => play::run(a),
        Command::Classify(a) => cmd::classify::run(a),
        Command::Compare(a) => cmd::compare::run(a),
        Command::Moves(a) => cmd::moves::run(a),
        Command::Split(a) => cmd::split::run(a),
        Command::Hint(a) => cmd::hint::run(a),
        Command::Bench(a) => cmd::bench::run(a),
        Command::Train(a) => cmd::train::run(a),
        Command::Arena(a) => cmd::arena::run(a),
        Command::Ratings(a) => cmd::ratings::run(a),
        Command::Bot(a) => cmd::bot::run(a),
        Command::Deal(a) => cmd::deal::run(a),
        Command::Replay(a) => cmd::replay::run(a),
        Command::Analyse(a) => cmd::analyse::run(a),
        Command::Perft(a) => cmd::perft::run(a),
        Command::Solve(a) => cmd::solve::run(a),
        Command::Serve(a) => cmd::serve::run(a),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        // A closed pipe (`ddz moves ... | head`) is a normal end, not an error.
        Err(e)
            if e.downcast_ref::<std::io::Error>()
                .is_some_and(|io| io.kind() == std::io::ErrorKind::BrokenPipe) =>
        {
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::from(2)
        }
    }
}
