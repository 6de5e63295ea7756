//! Words for what happens at the table, shared by the line mode and the screen.

use ddz_core::{Bidding, Cards, Move, RankSet, Rules, move_notation};
use ddz_game::{Phase, Role, Seat, Side};

use super::table::{Event, Table};

/// "you (seat 0)" or "value (seat 1)".
pub fn seat_label(table: &Table, seat: Seat) -> String {
    format!("{} (seat {seat})", table.seat_name(seat))
}

/// A seat's role word: landlord, farmer, or "bidding" before the landlord is decided.
pub fn role_name(table: &Table, seat: Seat) -> &'static str {
    match table.role(seat) {
        Some(Role::Landlord) => "landlord",
        Some(_) => "farmer",
        None => "bidding",
    }
}

/// The wild ranks as text: `9` or `7 and 9`.
pub fn wild_text(laizi: RankSet) -> String {
    let ranks: Vec<String> = laizi.iter().map(|r| r.to_string()).collect();
    ranks.join(" and ")
}

/// A hand as rank letters separated by spaces, wild cards marked `*`: `3 4 4 9* 9* T J R`.
pub fn hand_text(hand: Cards, rules: &Rules) -> String {
    let cards: Vec<String> = hand
        .iter()
        .map(|r| {
            if rules.laizi.contains(r) {
                format!("{r}*")
            } else {
                r.to_string()
            }
        })
        .collect();
    cards.join(" ")
}

/// One line for an event (the end of the game has [`outcome_lines`]).
pub fn describe_event(table: &Table, event: &Event) -> String {
    let rules = table.rules();
    match event {
        Event::Start { game, .. } => format!("game {game}"),
        Event::Bid { seat, bid } => {
            // The bid's word depends on the bids before it.
            let bids = table.game().bids();
            let earlier = bids
                .iter()
                .rposition(|&(s, b)| s == *seat && b == *bid)
                .map_or(bids, |i| &bids[..i]);
            let word = table.bid_word(*bid, earlier);
            match (rules.bidding, *bid) {
                (Bidding::Points, 0) => format!("{} passes", seat_label(table, *seat)),
                (Bidding::Points, b) => format!("{} bids {b}", seat_label(table, *seat)),
                _ => format!("{}: {word}", seat_label(table, *seat)),
            }
        }
        Event::Show {
            seat, factor: 0, ..
        } => {
            format!("{} does not show", seat_label(table, *seat))
        }
        Event::Show {
            seat,
            factor,
            cards,
        } => format!(
            "{} shows its hand (x{factor}): {}",
            seat_label(table, *seat),
            cards.to_cards()
        ),
        Event::Double { seat, factor } => {
            format!("{} chooses doubling x{factor}", seat_label(table, *seat))
        }
        Event::Redeal { .. } => "everyone passed: the cards are dealt again".to_string(),
        Event::Landlord { seat, kitty, .. } => format!(
            "{} is the landlord and takes the kitty {}",
            seat_label(table, *seat),
            kitty.to_cards()
        ),
        Event::Wild(laizi) => format!("wild rank: {}", wild_text(*laizi)),
        Event::Play { seat, play: m, .. } if m.is_pass() => {
            format!("{} passes", seat_label(table, *seat))
        }
        Event::Play { seat, play: m, .. } => format!(
            "{} plays {}  ({}; {} left)",
            seat_label(table, *seat),
            move_notation(m, &rules),
            kind_words(m),
            table.game().hand(*seat).len()
        ),
        Event::Forfeit { seat, why } => format!(
            "{} failed and forfeits the game: {why}",
            seat_label(table, *seat)
        ),
        Event::Over(_) => "game over".to_string(),
    }
}

/// A move's kind and main rank in words: `trio_single 3`, `straight from 3, length 5`.
pub fn kind_words(m: &Move) -> String {
    if m.is_pass() {
        "pass".to_string()
    } else if m.length() > 1 {
        format!("{} from {}, length {}", m.kind(), m.low(), m.length())
    } else {
        format!("{} {}", m.kind(), m.main())
    }
}

/// The end of a game: the winner, each seat's score, bombs, spring, the multiplier, the
/// record saved.
pub fn outcome_lines(table: &Table) -> Vec<String> {
    let Some(outcome) = table.outcome() else {
        return Vec::new();
    };
    let me = table.me();
    let mut lines = Vec::new();
    let mine = outcome.scores[me];
    let verdict = if mine > 0 { "you win" } else { "you lose" };
    let side = match outcome.winner {
        Side::Landlord => "the landlord wins",
        Side::Farmers => "the farmers win",
    };
    lines.push(format!("game over: {side}; {verdict} ({mine:+})"));
    let scores: Vec<String> = Seat::ALL
        .iter()
        .map(|&s| format!("{} {:+}", seat_label(table, s), outcome.scores[s]))
        .collect();
    lines.push(format!("scores: {}", scores.join(", ")));
    match &outcome.result {
        Some(r) => {
            let mut extras = Vec::new();
            if r.spring {
                extras.push("spring");
            }
            if r.anti_spring {
                extras.push("anti-spring");
            }
            let extras = if extras.is_empty() {
                String::new()
            } else {
                format!("; {}", extras.join(", "))
            };
            lines.push(format!(
                "base {} x multiplier {}: {} bomb{}, rocket {}{extras}",
                r.base,
                r.multiplier,
                r.bombs,
                if r.bombs == 1 { "" } else { "s" },
                if r.rocket { "played" } else { "not played" },
            ));
        }
        None => lines.push("forfeited: the failing robot's side loses at the stake reached".into()),
    }
    if let Some(path) = &outcome.record {
        lines.push(format!(
            "record saved: {} (ddz replay shows it)",
            path.display()
        ));
    }
    if let Some(e) = &outcome.record_error {
        lines.push(format!("record not saved: {e}"));
    }
    lines.push(totals_line(table));
    lines
}

/// The running total over the sitting.
pub fn totals_line(table: &Table) -> String {
    let totals = table.totals();
    let others: Vec<String> = [table.me().next(), table.me().prev()]
        .iter()
        .map(|&s| format!("{} {:+}", seat_label(table, s), totals[s]))
        .collect();
    let n = table.finished();
    format!(
        "total after {n} game{}: you {:+}; {}",
        if n == 1 { "" } else { "s" },
        totals[table.me()],
        others.join(", ")
    )
}

/// Whose turn it is, in words.
pub fn turn_text(table: &Table) -> String {
    let game = table.game();
    if table.is_over() {
        return "game over".to_string();
    }
    let seat = game.turn();
    let what = if game.phase() == Phase::Bidding {
        "bid"
    } else {
        "play"
    };
    if seat == table.me() {
        format!("your turn to {what}")
    } else {
        format!("{} to {what}", seat_label(table, seat))
    }
}
