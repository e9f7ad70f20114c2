"""Local tables against the Ray executor, in one run: decisions per second of the same duplicate
tournament of the bundled bots (a) on local tables, (b) on Ray on this machine with the same
number of tables, (c) on a cluster of two Ray nodes started on this machine (Ray's test
utilities), one table per node.  Also checks that all three recorded the same games.

    python bench/ray_executor.py                      # configs/reference-duplicate.toml, 84 deals = 2,016 games
    python bench/ray_executor.py --deals 10 -j 2 --keep runs/bench-ray

Two rates per run: over the whole invocation (start-up included: Ray's own start, the
tables' actors, the preflight) and while the tables ran (first table started to last record,
the figure `trickcore tournament` prints per node).  The machine is shared and noisy: compare
the ratios of one run.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from tournament.config import load_config  # noqa: E402
from tournament.results import comparable, read_results  # noqa: E402
from tournament.runner import run_tournament  # noqa: E402


def measure(label: str, config_path: Path, overrides: dict, out: Path) -> dict:
    config = load_config(config_path, overrides)
    start = time.perf_counter()
    summary = run_tournament(config, out)
    wall = time.perf_counter() - start
    assert not summary.errors, summary.errors
    decisions = sum(n.decisions for n in summary.nodes)
    tables_s = max(n.seconds for n in summary.nodes)
    row = {"label": label, "games": summary.played, "decisions": decisions, "wall_s": wall, "tables_s": tables_s,
           "rate": decisions / wall, "rate_tables": decisions / tables_s, "nodes": summary.nodes}
    print(f"  {label}: {summary.played} games, {decisions} decisions, {wall:.1f} s "
          f"({row['rate']:,.0f}/s; tables running {tables_s:.1f} s, {row['rate_tables']:,.0f}/s)", file=sys.stderr)
    return row


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--config", type=Path, default=ROOT / "configs" / "reference-duplicate.toml")
    p.add_argument("--deals", type=int, default=84)
    p.add_argument("-j", "--tables", type=int, default=2)
    p.add_argument("--keep", type=Path, help="keep the three runs' outputs here (default: a temporary folder)")
    args = p.parse_args(argv)

    import os

    os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")  # no usage statistics over the network
    import ray
    from ray.cluster_utils import Cluster

    base = args.keep or Path(tempfile.mkdtemp(prefix="trickcore-bench-ray-"))
    # No game budget: the bundled random bot seeds its choice by the whole request, and with a
    # budget the request carries the time left, which would make the games depend on timing.
    common = {"tournament.deals": args.deals, "tournament.concurrency": args.tables, "time.game_ms": 0}
    rows = [measure("local", args.config, {**common, "executor.kind": "local"}, base / "local"),
            measure("ray, this machine", args.config, {**common, "executor.kind": "ray"}, base / "ray")]
    # Two nodes, one table each (a head without CPUs, so no table runs there).
    cluster = Cluster(initialize_head=True, head_node_args={"num_cpus": 0, "include_dashboard": False})
    try:
        for _ in range(2):
            cluster.add_node(num_cpus=args.tables / 2)
        cluster.wait_for_nodes()
        ray.init(address=cluster.address, logging_level="ERROR")
        rows.append(measure("ray, two nodes", args.config, {**common, "executor.kind": "ray"}, base / "two-nodes"))
    finally:
        ray.shutdown()
        cluster.shutdown()

    same = all({r["job"]: comparable(r) for r in read_results(base / name)} ==
               {r["job"]: comparable(r) for r in read_results(base / "local")} for name in ("ray", "two-nodes"))
    local = rows[0]
    print(f"{args.config.name}, {args.deals} deals, {local['games']} games, {args.tables} tables; "
          f"same records in all three runs: {same}")
    print("| executor | decisions/s (whole run) | x local | decisions/s (tables running) | x local | per node |")
    print("|---|---:|---:|---:|---:|---|")
    for row in rows:
        nodes = ", ".join(f"{n.node[:8]} {n.games} games {n.rate:,.0f}/s" for n in row["nodes"])
        print(f"| {row['label']} | {row['rate']:,.0f} | {row['rate'] / local['rate']:.2f} | "
              f"{row['rate_tables']:,.0f} | {row['rate_tables'] / local['rate_tables']:.2f} | {nodes} |")
    return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main())
