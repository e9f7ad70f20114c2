"""The HTML report and the replay pages as files: what ``trickcore tournament`` writes at its end,
``trickcore report`` and ``trickcore replay --html``, the figures against the runner's own
standings, large runs, and the seat views' data (tests/tournament/test_tournament_report_browser.py
opens the pages in a real browser)."""

from __future__ import annotations

import json
import re
import shutil

import orjson
import pytest
from click.testing import CliRunner

from tests.tournament.report_fixtures import GAMES, hidden_cards, random_record, real_run, strings, write_config
from tournament.cli import replay_command, tournament_command
from tournament.replay_html import build_replay
from tournament.report import REPORT_FILE, report_command, write_report
from tournament.results import RESULTS_FILE, read_results


@pytest.fixture(scope="module")
def run(tmp_path_factory):
    out, result = real_run(tmp_path_factory)
    assert result.exit_code == 0, result.output
    return out


def _data(page: str, element: str) -> dict:
    m = re.search(rf'<script type="application/json" id="{element}">(.*?)</script>', page, re.S)
    assert m, element
    return json.loads(m.group(1))


def test_tournament_writes_the_report_and_its_environment(run):
    page = (run / REPORT_FILE).read_text(encoding="utf-8")
    for section in ("standings", "scores", "ratings", "seats", "opponents", "faults", "games", "config",
                    "environment"):
        assert f'<section id="{section}">' in page
    for bot in ("heuristic", "random", "mock"):
        assert bot in page
    # Self-contained: no script, style sheet, image or font from anywhere.
    assert not re.search(r'<(script|img|link|iframe)[^>]+(src|href)="(?!data:|#)', page)
    assert "url(" not in page and "@import" not in page
    env = json.loads((run / "environment.json").read_text())["invocations"]
    assert len(env) == 1 and env[0]["played"] == 6 and env[0]["python"] and env[0]["cpus"] >= 1 and env[0]["command"]
    # The games list holds every game, with a replay page for each (6 games, fewer than the default 20).
    games = _data(page, "games-data")
    assert games["total"] == 6 and len(games["rows"]) == 6 and all(r[11] == 1 for r in games["rows"])
    for row in games["rows"]:
        replay_page = run / "replays" / f"{row[1]}.html"
        assert replay_page.exists() and 'href="../report.html"' in replay_page.read_text(encoding="utf-8")


def test_report_figures_are_the_runner_standings(run):
    from tournament.report_data import Bot, Shape, aggregate, scan
    from trickcore.games import get_game

    games, timing = scan(run)
    agg = aggregate(Shape(get_game("beim-jupiter"), 3, [Bot(n) for n in ("heuristic", "random", "mock")]),
                     games, timing, {})
    expected = {s["name"]: s for s in json.loads((run / "standings.json").read_text())["standings"]}
    assert [s.name for s in agg.standings] == list(expected)
    for s in agg.standings:
        e = expected[s.name]
        for key in ("games", "mean_score", "ci95", "mean_rank", "win_share", "mu", "sigma", "forfeits",
                    "think_ms_mean", "think_ms_max", "runner_us_mean", "decisions"):
            assert getattr(s, key) == pytest.approx(e[key]), (s.name, key)
        assert s.faults == e["faults"]
        # The rating curve ends at the final rating, after every game the bot played.
        assert agg.curves[s.name][-1] == (s.games, pytest.approx(s.mu), pytest.approx(s.sigma))
    # Faults: the mock bot's illegal answer, listed with its game.
    assert set(agg.faults) == {"illegal"} and agg.faults["illegal"][0][1]["bot"] == "mock"
    page = (run / REPORT_FILE).read_text(encoding="utf-8")
    job = agg.faults["illegal"][0][0].job
    assert f'href="#game-{job}"' in page and f'href="replays/{job}.html"' in page
    # By seat: every bot sat in every seat of the duplicate deal twice.
    assert all(n == 2 for bot in agg.seats.values() for _, n in bot)
    # By opponent: each pair met in every game; "ahead" shares of a pair add up to 1.
    a, b = agg.pairs[("heuristic", "random")], agg.pairs[("random", "heuristic")]
    assert a[1] == b[1] == 6 and a[0] + b[0] == pytest.approx(6) and a[2] == pytest.approx(-b[2])


def test_no_report_flag_and_the_report_command(tmp_path, run):
    out = tmp_path / "quiet"
    config = write_config(tmp_path / "c.toml", out)
    result = CliRunner().invoke(tournament_command, [str(config), "-q", "--no-report", "--deals", "1"])
    assert result.exit_code == 0, result.output
    assert not (out / REPORT_FILE).exists() and (out / "environment.json").exists()
    result = CliRunner().invoke(report_command, [str(out), "--replays", "2", "--max-games", "4"])
    assert result.exit_code == 0, result.output
    assert "6 games" in result.output and "2 replay pages" in result.output
    page = (out / REPORT_FILE).read_text(encoding="utf-8")
    games = _data(page, "games-data")
    assert games["total"] == 6 and len(games["rows"]) == 4 and sum(r[11] for r in games["rows"]) <= 2
    assert len(list((out / "replays").glob("*.html"))) == 2
    assert "Showing 4 of 6 games" in page
    # The game with the fault always gets its page and its row.
    faulty = next(r["job"] for r in read_results(out) if r["faults"])
    assert (out / "replays" / f"{faulty}.html").exists() and any(r[1] == faulty for r in games["rows"])
    none = CliRunner().invoke(report_command, [str(out), "--replays", "0", "-o", str(tmp_path / "r.html")])
    assert none.exit_code == 0 and "0 replay pages" in none.output and (tmp_path / "r.html").exists()
    elsewhere = CliRunner().invoke(report_command, [str(out), "--replays", "1", "-o", str(tmp_path / "r.html")])
    assert elsewhere.exit_code == 0, elsewhere.output
    page = (tmp_path / "r.html").read_text(encoding="utf-8")
    assert f'href="quiet/replays/{faulty}.html"' in page and '"base":"quiet/"' in page
    assert 'href="../../r.html"' in (out / "replays" / f"{faulty}.html").read_text(encoding="utf-8")
    bad = CliRunner().invoke(report_command, [str(tmp_path)])
    assert bad.exit_code == 2 and "no results.jsonl" in bad.output
    bad = CliRunner().invoke(report_command, [str(out), "--replays", "some"])
    assert bad.exit_code == 2 and "--replays" in bad.output


def test_large_runs_are_aggregated(tmp_path, run):
    """3,000 games (the run's records repeated with shuffled scores): the list is capped, the
    rating curves are thinned, and the page stays small."""
    big = tmp_path / "big"
    big.mkdir()
    for name in ("run.json", "config.toml", "summary.json"):
        shutil.copy(run / name, big / name)
    records = read_results(run)
    with open(big / RESULTS_FILE, "wb") as fh:
        for i in range(3000):
            rec = dict(records[i % len(records)])
            scores = list(rec["result"]["scores"])
            scores = scores[i % 3:] + scores[:i % 3]
            ranks = [1 + sum(t > s for t in scores) for s in scores]
            rec.update(index=i, job=f"t0-d{i // 6}-s{i % 6}", deal=i // 6, result={"scores": scores, "ranks": ranks})
            fh.write(orjson.dumps(rec) + b"\n")
    # Copies of six games are not the records of a 500-deal schedule: the check of the records
    # against the schedule (tested in test_tournament_records.py) is left out for this made-up run.
    result = write_report(big, replays=3, max_games=500, verify=False)
    assert result.games == 3000 and result.replays == 3
    page = result.path.read_text(encoding="utf-8")
    games = _data(page, "games-data")
    assert games["total"] == 3000 and len(games["rows"]) == 500
    assert result.size < 400_000
    assert max(len(m) for m in re.findall(r'<polyline points="([^"]*)"', page)) < 300 * 16


def test_replay_html_command(tmp_path, run):
    results = run / RESULTS_FILE
    job = read_results(run)[1]["job"]
    out = tmp_path / "one.html"
    result = CliRunner().invoke(replay_command, [str(results), "--job", job, "--html", str(out)])
    assert result.exit_code == 0, result.output
    data = _data(out.read_text(encoding="utf-8"), "replay-data")
    assert data["job"] == job and [v["id"] for v in data["views"]] == ["seat0", "seat1", "seat2", "all"]
    # How a decision was made (bot, substitute, forced; think time) only in the mover's view and
    # the organiser's: a forced move tells something of the mover's hand.
    for k, step in enumerate(data["steps"][1:], 1):
        for view in data["views"]:
            frame = view["frames"][k]
            own = view["seat"] in (None, step["seat"])
            assert ("how" in frame) == own and ("a" in frame) == own and ("r" not in frame or own)
    seat_only = tmp_path / "seat1.html"
    result = CliRunner().invoke(replay_command, [str(results), "--job", job, "--seat", "1", "--html", str(seat_only)])
    assert result.exit_code == 0, result.output
    data = _data(seat_only.read_text(encoding="utf-8"), "replay-data")
    assert [v["id"] for v in data["views"]] == ["seat1"]  # the file holds that seat's view only
    bad = CliRunner().invoke(replay_command, [str(results), "--seat", "7", "--html", str(tmp_path / "x.html")])
    assert bad.exit_code == 2 and not (tmp_path / "x.html").exists()


def _frames(view: dict) -> list[dict]:
    """The observations of a view, rebuilt from its patches as the page does."""
    def apply(cur: dict, p: dict) -> dict:
        nxt = dict(cur)
        nxt.update(p.get("=", {}))
        for k, v in p.get("+", {}).items():
            nxt[k] = list(nxt.get(k, [])) + v
        for k, v in p.get("~", {}).items():
            nxt[k] = apply(nxt.get(k) or {}, v)
        for k in p.get("-", []):
            nxt.pop(k, None)
        return nxt

    out, cur = [], {}
    for f in view["frames"]:
        cur = apply(cur, f.get("o", {}))
        out.append(cur)
    return out


@pytest.mark.parametrize("game,players,options", GAMES, ids=[f"{g}-{p}" for g, p, _ in GAMES])
def test_seat_views_are_the_seats_observations(game, players, options):
    """Each seat view's frame k is exactly observation(seat) after k decisions; another seat's
    decision carries no text, only the events this seat was sent."""
    import trickcore

    record = random_record(game, players, options)
    data = build_replay(record)
    state = trickcore.replay({**record, "history": []})
    views = {v["id"]: v for v in data["views"]}
    frames = {vid: _frames(v) for vid, v in views.items()}
    for k in range(len(record["history"]) + 1):
        for s in range(players):
            assert frames[f"seat{s}"][k] == state.observation(s)
        if k < len(record["history"]):
            mover = state.current_player()
            for s in range(players):
                f = views[f"seat{s}"]["frames"][k + 1]
                assert ("a" in f) == (s == mover) and ("legal" in f) == (s == mover)
            assert views["all"]["frames"][k + 1]["a"] == record["history"][k]
            state.apply_action(record["history"][k])
    # Up to any decision, the data of a seat view names none of the cards hidden from that seat
    # then (another seat's hand, a card set aside face down), while the organiser's view does.
    for s in range(players):
        hidden = hidden_cards(record, s)
        seen: set[str] = set()
        for k, frame in enumerate(views[f"seat{s}"]["frames"]):
            seen.update(strings(frame))
            assert not seen & hidden[k], (s, k, seen & hidden[k])
        assert set(strings(views["all"]["frames"][0])) & hidden[0]


def test_records_report_key(tmp_path):
    """``[records] report = false`` turns the report off like --no-report; the key may change on
    --resume (it changes no result), and a value that is not a boolean is named."""
    import tomli_w

    from tests.tournament.support import bot_cmd, quick_doc

    doc = quick_doc([{"name": "a", "command": bot_cmd("random_bot.py")},
                     {"name": "b", "command": bot_cmd("example_bot.py")}], deals=2)
    path = tmp_path / "t.toml"
    path.write_text(tomli_w.dumps(doc))
    out = tmp_path / "o"
    off = CliRunner().invoke(tournament_command, [str(path), "--out", str(out), "--set", "records.report=false"])
    assert off.exit_code == 0, off.output
    assert not (out / REPORT_FILE).exists() and "report:" not in off.output
    on = CliRunner().invoke(tournament_command, [str(path), "--out", str(out), "--resume"])
    assert on.exit_code == 0, on.output
    assert (out / REPORT_FILE).exists() and "report: " in on.output
    assert len(json.loads((out / "environment.json").read_text())["invocations"]) == 2
    bad = CliRunner().invoke(tournament_command, [str(path), "--out", str(tmp_path / "x"), "--set", "records.report=1"])
    assert bad.exit_code == 2 and "records.report: must be true or false" in bad.output
