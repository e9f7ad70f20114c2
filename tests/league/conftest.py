"""Fixtures of the league's tests: a league folder, and a throwaway PostgreSQL server.

The PostgreSQL server is real: a cluster made with the installed ``initdb`` in a temporary
folder, started with ``pg_ctl`` on a free loopback port, stopped and removed afterwards.  The
tests that need it skip, saying why, only where no PostgreSQL is installed or it cannot start
(CI installs it: .ci/run).  As root (CI), the cluster belongs to the ``postgres`` user, since
PostgreSQL refuses to run as root.
"""

from __future__ import annotations

import glob
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest


def _pg_bin() -> Path | None:
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/pg_ctl"))
    if found:
        return Path(found[-1]).parent
    on_path = shutil.which("pg_ctl")
    return Path(on_path).parent if on_path else None


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[str]:
    """The URL of an empty server (its database ``postgres``, user ``league``)."""
    bin_dir = _pg_bin()
    if bin_dir is None:
        pytest.skip("PostgreSQL is not installed (no pg_ctl; .ci/run installs postgresql from Debian's packages)")
    runas: list[str] = []
    folder = Path(tempfile.mkdtemp(prefix="league-pg-"))
    if os.geteuid() == 0:  # initdb and postgres refuse root
        try:
            user = pwd.getpwnam("postgres")
        except KeyError:
            pytest.skip("running as root and no 'postgres' user to run the PostgreSQL server as")
        os.chown(folder, user.pw_uid, user.pw_gid)
        runas = ["runuser", "-u", "postgres", "--"]
    data = folder / "data"
    port = _free_port()
    init = subprocess.run([*runas, str(bin_dir / "initdb"), "-D", str(data), "-U", "league", "--auth=trust",
                           "--no-sync"], capture_output=True, text=True)
    if init.returncode != 0:
        shutil.rmtree(folder, ignore_errors=True)
        pytest.skip(f"initdb could not make a cluster: {init.stderr.strip()[-300:]}")
    options = f"-c listen_addresses=127.0.0.1 -p {port} -k {folder} -c fsync=off"
    start = subprocess.run([*runas, str(bin_dir / "pg_ctl"), "-D", str(data), "-o", options, "-l",
                            str(folder / "log"), "-w", "-t", "60", "start"], capture_output=True, text=True)
    if start.returncode != 0:
        log = (folder / "log").read_text(errors="replace") if (folder / "log").exists() else start.stderr
        shutil.rmtree(folder, ignore_errors=True)
        pytest.skip(f"the PostgreSQL server did not start: {log.strip()[-300:]}")
    try:
        yield f"postgresql://league@127.0.0.1:{port}/postgres"
    finally:
        subprocess.run([*runas, str(bin_dir / "pg_ctl"), "-D", str(data), "-m", "immediate", "-w", "stop"],
                       capture_output=True)
        shutil.rmtree(folder, ignore_errors=True)


@pytest.fixture
def postgres_database(postgres_server: str) -> Iterator[str]:
    """A fresh database of its own on the server, for one test."""
    import psycopg

    name = f"league_{os.getpid()}_{_free_port()}"
    with psycopg.connect(postgres_server, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    try:
        yield postgres_server.rsplit("/", 1)[0] + f"/{name}"
    finally:
        with psycopg.connect(postgres_server, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE "{name}" WITH (FORCE)')
