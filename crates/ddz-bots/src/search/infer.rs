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
//!
//! The bids weigh the deal too. A seat's hand when it bid is its hand now with what it played
//! (the landlord's without the kitty); the `ddzlib` robot's [`desired_bid`] for that hand is
//! the bid the model expects, `w` (0 to 3), and each allowed bid is `d` steps from it: at
//! points bidding a bid `b` is `|b − w|` steps and the pass `max(0, w − c)` when `c` is the
//! highest bid so far; at call-and-rob calling is `max(0, 1 − w)` steps and not calling `w`,
//! robbing `max(0, 2 − w)` and not robbing `max(0, w − 1)`. The bid made has probability
//! `e^(−d/T)` over the same sum for every allowed bid. Under wildcard profiles whose wild
//! ranks (or one of them) are revealed after the bidding, the model reads the bidding hands
//! without wild cards.
//!
//! A network as the model of the follows predicted the search robot's own follows better than
//! the ladder and weighed no better; it was removed (docs/strength-runs/net-as-follow-model.md).

use ddz_core::{Bidding, Cards, LaiziReveal, Move, RankSet, Rules, Wild};
use ddz_game::{Bid, BySeat, Seat, SeatView, Trick, TurnView, legal_bids};

use crate::ddzlib::{DdzlibBot, desired_bid};

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
    /// What the bids tell, `None` when there is nothing to weigh by them.
    bids: Option<Bids>,
}

/// The other seats' bids and what the model needs to read the hands they were made with.
#[derive(Clone, Debug)]
struct Bids {
    /// Each other seat's bid, in order.
    turns: Vec<BidTurn>,
    /// The rules as the bidders knew them (no wild ranks revealed after the bidding).
    rules: Rules,
    /// The kitty, not yet in the landlord's hand when it bid.
    kitty: Cards,
}

/// One bid of another seat, with what the bids before it allowed (which no sample changes).
#[derive(Clone, Debug)]
struct BidTurn {
    seat: Seat,
    bid: Bid,
    /// The bids it could make.
    allowed: Vec<Bid>,
    /// What the bids before it set: the highest bid so far (points), or the wanted bid from
    /// which a 1 is made (call-and-rob: 1 to call, 2 to rob).
    level: i32,
    bidding: Bidding,
}

impl Observations {
    /// The other seats' turns in `view`'s history, or `None` when the history does not account
    /// for every card played (a view rebuilt without its history: nothing to infer from).
    pub fn of(view: &SeatView, landlord: Seat) -> Option<Observations> {
        let mut played = BySeat([Cards::EMPTY; 3]);
        for (seat, play) in view.history().iter() {
            played[*seat] = played[*seat].union(play.cards());
        }
        if played != view.played() {
            return None;
        }
        // Cards each seat held before the first play.
        let mut cards_left = BySeat::from_fn(|s| view.cards_left()[s] + view.played()[s].len());
        let mut trick = Trick::lead(landlord);
        let mut plays = Vec::with_capacity(view.history().len());
        let mut turns = Vec::new();
        for (i, &(seat, play)) in view.history().iter().enumerate() {
            if seat != trick.turn() {
                return None;
            }
            if seat != view.seat() {
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
            bids: Bids::of(view, landlord),
        })
    }

    /// The same observations without the bids: only plays and passes weigh.
    pub fn without_bids(self) -> Observations {
        Observations { bids: None, ..self }
    }

    /// The other seats' turns observed (plays and passes).
    pub fn turns(&self) -> usize {
        self.turns.len()
    }

    /// The other seats' bids observed.
    pub fn bids(&self) -> usize {
        self.bids.as_ref().map_or(0, |b| b.turns.len())
    }

    /// True when there is nothing to weigh.
    pub fn is_empty(&self) -> bool {
        self.turns.is_empty() && self.bids() == 0
    }

    /// The log-likelihood of `hands` (every seat's cards now) under the model at
    /// `temperature`: the sum of [`Self::log_probabilities`] and of
    /// [`Self::bid_log_probabilities`].
    pub fn log_likelihood(
        &self,
        hands: &BySeat<Cards>,
        rules: &Rules,
        temperature: f64,
        model: &mut DdzlibBot,
    ) -> f64 {
        let mut total = 0.0;
        let dealt = self.walk(hands, rules, temperature, model, |_, _, lp| total += lp);
        if let Some(bids) = &self.bids {
            bids.walk(&dealt, self.landlord, temperature, |_, _, lp| total += lp);
        }
        total
    }

    /// For each bid of another seat, in order: the seat, its bid, and the log-probability of
    /// that bid under the model (at `temperature`) had the seats held `hands` now.
    pub fn bid_log_probabilities(
        &self,
        hands: &BySeat<Cards>,
        temperature: f64,
    ) -> Vec<(Seat, Bid, f64)> {
        let mut out = Vec::new();
        if let Some(bids) = &self.bids {
            let dealt = self.hands_before_play(hands);
            bids.walk(&dealt, self.landlord, temperature, |seat, bid, lp| {
                out.push((seat, bid, lp));
            });
        }
        out
    }

    /// Every seat's hand before the first play had the seats held `hands` now.
    fn hands_before_play(&self, hands: &BySeat<Cards>) -> BySeat<Cards> {
        let mut hands = *hands;
        for &(seat, cards) in &self.plays {
            hands[seat] = hands[seat].union(cards);
        }
        hands
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
    /// observed turn with its log-probability under the ladder; returns the hands before the
    /// first play.
    fn walk(
        &self,
        hands: &BySeat<Cards>,
        rules: &Rules,
        temperature: f64,
        model: &mut DdzlibBot,
        mut f: impl FnMut(Seat, Move, f64),
    ) -> BySeat<Cards> {
        self.walk_turns(hands, |_, turn, hands_then, _| {
            let view = turn_view(turn, hands_then[turn.seat], rules, self.landlord);
            let lp = log_probability(&model.ladder(&view), turn, rules, temperature);
            f(turn.seat, turn.play, lp);
        })
    }

    /// Walks back through the plays from `hands` (every seat's cards now), giving each seat
    /// back its cards, and calls `f` on each observed turn, latest first, with its index in
    /// the history, the turn, and every seat's hand and played cards before it; returns the
    /// hands before the first play.
    fn walk_turns(
        &self,
        hands: &BySeat<Cards>,
        mut f: impl FnMut(usize, &Turn, &BySeat<Cards>, &BySeat<Cards>),
    ) -> BySeat<Cards> {
        let mut hands = *hands;
        let mut played = BySeat([Cards::EMPTY; 3]);
        for &(seat, cards) in &self.plays {
            played[seat] = played[seat].union(cards);
        }
        let mut turns = self.turns.iter().rev().peekable();
        for (i, &(seat, cards)) in self.plays.iter().enumerate().rev() {
            hands[seat] = hands[seat].union(cards);
            played[seat] = played[seat].saturating_minus(cards);
            if let Some((_, turn)) = turns.next_if(|(at, _)| *at == i) {
                f(i, turn, &hands, &played);
            }
        }
        hands
    }
}

impl Bids {
    /// The bids of `view`, `None` without bids by another seat (a fixed landlord, a view
    /// rebuilt without its bidding) or when the landlord's bidding hand cannot be told (the
    /// kitty not shown).
    fn of(view: &SeatView, landlord: Seat) -> Option<Bids> {
        let bidding = view.rules().bidding;
        let turns: Vec<BidTurn> = (0..view.bids().len())
            .filter(|&i| view.bids()[i].0 != view.seat())
            .map(|i| {
                let (seat, bid) = view.bids()[i];
                let before = &view.bids()[..i];
                let level = match bidding {
                    Bidding::Points => before.iter().map(|b| i32::from(b.1)).max().unwrap_or(0),
                    // Call-and-rob: the first 1 calls, every later 1 robs.
                    _ if before.iter().any(|b| b.1 == 1) => 2,
                    _ => 1,
                };
                BidTurn {
                    seat,
                    bid,
                    allowed: legal_bids(bidding, before),
                    level,
                    bidding,
                }
            })
            .collect();
        if turns.is_empty() || bidding == Bidding::Fixed {
            return None;
        }
        let kitty = if landlord == view.seat() {
            // The landlord's own kitty is in its hand; the others' bidding hands need none.
            Cards::EMPTY
        } else {
            view.kitty()?
        };
        let mut rules = view.rules().clone();
        let known_when_bidding =
            rules.wild == Wild::Single && rules.laizi_reveal == LaiziReveal::BeforeBidding;
        if !known_when_bidding {
            rules.laizi = RankSet::EMPTY;
        }
        Some(Bids {
            turns,
            rules,
            kitty,
        })
    }

    /// Calls `f` on each other seat's bid with its log-probability, the seats having held
    /// `dealt` before the first play (the landlord with the kitty).
    fn walk(
        &self,
        dealt: &BySeat<Cards>,
        landlord: Seat,
        temperature: f64,
        mut f: impl FnMut(Seat, Bid, f64),
    ) {
        // The model's bid for each seat, computed on its first bid.
        let mut wanted: BySeat<Option<u8>> = BySeat([None; 3]);
        for turn in &self.turns {
            let want = *wanted[turn.seat].get_or_insert_with(|| {
                let hand = if turn.seat == landlord {
                    dealt[turn.seat].saturating_minus(self.kitty)
                } else {
                    dealt[turn.seat]
                };
                desired_bid(hand, &self.rules)
            });
            let z: f64 = turn
                .allowed
                .iter()
                .map(|&b| (-turn.steps(want, b) / temperature).exp())
                .sum();
            f(
                turn.seat,
                turn.bid,
                -turn.steps(want, turn.bid) / temperature - z.ln(),
            );
        }
    }
}

impl BidTurn {
    /// How many steps bid `bid` is from the model's wanted bid `want` at this turn (see the
    /// [module docs](self)).
    fn steps(&self, want: u8, bid: Bid) -> f64 {
        let (want, level) = (i32::from(want), self.level);
        let steps = match (self.bidding, bid) {
            (Bidding::Points, 0) => (want - level).max(0),
            (Bidding::Points, b) => (i32::from(b) - want).abs(),
            (_, 0) => (want - level + 1).max(0),
            _ => (level - want).max(0),
        };
        f64::from(steps)
    }
}

/// What the seat of `turn` saw there, holding `hand`.
fn turn_view<'a>(turn: &Turn, hand: Cards, rules: &'a Rules, landlord: Seat) -> TurnView<'a> {
    TurnView::hypothetical(rules, turn.seat, hand, landlord, turn.cards_left, turn.last)
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
