"""The output folder: append-only game records, the run manifest, resume, summary files.

``results.jsonl`` holds one JSON object per finished game, written with a single
``write`` of a whole line, flushed and fsynced before the next game is accounted, so
a killed runner or a power loss can lose at most the game in flight -- never one already
recorded.  A torn last line (power loss mid-write) is cut off on resume and its game is
played again.  ``run.json`` fixes the config fingerprint; a resume with a changed config
is refused with the keys that differ.
"""

from __future__ import annotations

import csv
import io
import json
import os
from collections.abc import Iterable
from pathlib import Path

import orjson

from tournament.config import RUN_ENVIRONMENT_KEYS, TournamentConfig
from tournament.match import TIMING_ACTION_FIELDS, TIMING_FIELDS
from tournament.wire import PROTOCOL_VERSION

RESULTS_FILE = "results.jsonl"
MANIFEST_FILE = "run.json"
EFFECTIVE_CONFIG_FILE = "config.toml"


class ResumeError(RuntimeError):
    """The output folder cannot be (re)used as asked."""


def _flatten(d: dict, prefix: str = "") -> dict:
    out = {}
    for k, v in d.items():
        key = f"{prefix}.{k}" if prefix else str(k)
        if isinstance(v, dict):
            out.update(_flatten(v, key))
        else:
            out[key] = v
    return out


def _comparable_config(effective: dict) -> dict:
    eff = json.loads(json.dumps(effective, default=str))
    for section, key in RUN_ENVIRONMENT_KEYS:
        eff.get(section, {}).pop(key, None)
    return eff


class ResultStore:
    def __init__(self, out_dir: Path):
        self.out_dir = Path(out_dir)
        self.path = self.out_dir / RESULTS_FILE
        self._fh = None

    def open(self, config: TournamentConfig, resume: bool) -> dict[str, dict]:
        """Prepare the folder; return the records already there (by job id) when resuming."""
        self.out_dir.mkdir(parents=True, exist_ok=True)
        manifest_path = self.out_dir / MANIFEST_FILE
        records = self._read_records() if self.path.exists() else {}
        if records and not resume:
            raise ResumeError(f"{self.out_dir} already holds {len(records)} game records of a tournament; "
                              f"pass --resume to continue it, or choose another output folder (--out)")
        if resume and manifest_path.exists():
            manifest = json.loads(manifest_path.read_text(encoding="utf-8"))
            if manifest.get("fingerprint") != config.fingerprint():
                old = _flatten(_comparable_config(manifest.get("config", {})))
                new = _flatten(_comparable_config(config.effective()))
                changed = sorted(k for k in set(old) | set(new) if old.get(k) != new.get(k))
                raise ResumeError(
                    f"cannot resume {self.out_dir}: the config changed since the run started "
                    f"(changed: {', '.join(changed) or 'bot definitions'}); restore it or use another --out")
        elif resume and records:
            raise ResumeError(f"cannot resume {self.out_dir}: it holds results but no {MANIFEST_FILE}, so the "
                              f"config they were played with is unknown")
        if not manifest_path.exists() or not resume:
            tmp = manifest_path.with_suffix(".tmp")
            tmp.write_text(json.dumps({"fingerprint": config.fingerprint(), "protocol": PROTOCOL_VERSION,
                                       "config": config.effective()}, indent=2, sort_keys=True, default=str),
                           encoding="utf-8")
            os.replace(tmp, manifest_path)
        self._fh = open(self.path, "a", encoding="utf-8")
        return records

    def _read_records(self) -> dict[str, dict]:
        data = self.path.read_bytes()
        records: dict[str, dict] = {}
        good_end = 0
        pos = 0
        while pos < len(data):
            nl = data.find(b"\n", pos)
            if nl < 0:
                break  # torn last line: no newline was written
            line = data[pos:nl]
            try:
                record = json.loads(line)
            except ValueError:
                if data[nl + 1:].strip():
                    raise ResumeError(f"{self.path}: line at byte {pos} is not JSON and is not the last line; "
                                      f"the file is damaged") from None
                break
            if line.strip():
                records[record["job"]] = record
            good_end = pos = nl + 1
        if good_end < len(data):
            with open(self.path, "r+b") as fh:  # drop the torn tail; that game is played again
                fh.truncate(good_end)
                fh.flush()
                os.fsync(fh.fileno())
        return records

    def append(self, record: dict) -> None:
        # orjson: a record holds every action of the game, and the standard encoder would
        # cost a noticeable share of the runner's time per game.
        try:
            line = orjson.dumps(record, default=str, option=orjson.OPT_SORT_KEYS | orjson.OPT_NON_STR_KEYS
                                | orjson.OPT_APPEND_NEWLINE).decode()
        except TypeError:  # e.g. an integer beyond 64 bits
            line = json.dumps(record, sort_keys=True, separators=(",", ":"), default=str) + "\n"
        self._fh.write(line)
        self._fh.flush()
        os.fsync(self._fh.fileno())

    def close(self) -> None:
        if self._fh is not None:
            self._fh.close()
            self._fh = None


def read_results(out_dir: Path) -> list[dict]:
    """All records of a results folder, in schedule order."""
    path = Path(out_dir) / RESULTS_FILE
    records = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.strip():
            try:
                records.append(json.loads(line))
            except ValueError:
                break
    return sorted(records, key=lambda r: r["index"])


def comparable(record: dict) -> dict:
    """A record without its timing-dependent fields: equal for two runs of the same games."""
    out = {k: v for k, v in record.items() if k not in TIMING_FIELDS}
    if "actions" in out:
        out["actions"] = [{k: v for k, v in a.items() if k not in TIMING_ACTION_FIELDS} for a in out["actions"]]
    return out


def write_csv(path: Path, header: list[str], rows: Iterable[list]) -> None:
    buf = io.StringIO()
    writer = csv.writer(buf, lineterminator="\n")
    writer.writerow(header)
    writer.writerows(rows)
    path.write_text(buf.getvalue(), encoding="utf-8")


def write_json(path: Path, payload) -> None:
    path.write_text(json.dumps(payload, indent=2, sort_keys=True, default=str) + "\n", encoding="utf-8")
