"""The seat protocol (tournament/seats.py): the referee asks every seat's player the same way
and parses and applies every answer itself, whoever gives it.  Here a player that is not a bot
process holds one seat of a table whose other seats are real bot processes; a config counts
that seat among its seats, not as a bot."""

from __future__ import annotations

from typing import Any

import pytest

import trickcore
from tests.tournament.support import UNSANDBOXED, bot_cmd
from tournament.config import ConfigError, parse_config
from tournament.match import Table
from tournament.schedule import Job
from tournament.seats import Answer, Decision
from trickcore.game import GameState

SEED = 20260


class Scripted:
    """A player that answers from a script: ``answer(decision)`` gives the text it sends.  It
    keeps what it was asked and shown, to check what the referee gave it."""

    timed = False
    wants_events = False

    def __init__(self, answer: Any) -> None:
        self.answer = answer
        self.started: list[dict[str, Any]] = []
        self.asked: list[Decision] = []
        self.seen_movers: list[int] = []
        self.faults: list[dict[str, Any]] = []

    def start(self, state: GameState, newgame: dict[str, Any]) -> None:
        self.started.append(newgame)

    def ready(self) -> None:
        pass

    def tell(self, *lines: str) -> None:
        pass

    def ask(self, decision: Decision) -> Answer:
        self.asked.append(decision)
        return Answer(self.answer(decision), "person", 1.0, 0.0)

    def seen(self, state: GameState, mover: int) -> None:
        self.seen_movers.append(mover)

    def fault_seen(self, fault: dict[str, Any]) -> None:
        self.faults.append(fault)


def _doc(bots: int) -> dict[str, Any]:
    return {"game": {"name": "reference", "players": 4},
            "tournament": {"format": "duplicate", "deals": 1, "seed": 1},
            "sandbox": UNSANDBOXED,
            "bots": [{"name": f"random-{i}", "command": bot_cmd("random_bot.py"), "options": {"seed": i}}
                     for i in range(bots)]}


def _play(player: Scripted, seat: int) -> dict[str, Any]:
    config = parse_config(_doc(3), "test", people=1)
    names = [b.name for b in config.bots]
    names.insert(seat, "scripted")
    table = Table(config, None, people={"scripted": player})
    try:
        result = table.play(Job(index=0, job_id="g", table=0, deal=0, seed=SEED, seating=0, bots=tuple(names)))
        assert sorted(table.sessions) == sorted(b.name for b in config.bots)  # no process for the seat
    finally:
        table.close()
    return result.record


def test_a_config_counts_the_seats_people_hold():
    assert len(parse_config(_doc(3), "test", people=1).bots) == 3
    with pytest.raises(ConfigError, match="needs exactly 4 bots for 4 seats; got 3"):
        parse_config(_doc(3), "test")


def test_the_referee_parses_and_applies_the_answers_of_a_player_that_is_no_bot():
    # Answers in lower case: the referee reads them as the options they name ("js" is "JS").
    player = Scripted(lambda d: d.legal[-1].lower())
    record = _play(player, seat=2)
    mine = [a for a in record["actions"] if a["seat"] == 2]
    assert mine and [a["action"] for a in mine] == [d.legal[-1] for d in player.asked]
    assert all(a["by"] == "person" for a in mine) and not record["faults"]
    assert record["bots"][2] == "scripted" and player.started[0]["seat"] == 2
    # Asked with its own view only, and shown every action of the game after it was applied.
    assert all(d.seat == 2 and d.view["seat"] == 2 for d in player.asked)
    assert player.seen_movers == [a["seat"] for a in record["actions"]]
    replayed = trickcore.replay(record["record"])
    assert replayed.is_terminal() and replayed.scores() == record["scores"]


def test_an_answer_that_is_no_option_is_a_fault_of_its_seat():
    player = Scripted(lambda d: "no such card")
    record = _play(player, seat=0)
    faults = [f for f in record["faults"] if f["seat"] == 0]
    assert faults and {f["class"] for f in faults} == {"illegal"}
    assert player.faults == record["faults"]  # every player is shown every fault of the game
    substituted = [a for a in record["actions"] if a["seat"] == 0 and a.get("rejected") == "no such card"]
    assert substituted and all(a["by"] == "substitute" for a in substituted)
