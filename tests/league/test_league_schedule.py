"""How tables are formed (new bots first, then the widest intervals, opponents near in rating;
banned, withdrawn, old and busy versions left out) and rated (one openskill update per table,
by the sums of ranks over its duplicate deals), and a played table's records in `trickcore replay`."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy.orm import Session

from tournament.league.db import Author, Bot, LeagueTable, Version
from tournament.league.league import League, init_league
from tournament.league.scheduler import form_table, play_table, rate, rate_table, recompute_ratings, table_folder

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def league(tmp_path: Path) -> Iterator[League]:
    made = init_league(tmp_path / "lg", "klaberjass", 2)
    yield made
    made.close()


def add_version(league: League, name: str, mu: float, sigma: float, games: int, *, active: bool = True,
                banned: bool = False, withdrawn: bool = False, script: str = "random_bot.py") -> int:
    folder = league.folder / "bots" / name / "v1"
    folder.mkdir(parents=True)
    (folder / "bot.py").write_bytes((ROOT / "tournament" / "bots" / script).read_bytes())
    with Session(league.engine) as session, session.begin():
        author = session.query(Author).filter_by(name="a").one_or_none() or Author(name="a", token_hash="x")
        session.add(author)
        session.flush()
        bot = Bot(author_id=author.id, name=name, banned=banned, withdrawn=withdrawn)
        session.add(bot)
        session.flush()
        version = Version(bot_id=bot.id, number=1, folder=f"bots/{name}/v1", command=["bot.py"], runtime="python",
                          active=active, mu=mu, sigma=sigma, games=games)
        session.add(version)
        session.flush()
        return version.id


def seated(league: League, table_id: int | None) -> list[int]:
    assert table_id is not None
    with Session(league.engine) as session:
        return list(session.get_one(LeagueTable, table_id).versions)


def test_new_bots_first_then_the_widest_interval_against_the_nearest_rating(league: League) -> None:
    old_strong = add_version(league, "strong", 35, 2, 400)
    old_weak = add_version(league, "weak", 15, 2, 400)
    near_new = add_version(league, "middle", 24, 3, 300)
    new = add_version(league, "newcomer", 25, 8.3, 0)
    add_version(league, "banned", 25, 8.3, 0, banned=True)
    add_version(league, "withdrawn", 25, 8.3, 0, withdrawn=True)
    add_version(league, "retired", 25, 8.3, 0, active=False)
    first = form_table(league)
    assert seated(league, first) == [new, near_new]  # the newcomer, against the rating nearest its own
    second = form_table(league)  # the newcomer and middle are busy at the first table
    assert seated(league, second) == [old_strong, old_weak]
    assert form_table(league) is None  # everyone who may play is at a table


def test_among_bots_with_games_the_widest_interval_goes_first(league: League) -> None:
    add_version(league, "settled", 25, 1, 50)
    wide = add_version(league, "wide", 20, 6, 50)
    near = add_version(league, "near", 21, 1, 50)
    assert seated(league, form_table(league)) == [wide, near]


def test_a_bot_in_the_middle_of_the_ratings_does_not_play_every_table(league: League) -> None:
    """Three bots for two seats, ratings held apart: the middle one is nearest to both others, yet
    the tables share the games out evenly (each opponent comes from the nearest, by fewest games)."""
    ids = [add_version(league, name, mu, 2, 0) for name, mu in (("top", 30), ("middle", 25), ("bottom", 20))]
    for _ in range(12):
        table_id = form_table(league)
        assert table_id is not None
        with Session(league.engine) as session, session.begin():
            table = session.get_one(LeagueTable, table_id)
            for version_id in table.versions:
                session.get_one(Version, version_id).games += 2
            table.state = "rated"
    with Session(league.engine) as session:
        games = [session.get_one(Version, v).games for v in ids]
    assert sum(games) == 12 * 2 * 2 and max(games) - min(games) <= 2, games


def test_tables_play_at_once_and_are_rated_one_after_another(tmp_path: Path) -> None:
    """``parallel_tables = 2``: four bots for two seats fill two tables that play at the same
    time; every table is rated once, in one rating order, and the ratings equal a recomputation."""
    from datetime import datetime, timedelta

    import tomli_w

    from tournament.league.config import LEAGUE_FILE
    from tournament.league.league import open_league
    from tournament.league.scheduler import Scheduler
    from tournament.results import read_results

    if sys.version_info >= (3, 11):
        import tomllib
    else:
        import tomli as tomllib

    init_league(tmp_path / "lg", "klaberjass", 2).close()
    doc = tomllib.loads((tmp_path / "lg" / LEAGUE_FILE).read_text())
    doc["league"]["parallel_tables"] = 2
    (tmp_path / "lg" / LEAGUE_FILE).write_text(tomli_w.dumps(doc))
    league = open_league(tmp_path / "lg")
    try:
        for i in range(4):
            add_version(league, f"bot{i}", 25, 25 / 3, 0, script=("random_bot.py", "heuristic_bot.py")[i % 2])
        scheduler = Scheduler(league, max_tables=4)
        scheduler.run()
        assert (scheduler.rated, scheduler.errors, scheduler.interrupted, scheduler.playing) == (4, [], False, set())
        with Session(league.engine) as session:
            rated = session.query(LeagueTable).order_by(LeagueTable.rated_seq).all()
            assert [t.rated_seq for t in rated] == [1, 2, 3, 4] and {t.state for t in rated} == {"rated"}
            assert {v.id: (v.mu, v.sigma) for v in session.query(Version)} == recompute_ratings(league)

        def span(table_id: int) -> tuple[datetime, datetime]:
            records = read_results(table_folder(league, table_id))
            starts = [datetime.fromisoformat(r["started_at"]) for r in records]
            ends = [s + timedelta(seconds=r["duration_s"]) for s, r in zip(starts, records)]
            return min(starts), max(ends)

        (start1, end1), (start2, end2) = span(1), span(2)
        assert start1 < end2 and start2 < end1, "the first two tables did not play at the same time"
    finally:
        league.close()


def test_a_table_is_rated_once_by_the_sums_of_ranks_over_its_deals(league: League) -> None:
    config = league.config
    (winner, winner_sigma), (loser, _) = rate(config, [(25, 8), (25, 8)], [3, 5])
    assert winner > 25 > loser and winner_sigma < 8
    (a, _), (b, _) = rate(config, [(25, 8), (25, 8)], [4, 4])
    assert a == pytest.approx(b)


def test_a_played_table_is_rated_and_its_records_open_in_replay(league: League) -> None:
    add_version(league, "heuristic", 25, 25 / 3, 0, script="heuristic_bot.py")
    add_version(league, "random", 25, 25 / 3, 0)
    table_id = form_table(league)
    assert table_id is not None
    summary = play_table(league, table_id)
    assert (summary.played, summary.total, summary.errors) == (2, 2, [])
    assert rate_table(league, table_id) and rate_table(league, table_id)  # a second call changes nothing
    with Session(league.engine) as session:
        assert session.get_one(LeagueTable, table_id).rated_seq == 1
        ratings = {v.id: (v.mu, v.sigma) for v in session.query(Version)}
        assert {v.games for v in session.query(Version)} == {2}
    assert recompute_ratings(league) == ratings
    shown = subprocess.run([str(Path(sys.executable).parent / "trickcore"), "replay",
                            str(table_folder(league, table_id) / "results.jsonl"), "--job", "t0-d0-s1"],
                           capture_output=True, text=True)
    assert shown.returncode == 0 and "klaberjass" in shown.stdout.lower(), shown.stderr


def test_the_duplicate_margin_of_two_bots_over_their_deals(tmp_path: Path) -> None:
    from tournament.league.config import LEAGUE_FILE
    from tournament.league.league import open_league
    from tournament.league.standings import duplicate_margin
    from tournament.results import read_results

    folder = tmp_path / "lg3"
    init_league(folder, "klaberjass", 2).close()
    text = (folder / LEAGUE_FILE).read_text().replace("deals_per_table = 1", "deals_per_table = 3")
    (folder / LEAGUE_FILE).write_text(text)
    opened = open_league(folder)
    try:
        assert opened.config.deals_per_table == 3
        add_version(opened, "heuristic", 25, 25 / 3, 0, script="heuristic_bot.py")
        add_version(opened, "random", 25, 25 / 3, 0)
        with pytest.raises(ValueError, match="have not played a rated table together"):
            duplicate_margin(opened, "heuristic", "random")
        table_id = form_table(opened)
        assert table_id is not None
        play_table(opened, table_id)
        rate_table(opened, table_id)
        records = read_results(table_folder(opened, table_id))
        by_deal: dict[int, dict[str, list[float]]] = {}
        for record in records:
            for seat, name in enumerate(record["bots"]):
                by_deal.setdefault(record["deal"], {}).setdefault(name, []).append(record["scores"][seat])
        diffs = [sum(s["heuristic-v1"]) / len(s["heuristic-v1"]) - sum(s["random-v1"]) / len(s["random-v1"])
                 for s in by_deal.values()]
        ahead = duplicate_margin(opened, "heuristic", "random")
        behind = duplicate_margin(opened, "random", "heuristic")
        assert ahead.groups == len(diffs) == 3
        assert ahead.mean == pytest.approx(sum(diffs) / 3) and behind.mean == pytest.approx(-ahead.mean)
        assert ahead.ci95 is not None and ahead.ci95 == pytest.approx(behind.ci95)
    finally:
        opened.close()


def test_a_table_resumes_under_another_path_of_the_interpreter(league: League, tmp_path: Path) -> None:
    """A table started by one interpreter path (python) is finished by a server started with
    another (python3): the table's config keeps {python} as written, as tournament configs do."""
    here = Path(sys.executable)
    other = here.with_name("python3" if here.name != "python3" else "python")
    if not other.exists():
        pytest.skip(f"no {other.name} beside {here} to restart the server with")
    add_version(league, "heuristic", 25, 25 / 3, 0, script="heuristic_bot.py")
    add_version(league, "random", 25, 25 / 3, 0)
    table_id = form_table(league)
    assert table_id is not None
    play_table(league, table_id)  # every game recorded; the server "dies" before rating it
    code = "import sys; from trickcore.cli import main; sys.exit(main())"
    done = subprocess.run([str(other), "-c", code, "league", "serve", str(league.folder), "--no-web", "--tables", "1",
                           "-q"], capture_output=True, text=True, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    with Session(league.engine) as session:
        table = session.get_one(LeagueTable, table_id)
        assert (table.state, table.rated_seq) == ("rated", 1)
        assert {v.games for v in session.query(Version)} == {2}
