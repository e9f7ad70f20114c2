"""How Beim Jupiter's view is shown to a person at ``trickcore play`` (GameInfo.table): where each
field of ``observation(seat)`` is shown, its label and how its value is drawn, and what each
decision asks, with its rule (docs/rules/beim_jupiter.md).

``at``: ``seat`` (a list with one value per seat, shown at each seat), ``table`` (on the felt
beside the trick), ``side`` (the list beside the table) or ``none`` (drawn by the page as the
game interface's hand, trick, dealer and turn, or a count the page shows otherwise).
``deal_tricks`` (a field at the seats): the field is each seat's tricks in the deal, which the
game's view after its end no longer holds; once the game is over the page shows the ended deal's
count instead (from its trick events, as the score sheet counts them).
"""

from __future__ import annotations

from typing import Any

SUITS = {"B": "blue", "R": "red", "Y": "yellow", "G": "green", "none": "no trump"}

#: How the fields of its events (``events``) are drawn, beyond those every game shares
#: (trickcore.games.INTERFACE_EVENT_FIELDS).
EVENT_FIELDS: dict[str, Any] = {
    "start_player": {"how": "seat"}
}

TABLE: dict[str, Any] = {
    "rules": "beim_jupiter.md",
    "suits": SUITS,
    "fields": {
        "round": {"at": "table", "label": "round"},
        "rounds": {"at": "side", "label": "rounds in the game"},
        "tricks_this_round": {"at": "side", "label": "tricks this round"},
        "start_player": {"at": "side", "label": "leads the first trick", "how": "seat"},
        "trump": {"at": "table", "label": "trump", "how": "suit"},
        "colour_card": {"at": "table", "label": "your colour card", "how": "card"},
        "colour_cards": {"at": "seat", "label": "colour card", "how": "card"},
        "colour_chosen": {"at": "seat", "label": "colour card chosen", "how": "flag"},
        "bids": {"at": "seat", "label": "bid"},
        "tricks_won": {"at": "seat", "label": "tricks"},
        "trick_points": {"at": "seat", "label": "trick points"},
        "victory_cards": {"at": "seat", "label": "victory cards", "how": "cards"},
        "scores": {"at": "seat", "label": "score", "how": "number"},
        "zero_used": {"at": "seat", "label": "ZERO used", "how": "flag"},
        "removed_cards": {"at": "side", "label": "cards out of the game", "how": "cards"},
        "table": {"at": "side", "label": "colour cards on the table", "how": "list", "item": {
            "how": "record", "needs": "cards", "parts": {
                "count": {"label": "at", "how": "number"},
                "cards": {"how": "list", "item": {"how": "record", "parts": {
                    "card": {"how": "card"}, "owner": {"label": "of", "how": "seat"},
                    "locked": {"label": "locked", "how": "flag"}}}}}}},
        "last_round": {"at": "none"},   # the round's end is told by its event and the score sheet
    },
    "decisions": {
        "colour": {"ask": "choose your colour card (it names a colour and a trick count).",
                   "rule": "§5"},
        "bid": {"ask": "bid how many tricks you will take (+L: with the lamb's trick), trump {trump}.",
                "rule": "§5"},
        "play": {"ask": "play a card (trump {trump}).", "rule": "§6"},
    },
    "sheet": {"event": "round_end", "title": "The round's score sheet", "columns": [
        {"key": "bids", "label": "bid"}, {"key": "trick_points", "label": "trick points"},
        {"key": "gains", "label": "points"}, {"key": "scores", "label": "total", "how": "number"}]},
    "event_fields": EVENT_FIELDS,
    "events": {
        "round_start": "Round {round}: dealer {dealer}, first lead {start_player}.",
        "deal": "You are dealt {cards}.",
        "colour_chosen": "{seat}: colour card chosen.",
        "colour": "{seat}: colour card {card}.",
        "reveal": "The colour cards are turned up: {cards}.",
        "trump": "Trump: {trump}.",
        "bid": "{seat}: bid {bid}.",
        "play": "{seat}: {card}.",
        "trick": "Trick to {winner} ({points} points).",
        "round_end": "Round {round} is over.",
        "game_end": "The game is over: scores {scores}.",
    },
}
