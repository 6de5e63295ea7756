#!/usr/bin/env python3
"""Convert DouZero evaluation decks (a pickle) into ddz deal-file lines (JSON lines).

Input: the pickle that DouZero's ``generate_eval_data.py`` writes (``eval_data.pkl`` by
default) and that its ``evaluate.py`` reads. It holds a list with one dict per deal:

    {'landlord':             20 cards (the kitty included),
     'landlord_up':          17 cards,
     'landlord_down':        17 cards,
     'three_landlord_cards':  3 cards (the kitty, also among the landlord's 20)}

Cards are DouZero ints: 3..14 for 3..A (10 = T, 11 = J, 12 = Q, 13 = K, 14 = A), 17 for 2,
20 for the small joker and 30 for the big joker. Other keys in a deal are ignored.

Output: one line per deal in ddz's deal-file format (RULES.md section 2), the same shape and
key order ``ddz deal --json`` prints:

    {"landlord":"...","landlord_down":"...","landlord_up":"...","kitty":"..."}

with each field a canonical rank string: letters ``3456789TJQKA2BR`` (B = small joker,
R = big joker), sorted in that order. No ``laizi`` field is written (DouZero has no wildcards).

Every deal is checked: 20/17/17/3 cards, only known card ints, the three hands together are
the 54-card deck, and the kitty is 3 of the landlord's cards. A bad deal is reported on
stderr as ``deal N: what is wrong`` (N is the deal's 0-based index in the pickled list).
Without --skip-bad, every bad deal is reported, nothing is written, and the exit status is 2;
with --skip-bad, bad deals are reported and left out, and the rest are written.

Exit status: 0 on success; 2 on a bad deal (without --skip-bad), an input that cannot be
read or is not a list of deals, or bad options; 1 when the output cannot be written. On
status 2 the output file is neither created nor changed.

SECURITY: unpickling can run code named in the file (Python's documented risk for the pickle
module: never unpickle data from an untrusted source). This script loads with an Unpickler
that refuses every class or function reference -- DouZero's plain lists, dicts and ints never
need one -- but pickle is not a secure format even so: only convert files you trust.

Standard library only. Usage:

    python3 scripts/douzero_eval_to_deals.py eval_data.pkl -o deals.jsonl
"""

import argparse
import json
import pickle
import sys

# DouZero card int -> ddz rank letter.
DOUZERO_TO_RANK = {
    3: "3", 4: "4", 5: "5", 6: "6", 7: "7", 8: "8", 9: "9", 10: "T",
    11: "J", 12: "Q", 13: "K", 14: "A", 17: "2", 20: "B", 30: "R",
}

# Canonical rank order of ddz card strings.
RANK_ORDER = "3456789TJQKA2BR"

# How many of each rank the full deck holds.
DECK = {r: (1 if r in "BR" else 4) for r in RANK_ORDER}

# (DouZero key, ddz key, card count), in the order ddz writes its keys.
FIELDS = (
    ("landlord", "landlord", 20),
    ("landlord_down", "landlord_down", 17),
    ("landlord_up", "landlord_up", 17),
    ("three_landlord_cards", "kitty", 3),
)


class BadDeal(Exception):
    """What is wrong with one deal (one or more problems, joined by '; ')."""


class InputError(Exception):
    """The input file cannot be used at all."""


class _NoGlobalsUnpickler(pickle.Unpickler):
    """An Unpickler that refuses every class/function reference in the stream."""

    def find_class(self, module, name):
        raise pickle.UnpicklingError(
            "the pickle refers to %s.%s; a DouZero eval file holds only lists, dicts and "
            "ints, so this loader refuses any class or function" % (module, name)
        )


def load_deals(path):
    """The list of deals pickled in `path` (refusing class/function references)."""
    try:
        with open(path, "rb") as f:
            data = _NoGlobalsUnpickler(f).load()
    except OSError as e:
        raise InputError("%s: cannot read: %s" % (path, e.strerror or e))
    except Exception as e:  # any unpickling failure: truncated, wrong format, refused global
        raise InputError("%s: not a readable pickle: %s" % (path, e))
    if not isinstance(data, (list, tuple)):
        raise InputError(
            "%s: expected a list of deals, found %s" % (path, type(data).__name__)
        )
    return data


def counts(ranks):
    """Rank letter -> how many times it occurs in `ranks`."""
    c = {}
    for r in ranks:
        c[r] = c.get(r, 0) + 1
    return c


def rank_string(c):
    """The canonical card string of the multiset `c` (rank letter -> count)."""
    return "".join(r * c.get(r, 0) for r in RANK_ORDER)


def multiset_minus(a, b):
    """The multiset a - b, dropping ranks that go to zero or below."""
    return {r: a.get(r, 0) - b.get(r, 0) for r in a if a.get(r, 0) > b.get(r, 0)}


def convert_cards(key, value, problems):
    """The rank letters of one DouZero card list; problems go to `problems`."""
    if isinstance(value, (str, bytes, dict)) or not hasattr(value, "__iter__"):
        problems.append("'%s' is not a list of cards (%s)" % (key, type(value).__name__))
        return None
    ranks = []
    unknown = []
    for card in value:
        # bool is an int subclass; True would otherwise read as card 1.
        if isinstance(card, int) and not isinstance(card, bool) and card in DOUZERO_TO_RANK:
            ranks.append(DOUZERO_TO_RANK[card])
        else:
            unknown.append(card)
    if unknown:
        problems.append(
            "'%s' has unknown card values %s (DouZero cards are 3..14, 17, 20, 30)"
            % (key, ", ".join(repr(u) for u in unknown))
        )
        return None
    return ranks


def convert_deal(deal):
    """The ddz deal-file dict of one DouZero deal; raises BadDeal when it is not valid."""
    if not isinstance(deal, dict):
        raise BadDeal("not a dict of hands (%s)" % type(deal).__name__)
    missing_keys = [k for k, _, _ in FIELDS if k not in deal]
    if missing_keys:
        raise BadDeal("missing key%s %s" % (
            "s" if len(missing_keys) > 1 else "", ", ".join("'%s'" % k for k in missing_keys)))

    problems = []
    hands = {}
    for dz_key, ddz_key, want in FIELDS:
        ranks = convert_cards(dz_key, deal[dz_key], problems)
        if ranks is None:
            continue
        if len(ranks) != want:
            problems.append("'%s' has %d cards, not %d" % (dz_key, len(ranks), want))
        hands[ddz_key] = counts(ranks)

    if len(hands) == len(FIELDS):
        kitty, landlord = hands["kitty"], hands["landlord"]
        not_held = multiset_minus(kitty, landlord)
        if not_held:
            problems.append(
                "the kitty %s is not among the landlord's cards %s (%s not held)"
                % (rank_string(kitty), rank_string(landlord), rank_string(not_held))
            )
        total = {}
        for key in ("landlord", "landlord_down", "landlord_up"):
            for r, n in hands[key].items():
                total[r] = total.get(r, 0) + n
        if total != DECK:
            problems.append(
                "the three hands are not the 54-card deck: missing \"%s\", extra \"%s\""
                % (rank_string(multiset_minus(DECK, total)),
                   rank_string(multiset_minus(total, DECK)))
            )

    if problems:
        raise BadDeal("; ".join(problems))
    return {ddz_key: rank_string(hands[ddz_key]) for _, ddz_key, _ in FIELDS}


def deal_line(deal):
    """One JSON line, compact like `ddz deal --json`."""
    return json.dumps(deal, separators=(",", ":"))


def parse_args(argv):
    p = argparse.ArgumentParser(
        prog="douzero_eval_to_deals.py",
        description=(
            "Convert DouZero's evaluation decks (the pickle written by its "
            "generate_eval_data.py: a list of dicts with 'landlord', 'landlord_up', "
            "'landlord_down' and 'three_landlord_cards' as DouZero card ints) into ddz "
            "deal-file lines, one JSON object per deal, as `ddz deal --json` prints them."
        ),
        epilog=(
            "Each deal is checked (20/17/17/3 cards, known card ints, the full 54-card deck, "
            "the kitty among the landlord's cards). A bad deal is reported on stderr as "
            "'deal N: what is wrong' (N counts from 0). Exit status: 0 on success, 2 on a "
            "bad deal (without --skip-bad), an unreadable input or bad options, 1 when the "
            "output cannot be written. "
            "SECURITY: unpickling can run code from the file; this loader refuses class and "
            "function references, but only convert pickles you trust."
        ),
    )
    p.add_argument(
        "input", metavar="INPUT.pkl",
        help="DouZero evaluation pickle, e.g. eval_data.pkl (trusted files only)",
    )
    p.add_argument(
        "-o", "--output", metavar="OUTPUT.jsonl", default="-",
        help="where to write the deal lines (default: '-', standard output); not created "
             "or changed when the exit status is 2",
    )
    p.add_argument(
        "--skip-bad", action="store_true",
        help="report bad deals on stderr and leave them out instead of stopping with "
             "exit status 2",
    )
    return p.parse_args(argv)


def main(argv=None):
    args = parse_args(sys.argv[1:] if argv is None else argv)
    try:
        deals = load_deals(args.input)
    except InputError as e:
        print("error: %s" % e, file=sys.stderr)
        return 2

    lines = []
    bad = 0
    for i, deal in enumerate(deals):
        try:
            lines.append(deal_line(convert_deal(deal)))
        except BadDeal as e:
            bad += 1
            print("deal %d: %s" % (i, e), file=sys.stderr)
    if bad and not args.skip_bad:
        print("error: %d of %d deals are bad; nothing written (--skip-bad leaves them out)"
              % (bad, len(deals)), file=sys.stderr)
        return 2
    if bad:
        print("skipped %d of %d deals" % (bad, len(deals)), file=sys.stderr)

    text = "".join(line + "\n" for line in lines)
    if args.output == "-":
        sys.stdout.write(text)
        sys.stdout.flush()
    else:
        try:
            with open(args.output, "w", encoding="utf-8", newline="\n") as f:
                f.write(text)
        except OSError as e:
            print("error: %s: cannot write: %s" % (args.output, e.strerror or e),
                  file=sys.stderr)
            return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
