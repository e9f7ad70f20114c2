"""Deal files: fixed, public sets of deals, one JSON object a line (JSON Lines), as opening
books are to chess engines: every tournament played on one file plays the same deals.

A line::

    {"format": "trickcore-deal/1", "game": "klaberjass", "players": 4, "options": {...},
     "seed": 1234, "deal": {"type": "deal", "dealer": 2, "turned": "AH", ...},
     "hands": [["TC", "JC", ...], ...]}

* ``seed`` fixes the deal: a trickcore game draws every deal of a match (the hands, the dealer,
  the later deals) from its seed, the one mechanism every game shares (``new_game``,
  ``replay``), so a line is played as ``new_game(game, players, options, seed)``.
* ``deal`` (the public event that opens the match's first deal: its dealer and whatever the
  game shows when it deals) and ``hands`` (each seat's hand as dealt, seat 0 first) are what the
  seed deals, written so that a person can read a deal.  They are checked when a file is read:
  a line whose seed does not deal them (edited cards, or a file from a trickcore that deals
  otherwise) is refused, never played with other cards than it shows.
* ``options`` are the game's options, completed with their defaults.

``export`` draws a file's seeds from one seed; ``read_deals`` reads and checks a file.
"""

from __future__ import annotations

import dataclasses
import json
import random
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from trickcore.errors import TrickcoreError
from trickcore.games import get_game, new_game

__all__ = ["FORMAT", "Deal", "DealFileError", "deal_of", "export", "read_deals", "write_deals"]

FORMAT = "trickcore-deal/1"
SEED_LIMIT = 2**64  # a game seed is an integer in 0..2**64-1 (GameState)


class DealFileError(TrickcoreError, ValueError):
    """A deal file, or one of its lines, is not what this module writes."""


@dataclasses.dataclass(frozen=True)
class Deal:
    """One line of a deal file."""

    game: str
    players: int
    options: dict[str, Any]
    seed: int
    deal: dict[str, Any]
    hands: list[list[str]]

    def to_dict(self) -> dict[str, Any]:
        return {"format": FORMAT, "game": self.game, "players": self.players, "options": self.options,
                "seed": self.seed, "deal": self.deal, "hands": self.hands}


def deal_of(game: str, players: int, options: dict[str, Any] | None, seed: int) -> Deal:
    """The deal that ``seed`` deals in a configuration: its opening event and every hand."""
    info = get_game(game)
    info.check_players(players)
    resolved = info.resolve_options(options, players)
    state = new_game(info.name, players, resolved, seed)
    events, _ = state.events_since(0)
    opening = next((event for visible_to, event in events if visible_to is None), {})
    hands = [list(state.observation(seat).get("hand") or []) for seat in range(players)]
    return Deal(info.name, players, resolved, seed, dict(opening), hands)


def export(game: str, players: int, options: dict[str, Any] | None, count: int, seed: int) -> list[Deal]:
    """``count`` deals whose game seeds are drawn from ``seed`` (the same seed, the same deals)."""
    if count < 1:
        raise DealFileError(f"a deal file holds at least one deal, not {count}")
    rng = random.Random(seed)
    return [deal_of(game, players, options, rng.getrandbits(64)) for _ in range(count)]


def write_deals(path: str | Path, deals: Iterable[Deal]) -> int:
    """Write ``deals`` to ``path``, one line each; the number written."""
    lines = [json.dumps(deal.to_dict()) for deal in deals]
    Path(path).write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    return len(lines)


def read_deals(path: str | Path) -> list[Deal]:
    """Every deal of a deal file, in order, each checked: its format, game, player count and
    options, a seed in 0..2**64-1, and the opening event and hands that seed deals.
    DealFileError names the file and line of the first problem; blank lines are skipped."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise DealFileError(f"cannot read the deal file {path}: {exc.strerror or exc}") from None
    deals = []
    for number, line in enumerate(text.splitlines(), start=1):
        if line.strip():
            deals.append(_read_line(line, f"{path}, line {number}"))
    if not deals:
        raise DealFileError(f"{path} holds no deal")
    return deals


def _read_line(line: str, where: str) -> Deal:
    try:
        doc = json.loads(line)
    except ValueError as exc:
        raise DealFileError(f"{where}: not JSON ({exc})") from None
    if not isinstance(doc, dict) or doc.get("format") != FORMAT:
        raise DealFileError(f"{where}: not a deal of format {FORMAT!r}")
    missing = [key for key in ("game", "players", "seed", "deal", "hands") if key not in doc]
    if missing:
        raise DealFileError(f"{where}: no {', '.join(missing)}")
    seed = doc["seed"]
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < SEED_LIMIT:
        raise DealFileError(f"{where}: seed {seed!r} is not an integer in 0..2**64-1")
    options = doc.get("options", {})
    if not isinstance(options, dict):
        raise DealFileError(f"{where}: options are an object of option names to values, not {options!r}")
    try:
        dealt = deal_of(doc["game"], doc["players"], options, seed)
    except (TrickcoreError, TypeError) as exc:
        raise DealFileError(f"{where}: {exc}") from None
    for key in ("deal", "hands"):
        if doc[key] != getattr(dealt, key):
            raise DealFileError(f"{where}: its seed does not deal the {key} written there (edited, or written by a "
                                f"trickcore that deals otherwise); a line is played by its seed, so it must show what "
                                f"the seed deals: export the file again")
    return dealt
