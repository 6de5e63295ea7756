"""Bids as action ids for the PettingZoo and Gymnasium wrappers: with bidding on, the action
space is RLCard's 27,472 ids followed by four bid actions, id ``NUM_ACTIONS + b`` bidding
``b`` (0 passes, or declines under call-and-rob; 1-3 under points bidding, 1 calls or robs
under call-and-rob)."""

import numpy as np

from ._ddz import NUM_ACTIONS

BIDDING_CHOICES = ("points", "call_rob")
BID_ACTIONS = 4


def check_bidding(bidding):
    """None (a fixed landlord, RLCard's interface) or a bidding name."""
    if bidding is not None and bidding not in BIDDING_CHOICES:
        raise ValueError(f"bidding {bidding!r}: None, 'points' or 'call_rob'")
    return bidding


def action_count(bidding):
    """The size of the action space."""
    return NUM_ACTIONS + (BID_ACTIONS if bidding else 0)


def legal_mask(game, width):
    """The legal action ids of the seat to act (bool, `width`): moves while playing, bids
    while bidding."""
    mask = np.zeros(width, dtype=bool)
    if game.phase == "bidding":
        mask[[NUM_ACTIONS + b for b in game.legal_bids()]] = True
    elif not game.done:
        mask[:NUM_ACTIONS] = game.action_mask()
    return mask


def act(game, action, bidding):
    """Plays action id `action` for the seat to act (a bid id only with bidding on)."""
    action = int(action)
    if bidding and action >= NUM_ACTIONS:
        game.bid(action - NUM_ACTIONS)
    else:
        game.step(action)
