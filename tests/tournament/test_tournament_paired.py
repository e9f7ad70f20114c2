"""The paired format: candidate A against candidate B, each deal played with either in the same
seats against the same fillers -- its config, its schedule, real runs, resume and the margin."""

from __future__ import annotations

import collections
import json
import math
import statistics

import pytest
import tomli_w
from click.testing import CliRunner

from tests.tournament.support import bot_cmd, mock, quick_doc
from tournament.cli import margin_command, match_command, tournament_command
from tournament.config import ConfigError, load_config, parse_config
from tournament.paired import paired_margin
from tournament.ratings import t95
from tournament.results import comparable, read_results
from tournament.runner import run_tournament
from tournament.schedule import (
    PAIRED_BLOCK_DEALS,
    build_schedule,
    paired_pair_number,
    paired_seatings,
    schedule_of_effective,
)
from trickcore.games import get_game

FAST = {"startup_ms": 10000, "ready_ms": 5000, "decision_ms": 5000, "shutdown_ms": 200}


def bot(name: str, script: str = "random_bot.py", seed: int | None = None) -> dict:
    entry: dict = {"name": name, "command": bot_cmd(script)}
    if seed is not None:
        entry["options"] = {"seed": seed}
    return entry


def paired_doc(bots: list[dict], candidates, game: str = "toy-tricks", players: int = 2, deals: int = 1) -> dict:
    doc = quick_doc(bots, game=game, players=players, fmt="paired", deals=deals, time=FAST)
    doc["tournament"]["candidates"] = candidates
    return doc


def problems(doc: dict) -> list[str]:
    with pytest.raises(ConfigError) as info:
        parse_config(doc)
    return info.value.problems


# ---- the config -------------------------------------------------------------------------------

def test_default_fillers_are_the_bundled_heuristic_bot():
    config = parse_config(paired_doc([bot("new"), bot("old")], ["new", "old"], players=4))
    assert config.candidates == (("new",), ("old",))
    assert config.fillers == ("filler-1", "filler-2", "filler-3")
    for number, name in enumerate(config.fillers, 1):
        filler = config.bot(name)
        assert filler.command[-1].endswith("tournament/bots/heuristic_bot.py")
        assert filler.options_dict() == {"seed": number}
    effective = config.effective()
    assert effective["tournament"]["candidates"] == ["new", "old"]
    # The effective config names the fillers, with placeholders, so that it reads back the same.
    assert effective["bots"][2] == {"name": "filler-1", "command": ["{python}", "{bots}/heuristic_bot.py"],
                                    "options": {"seed": 1}}
    again = parse_config(json.loads(json.dumps(effective)))
    assert again.fingerprint() == config.fingerprint() and again.fillers == config.fillers


def test_named_fillers_hold_the_other_seats_in_their_order():
    bots = [bot("f1", seed=1), bot("new"), bot("f2", seed=2), bot("old"), bot("f3", seed=3)]
    config = parse_config(paired_doc(bots, ["new", "old"], players=4))
    assert config.fillers == ("f1", "f2", "f3")
    assert build_schedule(config)[0].bots == ("new", "f1", "f2", "f3")


def test_candidates_errors():
    two = [bot("new"), bot("old")]
    assert problems(paired_doc(two, None)) == [
        'tournament.candidates: missing (format \'paired\' compares candidate A with candidate B, e.g. '
        'candidates = ["new", "old"])']
    assert problems(paired_doc(two, "new")) == [
        'tournament.candidates: must be an array of two candidates, A and B (e.g. ["new", "old"]), got a string']
    assert problems(paired_doc(two, ["new"])) == [
        'tournament.candidates: must be an array of two candidates, A and B (e.g. ["new", "old"]), got 1 entry']
    assert problems(paired_doc(two, ["new", "olt"])) == [
        "tournament.candidates[1]: 'olt' is not the name of a bot; bots are new, old"]
    assert problems(paired_doc(two, ["new", "new"])) == [
        "tournament.candidates[1]: 'new' is already candidate A; each seat of a candidate is a bot of its own (to "
        "seat one program twice, define it twice with two names)"]
    assert problems(paired_doc(two, ["new", 3])) == [
        "tournament.candidates[1]: must be the name of a bot, got an integer 3"]
    assert problems(paired_doc(two, ["new", ["old", "new"]])) == [
        "tournament.candidates[1]: must be the name of one bot, got 2 names"]
    doc = quick_doc(two, fmt="round-robin")
    doc["tournament"]["candidates"] = ["new", "old"]
    assert problems(doc) == ["tournament.candidates: only used with format 'paired' (format is 'round-robin')"]
    doc = paired_doc(two, ["new", "old"])
    doc["tournament"]["candidate"] = "new"
    assert problems(doc) == ["tournament.candidate: only used with format 'gauntlet' (format is 'paired')"]


def test_filler_count_must_fit_the_seats():
    assert problems(paired_doc([bot("new"), bot("old"), bot("f1")], ["new", "old"], players=4)) == [
        "bots: format 'paired' seats candidate A or B in 1 seat and a filler in each of the other 3, so it needs "
        "exactly 3 bots besides the candidates; got 1 (too few; leave out every bot but the candidates to fill "
        "those seats with the bundled heuristic bot)"]
    three = [bot("new"), bot("old"), bot("f1"), bot("f2")]
    assert problems(paired_doc(three, ["new", "old"])) == [
        "bots: format 'paired' seats candidate A or B in 1 seat and a filler in each of the other 1, so it needs "
        "exactly 1 bots besides the candidates; got 2 (too many; leave out every bot but the candidates to fill "
        "those seats with the bundled heuristic bot)"]


def test_a_candidate_holds_a_whole_partnership():
    two = [bot("new"), bot("old")]
    expected = ("toy-partners with 4 players is played in partnerships of 2 seats, and a candidate holds a whole "
                'partnership: name 2 bots, one per seat (e.g. [["new-1", "new-2"], ["old-1", "old-2"]]; define the '
                "program once per seat, each under its own name: a process per seat), got 1 name")
    assert problems(paired_doc(two, ["new", "old"], game="toy-partners", players=4)) == [
        f"tournament.candidates[0]: {expected}", f"tournament.candidates[1]: {expected}"]
    four = [bot("new-1"), bot("new-2"), bot("old-1"), bot("old-2")]
    assert problems(paired_doc(four, [["new-1", "new-2"], ["old-1", "new-1"]], game="toy-partners", players=4)) == [
        "tournament.candidates[1]: 'new-1' is already a seat of candidate A; each seat of a candidate is a bot of "
        "its own (to seat one program twice, define it twice with two names)"]
    config = parse_config(paired_doc(four, [["new-1", "new-2"], ["old-1", "old-2"]], game="toy-partners",
                                     players=4))
    assert config.candidates == (("new-1", "new-2"), ("old-1", "old-2"))
    assert config.fillers == ("filler-1", "filler-2")  # the other partnership
    assert config.effective()["tournament"]["candidates"] == [["new-1", "new-2"], ["old-1", "old-2"]]


def test_a_candidate_named_like_a_default_filler_keeps_its_name():
    config = parse_config(paired_doc([bot("filler-1"), bot("old")], ["filler-1", "old"], players=3))
    assert config.fillers == ("filler-2", "filler-3")


# ---- the schedule -----------------------------------------------------------------------------

def check_paired_schedule(config) -> None:
    """Every deal and seating once with A (table 0) and once with B (table 1), in the same seats, the
    same fillers in every other seat; the candidate in every seat equally often; B's games, which
    complete the pairs, in pair order; and the schedule rebuilt from the effective config is the same."""
    jobs = build_schedule(config)
    seatings = paired_seatings(config)
    assert len(jobs) == 2 * config.deals * len(seatings)
    assert len({job.job_id for job in jobs}) == len(jobs)
    a, b = config.candidates
    games: dict[tuple[int, int], dict[int, object]] = collections.defaultdict(dict)
    for job in jobs:
        assert job.table not in games[(job.deal, job.seating)]
        games[(job.deal, job.seating)][job.table] = job
    assert set(games) == {(d, s) for d in range(config.deals) for s in range(len(seatings))}
    seats_held = collections.Counter()
    for pair in games.values():
        job_a, job_b = pair[0], pair[1]
        assert job_a.seed == job_b.seed
        a_seats = [seat for seat, name in enumerate(job_a.bots) if name in a]
        assert [seat for seat, name in enumerate(job_b.bots) if name in b] == a_seats
        assert len(a_seats) == len(a)
        for seat, (name_a, name_b) in enumerate(zip(job_a.bots, job_b.bots)):
            if seat in a_seats:
                assert a.index(name_a) == b.index(name_b)  # partner k of A sits where partner k of B does
            else:
                assert name_a == name_b and name_a in config.fillers
        seats_held.update(a_seats)
        assert job_a.index < job_b.index
    # The candidate sits in every seat equally often.
    assert set(seats_held) == set(range(config.players))
    assert set(seats_held.values()) == {config.deals * len(seatings) * len(a) // config.players}
    b_games = [job for job in jobs if job.table == 1]
    assert [paired_pair_number(j.deal, j.seating, config.deals, len(seatings)) for j in b_games] == \
        list(range(len(b_games)))
    assert schedule_of_effective(json.loads(json.dumps(config.effective())), None) == jobs


GAMES = [(name, players) for name in ("beim-jupiter", "sticheln", "hattrick", "squint", "klaberjass")
         for players in sorted(get_game(name).players)]


@pytest.mark.parametrize("game,players", GAMES, ids=[f"{g}-{p}p" for g, p in GAMES])
def test_schedule_of_every_game_and_player_count(game, players):
    info = get_game(game)
    teams = info.teams(players) if info.teams is not None else None
    held = len(teams[0]) if teams else 1
    bots = [bot(f"{side}-{k}") for side in ("new", "old") for k in range(1, held + 1)]
    candidates = [[f"{side}-{k}" for k in range(1, held + 1)] for side in ("new", "old")]
    config = parse_config(paired_doc(bots, candidates, game=game, players=players, deals=3))
    assert len(config.fillers) == players - held
    check_paired_schedule(config)
    assert len(paired_seatings(config)) == (4 if teams else players)


def test_schedule_blocks_of_deals_a_then_b():
    config = parse_config(paired_doc([bot("new"), bot("old")], ["new", "old"], players=3,
                                     deals=PAIRED_BLOCK_DEALS + 3))
    check_paired_schedule(config)
    jobs = build_schedule(config)
    first_seating = [(job.table, job.deal) for job in jobs if job.seating == 0]
    block = list(range(PAIRED_BLOCK_DEALS))
    rest = list(range(PAIRED_BLOCK_DEALS, PAIRED_BLOCK_DEALS + 3))
    assert first_seating == [(0, d) for d in block] + [(1, d) for d in block] + [(0, d) for d in rest] + \
        [(1, d) for d in rest]


def test_partnership_schedule_seats_the_candidates_partnership_together():
    four = [bot("new-1"), bot("new-2"), bot("old-1"), bot("old-2")]
    config = parse_config(paired_doc(four, [["new-1", "new-2"], ["old-1", "old-2"]], game="toy-partners",
                                     players=4, deals=2))
    check_paired_schedule(config)
    for job in build_schedule(config):
        side = ("new-1", "new-2") if job.table == 0 else ("old-1", "old-2")
        seats = sorted(job.bots.index(name) for name in side)
        assert seats in ([0, 2], [1, 3])


# ---- real runs --------------------------------------------------------------------------------

def heuristic_vs_random(game: str, players: int, deals: int) -> dict:
    """The bundled heuristic bot (A) against the bundled random bot (B), default fillers."""
    info = get_game(game)
    teams = info.teams(players) if info.teams is not None else None
    held = len(teams[0]) if teams else 1
    bots = [bot(f"heuristic-{k}", "heuristic_bot.py", seed=k) for k in range(1, held + 1)] + \
        [bot(f"random-{k}", "random_bot.py", seed=k) for k in range(1, held + 1)]
    candidates = [[b["name"] for b in bots[:held]], [b["name"] for b in bots[held:]]]
    doc = paired_doc(bots, candidates if held > 1 else [c[0] for c in candidates], game=game, players=players,
                     deals=deals)
    doc["tournament"]["concurrency"] = 2
    return doc


def check_pairs_file(out, config) -> list[dict]:
    """pairs.json holds one row per scheduled pair, in pair order, each the difference of the
    candidates' scores in its two recorded games."""
    pairs = json.loads((out / "pairs.json").read_text())
    assert pairs["format"] == "trickcore-pairs/1"
    assert pairs["candidates"] == {"a": list(config.candidates[0]), "b": list(config.candidates[1])}
    records = {r["job"]: r for r in read_results(out)}
    rows = pairs["pairs"]
    assert pairs["scheduled"] == len(rows) == config.deals * len(paired_seatings(config))
    assert [row["pair"] for row in rows] == list(range(len(rows)))
    for row in rows:
        a_rec, b_rec = records[row["a_job"]], records[row["b_job"]]
        assert (a_rec["table"], b_rec["table"]) == (0, 1)
        assert a_rec["deal"] == b_rec["deal"] == row["deal"] and a_rec["seating"] == b_rec["seating"] == row["seating"]
        assert a_rec["record"]["seed"] == b_rec["record"]["seed"] == row["seed"]
        a_score = statistics.fmean(a_rec["result"]["scores"][s] for s in row["seats"])
        b_score = statistics.fmean(b_rec["result"]["scores"][s] for s in row["seats"])
        assert (row["a_score"], row["b_score"]) == (a_score, b_score)
        assert row["margin"] == a_score - b_score
        assert {a_rec["bots"][s] for s in row["seats"]} == set(config.candidates[0])
        assert {b_rec["bots"][s] for s in row["seats"]} == set(config.candidates[1])
    return rows


def test_real_run_klaberjass_partnerships(tmp_path):
    config = parse_config(heuristic_vs_random("klaberjass", 4, deals=1))
    summary = run_tournament(config, tmp_path / "out")
    assert summary.played == summary.total == 8 and not summary.errors
    rows = check_pairs_file(tmp_path / "out", config)
    for row in rows:  # the candidate's partnership sits opposite itself
        assert row["seats"] in ([0, 2], [1, 3])
    assert summary.paired is not None and summary.paired.pairs == 4 and summary.paired.deals == 1
    assert summary.paired.mean == statistics.fmean(row["margin"] for row in rows)
    assert summary.paired.ci95 is None  # one deal: no interval
    summary_file = json.loads((tmp_path / "out" / "summary.json").read_text())
    assert summary_file["paired_margin"]["a"] == "heuristic-1 + heuristic-2"


def test_real_run_beim_jupiter_and_margin_command(tmp_path):
    config = parse_config(heuristic_vs_random("beim-jupiter", 3, deals=3))
    out = tmp_path / "out"
    summary = run_tournament(config, out)
    assert summary.played == summary.total == 18 and not summary.errors
    rows = check_pairs_file(out, config)
    by_deal = collections.defaultdict(list)
    for row in rows:
        by_deal[row["deal"]].append(row["margin"])
    means = [statistics.fmean(v) for v in by_deal.values()]
    half = t95(2) * statistics.stdev(means) / math.sqrt(3)
    m = summary.paired
    assert m is not None and (m.a, m.b, m.deals, m.pairs) == ("heuristic-1", "random-1", 3, 9)
    assert m.mean == pytest.approx(statistics.fmean(means)) and m.ci95 == pytest.approx(half)
    shown = f"heuristic-1 - random-1: {m.mean:+.2f} ± {m.ci95:.2f} (95%) per game, paired over 3 deals (9 pairs)"
    for args in ([], ["heuristic-1"], ["heuristic-1", "random-1"]):
        done = CliRunner().invoke(margin_command, [str(out), *args])
        assert done.exit_code == 0 and done.output.startswith(shown), done.output
    reverse = CliRunner().invoke(margin_command, [str(out), "random-1", "heuristic-1"])
    assert reverse.output.startswith(f"random-1 - heuristic-1: {-m.mean:+.2f} ± {m.ci95:.2f} (95%)")
    # Another bot's margin is the per-deal one of deals.json, at its own table(s).
    filler = CliRunner().invoke(margin_command, [str(out), "filler-1"])
    assert filler.exit_code == 0 and "filler-1: " in filler.output and "above the mean of the others" in filler.output


def test_resume_of_an_interrupted_paired_run_gives_the_same_pairs(tmp_path):
    doc = heuristic_vs_random("sticheln", 3, deals=2)
    doc["tournament"]["name"] = "paired-resume"  # as the config file read on --resume names it
    config = parse_config(doc)
    whole = run_tournament(config, tmp_path / "whole")

    def stop_after_five(done: int, total: int, record: dict, note: str) -> None:
        if done >= 5:
            raise KeyboardInterrupt

    out = tmp_path / "cut"
    cut = run_tournament(config, out, progress=stop_after_five)
    assert cut.interrupted and cut.played < whole.total
    partial = json.loads((out / "pairs.json").read_text())["pairs"]
    assert len(partial) < len(json.loads((tmp_path / "whole" / "pairs.json").read_text())["pairs"])
    (tmp_path / "t.toml").write_text(tomli_w.dumps(doc))
    resumed = CliRunner().invoke(tournament_command, [str(tmp_path / "t.toml"), "--out", str(out), "--resume",
                                                      "--no-report", "--no-preflight"])
    assert resumed.exit_code == 0, resumed.output
    assert "already recorded" in resumed.output and "paired: heuristic-1 - random-1: " in resumed.output
    assert (out / "pairs.json").read_text() == (tmp_path / "whole" / "pairs.json").read_text()
    assert {r["job"]: comparable(r) for r in read_results(out)} == \
        {r["job"]: comparable(r) for r in read_results(tmp_path / "whole")}


def test_a_forfeit_counts_in_its_pair_and_a_disqualified_candidate_leaves_pairs_open(tmp_path):
    """A crashes in its first game (a forfeit: the game's lowest score) and is disqualified: its
    later games are skipped, and only the pair whose two games were played has a row."""
    bots = [{"name": "new", "command": mock("--crash", "--at", "1")}, bot("old", seed=1), bot("filler", seed=2)]
    doc = paired_doc(bots, ["new", "old"], deals=2)
    doc["failures"] = {"crash": {"disqualify_after": 1}}
    config = parse_config(doc)
    summary = run_tournament(config, tmp_path / "out")
    assert summary.disqualified == {"new": "1 crash faults (failures.crash.disqualify_after = 1)"}
    records = {r["job"]: r for r in read_results(tmp_path / "out")}
    first = records["t0-d0-s0"]
    assert first["status"] == "played" and first["forfeited"] == [0]
    assert {job for job, r in records.items() if r["status"] == "skipped"} == {"t0-d1-s0", "t0-d0-s1", "t0-d1-s1"}
    pairs = json.loads((tmp_path / "out" / "pairs.json").read_text())
    assert pairs["scheduled"] == 4 and [row["pair"] for row in pairs["pairs"]] == [0]
    (row,) = pairs["pairs"]
    assert row["a_score"] == first["result"]["scores"][0] == min(first["result"]["scores"])
    assert row["b_score"] == records["t1-d0-s0"]["result"]["scores"][0]
    assert summary.paired is not None and summary.paired.pairs == 1


def test_cli_match_paired(tmp_path):
    heuristic, random_bot = (" ".join(bot_cmd(script)) for script in ("heuristic_bot.py", "random_bot.py"))
    done = CliRunner().invoke(match_command, ["toy-partners", heuristic, random_bot, "--format", "paired", "-p", "4",
                                              "--deals", "2", "--out", str(tmp_path / "m")])
    assert done.exit_code == 0, done.output
    assert "16 games played" in done.output
    assert "paired: a-heuristic_bot-1 + a-heuristic_bot-2 - b-random_bot-1 + b-random_bot-2: " in done.output
    config = load_config(tmp_path / "m" / "config.toml")
    assert config.candidates == (("a-heuristic_bot-1", "a-heuristic_bot-2"), ("b-random_bot-1", "b-random_bot-2"))
    three = CliRunner().invoke(match_command, ["toy-tricks", heuristic, random_bot, random_bot, "--format", "paired"])
    assert three.exit_code == 2
    assert "a paired match compares two bots, A and B: give exactly two commands (got 3)" in three.output


def test_cli_match_sends_each_bot_its_own_options(tmp_path):
    """-o WHO.NAME=VALUE: the option goes to the bot WHO names, and only to it, as setoption.  The
    mock bot records what it is sent into the test's folder, which a sandbox would hide: no sandbox
    here (the sandbox does not touch the protocol, test_fair_play.py tests it)."""
    logs = [tmp_path / "first.log", tmp_path / "second.log"]
    commands = [" ".join(mock("--options", "--record", str(log))) for log in logs]
    done = CliRunner().invoke(match_command, ["toy-tricks", *commands, "--sandbox", "none", "--out",
                                              str(tmp_path / "m"), "-o", "1.depth=7", "-o", "each.style=wild",
                                              "--bot-option", "2.label=two words"])
    assert done.exit_code == 0, done.output
    first, second = (log.read_text().splitlines() for log in logs)
    assert {"setoption depth 7", "setoption style wild"} <= set(first)
    assert {"setoption style wild", "setoption label two words"} <= set(second)
    assert "setoption label two words" not in first and "setoption depth 7" not in second
    # a paired match names its candidates a and b
    paired = CliRunner().invoke(match_command, ["toy-tricks", *commands, "--format", "paired", "--sandbox", "none",
                                                "--out", str(tmp_path / "p"), "-o", "b.depth=2"])
    assert paired.exit_code == 0, paired.output
    assert "setoption depth 2" in logs[1].read_text() and "setoption depth 2" not in logs[0].read_text()


def test_cli_match_refuses_an_option_for_no_bot_or_one_the_bot_does_not_declare(tmp_path):
    random_bot = " ".join(bot_cmd("random_bot.py"))
    for given, message in (("3.seed=1", "no command '3'; WHO is 1 to 2 or each"),
                           ("a.seed=1", "no command 'a'; WHO is 1 to 2 or each"),
                           ("seed=1", "is not WHO.NAME=VALUE")):
        done = CliRunner().invoke(match_command, ["toy-tricks", random_bot, random_bot, "-o", given])
        assert done.exit_code == 2 and message in done.output, (given, done.output)
    # the bot's own declarations are checked before the first game, as in a tournament
    done = CliRunner().invoke(match_command, ["toy-tricks", random_bot, random_bot, "-o", "1.depth=3",
                                              "--out", str(tmp_path)])
    assert done.exit_code == 2 and "bot 'p1-random_bot' declares no option 'depth'" in done.output, done.output


def test_cli_match_with_its_own_defaults_warns_of_nothing(tmp_path):
    """The match draws a secret seed, as a tournament without one does; a small seed given on the
    command line is still warned of."""
    random_bot = " ".join(bot_cmd("random_bot.py"))
    done = CliRunner().invoke(match_command, ["toy-tricks", random_bot, random_bot, "--out", str(tmp_path / "d")])
    assert done.exit_code == 0, done.output
    assert "warning" not in done.output
    assert len((tmp_path / "d" / "seed.secret").read_text().strip()) == 32
    small = CliRunner().invoke(match_command, ["toy-tricks", random_bot, random_bot, "--seed", "7",
                                               "--out", str(tmp_path / "s")])
    assert small.exit_code == 0 and "warning: tournament.seed = 7 has fewer than 64 bits" in small.output


# ---- the margin -------------------------------------------------------------------------------

def test_paired_margin_averages_the_pairs_of_a_deal_first():
    rows = [{"deal": 0, "margin": 4.0}, {"deal": 0, "margin": 2.0}, {"deal": 1, "margin": -1.0},
            {"deal": 1, "margin": 1.0}, {"deal": 2, "margin": 6.0}, {"deal": 2, "margin": 0.0}]
    m = paired_margin(rows, "a", "b")
    means = [3.0, 0.0, 3.0]
    assert (m.deals, m.pairs) == (3, 6)
    assert m.mean == pytest.approx(2.0)
    assert m.se == pytest.approx(statistics.stdev(means) / math.sqrt(3))
    assert m.ci95 == pytest.approx(4.302652729911275 * m.se)  # Student t, 2 degrees of freedom
    assert m.excludes_zero is False
    with pytest.raises(ValueError, match="no complete pair of a and b"):
        paired_margin([], "a", "b")
