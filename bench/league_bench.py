"""League load benchmark: a league of many bots plays many games; its speed and its own cost per
game against a plain tournament of the same bots and game, side by side, in one run.

    python bench/league_bench.py                       # 50 bots, 5,000 games (about an hour on 2 cores)
    python bench/league_bench.py --bots 20 --games 400 # a quick look

A source checkout's benchmark, not a test: nothing here asserts a speed.

* **The league**: a new league (SQLite) of Klaberjass for two, ``--bots`` bots submitted as
  archives through ``submit`` (the bundled random, heuristic and example bots in turn, each
  random and heuristic one with its own ``seed`` option), each passing the compliance check in
  the sandbox; then the scheduler plays tables of ``--deals`` duplicate deals until ``--games``
  games are rated.  Reported: games per hour (the scheduler's wall time), the league's **own
  cost per game** (the scheduler's wall time outside the tables' tournament runs -- forming
  tables, rating them, the database -- divided by the games), the league's faults (runner
  errors: must be none), and the process's resident memory after each tenth of the run (flat
  when nothing grows with the games).
* **The same tables without the league**: each table the league played (its bots, its deals,
  its seed), played again as a plain ``duplicate`` tournament of its own by ``run_tournament``,
  as many at once as the league plays (``parallel_tables``), in new folders: games per hour.
  The league's wall time per game over this one's is what the league adds to the runner:
  forming, rating, the database.
* **A plain round robin** of the same game among the first k of the same bots, k the fewest
  whose pairings are as many as the league's tables, each pairing playing as many games as a
  league table (a round robin plays one seating per deal: twice the deals), ``parallel_tables``
  tables at once: games per hour.  Its bots are started once per pairing, where a duplicate
  table starts them again for every seating (a process never plays a deal twice), so this
  ratio is what duplicate deals cost over a round robin, the league's part included.
"""

from __future__ import annotations

import argparse
import json
import sys
import tarfile
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

BOTS = (("random_bot.py", True), ("heuristic_bot.py", True), ("example_bot.py", False))


def rss_mb() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def make_bots(league: Any, folder: Path, count: int) -> list[str]:
    from tournament.league.authors import add_author
    from tournament.league.submit import submit

    token = add_author(league.engine, "bench")
    names = []
    for i in range(count):
        script, seeded = BOTS[i % len(BOTS)]
        name = f"{script.split('_')[0]}-{i}"
        source = folder / "sources" / name
        source.mkdir(parents=True)
        (source / "bot.py").write_bytes((ROOT / "tournament" / "bots" / script).read_bytes())
        options = f"options = {{ seed = {1000 + i} }}\n" if seeded else ""
        (source / "bot.toml").write_text(f'name = "{name}"\nruntime = "python"\ncommand = ["bot.py"]\n{options}')
        archive = folder / "sources" / f"{name}.tar.gz"
        with tarfile.open(archive, "w:gz") as tar:
            tar.add(source, arcname=".")
        outcome = submit(league, token, archive)
        if not outcome.accepted:
            raise SystemExit(f"{name} was refused:\n{outcome.report}")
        names.append(name)
    return names


def run_league(folder: Path, bots: int, games: int, deals: int) -> dict[str, Any]:
    import tomli_w

    from tournament.league.config import LEAGUE_FILE
    from tournament.league.league import init_league, open_league
    from tournament.league.scheduler import Scheduler

    if sys.version_info >= (3, 11):
        import tomllib
    else:
        import tomli as tomllib

    init_league(folder, "klaberjass", 2).close()
    doc = tomllib.loads((folder / LEAGUE_FILE).read_text())
    doc["league"]["deals_per_table"] = deals
    doc["submissions"]["per_hour"] = bots + 1
    doc["submissions"]["compliance_games"] = 1
    (folder / LEAGUE_FILE).write_text(tomli_w.dumps(doc))
    league = open_league(folder)
    started = time.perf_counter()
    names = make_bots(league, folder, bots)
    submit_s = time.perf_counter() - started
    tables = -(-games // (2 * deals))
    memory: list[float] = []
    scheduler = Scheduler(league, tables, on_rated=lambda t: memory.append(rss_mb()))
    started = time.perf_counter()
    scheduler.run()
    wall = time.perf_counter() - started
    from sqlalchemy import func, select
    from sqlalchemy.orm import Session

    from tournament.league.db import Game, LeagueTable

    with Session(league.engine) as session:
        played = session.scalar(select(func.count()).select_from(Game)) or 0
        table_ids = list(session.scalars(select(LeagueTable.id).where(LeagueTable.state == "rated")
                                         .order_by(LeagueTable.id)))
    parallel = league.config.parallel_tables
    league.close()
    tenths = [memory[min(len(memory) - 1, len(memory) * k // 10)] for k in range(1, 11)] if memory else []
    return {"bots": names, "games": played, "tables": scheduler.rated, "wall_s": wall, "submit_s": submit_s,
            "play_s": scheduler.play_s, "own_s": scheduler.own_s, "errors": scheduler.errors,
            "rss_mb_by_tenth": [round(m, 1) for m in tenths], "table_ids": table_ids, "parallel_tables": parallel}


def run_tables_alone(folder: Path, league_folder: Path, table_ids: list[int], parallel: int) -> dict[str, Any]:
    """The league's tables played again, each as the duplicate tournament the league ran (its
    effective config), ``parallel`` at once, in new output folders."""
    import threading

    from tournament.config import parse_config
    from tournament.league.league import open_league
    from tournament.league.scheduler import table_folder
    from tournament.results import EFFECTIVE_CONFIG_FILE
    from tournament.runner import run_tournament

    if sys.version_info >= (3, 11):
        import tomllib
    else:
        import tomli as tomllib

    league = open_league(league_folder)
    docs = []
    for table_id in table_ids:
        doc = tomllib.loads((table_folder(league, table_id) / EFFECTIVE_CONFIG_FILE).read_text())
        doc["tournament"]["output"] = str(folder / str(table_id))
        docs.append(doc)
    league.close()
    queue = list(reversed(docs))
    lock = threading.Lock()
    played: list[int] = []
    errors: list[str] = []

    def work() -> None:
        while True:
            with lock:
                if not queue:
                    return
                doc = queue.pop()
            summary = run_tournament(parse_config(doc, "bench"), check_bots=False)
            with lock:
                played.append(summary.played)
                errors.extend(summary.errors)

    started = time.perf_counter()
    workers = [threading.Thread(target=work) for _ in range(parallel)]
    for w in workers:
        w.start()
    for w in workers:
        w.join()
    return {"games": sum(played), "wall_s": time.perf_counter() - started, "errors": errors}


def run_tournament_of(folder: Path, league_folder: Path, names: list[str], tables: int, deals: int,
                      parallel: int) -> dict[str, Any]:
    from tournament.config import parse_config
    from tournament.league.league import open_league
    from tournament.league.submit import bot_command
    from tournament.runner import run_tournament

    league = open_league(league_folder)
    config = league.config
    bots: list[dict[str, Any]] = []
    for name in names:
        version = league.folder / "bots" / name / "v1"
        bots.append({"name": name, "command": list(bot_command(config, version, "python", ["bot.py"])),
                     "cwd": str(version)})
        index = names.index(name)
        if BOTS[index % len(BOTS)][1]:
            bots[-1]["options"] = {"seed": 1000 + index}
    league.close()
    # As many pairings as the league had tables, each playing as many games as a league table
    # (a round robin plays one seating per deal: twice the deals) with its bots started once:
    # the first k bots, k(k-1)/2 >= tables.
    k = 2
    while k < len(bots) and k * (k - 1) // 2 < tables:
        k += 1
    doc = {"game": {"name": "klaberjass", "players": 2},
           "tournament": {"name": "plain", "format": "round-robin", "deals": 2 * deals, "seed": 1,
                          "concurrency": parallel, "output": str(folder)},
           "records": {"report": False}, "bots": bots[:k]}
    started = time.perf_counter()
    summary = run_tournament(parse_config(doc, "bench"), check_bots=False)
    wall = time.perf_counter() - started
    return {"games": summary.played, "wall_s": wall, "errors": summary.errors}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--bots", type=int, default=50)
    parser.add_argument("--games", type=int, default=5000)
    parser.add_argument("--deals", type=int, default=5, help="deals per table (each played at both seatings)")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="league-bench-") as tmp:
        league = run_league(Path(tmp) / "league", args.bots, args.games, args.deals)
        parallel = int(league["parallel_tables"])
        alone = run_tables_alone(Path(tmp) / "alone", Path(tmp) / "league", league["table_ids"],
                                 parallel)
        plain = run_tournament_of(Path(tmp) / "plain", Path(tmp) / "league", league["bots"],
                                  len(league["table_ids"]), args.deals, parallel)
    games, wall = int(league["games"]), float(league["wall_s"])
    own = float(league["own_s"]) / max(games, 1)

    def per_game(run: dict[str, Any]) -> float:
        return float(run["wall_s"]) / max(int(run["games"]), 1)

    league_per_game = wall / max(games, 1)
    result = {"league": {k: v for k, v in league.items() if k not in ("bots", "table_ids")},
              "tables_alone": alone, "round_robin": plain,
              "league_games_per_hour": round(3600 / league_per_game), "league_own_ms_per_game": round(1000 * own, 2),
              "tables_alone_games_per_hour": round(3600 / per_game(alone)),
              "round_robin_games_per_hour": round(3600 / per_game(plain)),
              "ratio_league_to_tables_alone_per_game": round(league_per_game / per_game(alone), 3),
              "ratio_league_to_round_robin_per_game": round(league_per_game / per_game(plain), 3)}
    if args.json:
        print(json.dumps(result, indent=2))
        return
    print(f"league: {games} games at {league['tables']} tables of {args.bots} bots, {parallel} tables at once, "
          f"{result['league_games_per_hour']} games/hour, its own work (forming, rating) "
          f"{result['league_own_ms_per_game']} ms/game, faults of its own: {len(league['errors'])}")
    print(f"the same tables as plain duplicate tournaments: {alone['games']} games, "
          f"{result['tables_alone_games_per_hour']} games/hour, runner errors: {len(alone['errors'])}")
    print(f"a round robin of as many pairings: {plain['games']} games, "
          f"{result['round_robin_games_per_hour']} games/hour")
    print(f"league / the same tables alone, wall time per game: {result['ratio_league_to_tables_alone_per_game']}")
    print(f"league / round robin, wall time per game: {result['ratio_league_to_round_robin_per_game']}")
    print(f"resident memory after each tenth of the run (MB): {league['rss_mb_by_tenth']}")


if __name__ == "__main__":
    main()
