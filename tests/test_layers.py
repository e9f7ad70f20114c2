"""Dependencies point one way: runner -> games -> interface -> bindings -> C core
(docs/contributing.md, section 3).  Checked statically over every import, lazy ones
included, and at run time."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tools"))

import import_graph  # noqa: E402


def test_no_upward_edge_and_no_cycle():
    graph = import_graph.edges()
    assert graph, "no imports found: the scan is broken"
    assert import_graph.upward(graph) == []
    assert import_graph.cycles(graph) == []


def test_the_engine_names_nothing_of_the_runner():
    assert not [(a, b) for a, b in import_graph.edges() if a.startswith("trickcore") and b.startswith("tournament")]


def test_the_check_finds_what_it_must():
    # An upward edge and a cycle, as the scan would report them.
    fake = {("trickcore.game", "tournament.runner"), ("tournament.runner", "trickcore.game")}
    assert import_graph.upward(fake) == [("trickcore.game", "tournament.runner")]
    assert import_graph.cycles(fake) == [["tournament.runner", "trickcore.game"]]


def test_using_the_engine_loads_no_runner_module():
    code = ("import sys, trickcore, trickcore.bot, trickcore.games.squint.policy\n"
            "s = trickcore.new_game('squint', 5, seed=1)\n"
            "s.apply_action(s.legal_actions()[0]); trickcore.replay(s.to_record()); trickcore.list_games()\n"
            "print(sorted(m for m in sys.modules if m.split('.')[0] == 'tournament'))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=True)
    assert out.stdout.strip() == "[]"


def test_the_script_exits_cleanly():
    out = subprocess.run([sys.executable, str(ROOT / "tools" / "import_graph.py")], capture_output=True, text=True)
    assert out.returncode == 0, out.stdout + out.stderr
    assert "runner    -> games" in out.stdout and "one way:" in out.stdout
