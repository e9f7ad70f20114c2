"""How the reference game's view is shown to a person at ``trickcore play`` (GameInfo.table): where each field
of ``observation(seat)`` is shown, its label and how its value is drawn, and what each decision
asks, with the section of its rules (its module's docstring).  The places (``at``) are described in
trickcore/games/beim_jupiter/table.py.
"""

from __future__ import annotations

from typing import Any

SUITS = {"S": "♠ spades", "H": "♥ hearts", "D": "♦ diamonds", "C": "♣ clubs"}

#: How the fields of the events the game tells (``events``) are drawn.
EVENT_FIELDS: dict[str, Any] = {
    "seat": {"how": "seat"}, "dealer": {"how": "seat"}, "leader": {"how": "seat"}, "winner": {"how": "seat"},
    "card": {"how": "card"}, "cards": {"how": "cards"}, "scores": {"how": "list", "item": {"how": "number"}},
    "totals": {"how": "list", "item": {"how": "number"}}, "trump": {"how": "suit"},
    "cards_won": {"how": "number"}
}

TABLE: dict[str, Any] = {
    "rules": "",
    "suits": SUITS,
    "fields": {
        "game": {"at": "none"}, "seat": {"at": "none"}, "to_move": {"at": "none"}, "hand": {"at": "none"},
        "trick": {"at": "none"}, "last_trick": {"at": "none"}, "tricks": {"at": "none"},
        "trump": {"at": "table", "label": "trump", "how": "suit"},
        "tricks_won": {"at": "seat", "label": "tricks"},
    },
    "decisions": {
        "play": {"ask": "play a card (trump {trump}).", "rule": ""},
    },
    "sheet": {"event": "game_end", "title": "The game's score sheet", "columns": [
        {"key": "scores", "label": "score", "how": "number"}]},
    "event_fields": EVENT_FIELDS,
    "events": {
        "deal": "Trump: {trump}.",
        "hand": "You are dealt {cards}.",
        "play": "{seat}: {card}.",
        "trick": "Trick to {winner}.",
        "game_end": "The game is over: tricks {scores}.",
    },
}
