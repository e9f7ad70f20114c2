"""``trickcore league serve --ray ADDRESS``: a league's tables played on a real Ray instance of
this machine (started for the test), recorded and rated as local tables are."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from tournament.league.league import init_league
from tournament.league.scheduler import Scheduler, recompute_ratings, table_folder
from tournament.results import read_results

ray = pytest.importorskip("ray", reason="Ray is not installed (pip install -e '.[ray]')")

ROOT = Path(__file__).resolve().parents[2]
# Ray sends usage statistics over the network unless told not to.
os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")


@pytest.fixture(scope="module")
def ray_address() -> Iterator[str]:
    """A Ray instance of this test's own (``address="local"``), never one left behind."""
    ray.init(address="local", num_cpus=2, include_dashboard=False, logging_level="ERROR")
    try:
        yield ray.get_runtime_context().gcs_address
    finally:
        ray.shutdown()


def test_tables_on_ray(tmp_path: Path, ray_address: str) -> None:
    from sqlalchemy.orm import Session

    from tournament.league.db import Author, Bot, Version

    league = init_league(tmp_path / "lg", "klaberjass", 2)
    try:
        with Session(league.engine) as session, session.begin():
            author = Author(name="a", token_hash="x")
            session.add(author)
            session.flush()
            for name in ("heuristic", "random"):
                folder = league.folder / "bots" / name / "v1"
                folder.mkdir(parents=True)
                (folder / "bot.py").write_bytes((ROOT / "tournament" / "bots" / f"{name}_bot.py").read_bytes())
                bot = Bot(author_id=author.id, name=name)
                session.add(bot)
                session.flush()
                session.add(Version(bot_id=bot.id, number=1, folder=f"bots/{name}/v1", command=["bot.py"],
                                    runtime="python", mu=25.0, sigma=25 / 3))
        league.executor = {"kind": "ray", "address": ray_address}
        scheduler = Scheduler(league, max_tables=2)
        scheduler.run()
        assert (scheduler.rated, scheduler.errors, scheduler.interrupted) == (2, [], False)
        records = [r for t in (1, 2) for r in read_results(table_folder(league, t))]
        assert len(records) == 4 and {r["node"] for r in records} != {"local"}, {r["node"] for r in records}
        with Session(league.engine) as session:
            assert {v.id: (v.mu, v.sigma) for v in session.query(Version)} == recompute_ratings(league)
    finally:
        league.close()
