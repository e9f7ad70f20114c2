"""Submissions: an author's archive unpacked safely, its ``bot.toml`` read, the bot checked with
``compliance`` in the sandbox, and stored as the bot's new version or refused with the report.

Unpacking trusts nothing the archive says about itself.  The decompressed stream is counted as
it is read, so a small archive that inflates without end (a bomb) stops at the league's limit,
whatever its headers claim; every member is checked before it is written: regular files and
folders only, plus symbolic links whose target stays in the bot's folder (no hard links, devices,
pipes or sparse files), no absolute name and no ``..``, no control characters, at most
``max_files`` of them, none larger than ``max_file_mb``, ``max_unpacked_mb`` together.  Files
are created new (``O_EXCL | O_NOFOLLOW``) in a folder whose real path is checked to lie inside
the bot's folder, so a link made earlier in the archive cannot lead a later file out.
"""

from __future__ import annotations

import bz2
import dataclasses
import datetime as dt
import gzip
import io
import lzma
import os
import posixpath
import secrets
import shlex
import shutil
import sys
import tarfile
from pathlib import Path
from typing import IO, Any, cast

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from tournament.compliance import ComplianceReport, run_compliance
from tournament.config import ConfigError, resolve_command
from tournament.league.authors import LeagueError, author_of_token, check_name
from tournament.league.config import LeagueConfig, SubmissionLimits
from tournament.league.db import Bot, Submission, Version, now
from tournament.league.errors import RateLimited
from tournament.league.league import BOTS_DIR, UPLOADS_DIR, League
from tournament.validate import Checker

if sys.version_info >= (3, 11):
    import tomllib
else:  # Python 3.10: the same parser, as a package
    import tomli as tomllib

MB = 1 << 20
BOT_FILE = "bot.toml"
BOT_KEYS = ("name", "command", "runtime", "options")
_CHUNK = 1 << 16


class ArchiveRefused(LeagueError):
    """An archive the league does not unpack; the message says which rule it broke."""


class _CappedReader(io.RawIOBase):
    """The decompressed stream, refused past ``cap`` bytes: what bounds a bomb is what is read,
    not what the archive's headers say."""

    def __init__(self, stream: IO[bytes], cap: int) -> None:
        self.stream, self.cap, self.read_bytes = stream, cap, 0

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        data = self.stream.read(len(buffer))
        self.read_bytes += len(data)
        if self.read_bytes > self.cap:
            raise ArchiveRefused(f"the archive unpacks to more than {self.cap // MB} MB (an archive bomb?); "
                                 f"the league's limit is submissions.max_unpacked_mb")
        buffer[:len(data)] = data
        return len(data)


def _decompressed(raw: IO[bytes]) -> IO[bytes]:
    """The tar stream of a .tar, .tar.gz, .tar.bz2 or .tar.xz, told apart by their first bytes."""
    magic = raw.read(6)
    raw.seek(0)
    if magic.startswith(b"\x1f\x8b"):
        return cast(IO[bytes], gzip.GzipFile(fileobj=raw, mode="rb"))
    if magic.startswith(b"BZh"):
        return bz2.BZ2File(raw)
    if magic.startswith(b"\xfd7zXZ\x00"):
        return lzma.LZMAFile(raw)
    return raw


def _member_name(name: str) -> str:
    if not name or any(ord(ch) < 32 or ord(ch) == 127 for ch in name):
        raise ArchiveRefused(f"a file name with control characters: {name!r}")
    if name.startswith("/") or "\\" in name:
        raise ArchiveRefused(f"{name!r}: an absolute name or a backslash; names are relative, with '/'")
    parts = [p for p in name.split("/") if p not in ("", ".")]
    if ".." in parts:
        raise ArchiveRefused(f"{name!r} leads out of the bot's folder ('..')")
    return "/".join(parts)


def _inside(folder: Path, path: Path) -> bool:
    return os.path.commonpath([os.path.realpath(folder), os.path.realpath(path)]) == os.path.realpath(folder)


def unpack(archive: Path, dest: Path, limits: SubmissionLimits) -> None:
    """Unpack ``archive`` into the new folder ``dest`` under ``limits``; ArchiveRefused says why not
    (``dest`` is then left for the caller to remove)."""
    size = archive.stat().st_size
    if size > limits.max_archive_mb * MB:
        raise ArchiveRefused(f"the archive has {size / MB:.1f} MB; the league takes at most "
                             f"{limits.max_archive_mb:g} MB (submissions.max_archive_mb)")
    max_total, max_file = int(limits.max_unpacked_mb * MB), int(limits.max_file_mb * MB)
    dest.mkdir(parents=True)
    total = count = 0
    with open(archive, "rb") as raw:
        # the tar stream: contents, plus a 512-byte header and up to 511 bytes of padding per member
        capped = io.BufferedReader(_CappedReader(_decompressed(raw), max_total + 1024 * (limits.max_files + 20)))
        try:
            tar = tarfile.open(fileobj=capped, mode="r|")
        except tarfile.TarError as exc:
            raise ArchiveRefused(f"not a tar archive (.tar, .tar.gz, .tar.bz2 or .tar.xz): {exc}") from None
        try:
            for member in tar:
                count += 1
                if count > limits.max_files:
                    raise ArchiveRefused(f"more than {limits.max_files} files and folders (submissions.max_files)")
                name = _member_name(member.name)
                if not name:
                    continue  # the archive's top folder, "."
                target = dest / name
                if not _inside(dest, target.parent):  # followed through the links made so far
                    raise ArchiveRefused(f"{member.name!r} lies behind a link that leads out of the bot's folder")
                if member.isdir():
                    target.mkdir(parents=True, exist_ok=True)
                elif member.issym():
                    _link(dest, name, member.linkname)
                elif member.isfile() and not member.sparse:
                    if member.size > max_file:
                        raise ArchiveRefused(f"{name!r} has {member.size / MB:.1f} MB; at most "
                                             f"{limits.max_file_mb:g} MB per file (submissions.max_file_mb)")
                    total += member.size
                    if total > max_total:
                        raise ArchiveRefused(f"the files add up to more than {limits.max_unpacked_mb:g} MB "
                                             f"(submissions.max_unpacked_mb)")
                    source = tar.extractfile(member)
                    assert source is not None  # a regular file
                    _write(target, source, member.size, 0o755 if member.mode & 0o111 else 0o644)
                elif member.islnk():
                    raise ArchiveRefused(f"{name!r} is a hard link; only files, folders and links inside the "
                                         f"bot's folder are taken")
                else:
                    raise ArchiveRefused(f"{name!r} is not a file, folder or link (a device, pipe or sparse file)")
        except (tarfile.TarError, EOFError, OSError, lzma.LZMAError) as exc:
            raise ArchiveRefused(f"a damaged archive: {exc}") from None
        finally:
            tar.close()
    _check_links(dest)


def _check_links(dest: Path) -> None:
    """Every link, followed through the links it passes, ends inside ``dest`` (a link may point
    through another made after it, so each is checked once all are there)."""
    for folder, dirs, names in os.walk(dest):
        for name in (*dirs, *names):
            path = Path(folder) / name
            if path.is_symlink() and not _inside(dest, path):
                raise ArchiveRefused(f"{path.relative_to(dest)} is a link that leads out of the bot's folder")


def _link(dest: Path, name: str, target: str) -> None:
    if target.startswith("/") or not target:
        raise ArchiveRefused(f"{name!r} is a link to {target!r}, outside the bot's folder")
    resolved = posixpath.normpath(posixpath.join(posixpath.dirname(name), target))
    if resolved == ".." or resolved.startswith("../"):
        raise ArchiveRefused(f"{name!r} is a link to {target!r}, outside the bot's folder")
    path = dest / name
    path.parent.mkdir(parents=True, exist_ok=True)
    try:
        os.symlink(target, path)
    except FileExistsError:
        raise ArchiveRefused(f"{name!r} is in the archive twice") from None


def _write(target: Path, source: IO[bytes], size: int, mode: int) -> None:
    target.parent.mkdir(parents=True, exist_ok=True)
    try:
        fd = os.open(target, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, mode)
    except FileExistsError:
        raise ArchiveRefused(f"{target.name!r} is in the archive twice") from None
    written = 0
    with os.fdopen(fd, "wb") as out:
        while chunk := source.read(_CHUNK):
            written += len(chunk)
            if written > size:  # more than its header said: never trust the header alone
                raise ArchiveRefused(f"{target.name!r} holds more than its header says")
            out.write(chunk)
    os.chmod(target, mode)  # the umask must not hide a bot's files from its sandboxed user


@dataclasses.dataclass(frozen=True)
class BotFile:
    name: str
    command: tuple[str, ...]  # the bot's own words, relative to its folder
    runtime: str
    options: dict[str, Any]  # set with setoption before each game, as a tournament's bot options are


def read_bot_file(folder: Path, config: LeagueConfig) -> BotFile:
    """``bot.toml``: the bot's name, its command (words, relative to its folder) and a runtime the
    league offers; ConfigError lists every problem at its key."""
    path = folder / BOT_FILE
    if not path.is_file() or path.is_symlink():
        raise ConfigError([f"no {BOT_FILE} at the top of the archive (or in its one top folder)"], BOT_FILE)
    try:
        doc = tomllib.loads(path.read_text(encoding="utf-8"))
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise ConfigError([f"not valid TOML: {exc}"], BOT_FILE) from None
    c = Checker()
    c.unknown_keys(doc, BOT_KEYS, "")
    name = c.string(doc, "name", "", None, required=True)
    if name is not None:
        try:
            check_name(name, "bot")
        except LeagueError as exc:
            c.error("name", str(exc))
    runtime = c.string(doc, "runtime", "", None, tuple(config.runtimes), required=True)
    raw = doc.get("command")
    words: list[str] = []
    if isinstance(raw, str):
        words = shlex.split(raw)
    elif isinstance(raw, list) and all(isinstance(w, str) for w in raw):
        words = list(raw)
    if not words:
        c.error("command", f"must be the bot's program or script and its arguments, as an array of strings or "
                           f"one string, e.g. [\"bot.py\"], got {raw!r}")
    for word in words:
        if word.startswith("/") or ".." in word.split("/"):
            c.error("command", f"{word!r}: a path outside the bot's folder; name its own files, relative to it")
    if words and not (folder / words[0]).is_file():
        c.error("command", f"{words[0]!r}: no such file in the archive (the command's first word is the bot's "
                           f"script, or for the runtime 'native' its program)")
    options = c.table(doc, "options")
    for key, value in options.items():
        if isinstance(value, (dict, list)) or not isinstance(key, str) or not key.strip():
            c.error(f"options.{key}", f"must be a number, a string or true/false, got {value!r}")
    if c.problems:
        raise ConfigError(c.problems, BOT_FILE)
    assert name is not None and runtime is not None
    return BotFile(name, tuple(words), runtime, dict(options))


def bot_command(config: LeagueConfig, folder: Path, runtime: str, words: list[str] | tuple[str, ...]
                ) -> tuple[str, ...]:
    """The command that runs a version: its runtime's words, then its own with their paths in its
    folder.  Without runtime words (``native``) the first word is the bot's own program, never one
    looked up on PATH."""
    prefix = config.runtimes[runtime]
    first = words[0] if prefix or "/" in words[0] else f"./{words[0]}"
    return resolve_command([*prefix, first, *words[1:]], folder)


@dataclasses.dataclass(frozen=True)
class Outcome:
    accepted: bool
    bot: str  # the name it was submitted under ("" when the archive did not say)
    version: int | None
    report: str

    def describe(self) -> str:
        head = (f"accepted: {self.bot} version {self.version} joins the ladder" if self.accepted
                else f"refused{f': {self.bot}' if self.bot else ''}")
        return f"{head}\n{self.report}"


def format_report(report: ComplianceReport) -> str:
    return "\n".join(f"{'PASS' if c.ok else 'FAIL'}  {c.name}: {c.detail}" for c in report.checks)


def _bot_root(unpacked: Path) -> Path:
    """The folder holding bot.toml: the archive's top, or its one top folder (``tar czf b.tgz mybot/``)."""
    if (unpacked / BOT_FILE).exists():
        return unpacked
    entries = list(unpacked.iterdir())
    if len(entries) == 1 and entries[0].is_dir() and not entries[0].is_symlink():
        return entries[0]
    return unpacked


def check_submitter(league: League, token: str | None) -> int:
    """The id of the author whose token this is, if they may submit now: TokenRefused for a
    wrong token, RateLimited past the league's submissions per hour.  The server asks this as
    soon as an upload's token has arrived, before it takes the archive."""
    config = league.config
    with Session(league.engine) as session:
        author = author_of_token(session, token)
        since = now() - dt.timedelta(hours=1)
        recent = session.scalar(select(func.count()).select_from(Submission)
                                .where(Submission.author_id == author.id, Submission.created > since)) or 0
        if recent >= config.submissions.per_hour:
            # Not recorded: a flood must not grow the database either.
            raise RateLimited(f"{author.name} made {recent} submissions in the last hour, the league's limit "
                              f"(submissions.per_hour = {config.submissions.per_hour}); try again later")
        return author.id


def submit(league: League, token: str | None, archive: Path) -> Outcome:
    """Take an author's archive: refused with the reason, or a new version of the named bot."""
    author_id = check_submitter(league, token)
    work = league.folder / UPLOADS_DIR / f"{author_id}-{secrets.token_hex(8)}"
    try:
        return _check_and_store(league, author_id, archive, work)
    finally:
        shutil.rmtree(work, ignore_errors=True)


def _check_and_store(league: League, author_id: int, archive: Path, work: Path) -> Outcome:
    config = league.config
    bot_name = ""
    try:
        unpack(archive, work / "files", config.submissions)
        root = _bot_root(work / "files")
        bot_file = read_bot_file(root, config)
        bot_name = bot_file.name
        _check_owner(league, author_id, bot_name)
        command = bot_command(config, root, bot_file.runtime, bot_file.command)
        report = run_compliance(list(command), game=config.game, players=config.players,
                                games=config.submissions.compliance_games, startup_ms=config.time.startup_ms,
                                decision_ms=config.time.decision_ms, options=bot_file.options,
                                out_dir=str(work / "compliance"), sandbox=config.sandbox.kind)
    except (ArchiveRefused, ConfigError, LeagueError) as exc:
        return _record(league, author_id, bot_name, None, str(exc))
    text = format_report(report)
    if not report.ok:
        return _record(league, author_id, bot_name, None, f"the bot failed the compliance check:\n{text}")
    return _store(league, author_id, bot_file, root, text)


def _check_owner(league: League, author_id: int, name: str) -> None:
    with Session(league.engine) as session:
        bot = session.scalar(select(Bot).where(Bot.name == name))
        if bot is not None and bot.author_id != author_id:
            raise LeagueError(f"the bot name {name!r} belongs to another author; choose another name in {BOT_FILE}")
        if bot is not None and bot.banned:
            raise LeagueError(f"the bot {name!r} is banned from this league")


def _store(league: League, author_id: int, bot_file: BotFile, root: Path, report: str) -> Outcome:
    config = league.config
    with Session(league.engine) as session, session.begin():
        bot = session.scalar(select(Bot).where(Bot.name == bot_file.name))
        if bot is None:
            bot = Bot(author_id=author_id, name=bot_file.name)
            session.add(bot)
            session.flush()
        number = (session.scalar(select(func.max(Version.number)).where(Version.bot_id == bot.id)) or 0) + 1
        folder = Path(BOTS_DIR) / bot_file.name / f"v{number}"
        (league.folder / folder).parent.mkdir(parents=True, exist_ok=True)
        os.rename(root, league.folder / folder)
        # One version per bot plays: the new one; the old ones keep their games and ratings.
        for old in session.scalars(select(Version).where(Version.bot_id == bot.id, Version.active)):
            old.active = False
        bot.withdrawn = False
        version = Version(bot_id=bot.id, number=number, folder=str(folder), command=list(bot_file.command),
                          options=bot_file.options,
                          runtime=bot_file.runtime, active=True, mu=config.rating.mu, sigma=config.rating.sigma)
        session.add(version)
        session.flush()
        session.add(Submission(author_id=author_id, bot_name=bot_file.name, accepted=True, report=report,
                               version_id=version.id))
    return Outcome(True, bot_file.name, number, report)


def _record(league: League, author_id: int, bot_name: str, version_id: int | None, report: str) -> Outcome:
    with Session(league.engine) as session, session.begin():
        session.add(Submission(author_id=author_id, bot_name=bot_name[:200], accepted=False, report=report,
                               version_id=version_id))
    return Outcome(False, bot_name, None, report)
