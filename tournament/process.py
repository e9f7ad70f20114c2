"""One bot program as an operating-system process: spawn, line I/O, bounded stderr, kill.

The runner must never block on a bot, and must not spend a thread hand-off per message
(that alone costs more than a pipe round trip).  So:

* stdout is read by the table thread that owns the bot, with ``poll`` and a deadline,
  into a buffer that never holds more than one over-long line's limit;
* stdin is written non-blocking from the table thread; only when the pipe is full (a bot
  that stopped reading) does the rest go to a backlog drained by a writer thread, so a
  hung bot can never block the referee;
* stderr is drained continuously by a thread that keeps only the tail (a bot blocked on
  a full stderr pipe would look hung).

Each bot runs in its own session (process group) so that a kill also takes down any
children it started; a sandboxed bot (tournament.sandbox) runs in its own PID namespace as
well, which ends, with everything in it, when the bot's sandbox is killed.
"""

from __future__ import annotations

import atexit
import collections
import dataclasses
import fcntl
import os
import select
import signal
import subprocess
import termios
import threading
import time
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from tournament.config import SandboxSettings, check_command, command_folder

if TYPE_CHECKING:
    from tournament.cgroups import BotCgroup
    from tournament.sandbox import Held

# Every live process, so that Ctrl-C or interpreter exit kills them all.
_LIVE: set[BotProcess] = set()
_LIVE_LOCK = threading.Lock()

_READ_CHUNK = 65536
# While waiting for a line, how often to check that the bot process itself is still running.
_EXIT_CHECK_MS = 100
# How long a sandbox's stdout may stay open after its bot exited (its PID namespace ending).
_EXIT_GRACE_MS = 500


@dataclasses.dataclass(slots=True)
class OutputItem:
    """What the bot's stdout gave: a line, an over-long line, undecodable bytes, or EOF."""

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

    def peek(self) -> str:
        """What was collected so far, kept."""
        with self._lock:
            return b"".join(self._chunks).decode("utf-8", errors="replace")

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
    """A started bot program.  ``on_io(direction, text)`` sees every line both ways (a batch of
    lines sent in one write comes as one call, the lines joined by newlines).

    ``send`` and ``next_output`` must be called from one thread (the owning table's)."""

    def __init__(self, command: tuple[str, ...], cwd: str | None, env: dict[str, str], max_line_bytes: int,
                 stderr_bytes: int, on_io: Callable[[str, str], None] | None = None, cpu: int | None = None,
                 sandbox: SandboxSettings | None = None, bot_env: Sequence[tuple[str, str]] = (),
                 hidden: Sequence[str] = ()):
        """Start ``command``.  With a ``sandbox`` of kind "bwrap" it runs inside one, with the
        allowlisted environment plus ``bot_env`` (``env`` is then not used) and ``hidden`` paths
        out of its sight; otherwise it runs as it is, with ``env``."""
        self.command = command
        self.max_line_bytes = max_line_bytes
        self.on_io = on_io
        self.stderr = StderrTail(stderr_bytes)
        self.stdin_error: str | None = None  # set when a write failed (the bot closed stdin or died)
        self.sandbox = sandbox if sandbox is not None and sandbox.kind != "none" else None
        argv = list(command)
        cpus = {cpu} if cpu is not None else None
        if self.sandbox is not None and self.sandbox.cpus:
            cpus = set(self.sandbox.cpus)  # the bot's own CPUs ([sandbox] cpus) over its table's
        # Raises OSError (e.g. FileNotFoundError) if the program cannot be started, in words that
        # name the path tried and the folder looked in.
        check_command(command)
        # The bot's own cgroup, where the organiser gave the runner cgroups (tournament.cgroups).
        self.cgroup: BotCgroup | None = None
        if self.sandbox is None:  # in the bot's own folder, as in its sandbox
            self.proc = _popen_on(cpus, argv, cwd or command_folder(command), env)
        else:
            from tournament.sandbox import start_sandboxed

            self.proc, self.cgroup = start_sandboxed(
                command, cwd, bot_env, self.sandbox, hidden,
                lambda argv, env, fds, program: _popen_on(cpus, argv, None, env, fds, executable=program))
        self.pid = self.proc.pid
        self._limit_hit: str | None = None  # a sandbox limit the runner or the kernel stopped the bot for
        # In a cgroup the kernel counts the bot's memory; elsewhere the runner does.
        if self.sandbox is not None and self.sandbox.memory_mb > 0 and self.cgroup is None:
            from tournament.sandbox import MEMORY_WATCH

            MEMORY_WATCH.watch(self.pid, self.sandbox.memory_mb << 20, self._over_memory,
                               memfd_bound=self.sandbox.file_size_mb << 20)
        with _LIVE_LOCK:
            _LIVE.add(self)
        assert self.proc.stdout is not None and self.proc.stdin is not None  # both are pipes (_popen_on)
        self._out_fd = self.proc.stdout.fileno()
        self._in_fd = self.proc.stdin.fileno()
        os.set_blocking(self._in_fd, False)
        self._reader = select.poll()
        self._reader.register(self._out_fd, select.POLLIN | select.POLLHUP | select.POLLERR)
        self._buffer = bytearray()
        self._pushed: OutputItem | None = None  # an item handed back by push_back
        self._skipping = False  # inside an over-long line, discarding up to its newline
        self._eof = False
        self.exited_with_stdout_open = False  # EOF inferred from the process's exit
        self._backlog: collections.deque[bytes] = collections.deque()
        self._stdin_closing = False
        self._stdin_closed = False
        self._closed = threading.Event()
        # A plain lock under the condition: ``send`` takes it on every request, and a
        # Lock's ``with`` runs in C (a Condition's ``__enter__`` is Python code).
        self._wlock = threading.Lock()
        self._wcond = threading.Condition(self._wlock)
        self._stderr_lock = threading.Lock()
        self._threads = [threading.Thread(target=self._drain_stderr, name=f"bot-{self.pid}-stderr", daemon=True),
                         threading.Thread(target=self._drain_backlog, name=f"bot-{self.pid}-stdin", daemon=True)]
        for t in self._threads:
            t.start()

    # ---- stdin --------------------------------------------------------------------
    def send(self, *lines: str) -> float:
        """Write lines to the bot in one system call, never blocking; return the time just
        before the write.  (One write per batch: each write wakes the bot, which costs more
        than the write itself.  The time is taken before the write because the kernel may run
        the woken bot before the write returns: that time is the bot's, not the runner's.)"""
        text = lines[0] if len(lines) == 1 else "\n".join(lines)
        if self.on_io is not None:
            self.on_io(">", text)  # one call per batch: the lines joined by newlines
        data = (text + "\n").encode()
        with self._wlock:
            handed_over = time.perf_counter()
            if self.stdin_error or self._stdin_closing:
                return handed_over
            if not self._backlog:
                try:
                    written = os.write(self._in_fd, data)
                except BlockingIOError:
                    written = 0
                except OSError as exc:
                    self._stdin_failed(exc)
                    return handed_over
                data = data[written:]
            if data:
                self._backlog.append(data)
                self._wcond.notify()
        return handed_over

    def _stdin_failed(self, exc: OSError) -> None:
        self.stdin_error = f"writing to the bot's stdin failed: {exc.__class__.__name__}: {exc}"
        self._backlog.clear()

    def _drain_backlog(self) -> None:
        poller = select.poll()
        poller.register(self._in_fd, select.POLLOUT)
        while True:
            with self._wcond:
                while not self._backlog and not self._stdin_closing and not self._closed.is_set():
                    self._wcond.wait()
                if self._closed.is_set() or (not self._backlog and self._stdin_closing):
                    self._close_stdin()
                    return
                data = self._backlog[0]
            if not poller.poll(100):
                continue  # not writable yet; look again (and notice a close)
            with self._wcond:
                if self._closed.is_set() or not self._backlog or self._backlog[0] is not data:
                    continue
                try:
                    written = os.write(self._in_fd, data)
                except BlockingIOError:
                    continue
                except OSError as exc:
                    self._stdin_failed(exc)
                    continue
                if written == len(data):
                    self._backlog.popleft()
                else:
                    self._backlog[0] = data[written:]

    def _close_stdin(self) -> None:
        if not self._stdin_closed:
            self._stdin_closed = True
            assert self.proc.stdin is not None
            try:
                self.proc.stdin.close()
            except OSError:
                pass

    # ---- stdout -------------------------------------------------------------------
    def next_output(self, deadline: float) -> OutputItem | None:
        """The next stdout item, or None when ``deadline`` (perf_counter) passes first."""
        item: OutputItem | None
        if self._pushed is not None:
            item, self._pushed = self._pushed, None
            return item
        while True:
            if self._buffer or self._skipping or self._eof:
                item = self._take_line()
                if item is not None:
                    return item
            if self._eof:
                return OutputItem("eof", time.perf_counter(), "stdout closed")
            timeout_ms = (deadline - time.perf_counter()) * 1000
            try:
                # In slices: a bot that exited while a child of its own still holds its stdout
                # open sends no EOF, so the process itself is watched too.
                ready = self._reader.poll(max(0, int(min(timeout_ms, _EXIT_CHECK_MS) + 0.999)))
            except InterruptedError:
                ready = []
            if not ready:
                if self.proc.poll() is not None:
                    # The other processes of a sandbox die with it a moment after it exits, and
                    # only then close their copies of its stdout: give them that moment.
                    if self.sandbox is not None and self._reader.poll(_EXIT_GRACE_MS):
                        continue
                    self._eof = self.exited_with_stdout_open = True
                    continue
                if time.perf_counter() >= deadline:
                    return None
                continue
            try:
                data = os.read(self._out_fd, _READ_CHUNK)
            except BlockingIOError:
                continue
            except OSError:
                data = b""
            if data:
                self._buffer += data
            else:
                self._eof = True

    def push_back(self, item: OutputItem) -> None:
        """Make ``item`` the next one ``next_output`` returns (one item at most)."""
        assert self._pushed is None
        self._pushed = item

    def _take_line(self) -> OutputItem | None:
        limit = self.max_line_bytes
        buf = self._buffer
        while True:
            newline = buf.find(b"\n")
            if self._skipping:
                if newline < 0:
                    buf.clear()
                    return None
                del buf[:newline + 1]
                self._skipping = False
                continue
            if newline < 0:
                if len(buf) > limit:
                    # Reported as soon as the limit is passed, not when (if ever) the line ends.
                    buf.clear()
                    self._skipping = True
                    return OutputItem("overlong", time.perf_counter(),
                                      f"a line longer than max_line_bytes = {limit}")
                if not (self._eof and buf):
                    return None
                newline = len(buf)  # the last line of the output, without a newline
            raw = bytes(buf[:newline])
            del buf[:newline + 1]
            now = time.perf_counter()
            if len(raw) > limit:
                return OutputItem("overlong", now, f"a line of {len(raw)} bytes, over max_line_bytes = {limit}")
            if raw.endswith(b"\r"):  # CRLF is tolerated
                raw = raw[:-1]
            try:
                text = raw.decode("utf-8")
            except UnicodeDecodeError as exc:
                return OutputItem("undecodable", now, f"not UTF-8 ({exc.reason} at byte {exc.start}): {raw[:60]!r}")
            if self.on_io is not None:
                self.on_io("<", text)
            return OutputItem("line", now, text)

    # ---- stderr -------------------------------------------------------------------
    def _drain_stderr(self) -> None:
        assert self.proc.stderr is not None
        fd = self.proc.stderr.fileno()
        try:
            while True:
                # Wait without the lock; read under it, so stderr_settled never reads between
                # this thread's read and its add (which would reorder the tail).
                select.select([fd], [], [], 0.5)
                with self._stderr_lock:
                    if self.proc.stderr.closed:
                        return
                    pending = bytearray(4)
                    fcntl.ioctl(fd, termios.FIONREAD, pending)
                    if int.from_bytes(pending, "little"):
                        if not self._read_stderr_pending():
                            return
                    elif select.select([fd], [], [], 0)[0]:   # readable with nothing in it: EOF
                        return
        except (OSError, ValueError):
            return

    # ---- lifetime -----------------------------------------------------------------
    def alive(self) -> bool:
        return self.proc.poll() is None

    def stderr_settled(self) -> StderrTail:
        """The stderr tail with everything the pipe holds now added: a line the bot wrote just
        before a game's end must be in that game's record, even when the reader thread has not
        run since (a loaded machine).  Reads under the reader's lock, so the order is kept."""
        with self._stderr_lock:
            self._read_stderr_pending()
        return self.stderr

    def _read_stderr_pending(self) -> bool:
        """Add what the pipe holds without blocking (the caller holds ``_stderr_lock``); False at
        end of file or once the pipe is closed."""
        assert self.proc.stderr is not None
        try:
            fd = self.proc.stderr.fileno()
            while True:
                pending = bytearray(4)
                fcntl.ioctl(fd, termios.FIONREAD, pending)
                size = int.from_bytes(pending, "little")
                if not size:
                    return True
                data = os.read(fd, min(size, _READ_CHUNK))
                if not data:
                    return False
                self.stderr.add(data)
        except (OSError, ValueError):   # closed
            return False

    def wait_stderr(self, timeout: float) -> None:
        """Give the stderr reader up to ``timeout`` seconds to read what an exited process wrote."""
        if self.proc.poll() is not None:
            self._threads[0].join(timeout)

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
        """Close stdin once queued lines are written, give the process ``grace_s`` to exit, then
        kill its group."""
        with self._wcond:
            self._stdin_closing = True
            self._wcond.notify()
        try:
            self.proc.wait(timeout=max(grace_s, 0.0))
        except subprocess.TimeoutExpired:
            pass
        self.kill()

    @property
    def limit_hit(self) -> str | None:
        """The sandbox limit the runner or the kernel stopped the bot for, or None."""
        if self._limit_hit is None and self.cgroup is not None and self.sandbox is not None:
            kills = self.cgroup.oom_kills()
            if kills:
                self._limit_hit = (f"memory_mb = {self.sandbox.memory_mb} (the kernel's out-of-memory killer "
                                   f"ended it in its cgroup: memory.events oom_kill {kills})")
        return self._limit_hit

    def _over_memory(self, held: Held) -> None:
        assert self.sandbox is not None
        self._limit_hit = (f"memory_mb = {self.sandbox.memory_mb} (the runner counted {held.describe()}, "
                           f"and stopped it)")
        try:
            os.killpg(self.pid, signal.SIGKILL)  # the sandbox's bwrap: its PID namespace ends with it
        except (ProcessLookupError, PermissionError):
            pass

    def kill(self) -> None:
        """Kill the whole process group (the bot and anything it started); idempotent."""
        if self.sandbox is not None:
            from tournament.sandbox import MEMORY_WATCH

            MEMORY_WATCH.forget(self.pid)
        with self._wcond:
            self._closed.set()
            self._wcond.notify()
        try:
            os.killpg(self.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass
        try:
            self.proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            pass
        if self.cgroup is not None:
            _ = self.limit_hit  # read memory.events while the cgroup is there
            self.cgroup.remove()
            self.cgroup = None
        for t in self._threads:
            if t is not threading.current_thread():
                t.join(timeout=1)
        with self._wcond:
            self._close_stdin()
        assert self.proc.stdout is not None and self.proc.stderr is not None
        try:
            self.proc.stdout.close()
        except OSError:
            pass
        with self._stderr_lock:        # never while the reader is between its checks and its read
            try:
                self.proc.stderr.close()
            except OSError:
                pass
        with _LIVE_LOCK:
            _LIVE.discard(self)


def _popen_on(cpus: set[int] | None, argv: list[str], cwd: str | None, env: dict[str, str],
              pass_fds: tuple[int, ...] = (), executable: str | None = None) -> subprocess.Popen[bytes]:
    """Start a process in its own session, on ``cpus`` only when they are given: the calling
    thread's affinity is set around the fork, so the program and every thread and child it
    ever starts inherit it (setting it after the start would race with them)."""
    def popen() -> subprocess.Popen[bytes]:
        return subprocess.Popen(argv, executable=executable, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, cwd=cwd, env=env, start_new_session=True, pass_fds=pass_fds)
    if cpus is None or not hasattr(os, "sched_setaffinity"):
        return popen()
    before = os.sched_getaffinity(0)
    try:
        os.sched_setaffinity(0, cpus)
    except OSError:
        return popen()
    try:
        return popen()
    finally:
        os.sched_setaffinity(0, before)


def kill_all() -> None:
    """Kill every bot process still running (Ctrl-C, fatal error, interpreter exit)."""
    with _LIVE_LOCK:
        live = list(_LIVE)
    for p in live:
        p.kill()


def kill_all_now() -> None:
    """``kill_all`` for a signal handler: SIGKILL to every bot's process group and nothing else,
    no lock taken (the interrupted thread may hold it) and no wait.  ``set.copy`` runs in C,
    whole, so no other thread changes the set under it.  ``kill_all`` afterwards reaps them."""
    for p in _LIVE.copy():
        try:
            os.killpg(p.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass


atexit.register(kill_all)
