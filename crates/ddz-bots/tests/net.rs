//! The `net` robot: the shipped weights load and play legal games under the profile they
//! were trained for (the engine checks every move), bid, and bad options or weights files
//! are clear errors.

use ddz_bots::net::Net;
use ddz_bots::{BotSpec, make_bot, play_game};
use ddz_core::Rules;

#[test]
fn shipped_weights_name_how_they_were_made() {
    let nets = Net::shipped_ensemble();
    assert_eq!(nets.len(), 4);
    assert_eq!(
        nets[0],
        Net::embedded(),
        "the search robot's network is the first"
    );
    let mut size = 0;
    let small = Net::small();
    assert_eq!(small.mlp().widths(), [128, 64, 1], "the playouts' network");
    for net in nets.iter().chain([&small]) {
        let meta = net.mlp().metadata();
        assert_eq!(meta.get("rules").map(String::as_str), Some("classic"));
        for key in ["frames", "games", "seconds", "command", "method"] {
            assert!(meta.contains_key(key), "no {key} in {meta:?}");
        }
        size += net.mlp().parameters() * 4;
    }
    assert!(size <= 10 << 20, "{size} bytes of weights");
}

#[test]
fn an_ensemble_averages_its_networks_scores() {
    use ddz_game::{Seat, SeatView};
    let dir = std::env::temp_dir().join(format!("ddz-net-ensemble-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let nets = Net::shipped_ensemble();
    let files: Vec<String> = nets
        .iter()
        .enumerate()
        .map(|(i, net)| {
            let file = dir.join(format!("{i}.safetensors"));
            std::fs::write(&file, net.mlp().to_safetensors()).unwrap();
            file.display().to_string()
        })
        .collect();
    let rules = Rules::classic();
    let view = SeatView::bidding(
        &rules,
        Seat::ALL[0],
        "BR2222AAAKKKQQJJT".parse().unwrap(),
        vec![],
    );
    let bid = |spec: &str| make_bot(spec, 7).unwrap().bid(&view, &[0, 1, 2, 3]);
    // The default is the three files' ensemble: the same bids as naming them.
    let all = format!("net:weights={}", files.join("+"));
    assert_eq!(bid("net"), bid(&all));
    // The ensemble plays as the default does, and otherwise than its first network alone.
    let game = |spec: &str| {
        let mut bots = [
            make_bot(spec, 3).unwrap(),
            make_bot("ddzlib", 3).unwrap(),
            make_bot(spec, 4).unwrap(),
        ];
        (0..6u64)
            .map(|seed| format!("{:?}", play_game(&rules, seed, &mut bots).unwrap()))
            .collect::<Vec<_>>()
    };
    assert_eq!(game("net"), game(&all));
    assert_ne!(game("net"), game(&format!("net:weights={}", files[0])));
    let _ = std::fs::remove_dir_all(&dir);
}

/// The screened ensemble against a computation of its definition from each network's own
/// scores: the first network's `rescore` best-scored plays (ties to the earlier play), and
/// among them the best mean over the networks (the first of equals).
#[test]
fn screening_picks_the_best_mean_among_the_first_networks_best() {
    use ddz_bots::net::features::Position;
    use ddz_bots::net::{Ensemble, Scorer};
    use ddz_core::{Cards, Rank, RankSet};
    use ddz_game::{BySeat, Seat};
    use ddz_game::{rng, shuffle};
    let rules = Rules::classic();
    let nets = Net::shipped_ensemble();
    let mut ensemble = Ensemble::new(&nets);
    let mut scorers: Vec<Scorer> = nets.iter().cloned().map(Scorer::new).collect();
    let (mut screened, mut differs) = (0, 0);
    for seed in 0..40u64 {
        let mut deck: Vec<Rank> = Cards::FULL_DECK.iter().collect();
        shuffle(&mut rng(seed), &mut deck);
        let hand: Cards = deck[..20].iter().copied().collect();
        let mut moves = Vec::new();
        ddz_core::legal_moves_into(hand, None, &rules, &mut moves);
        let pos = Position {
            seat: Seat::ALL[0],
            landlord: Seat::ALL[0],
            hand,
            cards_left: BySeat([20, 17, 17]),
            played: BySeat::default(),
            history: &[],
            last: None,
            laizi: RankSet::EMPTY,
        };
        let each: Vec<Vec<f32>> = scorers
            .iter_mut()
            .map(|scorer| {
                let mut out = Vec::new();
                scorer.scores(&pos, &rules, &moves, &mut out);
                out
            })
            .collect();
        let mean = |k: usize| {
            each.iter().fold(0.0f32, |total, scores| total + scores[k]) / each.len() as f32
        };
        let best_among = |picked: &[usize]| {
            let mut best = picked[0];
            for &k in picked {
                if mean(k) > mean(best) {
                    best = k;
                }
            }
            best
        };
        let every: Vec<usize> = (0..moves.len()).collect();
        for rescore in [0, 4, 32] {
            ensemble.set_rescore(rescore);
            let want = if rescore == 0 || moves.len() <= rescore {
                best_among(&every)
            } else {
                screened += 1;
                let mut order = every.clone();
                order.sort_by(|&a, &b| each[0][b].total_cmp(&each[0][a]).then(a.cmp(&b)));
                let mut picked = order[..rescore].to_vec();
                picked.sort();
                let pick = best_among(&picked);
                differs += usize::from(pick != best_among(&every));
                pick
            };
            let (got, score) = ensemble.best(&pos, &rules, &moves);
            assert_eq!(got, want, "seed {seed}, rescore {rescore}");
            assert_eq!(score, mean(want), "seed {seed}, rescore {rescore}");
        }
    }
    // Most openings have more than 32 plays, and screening to 4 changes some choices (so
    // the comparison above is not of equal things by construction).
    assert!(screened > 40, "{screened} screened");
    assert!(differs > 0);
}

#[test]
fn plays_legal_games_with_and_without_bidding() {
    for (rules, seeds) in [(Rules::classic(), 0..30u64), (Rules::huanle(), 0..10)] {
        for seed in seeds {
            let mut bots = [
                make_bot("net", seed).unwrap(),
                make_bot("ddzlib", seed).unwrap(),
                make_bot("net", seed + 1).unwrap(),
            ];
            let game =
                play_game(&rules, seed, &mut bots).unwrap_or_else(|e| panic!("seed {seed}: {e}"));
            assert!(game.result().is_some());
        }
    }
}

#[test]
fn deterministic_for_a_seed() {
    let rules = Rules::huanle();
    let play = || {
        let mut bots = [
            make_bot("net", 3).unwrap(),
            make_bot("net", 4).unwrap(),
            make_bot("net", 5).unwrap(),
        ];
        let game = play_game(&rules, 11, &mut bots).unwrap();
        (game.history().collect::<Vec<_>>(), game.landlord())
    };
    assert_eq!(play(), play());
}

#[test]
fn search_with_the_network_is_deterministic_whatever_the_threads() {
    let rules = Rules::classic();
    let play = |threads: usize| {
        let spec = format!("search:iters=300:threads={threads}");
        let mut bots = [
            make_bot(&spec, 1).unwrap(),
            make_bot("ddzlib", 2).unwrap(),
            make_bot("net", 3).unwrap(),
        ];
        play_game(&rules, 5, &mut bots)
            .unwrap()
            .history()
            .collect::<Vec<_>>()
    };
    assert_eq!(play(1), play(2));
}

#[test]
fn search_with_the_network_in_its_playouts_is_deterministic_and_differs() {
    use ddz_bots::Bot;
    use ddz_bots::search::{SearchBot, SearchConfig};
    use ddz_game::Budget;
    let rules = Rules::classic();
    // The search with its last rounds by the network (the default under classic rules) or
    // without (`final_net` 0), on `threads` threads.
    let play = |final_net: Option<usize>, threads: usize| {
        let config = SearchConfig {
            budget: Some(Budget::Count(60)),
            threads,
            final_net,
            ..SearchConfig::default()
        };
        let search = |seed| -> Box<dyn Bot + Send> { Box::new(SearchBot::new(config, seed)) };
        let mut bots = [search(1), make_bot("ddzlib", 2).unwrap(), search(3)];
        // Three games, so that a change of some decisions shows in one of them (one game's
        // plays can come out the same by chance).
        (9..12)
            .map(|game| {
                play_game(&rules, game, &mut bots)
                    .unwrap()
                    .history()
                    .collect::<Vec<_>>()
            })
            .collect::<Vec<_>>()
    };
    let plain = play(Some(0), 1);
    let by_net = play(None, 1);
    assert_eq!(by_net, play(None, 2), "threads change the game");
    assert_ne!(by_net, plain, "the network's last rounds change nothing");
}

#[test]
fn a_strong_hand_is_likelier_to_win_as_landlord() {
    use ddz_bots::net::{NetBot, NetConfig};
    use ddz_game::{Seat, SeatView};
    let rules = Rules::classic();
    let config = NetConfig::parse(std::iter::empty()).unwrap();
    let chance = |hand: &str| {
        let view = SeatView::bidding(&rules, Seat::ALL[0], hand.parse().unwrap(), vec![]);
        NetBot::new(&config, 7).landlord_chance(&view)
    };
    let strong = chance("BR2222AAAKKKQQJJT");
    let weak = chance("3345567899TJQKA2B");
    assert!(
        strong > 0.7 && weak < strong - 0.3,
        "strong {strong}, weak {weak}"
    );
}

#[test]
fn bad_options_and_weights_are_errors() {
    for (spec, says) in [
        (
            "net:weights=/no/such/file.safetensors",
            "/no/such/file.safetensors",
        ),
        ("net:bid_at=2", "from 0 to 1"),
        ("net:depth=3", "unknown option"),
        ("net:weights", "key=value"),
        ("net:weights=+", "weights takes files joined by +"),
        ("net:rescore=-1", "rescore takes a number of plays"),
        ("net:rescore=all", "rescore takes a number of plays"),
    ] {
        let err = spec.parse::<BotSpec>().unwrap_err().to_string();
        assert!(err.contains(says), "{spec}: {err}");
    }
    let dir = std::env::temp_dir().join(format!("ddz-net-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let bad = dir.join("bad.safetensors");
    std::fs::write(&bad, b"not a weights file").unwrap();
    let err = format!("net:weights={}", bad.display())
        .parse::<BotSpec>()
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("bad.safetensors") && err.contains("not a ddz network"),
        "{err}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn search_reads_the_network_of_its_weights_option() {
    use ddz_bots::net::Mlp;
    let dir = std::env::temp_dir().join(format!("ddz-search-weights-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    // The shipped network, and the same with its output negated (best plays scored worst).
    let shipped = Net::embedded();
    let mut layers: Vec<(Vec<f32>, Vec<f32>)> = shipped
        .mlp()
        .layers()
        .map(|(w, b)| (w.to_vec(), b.to_vec()))
        .collect();
    let last = layers.last_mut().unwrap();
    last.0
        .iter_mut()
        .chain(last.1.iter_mut())
        .for_each(|x| *x = -*x);
    let inputs = shipped.mlp().inputs();
    let negated =
        Net::from_mlp(Mlp::from_layers(layers, inputs, Default::default()).unwrap()).unwrap();
    let (same, other) = (
        dir.join("same.safetensors"),
        dir.join("negated.safetensors"),
    );
    std::fs::write(&same, shipped.mlp().to_safetensors()).unwrap();
    std::fs::write(&other, negated.mlp().to_safetensors()).unwrap();

    let rules = Rules::classic();
    let game = |spec: &str| {
        let mut bots = [
            make_bot(spec, 1).unwrap(),
            make_bot("ddzlib", 2).unwrap(),
            make_bot("ddzlib", 3).unwrap(),
        ];
        play_game(&rules, 5, &mut bots)
            .unwrap()
            .history()
            .collect::<Vec<_>>()
    };
    let base = "search:iters=100";
    let shipped_game = game(base);
    assert_eq!(
        game(&format!("{base}:weights={}", same.display())),
        shipped_game
    );
    assert_ne!(
        game(&format!("{base}:weights={}", other.display())),
        shipped_game
    );
    // Several networks: the candidates and the prior read their mean score, so a network
    // twice over plays as once, and with its negation (a mean of zero) it does not.
    let (same, other) = (same.display(), other.display());
    assert_eq!(game(&format!("{base}:weights={same}+{same}")), shipped_game);
    assert_ne!(
        game(&format!("{base}:weights={same}+{other}")),
        shipped_game
    );

    // The playouts' own network (`pweights`; the last rounds play by the network under
    // classic rules): the shipped one named plays as none given, the negated one does not.
    let small = dir.join("small.safetensors");
    std::fs::write(&small, Net::small().mlp().to_safetensors()).unwrap();
    assert_eq!(
        game(&format!("{base}:pweights={}", small.display())),
        shipped_game
    );
    assert_ne!(game(&format!("{base}:pweights={other}")), shipped_game);

    for (spec, says) in [
        (
            "search:pweights=/no/such.safetensors".to_string(),
            "pweights=/no/such.safetensors",
        ),
        (
            "search:weights=/no/such.safetensors".to_string(),
            "/no/such.safetensors",
        ),
        (
            format!("search:weights={same}+"),
            "weights takes files joined by +",
        ),
        (
            format!("search:weights={same}+/no/such.safetensors"),
            "/no/such.safetensors",
        ),
    ] {
        let err = spec.parse::<BotSpec>().unwrap_err().to_string();
        assert!(err.contains(says), "{spec}: {err}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}
