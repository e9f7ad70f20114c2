"""PIMC search (trickcore.search): it chooses a legal action at every kind of decision, it is
reproducible when bounded by worlds rather than time, and it cannot see hidden cards: two states
that look the same to the searching seat get the same search."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

from trickcore import list_games, new_game
from trickcore.game import GameState
from trickcore.search import deal_value, heuristic_guide, search


def _searchable() -> list[tuple[str, int, dict[str, Any]]]:
    """Every registered game with a world model (search draws worlds; the reference game has
    none), at its smallest and largest player count, with its short options."""
    out = []
    for info in list_games():
        if type(new_game(info.name, info.players[0]))._world_model is GameState._world_model:
            continue
        out += [(info.name, n, dict(info.short_options)) for n in sorted({min(info.players), max(info.players)})]
    return out


GAMES: list[tuple[str, int, dict[str, Any]]] = _searchable()


def test_deal_value_is_own_gain_minus_the_other_sides_mean() -> None:
    assert deal_value([0, 0, 0], [6, 3, 0], 0, None) == 6 - 1.5
    assert deal_value([10, 10, 10, 10], [14, 10, 14, 8], 2, [[0, 2], [1, 3]]) == 4 - 0


def _decisions(game: str, n: int, options: dict[str, Any], seed: int) -> list[Any]:
    """A copy of one random game at every decision kind's first occurrences (up to 3 each)."""
    state, rng, seen, out = new_game(game, n, options, seed=seed), random.Random(seed), {}, []
    while not state.is_terminal():
        kind = state.decision()
        if seen.get(kind, 0) < 3 and len(state.legal_actions()) > 1:
            seen[kind] = seen.get(kind, 0) + 1
            out.append(state.clone())
        state.apply_action(rng.choice(state.legal_actions()))
    return out


@pytest.mark.parametrize(("game", "n", "options"), GAMES, ids=[f"{g}-{n}" for g, n, _ in GAMES])
def test_search_chooses_a_legal_action_and_cannot_see_hidden_cards(game: str, n: int, options: dict[str, Any]) -> None:
    for state in _decisions(game, n, options, seed=7):
        seat = state.current_player()
        result = search(state, seat, random.Random(1), budget_ms=1e9, max_worlds=2)
        assert result.action in state.legal_actions()
        assert result.worlds == 2 and set(result.values) == set(state.legal_actions())
        assert result.total_rollouts == 2 * len(state.legal_actions())
        # the same search on a state that differs only in what the seat cannot see
        other = state.determinize(seat, 99)
        again = search(other, seat, random.Random(1), budget_ms=1e9, max_worlds=2)
        assert (again.action, again.values) == (result.action, result.values)


def test_search_refuses_a_seat_not_to_move() -> None:
    state = new_game("hattrick", 4, seed=1)
    with pytest.raises(ValueError, match="not to move"):
        search(state, (state.current_player() + 1) % 4, random.Random(0), 10)


def test_an_exhausted_budget_still_searches_one_world() -> None:
    state = new_game("beim-jupiter", 4, seed=2)
    result = search(state, state.current_player(), random.Random(0), budget_ms=0)
    assert result.worlds == 1


@pytest.mark.parametrize(("game", "n", "options"), GAMES, ids=[f"{g}-{n}" for g, n, _ in GAMES])
def test_a_guided_search_plays_rollouts_with_the_guide_and_still_cannot_see_hidden_cards(
        game: str, n: int, options: dict[str, Any]) -> None:
    heuristic = heuristic_guide(game)
    assert heuristic is not None
    for state in _decisions(game, n, options, seed=5):
        seat, searched = state.current_player(), state.decision()
        guided: list[str] = []
        result = search(state, seat, random.Random(3), budget_ms=1e9, max_worlds=2,
                        guide=_recording(heuristic, guided))
        assert result.action in state.legal_actions()
        if searched != "play" and _cards_follow(state):   # a bid or contract: the guide plays the cards too
            assert "play" in guided, (game, searched)
        else:                      # card play: the cards of the rollouts stay in C
            assert "play" not in guided or game == "klaberjass", guided   # (a Belle phase goes card by card)
        other = state.determinize(seat, 42)
        again = search(other, seat, random.Random(3), budget_ms=1e9, max_worlds=2, guide=heuristic)
        first = search(state, seat, random.Random(3), budget_ms=1e9, max_worlds=2, guide=heuristic)
        assert (again.action, again.values) == (first.action, first.values)


def _recording(guide: Any, seen: list[str]) -> Any:
    """``guide``, noting the decision kind of every call in ``seen`` and checking its choice."""
    def recorded(world: Any, rng: random.Random) -> int:
        seen.append(world.decision())
        action = guide(world, rng)
        assert action in world.legal_actions()
        return int(action)
    return recorded


def _cards_follow(state: Any) -> bool:
    """Whether cards are played in this deal after the current decision (on one random path)."""
    trial, rng, deal = state.clone(), random.Random(0), state.deal_number()
    trial.apply_action(trial.legal_actions()[0])
    while not trial.is_terminal() and trial.deal_number() == deal:
        if trial.decision() == "play":
            return True
        trial.apply_action(rng.choice(trial.legal_actions()))
    return False


def test_a_game_without_a_heuristic_has_no_guide() -> None:
    assert heuristic_guide("reference") is None


def test_a_heuristic_whose_own_import_fails_is_an_error_not_a_missing_guide(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from trickcore.game import GameInfo
    from trickcore.games import register, unregister

    (tmp_path / "broken_game_policy.py").write_text("import trickcore_no_such_module\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    register(GameInfo(name="broken-game", title="Broken", players=(2,), options=(), factory=lambda *args: None,
                      policy="broken_game_policy:choose"))
    try:
        with pytest.raises(ModuleNotFoundError) as caught:
            heuristic_guide("broken-game")
    finally:
        unregister("broken-game")
    assert caught.value.name == "trickcore_no_such_module"


def test_the_clock_cuts_a_later_world_short_but_never_the_first(monkeypatch: pytest.MonkeyPatch) -> None:
    import trickcore.search as search_module

    class Clock:           # a fake clock: one millisecond passes at every look
        now = 0.0

        def perf_counter(self) -> float:
            self.now += 0.001
            return self.now

    monkeypatch.setattr(search_module, "time", Clock())
    state = next(s for s in _decisions("beim-jupiter", 4, {}, seed=3) if len(s.legal_actions()) >= 3)
    n = len(state.legal_actions())
    # start at 1 ms (deadline 3.5 ms); end of the first world 2 ms; second world: 3 ms, then 4 ms
    result = search(state, state.current_player(), random.Random(0), budget_ms=2.5)
    assert result.worlds == 2
    assert result.total_rollouts == n + 2 and min(result.rollouts.values()) >= 1


def test_the_search_bot_searches_only_squint_card_play(capsys: pytest.CaptureFixture[str]) -> None:
    """Per game (GameInfo.search_tuning): at Squint the bot searches card play only, with greedy
    rollouts; every other decision is the heuristic's, made from the view alone."""
    import json

    from tournament.bots.search_bot import SearchBot
    from trickcore.games.squint import policy

    real, seat = new_game("squint", 5, {"deal_limit": 1}, seed=4), 2
    bot = SearchBot()
    bot.new_game({"game": "squint", "players": 5, "options": {"deal_limit": 1}, "seat": seat})
    assert (bot.searched, bot.policy) == ("play", "greedy")
    cursor, rng, kinds = 0, random.Random(0), []
    while not real.is_terminal():
        if real.current_player() == seat:
            events, cursor = real.events_for(seat, cursor)
            for event in json.loads(json.dumps(events)):
                bot.event(event)
            view, legal = json.loads(json.dumps(real.observation(seat))), real.legal_action_strings()
            capsys.readouterr()
            choice = bot.choose(view, legal, {"decision": real.decision(), "time": {"decision_ms": 20}})
            log = capsys.readouterr().err
            if len(legal) > 1:
                kinds.append(real.decision())
                if real.decision() == "play":
                    assert "worlds" in log, log
                else:
                    assert "not searched" in log and choice == policy.choose(view, legal), log
            real.apply_action(choice)
        else:
            real.apply_action(rng.choice(real.legal_actions()))
    assert "bid" in kinds and "play" in kinds
