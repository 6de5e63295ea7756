//! Rule sets (`Rules`) and the named profiles of RULES.md section 6.
//!
//! Every choice where real-world rule sets disagree is a named field; a profile is a
//! constructor that sets them all. No global state: every function that depends on rules takes
//! `&Rules`.

use core::fmt;
use core::str::FromStr;

use crate::app_rules::{DealMethod, DoublingRules, NoShuffle, ShowRules};
use crate::cards::Cards;
use crate::rank::{Rank, RankSet};

/// A named bundle of rule choices (RULES.md section 6).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum Profile {
    /// Classic rules (RULES.md sections 1-4), the default.
    Classic,
    /// Classic with one wild rank (单癞子). Its rule fields come with the wildcard support.
    Laizi,
    /// Classic with two wild ranks (天地癞子). Its rule fields come with the wildcard support.
    Tiandi,
    /// DouZero's move generator and evaluation scoring (kwai/DouZero).
    Douzero,
    /// RLCard's 27,471-combination action space (datamllab/rlcard).
    Rlcard,
    /// Botzone FightTheLandlord as far as its sample judge shows.
    Botzone,
    /// Today's apps (欢乐斗地主, RULES.md section 7): call-and-rob, doubling, showing cards.
    Huanle,
    /// Two players (二人斗地主, docs/variants.md): no 3s or 4s, the handicap 让牌.
    Two,
    /// Four players with two decks (四人斗地主, docs/variants.md).
    Four,
}

impl Profile {
    /// Every three-seat profile. The game engine plays these; [`Profile::VARIANTS`] are the
    /// two- and four-seat profiles, which only the rules core knows so far (issue 54).
    pub const ALL: [Profile; 7] = [
        Profile::Classic,
        Profile::Laizi,
        Profile::Tiandi,
        Profile::Douzero,
        Profile::Rlcard,
        Profile::Botzone,
        Profile::Huanle,
    ];

    /// The two- and four-seat profiles (docs/variants.md).
    pub const VARIANTS: [Profile; 2] = [Profile::Two, Profile::Four];

    /// The profile's name (`classic`, `douzero`, ...).
    pub const fn name(self) -> &'static str {
        match self {
            Profile::Classic => "classic",
            Profile::Laizi => "laizi",
            Profile::Tiandi => "tiandi",
            Profile::Douzero => "douzero",
            Profile::Rlcard => "rlcard",
            Profile::Botzone => "botzone",
            Profile::Huanle => "huanle",
            Profile::Two => "two",
            Profile::Four => "four",
        }
    }
}

impl fmt::Display for Profile {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A profile name that is not known.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownProfile(pub String);

impl fmt::Display for UnknownProfile {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // The games' profiles: two and four (Profile::VARIANTS) are not games yet, and the
        // recorded error messages of the protocols and the server list these.
        let names: Vec<&str> = Profile::ALL.iter().map(|p| p.name()).collect();
        write!(
            f,
            "\"{}\" is not a rule profile (profiles: {})",
            self.0,
            names.join(", ")
        )
    }
}

impl std::error::Error for UnknownProfile {}

impl FromStr for Profile {
    type Err = UnknownProfile;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Profile::ALL
            .into_iter()
            .chain(Profile::VARIANTS)
            .find(|p| p.name().eq_ignore_ascii_case(s))
            .ok_or_else(|| UnknownProfile(s.to_string()))
    }
}

/// How the landlord is chosen (RULES.md section 2).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum Bidding {
    /// 叫分: each seat passes or bids 1-3 above the current bid; the bid is the base score.
    Points,
    /// 叫地主/抢地主: call, then rob (each rob doubles), the caller may rob back.
    CallRob,
    /// No bidding: [`Rules::landlord_seat`] is the landlord.
    Fixed,
}

/// How a finished game is scored (RULES.md section 4).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum Scoring {
    /// Base x multiplier (robs, bombs, spring), landlord +-2x stake, farmers -+stake.
    Standard,
    /// DouZero's evaluation (ADP): landlord +-2 x 2^(bombs + rockets), farmers -+1 x the same.
    DouzeroAdp,
}

/// Which readings a card set has.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum Readings {
    /// Every reading the rules allow (`333444555666` is an airplane and two airplanes with
    /// singles).
    All,
    /// One reading per card set: the default reading of RULES.md section 3 (most body cards,
    /// then highest main, then table order). RLCard's action space.
    Default,
    /// One reading per card set, the one DouZero's `move_detector` gives.
    Douzero,
}

/// Which wildcard (癞子) variant is played (RULES.md section 5).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum Wild {
    /// No wild cards.
    None,
    /// 单癞子: one wild rank, drawn from 3..2.
    Single,
    /// 天地癞子: two different wild ranks, heaven drawn before bidding, earth after.
    HeavenEarth,
}

/// When the single wild rank is revealed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum LaiziReveal {
    /// After the landlord is decided (the default).
    AfterLandlord,
    /// Before bidding.
    BeforeBidding,
}

/// Multiplier factors for the bombs played (RULES.md section 5).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(deny_unknown_fields))]
pub struct BombMultipliers {
    /// A soft bomb of four cards (classic: every four-card bomb).
    pub soft: u32,
    /// A hard bomb of four cards.
    pub hard: u32,
    /// A pure wild bomb of four cards.
    pub pure: u32,
    /// Any bomb of five or more cards.
    pub long: u32,
    /// The rocket.
    pub rocket: u32,
}

impl BombMultipliers {
    /// Classic: every bomb and the rocket x2.
    pub const CLASSIC: BombMultipliers = BombMultipliers {
        soft: 2,
        hard: 2,
        pure: 2,
        long: 2,
        rocket: 2,
    };
    /// The wild profiles' default: soft x2, hard x4, pure x4, 5+ cards x4, rocket x4.
    pub const WILD: BombMultipliers = BombMultipliers {
        soft: 2,
        hard: 4,
        pure: 4,
        long: 4,
        rocket: 4,
    };
}

/// What is wrong with a set of wild ranks for a rule set ([`Rules::with_laizi`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LaiziError {
    /// A joker was given: jokers are never wild.
    Joker(Rank),
    /// This rank was given twice.
    Repeated(Rank),
    /// More wild ranks than the rules' wildcard variant has.
    TooMany {
        /// The profile of the rules.
        profile: Profile,
        /// How many wild ranks the rules have (0, 1 or 2).
        most: usize,
        /// How many different ranks were given.
        given: usize,
    },
}

impl fmt::Display for LaiziError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LaiziError::Joker(j) => write!(f, "{j} cannot be wild: jokers are never wild"),
            LaiziError::Repeated(_) => f.write_str("the wild ranks must be different"),
            LaiziError::TooMany {
                profile,
                most,
                given,
            } => write!(
                f,
                "{profile} rules have {most} wild rank{} ({given} given; use --rules laizi or tiandi)",
                if *most == 1 { "" } else { "s" },
            ),
        }
    }
}

impl std::error::Error for LaiziError {}

/// A complete rule set: one named field per choice of RULES.md.
///
/// Build one from a profile ([`Rules::classic`], [`Rules::profile`]) and override fields as
/// needed; a rules file does the same from JSON or TOML (the `ddz` command's `--rules-file`).
///
/// ```
/// use ddz_core::{Profile, Rules};
/// let mut rules = Rules::profile(Profile::Classic);
/// rules.four_with_two = false;
/// assert_eq!(rules.profile, Profile::Classic);
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(deny_unknown_fields))]
pub struct Rules {
    /// The profile these rules started from.
    pub profile: Profile,

    // --- The table (RULES.md sections 1-2, docs/variants.md); left out of rules files and
    // records while they are the classic values, so that three-seat records stay as they were ---
    /// How many seats play: 3, or 2 (`two`) or 4 (`four`).
    #[cfg_attr(feature = "serde", serde(default = "classic_seats"))]
    pub seats: u8,
    /// How many 54-card decks are shuffled together: 1, or 2 (`four`).
    #[cfg_attr(feature = "serde", serde(default = "classic_decks"))]
    pub decks: u8,
    /// Ranks taken out of the deck before the deal (`two`: the 3s and 4s).
    #[cfg_attr(feature = "serde", serde(default))]
    pub removed_ranks: RankSet,
    /// The two-seat handicap 让牌: the farmer wins on holding 1 + robs cards or fewer
    /// (docs/variants.md).
    #[cfg_attr(feature = "serde", serde(default))]
    pub handicap: bool,
    /// Trio + single and airplane + singles exist (`four` drops them).
    #[cfg_attr(feature = "serde", serde(default = "yes"))]
    pub trio_single_kickers: bool,

    // --- Combinations (RULES.md section 3) ---
    /// Four + two singles and four + two pairs exist.
    pub four_with_two: bool,
    /// Pair kickers exist (trio + pair, airplane + pairs, four + two pairs).
    pub pair_kickers: bool,
    /// The single kickers of one play may share a rank (`333444+55`).
    pub single_kickers_may_repeat: bool,
    /// The two singles of four + two singles may be a pair (`444455`).
    pub four_two_singles_may_pair: bool,
    /// Single kickers may hold four cards of one rank.
    pub bomb_in_kickers: bool,
    /// Single kickers may hold both jokers.
    pub rocket_as_kickers: bool,
    /// Pair kickers may be two pairs of the same rank (four of a kind).
    pub quad_as_two_pairs: bool,
    /// An airplane + singles may hold, with its kickers, a longer run of trios than its body
    /// (`333444555+666`). RLCard drops these.
    pub airplane_singles_longer_run: bool,
    /// Space shuttles: 2 or more consecutive fours 3..A, alone or with 2 singles or 2 pairs
    /// per four, as ordinary combinations (Botzone).
    pub space_shuttles: bool,
    /// Every reading, or one per card set.
    pub readings: Readings,

    // --- Deal and bidding (RULES.md section 2) ---
    /// How the landlord is chosen.
    pub bidding: Bidding,
    /// The landlord's seat under [`Bidding::Fixed`].
    pub landlord_seat: u8,

    // --- Scoring (RULES.md section 4) ---
    /// How a finished game is scored.
    pub scoring: Scoring,
    /// Spring and anti-spring double the stake.
    pub spring: bool,
    /// The most the multiplier may reach (封顶); `None` for no cap.
    pub multiplier_cap: Option<u32>,
    /// Factors applied to the multiplier for each bomb or rocket played.
    pub bomb_multipliers: BombMultipliers,

    // --- Wildcards (RULES.md section 5) ---
    /// The wildcard variant.
    pub wild: Wild,
    /// The wild ranks in force: empty until revealed (or when no wildcards are played); one
    /// rank under [`Wild::Single`], two under [`Wild::HeavenEarth`] once both are revealed.
    /// Set it with [`Rules::with_laizi`].
    pub laizi: RankSet,
    /// When the single wild rank is revealed (heaven-and-earth: heaven before bidding, earth
    /// after the landlord is decided, always).
    pub laizi_reveal: LaiziReveal,
    /// Bombs of more than four cards (4..8 with one wild rank, 4..12 with two); more cards
    /// beat fewer, then class, then rank.
    pub long_bombs: bool,

    // --- Today's apps (RULES.md section 7); a group is left out of rules files and records
    // while it is off and its profile's is off too (see the `Serialize` impl), so the records
    // of the other profiles stay as they were ---
    /// Doubling (加倍) after the landlord takes the kitty.
    #[cfg_attr(feature = "serde", serde(default))]
    pub doubling: DoublingRules,
    /// Showing cards (明牌).
    #[cfg_attr(feature = "serde", serde(default))]
    pub show: ShowRules,
    /// How the cards are dealt: shuffled, or without shuffling (不洗牌).
    #[cfg_attr(feature = "serde", serde(default))]
    pub deal: DealMethod,
    /// The parameters of no-shuffle deals (used when `deal` is `no_shuffle`).
    #[cfg_attr(feature = "serde", serde(default))]
    pub no_shuffle: NoShuffle,
}

/// Every field under its own name, but a section 7 group (`doubling`, `show`, `deal`,
/// `no_shuffle`) only when it is on or its profile's is: a reader that fills a missing group
/// with the off value (`Deserialize`) and one that fills it with the profile's
/// ([`Rules::from_file_text`]) then both read back the same rules. A derived
/// `skip_serializing_if` sees the group alone, not the profile, and so wrote huanle with
/// doubling turned off as plain huanle, which a rules file reads with doubling on.
#[cfg(feature = "serde")]
impl serde::Serialize for Rules {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct;
        let base = Rules::profile(self.profile);
        let write_doubling = !(self.doubling.is_off() && base.doubling.is_off());
        let write_show = !(self.show.is_off() && base.show.is_off());
        let write_deal = !(self.deal.is_shuffle() && base.deal.is_shuffle());
        let write_no_shuffle = !(self.no_shuffle.is_default() && base.no_shuffle.is_default());
        let classic = Rules::classic();
        let table = [
            self.seats != classic.seats,
            self.decks != classic.decks,
            self.removed_ranks != classic.removed_ranks,
            self.handicap != classic.handicap,
            self.trio_single_kickers != classic.trio_single_kickers,
        ];
        let groups = [write_doubling, write_show, write_deal, write_no_shuffle];
        let len = 21 + groups.iter().chain(&table).filter(|&&w| w).count();
        let mut s = serializer.serialize_struct("Rules", len)?;
        s.serialize_field("profile", &self.profile)?;
        if table[0] {
            s.serialize_field("seats", &self.seats)?;
        }
        if table[1] {
            s.serialize_field("decks", &self.decks)?;
        }
        if table[2] {
            s.serialize_field("removed_ranks", &self.removed_ranks)?;
        }
        if table[3] {
            s.serialize_field("handicap", &self.handicap)?;
        }
        if table[4] {
            s.serialize_field("trio_single_kickers", &self.trio_single_kickers)?;
        }
        s.serialize_field("four_with_two", &self.four_with_two)?;
        s.serialize_field("pair_kickers", &self.pair_kickers)?;
        s.serialize_field("single_kickers_may_repeat", &self.single_kickers_may_repeat)?;
        s.serialize_field("four_two_singles_may_pair", &self.four_two_singles_may_pair)?;
        s.serialize_field("bomb_in_kickers", &self.bomb_in_kickers)?;
        s.serialize_field("rocket_as_kickers", &self.rocket_as_kickers)?;
        s.serialize_field("quad_as_two_pairs", &self.quad_as_two_pairs)?;
        s.serialize_field(
            "airplane_singles_longer_run",
            &self.airplane_singles_longer_run,
        )?;
        s.serialize_field("space_shuttles", &self.space_shuttles)?;
        s.serialize_field("readings", &self.readings)?;
        s.serialize_field("bidding", &self.bidding)?;
        s.serialize_field("landlord_seat", &self.landlord_seat)?;
        s.serialize_field("scoring", &self.scoring)?;
        s.serialize_field("spring", &self.spring)?;
        s.serialize_field("multiplier_cap", &self.multiplier_cap)?;
        s.serialize_field("bomb_multipliers", &self.bomb_multipliers)?;
        s.serialize_field("wild", &self.wild)?;
        s.serialize_field("laizi", &self.laizi)?;
        s.serialize_field("laizi_reveal", &self.laizi_reveal)?;
        s.serialize_field("long_bombs", &self.long_bombs)?;
        if write_doubling {
            s.serialize_field("doubling", &self.doubling)?;
        }
        if write_show {
            s.serialize_field("show", &self.show)?;
        }
        if write_deal {
            s.serialize_field("deal", &self.deal)?;
        }
        if write_no_shuffle {
            s.serialize_field("no_shuffle", &self.no_shuffle)?;
        }
        s.end()
    }
}

impl Rules {
    /// Classic rules (RULES.md sections 1-4): points bidding, single kickers may repeat and may
    /// be 2s or one joker, no bomb or rocket among kickers, pair kickers are real pairs of
    /// different ranks, four-with-two on, bombs and rocket x2, spring on, no cap.
    pub const fn classic() -> Rules {
        Rules {
            profile: Profile::Classic,
            seats: 3,
            decks: 1,
            removed_ranks: RankSet::EMPTY,
            handicap: false,
            trio_single_kickers: true,
            four_with_two: true,
            pair_kickers: true,
            single_kickers_may_repeat: true,
            four_two_singles_may_pair: true,
            bomb_in_kickers: false,
            rocket_as_kickers: false,
            quad_as_two_pairs: false,
            airplane_singles_longer_run: true,
            space_shuttles: false,
            readings: Readings::All,
            bidding: Bidding::Points,
            landlord_seat: 0,
            scoring: Scoring::Standard,
            spring: true,
            multiplier_cap: None,
            bomb_multipliers: BombMultipliers::CLASSIC,
            wild: Wild::None,
            laizi: RankSet::EMPTY,
            laizi_reveal: LaiziReveal::AfterLandlord,
            long_bombs: false,
            doubling: DoublingRules::OFF,
            show: ShowRules::OFF,
            deal: DealMethod::Shuffle,
            no_shuffle: NoShuffle::DEFAULT,
        }
    }

    /// Today's apps (欢乐斗地主, RULES.md section 7): classic combinations, call-and-rob
    /// bidding, doubling (simultaneous, factors 2 and 4), showing cards (the largest factor
    /// counts), spring x2, no cap, base 1; shuffled deals unless `deal` is `no_shuffle`, whose
    /// games cap each pair's multiplier at 64.
    pub const fn huanle() -> Rules {
        let mut r = Rules::classic();
        r.profile = Profile::Huanle;
        r.bidding = Bidding::CallRob;
        r.doubling = DoublingRules::APPS;
        r.show = ShowRules::APPS;
        r.no_shuffle.multiplier_cap = Some(64);
        r
    }

    /// The cap on each pair's multiplier in force: [`Rules::multiplier_cap`], and under
    /// no-shuffle deals also [`NoShuffle::multiplier_cap`] (the lower of the two).
    pub fn pair_cap(&self) -> Option<u32> {
        let no_shuffle = match self.deal {
            DealMethod::NoShuffle => self.no_shuffle.multiplier_cap,
            DealMethod::Shuffle => None,
        };
        match (self.multiplier_cap, no_shuffle) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        }
    }

    /// DouZero (kwai/DouZero `move_generator.py`, `move_detector.py`): airplane single kickers
    /// are any cards not of a body rank (repeats, four of a kind and both jokers allowed),
    /// airplane pair kickers of distinct ranks, four + two singles may be a pair or the two
    /// jokers, four + two pairs of distinct ranks; each card set has the one reading DouZero's
    /// `move_detector` gives it; fixed landlord (seat 0); DouZero's ADP scoring.
    pub const fn douzero() -> Rules {
        let mut r = Rules::classic();
        r.profile = Profile::Douzero;
        r.bomb_in_kickers = true;
        r.rocket_as_kickers = true;
        r.readings = Readings::Douzero;
        r.bidding = Bidding::Fixed;
        r.scoring = Scoring::DouzeroAdp;
        r.spring = false;
        r
    }

    /// RLCard (datamllab/rlcard, its `jsondata.zip` action space of 27,471 combinations plus
    /// pass): classic kickers (no bomb, no rocket among kickers), no airplane + singles whose
    /// cards hold a longer run of trios than its body, one reading per card set, fixed
    /// landlord, scored like DouZero's evaluation (zero-sum).
    pub const fn rlcard() -> Rules {
        let mut r = Rules::classic();
        r.profile = Profile::Rlcard;
        r.airplane_singles_longer_run = false;
        r.readings = Readings::Default;
        r.bidding = Bidding::Fixed;
        r.scoring = Scoring::DouzeroAdp;
        r.spring = false;
        r
    }

    /// Botzone FightTheLandlord, as far as its published sample judge shows: kickers distinct
    /// from each other and from the body (so four + two singles never carries a pair, and no
    /// two pair kickers share a rank), both jokers allowed as two single kickers, space shuttles
    /// (2 singles or 2 pairs per four, as the sample bot and the `FightTheLandlord2.py36` judge) as ordinary combinations, fixed landlord
    /// (FightTheLandlord; FightTheLandlord2 bids 0-3, set `bidding` to `points`).
    pub const fn botzone() -> Rules {
        let mut r = Rules::classic();
        r.profile = Profile::Botzone;
        r.single_kickers_may_repeat = false;
        r.four_two_singles_may_pair = false;
        r.rocket_as_kickers = true;
        r.space_shuttles = true;
        r.bidding = Bidding::Fixed;
        r
    }

    /// Single laizi (单癞子, RULES.md section 5): classic plus one wild rank, revealed after
    /// the landlord is decided; bombs of exactly four cards, soft < hard < pure < rocket; bomb
    /// multipliers soft x2, hard x4, pure x4, rocket x4. The wild rank itself is set with
    /// [`Rules::with_laizi`] (until then no card is wild).
    pub const fn laizi() -> Rules {
        let mut r = Rules::classic();
        r.profile = Profile::Laizi;
        r.wild = Wild::Single;
        r.bomb_multipliers = BombMultipliers::WILD;
        r
    }

    /// Heaven-and-earth laizi (天地癞子, RULES.md section 5): two different wild ranks (heaven
    /// before bidding, earth after), long bombs of 4..12 cards (more cards win, then
    /// pure > hard > soft, then rank), the wild profiles' bomb multipliers.
    pub const fn tiandi() -> Rules {
        let mut r = Rules::laizi();
        r.profile = Profile::Tiandi;
        r.wild = Wild::HeavenEarth;
        r.long_bombs = true;
        r
    }

    /// Two players (二人斗地主, docs/variants.md): the 46 cards without 3s and 4s, 17 cards
    /// each, 3 kitty, 9 out of play; call-and-rob; the handicap 让牌 of 1 + robs cards; classic
    /// combinations and scoring (zero-sum between the two seats).
    pub const fn two() -> Rules {
        let mut r = Rules::classic();
        r.profile = Profile::Two;
        r.seats = 2;
        r.removed_ranks = RankSet::EMPTY.with(Rank::Three).with(Rank::Four);
        r.handicap = true;
        r.bidding = Bidding::CallRob;
        r
    }

    /// Four players with two decks (四人斗地主, docs/variants.md): 108 cards, 25 each, 8 kitty;
    /// points bidding; no trio + single, no airplane + singles, no rocket; joker pairs are
    /// pairs; bombs of 4 to 8 cards (longer first, then rank) under the four jokers (天王炸).
    pub const fn four() -> Rules {
        let mut r = Rules::classic();
        r.profile = Profile::Four;
        r.seats = 4;
        r.decks = 2;
        r.trio_single_kickers = false;
        r
    }

    /// The rules of a profile.
    pub const fn profile(profile: Profile) -> Rules {
        match profile {
            Profile::Classic => Rules::classic(),
            Profile::Laizi => Rules::laizi(),
            Profile::Tiandi => Rules::tiandi(),
            Profile::Douzero => Rules::douzero(),
            Profile::Rlcard => Rules::rlcard(),
            Profile::Botzone => Rules::botzone(),
            Profile::Huanle => Rules::huanle(),
            Profile::Two => Rules::two(),
            Profile::Four => Rules::four(),
        }
    }

    /// The deck the rules deal from: `decks` full decks without `removed_ranks`.
    pub const fn deck(&self) -> Cards {
        let one = Cards::FULL_DECK.bits();
        let mut bits = one * self.decks as u64;
        let mut i = 0;
        while i < 15 {
            if self.removed_ranks.contains(Rank::ALL[i]) {
                bits &= !(0xF << (4 * i));
            }
            i += 1;
        }
        match Cards::from_bits(bits) {
            Some(deck) => deck,
            None => Cards::EMPTY,
        }
    }

    /// Cards dealt to each seat before the kitty: 17, or 25 with two decks.
    pub const fn hand_cards(&self) -> u32 {
        if self.decks == 2 { 25 } else { 17 }
    }

    /// Kitty cards (底牌): 3, or 8 with two decks.
    pub const fn kitty_cards(&self) -> u32 {
        if self.decks == 2 { 8 } else { 3 }
    }

    /// Cards out of play, hidden from every seat (`two`: 9): the deck less the hands and kitty.
    pub const fn out_of_play_cards(&self) -> u32 {
        self.deck().len() - self.seats as u32 * self.hand_cards() - self.kitty_cards()
    }

    /// The most cards of one rank a hand may hold: 4 a deck (jokers 1 a deck).
    pub const fn copies(&self) -> u8 {
        4u8.saturating_mul(self.decks)
    }

    /// These rules with `ranks` wild: one rank under single laizi, one (heaven only, before
    /// the earth rank is revealed) or two different ranks under heaven-and-earth, each from
    /// 3..2; no rank (nothing wild yet) is always accepted.
    ///
    /// ```
    /// use ddz_core::{Rank, Rules};
    /// let rules = Rules::laizi().with_laizi(&[Rank::Nine]).unwrap();
    /// assert!(rules.laizi.contains(Rank::Nine));
    /// assert!(Rules::classic().with_laizi(&[Rank::Nine]).is_err());
    /// assert!(Rules::laizi().with_laizi(&[Rank::SmallJoker]).is_err());
    /// ```
    pub fn with_laizi(&self, ranks: &[Rank]) -> Result<Rules, LaiziError> {
        if let Some(&j) = ranks.iter().find(|r| r.is_joker()) {
            return Err(LaiziError::Joker(j));
        }
        let mut set = RankSet::EMPTY;
        for &r in ranks {
            if set.contains(r) {
                return Err(LaiziError::Repeated(r));
            }
            set = set.with(r);
        }
        let most = match self.wild {
            Wild::None => 0,
            Wild::Single => 1,
            Wild::HeavenEarth => 2,
        };
        if set.len() > most {
            return Err(LaiziError::TooMany {
                profile: self.profile,
                most,
                given: set.len(),
            });
        }
        let mut r = self.clone();
        r.laizi = set;
        Ok(r)
    }

    /// The most cards a bomb may have: 4, or with long bombs 4 + the number of wild cards; with
    /// two decks every copy of a rank, 8 (docs/variants.md: bombs of 4 to 8 cards).
    pub const fn max_bomb_cards(&self) -> u8 {
        if self.decks > 1 {
            let copies = self.copies();
            // Cards holds at most 15 of a rank.
            return if copies < 15 { copies } else { 15 };
        }
        if !self.long_bombs {
            return 4;
        }
        match self.wild {
            Wild::None => 4,
            Wild::Single => 8,
            Wild::HeavenEarth => 12,
        }
    }
}

/// serde's default of [`Rules::seats`].
#[cfg(feature = "serde")]
fn classic_seats() -> u8 {
    3
}

/// serde's default of [`Rules::decks`].
#[cfg(feature = "serde")]
fn classic_decks() -> u8 {
    1
}

/// serde's default of a rule that is on unless a rules file says otherwise.
#[cfg(feature = "serde")]
fn yes() -> bool {
    true
}

impl Default for Rules {
    fn default() -> Self {
        Rules::classic()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn profiles_carry_their_names() {
        for p in Profile::ALL {
            assert_eq!(Rules::profile(p).profile, p);
            assert_eq!(p.name().parse::<Profile>(), Ok(p));
        }
        assert!(
            "poker"
                .parse::<Profile>()
                .unwrap_err()
                .to_string()
                .contains("classic")
        );
    }

    #[test]
    fn wild_profiles_defaults() {
        let l = Rules::laizi();
        assert_eq!(l.wild, Wild::Single);
        assert!(!l.long_bombs);
        assert_eq!(l.max_bomb_cards(), 4);
        assert_eq!(l.laizi_reveal, LaiziReveal::AfterLandlord);
        let m = l.bomb_multipliers;
        assert_eq!((m.soft, m.hard, m.pure, m.long, m.rocket), (2, 4, 4, 4, 4));
        let t = Rules::tiandi();
        assert!(t.long_bombs);
        assert_eq!(t.max_bomb_cards(), 12);
        assert_eq!(Rules::classic().bomb_multipliers, BombMultipliers::CLASSIC);
    }

    #[test]
    fn profile_fields_differ_where_rules_say() {
        assert!(Rules::classic().four_two_singles_may_pair);
        assert!(!Rules::botzone().single_kickers_may_repeat);
        assert!(Rules::douzero().rocket_as_kickers);
        assert!(!Rules::rlcard().airplane_singles_longer_run);
        assert_eq!(Rules::douzero().bidding, Bidding::Fixed);
    }

    #[test]
    fn laizi_errors_say_which_rank() {
        let e = Rules::laizi().with_laizi(&[Rank::BigJoker]).unwrap_err();
        assert_eq!(e, LaiziError::Joker(Rank::BigJoker));
        assert_eq!(e.to_string(), "R cannot be wild: jokers are never wild");
        let e = Rules::tiandi()
            .with_laizi(&[Rank::Nine, Rank::Nine])
            .unwrap_err();
        assert_eq!(e, LaiziError::Repeated(Rank::Nine));
        assert_eq!(e.to_string(), "the wild ranks must be different");
        let e = Rules::laizi()
            .with_laizi(&[Rank::Seven, Rank::Nine])
            .unwrap_err();
        assert_eq!(
            e,
            LaiziError::TooMany {
                profile: Profile::Laizi,
                most: 1,
                given: 2
            }
        );
        assert_eq!(
            e.to_string(),
            "laizi rules have 1 wild rank (2 given; use --rules laizi or tiandi)"
        );
        assert!(Rules::tiandi().with_laizi(&[]).unwrap().laizi.is_empty());
    }
}
