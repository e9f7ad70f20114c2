"""Alembic's environment for the league's database: migrations run on the connection that
``tournament.league.db.migrate`` passes in (``config.attributes["connection"]``), never on a URL
of their own, so the league's engine settings (SQLite's WAL) apply to them too."""

from __future__ import annotations

from alembic import context

from tournament.league.db import Base

connection = context.config.attributes["connection"]
context.configure(connection=connection, target_metadata=Base.metadata, render_as_batch=True)
with context.begin_transaction():
    context.run_migrations()
