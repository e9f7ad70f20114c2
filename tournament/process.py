"""One bot program as an operating-system process: spawn, line I/O, bounded stderr, kill.

Why three threads per process: the runner must never block on a bot.  A bot that stops
reading its stdin would block a plain ``write`` once the pipe buffer is full, and a bot
that floods stdout must not exhaust memory; so a writer thread owns stdin, a reader
thread turns stdout into bounded lines on a bounded queue, and a third thread keeps
only the tail of stderr.  Each bot runs in its own session (process group) so that a
kill also takes down any children it started.
"""

from __future__ import annotations

import atexit
import collections
import dataclasses
import os
import queue
import signal
import subprocess
import threading
import time
from typing import Callable

# Every live process, so that Ctrl-C or interpreter exit kills them all.
_LIVE: set["BotProcess"] = set()
_LIVE_LOCK = threading.Lock()

_QUEUE_LINES = 4096  # lines buffered from a bot before its stdout is back-pressured


@dataclasses.dataclass(frozen=True)
class OutputItem:
    """What the stdout reader saw: a line, an over-long line, undecodable bytes, or EOF."""

    kind: str  # "line" | "overlong" | "undecodable" | "eof"
    time: float  # time.perf_counter() when it was read
    text: str = ""  # the line without its CR/LF ending; a description for the other kinds


class StderrTail:
    """The last ``limit`` bytes a bot wrote to stderr, with a count of what was dropped."""

    def __init__(self, limit: int):
        self.limit = limit
        self._chunks: collections.deque[bytes] = collections.deque()
        self._size = 0
        self._dropped = 0
        self._lock = threading.Lock()

    def add(self, data: bytes) -> None:
        with self._lock:
            self._chunks.append(data)
            self._size += len(data)
            while self._size > self.limit and self._chunks:
                excess = self._size - self.limit
                head = self._chunks[0]
                if len(head) <= excess:
                    self._chunks.popleft()
                    self._size -= len(head)
                    self._dropped += len(head)
                else:
                    self._chunks[0] = head[excess:]
                    self._size -= excess
                    self._dropped += excess

    def take(self) -> str:
        """Return and clear what was collected (one game's worth)."""
        with self._lock:
            data = b"".join(self._chunks)
            dropped = self._dropped
            self._chunks.clear()
            self._size = 0
            self._dropped = 0
        text = data.decode("utf-8", errors="replace")
        if dropped:
            text = f"[... {dropped} earlier bytes of stderr dropped ...]\n" + text
        return text


class BotProcess:
    """A started bot program.  ``on_io(direction, text)`` sees every line both ways."""

    def __init__(self, command: tuple[str, ...], cwd: str | None, env: dict[str, str], max_line_bytes: int,
                 stderr_bytes: int, on_io: Callable[[str, str], None] | None = None):
        self.command = command
        self.max_line_bytes = max_line_bytes
        self.on_io = on_io
        self.output: queue.Queue[OutputItem] = queue.Queue(maxsize=_QUEUE_LINES)
        self.stderr = StderrTail(stderr_bytes)
        self.stdin_error: str | None = None  # set when a write failed (the bot closed stdin or died)
        self._outbox: queue.Queue[bytes | None] = queue.Queue()
        self._closing = threading.Event()
        # Raises OSError (e.g. FileNotFoundError) if the program cannot be started.
        self.proc = subprocess.Popen(
            list(command), stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=cwd,
            env=env, start_new_session=True)
        self.pid = self.proc.pid
        with _LIVE_LOCK:
            _LIVE.add(self)
        self._threads = [threading.Thread(target=target, name=f"bot-{self.pid}-{target.__name__}", daemon=True)
                         for target in (self._read_stdout, self._read_stderr, self._write_stdin)]
        for t in self._threads:
            t.start()

    # ---- threads ------------------------------------------------------------------
    def _put(self, item: OutputItem) -> None:
        # Back-pressure instead of unbounded memory; give up once the process is closing.
        while not self._closing.is_set():
            try:
                self.output.put(item, timeout=0.1)
                return
            except queue.Full:
                continue

    def _read_stdout(self) -> None:
        stream = self.proc.stdout
        limit = self.max_line_bytes
        try:
            while True:
                raw = stream.readline(limit + 1)
                now = time.perf_counter()
                if not raw:
                    self._put(OutputItem("eof", now, "stdout closed"))
                    return
                if not raw.endswith(b"\n") and len(raw) > limit:
                    # Skip the rest of the over-long line without keeping it.
                    total = len(raw)
                    while raw and not raw.endswith(b"\n"):
                        raw = stream.readline(limit + 1)
                        total += len(raw)
                    self._put(OutputItem("overlong", now, f"line of {total} bytes exceeds the {limit}-byte limit"))
                    if not raw:
                        self._put(OutputItem("eof", time.perf_counter(), "stdout closed"))
                        return
                    continue
                if raw.endswith(b"\n"):
                    raw = raw[:-1]
                if raw.endswith(b"\r"):  # CRLF is tolerated
                    raw = raw[:-1]
                try:
                    text = raw.decode("utf-8")
                except UnicodeDecodeError as exc:
                    self._put(OutputItem("undecodable", now, f"not UTF-8 ({exc.reason} at byte {exc.start}): "
                                                            f"{raw[:60]!r}"))
                    continue
                if self.on_io:
                    self.on_io("<", text)
                self._put(OutputItem("line", now, text))
        except (OSError, ValueError):
            self._put(OutputItem("eof", time.perf_counter(), "stdout unreadable"))

    def _read_stderr(self) -> None:
        fd = self.proc.stderr.fileno()
        try:
            while True:
                data = os.read(fd, 65536)
                if not data:
                    return
                self.stderr.add(data)
        except OSError:
            return

    def _write_stdin(self) -> None:
        stream = self.proc.stdin
        while True:
            data = self._outbox.get()
            if data is None:
                break
            if self.stdin_error:
                continue  # keep draining so senders never block
            try:
                stream.write(data)
                stream.flush()
            except (OSError, ValueError) as exc:
                self.stdin_error = f"writing to the bot's stdin failed: {exc.__class__.__name__}: {exc}"
        try:
            stream.close()
        except OSError:
            pass

    # ---- API ----------------------------------------------------------------------
    def send(self, line: str) -> float:
        """Queue one line for the bot; return the time it was handed over."""
        if self.on_io:
            self.on_io(">", line)
        self._outbox.put((line + "\n").encode("utf-8"))
        return time.perf_counter()

    def next_output(self, deadline: float) -> OutputItem | None:
        """The next stdout item, or None when ``deadline`` (perf_counter) passes first."""
        timeout = deadline - time.perf_counter()
        try:
            if timeout <= 0:
                return self.output.get_nowait()
            return self.output.get(timeout=timeout)
        except queue.Empty:
            return None

    def alive(self) -> bool:
        return self.proc.poll() is None

    def exit_description(self) -> str:
        code = self.proc.poll()
        if code is None:
            return "still running"
        if code < 0:
            try:
                return f"killed by signal {signal.Signals(-code).name}"
            except ValueError:
                return f"killed by signal {-code}"
        return f"exited with code {code}"

    def close(self, grace_s: float) -> None:
        """Let the process exit by itself within ``grace_s`` (after ``quit``), else kill its group."""
        self._outbox.put(None)  # closes stdin once queued lines are written
        try:
            self.proc.wait(timeout=max(grace_s, 0.0))
        except subprocess.TimeoutExpired:
            pass
        self.kill()

    def kill(self) -> None:
        """Kill the whole process group (the bot and anything it started); idempotent."""
        self._closing.set()
        self._outbox.put(None)
        try:
            os.killpg(self.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass
        try:
            self.proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            pass
        for t in self._threads:
            if t is not threading.current_thread():
                t.join(timeout=1)
        for stream in (self.proc.stdout, self.proc.stderr):
            try:
                stream.close()
            except OSError:
                pass
        with _LIVE_LOCK:
            _LIVE.discard(self)


def kill_all() -> None:
    """Kill every bot process still running (Ctrl-C, fatal error, interpreter exit)."""
    with _LIVE_LOCK:
        live = list(_LIVE)
    for p in live:
        p.kill()


atexit.register(kill_all)
