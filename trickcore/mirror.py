"""A bot's own copy of the game: a complete state rebuilt from the events its seat was sent.

A protocol bot sees only its seat's events (docs/protocol.md), never the deal.  To search, it
needs a state it can play on; :class:`Mirror` keeps one that agrees with every event the seat
has seen, so that ``mirror.state.determinize(seat)`` draws worlds uniformly from what the seat
knows (the worlds depend on the seat's knowledge alone, not on how the mirror was dealt).

How it stays in step, with no per-game replay code:

* the mirror starts as a game with any seed; at each decision of the mirror, every legal action
  is tried on a copy, and one whose events for the seat equal the next events the seat was sent
  is applied (a public action matches exactly one; a hidden choice of another seat matches
  several, and any of them does);
* when none matches, the mirror's hidden cards are drawn again (``determinize``) with what the
  events say: the cards the seat was dealt (a new deal), and the cards another seat showed it
  holds (a card played, a colour card or a laid-out card revealed, a last card shown) placed
  with that seat, then the actions are tried again.

Only the reading of cards out of events is per game (:data:`HOLDINGS`).
"""

from __future__ import annotations

import random
import sys
from collections.abc import Callable, Hashable, Iterator
from typing import Any

from trickcore._core import Deck
from trickcore.errors import TrickcoreError
from trickcore.game import Event, GameState
from trickcore.games import new_game

__all__ = ["Mirror", "MirrorError"]

#: Redraws of the mirror's hidden cards before giving up on an event.
MAX_REDRAWS = 200


class MirrorError(TrickcoreError):
    """The events cannot be reproduced by any legal game (they were not sent by a referee of
    this game, or an event is missing)."""


def _deck(state: GameState) -> Deck:
    info_deck = getattr(state, "info_deck", None)          # Beim Jupiter: one deck per player count
    if info_deck is not None:
        return info_deck.deck                              # type: ignore[no-any-return]
    module = sys.modules[type(state).__module__]
    if hasattr(module, "DECKS"):                           # Klaberjass: one deck per player count
        return module.DECKS[state.num_players]             # type: ignore[no-any-return]
    return module.DECK                                     # type: ignore[no-any-return]


def _cards(deck: Deck, texts: Any) -> Iterator[int]:
    """Card ids of card texts; texts that name no single card (a lamb, ``LAMB``) are skipped,
    a God card's declaration (``Ggod=3``) is its card."""
    for text in texts if isinstance(texts, list) else [texts]:
        name = str(text).split("=")[0]
        if name in deck.names:
            yield deck.card_id(name)


def _holdings(event: Event, deck: Deck, seat: int) -> Iterator[tuple[int, Hashable]]:
    """(card, seat holding it) pairs an event shows: a card played or laid out, a revealed
    colour card or laid-out card, the last cards shown, the seat's own new hand."""
    kind = event.get("type")
    if kind in ("play", "layout", "hand", "deal", "colour", "bid") and "seat" in event:
        texts = event.get("card", event.get("cards", []))
        if kind == "bid" and "card" not in event:
            return
        for card in _cards(deck, texts):
            yield card, event["seat"]
    elif kind == "reveal" and isinstance(event.get("cards"), list):    # Beim Jupiter colour cards
        for q, text in enumerate(event["cards"]):
            for card in _cards(deck, text):
                yield card, ("colour", q) if q != seat else q
    elif kind == "reveal" and isinstance(event.get("laid_out"), dict):  # Sticheln laid-out cards
        for q, texts in event["laid_out"].items():
            for card in _cards(deck, texts):
                yield card, ("laid", int(q)) if int(q) != seat else seat
    elif kind == "last_cards":                                          # Hattrick
        for q, texts in enumerate(event["cards"]):
            for card in _cards(deck, texts):
                yield card, q


def _is_new_hand(event: Event, seat: int) -> bool:
    return event.get("type") in ("hand", "deal") and event.get("seat") == seat and "cards" in event


#: Event types that open a deal: what a deal-ending action emits first for the next deal.
DEAL_OPENERS = ("round_start", "deal")


def _deal_opener(events: list[Event]) -> int | None:
    return next((i for i, e in enumerate(events) if e.get("type") in DEAL_OPENERS), None)


def _without_cards(event: Event) -> Event:
    return {k: v for k, v in event.items() if k not in ("cards", "card", "turned")}


def _common_prefix(a: list[Event], b: list[Event]) -> int:
    k = 0
    while k < len(a) and k < len(b) and a[k] == b[k]:
        k += 1
    return k


class Mirror:
    """A complete state that shows ``seat`` exactly the events it was sent.

    Feed every event the seat receives (:meth:`feed`, in order), then :meth:`sync`: the state
    it returns is a state of the game whose ``observation(seat)`` is the seat's current view.
    The mirror's deals are its own; only what the seat was shown is the referee's."""

    def __init__(self, game: str, players: int, options: dict[str, Any] | None, seat: int,
                 seed: int = 0) -> None:
        self.seat = seat
        self.rng = random.Random(seed)
        self.state = new_game(game, players, options, seed=seed)
        self._game = (game, players, options, seed)
        self.deck = _deck(self.state)
        self._seen = 0                         # events of the mirror already matched
        self._pending: list[Event] = []        # events sent but not yet reproduced
        self._started = False

    def feed(self, event: Event) -> None:
        """One event the seat was sent."""
        self._pending.append(event)

    def sync(self) -> GameState:
        """Advance the mirror through every pending event; the synced state."""
        if not self._started:
            first, after = self.state.events_for(self.seat, 0)
            if len(self._pending) < len(first):
                return self.state
            self._started = True
            self._first_deal(len(first))
        while self._pending:
            if self.state.is_terminal():
                raise MirrorError(f"events after the end of the game: {self._pending[:3]}")
            if not self._try_actions():
                self._redraw_until(self._try_actions)
        return self.state

    def _first_deal(self, n: int) -> None:
        """The game as the seat saw it begin: a seed whose first events agree with the sent
        ones but for the cards (the first dealer is drawn from the seed in some games)."""
        game, players, options, seed = self._game
        sent = [_without_cards(e) for e in self._pending[:n]]
        for k in range(1000):
            state = new_game(game, players, options, seed=seed + k)
            first = state.events_for(self.seat, 0)[0]
            if [_without_cards(e) for e in first] == sent:
                self._deal(state, 0, n)
                return
        raise MirrorError(f"no game of {game} begins with the events {self._pending[:n]}")

    def _try_actions(self) -> bool:
        """Apply an action whose events equal the next pending ones; False if none does."""
        state, s, pending = self.state, self.seat, self._pending
        exact, dealing = [], []
        for action in state.legal_actions():
            trial = state.clone()
            trial.apply_action(action)
            events, after = trial.events_for(s, self._seen)
            n = len(events)
            if pending[:n] == events:
                exact.append((trial, after, n))
            elif trial.deal_number() != state.deal_number() and len(pending) >= n:
                # the action ends a deal and the next begins: the events up to the new deal
                # must agree; the new deal's are the referee's cards, dealt below
                opener = _deal_opener(events)
                if opener is not None and _common_prefix(events, pending) >= opener and \
                        [e.get("type") for e in events] == [e.get("type") for e in pending[:n]]:
                    dealing.append((trial, opener, n))
        if exact:
            trial, after, n = self.rng.choice(exact)
            self.state, self._seen = trial, after
            del pending[:n]
            return True
        if dealing:
            trial, opener, n = dealing[0]
            self._deal(trial, opener, n)
            return True
        return False

    def _deal(self, trial: GameState, opener: int, n: int) -> None:
        """``trial`` has just dealt (its events for the seat from ``opener`` to ``n`` are the
        deal's): draw every hidden card again from the public view, with the seat's hand and
        any card the deal's events show placed as they show."""
        require = dict(self._learn(self._pending[opener:n]))
        # cards written alike (Beim Jupiter's lambs, all ``LAMB``): the seat holds as many of
        # them as its hand shows; which ones is immaterial, so take unknown ones in order
        alike = [e for e in self._pending[opener:n] if _is_new_hand(e, self.seat)]
        unknown = trial._world_model(None).cards
        names = self.deck.names
        for event in alike:
            texts = list(event["cards"])
            for text in set(texts):
                if texts.count(text) > 1:       # LAMB, LAMB: the first lamb named LAMB, then LAMB2...
                    same = [c for c in range(unknown.bit_length()) if unknown >> c & 1 and
                            (names[c] == text or (names[c].startswith(text) and names[c][len(text):].isdigit()))]
                    for c in same:
                        require.pop(c, None)
                    for c in same[:texts.count(text)]:
                        require[c] = self.seat
        world = trial.determinize(None, self.rng.getrandbits(64), require=require)
        self.state = world
        self._seen = world.events_for(self.seat, 0)[1]    # the world keeps the public events only
        del self._pending[:n]

    def _learn(self, events: list[Event]) -> Iterator[tuple[int, Hashable]]:
        for event in events:
            yield from _holdings(event, self.deck, self.seat)

    def _redraw_until(self, attempt: Callable[[], bool]) -> None:
        """Draw the mirror's hidden cards again, placing the cards the pending events of this
        deal show, until ``attempt`` succeeds."""
        base = self.state
        opener = _deal_opener(self._pending)
        known = dict(self._learn(self._pending[:opener]))
        for _ in range(MAX_REDRAWS):
            self.state = base.determinize(self.seat, self.rng.getrandbits(64), require=known)
            self._seen = self.state.events_for(self.seat, 0)[1]
            if attempt():
                return
        self.state = base
        raise MirrorError(f"no legal action reproduces the events {self._pending[:4]}")
