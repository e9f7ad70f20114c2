"""How the reference game's view is shown to a person at ``trickcore play`` (GameInfo.table): where each field
of ``observation(seat)`` is shown, its label and how its value is drawn, and what each decision
asks, with the section of its rules (its module's docstring).  The places (``at``) are described in
trickcore/games/beim_jupiter/table.py.
"""

from __future__ import annotations

from typing import Any

SUITS = {"S": "♠ spades", "H": "♥ hearts", "D": "♦ diamonds", "C": "♣ clubs"}

#: How the fields of its events (``events``) are drawn, beyond those every game shares
#: (trickcore.games.INTERFACE_EVENT_FIELDS).
EVENT_FIELDS: dict[str, Any] = {
    "cards_won": {"how": "number"}
}

TABLE: dict[str, Any] = {
    "rules": "",
    "suits": SUITS,
    "fields": {
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
