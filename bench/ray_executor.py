"""Local tables against the Ray executor, in one run: decisions per second of the same duplicate
tournament of the bundled bots (a) on local tables, (b) on Ray on this machine with the same
number of tables, (c) on a cluster of two Ray nodes started on this machine (Ray's test
utilities), one table per node.  Also checks that all three recorded the same games.

    python bench/ray_executor.py                      # configs/reference-duplicate.toml, 84 deals = 2,016 games
    python bench/ray_executor.py --repeat 3           # three interleaved rounds, medians
    python bench/ray_executor.py --deals 10 -j 2 --keep runs/bench-ray

Two rates per run: over the whole invocation (start-up included: Ray's own start, the
tables' actors, the preflight) and while the tables ran (first table started to last record,
the figure `trickcore tournament` prints per node).  The machine is shared and noisy: compare
the ratios of one run.
"""

from __future__ import annotations

import argparse
import os
import statistics
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


def two_nodes(label: str, config_path: Path, overrides: dict, out: Path, tables: int) -> dict:
    """The run on a cluster of two Ray nodes started on this machine, one table each (a head
    without CPUs, so that no table runs there)."""
    import ray
    from ray.cluster_utils import Cluster

    cluster = Cluster(initialize_head=True, head_node_args={"num_cpus": 0, "include_dashboard": False})
    try:
        for _ in range(2):
            cluster.add_node(num_cpus=tables / 2)
        cluster.wait_for_nodes()
        ray.init(address=cluster.address, logging_level="ERROR")
        return measure(label, config_path, overrides, out)
    finally:
        ray.shutdown()
        cluster.shutdown()


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--config", type=Path, default=ROOT / "configs" / "reference-duplicate.toml")
    p.add_argument("--deals", type=int, default=84)
    p.add_argument("-j", "--tables", type=int, default=2)
    p.add_argument("--repeat", type=int, default=1,
                   help="rounds of the three runs, interleaved (local, Ray, two nodes, local, ...); medians shown")
    p.add_argument("--keep", type=Path, help="keep the runs' outputs here (default: a temporary folder)")
    args = p.parse_args(argv)
    os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")  # no usage statistics over the network

    base = args.keep or Path(tempfile.mkdtemp(prefix="trickcore-bench-ray-"))
    # No game budget: the bundled random bot seeds its choice by the whole request, and with a
    # budget the request carries the time left, which would make the games depend on timing.
    # A generous decision time: on a loaded machine a bot answering late would be a timeout
    # fault, and the runs would no longer play the same games.
    common = {"tournament.deals": args.deals, "tournament.concurrency": args.tables, "time.game_ms": 0,
              "time.decision_ms": 60000}
    labels = ("local", "ray, this machine", "ray, two nodes")
    rows: dict[str, list[dict]] = {label: [] for label in labels}
    same = True
    for r in range(args.repeat):
        outs = [base / f"{r}-{name}" for name in ("local", "ray", "two-nodes")]
        rows[labels[0]].append(measure(labels[0], args.config, {**common, "executor.kind": "local"}, outs[0]))
        rows[labels[1]].append(measure(labels[1], args.config, {**common, "executor.kind": "ray"}, outs[1]))
        rows[labels[2]].append(two_nodes(labels[2], args.config, {**common, "executor.kind": "ray"}, outs[2],
                                         args.tables))
        reference = {rec["job"]: comparable(rec) for rec in read_results(outs[0])}
        same = same and all({rec["job"]: comparable(rec) for rec in read_results(out)} == reference
                            for out in outs[1:])

    def median(label: str, key: str) -> float:
        return statistics.median(row[key] for row in rows[label])

    local = rows[labels[0]][0]
    print(f"{args.config.name}, {args.deals} deals, {local['games']} games, {args.tables} tables, "
          f"{args.repeat} round(s), medians; same records in every run: {same}")
    print("| executor | decisions/s (tables running) | x local | decisions/s (whole run) | x local | per node "
          "(last round) |")
    print("|---|---:|---:|---:|---:|---|")
    for label in labels:
        nodes = ", ".join(f"{n.node[:8]} {n.games} games {n.rate:,.0f}/s" for n in rows[label][-1]["nodes"])
        print(f"| {label} | {median(label, 'rate_tables'):,.0f} | "
              f"{median(label, 'rate_tables') / median(labels[0], 'rate_tables'):.2f} | "
              f"{median(label, 'rate'):,.0f} | {median(label, 'rate') / median(labels[0], 'rate'):.2f} | {nodes} |")
    if args.repeat > 1:
        print("per round, x local (tables running): " + "; ".join(
            ", ".join(f"{rows[label][r]['rate_tables'] / rows[labels[0]][r]['rate_tables']:.2f}"
                      for label in labels[1:]) for r in range(args.repeat)))
    return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main())
