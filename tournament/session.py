"""The protocol conversation with one bot process: handshake, options, barriers, requests.

A session is the bot's player in a seat (the :class:`~tournament.seats.Player` protocol the
referee asks).  It turns everything that can go wrong with a bot into a :class:`BotFault` of one
fault class (``config.FAULT_CLASSES``), with a detail that says exactly what happened.
Deciding what a fault *costs* the bot is the match's job, not the session's.
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Callable, Iterable
from typing import Any

from tournament import wire
from tournament.config import BotConfig, TournamentConfig
from tournament.process import BotProcess, OutputItem
from tournament.sandbox import hidden_paths
from tournament.seats import Answer, Decision
from trickcore.game import GameState

_POLL_S = 0.05  # how often a waiting session notices a failed stdin write
_KEPT_UNKNOWN_LINES = 5  # unknown lines quoted per game record (all are counted)


class BotFault(Exception):
    """A bot misbehaved.  ``cls`` is one of config.FAULT_CLASSES."""

    def __init__(self, cls: str, detail: str):
        super().__init__(f"{cls}: {detail}")
        self.cls = cls
        self.detail = detail


@dataclasses.dataclass
class LineNotes:
    """Non-fatal oddities of one game, reported in the game record."""

    unknown: int = 0
    unknown_examples: list[str] = dataclasses.field(default_factory=list)
    stale_replies: int = 0
    info_lines: int = 0

    def to_dict(self) -> dict[str, Any]:
        return {"unknown_lines": self.unknown, "unknown_examples": list(self.unknown_examples),
                "stale_replies": self.stale_replies, "info_lines": self.info_lines}

    def any(self) -> bool:
        return bool(self.unknown or self.stale_replies)


class BotSession:
    """One running bot, speaking protocol version ``wire.PROTOCOL_VERSION``; the player of the
    seats it holds, one game after another."""

    timed = True  # the time control applies to every bot

    def __init__(self, bot: BotConfig, config: TournamentConfig, cpu: int | None = None):
        self.bot = bot
        self.cpu = cpu  # pin the process to this CPU (cpu_affinity = "table")
        self.sandbox = config.sandbox_for(bot)
        self.hidden = hidden_paths(config, bot)
        self.time = config.time
        self.limits = config.limits
        self.process: BotProcess | None = None
        self.name: str | None = None  # as the bot introduced itself
        self.author: str | None = None
        self.declared: dict[str, wire.OptionDecl] = {}
        self.wants_events = True  # False after "feature events off" in the handshake
        self.notes = LineNotes()
        self.games_played = 0
        self.deals_played: set[int] = set()  # the game seeds this process has been dealt
        self._next_request_id = 1
        self._next_token = 1
        self._lines_in_window = 0
        self._io_sink: Callable[[str, str], None] | None = None
        self.last_sent = 0.0  # perf_counter just before the last request was written
        self._started: tuple[str, float] | None = None  # the newgame barrier awaited by ready()

    # ---- lifecycle ----------------------------------------------------------------
    def set_io_sink(self, sink: Callable[[str, str], None] | None) -> None:
        """Where lines both ways are reported (the current game's transcript).  The process
        calls the sink itself: two calls per decision, so no forwarding layer."""
        self._io_sink = sink
        if self.process is not None:
            self.process.on_io = sink

    def alive(self) -> bool:
        return self.process is not None and self.process.alive() and not self.process.stdin_error

    def spawn(self) -> None:
        """Start the program (returns at once; the handshake is :meth:`handshake`)."""
        sandbox = self.sandbox
        try:
            self.process = BotProcess(self.bot.command, self.bot.cwd,
                                      self.bot.environment() if sandbox.kind == "none" else {},
                                      self.limits.max_line_bytes, self.limits.stderr_bytes, self._io_sink,
                                      cpu=self.cpu, sandbox=sandbox, bot_env=self.bot.env, hidden=self.hidden)
        except OSError as exc:
            about = f" ({exc.filename})" if exc.filename and exc.filename != self.bot.command[0] else ""
            raise BotFault("handshake", f"cannot start {self.bot.command[0]!r}: {exc.strerror or exc}{about}") from None
        self.process.send(wire.hello())

    def handshake(self) -> None:
        """Read the bot's introduction, set its options, pass the first readiness barrier."""
        assert self.process is not None
        deadline = time.perf_counter() + self.time.startup_ms / 1000
        version: str | None = None
        try:
            while version is None:
                line = self._next_line(deadline, waiting_for=lambda: f"'trickcoreok' within startup_ms = "
                                                                     f"{self.time.startup_ms:g} ms")
                if line.kind == "id":
                    if line.key == "name":
                        self.name = line.token
                    else:
                        self.author = line.token
                elif line.kind == "option":
                    assert line.option is not None
                    self.declared[line.option.name] = line.option
                elif line.kind == "feature":
                    if line.key == "events":
                        self.wants_events = line.token == "on"
                elif line.kind == "trickcoreok":
                    version = line.token
                elif line.kind in ("action", "readyok"):
                    raise BotFault("protocol", f"{line.kind!r} before the handshake ended: {line.text!r}")
        except BotFault as fault:
            detail = (fault.detail if fault.cls in ("timeout", "handshake")
                      else f"{fault.cls} during the handshake: {fault.detail}")
            raise BotFault("handshake", self._with_stderr(detail)) from None
        if not version.isdigit() or int(version) not in wire.SUPPORTED_VERSIONS:
            raise BotFault("handshake", f"bot answered 'trickcoreok {version}', but this runner speaks protocol "
                                        f"version{'s' if len(wire.SUPPORTED_VERSIONS) > 1 else ''} "
                                        f"{', '.join(map(str, wire.SUPPORTED_VERSIONS))}")
        for name, value in self.bot.options:
            problem = self.option_problem(name, value)
            if problem:
                raise BotFault("handshake", problem)
            self.process.send(wire.setoption(name, value))
        try:
            self.barrier()
        except BotFault as fault:
            raise BotFault("handshake", f"first readiness barrier: {fault.detail}") from None

    def _with_stderr(self, detail: str, lines: int = 8, chars: int = 1500) -> str:
        """``detail`` and the end of what the bot wrote to stderr (a bot that dies while starting
        says why there, as a traceback or a message of its runtime)."""
        if self.process is None:
            return detail
        self.process.wait_stderr(0.5)
        tail = self.process.stderr.peek().rstrip()
        if not tail:
            return detail
        kept = "\n".join(tail.splitlines()[-lines:])[-chars:]
        return f"{detail}; its stderr ended with:\n" + "\n".join(f"    {line}" for line in kept.splitlines())

    def option_problem(self, name: str, value: Any) -> str | None:
        """What is wrong with setting option ``name`` of this bot to ``value``, if anything."""
        key = f"{self.bot.key}.options.{name}"
        decl = self.declared.get(name)
        if decl is None:
            known = ", ".join(sorted(self.declared)) or "none"
            return f"{key}: bot {self.bot.name!r} declares no option {name!r} (it declares: {known})"
        problem = decl.check(value)
        return f"{key}: {problem}" if problem else None

    def close(self) -> None:
        """Say ``quit`` and give the bot shutdown_ms to exit; then kill its process group."""
        close_all([self])

    def kill(self) -> None:
        if self.process is not None:
            self.process.kill()

    def take_stderr(self) -> str:
        return self.process.stderr_settled().take() if self.process is not None else ""

    def take_notes(self) -> LineNotes:
        notes, self.notes = self.notes, LineNotes()
        return notes

    # ---- messages -----------------------------------------------------------------
    def send(self, *lines: str) -> float:
        assert self.process is not None
        return self.process.send(*lines)

    def barrier(self) -> None:
        """``isready`` -> ``readyok`` within ready_ms; stale replies on the way are skipped."""
        self.barrier_wait(self.barrier_send())

    def barrier_send(self, *preceding: str) -> tuple[str, float]:
        """Send ``isready`` (after the ``preceding`` lines, in the same write); the answer is
        awaited by :meth:`barrier_wait`, so that several bots can be made ready at once."""
        token = str(self._next_token)
        self._next_token += 1
        self._lines_in_window = 0
        sent = self.send(*preceding, wire.isready(int(token)))
        return token, sent + self.time.ready_ms / 1000

    def barrier_wait(self, pending: tuple[str, float]) -> None:
        token, deadline = pending
        while True:
            line = self._next_line(deadline, waiting_for=lambda: f"'readyok {token}' within ready_ms = "
                                                                 f"{self.time.ready_ms:g} ms")
            if line.kind == "readyok" and line.token == token:
                return
            if line.kind == "action":
                self._check_stale(line)

    # ---- the seat's player (tournament.seats.Player) -------------------------------
    def start(self, state: GameState, newgame: dict[str, Any]) -> None:
        """``newgame`` and a readiness barrier in one write; :meth:`ready` awaits the answer,
        so that the bots of a table get ready in parallel."""
        self._started = self.barrier_send(wire.newgame(newgame))

    def ready(self) -> None:
        assert self._started is not None  # start() sent the barrier
        pending, self._started = self._started, None
        self.barrier_wait(pending)

    def tell(self, *lines: str) -> None:
        self.send(*lines)

    def seen(self, state: GameState, mover: int) -> None:
        """A bot follows the game through its events, sent with its requests."""

    def fault_seen(self, fault: dict[str, Any]) -> None:
        """A bot is not told of faults."""

    def ask(self, decision: Decision) -> Answer:
        """Send the decision's request (after the seat's pending event lines, in the same write)
        and wait for its action; raise BotFault for anything else.  The decision's
        ``while_waiting`` runs once the request is on its way.  The time just before the write is
        kept in ``last_sent``."""
        request_id = self._next_request_id
        self._next_request_id += 1
        self._lines_in_window = 0
        legal, budget_s = decision.legal, decision.budget_s
        payload = {"seat": decision.seat, "decision": decision.kind, "legal": legal, "view": decision.view,
                   "time": {"decision_ms": round(budget_s * 1000, 3), "game_left_ms": decision.game_left_ms}}
        sent = self.last_sent = self.send(*decision.events, wire.request(request_id, payload))
        deadline = sent + budget_s
        if decision.while_waiting is not None:
            decision.while_waiting()
        process = self.process
        assert process is not None
        expected = f"action {request_id} "
        while True:
            # Fast path for the expected reply, a plain "action <id> <option>" line already
            # read or arriving now; everything else goes through the general reader.
            item = process.next_output(min(deadline, time.perf_counter() + _POLL_S))
            if (item is not None and item.kind == "line" and item.text.startswith(expected)
                    and self._lines_in_window < self.limits.max_lines_per_request):
                text = item.text
                action = text[len(expected):].strip()
                if action and not wire.is_garbage(text):
                    self._lines_in_window += 1
                    return self._reply(action, legal, text, sent, item.time)
            if item is not None:
                process.push_back(item)
            line, received = self._next_line_timed(
                deadline, waiting_for=lambda: f"'action {request_id} ...' within {budget_s * 1000:.0f} ms")
            if line.kind != "action":
                continue
            if line.request_id != request_id:
                self._check_stale(line)
                continue
            assert line.action is not None  # every parsed action line has one
            return self._reply(line.action, legal, line.text, sent, received)

    @staticmethod
    def _reply(action: str, legal: list[str], text: str, sent: float, received: float) -> Answer:
        choice = wire.resolve_action(action, legal)
        if choice is None:
            raise BotFault("illegal", f"reply {text!r}: index out of range, there are {len(legal)} "
                                      f"options (#0..#{len(legal) - 1})")
        return Answer(choice, "bot", (received - sent) * 1000, received, sent)

    def _check_stale(self, line: wire.BotLine) -> None:
        if line.request_id is not None and line.request_id < self._next_request_id:
            self.notes.stale_replies += 1  # a late answer to an earlier request: ignored
            return
        raise BotFault("protocol", f"{line.text!r} answers request {line.request_id}, which was never sent")

    # ---- reading ------------------------------------------------------------------
    def _next_line(self, deadline: float, waiting_for: Callable[[], str]) -> wire.BotLine:
        return self._next_line_timed(deadline, waiting_for)[0]

    def _next_line_timed(self, deadline: float, waiting_for: Callable[[], str]) -> tuple[wire.BotLine, float]:
        """The next meaningful bot line; every fault class but 'illegal' is raised from here.
        ``waiting_for()`` describes what is awaited, for fault details (formatted only then)."""
        while True:
            item = self._next_item(deadline)
            if item is None:
                raise BotFault("timeout", f"no {waiting_for()}")
            if item.kind == "eof":
                raise self._crash_fault(self._crash_detail())
            if item.kind == "overlong":
                raise BotFault("flood", item.text)
            if item.kind == "undecodable":
                raise BotFault("garbage", item.text)
            self._lines_in_window += 1
            if self._lines_in_window > self.limits.max_lines_per_request:
                raise BotFault("flood", f"more than max_lines_per_request = {self.limits.max_lines_per_request} "
                                        f"lines while waiting for {waiting_for().split(' within ')[0]}")
            if wire.is_garbage(item.text):
                raise BotFault("garbage", f"control characters in line {item.text[:60]!r}")
            try:
                line = wire.parse_bot_line(item.text)
            except wire.WireError as exc:
                raise BotFault("protocol", f"{exc} (line {item.text[:80]!r})") from None
            if line.kind == "empty":
                continue
            if line.kind == "info":
                self.notes.info_lines += 1
                continue
            if line.kind == "unknown":
                self.notes.unknown += 1
                if len(self.notes.unknown_examples) < _KEPT_UNKNOWN_LINES:
                    self.notes.unknown_examples.append(item.text[:200])
                continue
            return line, item.time

    def _next_item(self, deadline: float) -> OutputItem | None:
        assert self.process is not None
        while True:
            now = time.perf_counter()
            item = self.process.next_output(min(deadline, now + _POLL_S))
            if item is not None:
                return item
            if self.process.stdin_error:
                raise self._crash_fault(f"{self.process.stdin_error} (the bot closed its stdin or exited; "
                                        f"process {self.process.exit_description()})")
            if time.perf_counter() >= deadline:
                return None

    def _crash_fault(self, detail: str) -> BotFault:
        """A crash, or a ``limit`` fault when the bot's end shows that a sandbox limit refused it."""
        if self.process is not None and self.process.limit_hit is not None:
            return BotFault("limit", f"sandbox limit {self.process.limit_hit} ({detail})")
        if self.process is not None and self.process.sandbox is not None:
            from tournament.sandbox import exit_cause

            code = self.process.proc.poll()
            # bwrap reports a bot killed by a signal as its own exit status 128 + the signal.
            signum = -code if code is not None and code < 0 else (code - 128 if code and code > 128 else None)
            hit = exit_cause(self.process.sandbox, signum)
            if hit is not None:
                return BotFault("limit", f"sandbox limit {hit} ({detail})")
        return BotFault("crash", detail)

    def _crash_detail(self) -> str:
        assert self.process is not None
        proc = self.process.proc
        try:
            proc.wait(timeout=0.5)
        except Exception:  # still running with stdout closed: describe it as it is
            pass
        if self.process.exited_with_stdout_open:
            return f"process {self.process.exit_description()}; its stdout is still held open by another process"
        return f"stdout closed; process {self.process.exit_description()}"


def close_all(sessions: Iterable[BotSession]) -> None:
    """Close several bots at once: ``quit`` to every one first, then wait for each (shutdown_ms,
    then its process group killed), so that their exits, and their sandboxes' teardown, overlap
    rather than follow one another (a table lets its bots go between games)."""
    started = [session for session in sessions if session.process is not None]
    for session in started:
        assert session.process is not None
        if session.alive():
            session.process.send(wire.quit_())
    for session in started:
        assert session.process is not None
        session.process.close(session.time.shutdown_ms / 1000)
