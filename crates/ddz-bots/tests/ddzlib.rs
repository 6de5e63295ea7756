//! The ddzlib split, hand count and robot: the seed's vectors (data files under `tests/data`),
//! properties on seeded random hands and positions under every profile, seeded games against
//! the baselines, and a strength check.

use std::fs;
use std::path::Path;

use ddz_bots::ddzlib::{DdzlibBot, desired_bid, hand_count, split};
use ddz_bots::{Bot, Greedy, RandomBot, bot_seed, play_game};
use ddz_core::{
    Bidding, Cards, Kind, Move, Profile, Rank, Rules, is_legal, legal_moves, parse_move,
};
use ddz_game::{BySeat, Deal, Game, Phase, Seat, SeatView, Side};
use ddz_game::{below, rng, shuffle};

/// The non-comment lines of a data file, each split at `|` and trimmed, with line numbers.
fn data(name: &str) -> Vec<(usize, Vec<String>)> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data")
        .join(name);
    let text = fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    text.lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty() && !l.trim_start().starts_with('#'))
        .map(|(i, l)| (i + 1, l.split('|').map(|f| f.trim().to_string()).collect()))
        .collect()
}

/// The rules of `profile laizi` (`laizi` a comma-separated list of ranks or `-`).
fn rules_of(spec: &str) -> Rules {
    let (profile, laizi) = spec.split_once(' ').unwrap_or((spec, "-"));
    let rules = Rules::profile(profile.parse::<Profile>().unwrap());
    if laizi.trim() == "-" {
        return rules;
    }
    let ranks: Vec<Rank> = laizi
        .trim()
        .split(',')
        .map(|r| Rank::from_letter(r.chars().next().unwrap()).unwrap())
        .collect();
    rules.with_laizi(&ranks).unwrap()
}

fn cards(s: &str) -> Cards {
    s.parse().unwrap_or_else(|e| panic!("{s}: {e:?}"))
}

/// The split of `hand` is a list of legal kicker-free groups whose cards are exactly the hand.
fn check_split(hand: Cards, rules: &Rules, groups: &[Move], what: &str) {
    let mut total = Cards::EMPTY;
    for g in groups {
        assert!(
            matches!(
                g.kind(),
                Kind::Single
                    | Kind::Pair
                    | Kind::Trio
                    | Kind::Straight
                    | Kind::PairChain
                    | Kind::Airplane
                    | Kind::Bomb
                    | Kind::Rocket
            ),
            "{what}: group {g} has kickers"
        );
        assert!(
            is_legal(hand, None, g, rules),
            "{what}: group {g} is not a legal play"
        );
        total = total.union(g.cards());
    }
    assert_eq!(
        total, hand,
        "{what}: groups {groups:?} do not make the hand"
    );
}

#[test]
fn split_vectors() {
    let cases = data("ddzlib_splits.txt");
    assert!(cases.len() >= 20);
    for (line, f) in cases {
        let rules = rules_of(&f[0]);
        let hand = cards(&f[1]);
        let got = split(hand, &rules);
        let what = format!("line {line} ({})", f[1]);
        check_split(hand, &rules, &got, &what);
        let mut got: Vec<String> = got.iter().map(|m| m.cards().to_string()).collect();
        let mut want: Vec<String> = f[2]
            .split_whitespace()
            .map(|g| cards(g).to_string())
            .collect();
        got.sort();
        want.sort();
        assert_eq!(got, want, "{what}");
        assert_eq!(hand_count(hand, &rules), want.len(), "{what}");
    }
}

#[test]
fn the_readme_hand_needs_nine_plays_and_groups_match_it() {
    let rules = Rules::classic();
    let groups = split(cards("22AAKQJ9987776654"), &rules);
    let kinds: Vec<(Kind, Rank)> = groups.iter().map(|m| (m.kind(), m.main())).collect();
    for want in [
        (Kind::Straight, Rank::Nine),
        (Kind::Pair, Rank::Two),
        (Kind::Pair, Rank::Ace),
        (Kind::Pair, Rank::Seven),
        (Kind::Single, Rank::Six),
        (Kind::Single, Rank::Nine),
        (Kind::Single, Rank::Jack),
        (Kind::Single, Rank::Queen),
        (Kind::Single, Rank::King),
    ] {
        assert!(kinds.contains(&want), "{want:?} missing from {kinds:?}");
    }
    assert_eq!(hand_count(cards("22AAKQJ9987776654"), &rules), 9);
}

/// A view of a game in play: the landlord is seat 0, `me` holds `hand`, the others hold
/// `left` cards, and `last` is on the table.
fn view_for(
    rules: &Rules,
    me: Seat,
    hand: Cards,
    left: [u32; 3],
    last: Option<(Seat, Move)>,
) -> SeatView {
    SeatView::position(rules, me, Seat::ALL[0], hand, BySeat(left), last)
}

fn seat_of(role: &str) -> Seat {
    match role {
        "landlord" => Seat::ALL[0],
        "down" => Seat::ALL[1],
        "up" => Seat::ALL[2],
        _ => panic!("unknown role {role}"),
    }
}

#[test]
fn robot_vectors() {
    let cases = data("ddzlib_robot.txt");
    assert!(cases.len() >= 30);
    for (line, f) in cases {
        let rules = rules_of(&f[0]);
        let me = seat_of(&f[1]);
        let hand = cards(&f[2]);
        let left: Vec<u32> = f[3].split(',').map(|n| n.parse().unwrap()).collect();
        let last = (f[4] != "-").then(|| {
            let (role, m) = f[4].split_once(':').unwrap();
            (seat_of(role), parse_move(m, &rules, None).unwrap())
        });
        let view = view_for(&rules, me, hand, [left[0], left[1], left[2]], last);
        let allowed = legal_moves(hand, last.map(|l| l.1).as_ref(), &rules);
        let got = DdzlibBot::new().play(&view, &allowed);
        let want = if f[5] == "pass" {
            Move::PASS
        } else {
            parse_move(&f[5], &rules, last.map(|l| l.1).as_ref()).unwrap()
        };
        assert!(allowed.contains(&got), "line {line}: {got} not allowed");
        assert_eq!(
            (got.cards(), got.kind()),
            (want.cards(), want.kind()),
            "line {line}: {} played {got}, expected {want}",
            f[2]
        );
    }
}

#[test]
fn bids_follow_the_split() {
    let classic = Rules::classic();
    // Rocket, three 2s, an ace-high straight: strong.
    assert_eq!(desired_bid(cards("3456789TJQKA2BR22"), &classic), 3);
    // Many loose cards and no control: pass.
    assert_eq!(desired_bid(cards("33457799TJJQKKAA2"), &classic), 0);
    let mut bot = DdzlibBot::new();
    let bidding = |rules: &Rules, hand: &str, bids: Vec<(Seat, u8)>| {
        SeatView::bidding(rules, Seat::ALL[0], cards(hand), bids)
    };
    let view = bidding(&classic, "3456789TJQKA2BR22", vec![]);
    assert_eq!(bot.bid(&view, &[0, 1, 2, 3]), 3);
    // Bidding already past what it wants: pass.
    let view = bidding(&classic, "34567899JJQQK2AKA", vec![]);
    let want = desired_bid(view.hand(), &classic);
    assert!((1..3).contains(&want), "{want}");
    assert_eq!(bot.bid(&view, &[0, 3]), 0);
    assert_eq!(bot.bid(&view, &[0, 1, 2, 3]), want);
    // A controller that allows no pass gets the closest bid.
    assert_eq!(bot.bid(&view, &[3]), 3);
    // Call and rob: call from 1, rob from 2.
    let mut call_rob = classic.clone();
    call_rob.bidding = Bidding::CallRob;
    let view = bidding(&call_rob, "33457799TJJQKKAA2", vec![]);
    assert_eq!(bot.bid(&view, &[0, 1]), 0);
    let view = bidding(&call_rob, "3456789TJQKA2BR22", vec![(Seat::ALL[2], 1)]);
    assert_eq!(bot.bid(&view, &[0, 1]), 1);
}

/// Hands to test the split on: each deal's three hands (the first with the kitty half the
/// time, as a landlord's 20 cards) and a random part of the deck of 1 to 20 cards, with the
/// deal's wild ranks.
fn random_hands(profile: Profile, deals: u64) -> Vec<(Cards, Rules)> {
    let base = Rules::profile(profile);
    let mut out = Vec::new();
    for seed in 0..deals {
        let deal = Deal::from_seed(seed, &base);
        let rules = base.with_laizi(&deal.laizi).unwrap();
        for (i, hand) in deal.hands.0.iter().enumerate() {
            let mut h = hand.to_cards();
            if i == 0 && seed % 2 == 0 {
                h = h.union(deal.kitty.to_cards());
            }
            out.push((h, rules.clone()));
        }
        let mut r = rng(seed ^ 0x5EED);
        let mut deck: Vec<Rank> = Cards::FULL_DECK.iter().collect();
        shuffle(&mut r, &mut deck);
        let n = 1 + below(&mut r, 20) as usize;
        let part = deck[..n].iter().fold(Cards::EMPTY, |acc, &k| acc.add(k, 1));
        out.push((part, rules));
    }
    out
}

#[test]
fn splits_are_legal_and_add_up_under_every_profile() {
    for profile in Profile::ALL {
        let hands = random_hands(profile, 600);
        for (hand, rules) in &hands {
            let groups = split(*hand, rules);
            check_split(*hand, rules, &groups, &format!("{profile} {hand}"));
            assert_eq!(hand_count(*hand, rules), groups.len());
            assert_eq!(
                split(*hand, rules),
                groups,
                "{profile} {hand}: not deterministic"
            );
        }
    }
}

/// Runs `f` on every position of `games` seeded games of random robots under `rules`: the
/// view of the seat to play and its legal moves.
fn positions(rules: &Rules, games: u64, mut f: impl FnMut(&SeatView, &[Move], u64)) {
    for seed in 0..games {
        let mut game = Game::new(rules, seed);
        let mut bots = Seat::ALL.map(|s| RandomBot::new(bot_seed(seed, s)));
        let mut step = 0;
        while game.phase() != Phase::Over {
            let seat = game.turn();
            let view = game.view(seat);
            let bot = &mut bots[seat.index()];
            if game.phase() == Phase::Bidding {
                let bid = bot.bid(&view, &view.legal_bids());
                game.bid(seat, bid).unwrap();
            } else if game.phase() != Phase::Playing {
                // Show and doubling decisions (huanle): the robot's answer.
                let action = bot.act(&view, &game.legal_actions()).unwrap();
                game.act(seat, action).unwrap();
            } else {
                let allowed = game.legal_moves();
                f(&view, &allowed, seed * 1000 + step);
                step += 1;
                game.play(seat, bot.play(&view, &allowed)).unwrap();
            }
        }
    }
}

#[test]
fn the_robot_plays_only_allowed_moves_even_from_narrower_lists() {
    for profile in Profile::ALL {
        let rules = Rules::profile(profile);
        let mut bot = DdzlibBot::new();
        positions(&rules, 40, |view, allowed, seed| {
            let m = bot.play(view, allowed);
            assert!(allowed.contains(&m), "{profile}: {m} not allowed");
            // A controller may allow fewer moves: any non-empty part of the list.
            let mut r = rng(seed);
            let part: Vec<Move> = allowed
                .iter()
                .copied()
                .filter(|_| below(&mut r, 3) > 0)
                .collect();
            let part = if part.is_empty() {
                vec![allowed[0]]
            } else {
                part
            };
            let m = bot.play(view, &part);
            assert!(part.contains(&m), "{profile}: {m} not in the narrower list");
        });
    }
}

#[test]
fn the_robot_never_panics_on_an_empty_list() {
    let rules = Rules::classic();
    let view = view_for(&rules, Seat::ALL[0], cards("345"), [3, 17, 17], None);
    assert_eq!(DdzlibBot::new().play(&view, &[]), Move::PASS);
    assert_eq!(DdzlibBot::new().bid(&view, &[]), 0);
}

/// The rule sets of `profile` the games run under: its own bidding form, and the other one it
/// is played with (call-and-rob for the points-bidding profiles, points for Botzone's
/// FightTheLandlord2).
fn configs(profile: Profile) -> Vec<Rules> {
    let rules = Rules::profile(profile);
    let mut other = rules.clone();
    match rules.bidding {
        Bidding::Points => other.bidding = Bidding::CallRob,
        Bidding::Fixed if profile == Profile::Botzone => other.bidding = Bidding::Points,
        _ => return vec![rules],
    }
    vec![rules, other]
}

/// The robots of a pairing for `seed`: ddzlib alone in seat 0 on even seeds, in seats 1 and 2
/// on odd ones.
fn pairing(other: &str, seed: u64) -> [Box<dyn Bot>; 3] {
    Seat::ALL.map(|s| -> Box<dyn Bot> {
        let name = if (s.index() == 0) == seed.is_multiple_of(2) {
            "ddzlib"
        } else {
            other
        };
        match name {
            "ddzlib" => Box::new(DdzlibBot::new()),
            "greedy" => Box::new(Greedy),
            _ => Box::new(RandomBot::new(bot_seed(seed, s))),
        }
    })
}

/// Plays `games` seeded games of ddzlib against random, greedy and itself under every
/// configuration of `profiles`; `play_game` fails on any illegal action.
fn play_all(profiles: &[Profile], games: u64) {
    for &profile in profiles {
        for rules in configs(profile) {
            for other in ["random", "greedy", "ddzlib"] {
                for seed in 0..games {
                    let game =
                        play_game(&rules, seed, &mut pairing(other, seed)).unwrap_or_else(|e| {
                            panic!("{profile} {:?} vs {other} seed {seed}: {e}", rules.bidding)
                        });
                    assert!(game.result().is_some());
                }
            }
        }
    }
}

#[test]
fn legal_games_classic_douzero_rlcard_botzone() {
    use Profile::*;
    play_all(&[Classic, Douzero, Rlcard, Botzone], 300);
}

// The wild profiles' games cost more (move generation and the split try every reading of the
// wild cards): fewer games in the normal run, 10,000 in the ignored one.
#[test]
fn legal_games_laizi() {
    play_all(&[Profile::Laizi], 200);
}

#[test]
fn legal_games_tiandi() {
    play_all(&[Profile::Tiandi], 100);
}

#[test]
#[ignore = "10,000 games per pairing, profile and bidding form; run with --ignored"]
fn ten_thousand_games_per_pairing() {
    let start = std::time::Instant::now();
    play_all(&Profile::ALL, 10_000);
    println!("300,000 games in {:?}", start.elapsed());
}

/// Games the landlord side wins out of `games`, fixed landlord in seat 0.
fn landlord_wins(landlord: &str, farmers: &str, games: u64) -> u64 {
    let mut rules = Rules::classic();
    rules.bidding = Bidding::Fixed;
    let make = |name: &str, seed: u64, s: Seat| -> Box<dyn Bot> {
        match name {
            "ddzlib" => Box::new(DdzlibBot::new()),
            _ => Box::new(RandomBot::new(bot_seed(seed, s))),
        }
    };
    (0..games)
        .filter(|&seed| {
            let mut bots =
                Seat::ALL.map(|s| make(if s.index() == 0 { landlord } else { farmers }, seed, s));
            let game = play_game(&rules, seed, &mut bots).unwrap();
            game.result().unwrap().winner == Side::Landlord
        })
        .count() as u64
}

#[test]
fn ddzlib_beats_random_robots_on_both_sides() {
    let games = 300;
    let as_landlord = landlord_wins("ddzlib", "random", games);
    let as_farmers = games - landlord_wins("random", "ddzlib", games);
    println!("ddzlib won {as_landlord} of {games} as landlord, {as_farmers} as farmers");
    assert!(
        as_landlord * 10 > games * 7,
        "landlord won {as_landlord} of {games}"
    );
    assert!(
        as_farmers * 10 > games * 7,
        "farmers won {as_farmers} of {games}"
    );
}
