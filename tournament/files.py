"""Writing a run's files whole or not at all.

A run's files are read while they are rewritten: a browser reloads the report during a run,
``trickcore report`` and ``--resume`` read run.json, a person's page reads a played game's record.
Every file the runner replaces is therefore written into a new file beside it and renamed over
it (``write_whole``): a reader gets the old file or the new one, never part of one.  The results
file itself (results.jsonl) is the exception: it only grows, a line per game, fsynced
(``tournament.results``).
"""

from __future__ import annotations

import json
import os
import secrets
from pathlib import Path
from typing import Any


def write_whole(path: Path, text: str, *, private: bool = False, sync: bool = False) -> None:
    """Write ``path`` whole or not at all.  Each writer has a file of its own beside it (the
    runner's rewrite during a run and a ``trickcore report`` of the same folder may write at the
    same time).  ``private``: readable by its owner only (0600) from the moment it exists, for a
    secret.  ``sync``: on disk before the rename, for a file that must survive a crash before
    anything depends on it (the master seed before the first game)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    partial = path.with_name(f".{path.name}.{os.getpid()}-{secrets.token_hex(4)}.tmp")
    try:
        # O_EXCL: created afresh, with the umask's permissions, or 0600 for a secret
        fd = os.open(partial, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600 if private else 0o666)
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(text)
            if sync:
                fh.flush()
                os.fsync(fh.fileno())
        os.replace(partial, path)
    except BaseException:
        partial.unlink(missing_ok=True)
        raise


def write_json(path: Path, payload: Any) -> None:
    """``payload`` as indented JSON with sorted keys, written whole."""
    write_whole(path, json.dumps(payload, indent=2, sort_keys=True, default=str) + "\n")
