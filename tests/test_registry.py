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
from glob import glob
from importlib.metadata import EntryPoint
from pathlib import Path

import pytest

from trickcore import _core, games
from trickcore.encodings import encoded_games
from trickcore.encodings.base import Encoding

ROOT = Path(__file__).resolve().parents[1]
BUILTIN = {module.rsplit(".", 1)[1]: module for module in games.BUILTIN}
NAMES = {module: games.get_game(module).name for module in BUILTIN}

#: Places of the list a built-in game may lack, and why.
WITHOUT = {
    ("reference", "trickcore/policies/<game>.py"): "the benchmark game is played at random",
    ("reference", "tests/games/<game>/"): "the benchmark game is tested in tests/core and the project-wide tests",
    ("reference", "docs/rules/<game>.md"): "the benchmark game's rules are its module's docstring",
    ("reference", "docs/games/<game>.md"): "the benchmark game has no player page",
    ("reference", "README.md"): "the benchmark game is not one of the games the README offers",
    ("hattrick", "docs/rules/<game>.md"): "Hattrick's rules are section 4 of Sticheln's page",
}

#: Code outside a game's own places that names a game, and why that is no list of games.
NAMED_ELSEWHERE = {
    "trickcore/bench.py": "the benchmarks play the reference game, the benchmark's own",
    "tournament/bench.py": "the runner benchmark's default game is the reference game",
    "tournament/compliance.py": "the compliance check's default game is the reference game",
    "trickcore/integrations/pettingzoo.py": "the environment's default game",
}

NUMBERS = {"seven": 7, "eight": 8, "nine": 9, "ten": 10, "eleven": 11}


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
    own = {f"trickcore/{package}/{module}.py" for package in ("games", "encodings", "policies") for module in BUILTIN}
    files = [ROOT / "setup.py", *sorted((ROOT / "trickcore").rglob("*.py")),
             *sorted((ROOT / "tournament").rglob("*.py"))]
    hits = []
    for path in files:
        rel = path.relative_to(ROOT).as_posix()
        if rel in own or rel == "trickcore/games/__init__.py" or rel in NAMED_ELSEWHERE:
            continue
        for text in _constants(path):
            for word in words:
                if (text == word or f'"{word}"' in text
                        or re.search(rf"\b(games|encodings|policies)[./]{re.escape(word)}\b", text)):
                    hits.append(f"{rel}: {text[:80]!r} names {word!r}")
    assert not hits, "\n".join(hits)
    for rel in NAMED_ELSEWHERE:
        assert (ROOT / rel).is_file(), rel


def test_the_build_compiles_exactly_the_registered_games() -> None:
    """setup.py compiles every game module with a .pxd beside it; the registry's built-in games
    are those modules (trickcore.games.COMPILED, which test_compiled_flow checks, names them)."""
    with_pxd = {Path(p).stem for p in glob(str(ROOT / "trickcore" / "games" / "*.pxd"))}
    assert with_pxd == set(BUILTIN)
    assert set(games.COMPILED) == {"trickcore.game", "trickcore.worlds", *games.BUILTIN}


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
