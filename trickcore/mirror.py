"""A bot's own copy of the game: a complete state rebuilt from the events its seat was sent.

A protocol bot sees only its seat's events (docs/protocol.md), never the deal.  To search, it
needs a state it can play on; :class:`Mirror` keeps one that agrees with every event the seat
has seen, so that ``mirror.state.determinize(seat)`` draws worlds uniformly from what the seat
knows (the worlds depend on the seat's knowledge alone, not on how the mirror was dealt).

How it stays in step, with no per-game replay code:

* the mirror starts as a game with any seed; at each decision of the mirror, every legal action
  is tried on a copy, and one whose events for the seat equal the next events the seat was sent
  is applied (a public action matches exactly one; a hidden choice of another seat matches
  several, and any of them does, unless later events of the deal name it: a card it shows,
  ``GameInfo.shown_cards``, or a choice that is no card, ``GameInfo.shown_choices``);
* when none matches, the mirror's hidden cards are drawn again (``determinize`` with
  ``require``) with what the events say: the cards the seat was dealt (a new deal), and the
  cards another seat showed it holds (a card played, declared, exchanged, passed or discarded
  face up; a colour card, laid-out card or bid card revealed; a last card shown) placed with
  that seat, then the actions are tried again;
* when that fails too, the current deal is redone from its start with everything its events
  showed, so that earlier hidden choices are made as later events name them.

What it needs of a game is in the game's ``GameInfo``: its deck (``deck``), to read card texts
with, the cards its events show lying somewhere (``shown_cards``), beyond the card plays and
the seat's own hand, which every game writes alike (:func:`_holdings`), and the hidden choices
that name no card which its events turn up (``shown_choices``).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Hashable, Iterator
from typing import Any

from trickcore._core import Deck
from trickcore.errors import TrickcoreError
from trickcore.game import Event, GameState, ShownCards
from trickcore.games import new_game
from trickcore.worlds import InconsistentStateError, place_owner

__all__ = ["Mirror", "MirrorError"]

#: Redraws of the mirror's hidden cards before giving up on an event.
MAX_REDRAWS = 200


class MirrorError(TrickcoreError):
    """The events cannot be reproduced by any legal game (they were not sent by a referee of
    this game, or an event is missing)."""


def _cards(deck: Deck, texts: Any) -> Iterator[int]:
    """Card ids of card texts; texts that name no single card (a lamb, ``LAMB``) are skipped,
    a God card's declaration (``Ggod=3``) is its card."""
    for text in texts if isinstance(texts, list) else [texts]:
        name = str(text).split("=")[0]
        if name in deck.names:
            yield deck.card_id(name)


def _holdings(event: Event, deck: Deck, seat: int, hand: str | None,
              shown: Callable[[Event, int], ShownCards] | None) -> Iterator[tuple[int, Hashable, bool]]:
    """(card, where it lies, revealed) triples an event shows: a card played was its seat's; the
    seat's own new hand (an event of type ``hand``, the one that dealt it its first cards) is
    exactly there; every other event is read by the game (``GameInfo.shown_cards``).  Where: a
    seat number (in that seat's hand or secret choice) or a slot key of the game's world model
    (trickcore.worlds); revealed: whether the event shows an earlier hidden choice (a bid card
    turned up, cards passed)."""
    kind = event.get("type")
    if hand is not None and kind == hand and event.get("seat") == seat and "cards" in event:
        for card in _cards(deck, event["cards"]):
            yield card, ("hand", seat), False
    elif kind == "play" and "seat" in event:
        for card in _cards(deck, event.get("card", event.get("cards", []))):
            yield card, ("hand", event["seat"]), False
    elif shown is not None:
        for texts, place, revealed in shown(event, seat):
            for card in _cards(deck, texts):
                yield card, place, revealed


def _without_cards(event: Event) -> Event:
    return {k: v for k, v in event.items() if k not in ("cards", "card")}


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
        """Raises MirrorError for a game that cannot be followed: one that does not name its deck
        (``GameInfo.deck``) or does not sample worlds (``GameState.worlds``)."""
        self.seat = seat
        self.rng = random.Random(seed)
        self.state = new_game(game, players, options, seed=seed)
        self._game = (game, players, options, seed)
        info = self.state.info
        if info.deck is None:
            raise MirrorError(f"{info.name} does not name its deck (GameInfo.deck), which following it needs")
        try:
            self.state.worlds(None, 0)        # builds the game's world model, draws nothing
        except NotImplementedError:
            raise MirrorError(f"{info.name} does not sample worlds, which following it needs") from None
        self.deck = info.deck(players, self.state.options)
        self._shown = info.shown_cards
        self._shown_choices = info.shown_choices
        # A game's first events open its first deal: the type of the first opens every deal, and
        # the one that gives the seat its cards gives them at every deal (docs/game-interface.md).
        first = self.state.events_for(seat, 0)[0]
        self._opener = first[0].get("type") if first else None
        self._hand = next((e.get("type") for e in first if e.get("seat") == seat and "cards" in e), None)
        self._seen = 0                         # events of the mirror already matched
        self._pending: list[Event] = []        # events sent but not yet reproduced
        self._started = False
        # the current deal as first dealt to the mirror, and the events matched since: a
        # hidden choice that later events contradict is redone from there (_resync)
        self._deal_state = self.state
        self._deal_events: list[Event] = []
        self._resyncs = 0
        self._to_move = True

    def feed(self, event: Event) -> None:
        """One event the seat was sent."""
        self._pending.append(event)

    def _holdings(self, event: Event) -> Iterator[tuple[int, Hashable, bool]]:
        return _holdings(event, self.deck, self.seat, self._hand, self._shown)

    def _is_new_hand(self, event: Event) -> bool:
        return event.get("type") == self._hand and event.get("seat") == self.seat and "cards" in event

    def _deal_opener(self, events: list[Event]) -> int | None:
        """The index of the first event that opens a deal (what a deal-ending action emits first
        for the next deal), None if none does."""
        return next((i for i, e in enumerate(events) if e.get("type") == self._opener), None)

    def sync(self, to_move: bool = True) -> GameState:
        """Advance the mirror through every pending event; the synced state.  With ``to_move``
        (the seat was asked for a decision) the state is one where the seat is to move: a
        decision of another seat that the referee never asked (a Klaberjass exchange when no
        seat held the seven) is a sign of hidden cards to place differently."""
        self._to_move = to_move
        if not self._started:
            first = self.state.events_for(self.seat, 0)[0]
            if len(self._pending) < len(first):
                return self.state
            self._started = True
            self._first_deal(len(first))
        self._resyncs = 0
        while self._pending:
            if self.state.is_terminal():
                raise MirrorError(f"events after the end of the game: {self._pending[:3]}")
            if not self._try_actions() and not self._redraw_until(self._try_actions):
                self._resync()
        return self.state

    def _first_deal(self, n: int) -> None:
        """The game as the seat saw it begin: a seed whose first events agree with the sent
        ones but for the cards (the first dealer is drawn from the seed in some games)."""
        game, players, options, seed = self._game
        sent = [_without_cards(e) for e in self._pending[:n]]
        for k in range(MAX_REDRAWS * 50):
            state = new_game(game, players, options, seed=seed + k)
            first = state.events_for(self.seat, 0)[0]
            if [_without_cards(e) for e in first] == sent:
                self._deal_hand(state, self._pending[:n])
                del self._pending[:n]
                return
        raise MirrorError(f"no game of {game} begins with the events {self._pending[:n]}")

    def _try_actions(self) -> bool:
        """Apply an action whose events equal the next pending ones; False if none does."""
        state, s, pending = self.state, self.seat, self._pending
        exact: list[tuple[int, GameState, int, int]] = []
        dealing: list[tuple[int, int, int]] = []
        # Candidates in random order: the first exact match is then a uniform choice among
        # them, and a hidden choice (every candidate matches) costs one trial, not one per
        # option.  Only where later events name the choice are all candidates looked at.
        named_cards, named_texts = self._named_later(state.current_player())
        named = bool(named_cards or named_texts)
        candidates = list(state.legal_actions())
        self.rng.shuffle(candidates)
        # with named cards or choices: which candidates name them, those first (a hidden choice
        # ends there)
        naming = {a: bool(named_cards & self._action_cards(state, a)) or state.action_to_string(a) in named_texts
                  for a in candidates} if named else {}
        if named:
            candidates.sort(key=lambda a: not naming[a])
        for action in candidates:
            if exact and (not named or naming[exact[0][0]]):
                break
            trial = state.clone()
            trial.apply_action(action)
            events, after = trial.events_for(s, self._seen)
            n = len(events)
            if pending[:n] == events:
                if n == len(pending) and self._to_move and not trial.is_terminal() and \
                        trial.current_player() != s:
                    continue            # the events end here, so the seat must be to move
                exact.append((action, trial, after, n))
            elif trial.deal_number() != state.deal_number() and len(pending) >= n:
                # the action ends a deal and the next begins: the events up to the new deal
                # must agree; the new deal's are the referee's cards, dealt below
                opener = self._deal_opener(events)
                if opener is not None and _common_prefix(events, pending) >= opener and \
                        [e.get("type") for e in events] == [e.get("type") for e in pending[:n]]:
                    dealing.append((action, opener, n))
        if exact:
            if named and len(exact) > 1:
                # a hidden choice that later events name (a bid card revealed, cards passed to
                # the seat, a colour turned up): only the choice they name will do
                exact = [m for m in exact if naming[m[0]]]
                if not exact:
                    return False
            _action, trial, after, n = self.rng.choice(exact)
            self.state, self._seen = trial, after
            self._deal_events += pending[:n]
            del pending[:n]
            return True
        if dealing:
            action, opener, n = dealing[0]
            self._deal(action, opener, n)
            return True
        return False

    def _named_later(self, q: int) -> tuple[int, frozenset[str]]:
        """What pending events of this deal show of seat q's hidden choices: the cards it
        revealed or handed over (a bid card, cards passed), a mask, and the texts of its choices
        that name no card (``GameInfo.shown_choices``: Sticheln's verspätet colours)."""
        events = self._pending[:self._deal_opener(self._pending)]
        named = 0
        texts: set[str] = set()
        for event in events:
            for card, place, revealed in self._holdings(event):
                if revealed and place_owner(place) == q:
                    named |= 1 << card
            if self._shown_choices is not None:
                texts.update(text for who, text in self._shown_choices(event, self.seat) if who == q)
        return named, frozenset(texts)

    def _action_cards(self, state: GameState, action: int) -> int:
        text = state.action_to_string(action)
        cards = 0
        for part in text.replace("+", " ").split():
            for card in _cards(self.deck, part):
                cards |= 1 << card
        return cards

    def _deal(self, action: int, opener: int, n: int) -> None:
        """``action`` ends a deal and the next begins (its events for the seat from ``opener``
        to ``n`` are the new deal's).  The new deal must show the seat what the referee's did:
        its public part (a turned-up card) by drawing the mirror's next deal again until it
        agrees, the seat's own hand by placing its cards there."""
        base, s = self.state, self.seat
        want = self._pending[opener:n]
        known = self._places(self._pending[:opener])      # the deal-ending card stays its seat's
        for attempt in range(MAX_REDRAWS * 5):
            pre = base if attempt == 0 else base.determinize(s, self.rng.getrandbits(64), require=known)
            seen = self._seen if attempt == 0 else pre.events_for(s, 0)[1]
            trial = pre.clone()
            trial.apply_action(action)
            shown = [(vis, e) for vis, e in trial.events_since(seen)[0] if vis is None or s in vis]
            if len(shown) != n or any(vis is None and e != self._pending[k]
                                      for k, (vis, e) in enumerate(shown) if k >= opener):
                continue
            self._deal_hand(trial, want)
            del self._pending[:n]
            return
        raise MirrorError(f"no deal reproduces the events {want[:4]}")

    def _deal_hand(self, trial: GameState, want: list[Event]) -> None:
        """Draw every hidden card of ``trial`` (a deal has just begun) from the public view,
        with the cards the deal's events show placed as they show (the seat's own hand)."""
        require = self._places(want)
        # cards written alike (Beim Jupiter's lambs, all ``LAMB``): the seat holds as many of
        # them as its hand shows; which ones is immaterial, so take unknown ones in order
        alike = [e for e in want if self._is_new_hand(e)]
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
        self.state = self._deal_state = world
        self._deal_events = []
        self._seen = world.events_for(self.seat, 0)[1]    # the world keeps the public events only

    def _places(self, events: list[Event]) -> dict[int, Hashable]:
        """Where the events show each card, the earliest showing first: cards move (passed,
        exchanged, picked up), and the earliest place is the one nearest the mirror's now."""
        places: dict[int, Hashable] = {}
        for event in events:
            for card, place, _revealed in self._holdings(event):
                places.setdefault(card, place)
        return places

    def _redraw_until(self, attempt: Callable[[], bool], tries: int = 30) -> bool:
        """Draw the mirror's hidden cards again, placing the cards the pending events of this
        deal show, until ``attempt`` succeeds (True) or ``tries`` draws failed (False)."""
        base, seen = self.state, self._seen
        opener = self._deal_opener(self._pending)
        known = self._places(self._pending[:opener])
        try:
            # One sampler for every try: building it is the costly part (Squint's contracts: ms).
            worlds = base.worlds(self.seat, tries, self.rng.getrandbits(64), require=known)
            for world in worlds:
                self.state = world
                self._seen = world.events_for(self.seat, 0)[1]
                if attempt():
                    return True
        except InconsistentStateError:
            pass
        self.state, self._seen = base, seen
        return False

    def _resync(self) -> None:
        """Redo the current deal from its start: its hidden cards drawn again with everything
        its events have shown, its events matched again (a hidden choice of another seat is
        then made as later events name it: a bid card revealed, cards passed)."""
        self._resyncs += 1
        if self._resyncs > MAX_REDRAWS:
            raise MirrorError(f"no legal action reproduces the events {self._pending[:4]}")
        events = self._deal_events + self._pending
        opener = self._deal_opener(events)
        known = self._places(events[:opener])
        try:
            world = self._deal_state.determinize(self.seat, self.rng.getrandbits(64), require=known)
        except InconsistentStateError as exc:
            raise MirrorError(f"the events of this deal contradict each other: {exc}") from None
        self.state = world
        self._seen = world.events_for(self.seat, 0)[1]
        self._pending = events
        self._deal_events = []
