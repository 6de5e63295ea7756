//! Actions as text: the one form every text surface writes and reads back (the C ABI's
//! actions, lists of what a seat may do): a play or the pass in move notation, `bid N`,
//! `double N`, `show` or `hide`.

use ddz_core::{Move, Rules, move_notation, parse_move};

use crate::action::{Action, Actions, Bid};
use crate::error::ActionError;

impl Action {
    /// The action as text, the one form every text surface reads back ([`Action::parse`]): a play or the pass in move notation (`33`, `pass`,
    /// `7779=7777`), `bid N`, `double N`, `show` or `hide`.
    pub fn notation(&self, rules: &Rules) -> String {
        match self {
            Action::Play(m) => move_notation(m, rules),
            Action::Bid(b) => format!("bid {b}"),
            Action::Double(f) => format!("double {f}"),
            Action::Show(true) => "show".to_string(),
            Action::Show(false) => "hide".to_string(),
        }
    }

    /// Reads an action written as [`Action::notation`] writes it (`bid 2`, `double 4`, `show`,
    /// `hide`, or a play in move notation, read under `rules` against `beat`, the play to beat).
    /// Only the text is checked: whether the action is allowed now is the game's answer
    /// ([`crate::Game::act`]).
    pub fn parse(text: &str, rules: &Rules, beat: Option<&Move>) -> Result<Action, ActionError> {
        let text = text.trim();
        let bad = |error: String| ActionError::Notation {
            text: text.to_string(),
            error,
        };
        if let Some(bid) = text.strip_prefix("bid ") {
            return bid
                .trim()
                .parse::<Bid>()
                .map(Action::Bid)
                .map_err(|_| bad("a bid is a whole number (bid 0 passes)".to_string()));
        }
        if let Some(factor) = text.strip_prefix("double ") {
            return factor
                .trim()
                .parse::<u32>()
                .map(Action::Double)
                .map_err(|_| bad("a doubling is a factor (double 1 does not double)".to_string()));
        }
        match text {
            "show" => Ok(Action::Show(true)),
            "hide" => Ok(Action::Show(false)),
            _ => parse_move(text, rules, beat)
                .map(Action::Play)
                .map_err(|e| bad(e.to_string())),
        }
    }
}

impl Actions {
    /// Every action allowed, in order (not showing before showing), as
    /// [`Action::notation`] writes them.
    pub fn notations(&self, rules: &Rules) -> Vec<String> {
        self.all().iter().map(|a| a.notation(rules)).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Game, Phase};

    #[test]
    fn every_action_of_seeded_games_reads_back_as_itself() {
        for profile in ["classic", "laizi", "huanle", "douzero"] {
            let rules = Rules::from_profile_name(profile).unwrap();
            for seed in 0..20 {
                let mut game = Game::new(&rules, seed);
                let mut steps = 0;
                while game.phase() != Phase::Over && steps < 400 {
                    let actions = game.legal_actions();
                    let rules = game.rules();
                    let beat = game.last().map(|(_, m)| m);
                    let texts = actions.notations(&rules);
                    assert!(!texts.is_empty(), "{profile} {seed}");
                    for text in &texts {
                        let action = Action::parse(text, &rules, beat.as_ref()).unwrap();
                        assert_eq!(&action.notation(&rules), text, "{profile} {seed}");
                    }
                    // Take the last listed action (the highest bid, showing, a big play).
                    let action = Action::parse(texts.last().unwrap(), &rules, beat.as_ref());
                    game.act(game.turn(), action.unwrap()).unwrap();
                    steps += 1;
                }
                assert_eq!(game.phase(), Phase::Over, "{profile} {seed}");
            }
        }
    }

    #[test]
    fn text_that_is_no_action_is_a_notation_error() {
        let rules = Rules::classic();
        for text in ["bid x", "double", "double two", "34", "showing"] {
            let e = Action::parse(text, &rules, None).unwrap_err();
            assert!(matches!(e, ActionError::Notation { .. }), "{text}: {e:?}");
        }
        assert_eq!(Action::parse(" bid 3 ", &rules, None), Ok(Action::Bid(3)));
    }
}
