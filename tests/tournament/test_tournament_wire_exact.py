"""The exact wire rules that docs/protocol.md states for bot authors (sections 2.3 and 2.6)."""

from __future__ import annotations

import pytest

from tournament import wire

LEGAL = ["7H", "9H", "KH"]


@pytest.mark.parametrize("reply,option", [
    ("#0", "7H"), ("#2", "KH"), ("#02", "KH"), ("#0002", "KH"),  # leading zeros are allowed
    ("#3", None), ("#99999999999999999999", None),             # out of range: an illegal answer
    ("KH", "KH"),                                               # the option's text
    ("#-1", "#-1"), ("#+1", "#+1"), ("# 1", "# 1"), ("#1 x", "#1 x"), ("#", "#"),  # not an index:
    ("#²", "#²"), ("#٣", "#٣"),                                 # taken as text, which no game knows
])
def test_index_replies_are_ascii_digits_only(reply, option):
    assert wire.resolve_action(reply, LEGAL) == option


def test_a_reply_is_the_rest_of_the_line_after_the_id():
    line = wire.parse_bot_line("action 17   #2  ")
    assert (line.kind, line.request_id, line.action) == ("action", 17, "#2")
    with pytest.raises(wire.WireError):
        wire.parse_bot_line("action seventeen KH")


def test_readyok_echoes_the_first_word():
    # isready tokens are positive integers (no spaces); readyok's first word is the token.
    assert wire.isready(7) == "isready 7"
    assert wire.parse_bot_line("readyok 7").token == "7"
    assert wire.parse_bot_line("readyok 7 extra words").token == "7"


def test_ids_and_tokens_count_per_process_from_one(tmp_path):
    """Request ids and isready tokens are positive integers counted per bot process: 1, 2, 3,
    ... across the games that process plays (docs/protocol.md section 2.6)."""
    from tests.tournament.support import UNSANDBOXED, mock, quick_doc
    from tournament.config import parse_config
    from tournament.results import read_results
    from tournament.runner import run_tournament

    fast = {"startup_ms": 3000, "ready_ms": 1000, "decision_ms": 1000, "shutdown_ms": 100}
    bots = [{"name": f"rec{i}", "command": mock("--record", str(tmp_path / f"rec{i}.txt"))} for i in range(2)]
    # No preflight: it would start each bot once more, and the record file would mix two processes.
    run_tournament(parse_config(quick_doc(bots, sandbox=UNSANDBOXED, players=2, deals=2, time=fast)),
                   tmp_path / "out", check_bots=False)
    records = read_results(tmp_path / "out")
    assert len(records) >= 2 and all(r["faults"] == [] for r in records)
    for i in range(2):
        words = [line.split(" ", 3) for line in (tmp_path / f"rec{i}.txt").read_text().splitlines()]
        ids = [int(w[1]) for w in words if w[0] == "request"]
        tokens = [int(w[1]) for w in words if w[0] == "isready"]
        assert sum(w[0] == "newgame" for w in words) >= 2  # one process, several games
        assert ids == list(range(1, len(ids) + 1)) and tokens == list(range(1, len(tokens) + 1))


def test_times_are_milliseconds_with_a_fraction_in_newgame_and_request(tmp_path):
    """settings.decision_ms / game_ms in newgame and time.decision_ms in a request are JSON
    numbers with a fraction (docs/protocol.md sections 2.4 and 2.6), whatever the TOML wrote."""
    from tests.tournament.support import UNSANDBOXED, mock, quick_doc
    from tournament.config import parse_config
    from tournament.runner import run_tournament

    fast = {"startup_ms": 3000, "ready_ms": 1000, "decision_ms": 1000, "shutdown_ms": 100, "game_ms": 60000}
    bots = [{"name": f"rec{i}", "command": mock("--record", str(tmp_path / f"rec{i}.txt"))} for i in range(2)]
    run_tournament(parse_config(quick_doc(bots, sandbox=UNSANDBOXED, players=2, time=fast)), tmp_path / "out",
                   check_bots=False)
    lines = (tmp_path / "rec0.txt").read_text().splitlines()
    newgame = next(line for line in lines if line.startswith("newgame "))
    request = next(line for line in lines if line.startswith("request "))
    assert '"decision_ms":1000.0' in newgame and '"game_ms":60000.0' in newgame
    assert '"decision_ms":1000.0' in request
