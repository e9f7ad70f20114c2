"""Game authors: docs/contributing.md (section 5) has the conventions, the notation and the test
checklist for game modules.

Hattrick (the double-trick game of the Sticheln box), 4-7 players.

Rules source: docs/rules/sticheln.md §4 (H1-H8), §1.3 (cards per player count),
decisions D-17..D-23, decision points §6 (5-7), information §7.2.  Player-facing summary:
docs/games/hattrick.md.

Modelling
---------
* Deck: red, blue, green 0..20 (63 cards; colours R B G = suit 0 1 2, the H5 tie order);
  ids colour * 21 + value (``R0`` = 0, ``B0`` = 21, ``G0`` = 42).  Strength = value,
  points = 1 (so the core's points_won() counts won cards).  4-6 players deal from the
  cards 1..20 (60), 7 players from 0..20 (63) (§1.3); everything is dealt.
* A game is one trick phase in the C core: FOLLOW_DOUBLE with WIN_DOUBLE, hand - 1
  double tricks (H6, D-17).  The core classifies each card (join / open the second trick
  / pass with a third-colour card, H3), resolves both tricks (H4) and names the next
  leader (H5); pass cards go to the core's pass piles (``passed(seat)``).  After the last
  double trick every player's last card is shown (a public "last_cards" event) and the
  game is scored (H7).  Match option ``games`` (default 5, H1/H8); dealer and first
  leader rotate as in Sticheln C1.
* Every decision is a card play: a card of an open colour joins that trick, a card of a
  new colour opens the second trick, a card of the third colour (two colours open) is a
  pass showing that card (H3: every card in hand maps to exactly one action).

Action ids: ``0..62`` card plays (card id), text the card, ``R7``, ``B20``, ``G0``.
"""

from __future__ import annotations

import random
from collections.abc import Hashable, Iterator, Mapping, Sequence
from typing import Any, cast

from trickcore import _core
from trickcore._core import Rng
from trickcore.game import TERMINAL, CardFace, Event, GameInfo, GameState, OptionSpec
from trickcore.games import colour_faces, register
from trickcore.worlds import Slot, WorldModel

COLOURS = "RBG"
TOP = 20
# §1.3: N -> (lowest value, hand size); double tricks = hand - 1
SETUP = {4: (1, 15), 5: (1, 12), 6: (1, 10), 7: (0, 9)}
PILE_PASS = _core.PILE_PASS
_MASK64 = 2**64 - 1


def _build_deck() -> _core.Deck:
    deck = _core.Deck(3)
    for c, letter in enumerate(COLOURS):
        for v in range(TOP + 1):
            deck.add(f"{letter}{v}", c, v, strength=v, points=1)
    return deck


DECK = _build_deck()
N_CARDS = DECK.n_cards  # 63


def card_id(colour: int, value: int) -> int:
    if not 0 <= value <= TOP or not 0 <= colour < 3:
        raise ValueError(f"no Hattrick card {colour}/{value}")
    return colour * (TOP + 1) + value


def colour_of(card: int) -> int:
    return card // (TOP + 1)


def value_of(card: int) -> int:
    return card % (TOP + 1)


def used_mask(n: int) -> int:
    low, _hand = SETUP[n]
    mask = 0
    for c in range(3):
        for v in range(low, TOP + 1):
            mask |= 1 << card_id(c, v)
    return mask


USED = {n: used_mask(n) for n in SETUP}
# Every card of one colour, as a mask: colour counts and stacks from a won-card mask
# without a Python loop over the cards (views ask for them for every seat on every request).
COLOUR_MASKS = tuple(sum(1 << card_id(c, v) for v in range(TOP + 1)) for c in range(3))


cards_of = _core.cards_list  # ascending card ids of a mask


def game_score(r: int, b: int, g: int, passes: int) -> int:
    """H7: m - (r + b + g - m) - 2p with m = max(r, b, g)."""
    m = max(r, b, g)
    return m - (r + b + g - m) - 2 * passes


def seat_score(won: int, passed: int) -> int:
    """H7 from a won-card mask and a pass-pile mask."""
    count = _core.cards_count
    red, blue, green = COLOUR_MASKS
    return game_score(count(won & red), count(won & blue), count(won & green), count(passed))


def _deal(seed: int, game: int, used: int, n: int, hand: int) -> list[int]:
    """The deal of game ``game`` (1-based)."""
    rng = Rng(seed ^ ((game * 0x9E3779B97F4A7C15) & _MASK64))
    hands, _rest = rng.deal(used, n, hand)
    return list(hands)


def describe_trick(leader: int, moves: Sequence[int], n: int) -> dict[str, Any]:
    """Public view of a (partial or complete) double trick: every play with what it did."""
    res = _core.resolve_trick(DECK, n, _core.FOLLOW_DOUBLE, _core.WIN_DOUBLE, _core.NO_SUIT, leader, list(moves))
    opened: list[int] = []
    plays = []
    for i, m in enumerate(moves):
        pile = res["piles"][i]
        col = colour_of(m)
        if pile == PILE_PASS:
            kind = "pass"
        elif col in opened:
            kind = "join"
        else:
            kind = "open"
            opened.append(col)
        plays.append({"seat": (leader + i) % n, "card": DECK.names[m], "action": kind})
    return {"leader": leader, "plays": plays, "open": [COLOURS[c] for c in opened], "result": res}


class HattrickState(GameState):
    """A Hattrick match: ``games`` games of deal and double tricks, scored by H7."""

    def __init__(self, num_players: int, options: dict[str, Any] | None = None, seed: int = 0, *,
                 deals: dict[int, Sequence[int]] | None = None):
        super().__init__(num_players, options, seed)
        # Tests may fix the deal of given games (game -> hands); players never can.
        self._forced_deals = dict(deals or {})
        n = num_players
        self.low, self.hand_size = SETUP[n]
        self.n_tricks = self.hand_size - 1
        self.used = USED[n]
        self.games = self.options["games"]
        self.game = 0
        self.totals = [0] * n
        self.game_scores: list[list[int]] = []
        self.past: list[tuple[Any, ...]] = []   # (game, last cards, won, passed, scores) per game
        self._over = False
        self._start_game()

    def _start_game(self) -> None:
        n = self.num_players
        self.game += 1
        self.dealer = (self.game - 2) % n
        self.leader = (self.game - 1) % n
        forced = self._forced_deals.get(self.game)
        hands = _deal(self.seed, self.game, self.used, n, self.hand_size) if forced is None else list(forced)
        self._game_start = len(self._actions)     # index of the game's first action in the history
        self._event({"type": "deal", "game": self.game, "dealer": self.dealer, "leader": self.leader,
                     "hand_size": self.hand_size})
        self._emit_hands("hand", hands, DECK.names_of)
        self._start_play(DECK, _core.FOLLOW_DOUBLE, _core.WIN_DOUBLE, _core.NO_SUIT, hands, self.leader,
                         self.n_tricks)

    def _play_over(self) -> None:
        n = self.num_players
        tp = self._trick_phase
        last = [DECK.names_of(tp.hand(s)) for s in range(n)]
        self._event({"type": "last_cards", "cards": last})
        scores = [seat_score(tp.won(s), tp.passed(s)) for s in range(n)]
        for s in range(n):
            self.totals[s] += scores[s]
        self.game_scores.append(scores)
        # The game as card masks, written out in names when a view asks (_past_game).
        self.past.append((self.game, tuple(tp.hand(s) for s in range(n)), tuple(tp.won(s) for s in range(n)),
                          tuple(tp.passed(s) for s in range(n)), tuple(scores)))
        self._event({"type": "game_end", "game": self.game, "scores": scores, "totals": list(self.totals)})
        if self.game >= self.games:
            self._over = True
            self._event({"type": "match_end", "scores": list(self.totals)})
        else:
            self._start_game()

    @staticmethod
    def _past_game(game: int, last: tuple[int, ...], won: tuple[int, ...], passed: tuple[int, ...],
                   scores: tuple[int, ...]) -> dict[str, Any]:
        """A finished game of the match as the view's ``previous_games`` shows it."""
        return {"game": game, "last_cards": [DECK.names_of(h) for h in last],
                "stacks": [HattrickState._stacks(w) for w in won],
                "passed": [DECK.names_of(p) for p in passed], "scores": list(scores)}

    @staticmethod
    def _stacks(won: int) -> dict[str, Any]:
        return {letter: DECK.names_of(won & m) for letter, m in zip(COLOURS, COLOUR_MASKS)}

    # ---- interface -------------------------------------------------------------------
    def _current_player(self) -> int:
        return TERMINAL

    def decision(self) -> str:
        return "" if self.is_terminal() else "play"

    def _legal(self) -> list[int]:
        return []

    def action_to_string(self, action: int) -> str:
        if isinstance(action, bool) or not isinstance(action, int) or not 0 <= action < N_CARDS:
            raise ValueError(f"{action!r} is not a Hattrick action id")
        return DECK.names[action]

    def _parse(self, text: str) -> int:
        if text not in DECK.ids:
            raise ValueError(f"no card {text!r} (cards are written R7, B20, G0)")
        return DECK.ids[text]

    def _apply(self, action: int) -> None:  # pragma: no cover - every action is a card play
        raise AssertionError("unreachable: Hattrick has only card plays")

    def _is_terminal(self) -> bool:
        return self._over

    def deal_number(self) -> int:
        return self.game

    def scores(self) -> list[float]:
        return [float(t) for t in self.totals]

    def _world_model(self, seat: int | None) -> WorldModel[HattrickState]:
        """Hidden from ``seat``: the other hands (everything is dealt, §7.2); every card is
        always playable (H3), so no play excludes a card.  After a game's last double trick
        the last cards are shown: nothing is hidden."""
        n = self.num_players
        tp = self._trick_phase
        hidden = [q for q in range(n) if q != seat and not tp.over]
        hands = [tp.hand(q) for q in range(n)]
        cards = 0
        for q in hidden:
            cards |= hands[q]
        slots = [Slot(("hand", q), _core.cards_count(hands[q]), cards & ~tp.exclusions(q, cards))
                 for q in hidden]

        def build(assignment: dict[Hashable, int], rng: random.Random) -> HattrickState:
            world = cast(HattrickState, self._world_base(seat, rng))
            if hidden:
                world._world_trick_phase([assignment["hand", q] if q in hidden else hands[q] for q in range(n)])
            tp_world = world._trick_phase
            dealt = [tp_world.hand(q) | tp_world.played(q) for q in range(n)]
            world._world_replay = (self._game_start, {"deals": {self.game: dealt}})
            return world
        return WorldModel(seat, cards, slots, build)

    def observation(self, seat: int) -> dict[str, Any]:
        n = self.num_players
        self._check_seat(seat)
        tp = self._trick_phase
        over = self._over
        leader, moves, _led, _open = tp.current_trick()
        cur = describe_trick(leader, moves, n)

        def describe_done(t: tuple[Any, ...]) -> dict[str, Any]:
            d = describe_trick(t[0], t[1], n)
            res = d.pop("result")
            winners = {}
            if res["winner"] >= 0:
                winners[d["open"][0]] = res["winner"]
            if res["winner2"] >= 0:
                winners[d["open"][1]] = res["winner2"]
            d["winners"] = winners
            d["next_leader"] = t[4]
            return d

        done = self._described_tricks(tp, describe_done)
        cur.pop("result")
        obs = {
            "last_trick": self.last_trick(),
            "game": "hattrick", "seat": seat, "players": n,
            "game_number": self.game, "games": self.games, "dealer": self.dealer, "leader": self.leader,
            "colours": COLOURS, "min_value": self.low, "max_value": TOP,
            "hand_size": self.hand_size, "double_tricks_per_game": self.n_tricks,
            "to_move": self.current_player(), "decision": self.decision(),
            "hand": [] if over else DECK.names_of(tp.hand(seat)),
            "hand_sizes": [0] * n if over else [_core.cards_count(tp.hand(s)) for s in range(n)],
            "double_trick": None if over else cur,
            "double_tricks": [] if over else done,
            "stacks": [self._stacks(tp.won(s)) if not over else {c: [] for c in COLOURS} for s in range(n)],
            "passed": [[] if over else DECK.names_of(tp.passed(s)) for s in range(n)],
            "game_scores": [list(g) for g in self.game_scores],
            "scores": self.scores(),  # the match totals, as scores() gives them
            "previous_games": [self._past_game(*g) for g in self.past],
        }
        if not over:
            obs["current_scores"] = [seat_score(tp.won(s), tp.passed(s)) for s in range(n)]
        return obs


def _deck(players: int, options: Mapping[str, Any]) -> _core.Deck:
    """GameInfo.deck: one deck for every player count."""
    return DECK


#: The colours by their letter, in words (docs/notation.md).
COLOUR_NAMES = {"R": "red", "B": "blue", "G": "green"}


def _faces(deck: _core.Deck) -> dict[str, CardFace]:
    """GameInfo.faces: colour cards."""
    return colour_faces(deck, COLOUR_NAMES)


def _shown_cards(event: Event, seat: int) -> Iterator[tuple[Any, Hashable, bool]]:
    """GameInfo.shown_cards: the last cards every seat holds, shown."""
    if event.get("type") == "last_cards":
        for q, texts in enumerate(event["cards"]):
            yield texts, q, False


GAME_INFO = register(GameInfo(
    name="hattrick", title="Hattrick", players=(4, 5, 6, 7),
    options=(OptionSpec("games", int, 5, "games per match (H1)", minimum=1, maximum=100),),
    factory=HattrickState,
    deck=_deck, faces=_faces, shown_cards=_shown_cards,
    encoding="trickcore.games.hattrick.encoding:HattrickEncoding",
    policy="trickcore.games.hattrick.policy:choose",
    table="trickcore.games.hattrick.table:TABLE",
    short_options={"games": 1},
    summary="double tricks in red, blue, green; pass with a third-colour card; "
            "score your majority colour, minus the rest, -2 per pass card"))
