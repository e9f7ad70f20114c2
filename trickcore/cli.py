"""The ``trickcore`` command line: the engine's commands (games, bench, perft) plus every
command that installed packages register under the ``trickcore.commands`` entry-point group
(the tournament runner's ``tournament``, ``match``, ``replay``, ...).

``bench`` runs the benchmarks of a source checkout (bench/engine_bench.py): they are not part
of the installed package."""

from __future__ import annotations

import json
import shutil
import sys
import textwrap
from importlib.metadata import entry_points
from typing import Any

import click

from trickcore import _core, tables
from trickcore._core import TrickPhase
from trickcore.checkout import bench_module
from trickcore.errors import TrickcoreError
from trickcore.game import GameState
from trickcore.games import get_game, list_games, new_game


#: The benchmarks: the bench/ folder of the source checkout this package runs from (beside the
#: package's own folder).  An installed wheel has none.
@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="trickcore")
def main() -> None:
    """trickcore: a C-accelerated engine for trick-taking card games and a tournament runner."""


@main.command()
@click.option("--json", "as_json", is_flag=True, help="Print the registry as JSON.")
def games(as_json: bool) -> None:
    """List every registered game with its player counts, variants and options."""
    infos = list_games()
    if as_json:
        click.echo(json.dumps([{
            "name": g.name, "title": g.title, "players": list(g.players), "variants": list(g.variants),
            "options": {o.name: {"type": o.type.__name__, "default": o.default, "help": o.help,
                                 **({"choices": list(o.choices)} if o.choices else {})} for o in g.options},
        } for g in infos], indent=2))
        return
    width = max(60, shutil.get_terminal_size((100, 24)).columns)
    rows = []
    for g in infos:
        counts = sorted(g.players)
        players = f"{counts[0]}-{counts[-1]}" if counts == list(range(counts[0], counts[-1] + 1)) and len(counts) > 1 \
            else ",".join(map(str, counts))
        rows.append([g.name, g.title, players, str(len(g.variants)) if g.variants else "-"])
    # the variants are listed below the table by name, so a narrow terminal can do without their count
    click.echo(tables.render(["game", "title", "players", "variants"], rows, width=width, optional=(3,)))
    # Then each game's options with their defaults and meanings, and its variants, to the terminal's width.
    for g in infos:
        if g.options:
            click.echo(f"\n{g.name} options (--option NAME=VALUE, or [game] options in a config):")
            for o in g.options:
                head = f"  {o.name} = {o.default!r}"
                click.echo(textwrap.fill(o.help or "", width=width, initial_indent=f"{head:<26} ",
                                         subsequent_indent=" " * 27) if o.help else head)
        if g.variants:
            click.echo(textwrap.fill(", ".join(g.variants), width=width, initial_indent=f"\n{g.name} variants: ",
                                     subsequent_indent="  "))
            example = next((v for v in g.variants if "+" in v), g.variants[-1])
            flags = ", ".join(f"{flag} = true" for flag in example.split("+"))
            options = " ".join(f"--option {flag}=true" for flag in example.split("+"))
            click.echo(textwrap.fill(f"A variant is its options switched on: {example} is options = {{ {flags} }} "
                                     f"under [game] in a config, or {options} on the command line.", width=width,
                                     initial_indent="  ", subsequent_indent="  "))


@main.command()
@click.option("--json", "as_json", is_flag=True, help="One JSON object per benchmark: name, ns per card play, ratio.")
@click.option("--quick", is_flag=True, help="Smaller loops (a few seconds); noisier.")
@click.option("--repeat", type=click.IntRange(1, 50), default=5, show_default=True, help="Best of N runs.")
@click.option("--no-games", is_flag=True, help="Only the core and reference-game benchmarks.")
@click.option("--compare", is_flag=True,
              help="Also run OpenSpiel's Hearts, Skat and Bridge through the same loop (needs open_spiel).")
@click.option("--pin/--no-pin", default=True, show_default=True,
              help="Run on one CPU (Linux), so the scheduler does not move a measurement between CPUs.")
def bench(as_json: bool, quick: bool, repeat: int, no_games: bool, compare: bool, pin: bool) -> None:
    """Measure the engine: every figure in ns per card play and as a ratio to the C floor loop
    (from a source checkout: the benchmarks are in its bench/ folder)."""
    benchmarks = bench_module("engine_bench", "trickcore bench")
    progress = None if as_json else (lambda msg: click.echo(f"  ... {msg}", err=True))
    results = benchmarks.run(quick=quick, repeat=repeat, games=not no_games, progress=progress, pin=pin)
    if compare:
        with benchmarks.one_cpu(pin):
            compared = benchmarks.compare_openspiel()
        if compared is None:
            click.echo("--compare: open_spiel is not installed (pip install open_spiel); skipped", err=True)
        else:
            results.extend(compared)
    if as_json:
        click.echo(json.dumps([r.to_json() for r in results], indent=1))
        return
    width = shutil.get_terminal_size((120, 24)).columns
    for line in bench_summary(results):
        # its items indented by two, their continuations by four
        click.echo(textwrap.fill(line, width, subsequent_indent="    ", break_on_hyphens=False) if line else line)
    click.echo(benchmarks.format_results(results, width=width))


def bench_summary(results: list[Any]) -> list[str]:
    """The figures that answer "how fast is it?", ahead of the whole table: the C playout against
    the floor, the natural Python loop against its interpreter limit, full games per card play
    against the floor (and OpenSpiel's, with --compare)."""
    by = {r.name: r for r in results}
    lines = ["summary (the rows below in full; docs/benchmarks.md explains them):"]
    if "floor_c" in by:
        lines.append(f"  floor: {by['floor_c'].ns_per_play:,.1f} ns per card play (bench/floor.c); every ratio "
                     f"is to it, measured in this run")
    if "core_playout_reference_c" in by:
        lines.append(f"  the core's C random playout: {by['core_playout_reference_c'].ratio:.2f}x the floor")
    if "natural_loop_reference_python" in by and "python_limit" in by:
        natural, limit = by["natural_loop_reference_python"], by["python_limit"]
        lines.append(f"  the natural Python loop: {natural.ratio:.1f}x the floor, "
                     f"{natural.ns_per_play / limit.ns_per_play:.2f}x its interpreter limit")
    games = [r for r in results if r.name.endswith("_full_games_python") and not r.name.startswith("openspiel_")]
    if games:
        ratios = [r.extra.get("card_ratio", r.ratio) for r in games]
        lines.append(f"  full random games through the interface: {min(ratios):.0f}-{max(ratios):.0f}x the floor "
                     f"per card play ({len(games)} games and player counts)")
    theirs = [r for r in results if r.name.startswith("openspiel_")]
    if theirs:
        lines.append(f"  OpenSpiel's Python loop over full games: {min(r.ratio for r in theirs):.0f}-"
                     f"{max(r.ratio for r in theirs):.0f}x the floor per action")
    return lines + [""] if len(lines) > 1 else []


@main.command()
@click.argument("game")
@click.option("-p", "--players", type=int, required=True, help="Number of players.")
@click.option("--seed", type=click.IntRange(0, 2**64 - 1), default=1, show_default=True)
@click.option("--depth", type=int, default=4, show_default=True, help="Card plays to count (-1: to the end).")
@click.option("--divide", is_flag=True, help="Print the count under each first move.")
def perft(game: str, players: int, seed: int, depth: int, divide: bool) -> None:
    """Debugging aid: perft from the start of the first trick phase of a seeded random game."""
    try:
        get_game(game).check_players(players)
    except TrickcoreError as exc:
        raise click.UsageError(str(exc)) from None
    tp = game_trick_phase(get_game(game).name, players, seed)
    if tp is None:
        raise click.ClickException(f"{game}: no trick phase reached with seed {seed}")
    if divide:
        for move, count in sorted(tp.divide(depth).items()):
            click.echo(f"{tp.deck.move_text(move)}: {count}")
    count, leaves, tricks, points = tp.perft(depth)
    click.echo(f"perft({depth}) = {count}; tricks per seat over leaves {tricks}; points {points}")


@main.group()
def deals() -> None:
    """Deal files: fixed, public sets of deals for tournaments (docs/tournament.md, "Deal files")."""


@deals.command("export")
@click.argument("game")
@click.option("-p", "--players", type=int, help="Number of players (default: 4 where the game allows, else its least).")
@click.option("--count", type=click.IntRange(min=1), required=True, help="Number of deals.")
@click.option("--seed", type=click.IntRange(min=0), required=True, help="Draws the deals' game seeds.")
@click.option("--option", "game_options", multiple=True, metavar="KEY=VALUE",
              help="A game option; the value in JSON (3, true, \"x\"), a bare word is a string.")
@click.option("-o", "--output", type=click.Path(dir_okay=False), required=True, help="The deal file to write.")
def deals_export(game: str, players: int | None, count: int, seed: int, game_options: tuple[str, ...],
                 output: str) -> None:
    """Write COUNT deals of GAME, drawn from SEED, to a deal file (JSON Lines)."""
    from trickcore.deals import export, write_deals

    options: dict[str, Any] = {}
    for item in game_options:
        key, sep, text = item.partition("=")
        if not sep or not key.strip():
            raise click.BadParameter(f"{item!r} is not KEY=VALUE", param_hint="--option")
        try:
            options[key.strip()] = json.loads(text)
        except ValueError:
            options[key.strip()] = text
    try:
        info = get_game(game)
        if players is None:
            players = 4 if 4 in info.players else min(info.players)
        written = write_deals(output, export(info.name, players, options, count, seed))
    except TrickcoreError as exc:
        raise click.UsageError(str(exc)) from None
    click.echo(f"{written} deals of {info.name} for {players} players written to {output}", err=True)


def game_state_in_trick_phase(name: str, players: int, seed: int = 1) -> GameState | None:
    """Play random decisions until the first trick phase starts; return the state there."""
    rng = _core.Rng(seed)
    state = new_game(name, players, seed=seed)
    for _ in range(10_000):
        tp = state._tp
        if tp is not None and state._fast and not tp.over and tp.n_tricks_done == 0 and tp.trick_len == 0:
            return state
        if state.is_terminal():
            return None
        legal = state.legal_actions()
        state.apply_action(legal[rng.below(len(legal))])
    return None


def game_trick_phase(name: str, players: int, seed: int = 1) -> TrickPhase | None:
    """The TrickPhase of the first trick phase of a random game (a copy)."""
    state = game_state_in_trick_phase(name, players, seed)
    return None if state is None or state._tp is None else state._tp.copy()


#: Entry-point group through which other installed packages add commands to ``trickcore``.
#: The tournament runner registers its commands here (pyproject.toml), so the engine never
#: imports the runner: dependencies point one way, runner -> games -> bindings -> C core.
COMMAND_GROUP = "trickcore.commands"


def _add_plugin_commands() -> None:
    """Add the commands of every installed ``trickcore.commands`` entry point.

    An entry point names a ``click.Command`` or a sequence of them.  One that fails to
    load is reported on stderr (never hidden) and the engine's own commands still work."""
    for entry in entry_points(group=COMMAND_GROUP):
        try:
            loaded = entry.load()
        except Exception as exc:  # a broken plugin must not take the engine's CLI down
            click.echo(f"warning: commands of {entry.value!r} unavailable: {exc}", err=True)
            continue
        for command in [loaded] if isinstance(loaded, click.Command) else list(loaded):
            if command.name not in main.commands:
                main.add_command(command)


_add_plugin_commands()


if __name__ == "__main__":
    sys.exit(main())
