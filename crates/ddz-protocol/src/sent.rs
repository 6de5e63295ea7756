//! Fields as they were sent: the typed reading of a request's fields that keeps, for a value
//! that does not read as its type, the JSON text it was, so that an error message can quote it
//! (`"seat": "1" is not a seat`).
//!
//! A request type is a struct of [`Sent`] fields (`#[serde(default)]`, so an absent key is
//! [`Sent::Absent`]); reading one never fails, and the checks that follow say what is wrong in
//! the protocol's own words rather than serde's. [`Object`] and [`Entries`] pin the shape
//! where serde would accept more (a struct from an array) or lose the order sent (a map).

use core::fmt;
use core::marker::PhantomData;

use serde::de::{DeserializeOwned, Error as _, MapAccess, Visitor};
use serde::{Deserialize, Deserializer, Serialize};
use serde_json::{Map, Value};

/// One field as sent.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) enum Sent<T> {
    /// The key is not there.
    #[default]
    Absent,
    /// The key is there with `null`.
    Null,
    /// The value, read as `T`.
    Read(T),
    /// A value that is not a `T`, as the JSON text it was.
    Other(String),
}

impl<'de, T: DeserializeOwned> Deserialize<'de> for Sent<T> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        // Any JSON value reads; whether it is a `T` is the reading's result, not an error.
        let value = Value::deserialize(deserializer)?;
        if value.is_null() {
            return Ok(Sent::Null);
        }
        Ok(match T::deserialize(&value) {
            Ok(read) => Sent::Read(read),
            Err(_) => Sent::Other(value.to_string()),
        })
    }
}

impl<T> Sent<T> {
    /// The field when the key is there (`null` counts as sent, as the text `null`): the value,
    /// or the text of what was sent instead; `None` when absent.
    pub(crate) fn present(self) -> Option<Result<T, String>> {
        match self {
            Sent::Absent => None,
            other => Some(other.sent()),
        }
    }

    /// The field when it has a value (absent and `null` are both "not given").
    pub(crate) fn given(self) -> Option<Result<T, String>> {
        match self {
            Sent::Absent | Sent::Null => None,
            other => Some(other.sent()),
        }
    }

    /// The value, or the text of what was sent instead (`null` for absent or null): for the
    /// entries of an array, which are always there.
    pub(crate) fn sent(self) -> Result<T, String> {
        match self {
            Sent::Read(read) => Ok(read),
            Sent::Other(text) => Err(text),
            Sent::Absent | Sent::Null => Err("null".to_string()),
        }
    }
}

/// The JSON text of a value that was read (to quote it as sent: `"9"`, `7`, `[17,17,20]`).
pub(crate) fn json_text(value: &impl Serialize) -> String {
    serde_json::to_string(value).unwrap_or_default()
}

/// Reads the typed fields `T` of a request object. Every field of such a struct is a
/// [`Sent`] with a default, so this fails only when `object` is not an object.
pub(crate) fn fields<T: DeserializeOwned>(object: &Value) -> Option<T> {
    if !object.is_object() {
        return None;
    }
    T::deserialize(object).ok()
}

/// A struct read only from a JSON object (serde would also read a struct from an array of
/// its fields in order, which no protocol here sends).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Object<T>(pub T);

impl<'de, T: DeserializeOwned> Deserialize<'de> for Object<T> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let map = Map::<String, Value>::deserialize(deserializer)?;
        T::deserialize(Value::Object(map))
            .map(Object)
            .map_err(D::Error::custom)
    }
}

/// The entries of a JSON object in the order sent, each value read as `T`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Entries<T>(pub Vec<(String, T)>);

impl<'de, T: Deserialize<'de>> Deserialize<'de> for Entries<T> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct EntriesVisitor<T>(PhantomData<T>);
        impl<'de, T: Deserialize<'de>> Visitor<'de> for EntriesVisitor<T> {
            type Value = Entries<T>;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("an object")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Entries<T>, A::Error> {
                let mut entries = Vec::with_capacity(map.size_hint().unwrap_or(0));
                while let Some(entry) = map.next_entry::<String, T>()? {
                    entries.push(entry);
                }
                Ok(Entries(entries))
            }
        }
        deserializer.deserialize_map(EntriesVisitor(PhantomData))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Debug, Default, Deserialize)]
    #[serde(default)]
    struct Probe {
        seat: Sent<u8>,
        pair: Sent<(Sent<u8>, String)>,
        last: Sent<Object<Inner>>,
        shown: Sent<Entries<Sent<String>>>,
    }

    #[derive(Debug, Default, Deserialize, PartialEq, Eq)]
    #[serde(default)]
    struct Inner {
        cards: Sent<String>,
    }

    fn probe(text: &str) -> Probe {
        let value: Value = serde_json::from_str(text).unwrap();
        fields(&value).unwrap()
    }

    #[test]
    fn absent_null_read_and_other_are_told_apart() {
        assert_eq!(probe("{}").seat, Sent::Absent);
        assert_eq!(probe(r#"{"seat": null}"#).seat, Sent::Null);
        assert_eq!(probe(r#"{"seat": 2}"#).seat, Sent::Read(2));
        assert_eq!(probe(r#"{"seat": "2"}"#).seat, Sent::Other("\"2\"".into()));
        assert_eq!(probe(r#"{"seat": 300}"#).seat, Sent::Other("300".into()));
        assert_eq!(probe(r#"{"seat": 1.0}"#).seat, Sent::Other("1.0".into()));
        assert_eq!(
            probe(r#"{"seat": null}"#).seat.present(),
            Some(Err("null".into()))
        );
        assert_eq!(probe(r#"{"seat": null}"#).seat.given(), None);
    }

    #[test]
    fn a_tuple_reads_only_from_an_array_of_its_length() {
        let read = probe(r#"{"pair": [1, "3"]}"#).pair;
        assert_eq!(read, Sent::Read((Sent::Read(1), "3".to_string())));
        let long = probe(r#"{"pair": [1, "3", 4]}"#).pair;
        assert_eq!(long, Sent::Other(r#"[1,"3",4]"#.into()));
        let bad_seat = probe(r#"{"pair": [null, "3"]}"#).pair;
        assert_eq!(bad_seat, Sent::Read((Sent::Null, "3".to_string())));
    }

    #[test]
    fn an_object_is_not_read_from_an_array() {
        let read = probe(r#"{"last": {"cards": "3"}}"#).last;
        let inner = Inner {
            cards: Sent::Read("3".into()),
        };
        assert_eq!(read, Sent::Read(Object(inner)));
        let array = probe(r#"{"last": ["3"]}"#).last;
        assert_eq!(array, Sent::Other(r#"["3"]"#.into()));
    }

    #[test]
    fn entries_keep_the_order_sent() {
        let Sent::Read(Entries(entries)) = probe(r#"{"shown": {"2": "3", "0": 4}}"#).shown else {
            panic!("not read");
        };
        let keys: Vec<&str> = entries.iter().map(|(k, _)| k.as_str()).collect();
        assert_eq!(keys, ["2", "0"]);
        assert_eq!(entries[1].1, Sent::Other("4".into()));
    }

    #[test]
    fn json_text_quotes_as_sent() {
        assert_eq!(json_text(&"9"), "\"9\"");
        assert_eq!(json_text(&[17, 17, 20]), "[17,17,20]");
    }
}

/// An array as sent, its entries read as `T`, with the JSON text it was: for the fields of
/// one entry a seat, whose length the table decides ([`Listed::seats`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Listed<T> {
    items: Vec<T>,
    text: String,
}

impl<'de, T: DeserializeOwned> Deserialize<'de> for Listed<T> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let value = Value::deserialize(deserializer)?;
        let items = Vec::<T>::deserialize(&value).map_err(D::Error::custom)?;
        Ok(Listed {
            items,
            text: value.to_string(),
        })
    }
}

impl<T> Listed<T> {
    /// The entries, one a seat of a table of `N`; the JSON text sent when there are not `N`.
    pub(crate) fn seats<const N: usize>(self) -> Result<[T; N], String> {
        let text = self.text;
        <[T; N]>::try_from(self.items).map_err(|_| text)
    }
}
