//! The arena's promises: self-play is exactly even, results do not depend on the thread count,
//! shards merge into exactly the unsharded run, reports survive their JSON, deal files play.

use ddz_arena::{Arena, Deals, Format, Report, Shard};
use ddz_bots::BotSpec;
use ddz_core::{Profile, Rules};
use ddz_game::{Deal, DealLine};

fn arena(rules: Rules, format: Format, count: u64) -> Arena {
    Arena {
        rules,
        format,
        seed: 11,
        deals: Deals::Seeded { count },
        shard: Shard::WHOLE,
    }
}

/// The specs of `names`.
fn specs(names: &[&str]) -> Vec<BotSpec> {
    names.iter().map(|n| n.parse().unwrap()).collect()
}

fn run(arena: &Arena, bots: &[&str], threads: usize) -> Report {
    let bots = specs(bots);
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .unwrap()
        .install(|| arena.run(&bots, &|_| {}, &|| {}))
        .unwrap()
}

/// The report without its timings.
fn figures(r: &Report) -> Report {
    let mut r = r.clone();
    for p in &mut r.pairs {
        p.seconds = 0.0;
    }
    r
}

#[test]
fn a_robot_against_itself_is_exactly_even() {
    for profile in [Profile::Classic, Profile::Laizi] {
        for format in [Format::Duplicate, Format::Bidding] {
            let r = run(
                &arena(Rules::profile(profile), format, 12),
                &["value", "value"],
                2,
            );
            let p = &r.pairs[0];
            assert_eq!(p.all.wins.estimate().mean, 0.5, "{profile:?} {format:?}");
            assert_eq!(p.all.points.estimate().mean, 0.0, "{profile:?} {format:?}");
            assert_eq!(p.all.wins.deals, 12);
            assert_eq!(p.games(), 12 * format.games_per_deal() as u64);
        }
    }
}

#[test]
fn thread_count_does_not_change_the_figures() {
    let a = arena(Rules::classic(), Format::Duplicate, 40);
    let bots = ["value", "ddzlib", "greedy"];
    assert_eq!(figures(&run(&a, &bots, 1)), figures(&run(&a, &bots, 2)));
    let b = arena(Rules::classic(), Format::Bidding, 10);
    assert_eq!(
        figures(&run(&b, &bots[..2], 1)),
        figures(&run(&b, &bots[..2], 2))
    );
}

#[test]
fn shards_merge_into_the_unsharded_run() {
    let whole = arena(Rules::classic(), Format::Duplicate, 30);
    let bots = ["ddzlib", "random"];
    let full = run(&whole, &bots, 2);
    let shards: Vec<Report> = (0..3)
        .map(|index| {
            let a = Arena {
                shard: Shard { index, count: 3 },
                ..whole.clone()
            };
            // Through JSON, as `ddz arena merge` reads them.
            let json = run(&a, &bots, 1).to_json().to_string();
            Report::from_json(&json).unwrap()
        })
        .collect();
    let merged = Report::merge(&shards).unwrap();
    assert_eq!(figures(&merged), figures(&full));
    assert_eq!(
        merged.to_json()["pairs"][0]["wp"],
        full.to_json()["pairs"][0]["wp"]
    );
    // A missing or repeated shard is an error naming it.
    let e = Report::merge(&shards[..2]).unwrap_err().to_string();
    assert!(e.contains("shard 2/3 is missing"), "{e}");
    let e = Report::merge(&[shards[0].clone(), shards[0].clone()]).unwrap_err();
    assert!(e.to_string().contains("given twice"), "{e}");
}

#[test]
fn strong_robots_beat_random_and_roles_add_up() {
    let r = run(
        &arena(Rules::classic(), Format::Duplicate, 60),
        &["ddzlib", "random"],
        2,
    );
    let p = &r.pairs[0];
    let wp = p.all.wins.estimate();
    assert!(
        wp.mean > 0.8 && wp.ci[0] < wp.mean && wp.mean < wp.ci[1],
        "{wp:?}"
    );
    assert!(p.all.points.estimate().mean > 0.0);
    // Duplicate deals: one game a deal in each role.
    assert_eq!(p.as_landlord.wins.games, 60);
    assert_eq!(p.as_farmers.wins.games, 60);
    assert_eq!(
        p.as_landlord.wins.sum + p.as_farmers.wins.sum,
        p.all.wins.sum
    );
}

#[test]
fn deal_files_play_and_bad_input_is_an_error() {
    let rules = Rules::classic();
    let lines: Vec<DealLine> = (0..5)
        .map(|s| Deal::from_seed(s, &rules).to_line())
        .collect();
    let a = Arena {
        deals: Deals::Lines(lines),
        ..arena(rules, Format::Duplicate, 0)
    };
    let r = run(&a, &["greedy", "random"], 1);
    assert_eq!(r.deals, 5);
    assert_eq!(r.pairs[0].all.wins.deals, 5);
    let e = "nosuch".parse::<BotSpec>().unwrap_err();
    assert!(e.to_string().contains("unknown robot \"nosuch\""), "{e}");
    assert!(a.run(&specs(&["greedy"]), &|_| {}, &|| {}).is_err());
    assert!(Shard::parse("3/3").is_err() && Shard::parse("x").is_err());
    assert_eq!(Shard::parse("1/4").unwrap(), Shard { index: 1, count: 4 });
    assert!(Report::from_json("{}").is_err());
}

#[test]
fn text_and_svg_show_the_cross_table() {
    let r = run(
        &arena(Rules::classic(), Format::Duplicate, 8),
        &["value", "greedy", "random"],
        2,
    );
    let text = r.text();
    assert!(
        text.contains("cross table") && text.contains("greedy"),
        "{text}"
    );
    let svg = r.svg();
    assert!(svg.starts_with("<svg") && svg.trim_end().ends_with("</svg>"));
    assert_eq!(svg.matches("<rect").count(), 9);
    let cross = r.cross();
    let (ab, ba) = (cross[0][1].unwrap(), cross[1][0].unwrap());
    assert_eq!(ab.wp + ba.wp, 1.0);
    assert_eq!(ab.adp, -ba.adp);
}
