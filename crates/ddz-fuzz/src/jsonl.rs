//! `ddz-jsonl/1` request lines: `ddz bot` on stdio.

use ddz_bots::make_bot;
use ddz_bots::table::TableBot;
use ddz_core::Rules;
use ddz_protocol::jsonl::{self, ErrorCode, Request};

/// Reads `data` (as text) as one request line under each default rule set (classic, and the
/// wild profile), then answers it with the greedy robot; then serves all of `data` as a
/// stream of lines, as `ddz bot` does. An `act` or `bid` request written back by the
/// controller's side ([`jsonl::act_request`], [`jsonl::bid_request`]) must read as the same
/// request; a robot given a checked request must answer with an action it was allowed. The
/// same holds at the tables of two and four seats ([`jsonl::parse_request_at`]).
pub fn jsonl(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    table::<2>(&text, &Rules::two());
    table::<4>(&text, &Rules::four());
    for rules in [Rules::classic(), Rules::laizi()] {
        let Ok(incoming) = jsonl::parse_request(&text, &rules) else {
            continue;
        };
        // The controller's side writes `act` and `bid` requests back as the same request.
        let written = match &incoming.request {
            Request::Act(act) => Some(jsonl::act_request(
                &incoming.id,
                &act.view,
                Some(&act.allowed),
            )),
            Request::Bid(bid) => Some(jsonl::bid_request(&incoming.id, &bid.view)),
            _ => None,
        };
        if let Some(line) = written.map(|w| w.to_string()) {
            match jsonl::parse_request(&line, &rules) {
                Ok(again) => assert_eq!(again, incoming, "{text:?} written {line}"),
                Err(e) => panic!("{text:?} written {line}, which is refused: {e:?}"),
            }
        }
        let mut bot = make_bot("greedy", 1).expect("the greedy robot");
        let reply = jsonl::reply(bot.as_mut(), "greedy", incoming);
        let code = reply.get("code").and_then(|c| c.as_str());
        assert_ne!(
            code,
            Some(ErrorCode::RobotNotAllowed.code()),
            "{text:?}: {reply}"
        );
    }
    let mut bot = make_bot("greedy", 1).expect("the greedy robot");
    let mut output = Vec::new();
    jsonl::serve(bot.as_mut(), "greedy", &Rules::classic(), data, &mut output)
        .expect("writing to memory does not fail");
}

/// `text` read as a request of a table of `N` seats: written back by the controller's side it
/// reads the same, and a table robot answers it without an error.
fn table<const N: usize>(text: &str, rules: &Rules) {
    let Ok(incoming) = jsonl::parse_request_at::<N>(text, rules) else {
        return;
    };
    let written = match &incoming.request {
        Request::Act(act) => Some(jsonl::act_request(
            &incoming.id,
            &act.view,
            Some(&act.allowed),
        )),
        Request::Bid(bid) => Some(jsonl::bid_request(&incoming.id, &bid.view)),
        _ => None,
    };
    if let Some(line) = written.map(|w| w.to_string()) {
        match jsonl::parse_request_at::<N>(&line, rules) {
            Ok(again) => assert_eq!(again, incoming, "{text:?} written {line}"),
            Err(e) => panic!("{text:?} written {line}, which is refused: {e:?}"),
        }
    }
    let mut bot = TableBot::from_spec("ddzlib", 1).expect("the ddzlib table robot");
    let reply = jsonl::answer_at::<N>(&mut bot, "ddzlib", rules, text);
    assert!(reply.get("error").is_none(), "{text:?}: {reply}");
}
