"""The HTML pages of a run (the tournament report and the replay viewer): Jinja2 templates with
autoescaping, in ``tournament/templates/`` beside the CSS, JavaScript and SVG they inline.

Every value a page shows (a tournament's, a bot's or an option's name, a fault's detail) goes
through the template engine's escaping once, in one pass over the template: no name can become
markup, and no text is substituted twice.  The assets are the package's own files, inlined as
they are (``asset``), so a page is one self-contained file that fetches nothing; data for a
page's script is JSON inside ``<script type="application/json">`` (``script_json``).

Cards are drawn by ``cards.js`` from the faces the game gives (``GameInfo.faces``, embedded in
the page's data: card text -> style, colour, value, symbol, letter, label), so the script knows
no game; symbols are inline SVG (``symbols.svg``), so no font is needed.

Pages and the run's other files a reader may open while they are rewritten (the report during a
run, run.json, a played game's record) are written whole or not at all (``write_whole``, from
``tournament.files``).
"""

from __future__ import annotations

import functools
from importlib.resources import files
from typing import Any

import jinja2
import orjson
from markupsafe import Markup

#: The package folder of the templates and the assets they inline.
TEMPLATES = "templates"


@functools.cache
def environment() -> jinja2.Environment:
    env = jinja2.Environment(loader=jinja2.PackageLoader("tournament", TEMPLATES),
                             autoescape=True, undefined=jinja2.StrictUndefined,
                             trim_blocks=True, lstrip_blocks=True)
    env.globals["asset"] = asset
    env.filters["script_json"] = script_json
    return env


@functools.cache
def _asset_text(name: str) -> str:
    return files("tournament").joinpath(TEMPLATES).joinpath(name).read_text(encoding="utf-8")


def asset(*names: str) -> Markup:
    """The package's own asset files (CSS, JavaScript, SVG), joined, to inline as they are."""
    return Markup("".join(_asset_text(name) for name in names))  # noqa: S704 - the package's files


def script_json(payload: Any) -> Markup:
    """``payload`` as JSON that is safe inside a <script> element: no ``<`` (so no ``</script>``
    and no ``<!--``) and no line separators that end a JavaScript string."""
    text = orjson.dumps(payload, default=str, option=orjson.OPT_NON_STR_KEYS).decode()
    return Markup(text.replace("<", "\\u003c").replace("\u2028", "\\u2028")  # noqa: S704 - escaped here
                  .replace("\u2029", "\\u2029"))


def render(template: str, **context: Any) -> str:
    return environment().get_template(template).render(**context)
