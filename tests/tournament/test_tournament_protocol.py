"""Protocol behaviour seen from the bot: information isolation, CRLF, unknown lines,
index replies, options, and the doc's example bot."""

from __future__ import annotations

import json
import re

from tests.tournament.support import BOTS, ROOT, UNSANDBOXED, bot_cmd, mock, quick_doc
from tournament.config import parse_config
from tournament.results import read_results
from tournament.runner import run_tournament
from trickcore.games import new_game

FAST = {"startup_ms": 3000, "ready_ms": 1000, "decision_ms": 1000, "shutdown_ms": 100}


def test_doc_example_bot_is_the_shipped_file():
    doc = (ROOT / "docs" / "protocol.md").read_text()
    blocks = re.findall(r"<!-- example-bot:begin -->\n```python\n(.*?)```\n<!-- example-bot:end -->", doc, re.S)
    assert len(blocks) == 1, "docs/protocol.md must contain the example bot between the markers exactly once"
    assert blocks[0] == (BOTS / "example_bot.py").read_text()
    assert len(blocks[0].splitlines()) <= 35


def received(path) -> list[tuple[str, str]]:
    return [tuple(line.rstrip("\n").split(" ", 1)) if " " in line else (line.strip(), "")
            for line in path.read_text().splitlines()]


def test_requests_carry_exactly_the_seats_observation(tmp_path):
    bots = [{"name": f"rec{i}", "command": mock("--record", str(tmp_path / f"rec{i}.txt"))} for i in range(3)]
    summary = run_tournament(parse_config(quick_doc(bots, sandbox=UNSANDBOXED, players=3, time=FAST)), tmp_path / "out")
    (rec,) = read_results(tmp_path / "out")
    assert rec["faults"] == [] and summary.played == 1
    for seat, bot in enumerate(rec["bots"]):
        lines = received(tmp_path / f"{bot}.txt")
        (newgame,) = [json.loads(rest) for cmd, rest in lines if cmd == "newgame"]
        assert newgame["seat"] == seat and newgame["players"] == 3 and newgame["game"] == "toy-tricks"
        assert "seed" not in json.dumps(newgame)  # the deal's identity is not revealed
        requests = [json.loads(rest.split(" ", 2)[2]) for cmd, rest in lines if cmd == "request"]
        events = [json.loads(rest) for cmd, rest in lines if cmd == "event"]
        # Replay the game and compare every request with the state at that moment.
        state = new_game(rec["game"], rec["players"], rec["options"], rec["seed"])
        expected = []
        for action in rec["record"]["history"]:
            if state.current_player() == seat:
                expected.append({"seat": seat, "decision": state.decision(),
                                 "legal": state.legal_action_strings(), "view": state.observation(seat)})
            state.apply_action(action)
        assert [{k: r[k] for k in ("seat", "decision", "legal", "view")} for r in requests] == expected
        assert events == state.events_for(seat, 0)[0]  # every event the seat may see, in order, nothing else
        others = {c for s in range(3) if s != seat for e in state.events_for(s, 0)[0] if e["type"] == "deal"
                  for c in e["hand"]}
        own_view_lines = [rest for cmd, rest in lines if cmd in ("newgame", "event")]
        first_play = next(i for i, (cmd, rest) in enumerate(lines) if cmd == "event" and '"play"' in rest)
        # Before any card is played, no line this seat received names another seat's card.
        early = " ".join(rest for cmd, rest in lines[:first_play])
        assert not any(f'"{c}"' in early for c in others), "another seat's card leaked"
        assert own_view_lines
        (over,) = [json.loads(rest) for cmd, rest in lines if cmd == "gameover"]
        assert over["scores"] == rec["scores"] and over["seat"] == seat
        assert lines[-1][0] == "quit"


def test_crlf_index_replies_and_unknown_lines(tmp_path):
    bots = [{"name": "crlf", "command": mock("--crlf", "--index", "--unknown")},
            {"name": "plain", "command": bot_cmd("example_bot.py")}]
    run_tournament(parse_config(quick_doc(bots, sandbox=UNSANDBOXED, time=FAST)), tmp_path / "out")
    (rec,) = read_results(tmp_path / "out")
    assert rec["faults"] == []  # CRLF and '#k' replies are fine
    seat = rec["bots"].index("crlf")
    notes = rec["notes"][str(seat)]
    assert notes["unknown_lines"] == 2 * 5  # reported, not fatal
    assert notes["unknown_examples"][0] == "hello runner, this is not a command"
    assert {a["by"] for a in rec["actions"]} == {"bot"}


def test_options_are_set_after_the_handshake(tmp_path):
    log = tmp_path / "opt.txt"
    bots = [{"name": "opt", "command": mock("--options", "--record", str(log)),
             "options": {"depth": 7, "verbose": True, "style": "wild", "label": "two words", "temperature": 0.25}},
            {"name": "plain", "command": bot_cmd("random_bot.py"), "options": {"seed": 5}}]
    run_tournament(parse_config(quick_doc(bots, sandbox=UNSANDBOXED, time=FAST)), tmp_path / "out", check_bots=False)
    lines = log.read_text().splitlines()
    assert lines[0] == "trickcore 1"
    assert lines[1:6] == ["setoption depth 7", "setoption verbose true", "setoption style wild",
                          "setoption label two words", "setoption temperature 0.25"]
    assert lines[6] == "isready 1"
    assert lines[7].startswith("newgame ")


def test_forced_decisions_asked_by_default_auto_played_on_request(tmp_path):
    bots = [{"name": "a", "command": bot_cmd("random_bot.py")}, {"name": "b", "command": bot_cmd("random_bot.py")}]
    for auto in (False, True):
        out = tmp_path / f"auto{auto}"
        doc = quick_doc(bots, sandbox=UNSANDBOXED, time=FAST, deals=3)
        doc["tournament"]["auto_play_forced"] = auto
        run_tournament(parse_config(doc), out)
        by = {a["by"] for r in read_results(out) for a in r["actions"]}
        assert ("forced" in by) is auto


def test_event_delivery_on_request_sends_the_same_events(tmp_path):
    for mode in ("immediate", "on-request"):
        bots = [{"name": f"rec{i}", "command": mock("--record", str(tmp_path / f"{mode}{i}.txt"))} for i in range(2)]
        doc = quick_doc(bots, sandbox=UNSANDBOXED, time=FAST)
        doc["tournament"]["event_delivery"] = mode
        run_tournament(parse_config(doc), tmp_path / mode)
    for i in range(2):
        imm = [line for line in (tmp_path / f"immediate{i}.txt").read_text().splitlines()]
        onr = [line for line in (tmp_path / f"on-request{i}.txt").read_text().splitlines()]
        assert sorted(imm) == sorted(onr)  # same lines; only the moment of delivery differs


def test_feature_events_off_gets_no_events_but_complete_requests(tmp_path):
    # docs/protocol.md 2.5: a bot that says "feature events off" gets no event lines; its
    # requests still carry the whole view, and the other seats still get their events.
    bots = [{"name": "quiet", "command": mock("--events", "off", "--record", str(tmp_path / "quiet.txt"))},
            {"name": "chatty", "command": mock("--events", "on", "--record", str(tmp_path / "chatty.txt"))},
            {"name": "plain", "command": mock("--record", str(tmp_path / "plain.txt"))}]
    doc = quick_doc(bots, sandbox=UNSANDBOXED, players=3, time=FAST, deals=2)
    run_tournament(parse_config(doc), tmp_path / "out")
    records = read_results(tmp_path / "out")
    assert len(records) == 2 and all(r["faults"] == [] for r in records)
    commands = {name: [cmd for cmd, _ in received(tmp_path / f"{name}.txt")] for name in ("quiet", "chatty", "plain")}
    assert "event" not in commands["quiet"]
    assert commands["quiet"].count("request") > 0 and commands["quiet"].count("gameover") == 2
    assert commands["chatty"].count("event") > 0 and commands["plain"].count("event") > 0
    for rec in records:
        seat = rec["bots"].index("quiet")
        state = new_game(rec["game"], rec["players"], rec["options"], rec["seed"])
        views = []
        for action in rec["record"]["history"]:
            if state.current_player() == seat:
                views.append(state.observation(seat))
            state.apply_action(action)
        lines = received(tmp_path / "quiet.txt")
        sent = [json.loads(rest.split(" ", 2)[2])["view"] for cmd, rest in lines if cmd == "request"]
        assert all(v in sent for v in views)


def test_feature_events_with_a_bad_value_is_a_handshake_fault(tmp_path):
    bots = [{"name": "odd", "command": mock("--events", "sometimes")},
            {"name": "b", "command": bot_cmd("random_bot.py")}]
    run_tournament(parse_config(quick_doc(bots, sandbox=UNSANDBOXED, time=FAST)), tmp_path / "out", check_bots=False)
    (rec,) = read_results(tmp_path / "out")
    (fault,) = rec["faults"]
    assert fault["class"] == "handshake" and "feature events must be one of on, off" in fault["detail"]
