"""Submissions: archives unpacked under the league's limits, bot.toml read, the bot checked with
compliance in the real sandbox, stored as a new version or refused with the reason; hostile
archives (traversal, links out, bombs, huge files, markup in names), wrong tokens and floods
refused with a clear message and nothing written outside the upload's folder."""

from __future__ import annotations

import gzip
import io
import os
import subprocess
import sys
import tarfile
from collections.abc import Iterator
from pathlib import Path

import pytest
import tomli_w
from sqlalchemy import select
from sqlalchemy.orm import Session

from tournament.league.authors import LeagueError, add_author
from tournament.league.config import LEAGUE_FILE
from tournament.league.db import LeagueTable, Submission, Version
from tournament.league.league import League, init_league, open_league
from tournament.league.submit import ArchiveRefused, unpack

if sys.version_info >= (3, 11):
    import tomllib
else:
    import tomli as tomllib

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE_BOT = (ROOT / "tournament" / "bots" / "example_bot.py").read_bytes()
TRICKCORE = [str(Path(sys.executable).parent / "trickcore")]
BOT_TOML = b'name = "example"\nruntime = "python"\ncommand = ["bot.py"]\n'


def tar_gz(members: list[tuple[tarfile.TarInfo, bytes | None]], compress: bool = True) -> bytes:
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w:gz" if compress else "w") as tar:
        for info, data in members:
            if data is not None:
                info.size = len(data)
            tar.addfile(info, io.BytesIO(data) if data is not None else None)
    return buffer.getvalue()


def file(name: str, data: bytes, mode: int = 0o644) -> tuple[tarfile.TarInfo, bytes]:
    info = tarfile.TarInfo(name)
    info.mode = mode
    return info, data


def link(name: str, target: str, kind: bytes = tarfile.SYMTYPE) -> tuple[tarfile.TarInfo, None]:
    info = tarfile.TarInfo(name)
    info.type = kind
    info.linkname = target
    return info, None


def bot_archive(bot: bytes = EXAMPLE_BOT, toml: bytes = BOT_TOML, extra: tuple[tuple[tarfile.TarInfo, bytes | None],
                ...] = ()) -> bytes:
    return tar_gz([file("bot.toml", toml), file("bot.py", bot, 0o755), *extra])


def write(tmp_path: Path, data: bytes, name: str = "bot.tar.gz") -> Path:
    path = tmp_path / name
    path.write_bytes(data)
    return path


@pytest.fixture
def league(tmp_path: Path) -> Iterator[League]:
    folder = tmp_path / "lg"
    init_league(folder, "beim-jupiter", 3).close()
    doc = tomllib.loads((folder / LEAGUE_FILE).read_text())
    doc["submissions"].update(max_unpacked_mb=1, max_file_mb=0.5, max_files=20, per_hour=4, compliance_games=1)
    (folder / LEAGUE_FILE).write_text(tomli_w.dumps(doc))
    opened = open_league(folder)
    yield opened
    opened.close()


def versions(league: League) -> list[tuple[str, int, bool]]:
    with Session(league.engine) as session:
        rows = session.execute(select(Version.folder, Version.number, Version.active).order_by(Version.id)).all()
        return [(str(f), n, a) for f, n, a in rows]


def test_a_compliant_bot_joins_as_a_new_version_and_its_old_version_stops_playing(league: League,
                                                                                   tmp_path: Path) -> None:
    from tournament.league.submit import submit

    token = add_author(league.engine, "alice")
    first = submit(league, token, write(tmp_path, bot_archive()))
    assert first.accepted and first.version == 1, first.report
    assert "PASS  games: 1 games of beim-jupiter with 3 seats" in first.report
    second = submit(league, token, write(tmp_path, bot_archive()))
    assert second.accepted and second.version == 2
    assert versions(league) == [("bots/example/v1", 1, False), ("bots/example/v2", 2, True)]
    assert (league.folder / "bots" / "example" / "v2" / "bot.py").read_bytes() == EXAMPLE_BOT
    assert not list((league.folder / "uploads").iterdir())  # the upload's working folder is gone
    other = add_author(league.engine, "bob")
    taken = submit(league, other, write(tmp_path, bot_archive()))
    assert not taken.accepted and "belongs to another author" in taken.report


def test_a_bot_in_a_top_folder_of_its_archive_and_a_native_program(league: League, tmp_path: Path) -> None:
    from tournament.league.submit import submit

    token = add_author(league.engine, "alice")
    program = b"#!" + sys.executable.encode() + b"\n" + EXAMPLE_BOT
    toml = b'name = "native-one"\nruntime = "native"\ncommand = "bot"\n'
    archive = tar_gz([file("mine/bot.toml", toml), file("mine/bot", program, 0o755)])
    outcome = submit(league, token, write(tmp_path, archive))
    assert outcome.accepted, outcome.report
    assert os.access(league.folder / "bots" / "native-one" / "v1" / "bot", os.X_OK)


def test_a_bot_that_fails_compliance_is_refused_with_its_report(league: League, tmp_path: Path) -> None:
    from tournament.league.submit import submit

    token = add_author(league.engine, "alice")
    silent = b"import sys\nsys.stdin.readline()\nprint('hello there', flush=True)\n"
    outcome = submit(league, token, write(tmp_path, bot_archive(bot=silent)))
    assert not outcome.accepted
    assert "failed the compliance check" in outcome.report and "FAIL  handshake" in outcome.report
    assert versions(league) == []
    with Session(league.engine) as session:
        (row,) = session.scalars(select(Submission)).all()
        assert (row.accepted, row.bot_name, row.report) == (False, "example", outcome.report)
    assert not (league.folder / "bots" / "example").exists()


def test_the_submitted_bot_sees_neither_the_database_nor_other_bots(league: League, tmp_path: Path) -> None:
    """A spy names itself after what it could read: the league's database, league.toml, another
    bot's files.  Its compliance report shows the name it sent."""
    from tournament.league.submit import submit

    token = add_author(league.engine, "alice")
    assert submit(league, token, write(tmp_path, bot_archive())).accepted
    targets = [league.folder / "league.db", league.folder / LEAGUE_FILE, league.folder / "bots/example/v1/bot.py"]
    spy = (b"import os\nTARGETS = " + repr([str(t) for t in targets]).encode() + b"\n"
           b"seen = [t for t in TARGETS if os.access(t, os.R_OK)]\n" + EXAMPLE_BOT.replace(
               b'send("id name example-bot")', b'send("id name " + ("saw-" + str(len(seen)) if seen else "blind"))'))
    toml = b'name = "spy"\nruntime = "python"\ncommand = ["bot.py"]\n'
    outcome = submit(league, token, write(tmp_path, bot_archive(bot=spy, toml=toml)))
    assert outcome.accepted and "name 'blind'" in outcome.report, outcome.report


@pytest.mark.parametrize("members, message", [
    ([file("../evil.py", b"x")], "leads out of the bot's folder ('..')"),
    ([file("a/../../evil.py", b"x")], "leads out of the bot's folder ('..')"),
    ([file("/srv/bot/evil.py", b"x")], "an absolute name"),
    ([link("out", "/etc/passwd")], "is a link to '/etc/passwd', outside the bot's folder"),
    ([link("up", "../..")], "is a link to '../..', outside the bot's folder"),
    # each link stays inside by its own text; followed through the other, the second leads out
    ([link("sub/l2", "../l1/.."), link("l1", ".")], "sub/l2 is a link that leads out of the bot's folder"),
    ([link("d", "."), link("sub/up", "../d/.."), file("sub/up/evil.py", b"x")],
     "lies behind a link that leads out"),
    ([file("bot.py", b"x"), link("hard", "bot.py", tarfile.LNKTYPE)], "is a hard link"),
    ([file("big.bin", b"\0" * (600 << 10))], "at most 0.5 MB per file (submissions.max_file_mb)"),
    ([file(f"f{i}.bin", b"\1" * (300 << 10)) for i in range(4)], "more than 1 MB (submissions.max_unpacked_mb)"),
    ([file(f"f{i}", b"") for i in range(25)], "more than 20 files and folders (submissions.max_files)"),
    ([file("bot.py", b"x"), file("bot.py", b"y")], "'bot.py' is in the archive twice"),
    ([file("a\x1b[2Jb", b"x")], "control characters"),
], ids=["dotdot", "dotdot-inner", "absolute", "symlink-abs", "symlink-up", "symlink-chain", "write-through-link",
        "hardlink", "huge-file", "too-much", "too-many", "twice", "control-chars"])
def test_hostile_archives_are_refused_and_write_nothing_outside(tmp_path: Path, members: list[tuple[tarfile.TarInfo,
                                                                bytes | None]], message: str) -> None:
    from tournament.league.config import SubmissionLimits

    limits = SubmissionLimits(max_unpacked_mb=1, max_file_mb=0.5, max_files=20)
    box = tmp_path / "box"
    box.mkdir()
    with pytest.raises(ArchiveRefused) as caught:
        unpack(write(tmp_path, tar_gz(members)), box / "dest", limits)
    assert message in str(caught.value)
    outside = sorted(p.name for p in tmp_path.rglob("*") if box not in p.parents and p != box)
    assert outside == ["bot.tar.gz"] and not (tmp_path / "evil.py").exists()


def test_an_archive_bomb_stops_at_the_limit_whatever_its_headers_say(tmp_path: Path) -> None:
    from tournament.league.config import SubmissionLimits

    limits = SubmissionLimits(max_unpacked_mb=1, max_file_mb=1, max_files=20)
    # A 10-byte file under a 50 MB extended (pax) header, which a tar reader takes into memory
    # before the file's own header, so the file's size says nothing about it: 50 kB compressed.
    # The decompressed stream is what is counted.
    header = tarfile.TarInfo("small.txt")
    header.size = 10
    header.pax_headers = {"comment": "x" * (50 << 20)}
    bomb = gzip.compress(header.tobuf(tarfile.PAX_FORMAT) + b"x" * 512, compresslevel=9)
    assert len(bomb) < 100_000
    with pytest.raises(ArchiveRefused, match="unpacks to more than 1 MB"):
        unpack(write(tmp_path, bomb), tmp_path / "dest", limits)
    big_file = gzip.compress(tar_gz([file("zeros", b"\0" * (3 << 20))], compress=False))
    with pytest.raises(ArchiveRefused, match="at most 1 MB per file"):
        unpack(write(tmp_path, big_file), tmp_path / "dest2", limits)
    with pytest.raises(ArchiveRefused, match="the archive has .* MB; the league takes at most 0.01 MB"):
        unpack(write(tmp_path, os.urandom(20_000)), tmp_path / "dest3", SubmissionLimits(max_archive_mb=0.01))
    with pytest.raises(ArchiveRefused, match="not a tar archive|a damaged archive"):
        unpack(write(tmp_path, b"PK\3\4 a zip file"), tmp_path / "dest4", limits)


def test_links_inside_the_bot_folder_are_kept(tmp_path: Path) -> None:
    from tournament.league.config import SubmissionLimits

    archive = tar_gz([file("lib/real.py", b"x = 1\n"), link("alias.py", "lib/real.py"), link("lib/self", ".")])
    unpack(write(tmp_path, archive), tmp_path / "dest", SubmissionLimits())
    assert (tmp_path / "dest" / "alias.py").read_text() == "x = 1\n"


@pytest.mark.parametrize("toml, message", [
    (b'name = "<script>alert(1)</script>"\nruntime = "python"\ncommand = ["bot.py"]\n', "name: bot name"),
    (b'name = "ok"\nruntime = "cobol"\ncommand = ["bot.py"]\n', "runtime: must be one of python, native"),
    (b'name = "ok"\nruntime = "python"\ncommand = ["/usr/bin/env"]\n', "a path outside the bot's folder"),
    (b'name = "ok"\nruntime = "python"\ncommand = ["<b>.py"]\n', "'<b>.py': no such file in the archive"),
    (b'name = "ok"\nruntime = "python"\ncomand = ["bot.py"]\n', "comand: unknown key (did you mean 'command'?)"),
    (b'name = "ok\n', "not valid TOML"),
], ids=["markup-name", "runtime", "outside", "markup-command", "typo", "toml"])
def test_a_bad_bot_toml_is_refused_with_its_key(league: League, tmp_path: Path, toml: bytes, message: str) -> None:
    from tournament.league.submit import submit

    token = add_author(league.engine, "alice")
    outcome = submit(league, token, write(tmp_path, bot_archive(toml=toml)))
    assert not outcome.accepted and message in outcome.report, outcome.report
    assert versions(league) == []


def test_wrong_tokens_and_floods_are_refused_before_anything_is_unpacked(league: League, tmp_path: Path) -> None:
    from tournament.league.submit import submit

    token = add_author(league.engine, "alice")
    archive = write(tmp_path, tar_gz([file("bot.toml", b"broken")]))
    for wrong in (None, "", token + "x", "1.nothing"):
        with pytest.raises(LeagueError, match="wrong or missing author token"):
            submit(league, wrong, archive)
    for _ in range(4):  # refused ones count: the limit is on submissions, not on accepted bots
        assert not submit(league, token, archive).accepted
    with pytest.raises(LeagueError, match=r"made 4 submissions in the last hour.*per_hour = 4"):
        submit(league, token, archive)
    with Session(league.engine) as session:
        assert len(session.scalars(select(Submission)).all()) == 4
    assert not list((league.folder / "uploads").iterdir())


def test_submit_on_the_command_line(tmp_path: Path) -> None:
    folder = tmp_path / "lg"
    subprocess.run([*TRICKCORE, "league", "init", str(folder), "--game", "klaberjass", "-p", "2"], check=True,
                   capture_output=True)
    token = subprocess.run([*TRICKCORE, "league", "add-author", str(folder), "alice"], check=True,
                           capture_output=True, text=True).stdout.strip()
    archive = write(tmp_path, bot_archive())
    done = subprocess.run([*TRICKCORE, "league", "submit", str(folder), "--token", token, str(archive)],
                          capture_output=True, text=True)
    assert done.returncode == 0 and done.stdout.startswith("accepted: example version 1 joins the ladder")
    wrong = subprocess.run([*TRICKCORE, "league", "submit", str(folder), "--token", "1.x", str(archive)],
                           capture_output=True, text=True)
    assert wrong.returncode == 1 and wrong.stderr == "error: wrong or missing author token\n"
    bad = write(tmp_path, tar_gz([file("../x", b"")]), "bad.tar.gz")
    refused = subprocess.run([*TRICKCORE, "league", "submit", str(folder), "--token", token, str(bad)],
                             capture_output=True, text=True)
    assert refused.returncode == 1 and refused.stdout.startswith("refused\n'../x' leads out")


def test_bot_options_from_bot_toml_reach_the_check_and_the_tables(league: League, tmp_path: Path) -> None:
    from tournament.league.scheduler import form_table, seats, table_config_doc
    from tournament.league.submit import submit

    token = add_author(league.engine, "alice")
    random_bot = (ROOT / "tournament" / "bots" / "random_bot.py").read_bytes()
    for name, seed in (("seven", 7), ("eight", 8), ("nine", 9)):
        toml = f'name = "{name}"\nruntime = "python"\ncommand = ["bot.py"]\noptions = {{ seed = {seed} }}\n'
        outcome = submit(league, token, write(tmp_path, bot_archive(bot=random_bot, toml=toml.encode())))
        assert outcome.accepted, outcome.report
    with Session(league.engine) as session:
        assert [v.options for v in session.scalars(select(Version).order_by(Version.id))] == [
            {"seed": 7}, {"seed": 8}, {"seed": 9}]
        table = session.get_one(LeagueTable, form_table(league))
        doc = table_config_doc(league, table.id, seats(league, table, session))
    assert sorted(b["options"]["seed"] for b in doc["bots"]) == [7, 8, 9]
    bad = b'name = "bad"\nruntime = "python"\ncommand = ["bot.py"]\noptions = { seed = [1] }\n'
    refused = submit(league, token, write(tmp_path, bot_archive(bot=random_bot, toml=bad)))
    assert not refused.accepted and "options.seed: must be a number, a string or true/false" in refused.report


def test_cheating_bots_submitted_through_the_league_are_contained(league: League, tmp_path: Path) -> None:
    """Two of the fair-play suite's cheaters join the league (they play legal moves, so they pass
    the check): one signals every process it can see to stop its opponents, the other writes
    into its own folder.  At a table with an honest bot, the honest bot's games go on without a
    fault, nothing is written into the league's folder, and the ratings stand."""
    from tournament.league.scheduler import Scheduler, recompute_ratings, table_folder
    from tournament.league.submit import submit
    from tournament.results import read_results

    cheaters = ROOT / "tests" / "tournament" / "bots" / "cheaters"
    lib = file("cheatlib.py", (cheaters / "cheatlib.py").read_bytes())
    token = add_author(league.engine, "mallory")
    for name, script, args in (("signaller", "signaller.py", ""), ("scribbler", "scribbler.py",
                                                                     ', "--token", "lg", "--targets", "script"')):
        toml = f'name = "{name}"\nruntime = "python"\ncommand = ["bot.py"{args}]\n'.encode()
        outcome = submit(league, token, write(tmp_path, bot_archive(bot=(cheaters / script).read_bytes(), toml=toml,
                                                                    extra=(lib,))))
        assert outcome.accepted, outcome.report
    assert submit(league, add_author(league.engine, "alice"), write(tmp_path, bot_archive())).accepted
    before = {p for p in league.folder.rglob("*") if "tables" not in p.parts}
    scheduler = Scheduler(league, max_tables=1)
    scheduler.run()
    assert (scheduler.rated, scheduler.errors) == (1, [])
    records = read_results(table_folder(league, 1))
    assert len(records) == 6 and all(r["status"] == "played" for r in records)
    honest_faults = [f for r in records for f in r["faults"] if r["bots"][f["seat"]] == "example-v1"]
    assert honest_faults == []
    written = {p for p in league.folder.rglob("*") if "tables" not in p.parts} - before
    assert {p.name for p in written if "pwned" in p.name} == set(), written
    with Session(league.engine) as session:
        assert {v.id: (v.mu, v.sigma) for v in session.scalars(select(Version))} == recompute_ratings(league)
