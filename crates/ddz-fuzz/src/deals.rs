//! Deal-file lines (`--deals`, RULES.md section 2).

use ddz_game::{DealLine, Game};

use crate::common::{play_out, rule_sets};

/// Reads `data` (as text) as one deal line, and the deal under every rule set of
/// [`rule_sets`]. A line that parses writes as JSON that reads back as itself; a deal that
/// is one writes as a line that gives the same deal, and plays a whole game.
pub fn deals(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    let Ok(line) = DealLine::parse(&text) else {
        return;
    };
    let json = serde_json::to_string(&line).expect("a deal line serialises");
    assert_eq!(
        DealLine::parse(&json),
        Ok(line.clone()),
        "{text:?} written {json}"
    );
    for rules in rule_sets() {
        let Ok(deal) = line.to_deal(rules) else {
            continue;
        };
        let again = deal.to_line().to_deal(rules);
        assert_eq!(again, Ok(deal.clone()), "{text:?}: the deal's own line");
        play_out(Game::with_deal(rules, 1, deal));
    }
}
