//! Serving a robot over `ddz-jsonl/1`: one reply for each request line of a stream.

use std::io::{self, BufRead, Write};
use std::panic::{AssertUnwindSafe, catch_unwind};

use ddz_core::Rules;
use serde_json::Value;

use ddz_bots::Bot;
use ddz_bots::table::TableBot;

use super::error::ErrorCode;
use super::limits::MAX_LINE;

use super::messages::{
    Incoming, Request, act_reply, bid_reply, double_reply, error_reply, hello_reply,
    rejection_reply, result_reply, show_reply,
};
use super::parse::{parse_request, parse_request_at};

/// The reply of `bot` (introducing itself as `name`) to one request line.
pub fn answer(bot: &mut dyn Bot, name: &str, default_rules: &Rules, line: &str) -> Value {
    match parse_request(line, default_rules) {
        Ok(incoming) => reply(bot, name, incoming),
        Err(r) => rejection_reply(&r),
    }
}

/// The reply of `bot` (introducing itself as `name`) to a request already parsed and checked
/// ([`parse_request`]): what [`answer`] writes for its line. A robot that chooses an action it
/// was not allowed gets an error reply naming that.
pub fn reply(bot: &mut dyn Bot, name: &str, incoming: Incoming) -> Value {
    let Incoming { id, request } = incoming;
    match request {
        Request::Hello => hello_reply(&id, name),
        Request::Act(act) => {
            let m = bot.play(&act.view, &act.allowed);
            if act.allowed.contains(&m) {
                act_reply(&id, &m, act.view.rules())
            } else {
                error_reply(
                    &id,
                    ErrorCode::RobotNotAllowed,
                    "the robot chose a play it was not allowed",
                )
            }
        }
        Request::Bid(b) => {
            let bid = bot.bid(&b.view, &b.allowed);
            if b.allowed.contains(&bid) {
                bid_reply(&id, bid)
            } else {
                error_reply(
                    &id,
                    ErrorCode::RobotNotAllowed,
                    "the robot chose a bid it was not allowed",
                )
            }
        }
        Request::Double(d) => {
            let factor = bot.double(&d.view, &d.choices);
            if d.choices.contains(&factor) {
                double_reply(&id, factor)
            } else {
                error_reply(
                    &id,
                    ErrorCode::RobotNotAllowed,
                    "the robot chose a doubling factor it was not allowed",
                )
            }
        }
        Request::Show(r) => show_reply(&id, bot.show(&r.view, r.factor)),
        Request::Result { .. } => result_reply(&id),
    }
}

/// The reply of the table robot `bot` (introducing itself as `name`) to one request line of a
/// table of `N` seats ([`parse_request_at`]): [`answer`] for a game of two or four. A table
/// has no doubling or showing: such a request is answered, as the robot that never doubles
/// nor shows would (the smallest factor offered, no show).
pub fn answer_at<const N: usize>(
    bot: &mut TableBot,
    name: &str,
    default_rules: &Rules,
    line: &str,
) -> Value {
    let Incoming { id, request } = match parse_request_at::<N>(line, default_rules) {
        Ok(incoming) => incoming,
        Err(r) => return rejection_reply(&r),
    };
    match request {
        Request::Hello => hello_reply(&id, name),
        Request::Act(act) => {
            let m = bot.play(&act.view.turn_view(), &act.allowed);
            act_reply(&id, &m, act.view.rules())
        }
        Request::Bid(b) => bid_reply(&id, bot.bid_view(&b.view, &b.allowed)),
        Request::Double(d) => double_reply(&id, d.choices.iter().copied().min().unwrap_or(1)),
        Request::Show(_) => show_reply(&id, false),
        Request::Result { .. } => result_reply(&id),
    }
}

/// Reads one line of at most [`MAX_LINE`] bytes into `buf` (without its line end). Returns
/// `None` at the end of input, `Some(false)` for a line, `Some(true)` for a line too long
/// (skipped to its end without being kept).
fn read_line(input: &mut impl BufRead, buf: &mut Vec<u8>) -> io::Result<Option<bool>> {
    buf.clear();
    let n = io::Read::take(&mut *input, MAX_LINE as u64 + 1).read_until(b'\n', buf)?;
    if n == 0 {
        return Ok(None);
    }
    if buf.last() == Some(&b'\n') {
        buf.pop();
        if buf.last() == Some(&b'\r') {
            buf.pop();
        }
        return Ok(Some(false));
    }
    if buf.len() <= MAX_LINE {
        // The last line, without a line end.
        return Ok(Some(false));
    }
    buf.clear();
    loop {
        let chunk = input.fill_buf()?;
        if chunk.is_empty() {
            break;
        }
        match chunk.iter().position(|&b| b == b'\n') {
            Some(i) => {
                input.consume(i + 1);
                break;
            }
            None => {
                let len = chunk.len();
                input.consume(len);
            }
        }
    }
    Ok(Some(true))
}

/// Serves `bot` (introducing itself as `name`) over the protocol: reads request lines from
/// `input` until its end and writes exactly one reply line for each to `output`, flushed.
/// Bad requests (and a robot that panics) get an error reply and serving goes on; only an
/// input or output error stops it.
pub fn serve(
    bot: &mut dyn Bot,
    name: &str,
    default_rules: &Rules,
    input: impl BufRead,
    output: impl Write,
) -> io::Result<()> {
    serve_lines(input, output, |line| {
        catch_unwind(AssertUnwindSafe(|| answer(bot, name, default_rules, line))).unwrap_or_else(
            |_| {
                let id = parse_request(line, default_rules).map_or_else(|r| r.id, |i| i.id);
                internal_error(&id)
            },
        )
    })
}

/// [`serve`] for the table robot `bot` at a table of `N` seats (`ddz bot --rules two|four`):
/// the requests are read by [`parse_request_at`] and answered by [`answer_at`].
pub fn serve_at<const N: usize>(
    bot: &mut TableBot,
    name: &str,
    default_rules: &Rules,
    input: impl BufRead,
    output: impl Write,
) -> io::Result<()> {
    serve_lines(input, output, |line| {
        catch_unwind(AssertUnwindSafe(|| {
            answer_at::<N>(bot, name, default_rules, line)
        }))
        .unwrap_or_else(|_| {
            let id = parse_request_at::<N>(line, default_rules).map_or_else(|r| r.id, |i| i.id);
            internal_error(&id)
        })
    })
}

/// The reply to a request the robot failed on.
fn internal_error(id: &Value) -> Value {
    error_reply(
        id,
        ErrorCode::InternalError,
        "internal error: the robot failed on this request",
    )
}

/// Reads request lines from `input` until its end and writes one reply line for each to
/// `output`, flushed: `answer`'s for a line, an error for a line too long or not UTF-8.
fn serve_lines(
    mut input: impl BufRead,
    mut output: impl Write,
    mut answer: impl FnMut(&str) -> Value,
) -> io::Result<()> {
    let mut buf = Vec::new();
    while let Some(too_long) = read_line(&mut input, &mut buf)? {
        let reply = if too_long {
            error_reply(
                &Value::Null,
                ErrorCode::LineTooLong,
                &format!("line longer than {MAX_LINE} bytes: not read"),
            )
        } else {
            match std::str::from_utf8(&buf) {
                Err(e) => error_reply(
                    &Value::Null,
                    ErrorCode::NotJson,
                    &format!("not JSON: not UTF-8 ({e})"),
                ),
                Ok(line) => answer(line),
            }
        };
        writeln!(output, "{reply}")?;
        output.flush()?;
    }
    Ok(())
}
