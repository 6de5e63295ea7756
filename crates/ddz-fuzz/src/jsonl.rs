//! `ddz-jsonl/1` request lines: `ddz bot` on stdio.

use ddz_bots::make_bot;
use ddz_core::Rules;
use ddz_protocol::jsonl::{self, ErrorCode};

/// Reads `data` (as text) as one request line under each default rule set (classic, and the
/// wild profile), then answers it with the greedy robot; then serves all of `data` as a
/// stream of lines, as `ddz bot` does. A robot that is given a checked request must answer it
/// with an action it was allowed.
pub fn jsonl(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    for rules in [Rules::classic(), Rules::laizi()] {
        let Ok(incoming) = jsonl::parse_request(&text, &rules) else {
            continue;
        };
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
