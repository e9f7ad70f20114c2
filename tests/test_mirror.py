"""The mirror (trickcore.mirror): a bot's own complete state, rebuilt from nothing but the events
its seat was sent.  At every decision of the seat, in random games of every game and variant,
the synced mirror shows the seat exactly the view the referee shows it (so search on it sees
what the seat may see); events that no legal game produces are a MirrorError."""

from __future__ import annotations

import random
from typing import Any

import pytest

from trickcore import new_game
from trickcore.mirror import Mirror, MirrorError

CASES: list[tuple[str, int, dict[str, Any]]] = [
    ("beim-jupiter", 3, {}), ("beim-jupiter", 4, {}), ("beim-jupiter", 5, {}),
    ("sticheln", 4, {"rounds": 2}), ("sticheln", 3, {"verkehrt": True, "rounds": 2}),
    ("sticheln", 5, {"nebel": True, "rounds": 2}), ("sticheln", 4, {"verspaetet": True, "rounds": 2}),
    ("sticheln", 6, {"mild": True, "verschaerft": True, "nebel": True, "rounds": 1}),
    ("hattrick", 4, {"games": 2}), ("hattrick", 7, {"games": 1}),
    ("squint", 5, {"deal_limit": 2}),
    ("klaberjass", 2, {"target": 2}), ("klaberjass", 3, {"target": 2}), ("klaberjass", 4, {"target": 2}),
]
IDS = [f"{g}-{n}-{'+'.join(k for k in o if k not in ('rounds', 'games', 'deal_limit', 'target')) or 'classic'}"
       for g, n, o in CASES]


@pytest.mark.parametrize(("game", "n", "options"), CASES, ids=IDS)
def test_the_mirror_shows_the_seat_its_view_at_every_decision(game: str, n: int, options: dict[str, Any]) -> None:
    decisions = 0
    for seed in range(3):
        real = new_game(game, n, options, seed=500 + seed)
        seat = seed % n
        mirror = Mirror(game, n, options, seat, seed=seed)
        rng = random.Random(seed)
        cursor = 0
        while not real.is_terminal():
            if real.current_player() == seat:
                events, cursor = real.events_for(seat, cursor)
                for event in events:
                    mirror.feed(event)
                state = mirror.sync()
                assert state.observation(seat) == real.observation(seat)
                assert state.legal_action_strings() == real.legal_action_strings()
                decisions += 1
            real.apply_action(rng.choice(real.legal_actions()))
        for event in real.events_for(seat, cursor)[0]:      # to the end of the game
            mirror.feed(event)
        assert mirror.sync(to_move=False).is_terminal()
    assert decisions > 20


def test_events_no_game_produces_are_refused() -> None:
    real = new_game("hattrick", 4, {"games": 1}, seed=3)
    events, _ = real.events_for(0)
    mirror = Mirror("hattrick", 4, {"games": 1}, 0)
    for event in events:
        mirror.feed(event)
    mirror.sync()
    # seat 1 plays a card seat 0 holds
    mirror.feed({"type": "play", "seat": 1, "card": real.observation(0)["hand"][0]})
    with pytest.raises(MirrorError):
        mirror.sync()


def test_a_squint_dealers_face_up_null_discards_were_in_his_hand() -> None:
    """The mirror redraws a Null with the dealer holding the cards he then discards face up (not
    until some draw happens to give them to him)."""
    from trickcore.games.squint import DECK

    mirror = Mirror("squint", 5, {"deal_limit": 1}, 0)
    event = {"type": "null_discard", "seat": 3, "cards": ["QD", "JC"]}
    assert list(mirror._holdings(event)) == [(DECK.card_id("QD"), ("hand", 3), False),
                                             (DECK.card_id("JC"), ("hand", 3), False)]


def test_a_game_that_does_not_sample_worlds_cannot_be_followed() -> None:
    """The mirror redraws hidden cards with the game's world model; a game without one (the
    reference game) is refused at once, and the search bot plays its heuristic there."""
    with pytest.raises(MirrorError, match="does not sample worlds"):
        Mirror("reference", 4, None, 0)
