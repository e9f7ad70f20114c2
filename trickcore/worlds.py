"""Sampling worlds: complete states consistent with what one seat knows (``determinize``).

A search bot for a hidden-card game plays on *worlds*: states in which every card the seat
cannot see has been placed and every hidden choice made, in a way that agrees with everything
the seat knows.  ``GameState.determinize(seat, seed)`` draws one; ``GameState.worlds(seat, n,
seed)`` draws many from one set of constraints.  docs/search.md states the guarantees.

How a world is drawn
--------------------
Each game describes what is hidden from a seat as a :class:`WorldModel` (its ``_world_model``):
*slots* (another seat's hand, the left-over card, a face-down discard, a chosen but unrevealed
card...), each with the number of unknown cards it holds and the set of cards that may lie there
by the public record (a seat that did not follow suit holds none of that suit:
``TrickPhase.exclusions``; a declared meld is in its owner's hand; ...).  The cards placed are
exactly the ones the seat cannot locate.  The model is built from the seat's knowledge alone:
two states that look the same to the seat give the same model.

:class:`WorldSampler` then draws an assignment of those cards to the slots *uniformly* among all
assignments that respect the sizes and the allowed sets: it counts the completions exactly
(dynamic programming slot by slot over how many cards of each group -- the cards allowed in
the same slots -- are left; slots that allow the same cards are counted as one and split by a
shuffle) and draws along the counts.  A game may add checks no per-card set can express (Beim Jupiter's redeal rule, a
Klaberjass meld declaration); assignments failing them, or whose replay of the trick phase is
illegal, are drawn again, which keeps the draw uniform over the worlds that pass.
"""

from __future__ import annotations

import dataclasses
import random
from bisect import bisect_right
from collections.abc import Callable, Hashable, Iterator, Mapping, Sequence
from math import comb
from typing import Generic, TypeVar

from trickcore._core import CoreError, cards_count, cards_list
from trickcore.errors import TrickcoreError

__all__ = ["InconsistentStateError", "RejectedWorld", "Slot", "WorldModel", "WorldSampler", "draw_worlds",
           "place_owner"]

#: The state type a model builds (this module knows nothing of games: trickcore.game uses it).
W = TypeVar("W", covariant=True)

#: Draws of one world before giving up: a legal game's constraints are met within a few.
MAX_TRIES = 2000


class InconsistentStateError(TrickcoreError, ValueError):
    """No world agrees with what the seat knows: the state was not reached by legal play
    (e.g. cards were edited into impossible places)."""


class RejectedWorld(Exception):
    """Raised by a game's world builder when an assignment fails a check of its own."""


@dataclasses.dataclass(frozen=True)
class Slot:
    """A place for unknown cards: ``size`` of them, drawn from ``allowed`` (a card mask; cards
    outside the model's ``cards`` in it are ignored)."""

    key: Hashable
    size: int
    allowed: int


@dataclasses.dataclass(frozen=True)
class WorldModel(Generic[W]):
    """What is hidden from ``seat`` in one state and how to build a world from an assignment.

    ``build(assignment, rng)`` gets ``{slot key: card mask}`` and returns the world (a new
    state); it raises :class:`RejectedWorld` for an assignment its own checks refuse."""

    seat: int | None
    #: Every card to place: the cards the seat cannot locate (a card mask).
    cards: int
    slots: list[Slot]
    build: Callable[[dict[Hashable, int], random.Random], W]

    def requiring(self, holders: Mapping[int, Hashable]) -> WorldModel[W]:
        """The same model with requirements card -> place: each card that is still unknown lies
        in the slot with that key, or, for a seat number, in one of that seat's slots (a key
        ``(kind, seat)``: its hand, its secret choice...).  For a caller who has learnt more
        than the state says, e.g. a bot rebuilding a state from the events it was sent
        (trickcore.mirror).  A slot key the model does not have (a choice still to be made,
        or one a game makes with its cards, like a Squint bid card) stands for its seat: the
        card is in that seat's hand; the builder also finds it in the assignment under that
        key, to make the choice as required."""
        slots = list(self.slots)
        keys = {s.key for s in slots}
        chosen: dict[Hashable, int] = {}
        for card, place in holders.items():
            if place not in keys and place_owner(place) is not None:
                if not isinstance(place, int) and self.cards >> card & 1:
                    chosen[place] = chosen.get(place, 0) | 1 << card
                place = place_owner(place)
            if place not in keys and place == self.seat is not None:
                continue    # a hand the seat sees: a card it got later came from elsewhere
            if self.cards >> card & 1:
                bit = 1 << card
                slots = [s if s.key == place or (isinstance(place, int) and place_owner(s.key) == place)
                         else Slot(s.key, s.size, s.allowed & ~bit) for s in slots]
        if not chosen:
            return WorldModel(self.seat, self.cards, slots, self.build)
        build = self.build
        return WorldModel(self.seat, self.cards, slots,
                          lambda assignment, rng: build({**chosen, **assignment}, rng))


def place_owner(place: Hashable) -> int | None:
    """The seat a place belongs to: a seat number, or a slot key ``(kind, seat)``; None for a
    place of no seat (``("squint",)``, ``("stack",)``)."""
    if isinstance(place, int):
        return place
    return place[1] if isinstance(place, tuple) and len(place) == 2 and isinstance(place[1], int) else None


class WorldSampler:
    """Uniform assignments of a model's unknown cards to its slots.

    ``cards`` is the mask of cards to place (every one must be allowed somewhere, and the
    slot sizes must add up to their number).

    Slots of no size are left out, and slots that allow the same cards are drawn as one *bin*
    (the cards of a bin are then dealt to its slots by a uniform shuffle: every placement of a
    bin's cards has the same number of splits over its slots, so the draw stays uniform).  Cards
    allowed in the same bins form a *group*.  The completions are counted bin by bin, one group
    at a time (how many of a group's cards still unplaced the bin takes), over the cards each
    group has left; the counts and the choices at every step are kept, and a draw is a walk
    down them."""

    def __init__(self, slots: Sequence[Slot], cards: int):
        self.slots = list(slots)
        self.cards = cards
        total = sum(s.size for s in self.slots)
        if total != cards_count(cards):
            raise InconsistentStateError(
                f"{cards_count(cards)} unknown cards for slots holding {total} "
                f"({', '.join(f'{s.key}: {s.size}' for s in self.slots)})")
        bins: dict[int, list[int]] = {}               # allowed cards -> the slots (with room) allowing them
        for i, s in enumerate(self.slots):
            if s.size:
                bins.setdefault(s.allowed & cards, []).append(i)
        #: per bin: the slots it stands for (their sizes add up to its size)
        self.bins = list(bins.values())
        masks = list(bins)
        groups: dict[tuple[int, ...], list[int]] = {}
        for card in cards_list(cards):
            where = tuple(b for b, m in enumerate(masks) if m >> card & 1)
            if not where:
                raise InconsistentStateError(f"card {card} may lie in no slot")
            groups.setdefault(where, []).append(card)
        #: (bins the cards may lie in, the cards)
        self.groups = list(groups.items())
        sizes = [sum(self.slots[i].size for i in slots_of) for slots_of in self.bins]
        takes = [tuple(g for g, (where, _cards) in enumerate(self.groups) if b in where) for b in range(len(sizes))]
        # The bins in the order they are filled: most constrained first (fewer branches early).
        self.rows = sorted(((b, sizes[b], takes[b]) for b in range(len(sizes))), key=lambda r: (len(r[2]), -r[1]))
        k = len(self.groups)
        # room[j][g]: how many cards of group g the bins j.. can still take (a bound for pruning)
        self.room = [[0] * k for _ in range(len(self.rows) + 1)]
        for j in range(len(self.rows) - 1, -1, -1):
            _b, size, can = self.rows[j]
            self.room[j] = list(self.room[j + 1])
            for g in can:
                self.room[j][g] += size
        # (bin, position in its groups, cards the bin still needs, cards left per group) ->
        # (completions, [(cumulative completions, cards of that group to the bin), ...])
        self._memo: dict[tuple[int, int, int, tuple[int, ...]], tuple[int, list[tuple[int, int]]]] = {}
        self._left0 = tuple(len(members) for _where, members in self.groups)
        self.total = self._count(0, 0, self.rows[0][1] if self.rows else 0, self._left0)[0]
        for slots_of in self.bins:                # the splits of each bin's cards over its slots
            left = sum(self.slots[i].size for i in slots_of)
            for i in slots_of:
                self.total *= comb(left, self.slots[i].size)
                left -= self.slots[i].size
        if self.total == 0:
            raise InconsistentStateError(
                "no placement of the unknown cards meets the constraints: "
                + "; ".join(f"{s.key} needs {s.size} of {cards_count(s.allowed)} allowed" for s in self.slots))

    def _count(self, j: int, p: int, need: int, left: tuple[int, ...]) -> tuple[int, list[tuple[int, int]]]:
        """Completions from here, and the choices (how many cards of the group at position ``p``
        of bin ``j``'s groups go to that bin, which still ``need``s cards) with their cumulative
        completions."""
        if j == len(self.rows):
            return (0 if any(left) else 1), []
        key = (j, p, need, left)
        done = self._memo.get(key)
        if done is not None:
            return done
        can = self.rows[j][2]
        choices: list[tuple[int, int]] = []
        total = 0
        if can:
            g = can[p]
            have = left[g]
            later = self.room[j + 1][g]           # what later bins can still take of group g
            if p == len(can) - 1:                 # the bin's last group fills it
                if need <= have and have - need <= later:
                    nxt = self.rows[j + 1][1] if j + 1 < len(self.rows) else 0
                    sub = self._count(j + 1, 0, nxt, left[:g] + (have - need,) + left[g + 1:])[0]
                    if sub:
                        total = comb(have, need) * sub
                        choices.append((total, need))
            else:
                avail_after = sum(left[h] for h in can[p + 1:])
                for x in range(max(0, have - later, need - avail_after), min(need, have) + 1):
                    sub = self._count(j, p + 1, need - x, left[:g] + (have - x,) + left[g + 1:])[0]
                    if sub:
                        total += comb(have, x) * sub
                        choices.append((total, x))
        self._memo[key] = (total, choices)
        return total, choices

    def sample(self, rng: random.Random) -> dict[Hashable, int]:
        """One assignment ``{slot key: card mask}``, every consistent one equally likely."""
        left = self._left0
        shuffled = []
        for _where, members in self.groups:
            cards = list(members)
            rng.shuffle(cards)
            shuffled.append(cards)
        got: list[list[int]] = [[] for _ in self.bins]
        for j, (b, need, can) in enumerate(self.rows):
            for p, g in enumerate(can):
                total, choices = self._count(j, p, need, left)
                pick = rng.randrange(total)
                x = choices[bisect_right(choices, (pick, need + 1))][1]
                if x:                             # the next x of the group's shuffled cards
                    have = left[g]
                    start = len(shuffled[g]) - have
                    got[b].extend(shuffled[g][start:start + x])
                    left = left[:g] + (have - x,) + left[g + 1:]
                    need -= x
        out = {s.key: 0 for s in self.slots}
        for b, slots_of in enumerate(self.bins):
            cards = got[b]
            if len(slots_of) > 1:
                rng.shuffle(cards)
            pos = 0
            for i in slots_of:
                mask = 0
                for card in cards[pos:pos + self.slots[i].size]:
                    mask |= 1 << card
                out[self.slots[i].key] = mask
                pos += self.slots[i].size
        return out


V = TypeVar("V")


def draw_worlds(model: WorldModel[V], n: int, rng: random.Random) -> Iterator[V]:
    """``n`` worlds drawn independently from one model (``GameState.worlds``).  The sampler is
    built before the first draw, so an inconsistent model raises at once."""
    sampler = WorldSampler(model.slots, model.cards)
    return (_draw(model, sampler, rng) for _ in range(n))


def _draw(model: WorldModel[V], sampler: WorldSampler, rng: random.Random) -> V:
    last = ""
    for _ in range(MAX_TRIES):
        assignment = sampler.sample(rng)
        try:
            return model.build(assignment, rng)
        except RejectedWorld as exc:
            last = str(exc)
        except CoreError as exc:          # the trick phase does not replay with these hands
            last = f"the trick phase does not replay: {exc}"
    raise InconsistentStateError(
        f"no consistent world found in {MAX_TRIES} draws for seat {model.seat} (last: {last})")
