//! Snapshot tests of the table's screens on ratatui's test backend, and the keys.

use ddz_core::{CardSet, Cards, Profile, Rules};
use ddz_game::{Phase, Seat};
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

use super::{App, Mode, draw};
use crate::play::table::{Options, Table};

fn table(profile: Profile, seed: u64) -> Table {
    Table::new(Options {
        rules: Rules::profile(profile),
        bots: ["value".parse().unwrap(), "ddzlib".parse().unwrap()],
        hint_bot: "value".parse().unwrap(),
        seat: Seat::ALL[0],
        seed,
        records: None,
    })
    .expect("built-in robots start")
}

/// Robots act until it is your turn or the game is over.
fn robots(app: &mut App) {
    while app.table.robot_to_act() {
        app.robot_step();
    }
}

fn press(app: &mut App, code: KeyCode) {
    app.key(KeyEvent::new(code, KeyModifiers::NONE));
}

fn keys(app: &mut App, text: &str) {
    for c in text.chars() {
        press(app, KeyCode::Char(c));
    }
}

fn screen(app: &App, width: u16, height: u16) -> String {
    let mut terminal = Terminal::new(TestBackend::new(width, height)).expect("test backend");
    terminal.draw(|f| draw(f, app)).expect("draw");
    terminal.backend().to_string()
}

/// A classic game where you win the bidding with 3 and lead.
fn playing() -> App {
    let mut app = App::new(table(Profile::Classic, 7));
    robots(&mut app);
    press(&mut app, KeyCode::Char('3'));
    robots(&mut app);
    app
}

#[test]
fn bidding_screen() {
    let mut app = App::new(table(Profile::Classic, 7));
    robots(&mut app);
    assert_eq!(app.table.game().phase(), Phase::Bidding);
    assert!(app.table.my_turn());
    insta::assert_snapshot!(screen(&app, 80, 24));
}

#[test]
fn playing_screen_with_a_selection() {
    let mut app = playing();
    assert_eq!(app.table.game().landlord(), Some(Seat::ALL[0]));
    // t selects a ten, again the next ten; right moves the cursor.
    keys(&mut app, "tt");
    press(&mut app, KeyCode::Right);
    insta::assert_snapshot!(screen(&app, 80, 24));
    assert_eq!(app.selected.to_cards(), "TT".parse::<Cards>().unwrap());
}

#[test]
fn rank_keys_select_then_deselect_and_space_toggles() {
    let mut app = playing();
    let tens = app
        .table
        .game()
        .hand(app.table.me())
        .count(ddz_core::Rank::Ten);
    assert!(tens >= 2);
    for _ in 0..tens {
        keys(&mut app, "0");
    }
    assert_eq!(app.selected.to_cards().count(ddz_core::Rank::Ten), tens);
    keys(&mut app, "t");
    assert!(
        app.selected.is_empty(),
        "all tens selected: the key clears them"
    );
    press(&mut app, KeyCode::Home);
    press(&mut app, KeyCode::Char(' '));
    assert_eq!(app.selected.len(), 1);
    press(&mut app, KeyCode::Char(' '));
    assert!(app.selected.is_empty());
}

#[test]
fn an_illegal_selection_is_refused_with_the_reason() {
    let mut app = playing();
    let before = app.table.game().hand(app.table.me());
    // A 3 and a K are not a combination.
    keys(&mut app, "3k");
    press(&mut app, KeyCode::Enter);
    let (text, refusal) = app.message.clone().expect("a message");
    assert!(refusal);
    assert!(text.contains("not a combination"), "{text}");
    assert_eq!(app.table.game().hand(app.table.me()), before);
    insta::assert_snapshot!(screen(&app, 80, 24));
    // Passing while leading is refused too.
    press(&mut app, KeyCode::Backspace);
    press(&mut app, KeyCode::Char('p'));
    assert!(app.message.clone().unwrap().0.contains("cannot pass"));
    // An empty selection says what to do.
    press(&mut app, KeyCode::Enter);
    assert!(app.message.clone().unwrap().0.contains("select some cards"));
}

/// At seed 7 you lead a K and a robot beats it with a higher single; your lowest card then
/// does not beat that and is refused.
#[test]
fn a_card_that_does_not_beat_is_refused() {
    let mut app = playing();
    keys(&mut app, "k");
    press(&mut app, KeyCode::Enter);
    robots(&mut app);
    assert!(app.table.my_turn());
    let (seat, last) = app.table.game().last().expect("a robot beat the K");
    assert_ne!(seat, app.table.me());
    assert_eq!(last.card_count(), 1, "{last:?}");
    assert!(last.main() > ddz_core::Rank::King, "{last:?}");
    let hand = app.table.game().hand(app.table.me());
    let before = hand;
    assert!(hand.lowest().unwrap() <= last.main());
    app.selected = CardSet::EMPTY;
    app.cursor = 0;
    press(&mut app, KeyCode::Char(' '));
    assert_eq!(app.selected.to_cards().lowest(), hand.lowest());
    assert_eq!(app.selected.len(), 1);
    press(&mut app, KeyCode::Enter);
    let (text, refusal) = app.message.clone().unwrap();
    assert!(refusal && text.contains("does not beat"), "{text}");
    assert_eq!(app.table.game().hand(app.table.me()), before);
}

#[test]
fn hints_cycle_and_preselect_and_enter_plays_them() {
    let mut app = playing();
    press(&mut app, KeyCode::Char('h'));
    let first = app.hint.expect("a hint");
    assert_eq!(app.selected.to_cards(), first.cards());
    press(&mut app, KeyCode::Char('h'));
    let second = app.hint.expect("a second hint");
    assert_ne!(first, second);
    let hand = app.table.game().hand(app.table.me());
    press(&mut app, KeyCode::Enter);
    assert_eq!(
        app.table.game().hand(app.table.me()),
        hand.minus(second.cards())
    );
    robots(&mut app);
    insta::assert_snapshot!(screen(&app, 80, 24));
}

/// A laizi game where your hand holds two wild cards and a pair: selecting the four has
/// several readings (a soft bomb, a trio with a single...).
#[test]
fn reading_choice_screen() {
    for seed in 0..200 {
        let mut app = App::new(table(Profile::Laizi, seed));
        robots(&mut app);
        if !app.table.my_turn() || app.table.game().phase() != Phase::Bidding {
            continue;
        }
        let bids = app.table.my_bids();
        press(
            &mut app,
            KeyCode::Char(char::from(b'0' + bids[bids.len() - 1])),
        );
        robots(&mut app);
        if !app.table.my_turn() || app.table.game().last().is_some() {
            continue;
        }
        let rules = app.table.rules();
        let hand = app.table.game().hand(app.table.me());
        let wild = rules.laizi.iter().next().unwrap();
        if hand.count(wild) < 2 {
            continue;
        }
        let Some(pair) = hand
            .ranks()
            .find(|&r| r != wild && hand.count(r) == 2 && r < ddz_core::Rank::SmallJoker)
        else {
            continue;
        };
        let key = |r: ddz_core::Rank| r.letter().to_ascii_lowercase();
        keys(
            &mut app,
            &[key(pair), key(pair), key(wild), key(wild)]
                .iter()
                .collect::<String>(),
        );
        press(&mut app, KeyCode::Enter);
        let Mode::Readings { readings, .. } = app.mode.clone() else {
            panic!("seed {seed}: no reading choice: {:?}", app.message);
        };
        assert!(readings.len() >= 2);
        press(&mut app, KeyCode::Down);
        insta::assert_snapshot!(screen(&app, 80, 24));
        let hand = app.table.game().hand(app.table.me());
        press(&mut app, KeyCode::Enter);
        assert_eq!(app.mode, Mode::Table);
        let played = app.table.game().history().last().unwrap();
        assert_eq!(played.1, readings[1]);
        assert_eq!(
            app.table.game().hand(app.table.me()),
            hand.minus(readings[1].cards())
        );
        return;
    }
    panic!("no seed gave a hand with two wild cards and a pair");
}

#[test]
fn game_over_screen_and_next_game() {
    let mut app = playing();
    while !app.table.is_over() {
        if app.table.my_turn() {
            let events = app.table.auto_step().expect("auto plays");
            assert!(!events.is_empty());
        }
        robots(&mut app);
    }
    let text = screen(&app, 80, 24);
    // The popup's frame is the only one around the outcome, and the status line is not the
    // last robot's move from before the game ended.
    assert!(!text.contains("└└") && !text.contains("│┌"), "{text}");
    assert!(!text.contains("passes"), "{text}");
    insta::assert_snapshot!(text);
    // a: the analysis of your plays, scrolled, then closed by any other key.
    press(&mut app, KeyCode::Char('a'));
    let Mode::Analysis { lines, top: 0 } = app.mode.clone() else {
        panic!("a at game over opens the analysis: {:?}", app.mode);
    };
    let me = app.table.me();
    assert!(
        lines.iter().any(|l| l.starts_with(&format!("seat {me}: "))),
        "{lines:?}"
    );
    assert!(
        lines
            .iter()
            .all(|l| !l.contains(" seat ") || l.contains(&format!(" seat {me} ")))
    );
    let text = screen(&app, 80, 24);
    assert!(text.contains("analysis of your plays"), "{text}");
    press(&mut app, KeyCode::Down);
    assert!(matches!(app.mode, Mode::Analysis { top: 1, .. }));
    press(&mut app, KeyCode::Esc);
    assert_eq!(app.mode, Mode::Table);
    let total = app.table.totals()[app.table.me()];
    press(&mut app, KeyCode::Enter);
    assert_eq!(app.table.number(), 2);
    assert_eq!(app.table.seed(), 8);
    assert_eq!(app.table.totals()[app.table.me()], total);
    assert!(!app.table.is_over());
}

#[test]
fn help_and_quit_ask_first() {
    let mut app = playing();
    press(&mut app, KeyCode::Char('?'));
    assert_eq!(app.mode, Mode::Help);
    insta::assert_snapshot!(screen(&app, 80, 24));
    press(&mut app, KeyCode::Char('x'));
    assert_eq!(app.mode, Mode::Table);
    press(&mut app, KeyCode::Esc);
    assert_eq!(app.mode, Mode::ConfirmQuit);
    press(&mut app, KeyCode::Char('n'));
    assert!(!app.quit);
    press(&mut app, KeyCode::Esc);
    press(&mut app, KeyCode::Char('y'));
    assert!(app.quit);
}

#[test]
fn a_small_terminal_gets_a_message() {
    let app = playing();
    let text = screen(&app, 60, 20);
    assert!(text.contains("needs at least 80×24"), "{text}");
    insta::assert_snapshot!(text);
}

/// No built-in profile bids call-and-rob: classic rules with call-and-rob bidding, seed 3.
#[test]
fn call_and_rob_bidding_keys() {
    let mut rules = Rules::classic();
    rules.bidding = ddz_core::Bidding::CallRob;
    let mut app = App::new(
        Table::new(Options {
            rules,
            bots: ["value".parse().unwrap(), "value".parse().unwrap()],
            hint_bot: "value".parse().unwrap(),
            seat: Seat::ALL[0],
            seed: 3,
            records: None,
        })
        .unwrap(),
    );
    robots(&mut app);
    assert!(app.table.my_turn());
    assert_eq!(app.table.game().phase(), Phase::Bidding);
    let bids = app.table.game().bids().len();
    press(&mut app, KeyCode::Char('2'));
    assert!(app.message.clone().unwrap().1, "2 is no call-and-rob key");
    assert_eq!(app.table.game().bids().len(), bids);
    press(&mut app, KeyCode::Char('c'));
    assert_eq!(app.table.game().bids().len(), bids + 1);
    assert_eq!(app.table.game().bids()[bids], (Seat::ALL[0], 1));
}

/// A hint and what enter does agree: when the hint is a pass (nothing beats the table),
/// enter passes rather than asking for cards.
#[test]
fn enter_plays_a_pass_hint() {
    for seed in 0..40 {
        let mut app = App::new(table(Profile::Classic, seed));
        robots(&mut app);
        // You bid what the hint robot would (enter would not bid), then follow its hints.
        while !app.table.is_over() && app.table.game().phase() != Phase::Playing {
            app.table.auto_step().expect("the hint robot bids");
            robots(&mut app);
        }
        while !app.table.is_over() && app.table.my_turn() {
            press(&mut app, KeyCode::Char('h'));
            let hint = app.hint.expect("a hint on your turn");
            let turn = app.table.game().turn();
            let hand = app.table.game().hand(turn);
            press(&mut app, KeyCode::Enter);
            let (text, refusal) = app.message.clone().unwrap_or_default();
            assert!(
                !refusal,
                "seed {seed}: enter after the hint {hint:?} said {text}"
            );
            if hint.is_pass() {
                assert_eq!(app.table.game().hand(turn), hand);
                assert_ne!(
                    app.table.game().turn(),
                    turn,
                    "seed {seed}: the pass was played"
                );
                return;
            }
            robots(&mut app);
        }
    }
    panic!("no seed gave a pass hint");
}
