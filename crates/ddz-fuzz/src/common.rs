//! What the targets share: the rule sets inputs are read under, and a whole game played
//! from a position with its record checked.

use std::sync::OnceLock;

use ddz_core::{Rank, Rules};
use ddz_game::{Game, GameRecord, Phase};

/// The most actions a game played by [`play_out`] takes (a game takes at most about 60).
const MAX_ACTIONS: usize = 400;

/// The rule sets a text is read under: every profile, the wild ones with wild ranks.
pub(crate) fn rule_sets() -> &'static [Rules] {
    static SETS: OnceLock<Vec<Rules>> = OnceLock::new();
    SETS.get_or_init(|| {
        let wild = |rules: Rules, ranks: &[Rank]| {
            rules
                .with_laizi(ranks)
                .expect("the wild ranks fit the profile")
        };
        vec![
            Rules::classic(),
            Rules::botzone(),
            Rules::douzero(),
            Rules::huanle(),
            wild(Rules::laizi(), &[Rank::Seven]),
            wild(Rules::tiandi(), &[Rank::Seven, Rank::Nine]),
        ]
    })
}

/// Plays `game` to its end, each seat taking its last allowed action (the highest bid,
/// showing, doubling most, the pass when following, a lead), then checks that
/// the game's record reads back as itself and replays to the same result.
pub(crate) fn play_out(mut game: Game) {
    for _ in 0..MAX_ACTIONS {
        if game.phase() == Phase::Over {
            break;
        }
        let action = *game
            .legal_actions()
            .all()
            .last()
            .expect("a game not over allows an action");
        game.act(game.turn(), action)
            .expect("the game takes an action it allows");
    }
    assert_eq!(
        game.phase(),
        Phase::Over,
        "a game ends in {MAX_ACTIONS} actions"
    );
    let record = GameRecord::from_game(&game);
    let text = record.to_json();
    let read = GameRecord::parse(&text).expect("a game's record parses");
    assert_eq!(read, record, "a game's record reads back as itself");
    let replayed = read.replay().expect("a game's record replays");
    assert_eq!(
        replayed.result(),
        game.result(),
        "the replay has the game's result"
    );
}
