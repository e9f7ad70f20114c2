"""`trickcore compliance` leaves nothing behind unless asked to keep the games' records."""

from __future__ import annotations

import tempfile

from tests.tournament.support import bot_cmd, mock
from tournament.compliance import run_compliance


def test_compliance_removes_its_temporary_folder(tmp_path, monkeypatch):
    scratch = tmp_path / "tmp"
    scratch.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(scratch))
    good = run_compliance(bot_cmd("example_bot.py"), game="toy-tricks", games=1)
    bad = run_compliance(mock("--illegal"), game="toy-tricks", games=1, decision_ms=1000)
    assert good.ok and not bad.ok
    games = next(c for c in bad.checks if c.name == "games")
    assert "--out DIR" in games.detail
    assert list(scratch.iterdir()) == []


def test_compliance_keeps_records_in_the_folder_it_is_given(tmp_path):
    out = tmp_path / "kept"
    report = run_compliance(mock("--illegal"), game="toy-tricks", games=1, decision_ms=1000, out_dir=str(out))
    games = next(c for c in report.checks if c.name == "games")
    assert not games.ok and str(out) in games.detail
    assert (out / "results.jsonl").is_file()
