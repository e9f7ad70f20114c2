"""How Klaberjass' view is shown to a person at ``trickcore play`` (GameInfo.table): where each field
of ``observation(seat)`` is shown, its label and how its value is drawn, and what each decision
asks, with the section of its rules (docs/rules/klaberjass.md).  The places (``at``) are described in
trickcore/games/beim_jupiter/table.py.
"""

from __future__ import annotations

from typing import Any

SUITS = {"S": "♠ spades", "H": "♥ hearts", "D": "♦ diamonds", "C": "♣ clubs"}

MELD = {"seat": {"how": "seat"}, "kind": {"how": "text"}, "suit": {"how": "suit"}, "top": {"label": "to"},
        "value": {"label": "worth"}}
CALL = {"seat": {"how": "seat"}, "call": {"how": "text"}}

#: How the fields of its events (``events``) are drawn, beyond those every game shares
#: (trickcore.games.INTERFACE_EVENT_FIELDS).
EVENT_FIELDS: dict[str, Any] = {
    "turned": {"how": "card"}, "declarer": {"how": "seat"},
    "melds": {"how": "list", "item": {"how": "record", "parts": MELD}}, "best": {"how": "record", "parts": MELD},
    "points": {"how": "list", "item": {"how": "number"}}, "dice": {"how": "list", "item": {"how": "dice"}}
}

TABLE: dict[str, Any] = {
    "rules": "klaberjass.md",
    "suits": SUITS,
    "fields": {
        "phase": {"at": "none"},
        "teams": {"at": "none"},        # the page marks each seat's team
        "turned_suit": {"at": "none"},  # the turned card itself lies on the table
        "results": {"at": "none"},      # each deal's end: its event
        "side": {"at": "side", "label": "your team", "how": "number"},
        "target": {"at": "side", "label": "dice to win"},
        "dice": {"at": "table", "label": "dice", "how": "list", "item": {"how": "dice"}},
        "deal": {"at": "table", "label": "deal"},
        "forehand": {"at": "side", "label": "forehand", "how": "seat"},
        "packet": {"at": "side", "label": "packets dealt"},
        "turned": {"at": "table", "label": "turned card", "how": "card"},
        "dealer_holds_turned": {"at": "side", "label": "the dealer holds the turned card", "how": "yesno"},
        "stack_top": {"at": "table", "label": "top of the stack", "how": "card"},
        "calls": {"at": "side", "label": "calls", "how": "list", "item": {"how": "record", "parts": CALL}},
        "kleines": {"at": "side", "label": "Kleines", "how": "seat"},
        "trump": {"at": "table", "label": "trump", "how": "suit"},
        "declarer": {"at": "table", "label": "declarer", "how": "seat"},
        "trump_side": {"at": "side", "label": "trump side", "how": "seats"},
        "exchange": {"at": "side", "label": "exchange of the 7", "how": "record", "parts": {
            "seat": {"how": "seat"}, "exchanged": {"label": "exchanged", "how": "yesno"},
            "seven": {"how": "card"}}},
        "melds": {"at": "side", "label": "melds", "how": "list", "item": {"how": "record", "needs": "melds", "parts": {
            "seat": {"how": "seat"}, "melds": {"how": "list", "item": {"how": "record", "parts": MELD}}}}},
        "best_meld": {"at": "table", "label": "best meld", "how": "record", "parts": MELD},
        "my_melds": {"at": "side", "label": "your melds", "how": "list", "item": {"how": "record", "parts": MELD}},
        "meld_points": {"at": "side", "label": "meld points by team", "how": "list", "item": {"how": "number"}},
        "doubling": {"at": "side", "label": "Kontra and Re", "how": "list", "item": {"how": "record", "parts": CALL}},
        "multiplier": {"at": "table", "label": "stakes ×"},
        "belle": {"at": "table", "label": "Belle", "how": "record", "parts": {"seat": {"how": "seat"},
                                                                              "card": {"how": "card"}}},
        "tricks_won": {"at": "seat", "label": "tricks"},
        "points_won": {"at": "seat", "label": "card points"},
        "scores": {"at": "seat", "label": "score", "how": "number"},
    },
    "decisions": {
        "take": {"ask": "{turned} turned: take it as trump, or pass?", "rule": "§4"},
        "kleines": {"ask": "play a Kleines, or pass?", "rule": "§4"},
        "besser": {"ask": "say besser (better), or pass?", "rule": "§4"},
        "trump": {"ask": "name the trump suit ({turned} was turned).", "rule": "§4"},
        "exchange": {"ask": "exchange the 7 of trumps for the turned card {turned}?",
                     "rule": "§4.4"},
        "meld": {"ask": "declare your melds, or not?", "rule": "§5"},
        "kontra": {"ask": "Kontra (double), or pass?", "rule": "§6"},
        "re": {"ask": "Re (redouble), or pass?", "rule": "§6"},
        "play": {"ask": "play a card (trump {trump}).", "rule": "§7"},
    },
    "sheet": {"event": "deal_end", "caption": {"trump": {"label": "trump", "how": "suit"},
                                               "declarer": {"label": "declarer", "how": "seat"},
                                               "multiplier": {"label": "stakes ×"}},
              "columns": [{"key": "card_points", "label": "card points"}, {"key": "melds", "label": "melds"},
                          {"key": "points", "label": "points"}, {"key": "dice", "label": "dice"}]},
    "event_fields": EVENT_FIELDS,
    "events": {
        "deal": "Deal {deal}: dealer {dealer}, turned card {turned}.",
        "hand": "You are dealt {cards}.",
        "call": "{seat}: {call}.",
        "trump": "Trump {trump}, declarer {declarer}.",
        "packet": "You get {cards}.",
        "pickup": "The packets are picked up.",
        "meld": "{seat}: melds {melds}.",
        "meld_result": "The best meld: {best}.",
        "double": "{seat}: {call}.",
        "belle": "{seat}: Belle with {card}.",
        "exchange": "{seat}: the exchange of the 7 of trumps.",
        "play": "{seat}: {card}.",
        "trick": "Trick to {winner} ({points} points).",
        "deal_end": "Deal {deal} is over: points {points}.",
        "match_end": "The match is over: dice {dice}.",
    },
}
