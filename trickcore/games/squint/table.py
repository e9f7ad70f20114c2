"""How Squint's view is shown to a person at ``trickcore play`` (GameInfo.table): where each field
of ``observation(seat)`` is shown, its label and how its value is drawn, and what each decision
asks, with the section of its rules (docs/rules/squint.md).  The places (``at``) are described in
trickcore/games/beim_jupiter/table.py.
"""

from __future__ import annotations

from typing import Any

SUITS = {"S": "♠ spades", "H": "♥ hearts", "D": "♦ diamonds", "C": "♣ clubs"}

KINDS = {"plain": "plain solo", "grand": "grand solo", "ace": "ace solo", "deuce": "deuce solo",
         "misere": "misère", "duo": "duo", "null": "null"}

#: A contract as the table and the events show it.
TABLE_CONTRACT: dict[str, Any] = {"how": "record", "parts": {
    "kind": {"how": "words", "words": KINDS}, "contractors": {"label": "by", "how": "seats"},
    "trump": {"label": "trump", "how": "suit"}, "penalty": {"label": "penalty"},
    "pattern": {"label": "split"}, "aces": {"label": "aces", "how": "seats"},
    "deuces": {"label": "deuces", "how": "seats"}}}

SEAT_CHOICE = {"seat": {"how": "seat"}, "choice": {"how": "words", "words": {"HAND": "from hand",
                                                                              "TAKE": "squint taken"}}}

#: How the fields of its events (``events``) are drawn, beyond those every game shares
#: (trickcore.games.INTERFACE_EVENT_FIELDS).
EVENT_FIELDS: dict[str, Any] = {
    "eldest": {"how": "seat"}, "bids": {"how": "list", "item": {"how": "card"}},
    "contract": TABLE_CONTRACT, "choice": SEAT_CHOICE["choice"]
}

TABLE: dict[str, Any] = {
    "rules": "squint.md",
    "suits": SUITS,
    "fields": {
        "phase": {"at": "none"},
        "results": {"at": "none"},   # each deal's end: its event
        "deal": {"at": "table", "label": "deal"},
        "eldest": {"at": "side", "label": "eldest hand", "how": "seat"},
        "priority": {"at": "side", "label": "bidding priority", "how": "seats"},
        "target_score": {"at": "side", "label": "game to"},
        "deal_limit": {"at": "side", "label": "deals at most"},
        "bid": {"at": "table", "label": "your bid card", "how": "card"},
        "bids_chosen": {"at": "seat", "label": "bid card chosen", "how": "flag"},
        "bids": {"at": "seat", "label": "bid", "how": "card"},
        "contract": {"at": "table", "label": "contract", **TABLE_CONTRACT},
        "squint_decisions": {"at": "side", "label": "squint", "how": "list",
                             "item": {"how": "record", "parts": SEAT_CHOICE}},
        "multiplier": {"at": "table", "label": "stakes ×"},
        "squint_cards": {"at": "table", "label": "the squint", "how": "cards"},
        "discards": {"at": "table", "label": "your discards", "how": "cards"},
        "passes": {"at": "side", "label": "passed", "how": "list", "item": {"how": "record", "parts": {
            "seat": {"how": "seat"}, "count": {"label": "cards:"}}}},
        "passed": {"at": "table", "label": "you passed", "how": "cards"},
        "received": {"at": "table", "label": "you received", "how": "cards"},
        "null_discards": {"at": "table", "label": "null discards", "how": "cards"},
        "tricks_won": {"at": "seat", "label": "tricks"},
        "scores": {"at": "seat", "label": "score", "how": "number"},
    },
    "decisions": {
        "bid": {"ask": "choose your bid card (its rank and suit bid a contract).", "rule": "§4"},
        "squint": {"ask": "play from your hand, or take the squint?", "rule": "§6"},
        "discard": {"ask": "discard cards for those you took.", "rule": "§6"},
        "pass": {"ask": "choose the cards you pass.", "rule": "§6.3"},
        "play": {"ask": "play a card (contract: {contract}).", "rule": "§7"},
    },
    "sheet": {"event": "deal_end", "caption": {"contract": {"label": "contract", **TABLE_CONTRACT},
                                               "multiplier": {"label": "stakes ×"}},
              "columns": [{"key": "bids", "label": "bid", "how": "card"}, {"key": "scores", "label": "points"},
                          {"key": "totals", "label": "total"}]},
    "event_fields": EVENT_FIELDS,
    "events": {
        "deal": "Deal {deal}: dealer {dealer}, eldest hand {eldest}.",
        "hand": "You are dealt {cards}.",
        "bid_chosen": "{seat}: bid card chosen.",
        "bid": "You bid {card}.",
        "reveal": "The bid cards: {bids}.",
        "contract": "The contract: {contract}.",
        "squint": "{seat}: {choice}.",
        "play_start": "Play starts: first lead {leader}, stakes ×{multiplier}.",
        "squint_cards": "The squint: {cards}.",
        "discarded": "{seat}: {count} cards discarded.",
        "discard": "You discard {cards}.",
        "play": "{seat}: {card}.",
        "trick": "Trick to {winner}.",
        "deal_end": "Deal {deal} is over.",
        "game_end": "The game is over: scores {scores}.",
    },
}
