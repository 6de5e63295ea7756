//! Rules files (`--rules-file`, JSON or TOML), checked as `ddz` checks them.

use ddz_core::{Profile, Rank, Rules, RulesFormat};
use ddz_game::Game;

use crate::common::play_out;

/// Reads `data` (as text) as a JSON and as a TOML rules file. Rules that parse must write as
/// JSON that reads back as the same rules; rules that pass the checks of `Rules::build` (the
/// landlord seat, the fields' values, the wild ranks) must play a whole game whose record
/// replays.
pub fn rules_file(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    for format in [RulesFormat::Json, RulesFormat::Toml] {
        let Ok(rules) = Rules::from_file_text(&text, format, Profile::Classic) else {
            continue;
        };
        let json = serde_json::to_string(&rules).expect("rules serialise");
        let again = Rules::from_file_text(&json, RulesFormat::Json, Profile::Classic);
        match again {
            Ok(again) => assert_eq!(again, rules, "{text:?} written {json}"),
            Err(e) => panic!("{text:?} written {json}, which does not read back: {e}"),
        }
        // Records read their rules with `Deserialize`, which fills a missing group with off.
        match serde_json::from_str::<Rules>(&json) {
            Ok(direct) => assert_eq!(direct, rules, "{text:?} written {json}, read directly"),
            Err(e) => panic!("{text:?} written {json}, which does not deserialise: {e}"),
        }
        // `Rules::build`'s checks, as for a file with no `--laizi`.
        if rules.landlord_seat > 2 || rules.check_fields().is_err() {
            continue;
        }
        let ranks: Vec<Rank> = rules.laizi.iter().collect();
        let Ok(rules) = rules.with_laizi(&ranks) else {
            continue;
        };
        play_out(Game::new(&rules, 1));
    }
}
