"""Type stubs of ddz's extension module (the Rust side of the ``ddz`` package)."""

from typing import Any, Dict, List, Literal, Optional, Sequence, Tuple, Union

import numpy as np
import numpy.typing as npt

NUM_ACTIONS: int
"""Number of RLCard action ids (27,472, the pass included)."""
PASS_ID: int
"""RLCard's id of the pass (27,471)."""

Encoding = Literal["rlcard", "douzero"]
ObserveEncoding = Literal["rlcard", "douzero", "raw"]
PayoffKind = Literal["score", "win", "wp"]

class IllegalMoveError(ValueError):
    """An illegal move, bid or action id; the game is unchanged.

    ``code`` is the refusal's stable code: ddz-game's (``"does_not_beat"``,
    ``"pass_when_leading"``, ``"wrong_phase"``... listed in docs/protocol.md), or
    ``"bad_choice"`` for an option index or RLCard id the game cannot take.
    """

    code: str

class Env:
    """One game of Dou Dizhu for reinforcement learning.

    ``rules`` is a profile name (classic, laizi, tiandi, douzero, rlcard, botzone, huanle);
    ``laizi`` fixes the wild ranks (``"7"``, ``"79"``); ``seed`` seeds the sequence of deals;
    ``landlord`` fixes the landlord's seat (no bidding); ``bidding`` (``"points"``,
    ``"call_rob"``) makes any profile bid. While bidding, ``observe`` gives ddz's 78-value
    bidding observation. This class refuses ``two`` and ``four``: ``ddz.Env`` (a Python
    subclass of it) gives a ``TableEnv`` for them.
    """

    def __init__(
        self,
        rules: str = "classic",
        laizi: Optional[str] = None,
        seed: int = 0,
        landlord: Optional[int] = None,
        bidding: Optional[Literal["points", "call_rob"]] = None,
    ) -> None: ...
    def reset(self, seed: Optional[int] = None, deal: Optional[Dict[str, Any]] = None) -> int:
        """Starts a new game (the next deal, the game of ``seed``, or ``deal``: a dict with
        landlord, landlord_down, landlord_up, kitty and optionally laizi); returns the seat
        to act."""
    @property
    def rules(self) -> str: ...
    @property
    def num_actions(self) -> int: ...
    @property
    def seat(self) -> Optional[int]:
        """The seat to act, ``None`` once the game is over."""
    @property
    def phase(self) -> Literal["bidding", "playing", "over"]: ...
    @property
    def done(self) -> bool: ...
    @property
    def landlord(self) -> Optional[int]: ...
    @property
    def laizi(self) -> str: ...
    @property
    def kitty(self) -> str: ...
    def role(self, seat: int) -> Optional[Literal["landlord", "landlord_down", "landlord_up"]]: ...
    def hand(self, seat: int) -> str: ...
    def hands(self) -> List[str]: ...
    def cards_left(self) -> List[int]: ...
    def history(self) -> List[Tuple[int, str]]: ...
    def last_move(self) -> Optional[Tuple[int, str]]: ...
    def legal_moves(self) -> List[str]:
        """Legal moves of the seat to act in move notation, in ddz's order."""
    def num_legal_moves(self) -> int: ...
    def legal_action_ids(self) -> npt.NDArray[np.int64]:
        """RLCard ids of the legal moves, in ``legal_moves`` order (rlcard profile)."""
    def action_mask(self) -> npt.NDArray[np.bool_]:
        """Mask over the 27,472 RLCard actions (rlcard profile)."""
    def legal_bids(self) -> List[int]: ...
    def bid(self, bid: int) -> int: ...
    def legal_show(self) -> Optional[int]: ...
    def show(self, show: bool) -> Optional[int]: ...
    def legal_doublings(self) -> List[int]: ...
    def double(self, factor: int) -> Optional[int]: ...
    def shown(self) -> List[Optional[str]]: ...
    def doublings(self) -> List[Optional[int]]: ...
    def multipliers(self) -> List[int]: ...
    def step(self, action: Union[str, int]) -> None:
        """Plays a move in notation or an RLCard action id."""
    def step_index(self, index: int) -> None:
        """Plays ``legal_moves()[index]``."""
    def undo(self) -> None: ...
    def payoffs(self, kind: PayoffKind = "score") -> npt.NDArray[np.float64]: ...
    def result(self) -> Optional[Dict[str, Any]]: ...
    def observe(
        self,
        seat: Optional[int] = None,
        encoding: ObserveEncoding = "rlcard",
        batch: bool = True,
        wild: bool = False,
    ) -> Union[npt.NDArray[np.int8], Dict[str, Any]]:
        """``rlcard``: RLCard's vector (int8, 790 or 901; with ``wild`` 13 wild-rank values
        follow). ``douzero``: a dict with position, x_no_action, z, action_features and (with
        ``batch``) x_batch, z_batch. While bidding: ddz's 78-value bidding observation.
        ``raw``: a dict of what the seat may know, in any phase."""
    def legal_move_cards(self) -> npt.NDArray[np.int8]:
        """The 54-value card vector of each legal move (n × 54)."""
    def perfect_information(self) -> Dict[str, Any]: ...
    def record(self) -> str:
        """The game as a ddz-record/1 JSON record."""
    def clone(self) -> "Env": ...
    def __copy__(self) -> "Env": ...
    def __deepcopy__(self, memo: Any) -> "Env": ...

TableRules = Literal["two", "four"]
TableRobot = Literal["random", "greedy", "ddzlib", "search"]

class TableEnv:
    """One game at a two- or four-seat table (docs/variants.md); ``ddz.Env("two")`` and
    ``ddz.Env("four")`` give one.

    ``two`` (二人斗地主): 46 cards without the 3s and 4s, 17 each, 3 kitty, 9 out of play,
    call and rob, and the handicap (让牌): the farmer wins once it holds 1 + robs cards or
    fewer after one of its plays. ``four`` (四人斗地主): two decks, 25 each, 8 kitty, points
    bidding, bombs of 4 to 8 cards and the four jokers. ``seed`` seeds the sequence of deals
    as ``Env``'s does; ``landlord`` fixes the landlord's seat (no bidding); ``bidding``
    replaces the profile's bidding. Moves are written in ddz's move notation; there are no
    RLCard ids. Illegal actions raise ``IllegalMoveError`` (the game unchanged); a seat out of
    range, unknown rules or an unknown robot raise ``ValueError``.
    """

    def __init__(
        self,
        rules: TableRules = "two",
        seed: int = 0,
        landlord: Optional[int] = None,
        bidding: Optional[Literal["points", "call_rob"]] = None,
    ) -> None: ...
    @staticmethod
    def robot_names() -> List[str]:
        """The robots ``robot_move`` knows: random, greedy, ddzlib, search."""
    def reset(self, seed: Optional[int] = None) -> int:
        """Starts a new game (the next of the seed sequence, or the game of ``seed``); returns
        the seat to act."""
    @property
    def rules(self) -> TableRules: ...
    @property
    def num_seats(self) -> Literal[2, 4]: ...
    @property
    def seat(self) -> Optional[int]:
        """The seat to act, ``None`` once the game is over."""
    @property
    def phase(self) -> Literal["bidding", "playing", "over"]: ...
    @property
    def done(self) -> bool: ...
    @property
    def landlord(self) -> Optional[int]: ...
    @property
    def kitty(self) -> str:
        """The kitty (3 cards under two, 8 under four) once the landlord is known, else ``""``."""
    @property
    def handicap(self) -> Optional[Tuple[int, int]]:
        """Under two, from the end of the bidding: ``(farmer_seat, 1 + robs)``; else ``None``."""
    def role(
        self, seat: int
    ) -> Optional[Literal["landlord", "landlord_down", "landlord_up", "landlord_across"]]:
        """The seat's role once the landlord is known (the farmer under two is
        ``landlord_down``; under four the seats after the landlord are down, across, up)."""
    def hand(self, seat: int) -> str: ...
    def hands(self) -> List[str]: ...
    def cards_left(self) -> List[int]: ...
    def bids(self) -> List[Tuple[int, int]]:
        """The bids of the current deal, ``(seat, bid)``."""
    def history(self) -> List[Tuple[int, str]]: ...
    def last_move(self) -> Optional[Tuple[int, str]]: ...
    def legal_moves(self) -> List[str]:
        """Legal moves of the seat to act in move notation, in ddz's order (``pass`` last)."""
    def num_legal_moves(self) -> int: ...
    def legal_bids(self) -> List[int]: ...
    def bid(self, bid: int) -> int:
        """A bid by the seat to act; returns the seat to act next."""
    def step(self, action: str) -> None:
        """Plays a move in notation for the seat to act (an int raises: no RLCard ids)."""
    def step_index(self, index: int) -> None:
        """Plays ``legal_moves()[index]``."""
    def undo(self) -> None:
        """Takes back the last play (not bids)."""
    def robot_move(
        self, name: Union[TableRobot, str] = "ddzlib", seed: int = 0, play: bool = True
    ) -> Union[int, str]:
        """The robot's choice for the seat to act, from that seat's view: a bid (int) while
        bidding, else a move string; played unless ``play=False``. Seeded by ``seed`` and the
        position (``search:worlds=N:moves=K`` sets the search's samples and moves)."""
    def payoffs(self, kind: PayoffKind = "score") -> npt.NDArray[np.float64]:
        """Once over: ``score`` the zero-sum points, ``win`` 1 for the winning side's seats,
        ``wp`` ±1."""
    def result(self) -> Optional[Dict[str, Any]]:
        """Once over: winner, first_out, landlord, base, multiplier, bombs, rocket (the four
        jokers under four), spring, anti_spring, scores."""
    def observe(self, seat: Optional[int] = None) -> Dict[str, Any]:
        """What ``seat`` (default: the seat to act) may know, as numpy arrays (int8 unless
        said). A count vector has 15 entries: the cards of each rank 3 4 5 6 7 8 9 T J Q K A 2
        B R (0-4 and 0-1 of a joker under two, 0-8 and 0-2 under four). Rows and entries are
        absolute seats; N is the number of seats.

        - ``seat`` (int), ``phase`` (str), ``role`` (str or ``None`` while bidding);
        - ``hand`` (15): the seat's cards;
        - ``unseen`` (15): the rules' deck less the seat's hand and every card played;
        - ``played`` (N × 15): each seat's played cards;
        - ``cards_left`` (N);
        - ``last_move`` (15), ``last_seat`` (N, one-hot): the play to beat, zeros when leading;
        - ``landlord`` (N, one-hot, zeros while bidding), ``to_act`` (N, one-hot, zeros once
          over);
        - ``kitty`` (15): zeros until the landlord is known;
        - ``bids`` (N): each seat's last bid of the deal, -1 before it bid;
        - ``handicap`` (N): the farmer's handicap cards under two, zeros elsewhere;
        - ``stake`` (int32, 2): base score and multiplier so far;
        - ``legal_moves`` (M × 15): each legal move's counts in ``legal_moves()`` order (a pass
          is zeros) when ``seat`` is to play, else 0 rows;
        - ``legal_bids`` (4): 1 for each bid 0-3 ``seat`` may make now.
        """
    def record(self) -> str:
        """The game as a ddz-table-record/1 JSON record."""
    def clone(self) -> "TableEnv": ...
    def __copy__(self) -> "TableEnv": ...
    def __deepcopy__(self, memo: Any) -> "TableEnv": ...

class VecEnv:
    """Many games stepped together in parallel, into numpy arrays allocated once."""

    def __init__(
        self,
        n: int,
        rules: str = "rlcard",
        seed: int = 0,
        laizi: Optional[str] = None,
        landlord: Optional[int] = None,
        encoding: Encoding = "rlcard",
        reward: PayoffKind = "score",
        actions: Optional[Literal["ids", "index"]] = None,
        learner: Optional[Union[int, Literal["landlord", "farmers"]]] = None,
        opponents: Optional[str] = None,
        bidding: Optional[Literal["points", "call_rob"]] = None,
        wild: bool = False,
    ) -> None: ...
    @property
    def num_envs(self) -> int: ...
    @property
    def rules(self) -> str: ...
    @property
    def actions(self) -> Literal["ids", "index"]: ...
    @property
    def obs(self) -> npt.NDArray[np.int8]: ...
    @property
    def z(self) -> Optional[npt.NDArray[np.int8]]: ...
    @property
    def mask(self) -> Optional[npt.NDArray[np.bool_]]: ...
    @property
    def seats(self) -> npt.NDArray[np.int64]: ...
    PHASES: Tuple[str, str, str, str]
    """The names of the codes of ``phases``: playing, show, doubling, bidding."""
    @property
    def phases(self) -> npt.NDArray[np.int8]: ...
    @property
    def num_moves(self) -> npt.NDArray[np.int64]: ...
    @property
    def rewards(self) -> npt.NDArray[np.float32]: ...
    @property
    def dones(self) -> npt.NDArray[np.bool_]: ...
    def reset(self) -> Tuple[
        npt.NDArray[np.int8],
        Optional[npt.NDArray[np.bool_]],
        npt.NDArray[np.int64],
        npt.NDArray[np.float32],
        npt.NDArray[np.bool_],
    ]: ...
    def step(self, actions: Union[npt.ArrayLike, Sequence[int]]) -> Tuple[
        npt.NDArray[np.int8],
        Optional[npt.NDArray[np.bool_]],
        npt.NDArray[np.int64],
        npt.NDArray[np.float32],
        npt.NDArray[np.bool_],
    ]:
        """One action per game; returns (obs, mask, seats, rewards, dones)."""
    def legal_moves(self, i: int) -> List[str]: ...
    def legal_action_ids(self, i: int) -> npt.NDArray[np.int64]: ...
    def move_features(self) -> Tuple[npt.NDArray[np.int64], npt.NDArray[np.int8]]:
        """(offsets, features): game i's rows are features[offsets[i]:offsets[i + 1]]."""
    def env(self, i: int) -> Env: ...
    def __len__(self) -> int: ...

class Bot:
    """One of ddz's robots (random, greedy, value, ddzlib)."""

    def __init__(self, name: str = "value", seed: int = 0) -> None: ...
    @property
    def name(self) -> str: ...
    def act(self, env: Env) -> Union[str, int]:
        """The robot's choice for the seat to act (a bid while bidding), not played."""
    def play(self, env: Env) -> Union[str, int]:
        """Chooses, plays and returns the choice."""

def action_name(id: int) -> str:
    """RLCard's word for an action id (``"33344"``, ``"pass"``)."""
def action_id(cards: str) -> Optional[int]:
    """RLCard's action id of a card set, if RLCard has it."""
def card_vector(cards: str) -> npt.NDArray[np.int8]:
    """The 54-value card vector of a card set."""
def bot_names() -> List[str]: ...
def arena_json(
    bots: List[str],
    deals: int = 1000,
    seed: int = 1,
    rules: str = "classic",
    laizi: Optional[str] = None,
    rules_file: Optional[str] = None,
    bidding: bool = False,
    shard: Optional[Tuple[int, int]] = None,
    threads: Optional[int] = None,
) -> str:
    """The JSON text of ``ddz arena --json`` (``ddz.arena`` returns it as a dict)."""
def analysis_json(
    record: str,
    seat: Optional[int] = None,
    iters: Optional[int] = None,
    time_ms: Optional[int] = None,
    threads: int = 1,
    seed: int = 0,
    exact_cards: int = 20,
) -> str:
    """The JSON text of ``ddz analyse --json`` (``ddz.analyse`` returns it as a dict)."""
def merge_json(reports: List[str]) -> str:
    """The JSON text of ``ddz arena merge --json`` (``ddz.merge`` returns it as a dict)."""
