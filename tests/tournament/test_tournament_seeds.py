"""Deals no bot can compute (docs/tournament.md, "The seed, and why it is secret").

A bot that knows the engine and holds one hand can try master seeds until one deals it that
hand, and then knows every hand of the tournament.  So: a config without a seed draws a 128-bit
secret kept in the output folder, deal seeds come from the master seed through HMAC-SHA256,
a seed under 64 bits is warned about, and nothing meant for a seat carries a seed.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import os
import stat

import pytest
import tomli_w
from click.testing import CliRunner

from tests.tournament.support import UNSANDBOXED, bot_cmd, mock, quick_doc
from tournament.cli import replay_command, tournament_command
from tournament.config import ConfigError, load_config, parse_config
from tournament.results import MANIFEST_FILE, RESULTS_FILE, SECRET_FILE, ResumeError, read_results
from tournament.runner import run_tournament
from tournament.schedule import build_schedule, deal_seed, master_key, weak_seed_warning
from trickcore.games import new_game, replay

FAST = {"startup_ms": 5000, "ready_ms": 2000, "decision_ms": 2000, "shutdown_ms": 200}
HEX_SEED = "9f3c2a7be1d04c56a8b7e2f4d1c03b9a"  # 128 bits, as token_hex(16) writes them


def doc_with_seed(seed, **kw) -> dict:
    doc = quick_doc([{"name": f"b{i}", "command": bot_cmd("random_bot.py"), "options": {"seed": i}}
                     for i in range(2)], fmt="duplicate", deals=2, time=FAST, **kw)
    if seed is None:
        del doc["tournament"]["seed"]
    else:
        doc["tournament"]["seed"] = seed
    return doc


# ---- the seed key ----------------------------------------------------------------------------

def test_seed_is_an_integer_hex_digits_or_drawn():
    assert parse_config(doc_with_seed(7)).seed == 7
    assert parse_config(doc_with_seed(HEX_SEED.upper())).seed == HEX_SEED  # hex digits, kept lower-case
    assert parse_config(doc_with_seed(None)).seed is None  # no seed: drawn for the run
    assert parse_config(doc_with_seed("drawn")).seed is None  # what the effective config says of that
    assert parse_config(doc_with_seed(None)).effective()["tournament"]["seed"] == "drawn"
    assert parse_config(doc_with_seed(None)).fingerprint() == parse_config(doc_with_seed("drawn")).fingerprint()
    for bad in ("0x1f", "12 34", "", "g" * 8, "f" * 65, "random"):
        with pytest.raises(ConfigError) as info:
            parse_config(doc_with_seed(bad))
        (problem,) = info.value.problems
        assert problem.startswith("tournament.seed: must be an integer, a string of 1 to 64 hex digits")
        assert "secrets.token_hex(16)" in problem
    with pytest.raises(ConfigError, match="tournament.seed: must be an integer, got a float"):
        parse_config(doc_with_seed(1.5))


def test_deal_seeds_are_hmac_sha256_of_the_deal_keyed_with_the_master_seed():
    key = (2024).to_bytes(16, "big")
    assert master_key(2024) == master_key("7e8") == master_key("00007E8") == key
    mac = hmac.new(key, b"trickcore-deal:3", hashlib.sha256).digest()
    assert deal_seed(key, 3) == int.from_bytes(mac[:8], "little")
    secret = bytes(range(16))
    assert master_key(secret.hex()) == secret  # a drawn secret written as 32 hex digits is the same key
    big = master_key("f" * 64)
    assert len(big) == 32 and deal_seed(big, 0) != deal_seed(master_key("f" * 63), 0)
    # A fixed seed reproduces exactly, and the schedule's seeds are these.
    jobs = build_schedule(parse_config(doc_with_seed(HEX_SEED)))
    assert {(j.deal, j.seed) for j in jobs} == {(d, deal_seed(master_key(HEX_SEED), d)) for d in range(2)}


def test_small_seeds_are_warned_about():
    for weak in (0, 2024, 2**63 - 1, "7e8", "0" * 20 + "7e8", "f" * 15):
        warning = weak_seed_warning(weak)
        assert warning is not None and "fewer than 64 bits" in warning
        assert "Omit tournament.seed to draw a secret seed" in warning and "secrets.token_hex(16)" in warning
    for strong in (None, "f" * 16, HEX_SEED):
        assert weak_seed_warning(strong) is None


def test_the_cli_warns_at_start_and_the_check_says_drawn(tmp_path):
    path = tmp_path / "t.toml"
    path.write_text(tomli_w.dumps(doc_with_seed(2024)))
    run = CliRunner().invoke(tournament_command, [str(path), "--out", str(tmp_path / "o"), "-q", "--no-report"])
    assert run.exit_code == 0, run.output
    assert run.output.startswith("warning: tournament.seed = 2024 has fewer than 64 bits")  # before anything else
    check = CliRunner().invoke(tournament_command, [str(path), "--check", "--seed", HEX_SEED])
    assert check.exit_code == 0 and f'seed = "{HEX_SEED}"' in check.output and "warning" not in check.output
    drawn = CliRunner().invoke(tournament_command, [str(path), "--check", "--seed", "drawn"])
    assert drawn.exit_code == 0 and 'seed = "drawn"' in drawn.output and "warning" not in drawn.output
    short = CliRunner().invoke(tournament_command, [str(path), "--check", "--seed", "abc"])
    assert 'warning: tournament.seed = "abc" has fewer than 64 bits' in short.output


# ---- a drawn secret --------------------------------------------------------------------------

def test_a_config_without_seed_draws_a_secret_kept_in_the_run_folder(tmp_path):
    config = parse_config(doc_with_seed(None))
    first = run_tournament(config, tmp_path / "a")
    secret_path = tmp_path / "a" / SECRET_FILE
    secret = secret_path.read_text().strip()
    assert len(secret) == 32 and int(secret, 16) >= 0
    assert stat.S_IMODE(os.stat(secret_path).st_mode) == 0o600  # the organiser's only
    for name in (MANIFEST_FILE, "config.toml"):  # neither the secret nor a number instead of it
        text = (tmp_path / "a" / name).read_text()
        assert secret not in text and str(int(secret, 16)) not in text
    assert 'seed = "drawn"' in (tmp_path / "a" / "config.toml").read_text()
    records = read_results(tmp_path / "a")
    assert {(r["deal"], r["seed"]) for r in records} == {(d, deal_seed(master_key(secret), d)) for d in range(2)}
    # Another run draws another secret, so other deals.
    run_tournament(config, tmp_path / "b")
    assert {r["seed"] for r in read_results(tmp_path / "b")}.isdisjoint({r["seed"] for r in records})
    # The secret written as the seed reproduces the run exactly.
    run_tournament(parse_config(doc_with_seed(secret)), tmp_path / "c")
    assert [(r["job"], r["seed"], r["record"]["history"]) for r in read_results(tmp_path / "c")] == \
        [(r["job"], r["seed"], r["record"]["history"]) for r in records]
    assert first.played == 4


def test_resume_reuses_the_secret_and_refuses_without_it(tmp_path):
    doc = doc_with_seed(None)
    doc["tournament"]["deals"] = 3
    config = parse_config(doc)
    out = tmp_path / "out"
    run_tournament(config, out)
    results = out / RESULTS_FILE
    lines = results.read_text().splitlines(keepends=True)
    results.write_text("".join(lines[:3]))  # as if the runner had been stopped after three games
    resumed = run_tournament(config, out, resume=True)
    assert resumed.resumed == 3 and resumed.played == 3 and len(read_results(out)) == 6
    secret = (out / SECRET_FILE).read_text()
    assert {r["seed"] for r in read_results(out)} == {deal_seed(master_key(secret.strip()), d) for d in range(3)}
    (out / SECRET_FILE).unlink()
    with pytest.raises(ResumeError, match=r"seed.secret is missing: the run drew its master seed when it started"):
        run_tournament(config, out, resume=True)
    (out / SECRET_FILE).write_text("0" * 32 + "\n")  # not the run's own
    with pytest.raises(ResumeError, match="is not the master seed this run was started with"):
        run_tournament(config, out, resume=True)
    (out / SECRET_FILE).write_text(secret)
    assert run_tournament(config, out, resume=True).resumed == 6


# ---- nothing meant for a seat carries a seed ---------------------------------------------------

def seed_forms(*seeds: int) -> list[str]:
    """How a seed could be written: decimal, and hex with and without leading zeros."""
    return [form for s in seeds for form in {str(s), f"{s:x}", f"{s:016x}", f"{s:032x}"}]


def leaked(text: str, forms: list[str]) -> list[str]:
    low = text.lower()
    return [f for f in forms if f in low]


@pytest.mark.parametrize("seed", [HEX_SEED, None], ids=["hex-seed", "drawn"])
def test_no_seat_output_carries_a_seed(tmp_path, seed):
    players = 3
    bots = [{"name": f"rec{i}", "command": mock("--record", str(tmp_path / f"rec{i}.txt"))} for i in range(players)]
    # The recording bots write their logs into the test's folder, which a sandboxed bot cannot.
    doc = {"game": {"name": "beim-jupiter", "players": players}, "time": FAST, "bots": bots,
           "tournament": {"format": "round-robin", "deals": 1, "concurrency": 1}, "sandbox": UNSANDBOXED}
    if seed is not None:
        doc["tournament"]["seed"] = seed
    out = tmp_path / "out"
    run_tournament(parse_config(doc), out, check_bots=False)
    (record,) = read_results(out)
    master = seed or (out / SECRET_FILE).read_text().strip()
    forms = seed_forms(record["seed"], int(master, 16))
    results = str(out / RESULTS_FILE)
    # The organiser's replay names the seed: the search below can find it.
    omniscient = CliRunner().invoke(replay_command, [results])
    assert omniscient.exit_code == 0 and leaked(omniscient.output, forms) == [str(record["seed"])]
    for seat in range(players):
        # What the bot was sent over the protocol, every line of it.
        assert leaked((tmp_path / f"{record['bots'][seat]}.txt").read_text(), forms) == []
        text = CliRunner().invoke(replay_command, [results, "--seat", str(seat), "--json"])
        assert text.exit_code == 0, text.output
        assert "  view: " in text.output and leaked(text.output, forms) == []
        log = CliRunner().invoke(replay_command, [results, "--seat", str(seat)])
        assert "  hand: " in log.output and leaked(log.output, forms) == []
        page = tmp_path / f"seat{seat}.html"
        made = CliRunner().invoke(replay_command, [results, "--seat", str(seat), "--html", str(page)])
        assert made.exit_code == 0, made.output
        assert leaked(page.read_text(encoding="utf-8"), forms) == []
    organiser = tmp_path / "all.html"
    CliRunner().invoke(replay_command, [results, "--html", str(organiser)])
    assert str(record["seed"]) in organiser.read_text(encoding="utf-8")


# ---- the cheating bot author ------------------------------------------------------------------

GAME, PLAYERS = "reference", 4


def crack(view: dict, seat: int, limit: int = 5000, deals: int = 4) -> tuple[int, int] | None:
    """What a bot's author can do with the public engine and the view of one hand: try every
    master seed up to ``limit`` (and the first ``deals`` deals of each) until one deals that
    view to the seat; return (master seed, deal) or None."""
    for master in range(limit + 1):
        key = master_key(master)
        for deal in range(deals):
            if new_game(GAME, PLAYERS, seed=deal_seed(key, deal)).observation(seat) == view:
                return master, deal
    return None


def reference_run(tmp_path, seed) -> list[dict]:
    bots = [{"name": f"r{i}", "command": bot_cmd("random_bot.py"), "options": {"seed": i}} for i in range(PLAYERS)]
    doc = {"game": {"name": GAME, "players": PLAYERS}, "time": FAST, "bots": bots,
           "tournament": {"format": "round-robin", "deals": 3, "concurrency": 1}}
    if seed is not None:
        doc["tournament"]["seed"] = seed
    run_tournament(parse_config(doc), tmp_path / "out", check_bots=False)
    return read_results(tmp_path / "out")


def first_view(record: dict, seat: int) -> dict:
    """What the seat's bot sees before anyone moves: its hand, and the rest of its view."""
    return replay({**record["record"], "history": []}).observation(seat)


def test_a_small_master_seed_is_found_from_one_hand_and_gives_away_every_hand(tmp_path):
    records = reference_run(tmp_path, 2024)
    mine = records[-1]  # the bot sits at seat 2 of the last deal
    assert crack(first_view(mine, 2), 2) == (2024, mine["deal"])
    key = master_key(2024)
    for record in records:  # ... and from there every hand of every deal
        game = new_game(GAME, PLAYERS, seed=deal_seed(key, record["deal"]))
        assert [game.observation(s) for s in range(PLAYERS)] == \
            [first_view(record, s) for s in range(PLAYERS)]


def test_a_drawn_master_seed_is_not_found(tmp_path):
    records = reference_run(tmp_path, None)
    assert crack(first_view(records[-1], 2), 2) is None
    assert json.loads((tmp_path / "out" / MANIFEST_FILE).read_text())["config"]["tournament"]["seed"] == "drawn"


def test_load_config_keeps_a_hex_seed(tmp_path):
    path = tmp_path / "t.toml"
    path.write_text(tomli_w.dumps(doc_with_seed(HEX_SEED)))
    assert load_config(path).seed == HEX_SEED
    assert load_config(path, {"tournament.seed": "drawn"}).seed is None
