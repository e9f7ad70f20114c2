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
(dynamic programming over groups of cards with the same allowed slots) and draws group by
group.  A game may add checks no per-card set can express (Beim Jupiter's redeal rule, a
Klaberjass meld declaration); assignments failing them, or whose replay of the trick phase is
illegal, are drawn again, which keeps the draw uniform over the worlds that pass.
"""

from __future__ import annotations

import dataclasses
import random
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
    slot sizes must add up to their number)."""

    def __init__(self, slots: Sequence[Slot], cards: int):
        self.slots = list(slots)
        self.cards = cards
        total = sum(s.size for s in self.slots)
        if total != cards_count(cards):
            raise InconsistentStateError(
                f"{cards_count(cards)} unknown cards for slots holding {total} "
                f"({', '.join(f'{s.key}: {s.size}' for s in self.slots)})")
        groups: dict[tuple[int, ...], list[int]] = {}
        for card in cards_list(cards):
            where = tuple(i for i, s in enumerate(self.slots) if s.allowed >> card & 1)
            if not where:
                raise InconsistentStateError(f"card {card} may lie in no slot")
            groups.setdefault(where, []).append(card)
        # Most constrained groups first: fewer branches early keeps the table of counts small.
        self.groups = sorted(groups.items(), key=lambda g: (len(g[0]), -len(g[1])))
        k = len(self.slots)
        # room[j][i]: cards of groups j.. that slot i may take (a bound for pruning)
        self.room = [[0] * k for _ in range(len(self.groups) + 1)]
        for j in range(len(self.groups) - 1, -1, -1):
            where, members = self.groups[j]
            self.room[j] = list(self.room[j + 1])
            for i in where:
                self.room[j][i] += len(members)
        self._memo: dict[tuple[int, tuple[int, ...]], int] = {}
        self.total = self._count(0, tuple(s.size for s in self.slots))
        if self.total == 0:
            raise InconsistentStateError(
                "no placement of the unknown cards meets the constraints: "
                + "; ".join(f"{s.key} needs {s.size} of {cards_count(s.allowed)} allowed" for s in self.slots))

    def _splits(self, j: int, caps: tuple[int, ...]) -> Iterator[tuple[tuple[int, ...], int]]:
        """(split of group j over its slots, number of ways to choose the cards) for every split
        after which the later groups can still fill every slot exactly."""
        where, members = self.groups[j]
        room_next = self.room[j + 1]
        k = len(where)
        hi = [min(caps[i], len(members)) for i in where]
        lo = [max(0, caps[i] - room_next[i]) for i in where]  # what later groups cannot fill
        if any(a > b for a, b in zip(lo, hi)):
            return
        hi_after = [0] * (k + 1)
        lo_after = [0] * (k + 1)
        for pos in range(k - 1, -1, -1):
            hi_after[pos] = hi_after[pos + 1] + hi[pos]
            lo_after[pos] = lo_after[pos + 1] + lo[pos]
        counts = [0] * k

        def rec(pos: int, left: int, ways: int) -> Iterator[tuple[tuple[int, ...], int]]:
            if pos == k - 1:
                counts[pos] = left
                yield tuple(counts), ways
                return
            first = max(lo[pos], left - hi_after[pos + 1])
            last = min(hi[pos], left - lo_after[pos + 1])
            for x in range(first, last + 1):
                counts[pos] = x
                yield from rec(pos + 1, left - x, ways * comb(left, x))
        m = len(members)
        if lo_after[0] <= m <= hi_after[0]:
            yield from rec(0, m, 1)

    def _count(self, j: int, caps: tuple[int, ...]) -> int:
        if j == len(self.groups):
            return 1 if not any(caps) else 0
        key = (j, caps)
        done = self._memo.get(key)
        if done is not None:
            return done
        total = sum(weight for weight, _split, _rest in self._options(j, caps))
        self._memo[key] = total
        return total

    def _options(self, j: int, caps: tuple[int, ...]) -> Iterator[tuple[int, tuple[int, ...], tuple[int, ...]]]:
        """(number of completions, split of group j, room left) for every split of group j
        that later groups can complete."""
        where = self.groups[j][0]
        for split, ways in self._splits(j, caps):
            rest = list(caps)
            for i, x in zip(where, split):
                rest[i] -= x
            sub = self._count(j + 1, tuple(rest))
            if sub:
                yield ways * sub, split, tuple(rest)

    def sample(self, rng: random.Random) -> dict[Hashable, int]:
        """One assignment ``{slot key: card mask}``, every consistent one equally likely."""
        caps = tuple(s.size for s in self.slots)
        out = [0] * len(self.slots)
        for j, (where, members) in enumerate(self.groups):
            choices = list(self._options(j, caps))
            pick = rng.randrange(sum(w for w, _s, _r in choices))
            k = 0
            while pick >= choices[k][0]:
                pick -= choices[k][0]
                k += 1
            _weight, split, caps = choices[k]
            cards = list(members)
            rng.shuffle(cards)
            pos = 0
            for i, x in zip(where, split):
                for card in cards[pos:pos + x]:
                    out[i] |= 1 << card
                pos += x
        return {slot.key: mask for slot, mask in zip(self.slots, out)}


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
