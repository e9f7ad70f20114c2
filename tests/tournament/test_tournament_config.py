"""Config validation: every error names its key and says what is wrong."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
import tomli_w

from tests.tournament.support import ROOT, bot_cmd, quick_doc
from tournament.config import ConfigError, dump_effective, load_config, parse_config
from trickcore.game import GameConfigError
from trickcore.games import get_game

if sys.version_info >= (3, 11):
    import tomllib
else:  # Python 3.10: the same parser, as a package
    import tomli as tomllib

R = {"name": "r", "command": bot_cmd("random_bot.py")}


def bots(n: int) -> list[dict]:
    return [{"name": f"b{i}", "command": bot_cmd("random_bot.py")} for i in range(n)]


def problems(doc: dict) -> list[str]:
    with pytest.raises(ConfigError) as info:
        parse_config(doc)
    return info.value.problems


def test_valid_config_fills_defaults():
    cfg = parse_config(quick_doc(bots(2)))
    assert cfg.game == "toy-tricks" and cfg.players == 2
    assert cfg.game_options == {"bids": True}  # resolved by the game
    assert cfg.failures["crash"].action == "forfeit"
    assert cfg.failures["timeout"].forfeit_after == 3
    assert cfg.bots[0].command[0].endswith("python") or "python" in cfg.bots[0].command[0]


def test_unknown_game_uses_registry_error():
    with pytest.raises(GameConfigError) as registry:
        get_game("no-such-game")
    assert problems(quick_doc(bots(2), game="no-such-game")) == [f"game.name: {registry.value}"]


def test_bad_player_count():
    (p,) = problems(quick_doc(bots(5), players=5))
    assert p.startswith("game.players: game 'toy-tricks' is played by 2-4 players, not 5")


def test_bad_game_option():
    doc = quick_doc(bots(2))
    doc["game"]["options"] = {"bids": "yes"}
    assert problems(doc) == ["game.options.bids: option 'bids' must be true or false, got 'yes'"]
    doc["game"]["options"] = {"colour": 1}
    assert problems(doc) == ["game.options.colour: game 'toy-tricks' has no option 'colour'; options are: bids"]
    # Every bad option at once, each under its key, with a close name offered (as for the config's keys).
    doc["game"]["options"] = {"bid": True, "colour": 1}
    assert problems(doc) == ["game.options.bid: game 'toy-tricks' has no option 'bid' (did you mean 'bids'?)",
                             "game.options.colour: game 'toy-tricks' has no option 'colour'; options are: bids"]


def test_too_many_bots_for_duplicate():
    (p,) = problems(quick_doc(bots(3), fmt="duplicate"))
    assert p.startswith("bots: format 'duplicate' seats every bot at every table, so it needs exactly 2 bots")
    assert "got 3 (too many" in p


def test_too_few_bots():
    assert "got 1 (too few" in problems(quick_doc(bots(1), fmt="duplicate"))[0]
    assert problems(quick_doc(bots(2), players=3)) == [
        "bots: format 'round-robin' needs at least 3 bots for 3 seats; got 2 (too few)"]
    assert problems(quick_doc(bots(2), players=3, fmt="gauntlet"))[0].startswith(
        "bots: format 'gauntlet' needs the candidate and at least 2 field bots")


def test_missing_bots_and_command():
    doc = quick_doc(bots(2))
    del doc["bots"]
    assert problems(doc) == ["bots: missing: define each bot in a [[bots]] table with name and command"]
    doc = quick_doc([{"name": "a"}, {"name": "b", "command": bot_cmd("random_bot.py")}])
    (p,) = problems(doc)
    assert p.startswith("bots[0].command: missing (an array of strings: the program and its arguments")


def test_bad_types_name_the_key():
    doc = quick_doc([{"name": "a", "command": "python bot.py"}, {"name": "b", "command": [1, 2]}])
    doc["tournament"]["deals"] = "3"
    doc["time"]["decision_ms"] = "fast"
    doc["tournament"]["auto_play_forced"] = 1
    got = problems(doc)
    assert "tournament.deals: must be an integer, got a string '3'" in got
    assert "time.decision_ms: must be a number, got a string 'fast'" in got
    assert "tournament.auto_play_forced: must be true or false, got an integer 1" in got
    assert ("bots[0].command: must be a non-empty array of strings (the program and its arguments), "
            "got 'python bot.py'") in got
    assert "bots[1].command: must be a non-empty array of strings (the program and its arguments), got [1, 2]" in got


def test_ranges_and_choices():
    doc = quick_doc(bots(2))
    doc["tournament"].update(deals=0, format="swiss", seed=-1)
    doc["failures"] = {"crash": {"action": "ignore", "disqualify_after": -2}}
    got = problems(doc)
    assert "tournament.deals: must be >= 1, got 0" in got
    assert "tournament.format: must be one of round-robin, duplicate, gauntlet, paired, got 'swiss'" in got
    assert "tournament.seed: must be >= 0, got -1" in got
    assert "failures.crash.action: must be one of substitute, forfeit, got 'ignore'" in got
    assert "failures.crash.disqualify_after: must be >= 0, got -2" in got


def test_unknown_keys_with_hints():
    doc = quick_doc(bots(2))
    doc["tournament"]["deal"] = 3
    doc["time"]["decision"] = 5
    doc["failures"] = {"timeouts": {}}
    doc["bots"][0]["comand"] = ["x"]
    got = problems(doc)
    assert "tournament.deal: unknown key (did you mean 'deals'?)" in got
    assert "time.decision: unknown key (did you mean 'decision_ms'?)" in got
    assert "failures.timeouts: unknown key (did you mean 'timeout'?)" in got
    assert "bots[0].comand: unknown key (did you mean 'command'?)" in got


def test_duplicate_names_and_bad_candidate():
    doc = quick_doc([R, dict(R)])
    assert problems(doc)[0].startswith("bots[1].name: 'r' is already the name of bots[0]; bot names must be unique")
    doc = quick_doc(bots(3), fmt="gauntlet")
    doc["tournament"]["candidate"] = "zz"
    assert problems(doc) == ["tournament.candidate: 'zz' is not the name of a bot; bots are b0, b1, b2"]
    doc = quick_doc(bots(2))
    doc["tournament"]["candidate"] = "b0"
    assert problems(doc) == ["tournament.candidate: only used with format 'gauntlet' (format is 'round-robin')"]


def test_bot_cwd_env_options_types(tmp_path):
    doc = quick_doc([{"name": "a", "command": ["x"], "cwd": str(tmp_path / "nope"), "env": {"N": 3},
                      "options": {"depth": [1]}}, R])
    got = problems(doc)
    assert f"bots[0].cwd: {str(tmp_path / 'nope')!r} is not a directory" in got
    assert "bots[0].env.N: must be a string, got an integer 3" in got
    assert "bots[0].options.depth: must be a string, number or boolean, got an array" in got


def test_all_problems_reported_together():
    doc = quick_doc(bots(2))
    doc["tournament"]["deals"] = "x"
    doc["time"]["startup_ms"] = -5
    exc = pytest.raises(ConfigError, parse_config, doc).value
    assert len(exc.problems) == 2
    assert "2 problems" in str(exc)


def test_file_errors(tmp_path):
    with pytest.raises(ConfigError, match="file not found"):
        load_config(tmp_path / "missing.toml")
    bad = tmp_path / "bad.toml"
    bad.write_text("[game\nname = 1")
    with pytest.raises(ConfigError, match="not valid TOML"):
        load_config(bad)


def test_overrides_and_effective_roundtrip(tmp_path):
    path = tmp_path / "t.toml"
    path.write_text(tomli_w.dumps(quick_doc(bots(2))))
    cfg = load_config(path, {"tournament.deals": 4, "time.decision_ms": 250})
    assert cfg.deals == 4 and cfg.time.decision_ms == 250
    dump_effective(cfg, tmp_path / "eff.toml")
    again = parse_config(tomllib.loads((tmp_path / "eff.toml").read_text()))
    assert again.effective() == cfg.effective()
    assert again.fingerprint() == cfg.fingerprint()
    # Where results go and how many tables run do not change results: same fingerprint.
    assert load_config(path, {"tournament.concurrency": 7, "tournament.output": "elsewhere"}).fingerprint() == \
        load_config(path).fingerprint()
    assert load_config(path, {"tournament.seed": 99}).fingerprint() != load_config(path).fingerprint()


CONFIGS = sorted((ROOT / "configs").glob("*.toml"))


@pytest.mark.parametrize("path", CONFIGS, ids=[p.name for p in CONFIGS])
def test_shipped_configs_validate(path: Path):
    doc = tomllib.loads(path.read_text())
    game = doc.get("game", {}).get("name")
    try:
        get_game(game)
    except GameConfigError:
        pytest.skip(f"game {game!r} is not registered yet (being written in parallel)")
    cfg = load_config(path)
    assert cfg.bots
    for bot in cfg.bots:
        assert Path(bot.command[1]).exists() or not bot.command[1].endswith(".py"), bot.command


def test_configs_exist():
    assert any(p.name == "demo.toml" for p in CONFIGS)


def test_cpu_affinity_is_checked_and_may_change_on_resume():
    doc = quick_doc(bots(2))
    doc["tournament"]["cpu_affinity"] = "core"
    assert problems(doc) == ["tournament.cpu_affinity: must be one of none, table, got 'core'"]
    doc["tournament"]["cpu_affinity"] = "table"
    pinned = parse_config(doc)
    assert pinned.cpu_affinity == "table" and pinned.effective()["tournament"]["cpu_affinity"] == "table"
    assert pinned.fingerprint() == parse_config(quick_doc(bots(2))).fingerprint()  # results do not depend on it


def test_workers_is_checked_and_may_change_on_resume():
    doc = quick_doc(bots(2))
    doc["tournament"]["workers"] = "fibers"
    assert problems(doc) == ["tournament.workers: must be one of auto, threads, processes, got 'fibers'"]
    doc["tournament"]["workers"] = "threads"
    assert parse_config(doc).fingerprint() == parse_config(quick_doc(bots(2))).fingerprint()
