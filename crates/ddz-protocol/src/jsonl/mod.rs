//! The robot side of the stdio protocol `ddz-jsonl/1` (PROTOCOL.md, docs/protocol.md): one JSON
//! request a line in, one JSON reply a line out.
//!
//! [`parse_request`] turns a line into a checked [`Request`] (the seat's [`SeatView`](ddz_game::SeatView) and what it
//! may do), or an error that names the field; the `*_reply` functions build the answers;
//! [`serve`] runs a [`Bot`](ddz_bots::Bot) over a whole stream. The `*_request` functions build requests from a
//! game's view, for a controller that drives a robot through the protocol.
//!
//! ```
//! use ddz_bots::make_bot;
//! use ddz_core::Rules;
//! use ddz_protocol::jsonl;
//!
//! let mut bot = make_bot("greedy", 1).unwrap();
//! let input = concat!(
//!     r#"{"protocol": "ddz-jsonl/1", "type": "hello", "id": 0}"#, "\n",
//!     r#"{"protocol": "ddz-jsonl/1", "type": "act", "id": "a", "seat": 0, "landlord_seat": 0,"#,
//!     r#" "role": "landlord", "hand": "33", "cards_left": [2, 17, 17], "history": [],"#,
//!     r#" "last": null}"#, "\n",
//!     "oops\n",
//! );
//! let mut output = Vec::new();
//! jsonl::serve(bot.as_mut(), "greedy", &Rules::classic(), input.as_bytes(), &mut output)
//!     .unwrap();
//! let lines: Vec<&str> = std::str::from_utf8(&output).unwrap().lines().collect();
//! assert_eq!(lines[1], r#"{"id":"a","cards":"3"}"#);
//! assert_eq!(
//!     lines[2],
//!     r#"{"id":null,"error":"not JSON: expected value at line 1 column 1","code":"not_json"}"#
//! );
//! ```

mod error;
mod limits;
mod messages;
mod parse;
mod read;
mod session;

pub use error::{Disallowed, ErrorCode, Field, Problem, ProtocolError};
pub use limits::{MAX_LINE, PROTOCOL};
pub use messages::{
    ActReply, ActRequest, ActWire, BeforePlayWire, BidReply, BidRequest, BidWire, DoubleReply,
    DoubleRequest, DoubleWire, ErrorReply, HelloReply, HelloWire, Incoming, LastWire, Rejection,
    Request, ResultReply, ResultWire, ShowReply, ShowRequest, ShowWire, VariantsWire, WireBody,
    WireRequest, act_reply, act_request, bid_reply, bid_request, double_reply, double_request,
    error_reply, hello_reply, hello_request, rejection_reply, result_reply, result_request,
    show_reply, show_request,
};
pub use parse::{parse_request, parse_request_at};
pub use session::{answer, answer_at, reply, serve, serve_at};
