//! The blog's hand value and policies give the original's numbers and plays on the vectors of
//! seed-origins.md section 4.1 (tests/data/blog_values.txt, tests/data/blog_follows.txt).

use ddz_bots::blog::{Valuer, land_score};
use ddz_core::{Cards, Rules, parse_move};

fn cards(s: &str) -> Cards {
    s.parse().unwrap_or_else(|e| panic!("{s}: {e}"))
}

/// The data lines of a vector file: fields split on whitespace, comments and blanks dropped.
fn rows(text: &str) -> Vec<Vec<&str>> {
    text.lines()
        .map(|l| l.split('#').next().unwrap_or("").trim())
        .filter(|l| !l.is_empty())
        .map(|l| l.split_whitespace().collect())
        .collect()
}

#[test]
fn hand_values_and_first_leads_match_the_original() {
    let rows = rows(include_str!("data/blog_values.txt"));
    assert_eq!(rows.len(), 19);
    let mut valuer = Valuer::new();
    for row in rows {
        let [hand, sum, rounds, lead] = row[..] else {
            panic!("bad row {row:?}")
        };
        let v = valuer.hand_value(cards(hand));
        assert_eq!(
            (v.sum_value, v.need_round),
            (sum.parse().unwrap(), rounds.parse().unwrap()),
            "{hand}"
        );
        let g = valuer.lead(cards(hand)).unwrap();
        assert_eq!(g.cards, cards(lead), "{hand}: led {:?}", g);
    }
}

#[test]
fn follows_match_the_original_but_for_its_chain_bug() {
    let rules = Rules::classic();
    let rows = rows(include_str!("data/blog_follows.txt"));
    assert_eq!(rows.len(), 10);
    let mut valuer = Valuer::new();
    for row in rows {
        let [hand, table, play] = row[..] else {
            panic!("bad row {row:?}")
        };
        let table = parse_move(table, &rules, None).unwrap();
        let got = valuer.follow(cards(hand), &table).map(|g| g.cards);
        let want = (play != "pass").then(|| cards(play));
        assert_eq!(got, want, "{hand} against {table:?}");
    }
}

#[test]
fn bids_follow_the_thresholds() {
    let mut valuer = Valuer::new();
    let value = |v: &mut Valuer, h: &str| v.hand_value(cards(h)).sum_value;
    assert_eq!(land_score(value(&mut valuer, "22AAKQJ9987776654")), 0);
    assert_eq!(land_score(value(&mut valuer, "3456789TJQKA2BR33")), 2);
    assert_eq!([9, 10, 14, 15, 19, 20].map(land_score), [0, 1, 1, 2, 2, 3]);
}
