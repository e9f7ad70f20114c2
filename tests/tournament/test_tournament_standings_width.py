"""The standings the runner prints fit the terminal: at 80 columns (COLUMNS, as a terminal sets it)
the least needed columns are left out, and a line says which; a wider terminal, or a log without
a width, gets every column."""

from __future__ import annotations

from click.testing import CliRunner

from tests.tournament.support import bot_cmd
from tournament.cli import match_command

TITLES = ["#", "bot", "games", "score", "±95%", "rank", "win%", "mu±sigma", "faults", "forfeit", "think ms",
          "runner µs"]
#: tournament.runner.STANDINGS_OPTIONAL, by title: what a narrow terminal leaves out first
LEFT_OUT_FIRST = ["runner µs", "think ms", "forfeit", "rank", "mu±sigma"]


def standings(output: str) -> list[str]:
    lines = output.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("#   bot"))
    end = next(i for i in range(start, len(lines)) if lines[i].startswith(("paired", "4 games played")))
    return lines[start:end]


def test_the_standings_leave_out_columns_on_a_narrow_terminal_only(tmp_path):
    example, random_bot = (" ".join(bot_cmd(script)) for script in ("example_bot.py", "random_bot.py"))
    widths = {}
    for columns in (80, 160, None):
        env = {"COLUMNS": str(columns)} if columns else {}
        done = CliRunner().invoke(match_command, ["toy-tricks", example, random_bot, "--deals", "2",
                                                  "--out", str(tmp_path / str(columns))], env=env)
        assert done.exit_code == 0, done.output
        table = standings(done.stdout)
        widths[columns] = max(map(len, table))
        if columns == 80:
            note = table[-1]
            assert note.startswith("(left out at this width: ") and note.endswith(")")
            left = note[len("(left out at this width: "):-1].split(", ")
            assert left == LEFT_OUT_FIRST[:len(left)], left
            assert table[0].split() == " ".join(t for t in TITLES if t not in left).split()
            assert all(len(line) <= 80 for line in table)
            assert sorted(line.split()[1] for line in table[2:-1]) == ["p1-example_bot", "p2-random_bot"]
        else:
            assert table[0].split() == " ".join(TITLES).split() and "left out" not in table[-1]
    assert widths[80] <= 80 < min(widths[160], widths[None])   # (the timings' digits vary from run to run)
