//! Seats, per-seat maps and roles.

use core::fmt;
use core::ops::{Index, IndexMut};

/// One of the seats, in play order: 0, 1 or 2 at the classic table (0 → 1 → 2 → 0), 0 and 1
/// under `two`, 0 to 3 under `four`. The seat count is a const parameter `N` of the types
/// that hold one value per seat ([`BySeat`]); the methods without it are the three-seat ones.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Seat(u8);

impl Seat {
    /// The three seats in play order.
    pub const ALL: [Seat; 3] = [Seat(0), Seat(1), Seat(2)];

    /// The `N` seats of an `N`-seat table in play order.
    pub const fn all<const N: usize>() -> [Seat; N] {
        let mut seats = [Seat(0); N];
        let mut i = 0;
        while i < N {
            seats[i] = Seat(i as u8);
            i += 1;
        }
        seats
    }

    /// The seat with index `i` at an `N`-seat table, or `None`.
    pub const fn of<const N: usize>(i: u8) -> Option<Seat> {
        if (i as usize) < N {
            Some(Seat(i))
        } else {
            None
        }
    }

    /// The seat that plays after this one at an `N`-seat table.
    pub const fn next_of<const N: usize>(self) -> Seat {
        Seat(((self.0 as usize + 1) % N) as u8)
    }

    /// The seat that plays before this one at an `N`-seat table.
    pub const fn prev_of<const N: usize>(self) -> Seat {
        Seat(((self.0 as usize + N - 1) % N) as u8)
    }

    /// How many seats play after `from` up to and including this one at an `N`-seat table
    /// (0 when it is `from`).
    pub const fn after<const N: usize>(self, from: Seat) -> usize {
        (self.0 as usize + N - from.0 as usize) % N
    }

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

/// Reads a seat of an `N`-seat table (`#[serde(deserialize_with = "seat_of::<N, _>")]`): a
/// number below `N`.
pub(crate) fn seat_of<'de, const N: usize, D: serde::Deserializer<'de>>(
    d: D,
) -> Result<Seat, D::Error> {
    if N == 3 {
        // The three-seat message, as records have always had it.
        return <Seat as serde::Deserialize>::deserialize(d);
    }
    let i = <u8 as serde::Deserialize>::deserialize(d)?;
    Seat::of::<N>(i).ok_or_else(|| {
        serde::de::Error::custom(format!("seat {i} is not a seat of {N} (0 to {})", N - 1))
    })
}

/// One value per seat of an `N`-seat table (3 unless said), indexed by [`Seat`]; written as
/// an `N`-element array.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct BySeat<T, const N: usize = 3>(pub [T; N]);

/// Written as a JSON array of the `N` values, seat 0 first (serde's own arrays stop at 32
/// and need a bound for every `N`).
impl<T: serde::Serialize, const N: usize> serde::Serialize for BySeat<T, N> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeTuple;
        let mut t = s.serialize_tuple(N)?;
        for v in &self.0 {
            t.serialize_element(v)?;
        }
        t.end()
    }
}

/// Read from an array of exactly `N` values.
impl<'de, T: serde::Deserialize<'de>, const N: usize> serde::Deserialize<'de> for BySeat<T, N> {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<BySeat<T, N>, D::Error> {
        let values = Vec::<T>::deserialize(d)?;
        let found = values.len();
        <[T; N]>::try_from(values).map(BySeat).map_err(|_| {
            serde::de::Error::custom(format!("expected {N} values, one a seat, found {found}"))
        })
    }
}

impl<T, const N: usize> BySeat<T, N> {
    /// A map built from a function of the seat.
    pub fn from_fn(mut f: impl FnMut(Seat) -> T) -> BySeat<T, N> {
        BySeat(core::array::from_fn(|i| f(Seat(i as u8))))
    }

    /// The values in seat order.
    pub fn iter(&self) -> impl Iterator<Item = (Seat, &T)> {
        Seat::all::<N>().into_iter().zip(self.0.iter())
    }
}

impl<T: Default, const N: usize> Default for BySeat<T, N> {
    fn default() -> Self {
        BySeat::from_fn(|_| T::default())
    }
}

impl<T, const N: usize> Index<Seat> for BySeat<T, N> {
    type Output = T;
    fn index(&self, seat: Seat) -> &T {
        &self.0[seat.index()]
    }
}

impl<T, const N: usize> IndexMut<Seat> for BySeat<T, N> {
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
    /// At four seats, the farmer who plays two turns after the landlord, across the table
    /// from it (对家). No seat has this role at two or three seats.
    LandlordAcross,
}

impl Role {
    /// The role of `seat` at the classic three-seat table when `landlord` is the
    /// landlord's seat: [`Role::at`] for 3 seats.
    pub const fn of(seat: Seat, landlord: Seat) -> Role {
        Role::at::<3>(seat, landlord)
    }

    /// The role of `seat` at an `N`-seat table when `landlord` is the landlord's seat: the
    /// seat after the landlord is [`Role::LandlordDown`], the seat before it
    /// [`Role::LandlordUp`], the seat across at four seats [`Role::LandlordAcross`]. At two
    /// seats the one farmer plays both after and before the landlord; it is `LandlordDown`.
    pub const fn at<const N: usize>(seat: Seat, landlord: Seat) -> Role {
        match seat.after::<N>(landlord) {
            0 => Role::Landlord,
            1 => Role::LandlordDown,
            2 if N == 4 => Role::LandlordAcross,
            _ => Role::LandlordUp,
        }
    }

    /// The role's name (`landlord`, `landlord_down`, `landlord_up`, `landlord_across`).
    pub const fn name(self) -> &'static str {
        match self {
            Role::Landlord => "landlord",
            Role::LandlordDown => "landlord_down",
            Role::LandlordUp => "landlord_up",
            Role::LandlordAcross => "landlord_across",
        }
    }

    /// True for the farmers.
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
        let four = Seat::all::<4>();
        let roles: Vec<Role> = four.iter().map(|s| Role::at::<4>(*s, four[1])).collect();
        assert_eq!(
            roles,
            [
                Role::LandlordUp,
                Role::Landlord,
                Role::LandlordDown,
                Role::LandlordAcross
            ]
        );
        assert_eq!(
            Role::at::<2>(Seat::ALL[0], Seat::ALL[1]),
            Role::LandlordDown
        );
        assert_eq!(Role::at::<2>(Seat::ALL[1], Seat::ALL[1]), Role::Landlord);
        let mut m = BySeat([0; 3]);
        m[b] = 5;
        assert_eq!(m.0, [0, 5, 0]);
    }

    #[test]
    fn seats_cycle_at_two_and_four() {
        let [a, b] = Seat::all::<2>();
        assert_eq!(
            (a.next_of::<2>(), b.next_of::<2>(), a.prev_of::<2>()),
            (b, a, b)
        );
        let four = Seat::all::<4>();
        assert_eq!(four[3].next_of::<4>(), four[0]);
        assert_eq!(four[0].prev_of::<4>(), four[3]);
        assert_eq!(four[1].after::<4>(four[2]), 3);
        assert_eq!(Seat::of::<4>(3), Some(four[3]));
        assert_eq!(Seat::of::<2>(2), None);
        for s in Seat::ALL {
            assert_eq!(s.next_of::<3>(), s.next());
            assert_eq!(s.prev_of::<3>(), s.prev());
        }
        let m: BySeat<u8, 4> = BySeat::from_fn(|s| s.index() as u8);
        assert_eq!(serde_json::to_string(&m).unwrap(), "[0,1,2,3]");
        assert_eq!(m.iter().count(), 4);
        assert!(serde_json::from_str::<BySeat<u8, 4>>("[0,1,2]").is_err());
    }
}
