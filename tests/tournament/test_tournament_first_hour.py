"""What a new user meets first: running a tournament again, and a bot that cannot start."""

from __future__ import annotations

import sys
from pathlib import Path

import tomli_w
from click.testing import CliRunner

from tests.tournament.support import bot_cmd, quick_doc
from tournament.cli import compliance_command, tournament_command
from tournament.results import RESULTS_FILE, read_results

# A bot that dies before its handshake and says why on stderr, as a bot missing a file does.
DYING = ("import sys\n"
         "print('loading my opening book from book.bin', file=sys.stderr)\n"
         "raise FileNotFoundError('book.bin')\n")


def config_file(tmp_path: Path, out: Path) -> Path:
    doc = quick_doc([{"name": "a", "command": bot_cmd("random_bot.py")},
                     {"name": "b", "command": bot_cmd("example_bot.py")}], deals=2)
    doc["tournament"]["output"] = str(out)
    path = tmp_path / "t.toml"
    path.write_text(tomli_w.dumps(doc))
    return path


def test_fresh_moves_the_earlier_run_aside_and_runs_again(tmp_path):
    out = tmp_path / "run"
    config = config_file(tmp_path, out)
    first = CliRunner().invoke(tournament_command, [str(config), "-q", "--no-report"])
    assert first.exit_code == 0, first.output
    # Run again as it was: refused, and the message says what to do.
    again = CliRunner().invoke(tournament_command, [str(config), "-q", "--no-report"])
    assert again.exit_code == 2 and "--resume" in again.output and "--fresh" in again.output
    fresh = CliRunner().invoke(tournament_command, [str(config), "-q", "--no-report", "--fresh"])
    assert fresh.exit_code == 0, fresh.output
    aside = [p for p in tmp_path.iterdir() if p.name.startswith("run.")]
    assert len(aside) == 1 and f"is now in {aside[0]}" in fresh.output
    assert len(read_results(out)) == len(read_results(aside[0])) == 2  # nothing lost, nothing mixed
    twice = CliRunner().invoke(tournament_command, [str(config), "-q", "--no-report", "--fresh"])
    assert twice.exit_code == 0 and len([p for p in tmp_path.iterdir() if p.name.startswith("run.")]) == 2
    both = CliRunner().invoke(tournament_command, [str(config), "--fresh", "--resume"])
    assert both.exit_code == 2 and "choose one" in both.output


def test_a_bot_that_dies_while_starting_shows_its_stderr(tmp_path):
    (tmp_path / "bot").mkdir()
    (tmp_path / "bot").chmod(0o755)
    script = tmp_path / "bot" / "dying.py"
    script.write_text(DYING)
    # compliance: in the terminal
    checked = CliRunner().invoke(compliance_command, ["--game", "toy-tricks", "--", sys.executable, str(script)])
    assert checked.exit_code == 1
    assert "its stderr ended with:" in checked.output and "FileNotFoundError: book.bin" in checked.output
    assert "loading my opening book" in checked.output
    # tournament: in the terminal (the preflight) and, with preflight = "warn", in the record
    doc = quick_doc([{"name": "dying", "command": [sys.executable, str(script)]},
                     {"name": "b", "command": bot_cmd("example_bot.py")}])
    doc["tournament"].update(output=str(tmp_path / "out"), preflight="warn")
    path = tmp_path / "t.toml"
    path.write_text(tomli_w.dumps(doc))
    ran = CliRunner().invoke(tournament_command, [str(path), "-q", "--no-report"])
    assert ran.exit_code == 0, ran.output
    assert "FileNotFoundError: book.bin" in ran.output  # the preflight's warning
    (record,) = read_results(tmp_path / "out")
    (fault,) = record["faults"]
    assert fault["class"] == "handshake" and "FileNotFoundError: book.bin" in fault["detail"]
    assert (tmp_path / "out" / RESULTS_FILE).exists()


def test_check_starts_every_bot_and_reports_every_problem_at_once(tmp_path):
    missing_script = tmp_path / "no_such_bot.py"
    doc = quick_doc([{"name": "gone", "command": [sys.executable, str(missing_script)]},
                     {"name": "typo", "command": bot_cmd("random_bot.py"), "options": {"sede": 3}},
                     {"name": "wrong", "command": bot_cmd("random_bot.py"), "options": {"seed": "three"}},
                     {"name": "absent", "command": [str(tmp_path / "no-such-program")]}], fmt="round-robin")
    path = tmp_path / "t.toml"
    path.write_text(tomli_w.dumps(doc))
    quick = CliRunner().invoke(tournament_command, [str(path), "--check", "--no-preflight"])
    assert quick.exit_code == 0, quick.output  # the file alone is valid
    checked = CliRunner().invoke(tournament_command, [str(path), "--check"])
    assert checked.exit_code == 2
    out = checked.output
    assert "bots[3].command: cannot start" in out  # the program
    assert "bots[1].options.sede: bot 'typo' declares no option 'sede'" in out  # an undeclared option
    assert "bots[2].options.seed:" in out  # a value of the wrong type
    # The missing script: found missing before the interpreter starts, named with its folder.
    assert f"bots[0].command: cannot start {sys.executable!r}: there is no no_such_bot.py in {tmp_path}" in out


def test_compliance_says_which_game_it_chose():
    checked = CliRunner().invoke(compliance_command, ["--games", "1", "--", *bot_cmd("random_bot.py")])
    assert checked.exit_code == 0, checked.output
    assert checked.output.splitlines()[0] == "game: reference (the default; --game to choose another)"


def test_demo_standings_without_demo_configs_is_an_error(tmp_path):
    from tournament.cli import demo_standings_command

    done = CliRunner().invoke(demo_standings_command, ["--configs", str(tmp_path)])
    assert done.exit_code == 2 and "no demo configs (demo*.toml)" in done.output


def test_set_reaches_a_bot_and_its_errors_are_the_command_lines(tmp_path):
    config = config_file(tmp_path, tmp_path / "run")
    shown = CliRunner().invoke(tournament_command, [str(config), "--check", "--no-preflight",
                                                    "--set", 'bots[1].command=["{python}", "{bots}/random_bot.py"]'])
    assert shown.exit_code == 0, shown.output
    assert "random_bot.py" in shown.output.split("[[bots]]")[2]
    bad = CliRunner().invoke(tournament_command, [str(config), "--check", "--set", "time.decision_ms=0"])
    assert bad.exit_code == 2 and "time.decision_ms: must be >= 1, got 0 (set on the command line)" in bad.output
    missing = CliRunner().invoke(tournament_command, [str(config), "--check", "--set", "bots[5].name=x"])
    assert missing.exit_code == 2 and "there is no bots[5] (the config has 2 bots)" in missing.output


def test_the_text_replay_is_a_game_log(tmp_path):
    """Hands at the start, then every action, and who won each trick; the views as JSON only
    with --json."""
    from tournament.cli import replay_command

    out = tmp_path / "run"
    doc = quick_doc([{"name": f"r{i}", "command": bot_cmd("random_bot.py"), "options": {"seed": i}} for i in range(4)],
                    game="reference", players=4)  # a real game: its views show the last trick
    doc["tournament"]["output"] = str(out)
    config = tmp_path / "ref.toml"
    config.write_text(tomli_w.dumps(doc))
    done = CliRunner().invoke(tournament_command, [str(config), "-q", "--no-report"])
    assert done.exit_code == 0, done.output
    record = read_results(out)[0]
    log = CliRunner().invoke(replay_command, [str(out / RESULTS_FILE), "--job", record["job"]])
    assert log.exit_code == 0, log.output
    lines = log.output.splitlines()
    assert lines[1].startswith("seat 0 (") and " holds: " in lines[1]
    assert not [line for line in lines[1:] if "{" in line]  # no JSON view
    tricks = [line for line in lines if line.startswith("      trick: ")]
    assert tricks and all(" won by seat " in line for line in tricks)
    raw = CliRunner().invoke(replay_command, [str(out / RESULTS_FILE), "--job", record["job"], "--json"])
    assert " sees: {" in raw.output
