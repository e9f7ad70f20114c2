"""Trick questions a policy asks ("who is winning?", "would this card take the lead?"),
answered by the C core, so the policies hold no second copy of any trick rule."""

from __future__ import annotations

from collections.abc import Sequence

from trickcore import _core


def winner_index(deck: _core.Deck, follow: int, winner: int, trump: int, moves: Sequence[int]) -> int:
    """Index, in play order, of the card winning the (possibly partial) trick; -1 if none."""
    n = max(2, len(moves))
    w: int = _core.resolve_trick(deck, n, follow, winner, trump, 0, list(moves))["winner"]
    return w


def takes_lead(deck: _core.Deck, follow: int, winner: int, trump: int, moves: Sequence[int], move: int) -> bool:
    """Would ``move``, played next, be winning the trick?"""
    return winner_index(deck, follow, winner, trump, [*moves, move]) == len(moves)


def double_trick_place(deck: _core.Deck, moves: Sequence[int], move: int) -> tuple[int, bool]:
    """Hattrick: where ``move`` would go after ``moves`` (0 or 1 = which open trick, or
    ``_core.PILE_PASS``) and whether it would be winning that trick."""
    after = [*moves, move]
    res = _core.resolve_trick(deck, max(2, len(after)), _core.FOLLOW_DOUBLE, _core.WIN_DOUBLE, _core.NO_SUIT,
                              0, after)
    pile: int = res["piles"][-1]
    if pile == _core.PILE_PASS:
        return pile, False
    return pile, res["winner" if pile == 0 else "winner2"] == len(moves)
