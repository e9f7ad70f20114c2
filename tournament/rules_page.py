"""A game's rules as a web page, for ``trickcore play`` (tournament/play.py serves it at ``/rules``).

The rules of each game are written once, in ``docs/rules/<game>.md`` of the source tree.  A
checkout reads them there; a built wheel has no ``docs/`` folder, so the build puts a copy of each
into the package (setup.py, ``build_py``: ``tournament/rules/``), which an installed package reads.

The page is the Markdown rendered by markdown-it-py with raw HTML disabled: every ``<`` of the
text is escaped, and markdown-it refuses links to ``javascript:``, ``vbscript:``, ``file:`` and
``data:`` addresses, so the page holds no markup the text did not ask for as Markdown.  Each
heading gets an anchor by its number, as the rules cite it: ``s4`` for "4. Trump selection",
``s4.4`` for "4.4 Exchange of the 7", ``D-7`` for a decision, ``KJ-07`` for a worked example (other
headings: their words, lower case, joined by hyphens).  A prompt of the page that follows §4.4
links ``/rules#s4.4`` (:func:`anchor_of`).
"""

from __future__ import annotations

import functools
import re
from importlib.resources import files
from pathlib import Path

from markupsafe import Markup

#: The rules' file names: a game's table description names one (``rules``), nothing else is served.
_FILE_NAME = re.compile(r"[a-z][a-z0-9_]*\.md")
#: A heading's number (``4``, ``4.4``, ``11``) or identifier (``D-7``, ``KJ-07``), at its start.
_NUMBER = re.compile(r"(\d+(?:\.\d+)*)\.?(?:\s|$)")
_IDENT = re.compile(r"([A-Z]{1,4}-\d+)\b")


class RulesNotFound(LookupError):
    """No rules file of that name, in the checkout or in the package."""


def _checkout_rules() -> Path | None:
    """docs/rules of the source tree this package runs from, when it runs from one (an editable
    install or the checkout itself): the project's root holds pyproject.toml beside docs/."""
    root = Path(__file__).resolve().parent.parent
    folder = root / "docs" / "rules"
    return folder if (root / "pyproject.toml").is_file() and folder.is_dir() else None


def rules_text(name: str) -> str:
    """The Markdown of the rules file ``name`` (e.g. ``klaberjass.md``): the checkout's
    docs/rules when the package runs from a checkout, else the copy the build put into the
    package."""
    if not _FILE_NAME.fullmatch(name):
        raise RulesNotFound(name)
    folder = _checkout_rules()
    if folder is not None and (folder / name).is_file():
        return (folder / name).read_text(encoding="utf-8")
    packaged = files("tournament").joinpath("rules").joinpath(name)
    if not packaged.is_file():
        raise RulesNotFound(name)
    return packaged.read_text(encoding="utf-8")


def anchor_of(heading: str) -> str:
    """The anchor of a heading: its number (``s4.4``), its identifier (``D-7``), else its words."""
    number = _NUMBER.match(heading)
    if number:
        return "s" + number.group(1)
    ident = _IDENT.match(heading)
    if ident:
        return ident.group(1)
    words = re.sub(r"[^\w\s-]", "", heading.lower()).split()
    return "-".join(words) or "section"


def anchor_of_rule(rule: str) -> str:
    """The anchor a rule reference of a prompt points to: ``§4.4`` -> ``s4.4``, ``D-7`` -> ``D-7``."""
    return anchor_of(rule.lstrip("§ "))


def render_rules(text: str) -> tuple[str, Markup]:
    """The rules' title (their first heading) and their body as HTML: Markdown without raw
    HTML (escaped as text), tables on, every heading with its anchor (:func:`anchor_of`)."""
    from markdown_it import MarkdownIt

    md = MarkdownIt("commonmark", {"html": False}).enable("table")
    tokens = md.parse(text)
    title = ""
    used: dict[str, int] = {}
    for i, token in enumerate(tokens):
        if token.type != "heading_open":
            continue
        words = tokens[i + 1].content
        title = title or words
        anchor = anchor_of(words)
        used[anchor] = used.get(anchor, 0) + 1
        if used[anchor] > 1:      # a second heading of the same words: the anchor of the first stays its own
            anchor = f"{anchor}-{used[anchor]}"
        token.attrSet("id", anchor)
    body = md.renderer.render(tokens, md.options, {})
    return title, Markup(body)  # noqa: S704 - markdown-it escaped the text (html disabled)


@functools.cache
def rules_page(name: str) -> str:
    """The whole page of the rules file ``name``: a self-contained HTML document."""
    from tournament.pages import render

    title, body = render_rules(rules_text(name))
    return render("rules.html.j2", generator="trickcore play", title=title or name, body=body)
