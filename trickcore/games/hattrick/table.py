"""How Hattrick's view is shown to a person at ``trickcore play`` (GameInfo.table): where each field
of ``observation(seat)`` is shown, its label and how its value is drawn, and what each decision
asks, with the section of its rules (docs/rules/sticheln.md, section 4).  The places (``at``) are described in
trickcore/games/beim_jupiter/table.py.
"""

from __future__ import annotations

from typing import Any

SUITS = {"R": "red", "B": "blue", "G": "green"}

#: How the fields of its events (``events``) are drawn, beyond those every game shares
#: (trickcore.games.INTERFACE_EVENT_FIELDS).
EVENT_FIELDS: dict[str, Any] = {
    "game": {"how": "number"}
}

TABLE: dict[str, Any] = {
    "rules": "sticheln.md",
    "suits": SUITS,
    "fields": {
        "double_trick": {"at": "none"}, "double_tricks": {"at": "none"},
        "game_scores": {"at": "none"}, "previous_games": {"at": "none"},  # each game's end: its event
        "game_number": {"at": "table", "label": "game"},
        "games": {"at": "side", "label": "games in the match"},
        "leader": {"at": "side", "label": "led this double trick", "how": "seat"},
        "colours": {"at": "side", "label": "colours", "how": "suits"},
        "min_value": {"at": "side", "label": "lowest value"},
        "max_value": {"at": "side", "label": "highest value"},
        "hand_size": {"at": "side", "label": "cards dealt to each"},
        "double_tricks_per_game": {"at": "side", "label": "double tricks a game"},
        "stacks": {"at": "seat", "label": "stacks", "how": "record", "parts": {
            "R": {"label": "red", "how": "cards"}, "B": {"label": "blue", "how": "cards"},
            "G": {"label": "green", "how": "cards"}}},
        "passed": {"at": "seat", "label": "passed", "how": "cards"},
        "current_scores": {"at": "seat", "label": "this game", "how": "number"},
        "scores": {"at": "seat", "label": "score", "how": "number"},
    },
    "decisions": {
        "play": {"ask": "play a card: open a trick of its colour or join one.", "rule": "§4"},
    },
    "sheet": {"event": "game_end", "title": "The game's score sheet", "tricks": "double tricks", "columns": [
        {"key": "scores", "label": "points"}, {"key": "totals", "label": "total"}]},
    "event_fields": EVENT_FIELDS,
    "events": {
        "deal": "Game {game}: dealer {dealer}, first lead {leader}.",
        "hand": "You are dealt {cards}.",
        "play": "{seat}: {card}.",
        "trick": "Double trick to {winner}.",
        "last_cards": "The last cards are turned up.",
        "game_end": "Game {game} is over: {scores}, in all {totals}.",
        "match_end": "The match is over: scores {scores}.",
    },
}
