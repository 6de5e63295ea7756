//! Botzone's input (`ddz botzone`): the full input line and, in keep-running mode, one
//! request a line.

use ddz_bots::make_bot;
use ddz_protocol::botzone::{self, BotzoneError, Session};

/// Reads the first line of `data` (as text) as Botzone's full input and answers its turn
/// with the greedy robot, then serves all of `data` in keep-running mode. A turn read from
/// the input must let the robot answer with a bid or play it allows, from its hand.
pub fn botzone(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    let first = text.lines().next().unwrap_or_default();
    if let Ok(mut session) = Session::from_input(first) {
        let mut bot = make_bot("greedy", 1).expect("the greedy robot");
        check(first, session.answer(bot.as_mut()).map(drop));
    }
    let mut bot = make_bot("greedy", 1).expect("the greedy robot");
    let mut output = Vec::new();
    // Input that is not UTF-8 is an input error (`ddz botzone` reports it), not a turn.
    if let Ok(served) = botzone::serve(bot.as_mut(), data, &mut output, true) {
        check(&text, served);
    }
}

/// Bad input is refused; a robot that cannot answer a turn read from the input is a finding.
fn check(input: &str, answered: Result<(), BotzoneError>) {
    if let Err(
        e @ (BotzoneError::RobotBid(_)
        | BotzoneError::RobotPlay(_)
        | BotzoneError::RobotPlayNotInHand(_)),
    ) = answered
    {
        panic!("{input:?}: the robot could not answer the turn read: {e}");
    }
}
