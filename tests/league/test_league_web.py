"""The league's server without a browser: ``trickcore league submit URL`` through a real
``serve`` process, what the server refuses (wrong tokens, an archive over the limit, the
organiser's page without its key, the replay of a table still playing), the headers every page
carries, and the organiser's commands (withdraw, ban, export) on the command line."""

from __future__ import annotations

import json
import re
import subprocess
import sys
import tarfile
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import tomli_w

from tournament.league.config import LEAGUE_FILE
from tournament.league.league import open_league
from tournament.league.scheduler import form_table, recompute_ratings

if sys.version_info >= (3, 11):
    import tomllib
else:
    import tomli as tomllib

ROOT = Path(__file__).resolve().parents[2]
TRICKCORE = str(Path(sys.executable).parent / "trickcore")


def archive(folder: Path, name: str, size: int = 0) -> Path:
    source = folder / f"src-{name}"
    source.mkdir()
    (source / "bot.py").write_bytes((ROOT / "tournament" / "bots" / "example_bot.py").read_bytes())
    (source / "bot.toml").write_text(f'name = "{name}"\nruntime = "python"\ncommand = ["bot.py"]\n')
    if size:
        (source / "padding.bin").write_bytes(bytes(range(256)) * (size // 256))
    path = folder / f"{name}.tar"
    with tarfile.open(path, "w") as tar:
        tar.add(source, arcname=".")
    return path


def league(*args: str, check: bool = True) -> subprocess.CompletedProcess[str]:
    return subprocess.run([TRICKCORE, "league", *args], check=check, capture_output=True, text=True)


def get(url: str) -> tuple[int, dict[str, str], str]:
    try:
        with urllib.request.urlopen(url) as response:
            return response.status, dict(response.headers), response.read().decode()
    except urllib.error.HTTPError as exc:
        return exc.code, dict(exc.headers), exc.read().decode()


def post_archive(url: str, token: str, path: Path | None, token_first: bool = True) -> int:
    """The status of an upload as a program sends it (plain text asked for)."""
    import asyncio

    import aiohttp

    async def post() -> int:
        form = aiohttp.FormData()
        if token_first:
            form.add_field("token", token)
        if path is not None:
            form.add_field("archive", path.read_bytes(), filename=path.name)
        if not token_first:
            form.add_field("token", token)
        async with aiohttp.ClientSession() as session, session.post(
                url + "submit", data=form, headers={"Accept": "text/plain"}) as response:
            await response.read()
            return response.status

    return asyncio.run(post())


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    tmp = tmp_path_factory.mktemp("league")
    folder = tmp / "lg"
    league("init", str(folder), "--game", "klaberjass", "-p", "2")
    doc = tomllib.loads((folder / LEAGUE_FILE).read_text())
    doc["submissions"].update(max_archive_mb=0.2, compliance_games=1)
    (folder / LEAGUE_FILE).write_text(tomli_w.dumps(doc))
    token = league("add-author", str(folder), "alice").stdout.strip()
    league("pause", str(folder))  # tables are formed by the tests themselves
    proc = subprocess.Popen([TRICKCORE, "league", "serve", str(folder), "--port", "0", "-q"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    assert proc.stderr is not None
    lines = [proc.stderr.readline(), proc.stderr.readline()]
    page = re.search(r"(http://\S+)index\.html", lines[0])
    assert page, lines
    try:
        yield {"url": page.group(1), "token": token, "folder": folder, "tmp": tmp, "lines": lines}
    finally:
        proc.terminate()
        proc.wait(30)


def test_submit_to_a_served_league_by_its_address(served: dict[str, Any]) -> None:
    url, token, tmp = served["url"], served["token"], served["tmp"]
    done = league("submit", url, "--token", token, str(archive(tmp, "remote")), check=False)
    assert done.returncode == 0 and done.stdout.startswith("accepted: remote version 1 joins the ladder"), done
    assert "PASS  games" in done.stdout
    wrong = league("submit", url, "--token", "7.nope", str(archive(tmp, "other")), check=False)
    assert (wrong.returncode, wrong.stderr.strip()) == (1, "error: wrong or missing author token")
    big = league("submit", url + "index.html", "--token", token, str(archive(tmp, "big", 300_000)), check=False)
    assert big.returncode == 1 and "larger than the league takes (0.2 MB)" in big.stderr, big
    big2 = archive(tmp, "big2", 300_000)
    statuses = [post_archive(url, "7.nope", archive(tmp, "third")), post_archive(url, token, big2),
                post_archive(url, token, None),
                # a wrong token is refused before the archive is read, whatever its size
                post_archive(url, "7.nope", big2),
                # the token must come first, as the page's form sends it
                post_archive(url, token, archive(tmp, "late"), token_first=False)]
    assert statuses == [403, 413, 400, 403, 403]
    nothing = league("submit", "http://127.0.0.1:9/", "--token", token, str(archive(tmp, "nowhere")), check=False)
    assert nothing.returncode == 2 and "cannot reach the league" in nothing.stderr


def test_pages_carry_their_headers_and_refuse_what_they_must(served: dict[str, Any]) -> None:
    url = served["url"]
    status, headers, body = get(url + "index.html")
    assert status == 200 and "default-src 'none'" in headers["Content-Security-Policy"]
    assert headers["Cache-Control"] == "no-store" and "form-action 'self'" in headers["Content-Security-Policy"]
    assert get(url + "organiser")[0] == 403 and get(url + "organiser?key=wrong")[0] == 403
    assert get(url + "bots/nobody.html")[0] == 404
    assert "organiser's page (keep this address to yourself)" in served["lines"][1]
    assert get(served["lines"][1].split(": ", 1)[1].strip())[0] == 200
    # a table that is still playing shows no replay: its deals are replayed at its other seatings
    assert league("submit", str(served["folder"]), "--token", served["token"],
                  str(archive(served["tmp"], "second"))).returncode == 0
    opened = open_league(served["folder"])
    try:
        table = form_table(opened)
    finally:
        opened.close()
    status, _, body = get(url + f"games/{table}/t0-d0-s0.html")
    assert status == 404 and "still playing" in body


def test_withdraw_ban_and_export_on_the_command_line(tmp_path: Path) -> None:
    folder = tmp_path / "lg"
    league("init", str(folder), "--game", "klaberjass", "-p", "2")
    token = league("add-author", str(folder), "alice").stdout.strip()
    other = league("add-author", str(folder), "bob").stdout.strip()
    for name in ("one", "two", "three"):
        league("submit", str(folder), "--token", token, str(archive(tmp_path, name)))
    league("serve", str(folder), "--no-web", "--tables", "2", "-q")
    refused = league("withdraw", str(folder), "one", "--token", other, check=False)
    assert refused.returncode == 1 and "you have no bot named 'one'" in refused.stderr
    assert league("withdraw", str(folder), "one", "--token", token).stdout == "one withdrawn\n"
    assert league("ban", str(folder), "two").stdout == "two banned\n"
    assert "no bot named 'zzz'" in league("ban", str(folder), "zzz", check=False).stderr
    standings = league("standings", str(folder)).stdout
    assert "three" in standings and " one " not in standings and " two " not in standings
    assert " one " in league("standings", str(folder), "--all").stdout
    out = tmp_path / "export"
    league("export", str(folder), str(out))
    exported = json.loads((out / "ratings.json").read_text())
    opened = open_league(folder)
    try:
        recomputed = recompute_ratings(opened)
    finally:
        opened.close()
    assert {v["id"]: (v["mu"], v["sigma"]) for v in exported["versions"]} == recomputed
    rated = [t["id"] for t in exported["tables"] if t["state"] == "rated"]
    assert len(rated) == 2 and all((out / "tables" / str(t) / "results.jsonl").is_file() for t in rated)
    assert sum(len(v["history"]) for v in exported["versions"]) == 4  # two versions rated at each table
    assert "exists" in league("export", str(folder), str(out), check=False).stderr
