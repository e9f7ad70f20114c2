"""Bundled bots: the SDK, the heuristic bot's generic policy lookup, the random bot."""

from __future__ import annotations

import io
import json
import subprocess
import sys
import time
import types

import pytest

from tests.tournament.support import BOTS, bot_cmd
from tournament.bots import heuristic_bot
from tournament.process import BotProcess
from trickcore.bot import Bot, Option, run


def converse(bot, lines: list[str]) -> list[str]:
    out = io.StringIO()
    run(bot, stdin=io.StringIO("".join(line + "\n" for line in lines)), stdout=out)
    return out.getvalue().splitlines()


def request(rid: int, legal: list[str], view: dict | None = None) -> str:
    payload = {"decision": "play", "legal": legal, "seat": 0, "view": view or {}}
    return f"request {rid} {len(legal)} {json.dumps(payload)}"


def test_sdk_function_bot():
    got = converse(lambda view, legal: legal[-1],
                   ["trickcore 1", "isready 1", 'newgame {"game":"x"}', request(3, ["a", "b"]), "quit", "isready 9"])
    # A function bot gets everything from the request: it asks for no events.
    assert got == ["id name python-bot", "feature events off", "trickcoreok 1", "readyok 1", "action 3 b"]


def test_sdk_options_are_declared_and_parsed():
    class Deep(Bot):
        name = "deep"
        declared_options = (Option("depth", "int", 3, 1, 10), Option("fast", "bool", False),
                            Option("style", "choice", "a", choices=("a", "b")))

        def choose(self, view, legal, req):
            return legal[self.options["depth"] % len(legal)] if self.options["fast"] else legal[0]

    got = converse(Deep(), ["trickcore 1", "setoption depth 4", "setoption fast true", request(1, ["x", "y", "z"])])
    assert got[:4] == ["id name deep", "option depth int 3 1 10", "option fast bool false", "option style choice a a b"]
    assert got[-1] == "action 1 y"


def test_sdk_index_answers_and_events_only_when_wanted():
    got = converse(lambda view, legal: len(legal) - 1, [request(4, ["a", "b", "c"]), 'event not json'])
    assert got == ["action 4 #2"]  # an int is an index; events are not parsed by a function bot

    class Tracker(Bot):
        def __init__(self):
            super().__init__()
            self.seen = []

        def event(self, event):
            self.seen.append(event["type"])

        def choose(self, view, legal, req):
            return f"{legal[0]}" if self.seen == ["play", "trick"] else "confused"

    bot = Tracker()
    got = converse(bot, ['newgame {"game":"g","seat":1}', 'event {"type":"play"}', 'event {"type":"trick"}',
                         request(1, ["x"]), 'gameover {"scores":[1,2]}', "quit"])
    assert got == ["action 1 x"] and bot.game == {"game": "g", "seat": 1}
    assert "feature events off" not in converse(Tracker(), ["trickcore 1"])  # a bot that tracks events gets them


def test_sdk_rejects_bad_declarations():
    with pytest.raises(ValueError, match="type must be one of"):
        Option("depth", "integer", 3)
    with pytest.raises(ValueError, match="one word"):
        Option("two words", "int", 3)
    with pytest.raises(TypeError, match="choose"):
        run(42, stdin=io.StringIO(""), stdout=io.StringIO())


@pytest.fixture
def toy_policy(monkeypatch):
    """A game toy-heuristic registered with a policy module, as another team's package would."""
    from trickcore.game import GameInfo
    from trickcore.games import register, unregister

    module = types.ModuleType("toy_heuristic_policy")
    module.choose = lambda observation, legal: sorted(legal)[-1]
    monkeypatch.setitem(sys.modules, "toy_heuristic_policy", module)
    register(GameInfo(name="toy-heuristic", title="Toy heuristic", players=(2,), options=(), factory=lambda *args: None,
                      policy="toy_heuristic_policy:choose"))
    yield module
    unregister("toy-heuristic")


def test_heuristic_uses_the_game_policy(toy_policy):
    got = converse(heuristic_bot.HeuristicBot(), ["trickcore 1", 'newgame {"game":"toy-heuristic"}',
                                                  request(1, ["A1", "B3", "A2"])])
    assert got[-1] == "action 1 B3"


def test_heuristic_passes_a_seeded_rng_to_policies_that_take_one(toy_policy):
    toy_policy.choose = lambda observation, legal, rng: rng.choice(legal)

    def play() -> list[str]:
        lines = ['newgame {"game":"toy-heuristic","seat":2}'] + [request(i, [str(k) for k in range(50)])
                                                             for i in range(1, 6)]
        return converse(heuristic_bot.HeuristicBot(), lines)

    first = play()
    assert first == play() and len(set(first)) > 1  # reproducible, and not one fixed stream per call


def test_heuristic_falls_back_to_random(toy_policy, capsys):
    assert heuristic_bot.load_policy("no-such-game") is None
    toy_policy.choose = lambda observation, legal: "not legal"
    got = converse(heuristic_bot.HeuristicBot(), ['newgame {"game":"toy-heuristic"}', request(1, ["A1", "B3"])])
    assert got[-1] in ("action 1 A1", "action 1 B3")
    assert "policy chose 'not legal'" in capsys.readouterr().err


def test_heuristic_runs_as_a_file():
    proc = subprocess.run(bot_cmd("heuristic_bot.py"), input="trickcore 1\nquit\n", capture_output=True, text=True,
                          timeout=30)
    assert proc.stdout.splitlines()[-1] == "trickcoreok 1"


def test_random_bot_is_a_function_of_seed_and_request():
    def play(seed: int) -> list[str]:
        lines = ["trickcore 1", f"setoption seed {seed}"] + [request(i, [str(k) for k in range(20)], {"n": i})
                                                             for i in range(1, 9)] + ["quit"]
        proc = subprocess.run(bot_cmd("random_bot.py"), input="\n".join(lines) + "\n", capture_output=True,
                              text=True, timeout=30)
        return [line for line in proc.stdout.splitlines() if line.startswith("action")]

    assert play(1) == play(1)
    assert play(1) != play(2)


def test_random_bot_needs_no_trickcore():
    source = (BOTS / "random_bot.py").read_text() + (BOTS / "example_bot.py").read_text()
    assert "trickcore." not in source and "import trickcore" not in source


def _running(pid: int) -> bool:
    """Alive and not a zombie (a container's init may be slow to reap orphans)."""
    try:
        with open(f"/proc/{pid}/status") as fh:
            return not any(line.startswith("State:") and "Z" in line.split()[1] for line in fh)
    except FileNotFoundError:
        return False


def test_kill_takes_down_the_whole_process_group(tmp_path):
    script = tmp_path / "spawner.py"
    script.write_text("import subprocess, sys, time\n"
                      "child = subprocess.Popen([sys.executable, '-c', 'import time; time.sleep(60)'])\n"
                      "print(child.pid, flush=True)\n"
                      "time.sleep(60)\n")
    proc = BotProcess((sys.executable, str(script)), None, None, 4096, 4096)
    child = int(proc.next_output(time.perf_counter() + 10).text)
    assert _running(child)
    proc.kill()
    deadline = time.perf_counter() + 5
    while _running(child) and time.perf_counter() < deadline:
        time.sleep(0.02)
    assert not _running(child)


def test_heuristic_bot_prefers_the_installed_package_to_an_unbuilt_checkout(tmp_path):
    """Run by path from a source tree whose core is not built, the bundled heuristic bot
    uses the installed trickcore instead of failing on the unbuilt tree."""
    import os
    import shutil
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    checkout = tmp_path / "checkout"
    (checkout / "tournament" / "bots").mkdir(parents=True)
    shutil.copy(root / "tournament" / "bots" / "heuristic_bot.py", checkout / "tournament" / "bots")
    shutil.copytree(root / "trickcore", checkout / "trickcore",
                    ignore=shutil.ignore_patterns("*.so", "*.pyd", "__pycache__", "*.c"))
    # The "installed" trickcore: just the SDK modules, which need only the standard library.
    installed = tmp_path / "site" / "trickcore"
    installed.mkdir(parents=True)
    (installed / "__init__.py").write_text("")
    for name in ("bot.py", "protocol.py"):
        shutil.copy(root / "trickcore" / name, installed)
    # -S: no site-packages (no editable install answering for every path); PYTHONPATH: "installed".
    out = subprocess.run([sys.executable, "-S", str(checkout / "tournament" / "bots" / "heuristic_bot.py")],
                         input="trickcore 1\nquit\n", capture_output=True, text=True, timeout=60,
                         env={**os.environ, "PYTHONPATH": str(tmp_path / "site")})
    assert out.returncode == 0, out.stderr
    assert "trickcoreok 1" in out.stdout
