//! The two- and four-seat screens on ratatui's test backend: snapshots of the layouts, whole
//! games played by keys, and the selection keys.

use ddz_core::{Rank, Rules};
use ddz_game::{Phase, Seat};
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

use super::{Mode, Screen, draw};
use crate::play::variant::{VariantOptions, VariantTable};

fn table<const N: usize>(rules: Rules, seed: u64) -> VariantTable<N> {
    VariantTable::new(VariantOptions {
        rules,
        bots: vec!["ddzlib".into()],
        hint_bot: "ddzlib".into(),
        seat: Seat::ALL[0],
        seed,
        records: None,
    })
    .expect("table robots start")
}

fn robots<const N: usize>(screen: &mut Screen<N>) {
    while screen.robot_may_act() {
        screen.robot_step();
    }
}

fn press<const N: usize>(screen: &mut Screen<N>, code: KeyCode) {
    screen.key(KeyEvent::new(code, KeyModifiers::NONE));
}

fn render<const N: usize>(screen: &Screen<N>, width: u16, height: u16) -> String {
    let mut terminal = Terminal::new(TestBackend::new(width, height)).expect("test backend");
    terminal.draw(|f| draw(f, screen)).expect("draw");
    terminal.backend().to_string()
}

/// Plays the game to its end by keys alone: bids by `bid_key`, plays each turn's first hint
/// (enter), drawing the screen after every step; returns how many plays you made.
fn play_by_keys<const N: usize>(screen: &mut Screen<N>, bid_key: char) -> usize {
    let mut mine = 0;
    for _ in 0..2000 {
        robots(screen);
        render(screen, 80, 24);
        if screen.table.is_over() {
            return mine;
        }
        match screen.table.game().phase() {
            Phase::Bidding => press(screen, KeyCode::Char(bid_key)),
            _ => {
                press(screen, KeyCode::Char('h'));
                if screen.selection().is_empty() {
                    press(screen, KeyCode::Char('p'));
                } else {
                    press(screen, KeyCode::Enter);
                }
                if matches!(screen.mode, Mode::Readings { .. }) {
                    press(screen, KeyCode::Enter);
                }
                mine += 1;
            }
        }
        assert!(
            screen.message.as_ref().is_none_or(|(_, refused)| !refused),
            "{:?}",
            screen.message
        );
    }
    panic!("the game did not end");
}

#[test]
fn two_seat_screen_in_play() {
    let mut screen = Screen::new(table::<2>(Rules::two(), 3));
    robots(&mut screen);
    press(&mut screen, KeyCode::Char('c'));
    robots(&mut screen);
    assert_eq!(screen.table.game().phase(), Phase::Playing);
    let text = render(&screen, 80, 24);
    assert!(text.contains("ddzlib (seat 1)"), "{text}");
    assert!(text.contains("handicap (让牌)"), "{text}");
    insta::assert_snapshot!(text);
}

#[test]
fn four_seat_screen_places_the_three_others_and_wraps_a_long_hand() {
    // Seed 11: you bid 3 and take the kitty, 33 cards on two rows.
    let mut screen = Screen::new(table::<4>(Rules::four(), 11));
    robots(&mut screen);
    press(&mut screen, KeyCode::Char('3'));
    robots(&mut screen);
    assert_eq!(screen.table.game().landlord(), Some(Seat::ALL[0]));
    assert_eq!(screen.hand().len(), 33);
    let text = render(&screen, 80, 24);
    for seat in 1..4 {
        assert!(text.contains(&format!("ddzlib (seat {seat})")), "{text}");
    }
    insta::assert_snapshot!(text);
}

#[test]
fn whole_games_by_keys_end_zero_sum_at_two_and_four_seats() {
    for seed in 0..4 {
        let mut two = Screen::new(table::<2>(Rules::two(), seed));
        assert!(play_by_keys(&mut two, 'c') > 0 || two.table.game().landlord().is_some());
        assert_eq!(two.table.totals().0.iter().sum::<i64>(), 0);
        let mut four = Screen::new(table::<4>(Rules::four(), seed));
        play_by_keys(&mut four, 'p');
        assert_eq!(four.table.totals().0.iter().sum::<i64>(), 0);
        // Enter deals the next game.
        press(&mut four, KeyCode::Enter);
        assert_eq!(four.table.number(), 2);
        assert!(!four.table.is_over());
    }
}

#[test]
fn rank_keys_select_then_deselect_and_bad_keys_are_refused() {
    let mut screen = Screen::new(table::<4>(Rules::four(), 11));
    robots(&mut screen);
    press(&mut screen, KeyCode::Char('3'));
    robots(&mut screen);
    let hand = screen.hand();
    let rank = hand[0];
    let held = hand.iter().filter(|r| **r == rank).count();
    let key = rank.letter().to_ascii_lowercase();
    for k in 1..=held {
        press(&mut screen, KeyCode::Char(key));
        assert_eq!(screen.selection().count(rank) as usize, k);
    }
    press(&mut screen, KeyCode::Char(key));
    assert!(screen.selection().is_empty());
    // A rank you do not hold, and a key that does nothing, are refused with the reason.
    let missing = Rank::ALL
        .into_iter()
        .find(|r| !hand.contains(r) && !r.is_joker())
        .or_else(|| Rank::ALL.into_iter().find(|r| !hand.contains(r)));
    if let Some(missing) = missing {
        press(
            &mut screen,
            KeyCode::Char(missing.letter().to_ascii_lowercase()),
        );
        let (text, refused) = screen.message.clone().unwrap();
        assert!(refused && text.contains("you hold no"), "{text}");
    }
    press(&mut screen, KeyCode::Char('x'));
    assert!(
        screen
            .message
            .as_ref()
            .is_some_and(|(t, r)| *r && t.contains("\"x\""))
    );
    // Enter with nothing selected says what to do.
    press(&mut screen, KeyCode::Enter);
    assert!(
        screen
            .message
            .as_ref()
            .is_some_and(|(t, _)| t.contains("select cards first"))
    );
}
