"""``trickcore bench-runner`` and ``trickcore demo-standings``: what the runner costs, and the
bundled demos' standings in one table."""

from __future__ import annotations

import json
import shutil
import sys

import click

from trickcore.checkout import bench_module

#: Pairs of runs (without, then with the sandbox) for the sandbox's cost, at the least.
SANDBOX_PAIRS = 5


#: The runner benchmark: the bench/ folder of the source checkout this package runs from (beside
#: the package's own folder).  An installed wheel has none.
@click.command("bench-runner")
@click.option("--games", type=click.IntRange(min=1), default=40, show_default=True,
              help="Games per table per measurement.")
@click.option("--repeat", type=click.IntRange(min=1), default=3, show_default=True,
              help="Measurements per figure (floor and runner alternate); medians are shown.")
@click.option("--exchanges", type=click.IntRange(min=100), default=4000, show_default=True,
              help="Ping-pong round trips per floor measurement.")
@click.option("-j", "--concurrency", "concurrencies", type=click.IntRange(min=1), multiple=True,
              help="Tables in parallel (repeatable; default 1 and 2).")
@click.option("--delivery", type=click.Choice(["immediate", "on-request", "both"]), default="on-request",
              show_default=True, help="The tournament's event_delivery.")
@click.option("--affinity", type=click.Choice(["none", "table", "both"]), default="both", show_default=True,
              help="The tournament's cpu_affinity (the floor's pairs are pinned the same way).")
@click.option("--game", help="Game to play (default: 'reference' if registered).")
@click.option("-p", "--players", type=int, help="Seats (default: the game's smallest count; 4 for reference).")
@click.option("--sandbox-cost/--no-sandbox-cost", default=True, show_default=True,
              help="Also play the tournament with and without the bots' sandbox (alternating, at least "
                   f"{SANDBOX_PAIRS} pairs of runs) and time a bot's start-up with and without it.")
@click.option("--json", "as_json", is_flag=True, help="Print the figures as JSON.")
def bench_runner_command(games: int, repeat: int, exchanges: int, concurrencies: tuple[int, ...], delivery: str,
                         affinity: str, game: str | None, players: int | None, sandbox_cost: bool,
                         as_json: bool) -> None:
    """Benchmark the runner: decisions per second and runner overhead per decision with the
    bundled random bot over pipes, against a pipe ping-pong floor measured in the same run
    (definitions: docs/tournament.md, "Performance").  From a source checkout: the benchmark is
    in its bench/ folder."""
    bench = bench_module("runner_bench", "trickcore bench-runner")
    deliveries = ("on-request", "immediate") if delivery == "both" else (delivery,)
    affinities = ("none", "table") if affinity == "both" else (affinity,)
    progress = None if as_json else (lambda msg: click.echo(f"  ... {msg}", err=True))
    rows = bench.run(concurrencies or (1, 2), deliveries, affinities, games=games, repeat=repeat,
                     exchanges=exchanges, game=game, players=players, progress=progress)
    # The sandbox's cost on one table and on as many as the rows (two by default: a table per
    # core of a 2-core machine, where the sandbox's own work competes with the other table's).
    # A ratio of two figures that each move by tens of percent between runs of half a second on a
    # shared machine: at least SANDBOX_PAIRS pairs.
    pairs = max(repeat, SANDBOX_PAIRS)
    costs = {c: bench.measure_sandbox_cost(games, pairs, game, players, concurrency=c, progress=progress)
             for c in (concurrencies or (1, 2))} if sandbox_cost else {}
    if as_json:
        click.echo(json.dumps({"rows": [r.to_json() for r in rows],
                               "sandbox": {str(c): cost.to_json() for c, cost in costs.items()} or None}, indent=1))
        return
    game_name, seats = (game, players) if game else bench.default_game()
    click.echo(f"runner benchmark: {game_name}, {players or seats} random bots over pipes, "
               f"{games} games per table, median of {repeat}")
    click.echo(bench.format_rows(rows, width=shutil.get_terminal_size((0, 0)).columns or None))
    click.echo("overhead = (game wall time - bot think time) per decision; floor = the same for a pipe "
               "ping-pong between two processes; ratio = overhead / floor; min referee = the same for the least "
               "a referee of this protocol can do (full view per request, nothing else: "
               "bench/minimal_referee.py); these rows run the bots without a sandbox (the overhead needs their "
               "own think times, which a sandboxed bot cannot report)")
    for c, cost in costs.items():
        click.echo(f"\nthe bots' sandbox: the same tournament ({games} games per table, {c} table"
                   f"{'s' if c > 1 else ''}) without and with it, and one bot's start-up to the end of its handshake, "
                   f"alternating: {pairs} pairs of runs, the median of the pairs' ratios; the start-ups "
                   f"{pairs} x 10 of each, one of each after the other")
        click.echo(bench.format_sandbox_cost(cost))


@click.command("demo-standings")
@click.option("--configs", "configs_dir", type=click.Path(exists=True, file_okay=False),
              help="Folder with the demo configs (default: ./configs, else the checkout's configs/).")
@click.option("--game", "games", multiple=True, help="Only this game's demo (repeatable).")
@click.option("--deals", type=click.IntRange(min=1), help="Override each demo's number of deals.")
@click.option("--out", type=click.Path(file_okay=False), help="Keep each run in OUT/<game> (default: temporary).")
def demo_standings_command(configs_dir: str | None, games: tuple[str, ...], deals: int | None,
                           out: str | None) -> None:
    """Run every per-game demo tournament (configs/demo*.toml) and print the standings as one
    markdown table: game, bot, mean score with 95% confidence interval, win share, games."""
    from tournament import demos

    folder = configs_dir or demos.default_configs_dir()
    if not demos.demo_configs(folder):
        # An installed trickcore has no checkout: say where it looked, rather than print an empty table.
        click.echo(f"error: no demo configs (demo*.toml) in {folder}; run this in a trickcore checkout or pass "
                   f"--configs FOLDER", err=True)
        sys.exit(2)
    results = demos.run_demos(folder, list(games), deals, out,
                              progress=lambda msg: click.echo(f"  ... {msg}", err=True))
    click.echo(demos.markdown_table(results))
    errors = [e for r in results for e in r.errors]
    for e in errors:
        click.echo(f"error: {e}", err=True)
    sys.exit(1 if errors else 0)
