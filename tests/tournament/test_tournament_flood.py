"""A bot that floods costs neither the runner's memory nor the disk: transcripts keep at most
``[limits] transcript_bytes`` of traffic per seat and game and note what they dropped
(docs/tournament.md, "[limits]"), while the flood itself is a `flood` fault under its policy."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap

from tests.tournament.support import ROOT

# Runs in its own interpreter so that its peak memory (ru_maxrss) is the tournament's alone.
SCRIPT = textwrap.dedent("""
    import resource, sys
    sys.path.insert(0, {root!r})
    from tests.tournament.support import bot_cmd, mock, quick_doc
    from tests.tournament.toygame import register_toy_games
    register_toy_games()
    from tournament.config import parse_config
    from tournament.runner import run_tournament
    out, limit, deals, width = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
    bots = [{{"name": "flood", "command": mock("--flood", "wide", "--flood-bytes", width, "--at", "3"),
              "restart": "game"}},  # a fresh process per game, so every game is flooded
            {{"name": "good", "command": bot_cmd("random_bot.py")}}]
    doc = quick_doc(bots, deals=deals, time={{"decision_ms": 5000, "ready_ms": 5000}},
                    limits={{"transcript_bytes": limit}}, records={{"transcripts": "all"}},
                    tournament={{"format": "round-robin", "deals": deals, "seed": 11, "concurrency": 1,
                                "workers": "threads"}})
    summary = run_tournament(parse_config(doc), out, check_bots=False)
    # VmHWM is this process's own peak: ru_maxrss would carry over the forking parent's peak
    # through exec on Linux (a large test session would then fail the limit by itself).
    try:
        with open("/proc/self/status") as f:
            peak_kb = next(int(line.split()[1]) for line in f if line.startswith("VmHWM:"))
    except OSError:
        peak_kb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    print(summary.played, len(summary.errors), peak_kb // 1024)
""")


def run(tmp_path, limit: int, deals: int, width: int) -> tuple[list[dict], int]:
    out = tmp_path / "out"
    result = subprocess.run([sys.executable, "-c", SCRIPT.format(root=str(ROOT)), str(out), str(limit), str(deals),
                             str(width)], capture_output=True, text=True, timeout=600)
    assert result.returncode == 0, result.stderr
    played, errors, peak_mb = map(int, result.stdout.split())
    assert played == deals and errors == 0
    return [json.loads(line) for line in (out / "results.jsonl").read_text().splitlines()], peak_mb


def test_transcripts_stay_within_their_limit_over_100_flooded_games(tmp_path):
    limit = 32768
    records, peak_mb = run(tmp_path, limit, deals=100, width=10000)  # 10 MB of info lines per game
    assert len(records) == 100
    for rec in records:
        assert [f["class"] for f in rec["faults"]] == ["flood"]
        text = (tmp_path / "out" / rec["transcript"]).read_text()
        assert len(text) < 2 * limit  # two seats' traffic, prefixes included, instead of 10 MB
        assert "transcript limit transcript_bytes = 32768" in text and "not kept" in text
    assert peak_mb < 150


def test_a_heavy_flood_does_not_grow_the_runners_memory(tmp_path):
    # 1,001 lines of 60 KB: 60 MB per flood.  Kept whole, the transcript alone is ~60 MB of
    # memory per game (measured 216 MB peak for this run without the limit).
    records, peak_mb = run(tmp_path, 1 << 20, deals=3, width=60000)
    assert all(rec["faults"] and rec["faults"][0]["class"] == "flood" for rec in records)
    assert peak_mb < 120
    total = sum((tmp_path / "out" / rec["transcript"]).stat().st_size for rec in records)
    assert total < 3 * 2 * (1 << 20)
