//! Showing the hand (明牌, RULES.md section 7): the show windows and the shows made.

use ddz_core::ShowRules;

use crate::seat::Seat;

/// The show windows of a game and when each is: before the deal (x5), during the deal (x4,
/// x3, x2 by the cards received), or the landlord's after doubling (x2).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ShowWindow {
    /// Before the deal (明牌开始): x5.
    BeforeDeal,
    /// During the deal, each seat holding `cards` cards: x4, x3 or x2
    /// ([`ShowRules::during_deal_factor`]).
    DuringDeal {
        /// The cards each seat has received.
        cards: u32,
    },
    /// After doubling, the landlord with its 20 cards: x2.
    Landlord,
}

impl ShowWindow {
    /// The factor of a show in this window.
    pub fn factor(self) -> u32 {
        match self {
            ShowWindow::BeforeDeal => ShowRules::BEFORE_DEAL_FACTOR,
            ShowWindow::DuringDeal { cards } => ShowRules::during_deal_factor(cards).unwrap_or(1),
            ShowWindow::Landlord => ShowRules::LANDLORD_FACTOR,
        }
    }
}

/// A show (明牌): who showed, in which window, and its factor.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Show {
    /// The seat that showed.
    pub seat: Seat,
    /// When.
    pub window: ShowWindow,
    /// Its factor.
    pub factor: u32,
}
