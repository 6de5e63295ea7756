//! RULES.md section 5 examples and the ddzlib analysis cases, as named tests and the vectors
//! of `tests/data/wild_readings.txt`.

use ddz_core::{BombClass, Cards, Kind, Rank, Rules, classify, move_notation, parse_move};

fn laizi(ranks: &[Rank]) -> Rules {
    let base = if ranks.len() == 2 {
        Rules::tiandi()
    } else {
        Rules::laizi()
    };
    base.with_laizi(ranks).unwrap()
}

fn ranks(s: &str) -> Vec<Rank> {
    s.split(',')
        .map(|t| t.parse::<Cards>().unwrap().lowest().unwrap())
        .collect()
}

fn readings(cards: &str, rules: &Rules) -> Vec<String> {
    classify(cards.parse().unwrap(), rules)
        .iter()
        .map(|m| m.to_string())
        .collect()
}

#[test]
fn wild_readings_data_file() {
    let text = include_str!("data/wild_readings.txt");
    let mut checked = 0;
    for (i, line) in text.lines().enumerate() {
        if line.trim().is_empty() || line.starts_with('#') {
            continue;
        }
        let f: Vec<&str> = line.split('|').map(str::trim).collect();
        assert_eq!(f.len(), 5, "wild_readings.txt line {}", i + 1);
        let rules = match f[0] {
            "laizi" => Rules::laizi(),
            _ => Rules::tiandi(),
        }
        .with_laizi(&ranks(f[1]))
        .unwrap();
        let got = readings(f[2], &rules);
        let want: Vec<String> = if f[4] == "-" {
            vec![]
        } else {
            f[4].split(';').map(String::from).collect()
        };
        match f[3] {
            "exact" => assert_eq!(got, want, "line {}: {}", i + 1, f[2]),
            _ => {
                for w in &want {
                    assert!(
                        got.contains(w),
                        "line {}: {} lacks {w}; has {got:?}",
                        i + 1,
                        f[2]
                    );
                }
            }
        }
        // Every reading parses back from its shortest notation.
        for m in classify(f[2].parse().unwrap(), &rules) {
            assert_eq!(
                parse_move(&move_notation(&m, &rules), &rules, None),
                Ok(m),
                "{m}"
            );
        }
        checked += 1;
    }
    assert!(checked >= 25);
}

#[test]
fn s5_bomb_classes_soft_hard_pure_rocket() {
    let r = laizi(&[Rank::Nine]);
    let soft = parse_move("8889", &r, None).unwrap();
    let hard = parse_move("3333", &r, None).unwrap();
    let pure = parse_move("9999", &r, None).unwrap();
    let rocket = parse_move("BR", &r, None).unwrap();
    assert_eq!(soft.class(), Some(BombClass::Soft));
    assert_eq!(hard.class(), Some(BombClass::Hard));
    assert_eq!(pure.class(), Some(BombClass::Pure));
    assert!(hard.beats(&soft, &r), "any hard bomb beats any soft bomb");
    assert!(!soft.beats(&hard, &r));
    assert!(pure.beats(&hard, &r));
    assert!(rocket.beats(&pure, &r));
    let soft_2 = parse_move("2229", &r, None).unwrap();
    assert!(soft_2.beats(&soft, &r) && !soft_2.beats(&hard, &r));
}

#[test]
fn s5_default_reading_prefers_fewest_substitutions() {
    // 8889 leads as the bomb (most body cards); 8999 too.
    let r = laizi(&[Rank::Nine]);
    assert_eq!(parse_move("8889", &r, None).unwrap().kind(), Kind::Bomb);
    // 56789 with 9 wild: the straight to 9 (9 as itself) and to 8 (9 as 4) have the same body
    // size; the higher main wins.
    let m = parse_move("56789", &r, None).unwrap();
    assert_eq!(m.to_string(), "56789:straight:9");
    let low = parse_move("56789=45678", &r, None).unwrap();
    assert_eq!(low.main(), Rank::Eight);
}

#[test]
fn s5_declared_readings_are_validated() {
    let r = laizi(&[Rank::Nine]);
    assert_eq!(
        parse_move("7779=7777", &r, None).unwrap().kind(),
        Kind::Bomb
    );
    assert!(
        parse_move("7779=7788", &r, None).is_err(),
        "a natural 7 cannot be read as 8"
    );
    // The wild 9 as an 8 kicker names the trio of 7s with a single.
    assert_eq!(
        parse_move("7779=7778", &r, None).unwrap().kind(),
        Kind::TrioSingle
    );
    assert!(
        parse_move("7779=777B", &r, None).is_err(),
        "a wild card never stands for a joker"
    );
    // A wild kicker may be declared as another allowed rank: the same move.
    let canonical = parse_move("3339=3339", &r, None).unwrap();
    assert_eq!(parse_move("3339=3334", &r, None).unwrap(), canonical);
}

#[test]
fn s5_long_bombs_more_cards_win() {
    let r = laizi(&[Rank::Seven, Rank::Nine]);
    let five_soft = parse_move("33379", &r, None).unwrap();
    let four_pure = parse_move("7799:bomb:9", &r, None).unwrap();
    assert_eq!(five_soft.kind(), Kind::Bomb);
    assert_eq!(five_soft.class(), Some(BombClass::Soft));
    assert!(five_soft.beats(&four_pure, &r));
    let rocket = parse_move("BR", &r, None).unwrap();
    assert!(rocket.beats(&five_soft, &r));
}

#[test]
fn s5_no_long_bombs_in_single_laizi() {
    let r = laizi(&[Rank::Nine]);
    assert!(readings("33339", &r).iter().all(|m| !m.contains("bomb")));
}

#[test]
fn wild_ranks_are_validated() {
    assert!(
        Rules::laizi()
            .with_laizi(&[Rank::Seven, Rank::Nine])
            .is_err()
    );
    assert!(
        Rules::tiandi()
            .with_laizi(&[Rank::Seven, Rank::Seven])
            .is_err()
    );
    assert!(Rules::tiandi().with_laizi(&[Rank::BigJoker]).is_err());
    assert!(Rules::classic().with_laizi(&[Rank::Seven]).is_err());
    assert!(Rules::laizi().with_laizi(&[]).is_ok());
}

#[cfg(feature = "serde")]
#[test]
fn s5_json_carries_as_and_class() {
    use ddz_core::MoveJson;
    let r = laizi(&[Rank::Nine]);
    let m = parse_move("7779=7777", &r, None).unwrap();
    let j = serde_json::to_string(&MoveJson::from(&m)).unwrap();
    assert_eq!(
        j,
        r#"{"cards":"7779","kind":"bomb","main":"7","len":1,"as":"7777","class":"soft"}"#
    );
    let hard =
        serde_json::to_string(&MoveJson::from(&parse_move("3333", &r, None).unwrap())).unwrap();
    assert_eq!(
        hard,
        r#"{"cards":"3333","kind":"bomb","main":"3","len":1,"class":"hard"}"#
    );
    assert_eq!(MoveJson::from(&m).to_move(&r), Ok(m));
}
