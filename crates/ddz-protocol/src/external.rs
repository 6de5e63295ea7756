//! Robots played by external programs: the controller side of the stdio protocol `ddz-jsonl/1`
//! (PROTOCOL.md, docs/protocol.md).
//!
//! An [`ExternalBot`] starts a program, says `hello`, and for each decision writes a `bid` or
//! `act` request (with `legal_moves`, so the program must choose among the moves it is
//! allowed) and waits for the reply at most a per-decision timeout (for `hello`, which
//! includes the program's start, at least [`DEFAULT_TIMEOUT`]). A program that replies
//! with a move or bid it was not allowed, replies with an error or with something that is not
//! a reply, exits, or stays silent past the timeout has *failed*: the robot records why
//! ([`Bot::failure`]), stops talking to the program and answers with the first allowed action
//! so that the [`Bot`] trait stays infallible. The controller (the arena) checks
//! [`Bot::failure`] after each decision and forfeits the game.
//!
//! The command line is split on whitespace, with no shell: no quoting, globbing or
//! redirection (write a script for those). The program's stdin and stdout carry the protocol;
//! its stderr is inherited (its logs go to the controller's stderr). The program is killed and
//! reaped when the robot is dropped.
//!
//! [`Externals`] holds the definitions of external robots by name (`--exec NAME=COMMAND`);
//! [`Externals::registry`] makes them robots that [`ddz_bots::BotSpec::parse_with`] knows.

use std::collections::BTreeMap;
use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::thread;
use std::time::Duration;

use ddz_core::{Move, parse_move};
use ddz_game::{Bid, SeatView};
use serde::Deserialize;
use serde_json::Value;

use crate::jsonl::{
    MAX_LINE, act_request, bid_request, double_request, hello_request, show_request,
};
use crate::sent::{Sent, fields};
use std::sync::Arc;

use ddz_bots::table::TablePlayer;
use ddz_bots::{BOT_NAMES, Bot, BotError, BotFactory, Registry};

/// The per-decision timeout when none is given: 5 seconds.
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(5);

/// One external robot's definition: its command line and per-decision timeout.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct External {
    /// The program and its arguments (the command line split on whitespace).
    pub command: Vec<String>,
    /// How long the program may take over one reply (over `hello`, which includes starting
    /// the program, at least [`DEFAULT_TIMEOUT`]).
    pub timeout: Duration,
}

/// The registry of external robots: NAME → program and timeout.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Externals {
    robots: BTreeMap<String, External>,
}

impl Externals {
    /// An empty registry.
    pub fn new() -> Externals {
        Externals::default()
    }

    /// Parses `NAME=COMMAND` into the name and the command line split on whitespace. The
    /// name is letters, digits, `_`, `-` and `.`, and not a built-in robot's name; the command
    /// is not empty.
    pub fn parse_definition(definition: &str) -> Result<(String, Vec<String>), BotError> {
        let bad = |definition: &str, why| BotError::Definition {
            definition: definition.to_string(),
            why,
        };
        let Some((name, command)) = definition.split_once('=') else {
            return Err(bad(definition, "expected NAME=COMMAND"));
        };
        let name = name.trim();
        if name.is_empty() {
            return Err(bad(definition, "the name before '=' is empty"));
        }
        if !name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.'))
        {
            return Err(BotError::BadName(name.to_string()));
        }
        if BOT_NAMES.contains(&name) {
            return Err(BotError::NameTaken {
                name: name.to_string(),
                builtin: true,
            });
        }
        let command: Vec<String> = command.split_whitespace().map(str::to_string).collect();
        if command.is_empty() {
            return Err(bad(name, "the command after '=' is empty"));
        }
        Ok((name.to_string(), command))
    }

    /// Adds the robot defined by `NAME=COMMAND` ([`Externals::parse_definition`]) with a
    /// per-decision `timeout`. A name defined twice is an error.
    pub fn add(&mut self, definition: &str, timeout: Duration) -> Result<(), BotError> {
        let (name, command) = Externals::parse_definition(definition)?;
        if self.robots.contains_key(&name) {
            return Err(BotError::NameTaken {
                name,
                builtin: false,
            });
        }
        self.robots.insert(name, External { command, timeout });
        Ok(())
    }

    /// The robot called `name`, if defined.
    pub fn get(&self, name: &str) -> Option<&External> {
        self.robots.get(name)
    }

    /// The names defined, in order.
    pub fn names(&self) -> impl Iterator<Item = &str> {
        self.robots.keys().map(String::as_str)
    }

    /// Whether no robot is defined.
    pub fn is_empty(&self) -> bool {
        self.robots.is_empty()
    }

    /// The robots defined, as a registry for [`ddz_bots::BotSpec::parse_with`]: each builds an
    /// [`ExternalBot`] (starting its program) per game.
    pub fn registry(&self) -> Registry {
        let mut registry = Registry::new();
        for (name, external) in &self.robots {
            let factory = Arc::new(ExternalFactory {
                name: name.clone(),
                external: external.clone(),
            });
            // Names were checked when added: a registry built from them takes each once.
            let _ = registry.add(name, factory);
        }
        registry
    }
}

/// Starts an external robot's program for each game.
struct ExternalFactory {
    name: String,
    external: External,
}

impl BotFactory for ExternalFactory {
    fn build(&self, _seed: u64) -> Result<Box<dyn Bot>, BotError> {
        Ok(Box::new(ExternalBot::spawn(&self.name, &self.external)?))
    }
}

/// What the reader thread sends: a line of the program's stdout, or why there is none.
type Line = Result<String, String>;

/// A robot played by an external program over `ddz-jsonl/1` (see the module docs).
pub struct ExternalBot {
    /// The robot's name in robot lists.
    name: String,
    /// The name the program gave in its hello reply.
    hello_name: Option<String>,
    child: Child,
    /// Lines to write to the program's stdin (a writer thread owns it).
    requests: Option<Sender<String>>,
    /// Lines read from the program's stdout.
    replies: Receiver<Line>,
    timeout: Duration,
    next_id: u64,
    failure: Option<String>,
}

impl ExternalBot {
    /// Starts `external`'s program as the robot `name` and says hello. Failing to start the
    /// program is an error; a program that does not answer hello properly has failed
    /// ([`Bot::failure`]).
    pub fn spawn(name: &str, external: &External) -> Result<ExternalBot, BotError> {
        let Some((program, args)) = external.command.split_first() else {
            return Err(BotError::Start {
                name: name.to_string(),
                why: "no command".to_string(),
            });
        };
        let mut child = Command::new(program)
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .map_err(|e| BotError::Start {
                name: name.to_string(),
                why: format!("cannot start \"{program}\": {e}"),
            })?;
        let (stdin, stdout) = match (child.stdin.take(), child.stdout.take()) {
            (Some(i), Some(o)) => (i, o),
            _ => {
                let _ = child.kill();
                let _ = child.wait();
                return Err(BotError::Start {
                    name: name.to_string(),
                    why: "no pipes to the program".to_string(),
                });
            }
        };
        let requests = spawn_writer(stdin);
        let replies = spawn_reader(stdout);
        let mut bot = ExternalBot {
            name: name.to_string(),
            hello_name: None,
            child,
            requests: Some(requests),
            replies,
            timeout: external.timeout,
            next_id: 0,
            failure: None,
        };
        // Starting a program can take longer than a decision on a busy machine.
        bot.timeout = external.timeout.max(DEFAULT_TIMEOUT);
        let reply = bot.exchange("hello", hello_request);
        bot.timeout = external.timeout;
        if let Some(reply) = reply {
            match reply.fields.name {
                Sent::Read(n) => bot.hello_name = Some(n),
                _ => bot.fail(format!("hello reply without a \"name\": {}", reply.json)),
            }
        }
        Ok(bot)
    }

    /// The name the program gave in its hello reply.
    pub fn hello_name(&self) -> Option<&str> {
        self.hello_name.as_deref()
    }

    /// Records the first failure and stops talking to the program.
    fn fail(&mut self, why: String) {
        if self.failure.is_none() {
            self.failure = Some(why);
        }
        self.requests = None;
    }

    /// Sends the `kind` request `request` builds with the next id and returns the reply, or
    /// records a failure and returns `None`. Replies with an `error` or another `id` are
    /// failures.
    fn exchange(&mut self, kind: &str, request: impl FnOnce(&Value) -> Value) -> Option<Reply> {
        let sender = self.requests.as_ref()?;
        let id = self.next_id;
        self.next_id += 1;
        let request = request(&Value::from(id));
        if sender.send(request.to_string()).is_err() {
            self.fail(format!("{kind}: the program closed its input"));
            return None;
        }
        let line = match self.replies.recv_timeout(self.timeout) {
            Ok(Ok(line)) => line,
            Ok(Err(why)) => {
                self.fail(format!("{kind}: {why}"));
                return None;
            }
            Err(RecvTimeoutError::Timeout) => {
                self.fail(format!(
                    "{kind}: timeout, no reply within {} ms",
                    self.timeout.as_millis()
                ));
                return None;
            }
            Err(RecvTimeoutError::Disconnected) => {
                self.fail(format!("{kind}: the program's output is closed"));
                return None;
            }
        };
        let json: Option<Value> = serde_json::from_str(&line).ok();
        let Some((json, fields)) = json.and_then(|j| fields::<ReplyFields>(&j).map(|f| (j, f)))
        else {
            self.fail(format!(
                "{kind}: malformed reply (not a JSON object): {}",
                clip(&line)
            ));
            return None;
        };
        if let Some(error) = fields.error.clone().present() {
            let error = error.map_or_else(|text| text, |json| json.to_string());
            self.fail(format!("{kind}: error reply: {error}"));
            return None;
        }
        match fields.id.clone().sent() {
            Ok(sent) if sent == id => {}
            other => {
                let sent = other.map_or_else(|text| text, |n| n.to_string());
                self.fail(format!("{kind}: reply to id {sent}, expected {id}"));
                return None;
            }
        }
        Some(Reply { fields, json })
    }
}

/// The fields of a program's reply that a controller reads (`ddz-jsonl/1`'s reply types).
#[derive(Default, Deserialize)]
#[serde(default)]
struct ReplyFields {
    id: Sent<u64>,
    /// An error reply's error (any JSON: a string, or an object with a code).
    error: Sent<Value>,
    /// The `hello` reply's robot name.
    name: Sent<String>,
    /// The `bid` reply's bid.
    bid: Sent<u64>,
    /// The `act` reply's move.
    cards: Sent<String>,
    /// The `double` reply's factor.
    double: Sent<u64>,
    /// The `show` reply's choice.
    show: Sent<bool>,
}

/// A reply: its fields, and the JSON sent (quoted when it is wrong as a whole).
struct Reply {
    fields: ReplyFields,
    json: Value,
}

/// What was sent in a reply's field, as JSON text (`null` when absent).
fn shown<T: serde::Serialize>(sent: Result<T, String>) -> String {
    sent.map_or_else(|text| text, |v| crate::sent::json_text(&v))
}

/// A line cut to 200 characters, for messages.
fn clip(line: &str) -> String {
    match line.char_indices().nth(200) {
        Some((i, _)) => format!("{}...", &line[..i]),
        None => line.to_string(),
    }
}

/// A thread writing each line sent to the program's stdin, flushed; it ends when the sender
/// is dropped or a write fails (the program exited).
fn spawn_writer(mut stdin: ChildStdin) -> Sender<String> {
    let (tx, rx) = mpsc::channel::<String>();
    thread::spawn(move || {
        for line in rx {
            if writeln!(stdin, "{line}")
                .and_then(|()| stdin.flush())
                .is_err()
            {
                break;
            }
        }
    });
    tx
}

/// A thread reading the program's stdout line by line (at most [`MAX_LINE`] bytes a line); it
/// ends at the end of the output, on a read error or a line too long (each reported), or when
/// the receiver is dropped.
fn spawn_reader(stdout: ChildStdout) -> Receiver<Line> {
    let (tx, rx) = mpsc::channel::<Line>();
    thread::spawn(move || {
        let mut input = BufReader::new(stdout);
        let mut buf = Vec::new();
        loop {
            buf.clear();
            let read = (&mut input)
                .take(MAX_LINE as u64 + 1)
                .read_until(b'\n', &mut buf);
            let line = match read {
                Err(e) => Err(format!("cannot read the program's output: {e}")),
                Ok(0) => Err("the program exited (end of its output)".to_string()),
                Ok(_) if buf.last() != Some(&b'\n') && buf.len() > MAX_LINE => {
                    Err(format!("a reply longer than {MAX_LINE} bytes"))
                }
                Ok(_) => {
                    let text = String::from_utf8_lossy(&buf);
                    Ok(text.trim_end_matches(['\n', '\r']).to_string())
                }
            };
            let last = line.is_err();
            if tx.send(line).is_err() || last {
                break;
            }
        }
    });
    rx
}

impl ExternalBot {
    /// Asks the program a `bid` request for the seat of `view` at a table of `N`; a reply
    /// that is not one of `allowed` is a failure.
    fn bid_at<const N: usize>(&mut self, view: &SeatView<N>, allowed: &[Bid]) -> Bid {
        let fallback = allowed.first().copied().unwrap_or(0);
        let Some(reply) = self.exchange("bid", |id| bid_request(id, view)) else {
            return fallback;
        };
        let sent = reply.fields.bid.sent();
        match sent.as_ref().ok().and_then(|&b| Bid::try_from(b).ok()) {
            Some(b) if allowed.contains(&b) => b,
            _ => {
                let shown = shown(sent);
                self.fail(format!("bid: {shown} is not an allowed bid {allowed:?}"));
                fallback
            }
        }
    }

    /// Asks the program an `act` request for the seat of `view` at a table of `N`; a reply
    /// that is not one of `allowed` is a failure.
    fn play_at<const N: usize>(&mut self, view: &SeatView<N>, allowed: &[Move]) -> Move {
        let fallback = allowed.first().copied().unwrap_or(Move::PASS);
        let Some(reply) = self.exchange("act", |id| act_request(id, view, Some(allowed))) else {
            return fallback;
        };
        let text = match reply.fields.cards.sent() {
            Ok(text) => text,
            Err(shown) => {
                self.fail(format!("act: \"cards\": {shown} is not a move"));
                return fallback;
            }
        };
        let beat = view.last().map(|(_, m)| m);
        let m = match parse_move(&text, view.rules(), beat.as_ref()) {
            Ok(m) => m,
            Err(e) => {
                self.fail(format!("act: \"{}\": {e}", clip(&text)));
                return fallback;
            }
        };
        let chosen = allowed.iter().find(|a| **a == m).or_else(|| {
            allowed.iter().find(|a| {
                a.cards() == m.cards() && a.reading() == m.reading() && a.kind() == m.kind()
            })
        });
        match chosen {
            Some(a) => *a,
            None => {
                self.fail(format!("act: \"{}\" is not an allowed move", clip(&text)));
                fallback
            }
        }
    }
}

impl<const N: usize> TablePlayer<N> for ExternalBot {
    fn name(&self) -> &str {
        &self.name
    }

    fn bid(&mut self, view: &SeatView<N>, allowed: &[Bid]) -> Bid {
        self.bid_at(view, allowed)
    }

    fn play(&mut self, view: &SeatView<N>, allowed: &[Move]) -> Move {
        self.play_at(view, allowed)
    }

    fn failure(&self) -> Option<String> {
        self.failure.clone()
    }
}

impl Bot for ExternalBot {
    fn name(&self) -> &str {
        &self.name
    }

    fn bid(&mut self, view: &SeatView, allowed: &[Bid]) -> Bid {
        self.bid_at(view, allowed)
    }

    fn play(&mut self, view: &SeatView, allowed: &[Move]) -> Move {
        self.play_at(view, allowed)
    }

    /// Asks the program a `double` request; a reply that is not one of `allowed` is a
    /// failure (the game is forfeited).
    fn double(&mut self, view: &SeatView, allowed: &[u32]) -> u32 {
        let fallback = allowed.first().copied().unwrap_or(1);
        let Some(reply) = self.exchange("double", |id| double_request(id, view, allowed)) else {
            return fallback;
        };
        let sent = reply.fields.double.sent();
        match sent.as_ref().ok().and_then(|&d| u32::try_from(d).ok()) {
            Some(d) if allowed.contains(&d) => d,
            _ => {
                let shown = shown(sent);
                self.fail(format!(
                    "double: {shown} is not an allowed factor {allowed:?}"
                ));
                fallback
            }
        }
    }

    /// Asks the program a `show` request; a reply without a boolean `show` is a failure (the
    /// game is forfeited).
    fn show(&mut self, view: &SeatView, factor: u32) -> bool {
        let Some(reply) = self.exchange("show", |id| show_request(id, view, factor)) else {
            return false;
        };
        match reply.fields.show.sent() {
            Ok(show) => show,
            Err(shown) => {
                self.fail(format!("show: {shown} is not true or false"));
                false
            }
        }
    }

    fn failure(&self) -> Option<String> {
        self.failure.clone()
    }
}

impl Drop for ExternalBot {
    fn drop(&mut self) {
        self.requests = None;
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn definitions_parse() {
        let (name, command) = Externals::parse_definition("ext=ddz bot  --bot value").unwrap();
        assert_eq!(name, "ext");
        assert_eq!(command, ["ddz", "bot", "--bot", "value"]);
        let (name, command) = Externals::parse_definition(" my-bot.2 = ./run.sh a=b").unwrap();
        assert_eq!(name, "my-bot.2");
        assert_eq!(command, ["./run.sh", "a=b"]);
    }

    #[test]
    fn bad_definitions_are_clear_errors() {
        let cases = [
            ("ext", "expected NAME=COMMAND"),
            ("=ddz bot", "the name before '=' is empty"),
            ("ext=", "the command after '=' is empty"),
            ("ext=   ", "the command after '=' is empty"),
            ("a,b=ddz bot", "use letters, digits"),
            ("a:b=ddz bot", "use letters, digits"),
            ("greedy=ddz bot", "is a built-in robot's name"),
        ];
        for (text, message) in cases {
            let e = Externals::parse_definition(text).unwrap_err();
            assert!(e.to_string().contains(message), "{text}: {e}");
        }
        let mut ext = Externals::new();
        ext.add("x=prog", DEFAULT_TIMEOUT).unwrap();
        let e = ext.add("x=other", DEFAULT_TIMEOUT).unwrap_err();
        assert!(e.to_string().contains("defined twice"), "{e}");
        assert_eq!(ext.names().collect::<Vec<_>>(), ["x"]);
        assert_eq!(
            ext.get("x").map(|x| x.command.clone()),
            Some(vec!["prog".into()])
        );
    }

    #[test]
    fn a_program_that_cannot_start_is_an_error() {
        let external = External {
            command: vec!["/nonexistent/ddz-robot".into()],
            timeout: DEFAULT_TIMEOUT,
        };
        let e = ExternalBot::spawn("x", &external).err().unwrap();
        assert!(e.to_string().contains("cannot start"), "{e}");
    }
}
