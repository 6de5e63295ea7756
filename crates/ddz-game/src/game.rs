//! The game as a state machine: bidding, wildcard reveal, play, undo and scoring.

use std::sync::Arc;

use ddz_core::{
    Bidding, Cards, DoublingOrder, Move, RankSet, Rules, ShowCombine, ShowRules, Wild, legal_moves,
};

use crate::action::{Action, Actions, Bid, Phase};
use crate::auction::{Auction, AuctionStep};
use crate::deal::Deal;
use crate::error::ActionError;
use crate::play_state::{PlayState, PlayUndo};
use crate::scoring::{End, GameResult, Side, Stake, pair_multipliers};
use crate::seat::{BySeat, Role, Seat};
use crate::show::{Show, ShowWindow};
use crate::shuffle::{below, derive_seed, rng};

/// Stream index for the first bidder's draw.
const FIRST_BIDDER_STREAM: u64 = 0xB1D;
/// Stream index base for redeals after everyone passed.
pub(crate) const REDEAL_STREAM: u64 = 0x5EDEA1;

/// Plays (passes included) a game's history has room for from the start.
const PLAYS_RESERVED: usize = 64;

/// One game of Dou Dizhu, from the deal to the result.
///
/// Every action takes the acting seat and is refused (with the state unchanged) when it is not
/// legal. Robots only ever see a [`crate::SeatView`] of it.
#[derive(Clone, Debug)]
pub struct Game {
    rules: Rules,
    seed: u64,
    deal: Deal,
    redeals: u32,
    phase: Phase,
    /// The seat the deal starts from, drawn from the seed; it bids first unless a seat shows.
    first_seat: Seat,
    /// The bids of the current deal (and so the robs).
    auction: Auction,
    landlord: Option<Seat>,
    base: u32,
    laizi: RankSet,
    /// `rules` with the wild ranks revealed so far (`laizi`): the rules in force.
    in_force: Rules,
    /// The seat to decide before play: to show, bid or double (play turns are the play
    /// state's).
    bid_turn: Seat,
    /// The show window in progress while dealing (an index into [`Game::show_windows`]) and
    /// how many seats of it have been asked, from the first seat.
    window: (usize, u8),
    /// The shows of the current deal, in order.
    shows: Vec<Show>,
    /// Every show decision of the current deal in order: the seat and the factor, 0 for a
    /// seat that did not show.
    show_decisions: Vec<(Seat, u32)>,
    /// The doubling decisions in order: the seat and its factor.
    doublings: Vec<(Seat, u32)>,
    /// The deal the game was given: taking back a show or a doubling replays the decisions
    /// before play from it.
    first_deal: Deal,
    /// Every decision before play (shows, bids, doublings), all-pass rounds included.
    decisions: Vec<(Seat, Action)>,
    /// The hands, the trick and the stake (the hands as dealt while bidding).
    state: PlayState,
    plays: Vec<PlayUndo>,
    /// The plays as `(seat, move)`, shared with the views handed out.
    history: Arc<Vec<(Seat, Move)>>,
    result: Option<GameResult>,
}

impl Game {
    /// A game of the deal of `seed` ([`Deal::from_seed`]; a no-shuffle deal starts from the
    /// first bidder's seat, [`Deal::dealt`]).
    pub fn new(rules: &Rules, seed: u64) -> Game {
        Game::with_pile(rules, seed, None)
    }

    /// [`Game::new`] with the previous game's cards in gather order as the pile of a
    /// no-shuffle deal whose source is `previous` ([`crate::gather_pile`]); `None`, or other
    /// rules, deal as [`Game::new`].
    pub fn with_pile(rules: &Rules, seed: u64, pile: Option<&[ddz_core::Card]>) -> Game {
        let first = seeded_first_seat::<3>(rules, seed, 0);
        Game::with_deal(rules, seed, Deal::dealt(seed, rules, first, pile))
    }

    /// A game of a given deal; `seed` seeds the first bidder and any redeal. Wild ranks set in
    /// `rules.laizi` replace the deal's own (revealed lowest first); a fixed landlord seat
    /// above 2 is taken as seat 0.
    pub fn with_deal(rules: &Rules, seed: u64, mut deal: Deal) -> Game {
        if !rules.laizi.is_empty() {
            // Wild ranks given in the rules replace the deal's (lowest first).
            deal.laizi = rules.laizi.iter().collect();
        }
        let mut g = Game {
            rules: rules.clone(),
            seed,
            first_deal: deal.clone(),
            deal,
            redeals: 0,
            phase: Phase::Bidding,
            first_seat: Seat::ALL[0],
            auction: Auction::new(rules.bidding, Seat::ALL[0]),
            landlord: None,
            base: 1,
            laizi: RankSet::EMPTY,
            in_force: rules.clone(),
            bid_turn: Seat::ALL[0],
            window: (0, 0),
            shows: Vec::new(),
            show_decisions: Vec::new(),
            doublings: Vec::new(),
            decisions: Vec::new(),
            state: PlayState::new([Cards::EMPTY; 3], Seat::ALL[0]),
            // A game rarely makes more plays than this: no regrowth on the way.
            plays: Vec::with_capacity(PLAYS_RESERVED),
            history: Arc::new(Vec::with_capacity(PLAYS_RESERVED)),
            result: None,
        };
        g.start_deal();
        g
    }

    /// The start of a deal: the show windows when the rules have showing, else the bidding.
    fn start_deal(&mut self) {
        self.state = PlayState::new(self.deal.hands.0.map(|h| h.to_cards()), Seat::ALL[0]);
        self.auction = Auction::new(self.rules.bidding, Seat::ALL[0]);
        self.shows.clear();
        self.show_decisions.clear();
        self.doublings.clear();
        self.first_seat = seeded_first_seat::<3>(&self.rules, self.seed, self.redeals);
        self.laizi = RankSet::EMPTY;
        // Heaven (tiandi) or a before-bidding single wild rank is revealed now.
        let before = match self.rules.wild {
            Wild::None => 0,
            Wild::Single => {
                usize::from(self.rules.laizi_reveal == ddz_core::LaiziReveal::BeforeBidding)
            }
            Wild::HeavenEarth => 1,
        };
        self.reveal(before);
        if self.rules.show.enabled {
            self.phase = Phase::Dealing;
            self.window = (0, 0);
            self.next_show_turn();
        } else {
            self.start_bidding();
        }
    }

    /// The bidding, once the deal is done: the first seat to show bids first.
    fn start_bidding(&mut self) {
        if self.rules.bidding == ddz_core::Bidding::Fixed {
            let seat = Seat::new(self.rules.landlord_seat).unwrap_or(Seat::ALL[0]);
            self.make_landlord(seat);
            return;
        }
        self.bid_turn = self.first_bidder();
        self.auction = Auction::new(self.rules.bidding, self.bid_turn);
        self.phase = Phase::Bidding;
    }

    /// The show windows of a deal under these rules: before the deal, then after each round
    /// of chunks but the last while a seat holds at most 16 cards. A shuffled deal is handed
    /// out in the same chunks as a no-shuffle one (`no_shuffle.chunks`), each seat receiving
    /// its cards in the shuffled order; the decisions are taken when every seat has its
    /// chunk of the round (RULES.md section 7 says "at the chunk boundaries").
    pub fn show_windows(rules: &Rules) -> Vec<ShowWindow> {
        let mut windows = vec![ShowWindow::BeforeDeal];
        let mut cards = 0u32;
        for &k in rules.no_shuffle.chunks.as_slice() {
            cards += u32::from(k);
            if ShowRules::during_deal_factor(cards).is_none() {
                break;
            }
            windows.push(ShowWindow::DuringDeal { cards });
        }
        windows
    }

    /// The show window in progress while dealing.
    fn current_window(&self) -> Option<ShowWindow> {
        if self.phase == Phase::LandlordShow {
            return Some(ShowWindow::Landlord);
        }
        if self.phase != Phase::Dealing {
            return None;
        }
        Game::show_windows(&self.rules).get(self.window.0).copied()
    }

    /// While dealing: the next seat to decide whether to show, in order from the first seat,
    /// skipping seats that have shown; the bidding once every window is done.
    fn next_show_turn(&mut self) {
        let windows = Game::show_windows(&self.rules);
        loop {
            let (w, asked) = self.window;
            if w >= windows.len() {
                self.start_bidding();
                return;
            }
            if asked >= 3 {
                self.window = (w + 1, 0);
                continue;
            }
            let seat = Seat::ALL[(self.first_seat.index() + usize::from(asked)) % 3];
            if self.has_shown(seat) {
                self.window = (w, asked + 1);
                continue;
            }
            self.bid_turn = seat;
            return;
        }
    }

    /// Whether `seat` has shown its hand.
    pub fn has_shown(&self, seat: Seat) -> bool {
        self.shows.iter().any(|s| s.seat == seat)
    }

    /// The shows of the current deal, in order.
    pub fn shows(&self) -> &[Show] {
        &self.shows
    }

    /// Every show decision of the current deal in order: the seat and the factor, 0 for a
    /// seat that did not show (what records keep).
    pub fn show_decisions(&self) -> &[(Seat, u32)] {
        &self.show_decisions
    }

    /// The doubling decisions so far, in order: the seat and its factor.
    pub fn doubling_decisions(&self) -> &[(Seat, u32)] {
        &self.doublings
    }

    /// A seat's doubling factor once chosen.
    pub fn doubling(&self, seat: Seat) -> Option<u32> {
        self.doublings
            .iter()
            .find(|(s, _)| *s == seat)
            .map(|&(_, d)| d)
    }

    /// Every seat's doubling factor so far (1 until chosen, and always 1 without doubling).
    pub fn doubling_factors(&self) -> BySeat<u32> {
        BySeat::from_fn(|s| self.doubling(s).unwrap_or(1))
    }

    /// The show factor of the table multiplier so far: the largest factor of any show, or
    /// their product (`show.combine`); 1 when nobody showed.
    pub fn show_factor(&self) -> u32 {
        let factors = self.shows.iter().map(|s| s.factor);
        match self.rules.show.combine {
            ShowCombine::Max => factors.max().unwrap_or(1),
            ShowCombine::Product => factors.fold(1u32, u32::saturating_mul),
        }
    }

    /// The stake's parts so far: base, robs, shows and doublings.
    pub fn stake(&self) -> Stake {
        Stake {
            base: self.base,
            rob_multiplier: self.auction.rob_multiplier(),
            show: self.show_factor(),
            doubling: self.doubling_factors(),
        }
    }

    /// The seat's cards a view shows to every seat: its current cards once it has shown
    /// (while dealing, those received so far), else `None`.
    pub fn shown_hand(&self, seat: Seat) -> Option<Cards> {
        self.has_shown(seat).then(|| self.hand(seat))
    }

    /// The seats that may act now: the seat to act, or under simultaneous doubling every
    /// seat that has not chosen (any of them may act; [`Game::turn`] is the first of them
    /// from the landlord). Empty once the game is over.
    pub fn to_act(&self) -> Vec<Seat> {
        match self.phase {
            Phase::Over => Vec::new(),
            Phase::Doubling => self.may_double(),
            _ => vec![self.turn()],
        }
    }

    /// The seats that may choose their doubling now, from the landlord in seat order.
    fn may_double(&self) -> Vec<Seat> {
        let Some(landlord) = self.landlord else {
            return Vec::new();
        };
        let undecided: Vec<Seat> = [landlord, landlord.next(), landlord.prev()]
            .into_iter()
            .filter(|&s| self.doubling(s).is_none())
            .collect();
        if self.rules.doubling.order == DoublingOrder::LandlordFirst
            && self.doubling(landlord).is_none()
        {
            return vec![landlord];
        }
        undecided
    }

    /// The doubling factors allowed: 1 and the rules' factors.
    pub fn doubling_choices(&self) -> Vec<u32> {
        std::iter::once(1)
            .chain(
                self.rules
                    .doubling
                    .factors
                    .as_slice()
                    .iter()
                    .map(|&f| u32::from(f)),
            )
            .collect()
    }

    /// A show decision by `seat`: `show` true to show its hand at the factor of the window in
    /// progress ([`Game::legal_actions`] names it), false to keep it hidden. Allowed while
    /// dealing (each seat not yet shown, in turn) and for the landlord after doubling.
    pub fn show(&mut self, seat: Seat, show: bool) -> Result<(), ActionError> {
        let window = match self.phase {
            Phase::Dealing | Phase::LandlordShow => self.current_window(),
            _ => None,
        };
        let Some(window) = window else {
            return Err(ActionError::in_phase(self.phase));
        };
        if seat != self.bid_turn {
            return Err(ActionError::NotYourTurn {
                seat,
                turn: self.bid_turn,
            });
        }
        let factor = window.factor();
        self.decisions.push((seat, Action::Show(show)));
        self.show_decisions
            .push((seat, if show { factor } else { 0 }));
        if show {
            self.shows.push(Show {
                seat,
                window,
                factor,
            });
        }
        if self.phase == Phase::LandlordShow {
            self.phase = Phase::Playing;
        } else {
            self.window.1 += 1;
            self.next_show_turn();
        }
        Ok(())
    }

    /// A doubling decision by `seat` (加倍): `factor` 1 (不加倍) or one of the rules' factors
    /// (2 加倍, 4 超级加倍 by default). Allowed once per seat after the landlord takes the
    /// kitty: in any order (simultaneous) or the landlord first (`landlord_first`).
    pub fn double(&mut self, seat: Seat, factor: u32) -> Result<(), ActionError> {
        if self.phase != Phase::Doubling {
            return Err(ActionError::in_phase(self.phase));
        }
        if let Some(chosen) = self.doubling(seat) {
            return Err(ActionError::AlreadyDoubled {
                seat,
                factor: chosen,
            });
        }
        let may = self.may_double();
        if !may.contains(&seat) {
            return Err(ActionError::NotYourTurn {
                seat,
                turn: self.bid_turn,
            });
        }
        let allowed = self.doubling_choices();
        if !allowed.contains(&factor) {
            return Err(ActionError::BadDouble { factor, allowed });
        }
        self.decisions.push((seat, Action::Double(factor)));
        self.doublings.push((seat, factor));
        match self.may_double().first() {
            Some(&next) => self.bid_turn = next,
            None => self.after_doubling(),
        }
        Ok(())
    }

    /// After doubling: the landlord's show when it may still show, else play.
    fn after_doubling(&mut self) {
        let landlord = self.landlord.unwrap_or(Seat::ALL[0]);
        if self.rules.show.enabled && !self.has_shown(landlord) {
            self.phase = Phase::LandlordShow;
            self.bid_turn = landlord;
        } else {
            self.phase = Phase::Playing;
        }
    }

    /// Reveals the first `n` wild ranks of the deal.
    fn reveal(&mut self, n: usize) {
        self.laizi = self.deal.laizi.iter().take(n).copied().collect();
        self.in_force.laizi = self.laizi;
    }

    fn make_landlord(&mut self, seat: Seat) {
        self.landlord = Some(seat);
        let mut hands = self.state.hands().0;
        hands[seat.index()] = hands[seat.index()].union(self.deal.kitty.to_cards());
        self.state = PlayState::new(hands, seat);
        self.reveal(self.deal.laizi.len());
        if self.rules.doubling.enabled {
            self.phase = Phase::Doubling;
            self.bid_turn = seat;
        } else {
            self.after_doubling();
        }
    }

    /// The rules in force, with the wild ranks revealed so far.
    pub fn rules(&self) -> Rules {
        self.in_force.clone()
    }

    /// The game's seed.
    pub fn seed(&self) -> u64 {
        self.seed
    }

    /// The current deal (after any redeal).
    pub fn deal(&self) -> &Deal {
        &self.deal
    }

    /// How many times the cards were redealt because everyone passed.
    pub fn redeals(&self) -> u32 {
        self.redeals
    }

    /// The phase.
    pub fn phase(&self) -> Phase {
        self.phase
    }

    /// The seat to act (under simultaneous doubling, the first from the landlord of the
    /// seats that may act: [`Game::to_act`]).
    pub fn turn(&self) -> Seat {
        match self.phase {
            Phase::Dealing | Phase::Bidding | Phase::Doubling | Phase::LandlordShow => {
                self.bid_turn
            }
            Phase::Playing | Phase::Over => self.state.turn(),
        }
    }

    /// The landlord, once decided.
    pub fn landlord(&self) -> Option<Seat> {
        self.landlord
    }

    /// A seat's current cards (while dealing, the cards it has received so far).
    pub fn hand(&self, seat: Seat) -> Cards {
        if self.phase == Phase::Dealing {
            return self
                .deal
                .received(seat, self.dealt_so_far() as usize)
                .to_cards();
        }
        self.state.hand(seat)
    }

    /// The cards each seat has received of its 17: while dealing, those of the show window
    /// in progress (0 before the deal), else 17.
    pub fn dealt_so_far(&self) -> u32 {
        match self.current_window() {
            Some(ShowWindow::BeforeDeal) => 0,
            Some(ShowWindow::DuringDeal { cards }) => cards,
            _ => 17,
        }
    }

    /// The play state: hands, trick and stake (while dealing and bidding, the hands as dealt
    /// in full: what a seat holds while dealing is [`Game::hand`]).
    pub fn play_state(&self) -> &PlayState {
        &self.state
    }

    /// The bids of the current deal in order.
    pub fn bids(&self) -> &[(Seat, Bid)] {
        self.auction.bids()
    }

    /// The seat that bids first in the current deal: the first seat to show before or during
    /// the deal, else the seat the deal starts from ([`Game::first_seat`]).
    pub fn first_bidder(&self) -> Seat {
        self.shows
            .iter()
            .find(|s| s.window != ShowWindow::Landlord)
            .map_or(self.first_seat, |s| s.seat)
    }

    /// The seat the current deal starts from, drawn from the seed (seat 0 under a fixed
    /// landlord): the first to decide whether to show, and the first bidder when nobody
    /// shows.
    pub fn first_seat(&self) -> Seat {
        self.first_seat
    }

    /// The wild ranks revealed so far.
    pub fn laizi(&self) -> RankSet {
        self.laizi
    }

    /// The play to beat and who made it, or `None` when the seat to act leads.
    pub fn last(&self) -> Option<(Seat, Move)> {
        match self.phase {
            Phase::Playing | Phase::Over => self.state.last(),
            _ => None,
        }
    }

    /// Every play so far (passes included), in order.
    pub fn history(&self) -> impl Iterator<Item = (Seat, Move)> + '_ {
        self.history.iter().copied()
    }

    /// Every play so far, shared (what [`Game::view`] hands out).
    pub fn shared_history(&self) -> Arc<Vec<(Seat, Move)>> {
        Arc::clone(&self.history)
    }

    /// The base score so far.
    pub fn base(&self) -> u32 {
        self.base
    }

    /// The table multiplier so far (shows, robs, bombs, rocket), before spring, doubling
    /// and cap.
    pub fn multiplier(&self) -> u32 {
        self.show_factor()
            .saturating_mul(self.auction.rob_multiplier())
            .saturating_mul(self.state.bomb_multiplier())
    }

    /// The multiplier a seat is shown so far (RULES.md section 7): for a farmer `m_i` =
    /// table multiplier × the landlord's doubling × its own, for the landlord `m_1 + m_2`,
    /// each capped per pair; before the landlord is decided the table multiplier; once the
    /// game is over, the result's (spring included). Without doubling and showing the
    /// landlord's is twice the farmers'.
    pub fn seat_multiplier(&self, seat: Seat) -> u32 {
        if let Some(m) = self.result.as_ref().and_then(|r| r.multipliers) {
            return m[seat];
        }
        match self.landlord {
            None => self.multiplier(),
            Some(landlord) => {
                let p = self
                    .state
                    .stake_so_far_staked(&self.stake(), &self.in_force)
                    .1;
                let cap = self.rules.pair_cap();
                pair_multipliers(p, landlord, &self.doubling_factors(), cap)[seat]
            }
        }
    }

    /// The result, once the game is over.
    pub fn result(&self) -> Option<&GameResult> {
        self.result.as_ref()
    }

    /// The bids the seat to act may make (empty unless bidding): see [`legal_bids`].
    pub fn legal_bids(&self) -> Vec<Bid> {
        if self.phase != Phase::Bidding {
            return Vec::new();
        }
        self.auction.legal_bids()
    }

    /// What the seat to act may do: whether to show (while dealing, and the landlord after
    /// doubling), bids while bidding, doubling factors while doubling (every seat of
    /// [`Game::to_act`] has the same choices), moves while playing, nothing once the game is
    /// over.
    pub fn legal_actions(&self) -> Actions {
        match self.phase {
            Phase::Dealing | Phase::LandlordShow => Actions::Show {
                factor: self.current_window().map_or(1, ShowWindow::factor),
            },
            Phase::Bidding => Actions::Bids(self.legal_bids()),
            Phase::Doubling => Actions::Double(self.doubling_choices()),
            Phase::Playing => Actions::Moves(self.legal_moves()),
            Phase::Over => Actions::None,
        }
    }

    /// An action by `seat`: a show decision, a bid, a doubling or a play ([`Game::show`],
    /// [`Game::bid`], [`Game::double`], [`Game::play`]).
    pub fn act(&mut self, seat: Seat, action: Action) -> Result<(), ActionError> {
        match action {
            Action::Show(show) => self.show(seat, show),
            Action::Bid(bid) => self.bid(seat, bid),
            Action::Double(factor) => self.double(seat, factor),
            Action::Play(play) => self.play(seat, play),
        }
    }

    /// The legal moves of the seat to play (empty unless playing).
    pub fn legal_moves(&self) -> Vec<Move> {
        if self.phase != Phase::Playing {
            return Vec::new();
        }
        legal_moves(
            self.state.hand(self.state.turn()),
            self.state.trick().to_beat(),
            &self.in_force,
        )
    }

    /// A bid by `seat` (see [`Bid`]). Everyone passing (points) or nobody calling
    /// (call-and-rob) redeals with a seed derived from the game's seed.
    pub fn bid(&mut self, seat: Seat, bid: Bid) -> Result<(), ActionError> {
        self.check_turn(seat, Phase::Bidding)?;
        // A refused bid leaves the auction, and so the game, unchanged.
        let step = self.auction.bid(bid)?;
        self.decisions.push((seat, Action::Bid(bid)));
        match step {
            AuctionStep::Next(next) => self.bid_turn = next,
            AuctionStep::Landlord { seat, base } => {
                self.base = base;
                self.make_landlord(seat);
            }
            AuctionStep::NobodyBid => self.nobody_bid(),
        }
        Ok(())
    }

    /// Nobody bid or called: the first seat that showed is landlord at the lowest bid (no
    /// rob), else the cards are dealt again.
    fn nobody_bid(&mut self) {
        match self.shows.iter().find(|s| s.window != ShowWindow::Landlord) {
            Some(first) => {
                let seat = first.seat;
                self.base = 1;
                self.make_landlord(seat);
            }
            None => self.redeal(),
        }
    }

    fn redeal(&mut self) {
        self.redeals += 1;
        let seed = derive_seed(self.seed, REDEAL_STREAM + u64::from(self.redeals));
        let first = seeded_first_seat::<3>(&self.rules, self.seed, self.redeals);
        self.deal = Deal::dealt(seed, &self.rules, first, None);
        if !self.rules.laizi.is_empty() {
            self.deal.laizi = self.rules.laizi.iter().collect();
        }
        self.start_deal();
    }

    /// Refuses an action of `seat` unless the game is in `phase` and it is `seat`'s turn
    /// ([`ActionError::GameOver`], [`ActionError::WrongPhase`], [`ActionError::NotYourTurn`]):
    /// what a surface asks before offering a seat something for its turn (hints, say).
    pub fn check_turn(&self, seat: Seat, phase: Phase) -> Result<(), ActionError> {
        ActionError::check_turn(self.phase, self.turn(), seat, phase)
    }

    /// A play by `seat`: a move (or the pass) that must be legal now
    /// ([`PlayState::check`]).
    pub fn play(&mut self, seat: Seat, play: Move) -> Result<(), ActionError> {
        if self.phase != Phase::Playing {
            return Err(ActionError::in_phase(self.phase));
        }
        let undo = self.state.apply(seat, play, &self.in_force)?;
        self.record(undo);
        self.finish_if_over();
        Ok(())
    }

    /// The fast path of [`Game::play`] for a move the caller took from
    /// [`Game::legal_moves`] (or [`PlayState::legal_moves_into`]) of the seat to act while
    /// playing: nothing is checked again.
    pub fn play_legal(&mut self, play: Move) {
        let undo = self.state.apply_legal(play, &self.in_force);
        self.record(undo);
        self.finish_if_over();
    }

    /// Takes back the last play (for search), or before play the last show decision or
    /// doubling (the game is rebuilt from its deal and its decisions but that one). Bids
    /// cannot be undone.
    pub fn undo(&mut self) -> Result<(), ActionError> {
        if self.plays.is_empty() {
            return self.undo_decision();
        }
        let u = self.plays.pop().ok_or(ActionError::NothingToUndo)?;
        Arc::make_mut(&mut self.history).pop();
        self.state.undo(u);
        self.phase = Phase::Playing;
        self.result = None;
        Ok(())
    }

    /// Takes back the last decision before play when it is a show decision or a doubling.
    fn undo_decision(&mut self) -> Result<(), ActionError> {
        let Some((_, Action::Show(_) | Action::Double(_))) = self.decisions.last() else {
            return Err(ActionError::NothingToUndo);
        };
        let mut decisions = std::mem::take(&mut self.decisions);
        decisions.pop();
        let mut rebuilt = Game::with_deal(&self.rules, self.seed, self.first_deal.clone());
        for (seat, action) in decisions {
            // Each was legal when it was made, so it is legal again in the same order.
            rebuilt.act(seat, action)?;
        }
        *self = rebuilt;
        Ok(())
    }

    /// Keeps a play made: its undo token and its place in the history.
    fn record(&mut self, undo: PlayUndo) {
        // Copies the history only if a view handed out still holds it.
        Arc::make_mut(&mut self.history).push((undo.seat(), undo.play()));
        self.plays.push(undo);
    }

    fn finish_if_over(&mut self) {
        if !self.state.is_over() {
            return;
        }
        let landlord = self.landlord.unwrap_or(Seat::ALL[0]);
        if let Some(result) = self
            .state
            .result_staked(landlord, &self.stake(), &self.in_force)
        {
            self.phase = Phase::Over;
            self.result = Some(result);
        }
    }

    /// A play written in move notation (RULES.md section 3) by `seat`: plain cards take their
    /// default reading among those that beat the table; `cards:kind:main` and `cards=ranks`
    /// declare one. Returns the move played.
    pub fn play_notation(&mut self, seat: Seat, text: &str) -> Result<Move, ActionError> {
        self.check_turn(seat, Phase::Playing)?;
        let rules = self.rules();
        let last = self.last().map(|(_, m)| m);
        let play = ddz_core::parse_move(text, &rules, last.as_ref()).map_err(|e| {
            ActionError::Notation {
                text: text.to_string(),
                error: e.to_string(),
            }
        })?;
        self.play(seat, play)?;
        Ok(play)
    }

    /// RLCard's payoffs once the game is over: 1 for each seat of the winning side, 0 for the
    /// others.
    pub fn win_payoffs(&self) -> Option<BySeat<u8>> {
        let result = self.result.as_ref()?;
        let landlord = self.landlord?;
        Some(BySeat::from_fn(|s| {
            let landlord_side = s == landlord;
            u8::from(landlord_side == (result.winner == Side::Landlord))
        }))
    }

    /// The result if `failing` forfeited now (a robot that crashed, timed out or answered
    /// with an illegal action): its side loses at the stake reached so far, base ×
    /// multiplier without spring (under DouZero's ADP the bombs alone), capped; `first_out`
    /// is the failing seat. Before the landlord is decided the failing seat is taken as a
    /// landlord that loses at stake 1. The game itself is not changed.
    pub fn forfeit_result(&self, failing: Seat) -> GameResult {
        let rules = self.rules();
        let stake = match self.landlord {
            None => Stake::plain(1, 1),
            Some(_) => self.stake(),
        };
        let (landlord, end) = End::forfeit(failing, self.landlord);
        self.state.settle(landlord, end, &stake, &rules)
    }

    /// The legal readings of exactly `cards` for `seat` now (several under wildcards or for
    /// cards such as `333444555666`), or why there is none: the turn, the phase, no cards,
    /// cards not in hand, no combination, or none that beats the play on the table. What a
    /// player's selection of cards can be played as.
    pub fn readings(&self, seat: Seat, cards: Cards) -> Result<Vec<Move>, ActionError> {
        ActionError::check_turn(self.phase, self.turn(), seat, Phase::Playing)?;
        ActionError::readings(
            cards,
            self.hand(seat),
            || self.legal_moves(),
            self.last(),
            &self.in_force,
        )
    }

    /// A seat's role, once the landlord is known.
    pub fn role(&self, seat: Seat) -> Option<Role> {
        self.landlord.map(|l| Role::of(seat, l))
    }
}

/// The seat that bids first after `redeals` redeals of the game of `seed`, drawn from the
/// seed (the landlord's seat under a fixed landlord); a no-shuffle deal starts from it.
pub(crate) fn seeded_first_seat<const N: usize>(rules: &Rules, seed: u64, redeals: u32) -> Seat {
    if rules.bidding == Bidding::Fixed {
        return Seat::of::<N>(rules.landlord_seat).unwrap_or(Seat::ALL[0]);
    }
    let stream = derive_seed(seed, FIRST_BIDDER_STREAM + u64::from(redeals));
    Seat::all::<N>()[below(&mut rng(stream), N as u64) as usize]
}
