"""Deal files (trickcore.deals, docs/tournament.md "Deal files"): every game's deal as its seed
deals it, export drawn from one seed, every line checked when read, and the
``trickcore deals export`` command."""

from __future__ import annotations

import json
import re
import shlex
from pathlib import Path

import pytest
from click.testing import CliRunner

import trickcore
from trickcore.cli import main
from trickcore.deals import FORMAT, DealFileError, deal_of, export, read_deals, write_deals

GAMES = [(info.name, players) for info in trickcore.list_games() for players in info.players]


@pytest.mark.parametrize("game,players", GAMES, ids=[f"{g}-{p}" for g, p in GAMES])
def test_a_deal_is_what_its_seed_deals(game, players):
    """Seed 11: the hands are each seat's hand at the start of the match, the deal its first
    public event, and a line read back gives the same deal."""
    deal = deal_of(game, players, None, 11)
    state = trickcore.new_game(game, players, seed=11)
    assert deal.hands == [state.observation(seat)["hand"] for seat in range(players)]
    assert all(deal.hands) and deal.deal == state.events_since(0)[0][0][1]
    assert deal.options == trickcore.get_game(game).resolve_options(None, players)
    assert json.loads(json.dumps(deal.to_dict()))["format"] == FORMAT


def test_export_draws_the_same_deals_from_the_same_seed(tmp_path):
    first = export("sticheln", 4, {"rounds": 1}, 5, seed=3)
    assert [d.seed for d in first] == [d.seed for d in export("sticheln", 4, {"rounds": 1}, 5, seed=3)]
    assert len({d.seed for d in first}) == 5
    assert {d.seed for d in first}.isdisjoint(d.seed for d in export("sticheln", 4, {"rounds": 1}, 5, seed=4))
    path = tmp_path / "deals.jsonl"
    assert write_deals(path, first) == 5 and len(path.read_text().splitlines()) == 5
    assert read_deals(path) == first
    with pytest.raises(DealFileError):
        export("sticheln", 4, None, 0, seed=3)


def _edited(path, line: int, change) -> None:
    lines = path.read_text().splitlines()
    doc = json.loads(lines[line])
    change(doc)
    lines[line] = json.dumps(doc)
    path.write_text("\n".join(lines) + "\n")


@pytest.mark.parametrize("change,message", [
    (lambda d: d["hands"][0].reverse(), "does not deal the hands"),
    (lambda d: d.update(seed=d["seed"] + 1), "does not deal the"),
    (lambda d: d["deal"].update(dealer=(d["deal"]["dealer"] + 1) % 4), "does not deal the deal"),
    (lambda d: d.update(seed=2**64), "not an integer in 0..2\\*\\*64-1"),
    (lambda d: d.update(seed=True), "not an integer"),
    (lambda d: d.update(players=9), "played by 4-7 players, not 9"),
    (lambda d: d.update(options={"games": 0}), "games"),
    (lambda d: d.update(options=[1]), "options are an object"),
    (lambda d: d.update(format="trickcore-deal/0"), "not a deal of format"),
    (lambda d: d.pop("hands"), "no hands"),
], ids=["hands", "seed", "dealer", "huge-seed", "bool-seed", "players", "option", "options-list", "format", "missing"])
def test_a_line_that_does_not_show_what_its_seed_deals_is_refused(tmp_path, change, message):
    path = tmp_path / "deals.jsonl"
    write_deals(path, export("hattrick", 4, {"games": 1}, 3, seed=1))
    _edited(path, 1, change)
    with pytest.raises(DealFileError, match=f"deals.jsonl, line 2: .*{message}"):
        read_deals(path)


def test_files_that_are_no_deal_files_are_refused(tmp_path):
    path = tmp_path / "deals.jsonl"
    with pytest.raises(DealFileError, match="cannot read the deal file"):
        read_deals(path)
    path.write_text("\n\n")
    with pytest.raises(DealFileError, match="holds no deal"):
        read_deals(path)
    path.write_text("{not json\n")
    with pytest.raises(DealFileError, match="line 1: not JSON"):
        read_deals(path)


def test_the_export_command_writes_a_deal_file(tmp_path):
    out = tmp_path / "deals.jsonl"
    result = CliRunner().invoke(main, ["deals", "export", "klaberjass", "--players", "4", "--count", "3",
                                       "--seed", "9", "--option", "max_deals=1", "-o", str(out)])
    assert result.exit_code == 0, result.output
    assert "3 deals of klaberjass for 4 players" in result.output
    assert read_deals(out) == export("klaberjass", 4, {"max_deals": 1}, 3, seed=9)
    bad = CliRunner().invoke(main, ["deals", "export", "klaberjass", "-p", "5", "--count", "1", "--seed", "1",
                                    "-o", str(out)])
    assert bad.exit_code == 2 and "played by 2-4 players, not 5" in bad.output


def test_the_example_of_the_docs_is_what_its_command_writes(tmp_path, monkeypatch):
    """docs/tournament.md, "Deal files": its command, run as written, writes the line it shows first."""
    doc = (Path(__file__).resolve().parents[1] / "docs" / "tournament.md").read_text(encoding="utf-8")
    section = doc.split("#### Deal files", 1)[1]
    command = re.search(r"```sh\n(trickcore deals export .*)\n```", section).group(1)
    line = re.search(r"```json\n(.*)\n```", section).group(1)
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(main, shlex.split(command)[1:])
    assert result.exit_code == 0, result.output
    written = (tmp_path / "deals.jsonl").read_text().splitlines()
    assert len(written) == 100 and written[0] == line
