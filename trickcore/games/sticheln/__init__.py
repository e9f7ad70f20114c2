"""Game authors: docs/contributing.md (section 5) has the conventions, the notation and the test
checklist for game modules.

Sticheln (Klaus Palesch, AMIGO), Classic and its five variants with every allowed
combination, for 3-8 players.

Rules source: docs/rules/sticheln.md (C1-C10, variants §3.1-3.5, combinations
§3.6, decisions D-1.., decision points §6, information §7).  Player-facing summary:
docs/games/sticheln.md.

Modelling
---------
* One 120-card deck (§1.1, D-1): ids colour-major, ``R0..R20`` = 0..20, ``B0..B20`` =
  21..41, ``G0..G20`` = 42..62, ``Y0..Y18`` = 63..81, ``N0..N18`` = 82..100, ``V0..V18`` =
  101..119 (colours R red, B blue, G green, Y yellow, N brown, V violet = index 0..5).
  Strength = value; points = value (so the core's points_won() is the value sum of the
  won cards).  Each round deals from the mask of the cards used for N (§1.2); the rest
  stay in the box.  With 7/8 players the 3/2 undealt cards are set aside unseen (D-10).
* The variants are boolean options ``verkehrt mild verschaerft nebel verspaetet`` of this
  one game; ``mild+verkehrt`` and ``nebel+verspaetet`` are rejected (§3.6).  Match
  option ``rounds`` (default 5, C1/D-26).
* Trick phase in the C core: FOLLOW_FREE with WIN_OFFLEAD_HIGH (WIN_OFFLEAD_LOW with
  ``verkehrt``), no trump suit.  Tricks per round = hand - laid-out cards per player.
* Simultaneous hidden choices (C3/S1 laying out, L2 colour choice) are asked one seat at
  a time, starting with the round's first leader; each stays hidden from the others
  until all have chosen (then a public "reveal" event; with ``nebel`` the laid-out
  cards are revealed only after the last trick).  A decision with one legal option is
  still asked (the runner may auto-play it, D-13).

Action ids and texts
--------------------
* ``0..119``      play a card: the card, ``R7`` (decision "play").
* ``256..375``    lay out one card (C3): ``256 + card``, text the card, ``R7`` (decision
                  "layout"; the same text as a play, told apart by the decision).
* ``1024 + a*128 + b`` (a < b card ids) lay out two cards in verschärft (S1):
                  ``R7+B3`` (lower id first; either order is accepted).
* ``512..517``    verspätet colour choice (L2): ``512 + colour``, text the colour letter
                  ``R B G Y N V`` (decision "colour").
* ``544 + i*6 + j`` (i < j) verschärft+verspätet colour pair: ``B+Y``.
"""

from __future__ import annotations

import random
from collections.abc import Hashable, Iterable, Iterator, Mapping, Sequence
from typing import Any, cast

from trickcore import _core
from trickcore._core import Rng, TrickPhase
from trickcore.game import TERMINAL, CardFace, Event, GameConfigError, GameInfo, GameState, OptionSpec
from trickcore.games import colour_faces, register
from trickcore.worlds import RejectedWorld, Slot, WorldModel

COLOURS = "RBGYNV"
COLOUR_NAMES = ("red", "blue", "green", "yellow", "brown", "violet")
MAX_VALUE = (20, 20, 20, 18, 18, 18)
FLAGS = ("verkehrt", "mild", "verschaerft", "nebel", "verspaetet")
FORBIDDEN = (("mild", "verkehrt"), ("nebel", "verspaetet"))
WHY_FORBIDDEN = {"mild": "mild is defined only as a penalty rule",
                 "nebel": "nothing is laid out, so nothing can be hidden"}

LAYOUT = 256        # + card id
COLOUR = 512        # + colour
COLOUR_PAIR = 544   # + i*6 + j, i < j
CARD_PAIR = 1024    # + a*128 + b, a < b

# §1.2: N -> (colours in play, highest value, hand size, cards set aside)
SETUP = {
    3: (5, 8, 15, 0),
    4: (5, 11, 15, 0),
    5: (5, 14, 15, 0),
    6: (6, 14, 15, 0),
    7: (6, 17, 15, 3),
    8: (6, 18, 14, 2),
}

_MASK64 = 2**64 - 1


def _build_deck() -> tuple[_core.Deck, list[int], list[int]]:
    deck = _core.Deck(6)
    colour_of, value_of = [], []
    for c, letter in enumerate(COLOURS):
        for v in range(MAX_VALUE[c] + 1):
            deck.add(f"{letter}{v}", c, v, strength=v, points=v)
            colour_of.append(c)
            value_of.append(v)
    return deck, colour_of, value_of


DECK, CARD_COLOUR, CARD_VALUE = _build_deck()
#: The cards of every colour, as a mask (round scores count won cards by colour).
COLOUR_MASK = [sum(1 << c for c, col in enumerate(CARD_COLOUR) if col == colour)
               for colour in range(max(CARD_COLOUR) + 1)]
N_CARDS = DECK.n_cards  # 120


def card_id(colour: int, value: int) -> int:
    """Id of the card (colour index, value)."""
    if not 0 <= value <= MAX_VALUE[colour]:
        raise ValueError(f"no card {COLOURS[colour]}{value}")
    return sum(MAX_VALUE[c] + 1 for c in range(colour)) + value


def used_mask(n: int) -> int:
    """The cards used for n players (§1.2)."""
    n_col, top, _hand, _aside = SETUP[n]
    mask = 0
    for c in range(n_col):
        for v in range(top + 1):
            mask |= 1 << card_id(c, v)
    return mask


USED = {n: used_mask(n) for n in SETUP}


cards_of = _core.cards_list  # ascending card ids of a mask


def names(cards: Iterable[int]) -> list[str]:
    return [DECK.names[c] for c in cards]



def laid_per_player(flags: dict[str, Any]) -> int:
    """k of §3.6: 0 with verspaetet, else 2 with verschaerft, else 1."""
    if flags.get("verspaetet"):
        return 0
    return 2 if flags.get("verschaerft") else 1


def round_score(laid: Sequence[tuple[int, int]], special: Iterable[int], won: Sequence[tuple[int, int]],
                verkehrt: bool = False, mild: bool = False) -> int:
    """§3.6 round score from (colour, value) cards: K = laid-out cards + won cards of a
    special colour, O = the other won cards; |O| - sum(K) (Classic), |O| - 5|K| (mild),
    sum(K) - |O| (verkehrt)."""
    special = set(special)
    k_cards = list(laid) + [c for c in won if c[0] in special]
    o_count = sum(1 for c in won if c[0] not in special)
    return _score(sum(v for _c, v in k_cards), len(k_cards), o_count, verkehrt, mild)


def _score(k_sum: int, k_count: int, o_count: int, verkehrt: bool, mild: bool) -> int:
    """The §3.6 formula from the sum and number of K cards and the number of O cards."""
    if verkehrt:
        return k_sum - o_count
    if mild:
        return o_count - 5 * k_count
    return o_count - k_sum


def colour_choices(won_colours: Iterable[int], pair: bool) -> list[tuple[int, ...]]:
    """Legal end-of-round choices of §3.5 L2 / §3.6: each colour present among the won
    cards; with verschaerft every unordered pair of two present colours, or the single
    colour if only one is present.  Empty if nothing was won (L4)."""
    present = sorted(set(won_colours))
    if not pair or len(present) < 2:
        return [(c,) for c in present]
    return [(a, b) for i, a in enumerate(present) for b in present[i + 1:]]


def variant_name(flags: dict[str, Any]) -> str:
    on = [f for f in FLAGS if flags.get(f)]
    return "+".join(on) if on else "classic"


def _allowed_rulesets() -> tuple[str, ...]:
    out = []
    for bits in range(32):
        flags = {f: bool(bits >> i & 1) for i, f in enumerate(FLAGS)}
        if any(flags[a] and flags[b] for a, b in FORBIDDEN):
            continue
        on = tuple(i for i, f in enumerate(FLAGS) if flags[f])
        out.append((len(on), on, variant_name(flags)))
    return tuple(name for _n, _on, name in sorted(out))  # the order of §3.6


VARIANTS = _allowed_rulesets()  # 18 names


def variant_options(name: str) -> dict[str, Any]:
    """Options dict of a ruleset name from GameInfo.variants, e.g. "mild+verschaerft"."""
    if name == "classic":
        return {f: False for f in FLAGS}
    parts = name.split("+")
    bad = [p for p in parts if p not in FLAGS]
    if bad:
        raise GameConfigError(f"unknown Sticheln variant {bad[0]!r}; flags are {', '.join(FLAGS)}")
    return {f: f in parts for f in FLAGS}


def _deal(seed: int, rnd: int, used: int, n: int, hand: int) -> tuple[list[int], int]:
    """The deal of round ``rnd`` (1-based): hands and the cards set aside."""
    rng = Rng(seed ^ ((rnd * 0x9E3779B97F4A7C15) & _MASK64))
    hands, rest = rng.deal(used, n, hand)
    return list(hands), rest


def _parse_colour(text: str) -> int:
    if len(text) == 1 and text in COLOURS:
        return COLOURS.index(text)
    if text.lower() in COLOUR_NAMES:      # the parser's text is in upper case (string_to_action)
        return COLOUR_NAMES.index(text.lower())
    raise ValueError(f"{text!r} is not a colour (R B G Y N V)")


def _parse_card(text: str) -> int:
    if text not in DECK.ids:
        raise ValueError(f"no card {text!r} (cards are written R7, V0, B20)")
    return DECK.ids[text]


def check_combination(options: dict[str, Any]) -> None:
    """§3.6: mild + verkehrt and nebel + verspaetet are forbidden."""
    for a, b in FORBIDDEN:
        if options[a] and options[b]:
            raise GameConfigError(f"Sticheln variants {a!r} and {b!r} cannot be combined "
                                  f"(rules §3.6: {WHY_FORBIDDEN[a]})")


class StichelnState(GameState):
    """A Sticheln match: ``rounds`` rounds of deal, laying out, tricks, (colour choice), scoring."""

    def __init__(self, num_players: int, options: dict[str, Any] | None = None, seed: int = 0, *,
                 deals: dict[int, tuple[Sequence[int], int]] | None = None):
        super().__init__(num_players, options, seed)   # GameInfo.validate refuses forbidden combinations
        # Tests may fix the deal of given rounds (round -> (hands, aside mask)); players never can.
        self._forced_deals = dict(deals or {})
        o = self.options
        n = num_players
        self.flags = {f: o[f] for f in FLAGS}
        self.variant = variant_name(self.flags)
        self.n_colours, self.max_value, self.hand_size, self.n_aside = SETUP[n]
        self.k = laid_per_player(self.flags)
        self.n_tricks = self.hand_size - self.k
        self.used = USED[n]
        self.rounds = o["rounds"]
        self.round = 0
        self.totals = [0] * n
        self.round_scores: list[list[int]] = []
        self.past: list[dict[str, Any]] = []
        self.phase = "deal"
        self._start_round()

    def _specials(self, seat: int) -> tuple[int, ...]:
        """The seat's special colour(s); called only once every seat has them (C3, V5)."""
        special = self.special[seat]
        assert special is not None, "special colours are read only after every seat has chosen"
        return special

    # ---- flow -------------------------------------------------------------------------
    def _start_round(self) -> None:
        n = self.num_players
        self.round += 1
        self.dealer = (self.round - 2) % n
        self.leader = (self.round - 1) % n
        forced = self._forced_deals.get(self.round)
        hands, rest = _deal(self.seed, self.round, self.used, n, self.hand_size) if forced is None else \
            (list(forced[0]), forced[1])
        self._round_start = len(self._actions)    # index of the round's first action in the history
        # The public fields (hands, laid, special, choices, revealed, asked, answered, phase, ...)
        # are also what the tensor encoder reads: docs/games/sticheln.md, "State fields the encoder
        # reads".
        self.hands = hands                  # hands before the trick phase (layout removes cards)
        self._aside = rest
        self.laid: list[list[int]] = [[] for _ in range(n)]
        self.special: list[tuple[int, ...] | None] = [None] * n
        self.choices: list[tuple[int, ...] | None] = [None] * n
        self.revealed = False
        self._round_done = False
        self._event({"type": "deal", "round": self.round, "dealer": self.dealer, "leader": self.leader,
                     "hand_size": self.hand_size, "aside": self.n_aside})
        self._emit_hands("hand", hands, DECK.names_of)
        order = [(self.leader + i) % n for i in range(n)]
        if self.k:
            self.phase = "layout"
            self.asked = order              # the seats asked for the hidden choice, in order
            self.answered = 0               # how many have chosen: asked[answered] is to act
        else:
            self._begin_play()

    def _begin_play(self) -> None:
        self.phase = "play"
        winner = _core.WIN_OFFLEAD_LOW if self.flags["verkehrt"] else _core.WIN_OFFLEAD_HIGH
        self._start_play(DECK, _core.FOLLOW_FREE, winner, _core.NO_SUIT, self.hands, self.leader, self.n_tricks)

    def _play_over(self) -> None:
        if self.flags["verspaetet"]:
            n = self.num_players
            tp = self._trick_phase
            self.asked = [(self.leader + i) % n for i in range(n) if tp.won((self.leader + i) % n)]
            self.answered = 0
            self.phase = "colour"
            if not self.asked:  # cannot happen (someone wins every trick); kept for safety
                self._finish_round()
        else:
            self._finish_round()

    def _finish_round(self) -> None:
        n = self.num_players
        tp = self._trick_phase
        if self.flags["nebel"]:
            self.revealed = True
            self._event({"type": "reveal", "laid_out": {str(s): names(self.laid[s]) for s in range(n)},
                         "special_colours": {str(s): [COLOURS[c] for c in self._specials(s)] for s in range(n)}})
        scores = []
        verkehrt, mild = self.flags["verkehrt"], self.flags["mild"]
        for s in range(n):                      # round_score, counted on masks
            special_mask = 0
            for colour in set(self.special[s] or ()):
                special_mask |= COLOUR_MASK[colour]
            won = tp.won(s)
            k_won = won & special_mask
            k_sum = sum(CARD_VALUE[c] for c in self.laid[s]) + sum(CARD_VALUE[c] for c in cards_of(k_won))
            k_count = len(self.laid[s]) + k_won.bit_count()
            scores.append(_score(k_sum, k_count, (won & ~special_mask).bit_count(), verkehrt, mild))
        for s in range(n):
            self.totals[s] += scores[s]
        self.round_scores.append(scores)
        record = {
            "round": self.round,
            "laid_out": [names(self.laid[s]) for s in range(n)],
            "special_colours": [[COLOURS[c] for c in (self.special[s] or ())] for s in range(n)],
            "won": [DECK.names_of(tp.won(s)) for s in range(n)],
            "scores": scores,
        }
        self.past.append(record)
        self._event({"type": "round_end", "round": self.round, "laid_out": record["laid_out"],
                     "special_colours": record["special_colours"], "scores": scores, "totals": list(self.totals)})
        self._round_done = True
        if self.round >= self.rounds:
            self.phase = "over"
            self._event({"type": "match_end", "scores": list(self.totals)})
        else:
            self._start_round()

    # ---- decisions ----------------------------------------------------------------------
    def _current_player(self) -> int:
        if self.phase in ("layout", "colour"):
            return self.asked[self.answered]
        return TERMINAL

    def decision(self) -> str:
        if self.is_terminal():
            return ""
        if self._in_play():
            return "play"
        return self.phase

    def _legal(self) -> list[int]:
        if self.phase == "layout":
            hand = cards_of(self.hands[self.asked[self.answered]])
            if self.k == 1:
                return [LAYOUT + c for c in hand]
            return [CARD_PAIR + a * 128 + b for a, b in self._pairs(hand)]
        if self.phase == "colour":
            seat = self.asked[self.answered]
            won = cards_of(self._trick_phase.won(seat))
            opts = colour_choices([CARD_COLOUR[c] for c in won], self.flags["verschaerft"])
            return [_colour_action(o) for o in opts]
        return []

    @staticmethod
    def _pairs(hand: list[int]) -> list[tuple[int, int]]:
        """S1/D-11: pairs of two different colours; any pair if the hand has one colour."""
        single = len({CARD_COLOUR[c] for c in hand}) < 2
        return [(a, b) for i, a in enumerate(hand) for b in hand[i + 1:]
                if single or CARD_COLOUR[a] != CARD_COLOUR[b]]

    def action_to_string(self, action: int) -> str:
        if isinstance(action, bool) or not isinstance(action, int):
            raise ValueError(f"an action id is an int, not {action!r}")
        if 0 <= action < N_CARDS:
            return DECK.names[action]
        if LAYOUT <= action < LAYOUT + N_CARDS:
            return DECK.names[action - LAYOUT]
        if COLOUR <= action < COLOUR + 6:
            return COLOURS[action - COLOUR]
        if COLOUR_PAIR <= action < COLOUR_PAIR + 36:
            i, j = divmod(action - COLOUR_PAIR, 6)
            if i < j:
                return f"{COLOURS[i]}+{COLOURS[j]}"
        if CARD_PAIR <= action < CARD_PAIR + 128 * 128:
            a, b = divmod(action - CARD_PAIR, 128)
            if a < b < N_CARDS:
                return f"{DECK.names[a]}+{DECK.names[b]}"
        raise ValueError(f"{action} is not a Sticheln action id")

    def _parse(self, text: str) -> int:
        if "+" in text:
            left, _, right = text.partition("+")
            try:
                i, j = sorted((_parse_colour(left), _parse_colour(right)))
            except ValueError:
                a, b = sorted((_parse_card(left), _parse_card(right)))
                if a == b:
                    raise ValueError("the two laid-out cards must differ") from None
                return CARD_PAIR + a * 128 + b
            if i == j:
                raise ValueError("a colour pair needs two different colours")
            return COLOUR_PAIR + i * 6 + j
        if any(ch.isdigit() for ch in text):
            card = _parse_card(text)
            return LAYOUT + card if self.phase == "layout" else card
        return _colour_action((_parse_colour(text),))

    def _apply(self, action: int) -> None:
        seat = self.asked[self.answered]
        if self.phase == "layout":
            if action >= CARD_PAIR:
                laid = list(divmod(action - CARD_PAIR, 128))
            else:
                laid = [action - LAYOUT]
            self.laid[seat] = laid
            for c in laid:
                self.hands[seat] &= ~(1 << c)
            self.special[seat] = tuple(sorted({CARD_COLOUR[c] for c in laid}))
            self._event({"type": "layout", "seat": seat, "cards": names(laid)}, [seat])
            self._event({"type": "chosen", "seat": seat})
            self.answered += 1
            if self.answered == len(self.asked):
                n = self.num_players
                if not self.flags["nebel"]:
                    self.revealed = True
                    self._event({"type": "reveal", "laid_out": {str(s): names(self.laid[s]) for s in range(n)},
                                 "special_colours": {str(s): [COLOURS[c] for c in self._specials(s)]
                                                     for s in range(n)}})
                self._begin_play()
        elif self.phase == "colour":
            choice: tuple[int, ...]
            if action >= COLOUR_PAIR:
                choice = divmod(action - COLOUR_PAIR, 6)
            else:
                choice = (action - COLOUR,)
            self.choices[seat] = tuple(choice)
            self.special[seat] = tuple(choice)
            self._event({"type": "colour", "seat": seat, "colours": [COLOURS[c] for c in choice]}, [seat])
            self._event({"type": "chosen", "seat": seat})
            self.answered += 1
            if self.answered == len(self.asked):
                self._event({"type": "reveal", "colours": {str(s): [COLOURS[c] for c in self._specials(s)]
                                                for s in self.asked}})
                self._finish_round()
        else:  # pragma: no cover - card plays never reach here
            raise AssertionError(f"no slow-path action in phase {self.phase}")

    def _is_terminal(self) -> bool:
        return self.phase == "over"

    def deal_number(self) -> int:
        return self.round

    def scores(self) -> list[float]:
        return [float(t) for t in self.totals]

    # ---- information (§7) ---------------------------------------------------------------
    # ---- worlds (docs/search.md; what a seat may know: §7.1) ---------------------------------
    def _world_model(self, seat: int | None) -> WorldModel[StichelnState]:
        """Hidden from ``seat``: the other hands, the aside cards (D-10), the other seats'
        laid-out cards until they are revealed (at once, or with ``nebel`` at round end, D-25)
        and, in ``verspaetet``, the colour choices of the seats that have chosen before all
        have.  No play excludes a card (no duty to follow, C5)."""
        n = self.num_players
        phase = self.phase
        tp = self._tp if phase in ("play", "colour") else None
        hidden = [q for q in range(n) if q != seat]
        hands = self._hands_now(tp)
        chosen = self.asked[:self.answered] if phase in ("layout", "colour") else list(range(n))
        secret_laid = [] if self.revealed or phase not in ("layout", "play") or not self.k else \
            [q for q in chosen if q in hidden]
        secret_colour = [q for q in chosen if q in hidden] if phase == "colour" else []
        cards = self._aside if phase in ("layout", "play", "colour") else 0
        for q in hidden:
            cards |= hands[q]
        for q in secret_laid:
            for c in self.laid[q]:
                cards |= 1 << c
        slots = [Slot(("hand", q), _core.cards_count(hands[q]), cards) for q in hidden]
        slots += [Slot(("laid", q), self.k, cards) for q in secret_laid]
        slots.append(Slot(("aside",), _core.cards_count(cards) - sum(s.size for s in slots), cards))
        pair = self.flags["verschaerft"]
        first = len(self._actions) - (self.answered if phase in ("layout", "colour") else
                                      (tp.cards_played if tp is not None else 0) + n)

        def build(assignment: dict[Hashable, int], rng: random.Random) -> StichelnState:
            world = cast(StichelnState, self._world_base(seat, rng))
            new_hands = [assignment["hand", q] if q != seat else hands[q] for q in range(n)]
            world._aside = assignment["aside",]
            world.laid = [list(x) for x in self.laid]
            world.special = list(self.special)
            world.choices = list(self.choices)
            for q in secret_laid:
                laid = cards_of(assignment["laid", q])
                if pair and CARD_COLOUR[laid[0]] == CARD_COLOUR[laid[1]]:     # S1, D-11
                    held = assignment["laid", q] | new_hands[q] | (tp.played(q) if tp is not None else 0)
                    if len({CARD_COLOUR[c] for c in cards_of(held)}) > 1:
                        raise RejectedWorld(f"seat {q} laid out two cards of one colour")
                world.laid[q] = laid
                world.special[q] = tuple(sorted({CARD_COLOUR[c] for c in laid}))
                world._actions[first + self.asked.index(q)] = (
                    LAYOUT + laid[0] if self.k == 1 else CARD_PAIR + laid[0] * 128 + laid[1])
            for q in secret_colour:            # L2: any of the seat's legal choices
                won = cards_of(self._trick_phase.won(q))
                choice = rng.choice(colour_choices((CARD_COLOUR[c] for c in won), pair))
                world.choices[q] = world.special[q] = tuple(choice)
                world._actions[first + self.asked.index(q)] = _colour_action(tuple(choice))
            if phase == "play" and tp is not None:
                world._world_trick_phase(new_hands)
            else:
                world.hands = new_hands
            played = [tp.played(q) if tp is not None else 0 for q in range(n)]
            dealt = [new_hands[q] | played[q] | sum(1 << c for c in world.laid[q]) for q in range(n)]
            world._world_replay = (self._round_start, {"deals": {self.round: (dealt, world._aside)}})
            return world
        return WorldModel(seat, cards, slots, build)

    def _hands_now(self, tp: TrickPhase | None) -> list[int]:
        """Every hand now: from the trick phase ``tp`` while cards are played, as dealt during
        the layout, empty between rounds."""
        if tp is not None:
            return [tp.hand(q) for q in range(self.num_players)]
        if self.phase == "layout":
            return list(self.hands)
        return [0] * self.num_players

    def observation(self, seat: int) -> dict[str, Any]:
        n = self.num_players
        self._check_seat(seat)
        phase = self.phase
        in_round = phase in ("layout", "play", "colour")
        tp = self._tp if phase in ("play", "colour") else None
        chosen = [False] * n
        if phase in ("layout", "colour"):
            for s in self.asked[:self.answered]:
                chosen[s] = True
        hands = self._hands_now(tp)
        visible = self.revealed or not in_round
        laid_out: list[list[str] | None] = []
        special: list[list[str] | None] = []
        for s in range(n):
            if s == seat or visible:
                laid_out.append(names(self.laid[s]))
                colours = self.special[s]
                special.append([COLOURS[c] for c in colours] if colours is not None else None)
            else:
                laid_out.append(None)
                special.append(None)
        laid_count = [len(self.laid[s]) for s in range(n)] if in_round else [0] * n
        obs = {
            "last_trick": self.last_trick(),
            "game": "sticheln", "seat": seat, "players": n,
            "variant": self.variant, "flags": dict(self.flags),
            "round": self.round, "rounds": self.rounds, "dealer": self.dealer, "leader": self.leader,
            "colours": COLOURS[:self.n_colours], "max_value": self.max_value,
            "hand_size": self.hand_size, "aside": self.n_aside, "laid_out_per_player": self.k,
            "tricks_per_round": self.n_tricks,
            "phase": phase,
            "to_move": self.current_player(), "decision": self.decision(),
            "hand": DECK.names_of(hands[seat]),
            "hand_sizes": [_core.cards_count(h) for h in hands],
            "chosen": chosen,
            "laid_out": laid_out if in_round else [[] for _ in range(n)],
            "laid_out_count": laid_count,
            "special_colours": special if in_round else [None] * n,
            "trick": {"leader": self.leader, "cards": []},
            "tricks": [],
            "won": [[] for _ in range(n)],
            "tricks_won": [0] * n,
            "colour_choice": None,
            "round_scores": [list(r) for r in self.round_scores],
            "scores": self.scores(),  # the match totals, as scores() gives them
            "previous_rounds": [dict(r) for r in self.past],
        }
        if tp is not None:
            leader, moves, _led, _open = tp.current_trick()
            obs["trick"] = {"leader": leader, "cards": [DECK.names[m] for m in moves]}
            obs["tricks"] = self._described_tricks(
                tp, lambda t: {"leader": t[0], "cards": [DECK.names[m] for m in t[1]], "winner": t[2]})
            obs["won"] = [DECK.names_of(tp.won(s)) for s in range(n)]
            obs["tricks_won"] = tp.tricks_won()
        if phase == "colour":
            obs["colour_choice"] = [
                [COLOURS[c] for c in choices] if (s == seat and (choices := self.choices[s]) is not None) else None
                for s in range(n)]
        return obs


def _colour_action(choice: tuple[int, ...]) -> int:
    if len(choice) == 1:
        return COLOUR + choice[0]
    i, j = sorted(choice)
    return COLOUR_PAIR + i * 6 + j


def _deck(players: int, options: Mapping[str, Any]) -> _core.Deck:
    """GameInfo.deck: one deck for every player count (the cards in use are a part of it)."""
    return DECK


def _faces(deck: _core.Deck) -> dict[str, CardFace]:
    """GameInfo.faces: colour cards."""
    return colour_faces(deck, dict(zip(COLOURS, COLOUR_NAMES)))


def _shown_cards(event: Event, seat: int) -> Iterator[tuple[Any, Hashable, bool]]:
    """GameInfo.shown_cards: the seat's own laid-out cards, and every seat's when they are
    turned up."""
    kind = event.get("type")
    if kind == "layout" and "cards" in event and "seat" in event:
        yield event["cards"], event["seat"], False
    elif kind == "reveal" and isinstance(event.get("laid_out"), dict):
        for q, texts in event["laid_out"].items():
            yield texts, ("laid", int(q)) if int(q) != seat else seat, True


def _shown_choices(event: Event, seat: int) -> Iterator[tuple[int, str]]:
    """GameInfo.shown_choices: the verspätet colour choices (L2), turned up together once every
    seat that won a card has chosen, each as its action's text (``G``, ``B+Y``).  A colour is no
    card, so ``_shown_cards`` cannot name it, and without this the mirror has to guess every
    other seat's choice until the reveal agrees with all of them at once."""
    if event.get("type") == "reveal" and isinstance(event.get("colours"), dict):
        for q, letters in event["colours"].items():
            # the lower colour first, as action_to_string writes a pair (an unknown letter
            # names no action, so nothing is named and the mirror reports the stream)
            yield int(q), "+".join(sorted(letters, key=COLOURS.find))


GAME_INFO = register(GameInfo(
    name="sticheln", title="Sticheln", players=(3, 4, 5, 6, 7, 8),
    options=(
        OptionSpec("verkehrt", bool, False, "reversed: lucky colour, the lowest trump wins (§3.1)"),
        OptionSpec("mild", bool, False, "every annoyance card counts -5 (§3.2)"),
        OptionSpec("verschaerft", bool, False, "two laid-out cards, two annoyance colours (§3.3)"),
        OptionSpec("nebel", bool, False, "im Nebel: laid-out cards stay hidden until round end (§3.4)"),
        OptionSpec("verspaetet", bool, False, "annoyance colour chosen at round end from won cards (§3.5)"),
        OptionSpec("rounds", int, 5, "rounds per match (C1)", minimum=1, maximum=100),
    ),
    factory=StichelnState,
    deck=_deck, faces=_faces, shown_cards=_shown_cards, shown_choices=_shown_choices,
    encoding="trickcore.games.sticheln.encoding:StichelnEncoding",
    policy="trickcore.games.sticheln.policy:choose",
    table="trickcore.games.sticheln.table:TABLE",
    short_options={"rounds": 1},
    validate=check_combination,
    summary="120 cards, no duty to follow, every other colour is trump (zeros never); "
            "minus points in your annoyance colour; 5 variants and their combinations",
    variants=VARIANTS))
