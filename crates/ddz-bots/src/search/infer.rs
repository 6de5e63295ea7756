//! Inference: how likely a sampled deal makes the plays already seen.
//!
//! A sampled deal gives the other two seats their hands now; adding back what each played
//! since gives its hand at every one of its past turns. The opponent model scores what the
//! seat did there by where it stands on the `ddzlib` robot's ladder for that hand
//! ([`DdzlibBot::ladder`]): the move at place `k` (0 the first choice; a move the ladder does
//! not list, or a pass it does not list, takes the place after the last entry) has probability
//! `e^(−k/T) / Z`, `Z` summing `e^(−j/T)` over the places `0..=L` of a ladder of `L` distinct
//! entries that the play to beat allows. A low temperature `T` trusts the model more. The
//! deal's weight is the product over every past turn of both other seats (plays and passes),
//! so a seat that passed where the ladder says it would have beaten makes deals where it
//! could beat unlikely.

use ddz_core::{Cards, Move, Rules};
use ddz_game::{BySeat, Seat, SeatView, Trick, TurnView};

use crate::ddzlib::DdzlibBot;

/// One past turn of another seat: what it did and what it saw.
#[derive(Clone, Debug)]
struct Turn {
    seat: Seat,
    play: Move,
    /// The play it had to beat, and who made it (`None`: it led).
    last: Option<(Seat, Move)>,
    /// Cards each seat held then.
    cards_left: BySeat<u32>,
}

/// Every play of a seat's history, and what the other seats saw at theirs: what the search
/// weighs its samples by.
///
/// ```
/// use ddz_bots::ddzlib::DdzlibBot;
/// use ddz_bots::search::infer::Observations;
/// use ddz_core::{Rules, parse_move};
/// use ddz_game::{BySeat, PublicPlay, Seat, SeatView};
///
/// let rules = Rules::classic();
/// let [landlord, farmer, me] = Seat::ALL;
/// let mut public = PublicPlay::new(landlord);
/// public.push(landlord, parse_move("3", &rules, None).unwrap(), &rules).unwrap();
/// public.push(farmer, parse_move("pass", &rules, None).unwrap(), &rules).unwrap();
/// let hand = "44556677889TTJJQQ".parse().unwrap();
/// let view = SeatView::playing(&rules, me, landlord, hand, BySeat([19, 17, 17]), public);
/// let seen = Observations::of(&view, landlord).unwrap();
/// assert_eq!(seen.turns(), 2);
/// ```
#[derive(Clone, Debug)]
pub struct Observations {
    /// The plays in order: who made them and which cards left that seat's hand.
    plays: Vec<(Seat, Cards)>,
    /// For each play by another seat (index into `plays`), the turn it was made on.
    turns: Vec<(usize, Turn)>,
    landlord: Seat,
}

impl Observations {
    /// The other seats' turns in `view`'s history, or `None` when the history does not account
    /// for every card played (a view rebuilt without its history: nothing to infer from).
    pub fn of(view: &SeatView, landlord: Seat) -> Option<Observations> {
        let mut played = BySeat([Cards::EMPTY; 3]);
        for (seat, play) in view.history.iter() {
            played[*seat] = played[*seat].union(play.cards());
        }
        if played != view.played {
            return None;
        }
        // Cards each seat held before the first play.
        let mut cards_left = BySeat::from_fn(|s| view.cards_left[s] + view.played[s].len());
        let mut trick = Trick::lead(landlord);
        let mut plays = Vec::with_capacity(view.history.len());
        let mut turns = Vec::new();
        for (i, &(seat, play)) in view.history.iter().enumerate() {
            if seat != trick.turn() {
                return None;
            }
            if seat != view.seat {
                turns.push((
                    i,
                    Turn {
                        seat,
                        play,
                        last: trick.last(),
                        cards_left,
                    },
                ));
            }
            trick.advance(play);
            cards_left[seat] -= play.cards().len().min(cards_left[seat]);
            plays.push((seat, play.cards()));
        }
        Some(Observations {
            plays,
            turns,
            landlord,
        })
    }

    /// The other seats' turns observed (plays and passes).
    pub fn turns(&self) -> usize {
        self.turns.len()
    }

    /// True when there is nothing to weigh.
    pub fn is_empty(&self) -> bool {
        self.turns.is_empty()
    }

    /// The log-likelihood of `hands` (every seat's cards now) under the model at
    /// `temperature`: the sum of [`Self::log_probabilities`].
    pub fn log_likelihood(
        &self,
        hands: &BySeat<Cards>,
        rules: &Rules,
        temperature: f64,
        model: &mut DdzlibBot,
    ) -> f64 {
        let mut total = 0.0;
        self.walk(hands, rules, temperature, model, |_, _, lp| total += lp);
        total
    }

    /// For each observed turn, latest first: the seat, what it did, and the log-probability
    /// of that under the model (at `temperature`, `model` giving the ladder) had the seats
    /// held `hands` now.
    pub fn log_probabilities(
        &self,
        hands: &BySeat<Cards>,
        rules: &Rules,
        temperature: f64,
        model: &mut DdzlibBot,
    ) -> Vec<(Seat, Move, f64)> {
        let mut out = Vec::with_capacity(self.turns.len());
        self.walk(hands, rules, temperature, model, |seat, play, lp| {
            out.push((seat, play, lp));
        });
        out
    }

    /// Walks back through the plays, giving each seat back its cards, and calls `f` on each
    /// observed turn with its log-probability.
    fn walk(
        &self,
        hands: &BySeat<Cards>,
        rules: &Rules,
        temperature: f64,
        model: &mut DdzlibBot,
        mut f: impl FnMut(Seat, Move, f64),
    ) {
        let mut hands = *hands;
        let mut turns = self.turns.iter().rev().peekable();
        for (i, &(seat, cards)) in self.plays.iter().enumerate().rev() {
            hands[seat] = hands[seat].union(cards);
            let Some((_, turn)) = turns.next_if(|(at, _)| *at == i) else {
                continue;
            };
            let view = TurnView {
                rules,
                seat: turn.seat,
                hand: hands[turn.seat],
                landlord: Some(self.landlord),
                cards_left: turn.cards_left,
                last: turn.last,
            };
            let lp = log_probability(&model.ladder(&view), turn, rules, temperature);
            f(turn.seat, turn.play, lp);
        }
    }
}

/// `ln P(turn.play)` on `ladder` (see the [module docs](self)).
fn log_probability(ladder: &[Move], turn: &Turn, rules: &Rules, temperature: f64) -> f64 {
    let to_beat = turn.last.map(|(_, m)| m);
    let mut distinct: Vec<&Move> = Vec::with_capacity(ladder.len());
    let mut place = None;
    for m in ladder {
        let allowed = match &to_beat {
            None => !m.is_pass(),
            Some(last) => m.is_pass() || m.beats(last, rules),
        };
        if !allowed || distinct.contains(&m) {
            continue;
        }
        if place.is_none() && same_play(m, &turn.play) {
            place = Some(distinct.len());
        }
        distinct.push(m);
    }
    let entries = distinct.len();
    let place = place.unwrap_or(entries);
    // ln Z over the places 0..=entries, the place after the ladder included.
    let ratio = (-1.0 / temperature).exp();
    let z = if ratio < 1.0 {
        (1.0 - ratio.powi(entries as i32 + 1)) / (1.0 - ratio)
    } else {
        entries as f64 + 1.0
    };
    -(place as f64) / temperature - z.ln()
}

/// The same play: equal, or the same cards read the same way (a ladder entry may be another
/// reading's twin of a kicker choice).
fn same_play(a: &Move, b: &Move) -> bool {
    a == b || (!a.is_pass() && !b.is_pass() && a.cards() == b.cards() && a.kind() == b.kind())
}
