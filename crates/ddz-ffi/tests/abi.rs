//! The C ABI called as a C program calls it: whole games on every profile, records that
//! replay, the buffer rules, the packed moves against the text ones, and every kind of bad
//! input answered with its status and a message.
#![allow(unsafe_code, clippy::undocumented_unsafe_blocks)]

use std::ffi::{CStr, CString, c_char};
use std::ptr::{null, null_mut};

use ddz_core::{Cards, Rules, legal_moves, move_notation};
use ddz_ffi::*;
use ddz_game::GameRecord;
use rand_chacha::ChaCha8Rng;
use rand_chacha::rand_core::{Rng, SeedableRng};

const PROFILES: [&str; 7] = [
    "classic", "laizi", "tiandi", "douzero", "rlcard", "botzone", "huanle",
];

fn c(text: &str) -> CString {
    CString::new(text).unwrap()
}

/// The last error as text.
fn last_error() -> Option<String> {
    let p = ddz_last_error();
    (!p.is_null()).then(|| unsafe { CStr::from_ptr(p) }.to_string_lossy().into_owned())
}

/// Calls a text-returning function the C way: asks the length, then fills a buffer.
fn text_of(call: impl Fn(*mut c_char, usize) -> i64) -> Result<String, (i64, String)> {
    let needed = call(null_mut(), 0);
    if needed < 0 {
        return Err((needed, last_error().unwrap_or_default()));
    }
    let mut buf = vec![0 as c_char; needed as usize + 1];
    let written = call(buf.as_mut_ptr(), buf.len());
    assert_eq!(written, needed);
    Ok(unsafe { CStr::from_ptr(buf.as_ptr()) }
        .to_string_lossy()
        .into_owned())
}

fn rules(profile: &str) -> *mut DdzRules {
    let rules = unsafe { ddz_rules_new(c(profile).as_ptr(), null()) };
    assert!(!rules.is_null(), "{profile}: {:?}", last_error());
    rules
}

/// Plays one game robot against robot through the ABI and returns its record.
fn play(rules: *const DdzRules, seed: u64, specs: [&str; 3]) -> String {
    let game = unsafe { ddz_game_new(rules, seed) };
    assert!(!game.is_null());
    let bots: Vec<*mut DdzBot> = specs
        .iter()
        .enumerate()
        .map(|(i, spec)| unsafe { ddz_bot_new(c(spec).as_ptr(), rules, seed * 3 + i as u64) })
        .collect();
    assert!(bots.iter().all(|b| !b.is_null()), "{:?}", last_error());
    let mut steps = 0;
    loop {
        let seat = unsafe { ddz_game_to_act(game) };
        if seat == -1 {
            break;
        }
        assert!((0..3).contains(&seat), "seat {seat}");
        let legal = text_of(|b, l| unsafe { ddz_game_legal_actions(game, b, l) }).unwrap();
        let action =
            text_of(|b, l| unsafe { ddz_bot_act(bots[seat as usize], game, b, l) }).unwrap();
        assert!(legal.lines().any(|a| a == action), "{action} among {legal}");
        let view = text_of(|b, l| unsafe { ddz_game_view_json(game, seat, b, l) }).unwrap();
        let view: serde_json::Value = serde_json::from_str(&view).unwrap();
        assert_eq!(view["format"], "ddz-view/1");
        assert_eq!(view["to_act"], seat);
        assert_eq!(
            unsafe { ddz_game_act(game, c(&action).as_ptr()) },
            0,
            "{:?}",
            last_error()
        );
        steps += 1;
        assert!(steps < 500, "the game does not end");
    }
    let mut scores = [0i64; 3];
    assert_eq!(unsafe { ddz_game_scores(game, scores.as_mut_ptr()) }, 0);
    assert_eq!(scores.iter().sum::<i64>(), 0, "zero-sum");
    let record = text_of(|b, l| unsafe { ddz_game_record_json(game, b, l) }).unwrap();
    for bot in bots {
        unsafe { ddz_bot_free(bot) };
    }
    unsafe { ddz_game_free(game) };
    record
}

#[test]
fn whole_games_on_every_profile_replay() {
    for profile in PROFILES {
        let rules = rules(profile);
        for seed in 0..6 {
            let record = play(rules, seed, ["ddzlib", "greedy", "random"]);
            let parsed = GameRecord::parse(&record).unwrap_or_else(|e| panic!("{profile}: {e}"));
            let game = parsed
                .replay()
                .unwrap_or_else(|e| panic!("{profile} {seed}: {e}"));
            assert!(game.result().is_some(), "{profile} {seed}: the replay ends");
        }
        unsafe { ddz_rules_free(rules) };
    }
}

#[test]
fn the_search_robot_plays_through_the_abi() {
    let rules = rules("classic");
    let record = play(rules, 11, ["search:iters=50", "ddzlib", "ddzlib"]);
    assert!(GameRecord::parse(&record).unwrap().replay().is_ok());
    unsafe { ddz_rules_free(rules) };
}

#[test]
fn text_results_follow_the_buffer_rules() {
    let rules = rules("classic");
    let hand = c("334455");
    let whole =
        text_of(|b, l| unsafe { ddz_legal_moves(rules, hand.as_ptr(), null(), b, l) }).unwrap();
    // A buffer too small: a NUL-terminated prefix, and the whole length returned.
    let mut small = [0x55 as c_char; 5];
    let needed = unsafe { ddz_legal_moves(rules, hand.as_ptr(), null(), small.as_mut_ptr(), 5) };
    assert_eq!(needed as usize, whole.len());
    let prefix = unsafe { CStr::from_ptr(small.as_ptr()) }.to_str().unwrap();
    assert_eq!(prefix, &whole[..4]);
    // NULL with a length is an error, NULL with 0 asks the length.
    let e = unsafe { ddz_legal_moves(rules, hand.as_ptr(), null(), null_mut(), 8) };
    assert_eq!(e, DdzStatus::DdzErrNull as i64);
    assert!(last_error().unwrap().contains("buf is NULL"));
    // A success clears the last error.
    assert!(unsafe { ddz_legal_moves(rules, hand.as_ptr(), null(), null_mut(), 0) } > 0);
    assert_eq!(last_error(), None);
    unsafe { ddz_rules_free(rules) };
}

#[test]
fn bad_input_is_an_error_with_a_message() {
    // A NULL rules pointer.
    let game = unsafe { ddz_game_new(null(), 1) };
    assert!(game.is_null());
    assert_eq!(last_error().unwrap(), "rules is NULL");
    let e = unsafe { ddz_legal_moves(null(), c("33").as_ptr(), null(), null_mut(), 0) };
    assert_eq!(e, DdzStatus::DdzErrNull as i64);
    // An unknown profile, bad wild ranks.
    assert!(unsafe { ddz_rules_new(c("poker").as_ptr(), null()) }.is_null());
    assert!(
        last_error().unwrap().contains("poker"),
        "{:?}",
        last_error()
    );
    assert!(unsafe { ddz_rules_new(c("classic").as_ptr(), c("9").as_ptr()) }.is_null());
    assert!(last_error().is_some());
    let rules = rules("classic");
    // An invalid hand.
    let e = unsafe { ddz_legal_moves(rules, c("33Z").as_ptr(), null(), null_mut(), 0) };
    assert_eq!(e, DdzStatus::DdzErrCards as i64);
    assert!(
        last_error().unwrap().starts_with("hand: "),
        "{:?}",
        last_error()
    );
    // Bad UTF-8.
    let bad = [0xffu8 as c_char, 0];
    let e = unsafe { ddz_classify(rules, bad.as_ptr(), null_mut(), 0) };
    assert_eq!(e, DdzStatus::DdzErrUtf8 as i64);
    // An illegal action leaves the game as it was.
    let game = unsafe { ddz_game_new(rules, 5) };
    let before = text_of(|b, l| unsafe { ddz_game_record_json(game, b, l) }).unwrap();
    let e = unsafe { ddz_game_act(game, c("bid 7").as_ptr()) };
    assert_eq!(e, DdzStatus::DdzErrIllegal as i32);
    assert!(
        last_error().unwrap().contains("bid 7"),
        "{:?}",
        last_error()
    );
    let e = unsafe { ddz_game_act(game, c("33").as_ptr()) };
    assert_eq!(e, DdzStatus::DdzErrIllegal as i32);
    assert!(
        last_error().unwrap().contains("the bidding is not over"),
        "{:?}",
        last_error()
    );
    // Text that is no action at all.
    let e = unsafe { ddz_game_act(game, c("bid high").as_ptr()) };
    assert_eq!(e, DdzStatus::DdzErrCards as i32);
    assert!(
        last_error().unwrap().contains("a bid is a whole number"),
        "{:?}",
        last_error()
    );
    let after = text_of(|b, l| unsafe { ddz_game_record_json(game, b, l) }).unwrap();
    assert_eq!(before, after);
    // A seat out of range.
    let e = unsafe { ddz_game_view_json(game, 3, null_mut(), 0) };
    assert_eq!(e, DdzStatus::DdzErrArgument as i64);
    // An unknown robot, an unknown option.
    assert!(unsafe { ddz_bot_new(c("champion").as_ptr(), rules, 1) }.is_null());
    assert!(
        last_error().unwrap().contains("champion"),
        "{:?}",
        last_error()
    );
    assert!(unsafe { ddz_bot_new(c("search:pnet=2").as_ptr(), rules, 1) }.is_null());
    assert!(last_error().unwrap().contains("pnet"), "{:?}", last_error());
    // Freeing NULL is nothing.
    unsafe {
        ddz_game_free(null_mut());
        ddz_bot_free(null_mut());
        ddz_rules_free(null_mut());
        ddz_game_free(game);
        ddz_rules_free(rules);
    }
}

#[test]
fn a_finished_game_refuses_more() {
    let rules = rules("douzero");
    let game = unsafe { ddz_game_new(rules, 2) };
    let bot = unsafe { ddz_bot_new(c("greedy").as_ptr(), rules, 1) };
    while unsafe { ddz_game_to_act(game) } >= 0 {
        let action = text_of(|b, l| unsafe { ddz_bot_act(bot, game, b, l) }).unwrap();
        assert_eq!(unsafe { ddz_game_act(game, c(&action).as_ptr()) }, 0);
    }
    assert_eq!(
        unsafe { ddz_game_act(game, c("pass").as_ptr()) },
        DdzStatus::DdzErrIllegal as i32
    );
    assert_eq!(
        text_of(|b, l| unsafe { ddz_game_legal_actions(game, b, l) }).unwrap(),
        ""
    );
    let e = unsafe { ddz_bot_act(bot, game, null_mut(), 0) };
    assert_eq!(e, DdzStatus::DdzErrIllegal as i64);
    unsafe {
        ddz_bot_free(bot);
        ddz_game_free(game);
        ddz_rules_free(rules);
    }
}

#[test]
fn packed_moves_are_the_text_moves() {
    let mut rng = ChaCha8Rng::seed_from_u64(53);
    for profile in PROFILES {
        let handle = rules(profile);
        let rust_rules = Rules::from_profile_name(profile).unwrap();
        let mut out = vec![DdzMove::default(); 4096];
        for _ in 0..300 {
            // A random hand of 5 to 20 cards of one deck.
            let mut counts = [4u64; 15];
            counts[13] = 1;
            counts[14] = 1;
            let mut hand = Cards::EMPTY;
            let size = 5 + rng.next_u32() as usize % 16;
            while hand.len() < size as u32 {
                let r = rng.next_u32() as usize % 15;
                if counts[r] > 0 {
                    counts[r] -= 1;
                    hand = Cards::from_bits(hand.bits() + (1 << (4 * r))).unwrap();
                }
            }
            let text = text_of(|b, l| unsafe {
                ddz_legal_moves(handle, c(&hand.to_string()).as_ptr(), null(), b, l)
            })
            .unwrap();
            let n = unsafe {
                ddz_legal_moves_packed(handle, hand.bits(), null(), out.as_mut_ptr(), out.len())
            };
            assert!(n >= 0, "{:?}", last_error());
            let packed: Vec<String> = out[..n as usize]
                .iter()
                .map(|m| text_of(|b, l| unsafe { ddz_move_text(handle, m, b, l) }).unwrap())
                .collect();
            let lines: Vec<&str> = text.lines().collect();
            assert_eq!(packed, lines, "{profile} {hand}");
            let rust: Vec<String> = legal_moves(hand, None, &rust_rules)
                .iter()
                .map(|m| move_notation(m, &rust_rules))
                .collect();
            assert_eq!(rust, lines, "{profile} {hand}");
            // Following the first non-pass move: the same through both paths.
            if let Some(beat) = out[..n as usize].first().copied() {
                let beat_text = &lines[0];
                let follow_text = text_of(|b, l| unsafe {
                    ddz_legal_moves(
                        handle,
                        c(&hand.to_string()).as_ptr(),
                        c(beat_text).as_ptr(),
                        b,
                        l,
                    )
                })
                .unwrap();
                let m = unsafe {
                    ddz_legal_moves_packed(handle, hand.bits(), &beat, out.as_mut_ptr(), out.len())
                };
                assert_eq!(
                    m as usize,
                    follow_text.lines().count(),
                    "{profile} {hand} after {beat_text}"
                );
            }
        }
        // Too little room: the count, and only `cap` written.
        let all = unsafe { ddz_legal_moves_packed(handle, 0x11_1111, null(), null_mut(), 0) };
        assert!(all > 1);
        let mut one = [DdzMove::default(); 1];
        assert_eq!(
            unsafe { ddz_legal_moves_packed(handle, 0x11_1111, null(), one.as_mut_ptr(), 1) },
            all
        );
        unsafe { ddz_rules_free(handle) };
    }
}

#[test]
fn classify_and_beats() {
    let rules = rules("classic");
    let readings =
        text_of(|b, l| unsafe { ddz_classify(rules, c("333444555666").as_ptr(), b, l) }).unwrap();
    assert!(
        readings.lines().any(|r| r == "333444555666:airplane:6"),
        "{readings}"
    );
    assert!(readings.lines().count() > 1);
    assert_eq!(
        text_of(|b, l| unsafe { ddz_classify(rules, c("34").as_ptr(), b, l) }).unwrap(),
        ""
    );
    assert_eq!(
        unsafe { ddz_beats(rules, c("2222").as_ptr(), c("BR").as_ptr()) },
        0
    );
    assert_eq!(
        unsafe { ddz_beats(rules, c("BR").as_ptr(), c("2222").as_ptr()) },
        1
    );
    assert_eq!(
        unsafe { ddz_beats(rules, c("44").as_ptr(), c("33").as_ptr()) },
        1
    );
    assert_eq!(
        unsafe { ddz_beats(rules, c("4").as_ptr(), c("33").as_ptr()) },
        0
    );
    assert_eq!(
        unsafe { ddz_beats(rules, c("34").as_ptr(), c("33").as_ptr()) },
        DdzStatus::DdzErrCards as i32
    );
    assert!(
        last_error().unwrap().starts_with("a: \"34\""),
        "{:?}",
        last_error()
    );
    let mut packed = 0u64;
    assert_eq!(
        unsafe { ddz_cards_pack(c("33BR").as_ptr(), &mut packed) },
        0
    );
    assert_eq!(packed, "33BR".parse::<Cards>().unwrap().bits());
    assert!(
        !unsafe { CStr::from_ptr(ddz_version()) }
            .to_str()
            .unwrap()
            .is_empty()
    );
    unsafe { ddz_rules_free(rules) };
}

#[test]
fn a_view_shows_only_what_the_seat_knows() {
    let rules = rules("classic");
    let game = unsafe { ddz_game_new(rules, 9) };
    let record = text_of(|b, l| unsafe { ddz_game_record_json(game, b, l) }).unwrap();
    let replayed = GameRecord::parse(&record).unwrap().replay().unwrap();
    let hand = |seat: i32| {
        replayed
            .hand(ddz_game::Seat::ALL[seat as usize])
            .to_string()
    };
    for seat in 0..3 {
        let view = text_of(|b, l| unsafe { ddz_game_view_json(game, seat, b, l) }).unwrap();
        let view: serde_json::Value = serde_json::from_str(&view).unwrap();
        assert_eq!(view["seat"], seat);
        assert_eq!(view["hand"], hand(seat), "{view}");
        for other in (0..3).filter(|&o| o != seat) {
            assert!(
                !view.to_string().contains(&hand(other)),
                "seat {seat} sees seat {other}'s hand"
            );
        }
        assert_eq!(view["kitty"], serde_json::Value::Null);
    }
    unsafe {
        ddz_game_free(game);
        ddz_rules_free(rules);
    }
}
