//! Seats, per-seat maps and roles.

use core::fmt;
use core::ops::{Index, IndexMut};

/// One of the three seats, 0, 1 or 2, in play order (0 → 1 → 2 → 0).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Seat(u8);

impl Seat {
    /// The three seats in play order.
    pub const ALL: [Seat; 3] = [Seat(0), Seat(1), Seat(2)];

    /// The seat with index `i` (0..=2), or `None`.
    pub const fn new(i: u8) -> Option<Seat> {
        if i < 3 { Some(Seat(i)) } else { None }
    }

    /// The seat's index, 0..=2.
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// The seat that plays after this one.
    pub const fn next(self) -> Seat {
        Seat((self.0 + 1) % 3)
    }

    /// The seat that plays before this one.
    pub const fn prev(self) -> Seat {
        Seat((self.0 + 2) % 3)
    }
}

impl fmt::Display for Seat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

/// Seats are written as their number 0, 1 or 2.
impl serde::Serialize for Seat {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_u8(self.0)
    }
}

impl<'de> serde::Deserialize<'de> for Seat {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Seat, D::Error> {
        let i = u8::deserialize(d)?;
        Seat::new(i).ok_or_else(|| serde::de::Error::custom(format!("seat {i} is not 0, 1 or 2")))
    }
}

/// One value per seat, indexed by [`Seat`]; written as a three-element array.
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize,
)]
#[serde(transparent)]
pub struct BySeat<T>(pub [T; 3]);

impl<T> BySeat<T> {
    /// A map built from a function of the seat.
    pub fn from_fn(mut f: impl FnMut(Seat) -> T) -> BySeat<T> {
        BySeat([f(Seat(0)), f(Seat(1)), f(Seat(2))])
    }

    /// The values in seat order.
    pub fn iter(&self) -> impl Iterator<Item = (Seat, &T)> {
        Seat::ALL.into_iter().zip(self.0.iter())
    }
}

impl<T> Index<Seat> for BySeat<T> {
    type Output = T;
    fn index(&self, seat: Seat) -> &T {
        &self.0[seat.index()]
    }
}

impl<T> IndexMut<Seat> for BySeat<T> {
    fn index_mut(&mut self, seat: Seat) -> &mut T {
        &mut self.0[seat.index()]
    }
}

/// A seat's role once the landlord is known.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Role {
    /// The landlord (地主).
    Landlord,
    /// The farmer who plays right after the landlord (下家).
    LandlordDown,
    /// The farmer who plays right before the landlord (上家).
    LandlordUp,
}

impl Role {
    /// The role of `seat` when `landlord` is the landlord's seat.
    pub const fn of(seat: Seat, landlord: Seat) -> Role {
        match (seat.0 + 3 - landlord.0) % 3 {
            0 => Role::Landlord,
            1 => Role::LandlordDown,
            _ => Role::LandlordUp,
        }
    }

    /// The role's name (`landlord`, `landlord_down`, `landlord_up`).
    pub const fn name(self) -> &'static str {
        match self {
            Role::Landlord => "landlord",
            Role::LandlordDown => "landlord_down",
            Role::LandlordUp => "landlord_up",
        }
    }

    /// True for the two farmers.
    pub const fn is_farmer(self) -> bool {
        !matches!(self, Role::Landlord)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seats_cycle_and_roles() {
        let [a, b, c] = Seat::ALL;
        assert_eq!((a.next(), b.next(), c.next()), (b, c, a));
        assert_eq!(a.prev(), c);
        assert_eq!(Seat::new(3), None);
        assert_eq!(Role::of(a, a), Role::Landlord);
        assert_eq!(Role::of(b, a), Role::LandlordDown);
        assert_eq!(Role::of(c, a), Role::LandlordUp);
        assert_eq!(Role::of(a, b), Role::LandlordUp);
        let mut m = BySeat([0; 3]);
        m[b] = 5;
        assert_eq!(m.0, [0, 5, 0]);
    }
}
