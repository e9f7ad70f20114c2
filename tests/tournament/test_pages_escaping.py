"""Hostile names in a run are shown as text on both HTML pages (tournament/pages.py renders them
from Jinja2 templates with autoescaping, in one pass): a tournament, bot or option value named
like markup, like a template placeholder or like the end of a script creates no element, runs no
script and is not substituted.  tests/tournament/test_tournament_report_browser.py opens the pages
in a real browser; here the pages' markup is parsed."""

from __future__ import annotations

import html.parser
import json
import re

import pytest
import tomli_w
from click.testing import CliRunner

from tests.tournament.report_fixtures import FAST
from tests.tournament.support import bot_cmd, mock
from tournament.cli import tournament_command
from tournament.report import REPORT_FILE

#: Each would make an element, a script or a substitution if it were pasted into the page.
TOURNAMENT = 'x {{JS}} y {{DATA}} <x-evil id="t"> {{ "pw" ~ "ned" }} </title></h1><script id="evil-t">1</script>'
BOTS = ["<x-evil/id=b1>", "</script><script/id=evil-b2>2</script>", '{{"pw"~"ned"}}{%raw%}']
LABEL = '</pre><x-evil id=o></x-evil>{{CSS}}&amp;'


class _Tags(html.parser.HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.tags: list[tuple[str, dict[str, str | None]]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, dict(attrs)))


def _tags(page: str) -> list[tuple[str, dict[str, str | None]]]:
    parser = _Tags()
    parser.feed(page)
    return parser.tags


@pytest.fixture(scope="module")
def hostile_run(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("hostile")
    out = tmp / "run"
    doc = {"game": {"name": "sticheln", "players": 3, "options": {"rounds": 1}},
           "tournament": {"name": TOURNAMENT, "format": "round-robin", "deals": 1, "seed": 3, "concurrency": 1,
                          "output": str(out)},
           "time": FAST,
           "bots": [{"name": BOTS[0], "command": bot_cmd("random_bot.py")},
                    {"name": BOTS[1], "command": mock("--options"), "options": {"label": LABEL}},
                    {"name": BOTS[2], "command": mock("--illegal", "--at", "3")}]}
    config = tmp / "hostile.toml"
    config.write_text(tomli_w.dumps(doc), encoding="utf-8")
    result = CliRunner().invoke(tournament_command, [str(config)])
    assert result.exit_code == 0, result.output
    return out


def _check(page: str, scripts: int) -> None:
    tags = _tags(page)
    assert not [t for t, _ in tags if t == "x-evil"], "a name became an element"
    assert [t for t, _ in tags].count("script") == scripts, "a name became a script"
    assert not [a for _, a in tags if str(a.get("id", "")).startswith("evil")]
    assert "pwned" not in page, "a name was rendered as a template"
    assert page.split("</head>")[0].count("<title>") == 1   # (the charts' SVG has titles of its own)


def test_the_report_shows_hostile_names_as_text(hostile_run):
    page = (hostile_run / REPORT_FILE).read_text(encoding="utf-8")
    _check(page, scripts=2)
    title = re.search(r"<title>(.*?)</title>", page, re.S)
    h1 = re.search(r"<h1>(.*?)</h1>", page, re.S)
    assert title and h1 and html.unescape(h1.group(1)) == TOURNAMENT
    assert html.unescape(title.group(1)) == f"{TOURNAMENT} – trickcore tournament report"
    text = html.unescape(re.sub(r"<[^>]+>", "", page))
    for bot in BOTS:
        assert bot in text                             # in the tables, as text
    assert LABEL in text                               # the bot's option, in the effective config
    data = json.loads(re.search(r'<script type="application/json" id="games-data">(.*?)</script>',
                                page, re.S).group(1))
    assert data["bots"] == BOTS


def test_replay_pages_show_hostile_names_as_text(hostile_run):
    pages = sorted((hostile_run / "replays").glob("*.html"))
    assert pages
    for path in pages:
        page = path.read_text(encoding="utf-8")
        _check(page, scripts=2)
        data = json.loads(re.search(r'<script type="application/json" id="replay-data">(.*?)</script>',
                                    page, re.S).group(1))
        assert set(data["bots"]) <= set(BOTS) and data["bots"]
