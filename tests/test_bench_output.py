"""What ``trickcore bench`` prints fits the terminal: at 80 columns each figure's description goes
under its row (a column of it would be a few characters wide and as tall as its text is long); a
wider terminal gets it as a column.  The figures are those of a real quick run of the benchmarks
(their values do not matter here, their names and descriptions do)."""

from __future__ import annotations

import re

import pytest
from click.testing import CliRunner

from trickcore import tables
from trickcore.checkout import bench_module
from trickcore.cli import main


@pytest.fixture(scope="module")
def engine_bench():
    return bench_module("engine_bench", "trickcore bench")


@pytest.fixture(scope="module")
def results(engine_bench):
    """Every benchmark of a quick run, every registered game at every player count included."""
    return engine_bench.run(quick=True, repeat=1, games=True, pin=False)


def descriptions(text: str) -> str:
    return " ".join(text.split())


@pytest.mark.parametrize("width", [64, 80])
def test_at_a_narrow_width_each_description_goes_under_its_row(engine_bench, results, width):
    text = engine_bench.format_results(results, width=width)
    lines = text.splitlines()
    assert max(map(len, lines)) <= width
    assert lines[0].split() == ["benchmark", "ns", "vs", "floor"] and lines[1].strip() == "what"
    rows = [i for i, line in enumerate(lines) if not line.startswith(" ") and i > 2]
    assert [lines[i].split()[0] for i in rows] == [r.name for r in results]
    for here, following in zip(rows, [*rows[1:], len(lines)]):
        result = results[rows.index(here)]
        # the description whole, on its own lines below the row, filled across the width
        under = lines[here + 1:following]
        assert all(line.startswith("  ") for line in under)
        assert descriptions(" ".join(under)).endswith(descriptions(result.what))
        assert len(under) <= 1 + len(" ".join(under)) // (width // 2), under
    # a line for each row and its description's length over the width, not one for each word
    total = sum(len(r.what) for r in results)
    assert len(lines) < 3 + len(results) * 2 + total / (width - 10)


def test_a_wide_terminal_gets_the_description_as_a_column(engine_bench, results):
    narrow = engine_bench.format_results(results, width=80).splitlines()
    wide = engine_bench.format_results(results, width=160).splitlines()
    assert max(map(len, wide)) <= 160 and wide[0].split() == ["benchmark", "ns", "vs", "floor", "what"]
    assert len(wide) < len(narrow)
    first = results[1]
    row = next(line for line in wide if line.startswith(first.name + " "))
    assert descriptions(first.what).split()[0] in row   # the description starts on the row itself


def test_the_bench_command_fits_the_terminal_it_is_given():
    """``trickcore bench`` itself, its table at the terminal's width (COLUMNS, as a terminal sets
    it); the core and binding figures only, to keep it short."""
    for columns in (80, 120):
        done = CliRunner().invoke(main, ["bench", "--quick", "--repeat", "1", "--no-games", "--no-pin"],
                                  env={"COLUMNS": str(columns)})
        assert done.exit_code == 0, done.output
        lines = done.stdout.splitlines()            # (the progress messages go to stderr)
        assert max(map(len, lines)) <= columns      # the summary above the table is wrapped too
        assert lines[0].startswith("summary") and re.search(r"^floor_c +[\d,.]+ +1\.00x", done.stdout, re.M)
        header = next(line for line in lines if line.startswith("benchmark "))
        assert ("what" in header) == (columns == 120)


def test_a_narrow_last_column_stays_in_the_table():
    """Only a column that would be squeezed goes under its row: one that fits stays a column."""
    text = tables.render(["name", "what"], [["x", "word " * 40]], width=60)
    assert text.splitlines()[0].split() == ["name", "what"] and max(map(len, text.splitlines())) <= 60
    assert tables.render(["a", "b"], [["1", "2"]], width=60) == tables.render(["a", "b"], [["1", "2"]])
