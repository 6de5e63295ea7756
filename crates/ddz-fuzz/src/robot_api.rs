//! The bodies of the server's robot API, `POST /v1/act` and `POST /v1/bid`.

use ddz_core::Rules;
use ddz_server::{Endpoint, robot_answer};

/// Robots a server offers that answer within milliseconds (the search robot takes its
/// time budget on every request, which is not the parser's work).
const ROBOTS: [&str; 3] = ["greedy", "random", "value"];

/// Answers `data` as the body of `POST /v1/act` and of `POST /v1/bid` with each robot of
/// [`ROBOTS`], under classic rules. A body is answered 200, or 400 with what is wrong; 500
/// (a robot that panicked or chose what it was not allowed) is a finding.
pub fn robot_api(data: &[u8]) {
    for endpoint in [Endpoint::Act, Endpoint::Bid] {
        for bot in ROBOTS {
            let (status, reply) = robot_answer(endpoint, data, bot, 1, &Rules::classic());
            assert_ne!(status, 500, "{endpoint:?} {bot}: {reply}");
            assert!(reply.is_object(), "{endpoint:?} {bot}: {reply}");
            if status == 400 {
                assert!(reply.get("error").is_some(), "{endpoint:?} {bot}: {reply}");
            }
        }
    }
}
