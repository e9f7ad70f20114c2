"""The per-game demo tournaments of ``configs/`` and a markdown table of their standings.

    trickcore demo-standings [--configs DIR] [--deals N] [--game G ...] [--out DIR]

runs every ``demo*.toml`` of the configs folder (``demo.toml`` is the Beim Jupiter demo,
``demo-<game>.toml`` the others) and prints one markdown table -- game, bot, mean score
with its 95% confidence interval, win share, games -- ready to paste into the README.
"""

from __future__ import annotations

import dataclasses
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

from tournament.config import TournamentConfig, load_config
from tournament.ratings import BotStanding

if sys.version_info >= (3, 11):
    import tomllib
else:  # Python 3.10: the same parser, as a package
    import tomli as tomllib

CONFIGS_DIR = Path(__file__).resolve().parents[1] / "configs"  # the checkout's


def default_configs_dir() -> Path:
    """``./configs`` when it holds demos (an installed trickcore has no checkout), else the checkout's."""
    here = Path("configs")
    return here if any(here.glob("demo*.toml")) else CONFIGS_DIR


def demo_configs(configs_dir: str | Path = CONFIGS_DIR) -> dict[str, Path]:
    """Game name -> its demo config: ``demo-<game>.toml``, and ``demo.toml`` for its game
    unless a ``demo-<that game>.toml`` exists too."""
    found: dict[str, Path] = {}
    # "demo-*.toml" sorts before "demo.toml", so a game's own demo wins.
    for path in sorted(Path(configs_dir).glob("demo*.toml")):
        with path.open("rb") as fh:
            game = tomllib.load(fh).get("game", {}).get("name")
        if isinstance(game, str) and game not in found:
            found[game] = path
    return dict(sorted(found.items()))


@dataclasses.dataclass
class DemoResult:
    game: str
    title: str
    config: Path
    setup: str  # "4 players, duplicate, 3 deals x 24 seatings = 72 games"
    standings: list[BotStanding]
    errors: list[str]


def run_demo(path: Path, deals: int | None = None, out_dir: str | Path | None = None,
             concurrency: int | None = None) -> DemoResult:
    from tournament.runner import run_tournament

    overrides = {}
    if deals is not None:
        overrides["tournament.deals"] = deals
    if concurrency is not None:
        overrides["tournament.concurrency"] = concurrency
    config: TournamentConfig = load_config(path, overrides)
    out = Path(out_dir) if out_dir is not None else Path(tempfile.mkdtemp(prefix=f"trickcore-{config.name}-"))
    summary = run_tournament(config, out)
    games = summary.total
    defaults = {o.name: o.default for o in config.game_info.options}
    options = ", ".join(f"{k}={v}" for k, v in config.game_options.items() if defaults.get(k) != v)
    setup = (f"{config.players} players{f' ({options})' if options else ''}, {config.format}, "
             f"{config.deals} deal{'s' if config.deals != 1 else ''}, {games} games")
    return DemoResult(config.game, config.game_info.title, path, setup, summary.standings, summary.errors)


def markdown_table(results: list[DemoResult]) -> str:
    lines = ["| game | bot | mean score ± 95% CI | win share | games |", "|---|---|---:|---:|---:|"]
    for r in results:
        for s in r.standings:
            score = "-" if s.mean_score is None else f"{s.mean_score:.2f}"
            if s.ci95 is not None:
                score += f" ± {s.ci95:.2f}"
            win = "-" if s.win_share is None else f"{100 * s.win_share:.1f}%"
            lines.append(f"| {r.game} | {s.name} | {score} | {win} | {s.games} |")
    notes = [f"* {r.game}: `{_short(r.config)}`, {r.setup}" for r in results]
    return "\n".join(lines + [""] + notes)


def _short(path: Path) -> str:
    try:
        return str(path.resolve().relative_to(CONFIGS_DIR.parent))
    except ValueError:
        return str(path)


def run_demos(configs_dir: str | Path = CONFIGS_DIR, games: list[str] | None = None, deals: int | None = None,
              out_dir: str | Path | None = None, progress: Callable[[str], None] | None = None) -> list[DemoResult]:
    from trickcore.game import GameConfigError
    from trickcore.games import get_game

    results = []
    for game, path in demo_configs(configs_dir).items():
        if games and game not in games:
            continue
        try:
            get_game(game)
        except GameConfigError:
            if progress:
                progress(f"{path.name}: game {game!r} is not registered; skipped")
            continue
        if progress:
            progress(f"running {path.name} ({game})")
        out = Path(out_dir) / game if out_dir is not None else None
        results.append(run_demo(path, deals, out))
    return results
