//! `ddz hint HAND`: a robot's choice, then every other legal play ranked.

use std::io::Write;

use anyhow::{Context, Result, anyhow, bail};
use ddz_bots::blog::ROUND_VALUE;
use ddz_bots::hint::ranked_hints;
use ddz_bots::make_bot;
use ddz_core::{Cards, Move, Rules, legal_moves, parse_move};
use ddz_game::{BySeat, Role, Seat, SeatView};
use serde_json::{Value, json};

use crate::common::{RulesArgs, move_line, move_value, print_json};

/// A robot's choice for a hand, leading or beating `--beat`, then the other legal plays
/// ranked by the blog's criterion: the score (SumValue − 7 × NeedRound) of the cards left
/// after the play; a pass leaves the whole hand and one more round.
#[derive(clap::Args)]
pub struct Args {
    /// The hand, e.g. 22AAKQJ9987776654.
    hand: String,
    /// The move to beat, in move notation, played by the seat before yours (for landlord_up
    /// that is your teammate); without it, you lead.
    #[arg(long, value_name = "MOVE")]
    beat: Option<String>,
    /// The robot that chooses (see --help of `ddz`: random, greedy, value, ddzlib).
    #[arg(long, default_value = "value", value_name = "NAME")]
    bot: String,
    /// Your role: landlord, landlord_down (the farmer after the landlord) or landlord_up (the
    /// farmer before the landlord).
    #[arg(long, default_value = "landlord", value_name = "ROLE")]
    role: String,
    /// Cards left in the other two hands: the seat after yours, then the seat before yours
    /// (default 17 for a farmer, 20 for the landlord).
    #[arg(long, value_name = "N,N")]
    left: Option<String>,
    /// Seed of a robot that draws random numbers.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    #[command(flatten)]
    rules: RulesArgs,
    /// Print {"bot", "role", "choice": MOVE, "plays": [{"move", "sum_value", "need_round",
    /// "score"}...]} (the choice first) instead of text.
    #[arg(long)]
    json: bool,
}

/// Parses a role name.
fn parse_role(text: &str) -> Result<Role> {
    match text {
        "landlord" => Ok(Role::Landlord),
        "landlord_down" => Ok(Role::LandlordDown),
        "landlord_up" => Ok(Role::LandlordUp),
        _ => bail!("--role \"{text}\": expected landlord, landlord_down or landlord_up"),
    }
}

/// The view of seat 0 holding `hand` in `role`, the others holding `left` (next, previous)
/// cards, `last` played by the previous seat.
fn view(hand: Cards, role: Role, left: [u32; 2], last: Option<Move>, rules: &Rules) -> SeatView {
    let me = Seat::ALL[0];
    // The seat that makes `me` play `role` (parse_role reads the three-seat roles only).
    let landlord = Seat::ALL
        .into_iter()
        .find(|l| Role::of(me, *l) == role)
        .unwrap_or(me);
    let mut cards_left = BySeat([0; 3]);
    cards_left[me.next()] = left[0];
    cards_left[me.prev()] = left[1];
    SeatView::position(
        rules,
        me,
        landlord,
        hand,
        cards_left,
        last.map(|m| (me.prev(), m)),
    )
}

/// Cards left in the two other hands from `--left`, or the defaults for `role`.
fn cards_left(text: Option<&str>, role: Role) -> Result<[u32; 2]> {
    let Some(text) = text else {
        return Ok(match role {
            Role::Landlord => [17, 17],
            Role::LandlordDown => [17, 20],
            _ => [20, 17],
        });
    };
    let counts: Vec<u32> = text
        .split(',')
        .map(|t| {
            t.trim()
                .parse::<u32>()
                .ok()
                .filter(|n| (1..=20).contains(n))
                .with_context(|| format!("--left: \"{}\" is not a card count 1-20", t.trim()))
        })
        .collect::<Result<_>>()?;
    match counts[..] {
        [a, b] => Ok([a, b]),
        _ => bail!("--left takes two counts, the seat after yours then the seat before: 17,17"),
    }
}

/// Runs the command.
pub fn run(args: Args) -> Result<()> {
    let rules = args.rules.load()?;
    let hand: Cards = args
        .hand
        .parse()
        .with_context(|| format!("hand \"{}\"", args.hand))?;
    if hand.is_empty() {
        bail!("the hand is empty");
    }
    let role = parse_role(&args.role)?;
    let left = cards_left(args.left.as_deref(), role)?;
    let last = args
        .beat
        .as_deref()
        .map(|b| parse_move(b, &rules, None).with_context(|| format!("--beat \"{b}\"")))
        .transpose()?;
    let mut bot = make_bot(&args.bot, args.seed).map_err(|e| anyhow!("--bot: {e}"))?;
    let allowed = legal_moves(hand, last.as_ref(), &rules);
    let view = view(hand, role, left, last, &rules);
    // Every play by what it leaves; the robot's choice first.
    let ranked = ranked_hints(bot.as_mut(), &view, &allowed);
    let choice = ranked.first().map_or(Move::PASS, |&(m, _)| m);

    let mut out = std::io::stdout().lock();
    if args.json {
        let plays: Vec<Value> = ranked
            .iter()
            .map(|(m, v)| {
                json!({"move": move_value(m), "sum_value": v.sum_value,
                       "need_round": v.need_round, "score": v.score()})
            })
            .collect();
        let doc = json!({"bot": bot.name(), "role": args.role, "choice": move_value(&choice),
                         "plays": plays});
        print_json(&mut out, &doc)?;
        return Ok(());
    }
    let what = match &last {
        Some(l) => format!("beating {l}"),
        None => "leading".to_string(),
    };
    writeln!(
        out,
        "{hand} as {}, {what}; the others hold {} (next) and {} (before you)",
        args.role, left[0], left[1]
    )?;
    writeln!(out, "{} plays: {}", bot.name(), move_line(&choice, &rules))?;
    writeln!(
        out,
        "every play, by the score of what it leaves (SumValue - {ROUND_VALUE} x NeedRound):"
    )?;
    writeln!(out, "  score   sum rounds  play")?;
    for (m, v) in &ranked {
        writeln!(
            out,
            "  {:>5} {:>5} {:>6}  {}",
            v.score(),
            v.sum_value,
            v.need_round,
            move_line(m, &rules)
        )?;
    }
    Ok(())
}
