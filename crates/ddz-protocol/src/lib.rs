//! # ddz-protocol
//!
//! The wire formats around ddz's robots, kept out of the robots themselves (robots neither
//! speak JSON nor start processes):
//!
//! - [`jsonl`]: the stdio protocol `ddz-jsonl/1` (PROTOCOL.md, docs/protocol.md): the robot
//!   side ([`jsonl::parse_request`] rebuilds a seat's view from a request by replaying its
//!   history with the play state's rules, [`jsonl::serve`] runs a [`ddz_bots::Bot`] over a
//!   stream) and the controller side ([`jsonl::act_request`], [`jsonl::bid_request`]);
//! - [`botzone`]: Botzone's FightTheLandlord and FightTheLandlord2 input format;
//! - [`external`]: robots played by external programs speaking `ddz-jsonl/1`
//!   ([`external::Externals::registry`] makes them robots that [`ddz_bots::BotSpec`] knows).
//!
//! Every message is read as a serde type: a request's fields, a Botzone request's and an
//! external program's reply are structs whose fields keep what was sent when it is not what
//! the protocol asks (so the error can quote it); nothing walks a JSON value by hand.
//!
//! Bad input is a typed error that says where and what: [`jsonl::ProtocolError`] (a field of
//! the request and a [`jsonl::Problem`]) and [`botzone::BotzoneError`] (a place in the input
//! and a [`botzone::Problem`]); their messages quote the value sent
//! (`"history"[3]: seat 1 plays out of turn (seat 2 was to play)`).
//!
//! ```
//! use ddz_core::Rules;
//! use ddz_protocol::jsonl;
//!
//! let mut bot = ddz_bots::make_bot("greedy", 1).unwrap();
//! let line = concat!(
//!     r#"{"protocol": "ddz-jsonl/1", "type": "act", "id": 1, "seat": 0, "landlord_seat": 0,"#,
//!     r#" "role": "landlord", "hand": "34", "cards_left": [2, 17, 17], "history": [],"#,
//!     r#" "last": null}"#,
//! );
//! let reply = jsonl::answer(bot.as_mut(), "greedy", &Rules::classic(), line);
//! assert_eq!(reply.to_string(), r#"{"id":1,"cards":"3"}"#);
//! ```

pub mod botzone;
pub mod external;
pub mod jsonl;
mod sent;
