//! Game records (`ddz-record/1` and `/2`): `ddz replay`, and the bodies of `POST /v1/replay`
//! and `POST /v1/analyse`, which the server reads with `GameRecord::parse`.

use ddz_game::{GameRecord, Seat};

/// Reads `data` (as text) as a game record and replays it as `POST /v1/replay` does, step by
/// step. A record that parses must write as JSON that reads back as itself; a record that
/// replays must give a game whose own record replays to the same result.
pub fn records(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    let Ok(record) = GameRecord::parse(&text) else {
        return;
    };
    let json = record.to_json();
    match GameRecord::parse(&json) {
        Ok(again) => assert_eq!(again, record, "{text:?} written {json}"),
        Err(e) => panic!("{text:?} written {json}, which does not read back: {e}"),
    }
    // What `/v1/replay` shows of the deal and of each step.
    if let Ok(deal) = record.deal.to_deal(&record.rules) {
        let _ = deal.kitty.to_cards().to_string();
    }
    let replayed = record.replay_each(|game, step| {
        let _ = step.to_string();
        for seat in Seat::ALL {
            let _ = game.hand(seat).to_string();
        }
        let _ = (game.landlord(), game.laizi(), game.multiplier());
    });
    let Ok(game) = replayed else {
        return;
    };
    let written = GameRecord::from_game(&game);
    match written.replay() {
        Ok(again) => assert_eq!(
            again.result(),
            game.result(),
            "{text:?}: the replay's record"
        ),
        Err(e) => panic!("{text:?}: the record of its replay does not replay: {e}"),
    }
}
