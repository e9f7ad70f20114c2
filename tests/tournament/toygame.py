"""A tiny trick-taking game implementing trickcore.game.GameState, for runner tests.

Two suits (A, B) of ranks 1..2n for n players, so every player gets 4 cards.  Optional
opening "bid" decision (0..2 tricks).  Lead anything, follow suit if able (so forced moves
happen), highest card of the led suit wins and leads next.  Score: tricks won, +2 for a
bid made exactly.  "toy-partners" is the same game for 4 players in partnerships 0+2 / 1+3
whose members share the team's trick count.
"""

from __future__ import annotations

import random

from trickcore.game import TERMINAL, GameInfo, GameState, OptionSpec
from trickcore.games import register


class ToyState(GameState):
    def __init__(self, num_players, options=None, seed=0):
        super().__init__(num_players, options, seed)
        n = num_players
        self.deck = [f"{s}{r}" for s in "AB" for r in range(1, 2 * n + 1)]
        cards = list(self.deck)
        random.Random(seed).shuffle(cards)
        self.hands = [sorted(cards[4 * p:4 * p + 4], key=self.deck.index) for p in range(n)]
        self.bids: list[int | None] = [None] * n
        self.bidding = bool(self.options["bids"])
        self.trick: list[tuple[int, str]] = []
        self.tricks_won = [0] * n
        self.leader = 0
        self.to_move = 0
        self.played: list[str] = []
        for p in range(n):
            self._emit("deal", visible_to=[p], seat=p, hand=list(self.hands[p]))

    def current_player(self):
        return TERMINAL if self.is_terminal() else self.to_move

    def decision(self):
        if self.is_terminal():
            return ""
        return "bid" if self.bidding else "play"

    def _legal(self):
        if self.bidding:
            return [100, 101, 102]
        hand = self.hands[self.to_move]
        if self.trick:
            suit = self.trick[0][1][0]
            follow = [c for c in hand if c[0] == suit]
            if follow:
                hand = follow
        return sorted(self.deck.index(c) for c in hand)

    def action_to_string(self, action):
        if action >= 100:
            return f"bid{action - 100}"
        return self.deck[action]

    def _parse(self, text):
        # string_to_action hands the parser the text in upper case (docs/notation.md).
        if text.startswith("BID"):
            return 100 + int(text[3:])
        return self.deck.index(text)

    def _apply(self, action):
        p = self.to_move
        n = self.num_players
        if action >= 100:
            self.bids[p] = action - 100
            self._emit("bid", seat=p, bid=action - 100)
            self.to_move = (p + 1) % n
            if all(b is not None for b in self.bids):
                self.bidding = False
            return
        card = self.deck[action]
        self.hands[p].remove(card)
        self.trick.append((p, card))
        self.played.append(card)
        self._emit("play", seat=p, card=card)
        if len(self.trick) < n:
            self.to_move = (p + 1) % n
            return
        suit = self.trick[0][1][0]
        winner = max((c for c in self.trick if c[1][0] == suit), key=lambda c: int(c[1][1:]))[0]
        self.tricks_won[winner] += 1
        self._emit("trick", winner=winner, cards=[c for _, c in self.trick])
        self.trick = []
        self.leader = self.to_move = winner
        if self.is_terminal():
            self._emit("game_over", scores=self.scores())

    def observation(self, seat):
        return {"seat": seat, "hand": list(self.hands[seat]), "bids": list(self.bids),
                "trick": [[p, c] for p, c in self.trick], "tricks_won": list(self.tricks_won),
                "played": list(self.played), "to_move": self.current_player()}

    def _is_terminal(self):
        return not self.bidding and all(not h for h in self.hands)

    def _team_tricks(self):
        if self.info.teams is None:
            return list(self.tricks_won)
        out = [0] * self.num_players
        for team in self.info.teams(self.num_players):
            total = sum(self.tricks_won[s] for s in team)
            for s in team:
                out[s] = total
        return out

    def scores(self):
        won = self._team_tricks()
        return [won[p] + (2 if self.bids[p] is not None and self.bids[p] == self.tricks_won[p] else 0)
                for p in range(self.num_players)]


class ToyPartnersState(ToyState):
    pass


TOY_INFO = GameInfo(
    name="toy-tricks", title="Toy tricks", players=(2, 3, 4),
    options=(OptionSpec("bids", bool, True, "open with a bid round"),),
    factory=lambda n, o, s: ToyState(n, o, s), summary="test game")
ToyState.info = TOY_INFO

PARTNERS_INFO = GameInfo(
    name="toy-partners", title="Toy partners", players=(4,),
    options=(OptionSpec("bids", bool, False, "open with a bid round"),),
    factory=lambda n, o, s: ToyPartnersState(n, o, s), summary="test game with partnerships",
    teams=lambda n: ((0, 2), (1, 3)))
ToyPartnersState.info = PARTNERS_INFO


def register_toy_games() -> None:
    register(TOY_INFO)
    register(PARTNERS_INFO)
