//! A game's play phase as the actors and the evaluation drive it: the play state and what the
//! features read (every play so far, each seat's played cards).

use ddz_bots::ddzlib::DdzlibBot;
use ddz_bots::net::Scorer;
use ddz_bots::net::features::Position;
use ddz_core::{Cards, Move, Rules};
use ddz_game::{BySeat, Deal, PlayState, PublicPlay, Seat, SeatView};

/// A deal being played with seat 0 the landlord (the kitty in its hand), no bidding.
#[derive(Clone)]
pub struct TrainGame {
    /// The rules with the deal's wild ranks.
    pub rules: Rules,
    /// The play state.
    pub state: PlayState,
    history: Vec<(Seat, Move)>,
    played: BySeat<Cards>,
    /// The kitty, shown to every seat.
    kitty: Cards,
}

/// The landlord of every table.
pub const LANDLORD: Seat = Seat::ALL[0];

impl TrainGame {
    /// The start of play of `deal` under `rules`.
    pub fn start(deal: &Deal, rules: &Rules) -> TrainGame {
        let rules = ddz_game::deal_rules(deal, rules).unwrap_or_else(|_| rules.clone());
        let [_, down, up] = Seat::ALL;
        let state = PlayState::new(
            [
                deal.landlord_cards().to_cards(),
                deal.hands[down].to_cards(),
                deal.hands[up].to_cards(),
            ],
            LANDLORD,
        );
        TrainGame {
            rules,
            state,
            history: Vec::with_capacity(64),
            played: BySeat::default(),
            kitty: deal.kitty.to_cards(),
        }
    }

    /// The position of the seat to act, as the network reads it.
    pub fn position(&self) -> Position<'_> {
        let seat = self.state.turn();
        Position {
            seat,
            landlord: LANDLORD,
            hand: self.state.hand(seat),
            cards_left: self.state.cards_left(),
            played: self.played,
            history: &self.history,
            last: self.state.last(),
            laizi: self.rules.laizi,
        }
    }

    /// Applies `play`, a legal move of the seat to act.
    pub fn apply(&mut self, play: Move) {
        let seat = self.state.turn();
        self.state.apply_legal(play, &self.rules);
        self.history.push((seat, play));
        self.played[seat] = self.played[seat].union(play.cards());
    }

    /// The table with the hands the seat to act cannot see dealt again at random from `seed`,
    /// consistently with what it sees (its hand, every play, the cards each seat holds): a
    /// deal the network's view cannot tell from the true one ([`ddz_bots::search::sample_hidden`];
    /// the kitty is not part of the network's view, so it does not constrain the deal). `None`
    /// when no such deal exists (it always does in a game played by the rules).
    pub fn with_hidden_dealt(&self, seed: u64) -> Option<TrainGame> {
        let view = self.seat_view().with_kitty(None);
        let hands = ddz_bots::search::sample_hidden(&view, seed)?;
        Some(TrainGame {
            rules: self.rules.clone(),
            state: PlayState::with_trick(hands, *self.state.trick()),
            history: self.history.clone(),
            played: self.played,
            kitty: self.kitty,
        })
    }

    /// The view of the seat to act, as a robot reads it: its hand, the kitty, every play so
    /// far and each seat's cards left (no bids: the landlord was not bid for; base and
    /// multiplier 1).
    pub fn seat_view(&self) -> SeatView {
        let seat = self.state.turn();
        let public = PublicPlay::of_game(
            *self.state.trick(),
            std::sync::Arc::new(self.history.clone()),
            1,
        );
        SeatView::playing(
            &self.rules,
            seat,
            LANDLORD,
            self.state.hand(seat),
            self.state.cards_left(),
            public,
        )
        .with_kitty(Some(self.kitty))
    }

    /// Plays to the end and returns whether the landlord won: the network greedy in its
    /// seats (the only play or a play of the whole hand without it), `ddzlib`'s first choices
    /// in the others. `net_lands`: `Some(true)` the network holds the landlord's seat and
    /// `ddzlib` the farmers', `Some(false)` the other way round, `None` every seat the network.
    pub fn play_out(
        &mut self,
        scorer: &mut Scorer,
        ddzlib: &mut DdzlibBot,
        net_lands: Option<bool>,
    ) -> bool {
        let (mut moves, mut buf) = (Vec::new(), Vec::new());
        while !self.state.is_over() {
            let seat = self.state.turn();
            let play = if net_lands.is_none_or(|lands| (seat == LANDLORD) == lands) {
                self.state.legal_moves_into(&self.rules, &mut moves);
                match ddz_bots::obvious_play(self.state.hand(seat), &moves) {
                    Some(play) => play,
                    None => moves[scorer.best(&self.position(), &self.rules, &moves).0],
                }
            } else {
                ddzlib.choose_legal(&self.state.turn_view(&self.rules, LANDLORD), &mut buf)
            };
            self.apply(play);
        }
        self.landlord_won()
    }

    /// Whether the landlord has won (once the game is over).
    pub fn landlord_won(&self) -> bool {
        self.state.first_out() == Some(LANDLORD)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dealt_hidden_cards_keep_what_the_seat_sees() {
        let rules = Rules::classic();
        let mut moves = Vec::new();
        for game in 0..20u64 {
            let mut table = TrainGame::start(&Deal::from_seed(game, &rules), &rules);
            // Some turns in, each seat making its last legal move (passes when following).
            for _ in 0..(game % 12) {
                table.state.legal_moves_into(&table.rules, &mut moves);
                if let Some(&play) = moves.last().filter(|_| !table.state.is_over()) {
                    table.apply(play);
                }
            }
            if table.state.is_over() {
                continue;
            }
            let me = table.state.turn();
            let hidden = |t: &TrainGame| {
                Seat::ALL
                    .into_iter()
                    .filter(|&s| s != me)
                    .fold(Cards::EMPTY, |acc, s| acc.union(t.state.hand(s)))
            };
            let mut changed = false;
            for seed in 0..8 {
                let dealt = table.with_hidden_dealt(seed).expect("a deal exists");
                assert_eq!(dealt.state.hand(me), table.state.hand(me));
                assert_eq!(dealt.state.cards_left(), table.state.cards_left());
                assert_eq!(hidden(&dealt), hidden(&table));
                assert_eq!(dealt.state.trick(), table.state.trick());
                assert_eq!(dealt.history, table.history);
                assert_eq!(dealt.played, table.played);
                changed |= dealt.state.hands() != table.state.hands();
            }
            assert!(changed, "game {game}: eight deals all the true hands");
        }
    }
}
