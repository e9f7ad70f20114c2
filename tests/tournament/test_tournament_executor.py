"""The ``[executor]`` table and the CLI's --executor/--address, without starting Ray: errors
name their key, the executor never changes a run's fingerprint (a resume may switch it),
local tables stay the default, and per-node throughput is counted from the records."""

from __future__ import annotations

import pytest
import tomli_w
from click.testing import CliRunner

from tests.tournament.support import bot_cmd, quick_doc
from tournament.cli import tournament_command
from tournament.config import ConfigError, ExecutorConfig, load_config, parse_config
from tournament.runner import format_throughput, node_throughput


def bots(n: int = 2) -> list[dict]:
    return [{"name": f"b{i}", "command": bot_cmd("random_bot.py")} for i in range(n)]


def problems(doc: dict) -> list[str]:
    with pytest.raises(ConfigError) as info:
        parse_config(doc)
    return info.value.problems


def with_executor(**executor) -> dict:
    doc = quick_doc(bots())
    doc["executor"] = executor
    return doc


def test_local_is_the_default_and_writes_no_executor_table():
    config = parse_config(quick_doc(bots()))
    assert config.executor == ExecutorConfig() and config.executor.kind == "local"
    assert "executor" not in config.effective()


@pytest.mark.parametrize("executor, expected", [
    ({"kind": "cloud"}, "executor.kind: must be one of local, ray, got 'cloud'"),
    ({"kind": "ray", "adress": "auto"}, "executor.adress: unknown key (did you mean 'address'?)"),
    ({"address": 6379}, "executor.address: must be a string, got an integer 6379"),
    ({"address": "ray://head:10001"}, "executor.address: 'ray://head:10001' is a Ray Client address"),
    ({"cpus_per_table": "one"}, "executor.cpus_per_table: must be a number, got a string 'one'"),
    ({"cpus_per_table": -1}, "executor.cpus_per_table: must be >= 0, got -1"),
    ({"batch_games": 0}, "executor.batch_games: must be >= 1, got 0"),
    ({"max_attempts": 0}, "executor.max_attempts: must be >= 1, got 0"),
    ({"start_timeout_s": 0}, "executor.start_timeout_s: must be >= 1, got 0"),
    ({"working_dir": "{config_dir}/no-such-folder"}, "executor.working_dir: '{config_dir}/no-such-folder' is not a "
                                                     "directory"),
], ids=lambda x: str(x)[:40])
def test_errors_name_the_key(executor, expected):
    found = problems(with_executor(**executor))
    assert len(found) == 1 and found[0].startswith(expected), found


def test_ray_kind_needs_ray_installed(monkeypatch):
    import importlib.util

    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *a: None if name == "ray" else real(name, *a))
    assert problems(with_executor(kind="ray")) == [
        'executor.kind: "ray" needs the ray package on this machine: pip install ".[ray]" in a trickcore clone '
        '(or pip install "ray[default]")']
    assert parse_config(with_executor(kind="local")).executor.kind == "local"


def test_every_error_of_the_table_together():
    found = problems(with_executor(kind="cloud", batch_games=0, speed=3))
    assert [p.split(":")[0] for p in found] == ["executor.speed", "executor.kind", "executor.batch_games"]
    assert problems({**quick_doc(bots()), "executor": "ray"}) == ["executor: must be a table, got a string"]


def test_the_executor_may_change_on_resume(tmp_path):
    local = parse_config(quick_doc(bots()))
    ray_config = parse_config(with_executor(kind="ray", address="auto", cpus_per_table=2, batch_games=3,
                                            working_dir=str(tmp_path), max_attempts=5, start_timeout_s=60))
    assert ray_config.executor == ExecutorConfig("ray", "auto", 2.0, 3, str(tmp_path), 5, 60)
    assert ray_config.fingerprint() == local.fingerprint()
    # The effective config keeps the table and reads back to the same config.
    path = tmp_path / "eff.toml"
    path.write_text(tomli_w.dumps(ray_config.effective()))
    again = load_config(path)
    assert again.executor == ray_config.executor and again.fingerprint() == local.fingerprint()


def test_cli_executor_and_address_override_the_file(tmp_path):
    path = tmp_path / "t.toml"
    path.write_text(tomli_w.dumps(quick_doc(bots())))
    result = CliRunner().invoke(tournament_command, [str(path), "--check", "--executor", "ray"])
    assert result.exit_code == 0, result.output
    assert '[executor]\nkind = "ray"\naddress = ""' in result.output
    # --address alone implies the Ray executor.
    result = CliRunner().invoke(tournament_command, [str(path), "--check", "--address", "10.1.2.3:6379"])
    assert result.exit_code == 0 and 'kind = "ray"\naddress = "10.1.2.3:6379"' in result.output
    # --executor local overrides a file that asks for Ray.
    path.write_text(tomli_w.dumps(with_executor(kind="ray", address="auto")))
    result = CliRunner().invoke(tournament_command, [str(path), "--check", "--executor", "local"])
    assert result.exit_code == 0 and 'kind = "local"\naddress = "auto"' in result.output
    bad = CliRunner().invoke(tournament_command, [str(path), "--check", "--executor", "dask"])
    assert bad.exit_code == 2 and "'dask' is not one of 'local', 'ray'" in bad.output


def test_node_throughput_counts_played_games_and_bot_decisions_per_node():
    def rec(node, worker, bot_decisions, status="played"):
        actions = [{"by": "bot"}] * bot_decisions + [{"by": "substitute"}]
        return {"status": status, "node": node, "host": f"h-{node}", "table_worker": worker, "actions": actions}

    records = [rec("n1", "a", 10), rec("n1", "b", 20), rec("n2", "c", 5), rec("n2", "c", 5),
               rec("n2", "c", 5), rec("n1", "a", 0, status="skipped")]
    nodes = node_throughput(records, 2.0)
    assert [(n.node, n.host, n.tables, n.games, n.decisions, n.rate) for n in nodes] == [
        ("n2", "h-n2", 1, 3, 15, 7.5), ("n1", "h-n1", 2, 2, 30, 15.0)]
    table = format_throughput(nodes)
    assert table.splitlines()[-1].split() == ["all", "3", "5", "45", "22"]
    # Local records (no table worker) count one table per node.
    assert [(n.node, n.tables) for n in node_throughput([{"status": "played", "actions": []}], 1.0)] == [("local", 1)]


def test_progress_line_counts_the_nodes_of_remote_games():
    import io

    from tournament.cli import _Progress

    log = io.StringIO()
    progress = _Progress(False, stream=log, tty=False)
    for done in range(1, 11):
        progress(done, 10, {"actions": [{"by": "bot"}], "node": f"node-{done % 2}"})
    local = _Progress(False, stream=io.StringIO(), tty=False)
    local(1, 1, {"actions": [], "node": "local"})
    lines = log.getvalue().splitlines()
    assert lines[0].endswith("decisions/s on 1 node") and lines[-1].endswith("decisions/s on 2 nodes")
    assert local.line(1, 1).endswith("decisions/s")  # local tables: no node count
