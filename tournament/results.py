"""The output folder: append-only game records, the run manifest, the run's secret, resume,
summary files.

``results.jsonl`` holds one JSON object per finished game, written with a single
``write`` of a whole line, flushed and fsynced before the next game is accounted, so
a killed runner or a power loss can lose at most the game in flight -- never one already
recorded.  A torn last line (power loss mid-write) is cut off on resume and its game is
played again.  ``run.json`` fixes the config fingerprint and how deal seeds are derived; a
resume with a changed config is refused with the keys that differ.  A run whose config gives
no seed draws a 128-bit master seed when it starts and keeps it in ``seed.secret`` (mode
0600), which ``--resume`` reads back.

Whatever reads a run folder (``--resume``, ``trickcore report``, ``trickcore replay``,
:func:`read_results`) accepts exactly one record per scheduled game, and only one whose job,
index, table, deal, seed, seating and bots are those of the schedule rebuilt from run.json (and
the secret): a line appended by anyone else, a game recorded twice, a record of a game the
schedule does not have, is refused with its line number, never counted or silently preferred.
"""

from __future__ import annotations

import csv
import hashlib
import io
import json
import os
import secrets
from collections.abc import Callable, Iterable, Iterator, Sequence
from pathlib import Path
from typing import Any, TextIO, cast

import orjson

from tournament.config import DRAWN_SEED, RUN_ENVIRONMENT_KEYS, TournamentConfig
from tournament.files import write_json, write_whole
from tournament.match import TIMING_ACTION_FIELDS, TIMING_FIELDS
from tournament.schedule import (
    DEAL_FILE,
    DEAL_SEEDS,
    LEGACY_DEAL_SEEDS,
    SECRET_BYTES,
    Job,
    build_schedule,
    master_key,
    schedule_of_effective,
)
from trickcore.protocol import PROTOCOL_VERSION

RESULTS_FILE = "results.jsonl"
MANIFEST_FILE = "run.json"
EFFECTIVE_CONFIG_FILE = "config.toml"
SECRET_FILE = "seed.secret"  # a drawn master seed, 32 hex digits; only the organiser may read it

#: What a tournament calls after each recorded game: (games done, games in all, the game's record).
#: progress(games recorded, games scheduled, the record just written, a note on where the run's
#: question stands: the paired margin, or the sequential test; empty otherwise)
ProgressCallback = Callable[[int, int, dict[str, Any], str], None]


class ResumeError(RuntimeError):
    """The output folder cannot be (re)used as asked."""


class RecordError(ResumeError):
    """results.jsonl holds a line that is not the one record of a game of the run's schedule."""


def _flatten(d: dict[str, Any], prefix: str = "") -> dict[str, Any]:
    out: dict[str, Any] = {}
    for k, v in d.items():
        key = f"{prefix}.{k}" if prefix else str(k)
        if isinstance(v, dict):
            out.update(_flatten(v, key))
        else:
            out[key] = v
    return out


def _comparable_config(effective: dict[str, Any]) -> dict[str, Any]:
    eff: dict[str, Any] = json.loads(json.dumps(effective, default=str))
    for section, key in RUN_ENVIRONMENT_KEYS:
        eff.get(section, {}).pop(key, None)
    return eff


# ---- the run's secret ------------------------------------------------------------------------

def secret_check(key: bytes) -> str:
    """What run.json keeps of a drawn master seed: enough to tell that seed.secret is the run's
    own, nothing that helps to find it."""
    return hashlib.sha256(b"trickcore-seed-check:" + key).hexdigest()[:16]


def write_secret(out_dir: Path, key: bytes) -> Path:
    """Write a drawn master seed to ``out_dir/seed.secret``, readable by its owner only (0600
    from the moment it exists), fsynced before the first game can be played with it."""
    path = Path(out_dir) / SECRET_FILE
    write_whole(path, key.hex() + "\n", private=True, sync=True)
    return path


def read_secret(out_dir: Path, manifest: dict[str, Any]) -> bytes:
    """The master key of a run whose seed was drawn, from ``seed.secret``; ResumeError when it is
    missing or is not the run's (run.json keeps a check of it)."""
    path = Path(out_dir) / SECRET_FILE
    try:
        text = path.read_text(encoding="ascii").strip()
    except FileNotFoundError:
        raise ResumeError(f"{path} is missing: the run drew its master seed when it started and kept it there, "
                          f"and without it the run's deals cannot be rebuilt or its records checked; restore the "
                          f"file, or start again in another folder") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise ResumeError(f"{path} cannot be read ({exc}); it holds the run's master seed") from None
    if len(text) != 2 * SECRET_BYTES or any(ch not in "0123456789abcdef" for ch in text):
        raise ResumeError(f"{path} does not hold a master seed ({2 * SECRET_BYTES} hex digits)")
    key = master_key(text)
    if manifest.get("seed_check") not in (None, secret_check(key)):
        raise ResumeError(f"{path} is not the master seed this run was started with (run.json keeps a check of "
                          f"it); restore the run's own file, or start again in another folder")
    return key


# ---- reading results.jsonl -------------------------------------------------------------------

def _loads(line: bytes) -> Any:
    try:
        return orjson.loads(line)
    except orjson.JSONDecodeError:  # e.g. an integer beyond 64 bits, which the standard encoder wrote
        return json.loads(line)


class ResultsFile:
    """The lines of a results.jsonl, one at a time: ``(line number, byte offset, record)``.

    A last line without its newline (torn by a crash mid-write) or that is not JSON is left out,
    and ``end`` is then the size of the whole lines before it (so that ``--resume`` can cut it
    off and play that game again); a line that is not JSON with whole lines after it is damage,
    not a crash, and raises RecordError.  Blank lines are skipped."""

    def __init__(self, path: Path):
        self.path = Path(path)
        self.end = 0
        self.size = 0

    def __iter__(self) -> Iterator[tuple[int, int, Any]]:
        self.end = 0
        with open(self.path, "rb") as fh:
            self.size = os.fstat(fh.fileno()).st_size
            offset = 0
            for number, line in enumerate(fh, 1):
                start, offset = offset, offset + len(line)
                if not line.endswith(b"\n"):
                    return  # torn last line: no newline was written
                if not line.strip():
                    self.end = offset
                    continue
                try:
                    record = _loads(line)
                except ValueError:
                    if fh.read().strip():
                        raise RecordError(f"{self.path}, line {number}: not JSON, and lines follow it: the file "
                                          f"is damaged") from None
                    return  # a damaged last line: dropped like a torn one, its game played again
                self.end = offset
                yield number, start, record


#: The fields of a record that must be those of its job in the schedule (Job.to_dict()).
JOB_FIELDS = ("index", "table", "deal", "seed", "seating", "bots")


class RecordCheck:
    """Accepts each game of the schedule once, with the job's own fields: call it on every
    ``(line number, record)`` of results.jsonl in order; it returns the record or raises
    RecordError naming the line and what is wrong."""

    def __init__(self, schedule: Sequence[Job], path: Path, game: str, players: int):
        self.jobs = {job.job_id: job.to_dict() for job in schedule}
        self.path, self.game, self.players = Path(path), game, players
        self.line_of: dict[str, int] = {}  # job id -> the line that recorded it

    def refuse(self, number: int, what: str) -> RecordError:
        return RecordError(f"{self.path}, line {number}: {what}. The runner records each game of the run's schedule "
                           f"once, with its job, seed and seating; a line that breaks this was not written by it (or "
                           f"comes from another run), and the folder is not used until that line is removed")

    def __call__(self, number: int, record: Any) -> dict[str, Any]:
        job_id = record.get("job") if isinstance(record, dict) else None
        if not isinstance(job_id, str):
            raise self.refuse(number, "not a game record (no job id)")
        want = self.jobs.get(job_id)
        if want is None:
            raise self.refuse(number, f"game {job_id!r} is not in the run's schedule ({len(self.jobs)} games)")
        if job_id in self.line_of:
            raise self.refuse(number, f"game {job_id!r} is recorded a second time (first on line "
                                      f"{self.line_of[job_id]}; one of the two is not the runner's)")
        for field in JOB_FIELDS:
            got = record.get(field)
            if got != want[field] or type(got) is not type(want[field]):
                if field == "seed":  # the seed itself is never written into a message
                    raise self.refuse(number, f"game {job_id!r} does not have the seed the schedule deals it")
                raise self.refuse(number, f"game {job_id!r} has {field} {got!r}, the schedule {want[field]!r}")
        status = record.get("status")
        if status == "played":
            game = record.get("record")
            if not isinstance(game, dict) or game.get("seed") != want["seed"]:
                raise self.refuse(number, f"game {job_id!r}: its game record (record.seed) was not dealt with the "
                                          f"seed the schedule deals it")
            for field, value in (("game", self.game), ("players", self.players)):
                if record.get(field) != value or game.get(field) != value:
                    raise self.refuse(number, f"game {job_id!r} is a game of {field} {record.get(field)!r}, the "
                                              f"run's is {value!r}")
        elif status != "skipped":
            raise self.refuse(number, f"game {job_id!r} has status {status!r} (played or skipped)")
        self.line_of[job_id] = number
        return cast("dict[str, Any]", record)  # a dict: one with a job id got this far


def read_manifest(out_dir: Path) -> dict[str, Any]:
    path = Path(out_dir) / MANIFEST_FILE
    try:
        manifest = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise ResumeError(f"{out_dir} holds no {MANIFEST_FILE}, so the run's config and schedule are unknown and "
                          f"its records cannot be checked") from None
    except ValueError as exc:
        raise ResumeError(f"{path}: not a run manifest ({exc})") from None
    if not isinstance(manifest, dict) or not isinstance(manifest.get("config"), dict):
        raise ResumeError(f"{path}: not a run manifest (no config)")
    return manifest


def run_schedule(out_dir: Path, manifest: dict[str, Any] | None = None) -> list[Job]:
    """The schedule of the run in ``out_dir``, rebuilt from run.json (and seed.secret when the
    seed was drawn), for checking its records wherever the folder is."""
    manifest = read_manifest(out_dir) if manifest is None else manifest
    effective = manifest["config"]
    scheme = manifest.get("deal_seeds", LEGACY_DEAL_SEEDS)  # run.json of older runs does not name it
    seeded = effective.get("tournament", {}).get("seed")
    key = read_secret(out_dir, manifest) if scheme == DEAL_SEEDS and seeded == DRAWN_SEED else None
    try:
        return schedule_of_effective(effective, key, scheme, (manifest.get("deal_file") or {}).get("seeds", ()))
    except (ValueError, KeyError, TypeError) as exc:
        raise ResumeError(f"{Path(out_dir) / MANIFEST_FILE}: cannot rebuild the run's schedule: {exc}") from None


def checked_records(out_dir: Path) -> Iterator[tuple[int, int, dict[str, Any]]]:
    """``(line number, byte offset, record)`` of every record of a run folder, one line at a time,
    each checked against the run's schedule (RecordCheck): RecordError (a ResumeError) at the
    first line that is not the one record of a scheduled game; a torn last line is left out."""
    out_dir = Path(out_dir)
    manifest = read_manifest(out_dir)
    game = manifest["config"].get("game", {})
    check = RecordCheck(run_schedule(out_dir, manifest), out_dir / RESULTS_FILE, game.get("name"),
                        game.get("players"))
    for number, offset, record in ResultsFile(out_dir / RESULTS_FILE):
        yield number, offset, check(number, record)


class ResultStore:
    def __init__(self, out_dir: Path):
        self.out_dir = Path(out_dir)
        self.path = self.out_dir / RESULTS_FILE
        self._fh: TextIO | None = None
        self.schedule: list[Job] = []  # the run's schedule, once open() has its master key

    def open(self, config: TournamentConfig, resume: bool) -> dict[str, dict[str, Any]]:
        """Prepare the folder; return the records already there (by job id) when resuming, each
        checked against the run's schedule (``self.schedule``)."""
        self.out_dir.mkdir(parents=True, exist_ok=True)
        manifest_path = self.out_dir / MANIFEST_FILE
        reader = ResultsFile(self.path)
        lines = list(reader) if self.path.exists() else []
        if lines and not resume:
            raise ResumeError(f"{self.out_dir} already holds {len(lines)} game records of a tournament; "
                              f"pass --resume to continue it, --fresh to move it aside and start again, or "
                              f"choose another output folder (--out)")
        manifest = None
        scheme = DEAL_FILE if config.deal_file is not None else DEAL_SEEDS
        if resume and manifest_path.exists():
            manifest = read_manifest(self.out_dir)
            if manifest.get("fingerprint") != config.fingerprint():
                old = _flatten(_comparable_config(manifest.get("config", {})))
                new = _flatten(_comparable_config(config.effective()))
                changed = sorted(k for k in set(old) | set(new) if old.get(k) != new.get(k))
                if (manifest.get("deal_file") or {}).get("seeds") != (
                        list(config.deal_seeds[:config.deals]) if config.deal_file is not None else None):
                    changed.append("the deals of tournament.deal_file")
                raise ResumeError(
                    f"cannot resume {self.out_dir}: the config changed since the run started "
                    f"(changed: {', '.join(changed) or 'bot definitions'}); restore it or use another --out")
            if manifest.get("deal_seeds") != scheme:
                if lines:
                    raise ResumeError(
                        f"cannot resume {self.out_dir}: the run was started by an older trickcore, which derived "
                        f"deal seeds from the master seed by {manifest.get('deal_seeds', LEGACY_DEAL_SEEDS)} (this "
                        f"one: {DEAL_SEEDS}); finish it with that version, or start again in another folder")
                manifest = None  # nothing was played: start afresh
        elif resume and lines:
            raise ResumeError(f"cannot resume {self.out_dir}: it holds results but no {MANIFEST_FILE}, so the "
                              f"config they were played with is unknown")
        key = None if config.deal_file is not None else self._master_key(config, manifest)
        self.schedule = build_schedule(config, key)
        check = RecordCheck(self.schedule, self.path, config.game, config.players)
        records = {}
        for number, _, line in lines:
            record = check(number, line)
            records[record["job"]] = record
        if self.path.exists() and reader.end < reader.size:
            with open(self.path, "r+b") as fh:  # drop the torn tail; that game is played again
                fh.truncate(reader.end)
                fh.flush()
                os.fsync(fh.fileno())
        if manifest is None:
            fields = {"fingerprint": config.fingerprint(), "protocol": PROTOCOL_VERSION, "config": config.effective(),
                      "deal_seeds": scheme}
            if config.deal_file is not None:  # public deals: their seeds, so the folder is checked anywhere
                fields["deal_file"] = {"path": config.deal_file, "seeds": list(config.deal_seeds[:config.deals])}
            elif config.seed is None:
                assert key is not None  # drawn by _master_key
                fields["seed_check"] = secret_check(key)
            write_json(manifest_path, fields)
        self._fh = open(self.path, "a", encoding="utf-8")
        return records

    def _master_key(self, config: TournamentConfig, manifest: dict[str, Any] | None) -> bytes:
        """The config's seed as a key; for a run without one, the secret drawn when it started
        (``manifest`` given: resuming) or drawn now and kept in seed.secret."""
        if config.seed is not None:
            return master_key(config.seed)
        if manifest is not None:
            return read_secret(self.out_dir, manifest)
        key = secrets.token_bytes(SECRET_BYTES)
        write_secret(self.out_dir, key)
        return key

    def append(self, record: dict[str, Any]) -> None:
        # orjson: a record holds every action of the game, and the standard encoder would
        # cost a noticeable share of the runner's time per game.
        try:
            line = orjson.dumps(record, default=str, option=orjson.OPT_SORT_KEYS | orjson.OPT_NON_STR_KEYS
                                | orjson.OPT_APPEND_NEWLINE).decode()
        except TypeError:  # e.g. an integer beyond 64 bits
            line = json.dumps(record, sort_keys=True, separators=(",", ":"), default=str) + "\n"
        assert self._fh is not None  # open() comes first
        self._fh.write(line)
        self._fh.flush()
        os.fsync(self._fh.fileno())

    def close(self) -> None:
        if self._fh is not None:
            self._fh.close()
            self._fh = None


def read_results(out_dir: Path) -> list[dict[str, Any]]:
    """All records of a results folder, in schedule order, each checked against the run's
    schedule (RecordError, a ResumeError, names the first line that is not the one record of a
    scheduled game); a torn last line is left out."""
    return sorted((record for _, _, record in checked_records(Path(out_dir))), key=lambda r: r["index"])


def comparable(record: dict[str, Any]) -> dict[str, Any]:
    """A record without its timing-dependent fields: equal for two runs of the same games."""
    out = {k: v for k, v in record.items() if k not in TIMING_FIELDS}
    if "actions" in out:
        out["actions"] = [{k: v for k, v in a.items() if k not in TIMING_ACTION_FIELDS} for a in out["actions"]]
    return out


def write_csv(path: Path, header: list[str], rows: Iterable[list[Any]]) -> None:
    buf = io.StringIO()
    writer = csv.writer(buf, lineterminator="\n")
    writer.writerow(header)
    writer.writerows(rows)
    path.write_text(buf.getvalue(), encoding="utf-8")


def record_in_manifest(out_dir: Path, key: str, value: Any) -> None:
    """Add (or replace) one entry of run.json that says how the run came out (``sprt``: the
    sequential test's decision), leaving every entry that defines the run as it was; the file
    is replaced whole."""
    path = Path(out_dir) / MANIFEST_FILE
    manifest = json.loads(path.read_text(encoding="utf-8"))
    manifest[key] = value
    write_json(path, manifest)


