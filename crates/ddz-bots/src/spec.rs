//! Robot specs (`name[:key=value]...`) parsed once into a typed [`BotSpec`] that builds a
//! robot for any seed.

use core::fmt;
use std::collections::BTreeMap;
use std::path::Path;
use std::str::FromStr;
use std::sync::Arc;

use crate::net::{Net, NetBot, NetConfig};
use crate::search::{SearchBot, SearchConfig};

use crate::{BOT_NAMES, Bot, BotError, Greedy, Level, RandomBot, ValueBot, ddzlib};

/// Builds robots defined outside this crate (external programs, see `ddz-protocol`), one per
/// game.
pub trait BotFactory: Send + Sync {
    /// A new robot for a game; `seed` is its seed ([`crate::bot_seed`]).
    fn build(&self, seed: u64) -> Result<Box<dyn Bot>, BotError>;
}

/// Robots beyond the built-in ones, by name: what `--exec NAME=COMMAND` defines.
#[derive(Clone, Default)]
pub struct Registry {
    robots: BTreeMap<String, Arc<dyn BotFactory>>,
}

impl fmt::Debug for Registry {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.robots.keys()).finish()
    }
}

impl Registry {
    /// An empty registry.
    pub fn new() -> Registry {
        Registry::default()
    }

    /// Adds the robot `name`. A built-in robot's name or a name defined twice is an error.
    pub fn add(&mut self, name: &str, factory: Arc<dyn BotFactory>) -> Result<(), BotError> {
        if BOT_NAMES.contains(&name) || self.robots.contains_key(name) {
            return Err(BotError::NameTaken {
                name: name.to_string(),
                builtin: BOT_NAMES.contains(&name),
            });
        }
        self.robots.insert(name.to_string(), factory);
        Ok(())
    }

    /// The names defined, in order.
    pub fn names(&self) -> impl Iterator<Item = &str> {
        self.robots.keys().map(String::as_str)
    }

    /// Whether no robot is defined.
    pub fn is_empty(&self) -> bool {
        self.robots.is_empty()
    }
}

/// Which robot a spec names, with its options.
#[derive(Clone)]
enum Kind {
    Random,
    Greedy,
    Value,
    Ddzlib,
    /// The search robot's options, the networks of its `weights=FILE[+FILE...]` option, and
    /// the network of its `pweights=FILE` option.
    Search(SearchConfig, Option<Vec<Arc<Net>>>, Option<Arc<Net>>),
    Net(NetConfig),
    Level(Level),
    External(Arc<dyn BotFactory>),
}

/// A robot spec, parsed and checked once: the robot's name and options. [`BotSpec::build`]
/// makes a robot of it for any seed without reading text again. Displays as the spec text.
///
/// ```
/// use ddz_bots::BotSpec;
///
/// let spec: BotSpec = "search:iters=50".parse().unwrap();
/// assert_eq!(spec.name(), "search");
/// assert_eq!(spec.to_string(), "search:iters=50");
/// let robot = spec.build(7).unwrap();
/// assert_eq!(robot.name(), "search");
/// assert!("nosuch".parse::<BotSpec>().is_err());
/// ```
#[derive(Clone)]
pub struct BotSpec {
    text: String,
    name: String,
    kind: Kind,
}

impl fmt::Debug for BotSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "BotSpec({})", self.text)
    }
}

impl fmt::Display for BotSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text)
    }
}

impl PartialEq for BotSpec {
    fn eq(&self, other: &BotSpec) -> bool {
        self.text == other.text
    }
}

impl FromStr for BotSpec {
    type Err = BotError;

    fn from_str(text: &str) -> Result<BotSpec, BotError> {
        BotSpec::parse(text)
    }
}

impl BotSpec {
    /// A built-in robot's spec `name[:key=value]...` ([`BOT_NAMES`]). Only `search` and `net`
    /// take options ([`SearchConfig::parse`], [`NetConfig::parse`]); an option to another
    /// robot is an error naming it.
    pub fn parse(text: &str) -> Result<BotSpec, BotError> {
        BotSpec::parse_with(text, &Registry::new())
    }

    /// A spec among the built-in robots and those of `registry` (which take no options). An
    /// unknown name lists both.
    pub fn parse_with(text: &str, registry: &Registry) -> Result<BotSpec, BotError> {
        let mut parts = text.split(':');
        let name = parts.next().unwrap_or_default().trim();
        let spec = |kind| BotSpec {
            text: text.trim().to_string(),
            name: name.to_string(),
            kind,
        };
        if let Some(factory) = registry.robots.get(name) {
            if let Some(option) = parts.next() {
                return Err(BotError::TakesNoOption {
                    name: name.to_string(),
                    option: option.to_string(),
                    external: true,
                });
            }
            return Ok(spec(Kind::External(factory.clone())));
        }
        if name == "search" {
            // `weights=FILE+...` and `pweights=FILE` are read here (they load files); the
            // rest are the search's own.
            let (files, rest): (Vec<&str>, Vec<&str>) = parts.map(str::trim).partition(|o| {
                o.split_once('=')
                    .is_some_and(|(k, _)| matches!(k.trim(), "weights" | "pweights"))
            });
            let config = SearchConfig::parse(rest.into_iter())?;
            let mut nets = None;
            let mut playout_net = None;
            for option in files {
                let (key, path) = option.split_once('=').unwrap_or_default();
                let (key, path) = (key.trim(), path.trim());
                if key == "weights" {
                    nets = Some(Net::for_files_option(path)?);
                } else {
                    let net = Net::load(Path::new(path)).map_err(|e| BotError::NetOption {
                        option: option.to_string(),
                        why: e.to_string(),
                    })?;
                    playout_net = Some(Arc::new(net));
                }
            }
            return Ok(spec(Kind::Search(config, nets, playout_net)));
        }
        if name == "net" {
            return Ok(spec(Kind::Net(NetConfig::parse(parts)?)));
        }
        if name == "level" {
            let level = Level::parse(parts.next().unwrap_or_default())?;
            if let Some(option) = parts.next() {
                return Err(BotError::TakesNoOption {
                    name: text.trim().to_string(),
                    option: option.to_string(),
                    external: false,
                });
            }
            return Ok(spec(Kind::Level(level)));
        }
        if let Some(option) = parts.next() {
            return Err(BotError::TakesNoOption {
                name: name.to_string(),
                option: option.to_string(),
                external: false,
            });
        }
        let kind = match name {
            "random" => Kind::Random,
            "greedy" => Kind::Greedy,
            "value" => Kind::Value,
            "ddzlib" => Kind::Ddzlib,
            _ => {
                return Err(BotError::UnknownRobot {
                    name: name.to_string(),
                    external: registry.names().map(str::to_string).collect(),
                });
            }
        };
        Ok(spec(kind))
    }

    /// The spec as written (trimmed): `search:iters=50`.
    pub fn as_str(&self) -> &str {
        &self.text
    }

    /// The robot's name (`search` for `search:iters=50`).
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Whether the spec names a robot of the registry (an external program).
    pub fn is_external(&self) -> bool {
        matches!(self.kind, Kind::External(_))
    }

    /// A robot of this spec seeded with `seed`. Built-in robots never fail; an external
    /// robot fails when its program cannot be started.
    pub fn build(&self, seed: u64) -> Result<Box<dyn Bot>, BotError> {
        Ok(match &self.kind {
            Kind::Random => Box::new(RandomBot::new(seed)),
            Kind::Greedy => Box::new(Greedy),
            Kind::Value => Box::new(ValueBot::new()),
            Kind::Ddzlib => Box::new(ddzlib::DdzlibBot::new()),
            Kind::Search(config, nets, playout_net) => {
                let mut bot = SearchBot::new(*config, seed);
                if let Some(nets) = nets {
                    bot.set_nets(nets);
                }
                if let Some(net) = playout_net {
                    bot.set_playout_net(net.clone());
                }
                Box::new(bot)
            }
            Kind::Net(config) => Box::new(NetBot::new(config, seed)),
            Kind::Level(level) => level.build(seed),
            Kind::External(factory) => factory.build(seed)?,
        })
    }
}
