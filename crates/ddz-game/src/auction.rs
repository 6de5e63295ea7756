//! The auction for the landlord of one deal at an `N`-seat table (叫分, 叫地主 / 抢地主): whose
//! turn it is, which bids are allowed, and who becomes the landlord at what base and robs.
//!
//! [`crate::Game`] (three seats) and [`crate::TableGame`] (two and four) both bid through it,
//! so the bidding rules of RULES.md section 5 and docs/variants.md are written once.

use ddz_core::Bidding;

use crate::action::{Bid, legal_bids};
use crate::error::ActionError;
use crate::seat::Seat;

/// What a bid leads to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AuctionStep {
    /// The auction goes on with this seat to bid.
    Next(Seat),
    /// The auction is over: `seat` is the landlord, at `base` (the winning bid under points,
    /// 1 under call-and-rob).
    Landlord {
        /// The landlord.
        seat: Seat,
        /// The base of the stake.
        base: u32,
    },
    /// Nobody bid (points) or nobody called (call-and-rob): the caller decides what follows
    /// (a redeal, or a seat that showed becomes the landlord).
    NobodyBid,
}

/// The bids of one deal so far and whose turn it is. Points (`Bidding::Points`): each seat in
/// turn passes or bids strictly above the highest bid, at most 3; a 3 ends it, else it ends
/// once every seat has spoken. Call-and-rob (any other bidding but fixed): seats call in turn;
/// after a call each later seat that has not declined may rob once, and if anyone robbed the
/// caller may rob back; the last to call or rob is the landlord.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Auction<const N: usize = 3> {
    bidding: Bidding,
    bids: Vec<(Seat, Bid)>,
    robs: u32,
    turn: Seat,
}

impl<const N: usize> Auction<N> {
    /// A new auction under `bidding` with `first` to bid.
    pub fn new(bidding: Bidding, first: Seat) -> Auction<N> {
        Auction {
            bidding,
            bids: Vec::with_capacity(2 * N),
            robs: 0,
            turn: first,
        }
    }

    /// The seat to bid.
    pub const fn turn(&self) -> Seat {
        self.turn
    }

    /// The bids so far, in order.
    pub fn bids(&self) -> &[(Seat, Bid)] {
        &self.bids
    }

    /// The robs so far (call-and-rob; 0 under points).
    pub const fn robs(&self) -> u32 {
        self.robs
    }

    /// 2 to the number of robs: what the robs multiply the stake by.
    pub const fn rob_multiplier(&self) -> u32 {
        1u32 << self.robs
    }

    /// The bids the seat to act may make ([`legal_bids`]).
    pub fn legal_bids(&self) -> Vec<Bid> {
        legal_bids(self.bidding, &self.bids)
    }

    /// A bid by the seat to act (the caller checks whose turn it is). A bid that is not
    /// allowed is refused with the bids that are, the auction unchanged.
    pub fn bid(&mut self, bid: Bid) -> Result<AuctionStep, ActionError> {
        let seat = self.turn;
        let bad = || ActionError::BadBid {
            bid,
            allowed: self.legal_bids(),
        };
        match self.bidding {
            Bidding::Points => {
                let high = self.bids.iter().map(|b| b.1).max().unwrap_or(0);
                if bid > 3 || (bid != 0 && bid <= high) {
                    return Err(bad());
                }
                self.bids.push((seat, bid));
                if bid == 3 || self.bids.len() == N {
                    return Ok(
                        match self.bids.iter().filter(|b| b.1 > 0).max_by_key(|b| b.1) {
                            Some(&(winner, b)) => AuctionStep::Landlord {
                                seat: winner,
                                base: u32::from(b),
                            },
                            None => AuctionStep::NobodyBid,
                        },
                    );
                }
                Ok(self.pass_to(seat.next_of::<N>()))
            }
            _ => {
                if bid > 1 {
                    return Err(bad());
                }
                let caller = self.caller();
                self.bids.push((seat, bid));
                Ok(match caller {
                    None if bid == 1 => self.next_robber(seat),
                    None if self.bids.len() == N => AuctionStep::NobodyBid,
                    None => self.pass_to(seat.next_of::<N>()),
                    Some(caller) => {
                        if bid == 1 {
                            self.robs += 1;
                        }
                        if seat == caller {
                            // The caller's rob back ends the bidding.
                            self.landlord_is_last()
                        } else {
                            self.next_robber(seat)
                        }
                    }
                })
            }
        }
    }

    fn pass_to(&mut self, seat: Seat) -> AuctionStep {
        self.turn = seat;
        AuctionStep::Next(seat)
    }

    /// The seat that called first, once one has.
    fn caller(&self) -> Option<Seat> {
        self.bids.iter().find(|b| b.1 == 1).map(|b| b.0)
    }

    /// After `seat` called or answered, the next seat that may rob, or the end of bidding.
    fn next_robber(&mut self, seat: Seat) -> AuctionStep {
        let call_at = self.bids.iter().position(|b| b.1 == 1).unwrap_or(0);
        let caller = self.bids.get(call_at).map_or(seat, |b| b.0);
        let spoke_after_call = |s: Seat| self.bids[call_at + 1..].iter().any(|b| b.0 == s);
        let declined_before = |s: Seat| self.bids[..call_at].iter().any(|b| b.0 == s && b.1 == 0);
        let mut s = seat.next_of::<N>();
        while s != caller {
            if !declined_before(s) && !spoke_after_call(s) {
                return self.pass_to(s);
            }
            s = s.next_of::<N>();
        }
        // Everyone had their chance: the caller may rob back if anyone robbed.
        if self.robs > 0 && !spoke_after_call(caller) {
            return self.pass_to(caller);
        }
        self.landlord_is_last()
    }

    /// The last seat to call or rob is the landlord, at base 1.
    fn landlord_is_last(&self) -> AuctionStep {
        let seat = self
            .bids
            .iter()
            .rev()
            .find(|b| b.1 == 1)
            .map_or(Seat::ALL[0], |b| b.0);
        AuctionStep::Landlord { seat, base: 1 }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Plays `bids` from seat 0 and returns every step.
    fn run<const N: usize>(bidding: Bidding, bids: &[Bid]) -> Vec<AuctionStep> {
        let mut a = Auction::<N>::new(bidding, Seat::ALL[0]);
        bids.iter().map(|&b| a.bid(b).unwrap()).collect()
    }

    fn seat(i: u8) -> Seat {
        Seat::of::<4>(i).unwrap()
    }

    #[test]
    fn points_at_four_seats() {
        let steps = run::<4>(Bidding::Points, &[1, 0, 2, 0]);
        assert_eq!(steps[1], AuctionStep::Next(seat(2)));
        assert_eq!(
            steps[3],
            AuctionStep::Landlord {
                seat: seat(2),
                base: 2
            }
        );
        assert_eq!(
            run::<4>(Bidding::Points, &[0, 0, 0, 0])[3],
            AuctionStep::NobodyBid
        );
        assert_eq!(
            run::<4>(Bidding::Points, &[0, 3])[1],
            AuctionStep::Landlord {
                seat: seat(1),
                base: 3
            }
        );
        let mut a = Auction::<4>::new(Bidding::Points, seat(0));
        a.bid(2).unwrap();
        let e = a.bid(2).unwrap_err();
        assert_eq!(
            e,
            ActionError::BadBid {
                bid: 2,
                allowed: vec![0, 3]
            }
        );
        assert_eq!(a.bids().len(), 1, "a refused bid changes nothing");
    }

    #[test]
    fn call_and_rob_at_two_seats() {
        // 0 calls, 1 robs, 0 robs back: 0 is the landlord after 2 robs.
        let mut a = Auction::<2>::new(Bidding::CallRob, seat(0));
        assert_eq!(a.bid(1), Ok(AuctionStep::Next(seat(1))));
        assert_eq!(a.bid(1), Ok(AuctionStep::Next(seat(0))));
        assert_eq!(
            a.bid(1),
            Ok(AuctionStep::Landlord {
                seat: seat(0),
                base: 1
            })
        );
        assert_eq!((a.robs(), a.rob_multiplier()), (2, 4));
        // 0 calls, 1 robs, 0 lets it go: 1 after 1 rob.
        let steps = run::<2>(Bidding::CallRob, &[1, 1, 0]);
        assert_eq!(
            steps[2],
            AuctionStep::Landlord {
                seat: seat(1),
                base: 1
            }
        );
        // 0 declines, 1 calls: 1 at once (0 declined, no rob).
        assert_eq!(
            run::<2>(Bidding::CallRob, &[0, 1])[1],
            AuctionStep::Landlord {
                seat: seat(1),
                base: 1
            }
        );
        assert_eq!(
            run::<2>(Bidding::CallRob, &[0, 0])[1],
            AuctionStep::NobodyBid
        );
        // 0 calls, 1 declines to rob: 0.
        assert_eq!(
            run::<2>(Bidding::CallRob, &[1, 0])[1],
            AuctionStep::Landlord {
                seat: seat(0),
                base: 1
            }
        );
    }

    #[test]
    fn call_and_rob_at_three_seats() {
        // 0 declines, 1 calls, 2 robs, 0 declined before, 1 robs back: 1 after 2 robs.
        let mut a = Auction::<3>::new(Bidding::CallRob, Seat::ALL[0]);
        let steps: Vec<_> = [0, 1, 1, 1].iter().map(|&b| a.bid(b).unwrap()).collect();
        assert_eq!(steps[2], AuctionStep::Next(Seat::ALL[1]));
        assert_eq!(
            steps[3],
            AuctionStep::Landlord {
                seat: Seat::ALL[1],
                base: 1
            }
        );
        assert_eq!(a.robs(), 2);
        assert!(
            Auction::<3>::new(Bidding::CallRob, Seat::ALL[0])
                .bid(2)
                .is_err()
        );
    }
}
