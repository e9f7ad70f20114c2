"""``trickcore league``: a league that runs for a season (docs/league.md).

* ``config``: league.toml, checked as tournament configs are;
* ``db``: the database (SQLAlchemy models, SQLite or PostgreSQL), migrated by Alembic on open
  (``migrations/``);
* ``league``: a league's folder and database opened together;
* ``authors``: authors and their tokens; ``errors``: the league's error type;
* ``submit``: archives unpacked safely, bot.toml, the compliance check, new versions;
* ``scheduler``: tables formed, played as duplicate tournaments, rated with openskill;
* ``standings``: the leaderboard and the duplicate margin; ``organiser``: pause, ban, withdraw,
  export;
* ``pages`` and ``web``: the league's pages, served (aiohttp) or written as files; ``cli``: the
  commands.
"""
