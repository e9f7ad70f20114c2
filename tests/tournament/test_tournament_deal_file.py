"""Tournaments on a deal file (``tournament.deal_file``, docs/tournament.md "Deal files"): the
file's deals are played in order instead of secret seeded ones, every record and the summary say
so, the run folder is checked and resumed from run.json alone, and a config whose file does not
fit its game is refused."""

from __future__ import annotations

import json

import pytest
import tomli_w
from click.testing import CliRunner

from tests.tournament.support import bot_cmd
from tournament.config import ConfigError, load_config
from tournament.results import MANIFEST_FILE, RESULTS_FILE, SECRET_FILE, ResumeError, read_results
from tournament.runner import run_tournament
from trickcore.cli import main as trickcore_main
from trickcore.deals import read_deals
from trickcore.games import replay

FAST = {"startup_ms": 5000, "ready_ms": 2000, "decision_ms": 2000, "shutdown_ms": 200}
GAME, PLAYERS, OPTIONS = "klaberjass", 2, {"max_deals": 1}


def export(folder, count=3, seed=5, players=PLAYERS):
    """``trickcore deals export`` into ``folder/deals.jsonl``, as a person runs it."""
    out = folder / "deals.jsonl"
    result = CliRunner().invoke(trickcore_main, ["deals", "export", GAME, "-p", str(players), "--count", str(count),
                                                 "--seed", str(seed), "--option", "max_deals=1", "-o", str(out)])
    assert result.exit_code == 0, result.output
    return read_deals(out)


def write_config(folder, **tournament) -> object:
    """A config beside the deal file, naming it relative to itself: two random bots, duplicate."""
    doc = {"game": {"name": GAME, "players": PLAYERS, "options": OPTIONS},
           "tournament": {"format": "duplicate", "concurrency": 1, "deal_file": "deals.jsonl", **tournament},
           "time": FAST,
           "bots": [{"name": f"b{i}", "command": bot_cmd("random_bot.py"), "options": {"seed": i}} for i in range(2)]}
    path = folder / "t.toml"
    path.write_text(tomli_w.dumps(doc))
    return path


def test_a_tournament_plays_the_deals_of_its_file_in_order(tmp_path, sandbox):
    (tmp_path / "cfg").mkdir()
    deals = export(tmp_path / "cfg")
    config = load_config(write_config(tmp_path / "cfg"))
    assert config.deals == 3 and config.deal_seeds == tuple(d.seed for d in deals)
    out = tmp_path / "out"
    summary = run_tournament(config, out)
    assert summary.played == 6 and not summary.errors          # 3 deals, 2 seatings each
    records = read_results(out)                                # checked against run.json's schedule
    for record in records:
        deal = deals[record["deal"]]
        assert record["seed"] == deal.seed and record["deal_file"] == "deals.jsonl"
        state = replay({**record["record"], "history": []})    # the game as it was dealt
        assert [state.observation(seat)["hand"] for seat in range(PLAYERS)] == deal.hands
    assert sorted({r["deal"] for r in records}) == [0, 1, 2]
    manifest = json.loads((out / MANIFEST_FILE).read_text())
    assert manifest["deal_seeds"] == "deal-file/1"
    assert manifest["deal_file"] == {"path": "deals.jsonl", "seeds": [d.seed for d in deals]}
    assert "seed" not in manifest["config"]["tournament"] and not (out / SECRET_FILE).exists()
    assert json.loads((out / "summary.json").read_text())["deal_file"] == "deals.jsonl"
    # Run again: the same deals, the same games.
    again = tmp_path / "again"
    run_tournament(load_config(write_config(tmp_path / "cfg")), again)
    assert [(r["job"], r["seed"], r["record"]["history"]) for r in read_results(again)] == \
        [(r["job"], r["seed"], r["record"]["history"]) for r in records]


def test_a_run_resumes_on_its_file_and_refuses_another(tmp_path, sandbox):
    export(tmp_path)
    config = load_config(write_config(tmp_path, deals=2))
    assert config.deals == 2
    out = tmp_path / "out"
    run_tournament(config, out)
    results = out / RESULTS_FILE
    lines = results.read_text().splitlines(keepends=True)
    results.write_text("".join(lines[:2]))     # as if stopped after two games
    resumed = run_tournament(config, out, resume=True)
    assert resumed.resumed == 2 and resumed.played == 2 and len(read_results(out)) == 4
    export(tmp_path, seed=6)                   # other deals in the same file
    with pytest.raises(ResumeError, match="the deals of tournament.deal_file"):
        run_tournament(load_config(write_config(tmp_path, deals=2)), out, resume=True)


def test_a_deal_file_that_does_not_fit_the_config_is_refused(tmp_path):
    export(tmp_path, count=2)
    with pytest.raises(ConfigError, match="tournament.seed: a deal file fixes the deals"):
        load_config(write_config(tmp_path, seed=7))
    with pytest.raises(ConfigError, match="tournament.deals: 3 deals, but the deal file holds 2"):
        load_config(write_config(tmp_path, deals=3))
    export(tmp_path, count=2, players=3)
    with pytest.raises(ConfigError, match="deal 1 is of klaberjass for 3 players"):
        load_config(write_config(tmp_path))
    (tmp_path / "deals.jsonl").unlink()
    with pytest.raises(ConfigError, match="tournament.deal_file: cannot read the deal file"):
        load_config(write_config(tmp_path))
