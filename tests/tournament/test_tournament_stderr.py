"""What a bot writes to stderr before a game ends is in that game's stderr record, even when the
reader thread has not run since it was written (a loaded machine): the record takes what the pipe
holds, under the reader's lock, so nothing is lost and nothing is reordered
(tournament/process.py, BotProcess.stderr_settled)."""

from __future__ import annotations

import os
import sys
import time

from tournament.process import BotProcess

BOT = r"""
import sys
for i in range(int(sys.argv[1])):
    sys.stderr.write(f"line {i}\n")
    sys.stderr.flush()
sys.stdout.write("done\n")
sys.stdout.flush()
sys.stdin.readline()
"""


def _start(lines: int) -> BotProcess:
    return BotProcess((sys.executable, "-c", BOT, str(lines)), None, dict(os.environ), 1 << 20, 1 << 20)


def _wait_done(process: BotProcess) -> None:
    while True:
        item = process.next_output(time.perf_counter() + 10.0)
        assert item is not None and item.kind == "line", item
        if item.text == "done":
            return


def test_stderr_written_before_the_end_is_taken_without_the_reader(monkeypatch):
    """With the reader thread held off entirely, taking the record still reads every line."""
    monkeypatch.setattr(BotProcess, "_drain_stderr", lambda self: None)
    process = _start(200)
    try:
        _wait_done(process)               # every stderr line was written before this one
        text = process.stderr_settled().take()
        assert text.splitlines() == [f"line {i}" for i in range(200)]
    finally:
        process.kill()


def test_the_reader_and_the_record_together_keep_every_line_in_order():
    for _ in range(20):
        process = _start(500)
        try:
            _wait_done(process)
            text = process.stderr_settled().take()
            assert text.splitlines() == [f"line {i}" for i in range(500)]
        finally:
            process.kill()
