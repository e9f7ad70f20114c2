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
* **The plain tournament**: a round robin of the same game among the first k of the same bots,
  k the fewest whose pairings are as many as the league's tables, each pairing playing as many
  games as a league table (twice ``--deals``: a round robin plays one seating per deal) with its
  bots started once, as a league table does,
  run by ``run_tournament`` in one output folder: games per hour.
* **Ratio**: league wall time per game / tournament wall time per game: what forming, running
  and rating tables one at a time, and the database, cost over one tournament run of as many
  such tables.
"""

from __future__ import annotations

import argparse
import json
import sys
import tarfile
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

BOTS = (("random_bot.py", True), ("heuristic_bot.py", True), ("example_bot.py", False))


def rss_mb() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def make_bots(league: object, folder: Path, count: int) -> list[str]:
    from tournament.league.authors import add_author
    from tournament.league.submit import submit

    token = add_author(league.engine, "bench")  # type: ignore[attr-defined]
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
        outcome = submit(league, token, archive)  # type: ignore[arg-type]
        if not outcome.accepted:
            raise SystemExit(f"{name} was refused:\n{outcome.report}")
        names.append(name)
    return names


def run_league(folder: Path, bots: int, games: int, deals: int) -> dict[str, object]:
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

    from tournament.league.db import Game

    with Session(league.engine) as session:
        played = session.scalar(select(func.count()).select_from(Game)) or 0
    league.close()
    tenths = [memory[min(len(memory) - 1, len(memory) * k // 10)] for k in range(1, 11)] if memory else []
    return {"bots": names, "games": played, "tables": scheduler.rated, "wall_s": wall, "submit_s": submit_s,
            "play_s": scheduler.play_s, "errors": scheduler.errors, "rss_mb_by_tenth": [round(m, 1) for m in tenths]}


def run_tournament_of(folder: Path, league_folder: Path, names: list[str], tables: int, deals: int
                      ) -> dict[str, object]:
    from tournament.config import parse_config
    from tournament.league.league import open_league
    from tournament.league.submit import bot_command
    from tournament.runner import run_tournament

    league = open_league(league_folder)
    config = league.config
    bots = []
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
                          "output": str(folder)},
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
        plain = run_tournament_of(Path(tmp) / "plain", Path(tmp) / "league", league["bots"],  # type: ignore[arg-type]
                                  int(league["tables"]), args.deals)  # type: ignore[call-overload]
    games, wall = int(league["games"]), float(league["wall_s"])  # type: ignore[arg-type]
    own = (wall - float(league["play_s"])) / max(games, 1)  # type: ignore[arg-type]
    plain_per_game = float(plain["wall_s"]) / max(int(plain["games"]), 1)  # type: ignore[arg-type]
    result = {"league": {k: v for k, v in league.items() if k != "bots"}, "tournament": plain,
              "league_games_per_hour": round(3600 * games / wall), "league_own_ms_per_game": round(1000 * own, 2),
              "tournament_games_per_hour": round(3600 / plain_per_game),
              "ratio_league_to_tournament_per_game": round((wall / max(games, 1)) / plain_per_game, 2)}
    if args.json:
        print(json.dumps(result, indent=2))
        return
    print(f"league: {games} games at {league['tables']} tables of {args.bots} bots, "
          f"{result['league_games_per_hour']} games/hour, its own cost {result['league_own_ms_per_game']} ms/game, "
          f"faults of its own: {len(league['errors'])}")  # type: ignore[arg-type]
    print(f"plain tournament: {plain['games']} games, {result['tournament_games_per_hour']} games/hour")
    print(f"league / tournament wall time per game: {result['ratio_league_to_tournament_per_game']}")
    print(f"resident memory after each tenth of the run (MB): {league['rss_mb_by_tenth']}")


if __name__ == "__main__":
    main()
