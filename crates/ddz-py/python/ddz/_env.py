"""``ddz.Env``: the extension module's three-seat ``Env``, which gives a ``TableEnv`` for the
two- and four-seat profiles ``two`` and ``four`` (docs/variants.md)."""

from typing import Literal, Optional, overload

from . import _ddz
from ._ddz import TableEnv

TABLE_RULES = ("two", "four")
"""The profiles played at a table of two or four seats, by a ``TableEnv``."""


class Env(_ddz.Env):
    __doc__ = (_ddz.Env.__doc__ or "").rstrip() + """

``Env("two")`` and ``Env("four")`` (two players without the 3s and 4s, with the handicap 让牌;
four players with two decks) give a ``TableEnv`` instead (``TableEnv(rules, seed,
landlord, bidding)``; there is no ``laizi`` at these tables), which is not an ``Env``: see
its own documentation."""

    __module__ = "ddz"
    __slots__ = ()

    @overload
    def __new__(
        cls,
        rules: Literal["two", "four"],
        laizi: None = None,
        seed: int = 0,
        landlord: Optional[int] = None,
        bidding: Optional[Literal["points", "call_rob"]] = None,
    ) -> TableEnv: ...
    @overload
    def __new__(
        cls,
        rules: str = "classic",
        laizi: Optional[str] = None,
        seed: int = 0,
        landlord: Optional[int] = None,
        bidding: Optional[Literal["points", "call_rob"]] = None,
    ) -> "Env": ...
    def __new__(cls, rules="classic", laizi=None, seed=0, landlord=None, bidding=None):
        if isinstance(rules, str) and rules.lower() in TABLE_RULES:
            if laizi is not None:
                raise ValueError(
                    f'laizi "{laizi}": the {rules} rules have no wild cards (wild cards are '
                    "played at three seats only)"
                )
            return TableEnv(rules.lower(), seed=seed, landlord=landlord, bidding=bidding)
        return super().__new__(cls, rules, laizi, seed, landlord, bidding)
