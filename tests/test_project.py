"""Project-level checks: the README's commands, the CLI, the registry and the bench JSON."""

import json
import os
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

import trickcore
from trickcore.checkout import bench_module
from trickcore.cli import main

ROOT = Path(__file__).resolve().parents[1]


def readme_games() -> dict[str, tuple[int, ...]]:
    """The README's table of games: the player page each row links to, and its player counts
    (``3–5``, ``2, 3, 4``, ``5``)."""
    out = {}
    for page, counts in re.findall(r"^\| \[[^]]+\]\(docs/games/(\w+)\.md\)[^|]*\| ([^|]+) \|",
                                   (ROOT / "README.md").read_text(), flags=re.M):
        low, _, high = counts.strip().partition("–")
        out[page] = (tuple(range(int(low), int(high) + 1)) if high
                     else tuple(int(c) for c in counts.split(",")))
    return out


#: Every registered game but the benchmark's own reference game, by name.
GAMES = {info.name: info for info in trickcore.list_games() if info.name != "reference"}


def readme_commands():
    text = (ROOT / "README.md").read_text()
    block = re.search(r"```sh\n(.*?)\n```", text, flags=re.S).group(1).splitlines()
    return block[0], block[1]


def test_readme_starts_with_install_and_test_commands():
    main_job, tests = readme_commands()
    assert main_job.startswith("pip install . && trickcore tournament configs/")
    (config,) = [w for w in main_job.split() if w.endswith(".toml")]
    assert (ROOT / config).is_file()
    assert "--fresh" in main_job.split()  # safe to run twice: an earlier run is moved aside
    assert "pytest" in tests


def test_ci_runs_exactly_the_readme_test_command():
    _, tests = readme_commands()
    ci = (ROOT / ".ci/run").read_text().splitlines()
    assert tests in ci, ".ci/run must run the README's test command verbatim"


def test_the_readme_offers_every_game_with_its_registered_player_counts():
    """The README's table and the registry agree: the same games (by their module, the name of
    their player page), with the same player counts."""
    registry = {info.factory.__module__.rsplit(".", 1)[1]: tuple(sorted(info.players)) for info in GAMES.values()}
    assert readme_games() == registry


def test_games_command_lists_the_registry():
    result = CliRunner().invoke(main, ["games"])
    assert result.exit_code == 0, result.output
    for name in GAMES:
        assert name in result.output
    data = json.loads(CliRunner().invoke(main, ["games", "--json"]).output)
    assert {g["name"] for g in data} >= set(GAMES)


def test_bench_json_reports_ratios_to_the_floor():
    result = CliRunner().invoke(main, ["bench", "--json", "--quick", "--repeat", "1", "--no-games"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    names = {d["name"] for d in data}
    # every goal of docs' benchmark table has its row, and each interpreter limit beside its loop
    assert {"floor_c", "core_playout_reference_c", "interface_play_reference_python", "python_limit",
            "natural_loop_reference_python", "binding_play_python", "trickphase_limit_python",
            "interface_legal_actions_python", "python_noop_method", "interface_apply_action_python",
            "python_noop_method_arg"} <= names
    for d in data:
        assert d["ns_per_play"] > 0 and d["ratio"] > 0
    assert next(d for d in data if d["name"] == "floor_c")["ratio"] == 1.0


def test_bench_without_a_checkout_says_where_the_benchmarks_run(monkeypatch, tmp_path):
    """An installed wheel has no bench/ folder: ``trickcore bench`` says in one line that the
    benchmarks run from a source checkout, and how to get one."""
    monkeypatch.setattr("trickcore.checkout.BENCH_DIR", tmp_path / "bench")
    result = CliRunner().invoke(main, ["bench", "--quick"])
    assert result.exit_code == 1
    assert result.output.count("\n") == 1 and "source checkout" in result.output
    assert "git clone" in result.output and "trickcore bench" in result.output


@pytest.mark.skipif(not hasattr(os, "sched_setaffinity"), reason="CPU affinity is Linux-only")
def test_bench_runs_on_one_cpu_and_gives_the_others_back():
    """``trickcore bench`` pins itself to one CPU it may use while it measures (--no-pin: not)."""
    bench = bench_module("engine_bench", "trickcore bench")

    allowed = os.sched_getaffinity(0)
    with bench.one_cpu() as cpu:
        assert cpu in allowed and os.sched_getaffinity(0) == {cpu}
    assert os.sched_getaffinity(0) == allowed
    with bench.one_cpu(False) as cpu:
        assert cpu is None and os.sched_getaffinity(0) == allowed


def test_bench_times_full_games_round_robin():
    """The full-game rows: every configuration once per round (so a slow spell of the machine
    does not fall on every run of one game), each row the fastest of its rounds, per action and
    per card play."""
    bench = bench_module("engine_bench", "trickcore bench")

    run = bench._Run(quick=True, repeat=2, progress=None)
    configs = [("klaberjass", "Klaberjass", 2), ("hattrick", "Hattrick", 4)]
    run.full_games(configs)
    rows = {r.name: r for r in run.results()}
    assert len(run.floors) == 2 * bench.ROUNDS_PER_REPEAT, "a floor measurement before each round"
    for name, _title, players in configs:
        row = rows[f"{name}_{players}p_full_games_python"]
        assert row.ns_per_play > 0 and row.extra["games_per_s"] > 0
        assert row.extra["card_ratio"] >= 0.999 * row.ratio > 0     # no more card plays than actions


def test_bench_compares_with_openspiels_full_game_loop():
    """``trickcore bench --compare``: OpenSpiel's Hearts, Skat and Bridge through the full-game
    loop of the game rows, in the same run (open_spiel is a test dependency)."""
    bench = bench_module("engine_bench", "trickcore bench")

    results = bench.compare_openspiel(repeat=1, games=2)
    assert results is not None
    assert [r.name for r in results] == [f"openspiel_{g}_full_games_python" for g, _, _ in bench.OPENSPIEL_GAMES]
    assert all(r.ns_per_play > 0 and r.ratio > 0 for r in results)


def test_unknown_game_is_a_clear_error():
    try:
        trickcore.new_game("skat", 3)
    except trickcore.GameConfigError as exc:
        assert "unknown game 'skat'" in str(exc) and "beim-jupiter" in str(exc)
    else:
        raise AssertionError("no error")
    try:
        trickcore.new_game("reference", 5)
    except trickcore.GameConfigError as exc:
        assert "played by 4 players" in str(exc)
    else:
        raise AssertionError("no error")


def test_an_unbuilt_source_tree_says_how_to_build(tmp_path):
    """Importing trickcore from a checkout whose extension was never built names the fix."""
    import shutil
    import subprocess
    import sys

    shutil.copytree(ROOT / "trickcore", tmp_path / "trickcore",
                    ignore=shutil.ignore_patterns("*.so", "*.pyd", "__pycache__", "*.c"))
    # -S: no site-packages, so no installed or editable trickcore can answer instead of the tree.
    out = subprocess.run([sys.executable, "-S", "-c", "import trickcore"], cwd=tmp_path, capture_output=True,
                         text=True)
    assert out.returncode != 0
    assert "ImportError" in out.stderr and "not built" in out.stderr and "pip install -e ." in out.stderr


def test_games_fits_the_terminal_and_says_what_options_mean():
    shown = CliRunner().invoke(main, ["games"], env={"COLUMNS": "80"})
    assert shown.exit_code == 0, shown.output
    lines = shown.output.splitlines()
    rows = 2 + len(trickcore.list_games())  # the table: header, rule, a row per game
    assert max(len(line) for line in lines[:rows]) <= 88  # its widest title needs about 85 columns
    assert max(len(line) for line in lines[rows:]) <= 80  # the rest is wrapped to the terminal
    assert "reversed: lucky colour, the lowest trump wins" in shown.output  # an option's meaning
    assert "--option verkehrt=true" in " ".join(shown.output.split())  # what a variant name means in a config


def test_bench_leads_with_a_summary_and_fits_the_terminal():
    from trickcore import tables
    from trickcore.cli import bench_summary

    Result = bench_module("engine_bench", "trickcore bench").Result

    results = [Result("floor_c", 20.0, 1.0, "floor"), Result("core_playout_reference_c", 30.0, 1.5, "playout"),
               Result("python_limit", 300.0, 15.0, "limit"),
               Result("natural_loop_reference_python", 420.0, 21.0, "loop"),
               Result("squint_5p_full_games_python", 700.0, 35.0, "full", {"card_ratio": 40.0}),
               Result("hattrick_5p_full_games_python", 500.0, 25.0, "full", {"card_ratio": 26.0})]
    summary = "\n".join(bench_summary(results))
    assert "C random playout: 1.50x the floor" in summary and "1.40x its interpreter limit" in summary
    assert "26-40x the floor per card play (2 games" in summary
    table = tables.render(["name", "what"], [["x", "word " * 40]], width=60)
    assert max(len(line) for line in table.splitlines()) <= 60 and table.count("\n") > 2  # wrapped, not cut
