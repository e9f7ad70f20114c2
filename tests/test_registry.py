"""Registration in one place: a game is its own modules, its policy, tests and docs and one line
of the registry (docs/contributing.md, section 5, lists the places; this file checks the list
against the tree), no other code names a game, an installed package adds games through the
``trickcore.games`` entry-point group, and what code outside a game reads of it (its encoding,
its deck, how its cards are drawn) comes from its GameInfo."""

from __future__ import annotations

import ast
import random
import re
import sys
from importlib.metadata import EntryPoint
from pathlib import Path

import pytest

from trickcore import _core, games
from trickcore.encodings import encoded_games, encoding
from trickcore.encodings.base import Encoding

ROOT = Path(__file__).resolve().parents[1]
BUILTIN = {module.rsplit(".", 1)[1]: module for module in games.BUILTIN}
NAMES = {module: games.get_game(module).name for module in BUILTIN}

#: Places of the list a built-in game may lack, and why.
WITHOUT = {
    ("reference", "trickcore/games/<game>/policy.py"): "the benchmark game is played at random",
    ("reference", "tests/games/<game>/"): "the benchmark game is tested in tests/core and the project-wide tests",
    ("reference", "docs/rules/<game>.md"): "the benchmark game's rules are its module's docstring",
    ("reference", "docs/games/<game>.md"): "the benchmark game has no player page",
    ("reference", "README.md"): "the benchmark game is not one of the games the README offers",
    ("hattrick", "docs/rules/<game>.md"): "Hattrick's rules are section 4 of Sticheln's page",
}

#: Code outside a game's own places that names a game, and why that is no list of games.
NAMED_ELSEWHERE = {
    "tournament/compliance.py": "the compliance check's default game is the reference game",
    "trickcore/integrations/pettingzoo.py": "the environment's default game",
}

NUMBERS = {"six": 6, "seven": 7, "eight": 8, "nine": 9, "ten": 10, "eleven": 11}


def places() -> tuple[int, list[str]]:
    """The places of a game as docs/contributing.md lists them (its first path each), and the
    number its sentence gives."""
    text = (ROOT / "docs" / "contributing.md").read_text(encoding="utf-8")
    block = text.split("<!-- the places of a game")[1].split("<!-- end of the places of a game")[0]
    items = re.findall(r"^\d+\. `([^`]+)`", block, flags=re.M)
    count = re.search(r"A new game touches exactly these (\w+) places", text)
    assert count, "docs/contributing.md no longer says how many places a game touches"
    return NUMBERS[count.group(1)], items


def test_the_places_a_game_touches_are_counted_right_and_exist_for_every_game() -> None:
    count, items = places()
    assert len(items) == count, f"contributing.md counts {count} places and lists {len(items)}"
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    missing = []
    for module in BUILTIN:
        for item in items:
            if (module, item) in WITHOUT:
                continue
            if "<game>" in item:
                ok = (ROOT / item.replace("<game>", module)).exists()
            elif item == "README.md":
                ok = f"(docs/games/{module}.md)" in readme
            elif item == "trickcore/games/__init__.py":
                ok = f"trickcore.games.{module}" in games.BUILTIN
            elif item == "trickcore/encodings/_fast.pyx":
                info = games.get_game(NAMES[module])
                ok = type(encoding(info.name, info.players[0]).encoder).__module__ == "trickcore.encodings._fast"
            elif item == "tests/integrations/view_tensors.py":
                from tests.integrations.view_tensors import FILLS
                ok = NAMES[module] in FILLS
            else:
                raise AssertionError(f"contributing.md lists {item!r}: this test does not know how to check it")
            if not ok:
                missing.append(f"{module}: {item}")
    assert not missing, missing
    for _module, item in WITHOUT:
        assert item in items, f"{item} is no longer a place of the list"


def _constants(path: Path) -> list[str]:
    """The string constants of a Python file, its docstrings left out."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    docstrings = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                docstrings.add(id(first.value))
    return [node.value for node in ast.walk(tree)
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings]


def test_no_other_code_names_a_game() -> None:
    """The game names and module names of the built-in games appear in no string of the code of
    trickcore/, tournament/ or setup.py but the game's own modules and the registry (docstrings
    and comments may give examples): no second list of games."""
    words: dict[str, str] = {}
    for module, name in NAMES.items():
        info = games.get_game(name)
        aliases = [alias for alias, target in games._ALIASES.items() if target == info.name]
        for word in (name, module, *aliases):
            words[word] = module
    files = [ROOT / "setup.py", *sorted((ROOT / "trickcore").rglob("*.py")),
             *sorted((ROOT / "tournament").rglob("*.py"))]
    hits = []
    for path in files:
        rel = path.relative_to(ROOT).as_posix()
        own = rel.startswith("trickcore/games/") and rel.split("/")[2] in BUILTIN   # the game's folder
        if own or rel == "trickcore/games/__init__.py" or rel in NAMED_ELSEWHERE:
            continue
        for text in _constants(path):
            for word in words:
                if (text == word or f'"{word}"' in text
                        or re.search(rf"\bgames[./]{re.escape(word)}\b", text)):
                    hits.append(f"{rel}: {text[:80]!r} names {word!r}")
    assert not hits, "\n".join(hits)
    for rel in NAMED_ELSEWHERE:
        assert (ROOT / rel).is_file(), rel


def test_a_game_is_one_folder_and_the_package_holds_no_second_list_of_games() -> None:
    """Every built-in game is a folder of trickcore/games/ (its flow in __init__.py, its encoding
    and policy beside it), every such folder is a registered game, and no game-state class is
    declared a second time for a compiler: no .pxd in trickcore/games, no compiled game flow."""
    folders = {path.parent.name for path in (ROOT / "trickcore" / "games").glob("*/__init__.py")}
    assert folders == set(BUILTIN)
    assert not list((ROOT / "trickcore" / "games").rglob("*.pxd"))
    assert not [p for p in (ROOT / "trickcore").rglob("*.py") if p.with_suffix(".pxd").exists()]
    for module in BUILTIN:
        info = games.get_game(NAMES[module])
        assert sys.modules[info.factory.__module__].__file__.endswith(f"games/{module}/__init__.py")
        assert info.encoding.startswith(f"trickcore.games.{module}.encoding:"), info.encoding
        assert not info.policy or info.policy.startswith(f"trickcore.games.{module}.policy:"), info.policy


def test_every_game_names_its_encoding() -> None:
    assert set(encoded_games()) == set(NAMES.values())
    for name in encoded_games():
        module, _, cls = games.get_game(name).encoding.partition(":")
        __import__(module)
        assert issubclass(getattr(sys.modules[module], cls), Encoding), name


@pytest.fixture
def plugin(tmp_path, monkeypatch):
    """A package's module that registers a game when imported, one that only defines a GameInfo,
    and an entry point that cannot be loaded, as the ``trickcore.games`` group would give them."""
    (tmp_path / "toy_trickcore_games.py").write_text(
        "from trickcore.game import GameInfo\n"
        "from trickcore.games import new_game, register\n"
        "def _make(players, options, seed):\n"
        "    return new_game('reference', players, options, seed)\n"
        "register(GameInfo(name='toy-module', title='Toy (module)', players=(4,), options=(), factory=_make))\n"
        "INFO = GameInfo(name='toy-info', title='Toy (GameInfo)', players=(4,), options=(), factory=_make)\n",
        encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    found = [EntryPoint("toy-module", "toy_trickcore_games", games.GAME_GROUP),
             EntryPoint("toy-info", "toy_trickcore_games:INFO", games.GAME_GROUP),
             EntryPoint("broken", "no_such_module_of_trickcore_games", games.GAME_GROUP)]
    monkeypatch.setattr(games, "entry_points", lambda group: [e for e in found if e.group == group])
    yield
    for name in ("toy-module", "toy-info"):
        games.unregister(name)
    sys.modules.pop("toy_trickcore_games", None)


def test_an_installed_package_adds_games_through_an_entry_point(plugin, monkeypatch) -> None:
    games._load(plugins=False)
    monkeypatch.setattr(games, "_plugins_loaded", False)
    assert games.get_game("sticheln").name == "sticheln"
    assert not games._plugins_loaded, "a built-in game is found without looking through the installed packages"
    with pytest.warns(RuntimeWarning, match="no_such_module_of_trickcore_games"):
        info = games.get_game("toy-info")       # no built-in game: the installed packages' games are read
    assert info.title == "Toy (GameInfo)" and games.get_game("toy-module").title == "Toy (module)"
    assert {info.name for info in games.list_games()} >= {"toy-module", "toy-info", *NAMES.values()}
    state = games.new_game("toy-info", 4, seed=3)
    assert state.legal_actions() == games.new_game("reference", 4, seed=3).legal_actions()


CONFIGS = [(info.name, players) for info in games.list_games() for players in info.players]


@pytest.mark.parametrize(("name", "players"), CONFIGS, ids=[f"{g}-{n}" for g, n in CONFIGS])
def test_every_card_a_game_shows_has_a_face_the_page_can_draw(name: str, players: int) -> None:
    """Every card in a hand and every card play, in a seeded random game (seed 7), has a face
    (GameInfo.faces) whose style, colour and symbol the replay page knows."""
    from tournament.pages import asset

    CARD_JS, CARD_SYMBOLS = str(asset("cards.js")), str(asset("symbols.svg"))
    palette = set(re.findall(r"(\w+): \[\"#", CARD_JS.split("const PALETTE")[1].split("};")[0]))
    symbols = set(re.findall(r'id="sym-([\w-]+)"', CARD_SYMBOLS))
    faces = games.card_faces(name, players)
    for text, face in faces.items():
        assert face.style in ("french", "colour", "picture"), text
        assert face.colour in palette or face.colour.startswith("#"), (text, face)
        assert not face.symbol or face.symbol in symbols, (text, face)
        assert face.label, text
    assert len({face.label for face in faces.values()}) == len(faces)
    state, rng, seen = games.new_game(name, players, seed=7), random.Random(7), set()
    for _ in range(400):
        if state.is_terminal():
            break
        for seat in range(players):
            seen.update(state.observation(seat).get("hand", []))
        seen.update(state.action_to_string(a) for a in state.legal_actions() if a < _core.PLAY_ACTIONS)
        state.apply_action(rng.choice(state.legal_actions()))
    assert seen
    for text in seen:
        card, _, declared = text.partition("=")
        assert card in faces and (not declared or faces[card].declared), text
