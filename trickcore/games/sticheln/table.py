"""How Sticheln'\''s view is shown to a person at ``trickcore play`` (GameInfo.table): where each field
of ``observation(seat)`` is shown, its label and how its value is drawn, and what each decision
asks, with the section of its rules (docs/rules/sticheln.md).  The places (``at``) are described in
trickcore/games/beim_jupiter/table.py.
"""

from __future__ import annotations

from typing import Any

SUITS = {"R": "red", "B": "blue", "G": "green", "Y": "yellow", "N": "brown", "V": "violet"}

#: How the fields of its events (``events``) are drawn, beyond those every game shares
#: (trickcore.games.INTERFACE_EVENT_FIELDS).
EVENT_FIELDS: dict[str, Any] = {
    "colours": {"how": "suits"}
}

TABLE: dict[str, Any] = {
    "rules": "sticheln.md",
    "suits": SUITS,
    "fields": {
        "phase": {"at": "none"},
        "flags": {"at": "none"},            # the variant, in words, is shown on the table
        "laid_out_count": {"at": "none"},   # the laid-out cards themselves are shown at each seat
        "round_scores": {"at": "none"}, "previous_rounds": {"at": "none"},  # each round's end: its event
        "variant": {"at": "table", "label": "variant"},
        "round": {"at": "table", "label": "round"},
        "rounds": {"at": "side", "label": "rounds in the game"},
        "leader": {"at": "side", "label": "led this trick", "how": "seat"},
        "colours": {"at": "side", "label": "colours", "how": "suits"},
        "max_value": {"at": "side", "label": "highest value"},
        "hand_size": {"at": "side", "label": "cards dealt to each"},
        "aside": {"at": "side", "label": "cards set aside"},
        "laid_out_per_player": {"at": "side", "label": "cards each lays out"},
        "tricks_per_round": {"at": "side", "label": "tricks this round"},
        "chosen": {"at": "seat", "label": "has laid out", "how": "flag"},
        "laid_out": {"at": "seat", "label": "laid out", "how": "cards"},
        "special_colours": {"at": "seat", "label": "pain colour", "how": "suits"},
        "won": {"at": "seat", "label": "pain cards won", "how": "cards"},
        # The game's last view has cleared the round's tricks: at the end, the page counts them.
        "tricks_won": {"at": "seat", "label": "tricks", "deal_tricks": True},
        "scores": {"at": "seat", "label": "score", "how": "number"},
        "colour_choice": {"at": "seat", "label": "colour chosen", "how": "suits"},
    },
    "decisions": {
        "layout": {"ask": "lay out a card: its colour is your pain colour this round.",
                   "rule": "§2"},
        "colour": {"ask": "choose your pain colour.", "rule": "§3.5"},
        "play": {"ask": "play a card.", "rule": "§2"},
    },
    "sheet": {"event": "round_end", "title": "The round's score sheet", "columns": [
        {"key": "laid_out", "label": "laid out", "how": "cards"}, {"key": "scores", "label": "points"},
        {"key": "totals", "label": "total"}]},
    "event_fields": EVENT_FIELDS,
    "events": {
        "deal": "Round {round}: dealer {dealer}, first lead {leader}.",
        "hand": "You are dealt {cards}.",
        "layout": "You lay out {cards}.",
        "chosen": "{seat}: laid out.",
        "reveal": "The laid-out cards are turned up.",
        "colour": "{seat}: pain colour {colours}.",
        "play": "{seat}: {card}.",
        "trick": "Trick to {winner} ({points} points).",
        "round_end": "Round {round} is over: this round {scores}, in all {totals}.",
        "match_end": "The game is over: scores {scores}.",
    },
}
