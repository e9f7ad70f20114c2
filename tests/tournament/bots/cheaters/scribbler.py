#!/usr/bin/env python3
"""Attack 12: write outside its scratch space, and fill the scratch space.

Each target gets a file named ``pwned-<--token>``: its own script folder, /usr, /etc, /, /dev
and the run folder (``--run-folder``; an attacker who learnt the path).  Then, as a bot may:
a file in $HOME (its scratch, which must work), a file of twice ``--file-mb`` MiB in /tmp
(over the file size limit, which it first tries to lift: EFBIG), and files of up to ``--file-mb`` MiB in /tmp until the
scratch space is full (ENOSPC) or ``--fill-mb`` MiB are written.  Every error is caught and
reported (Python ignores SIGXFSZ, so an over-long write fails with EFBIG).  Last, the same
files wherever else it can write (the sandbox's own folders: /, /etc, /dev, ...), up to
``--fill-mb`` MiB, to find space the scratch limit does not count.  ``--targets`` (a comma
list of script,usr,etc,root,dev,run,home,big,fill,spill) limits what it tries; outside a
sandbox it only ever tries script and run (cheatlib.in_sandbox), never the machine's folders."""

import os
import sys

from cheatlib import flag, in_sandbox, play, raise_limit, report, why

MIB = 1 << 20


def write(path: str, size: int = 16) -> dict:
    written = 0
    try:
        with open(path, "wb") as fh:
            while written < size:
                chunk = min(size - written, MIB)
                fh.write(b"x" * chunk)
                fh.flush()
                written += chunk
        return {"ok": True, "bytes": written}
    except OSError as exc:
        return {"ok": False, "error": why(exc), "bytes": written}


def attack(n: int) -> None:
    if n != 1:
        return
    token, file_mb = flag("token", "x"), int(flag("file-mb", "4"))
    name = f"pwned-{token}"
    chosen = set((flag("targets") or "script,usr,etc,root,dev,run,home,big,fill,spill").split(","))
    if not in_sandbox():  # never the machine's own folders: only its script folder and the run folder
        chosen &= {"script", "run"}
    places = {"script": os.path.dirname(os.path.abspath(sys.argv[0])), "usr": "/usr", "etc": "/etc", "root": "/",
              "dev": "/dev", "run": flag("run-folder") or "/nonexistent"}
    out: dict[str, dict] = {}
    for key, folder in places.items():
        if key in chosen:
            out[key] = write(os.path.join(folder, name))
            out[key]["path"] = os.path.join(folder, name)
    home = os.environ.get("HOME", "/tmp")
    if "home" in chosen:
        path = os.path.join(home, f"ok-{token}")
        out["home"] = write(path)
        try:
            with open(path, "rb") as fh:
                out["home"]["read_back"] = len(fh.read())
            os.remove(path)
        except OSError as exc:
            out["home"]["read_back"] = why(exc)
    if "big" in chosen:
        path = f"/tmp/big-{token}"
        lifted = raise_limit("FSIZE")
        out["big"] = write(path, 2 * file_mb * MIB)
        out["big"]["lift_limit"] = lifted
        if os.path.exists(path):
            os.remove(path)
    if "fill" in chosen:
        total, error, files = 0, None, []
        limit = int(flag("fill-mb", "64")) * MIB
        while total < limit and error is None:
            path = f"/tmp/fill-{token}-{len(files)}"
            files.append(path)
            r = write(path, min(file_mb * MIB, limit - total))
            total += r["bytes"]
            error = r.get("error")
        for path in files:
            if os.path.exists(path):
                os.remove(path)
        out["fill"] = {"ok": error is None, "bytes": total, "error": error}
    if "spill" in chosen:
        out["spill"] = spill(token, file_mb, int(flag("fill-mb", "64")) * MIB, places)
    report("write", results=out)


def spill(token: str, file_mb: int, limit: int, places: dict[str, str]) -> dict:
    """Files of up to ``file_mb`` MiB wherever it can write outside its scratch space, up to
    ``limit`` bytes in all (each is removed again): space the scratch_mb limit does not count."""
    where: dict[str, int] = {}
    files: list[str] = []
    total = 0
    for folder in ("/", "/etc", "/dev", "/var", "/run", places["run"]):
        while total < limit:
            path = os.path.join(folder, f"spill-{token}-{len(files)}")
            r = write(path, min(file_mb * MIB, limit - total))
            if r["bytes"] or os.path.exists(path):
                files.append(path)
            total += r["bytes"]
            where[folder] = where.get(folder, 0) + r["bytes"]
            if not r["ok"]:
                break
    for path in files:
        try:
            os.remove(path)
        except OSError:
            pass
    return {"bytes": total, "where": {k: v for k, v in where.items() if v}}


play("scribbler", on_request=attack)
