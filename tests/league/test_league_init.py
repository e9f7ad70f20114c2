"""A league's folder and database: ``init``, league.toml's checks, migrations on start, authors'
tokens (printed once, stored hashed, refused when wrong), on SQLite and on a real PostgreSQL."""

from __future__ import annotations

import hashlib
import sqlite3
import subprocess
import sys
from importlib.resources import files
from pathlib import Path

import pytest
from alembic import command
from alembic.config import Config
from sqlalchemy import inspect, select, text
from sqlalchemy.orm import Session

from tournament.config import ConfigError
from tournament.league.authors import LeagueError, add_author, author_of_token
from tournament.league.config import load_league, parse_league
from tournament.league.db import Author, Version, make_engine
from tournament.league.league import init_league, open_league

#: The installed command, as a person runs it (its entry points are those of the installed package).
#: The newest revision of the schema (tournament/league/migrations/versions/).
HEAD = "0002"
TRICKCORE = [str(Path(sys.executable).parent / "trickcore")]


def test_init_writes_a_league_that_loads_and_a_database_at_the_newest_schema(tmp_path: Path) -> None:
    made = init_league(tmp_path / "lg", "beim-jupiter", 3)
    made.close()
    config = load_league(tmp_path / "lg")
    assert (config.game, config.players, config.deals_per_table) == ("beim-jupiter", 3, 1)
    assert config.database == f"sqlite:///{(tmp_path / 'lg' / 'league.db').resolve()}"
    with sqlite3.connect(tmp_path / "lg" / "league.db") as db:
        assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        assert db.execute("SELECT version_num FROM alembic_version").fetchall() == [(HEAD,)]
        tables = {row[0] for row in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    assert {"authors", "bots", "versions", "submissions", "league_tables", "games", "ratings"} <= tables
    with pytest.raises(ConfigError, match="holds a league already"):
        init_league(tmp_path / "lg", "beim-jupiter", 3)


def test_migrations_run_on_start_on_a_database_without_the_schema(tmp_path: Path) -> None:
    made = init_league(tmp_path / "lg", "klaberjass", 2)
    made.close()
    (tmp_path / "lg" / "league.db").unlink()
    opened = open_league(tmp_path / "lg")  # an empty database: the migrations make the schema again
    try:
        assert "versions" in inspect(opened.engine).get_table_names()
    finally:
        opened.close()


@pytest.mark.parametrize("backend", ["sqlite", "postgresql"])
def test_a_database_of_the_first_schema_is_migrated_with_its_rows(tmp_path: Path, backend: str,
                                                                  request: pytest.FixtureRequest) -> None:
    """A league made before versions had options: its rows stay, each version gets no options."""
    database = request.getfixturevalue("postgres_database") if backend == "postgresql" else None
    init_league(tmp_path / "lg", "klaberjass", 2, database).close()
    config = load_league(tmp_path / "lg")
    engine = make_engine(config.database)
    alembic = Config()
    alembic.set_main_option("script_location", str(files("tournament.league").joinpath("migrations")))
    with engine.begin() as connection:
        alembic.attributes["connection"] = connection
        command.downgrade(alembic, "0001")
    with engine.begin() as connection:
        assert "options" not in {c["name"] for c in inspect(connection).get_columns("versions")}
        connection.execute(text("INSERT INTO authors (id, name, token_hash, created) "
                                "VALUES (1, 'a', 'x', '2026-01-01')"))
        connection.execute(text("INSERT INTO bots (id, author_id, name, banned, withdrawn, created) "
                                "VALUES (1, 1, 'old', false, false, '2026-01-01')"))
        connection.execute(text("INSERT INTO versions (id, bot_id, number, folder, command, runtime, active, mu, "
                                "sigma, games, faults, created) VALUES (1, 1, 1, 'bots/old/v1', '[\"bot.py\"]', "
                                "'python', true, 30.5, 2.5, 7, 0, '2026-01-01')"))
    engine.dispose()
    opened = open_league(tmp_path / "lg")  # migrated on start
    try:
        with Session(opened.engine) as session:
            (version,) = session.scalars(select(Version)).all()
            assert (version.options, version.mu, version.games, version.command) == ({}, 30.5, 7, ["bot.py"])
            assert session.execute(text("SELECT version_num FROM alembic_version")).scalar() == HEAD
    finally:
        opened.close()


def test_every_problem_of_a_league_toml_is_reported_at_its_key(tmp_path: Path) -> None:
    doc = {"league": {"deals_per_table": 0, "databse": "x"}, "game": {"name": "beim-jupiter", "players": 9},
           "time": {"decision_ms": "fast"}, "rating": {"sigma": -1}, "runtimes": {"python": "python3"},
           "server": {"port": 70000}, "sandbox": {"memory_mb": "lots"}}
    with pytest.raises(ConfigError) as caught:
        parse_league(doc, tmp_path)
    problems = "\n".join(caught.value.problems)
    for expected in ("league.databse: unknown key (did you mean 'database'?)",
                     "league.deals_per_table: must be >= 1, got 0", "game.players:",
                     "time.decision_ms: must be a number, got a string 'fast'", "rating.sigma: must be >=",
                     "runtimes.python: must be an array of strings", "server.port: must be <= 65535, got 70000",
                     "sandbox.memory_mb:"):
        assert expected in problems, (expected, problems)


def test_a_league_of_too_many_seats_for_duplicate_tables_is_refused(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="at most 6 seats, got 7"):
        parse_league({"game": {"name": "sticheln", "players": 7}}, tmp_path)


def test_postgresql_urls_use_psycopg_3(tmp_path: Path) -> None:
    config = parse_league({"league": {"database": "postgresql://u@127.0.0.1/db"},
                           "game": {"name": "klaberjass", "players": 2}}, tmp_path)
    assert config.database == "postgresql+psycopg://u@127.0.0.1/db"
    with pytest.raises(ConfigError, match="league.database: must be an sqlite:///PATH or postgresql"):
        parse_league({"league": {"database": "mysql://x"}, "game": {"name": "klaberjass"}}, tmp_path)


def test_add_author_prints_the_token_once_and_stores_only_its_hash(tmp_path: Path) -> None:
    folder = tmp_path / "lg"
    subprocess.run([*TRICKCORE, "league", "init", str(folder), "--game", "klaberjass", "-p", "2"], check=True,
                   capture_output=True)
    done = subprocess.run([*TRICKCORE, "league", "add-author", str(folder), "alice"], capture_output=True,
                          text=True, check=True)
    token = done.stdout.strip()
    assert "\n" not in token and "shown once" in done.stderr
    with sqlite3.connect(folder / "league.db") as db:
        (stored,) = db.execute("SELECT token_hash FROM authors WHERE name = 'alice'").fetchone()
        dump = "\n".join(db.iterdump())
    secret = token.split(".", 1)[1]
    assert secret not in dump and stored == hashlib.sha256(secret.encode()).hexdigest()
    again = subprocess.run([*TRICKCORE, "league", "add-author", str(folder), "alice"], capture_output=True, text=True)
    assert again.returncode == 1 and "exists already" in again.stderr and again.stdout == ""
    markup = subprocess.run([*TRICKCORE, "league", "add-author", str(folder), "<b>x</b>"], capture_output=True,
                            text=True)
    assert markup.returncode == 1 and "is not allowed" in markup.stderr


def test_a_token_finds_its_author_and_every_wrong_token_is_refused_alike(tmp_path: Path) -> None:
    league = init_league(tmp_path / "lg", "klaberjass", 2)
    try:
        alice = add_author(league.engine, "alice")
        bob = add_author(league.engine, "bob")
        with Session(league.engine) as session:
            assert author_of_token(session, alice).name == "alice"
            assert author_of_token(session, f"  {bob}\n").name == "bob"
            alice_id = alice.split(".")[0]
            bob_secret = bob.split(".", 1)[1]
            wrong = [None, "", alice[:-1], f"{alice_id}.{bob_secret}", f"999.{bob_secret}", bob_secret,
                     f"{alice_id}.", "x" * 5000, f"{'9' * 40}.{bob_secret}"]
            for token in wrong:
                with pytest.raises(LeagueError, match="^wrong or missing author token$"):
                    author_of_token(session, token)
    finally:
        league.close()


def test_a_league_on_postgresql(tmp_path: Path, postgres_database: str) -> None:
    league = init_league(tmp_path / "lg", "beim-jupiter", 3, database=postgres_database)
    try:
        assert league.engine.dialect.name == "postgresql" and league.engine.dialect.driver == "psycopg"
        token = add_author(league.engine, "alice")
        with Session(league.engine) as session:
            assert author_of_token(session, token).name == "alice"
            assert session.scalars(select(Author.name)).all() == ["alice"]
            assert session.execute(text("SELECT version_num FROM alembic_version")).scalar() == HEAD
    finally:
        league.close()
    reopened = open_league(tmp_path / "lg")  # league.toml names the database; migrating again changes nothing
    try:
        with Session(reopened.engine) as session:
            assert session.scalars(select(Author.name)).all() == ["alice"]
    finally:
        reopened.close()


def test_the_command_line_loads_without_the_database_layer() -> None:
    """trickcore's commands load the league's group without importing SQLAlchemy or Alembic, so
    where the league extra is not installed trickcore works and says nothing about it; the
    league's commands import them when they run."""
    code = ("import sys; from trickcore.cli import main; "
            "assert 'league' in main.commands, sorted(main.commands); "
            "print(sorted(m for m in sys.modules if m.split('.')[0] in ('sqlalchemy', 'alembic', 'psycopg')))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=Path(__file__).parent)
    assert done.returncode == 0 and done.stdout.strip() == "[]", done.stderr
