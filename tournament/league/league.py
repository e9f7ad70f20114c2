"""A league: its folder (league.toml, the bots' files, the tables' record folders) and its
database, opened together; the schema is migrated to the newest revision on every open."""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

from sqlalchemy import Engine, select
from sqlalchemy.orm import Session

from tournament.config import ConfigError
from tournament.files import write_whole
from tournament.league.config import (
    LEAGUE_FILE,
    LeagueConfig,
    dump_league_doc,
    load_league,
    new_league_doc,
    parse_league,
)
from tournament.league.db import Setting, open_database

BOTS_DIR = "bots"  # <league>/bots/<bot>/v<n>/: the files of each accepted version
TABLES_DIR = "tables"  # <league>/tables/<id>/: each table's tournament folder (results.jsonl, run.json, ...)
UPLOADS_DIR = "uploads"  # <league>/uploads/: archives while they are checked


@dataclasses.dataclass
class League:
    config: LeagueConfig
    engine: Engine
    # Where the tables run: a tournament config's [executor] table (None: on this machine);
    # ``serve --ray ADDRESS`` puts them on a Ray cluster.
    executor: dict[str, Any] | None = None

    @property
    def folder(self) -> Path:
        return Path(self.config.folder)

    def close(self) -> None:
        self.engine.dispose()

    def setting(self, key: str, default: str = "") -> str:
        with Session(self.engine) as session:
            value = session.scalar(select(Setting.value).where(Setting.key == key))
            return default if value is None else value

    def set_setting(self, key: str, value: str) -> None:
        with Session(self.engine) as session, session.begin():
            session.merge(Setting(key=key, value=value))

    @property
    def paused(self) -> bool:
        return self.setting("paused") == "yes"


def open_league(folder: str | Path) -> League:
    config = load_league(folder)
    return League(config, open_database(config.database))


def init_league(folder: str | Path, game: str, players: int, database: str | None = None) -> League:
    """Write a new league's league.toml (refused where one is) and create its database."""
    folder = Path(folder)
    path = folder / LEAGUE_FILE
    if path.exists():
        raise ConfigError([f"{path} exists: this folder holds a league already"], str(path))
    doc = new_league_doc(folder, game, players, database)
    config = parse_league(doc, folder, str(path))  # checked before anything is written
    folder.mkdir(parents=True, exist_ok=True)
    for sub in (BOTS_DIR, TABLES_DIR, UPLOADS_DIR):
        (folder / sub).mkdir(exist_ok=True)
    write_whole(path, dump_league_doc(doc))
    return League(config, open_database(config.database))
