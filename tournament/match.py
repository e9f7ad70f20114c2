"""Playing one game at one table: the referee loop and the fault policies.

A :class:`Table` owns the bot processes it seats (reused from game to game unless a bot
asks for ``restart = "game"`` or died) and plays one :class:`~tournament.schedule.Job`
at a time.  Each seat's decisions go to its player (tournament/seats.py): a bot's session,
or a person's page where the table's owner seats one (``trickcore play``); the referee parses
and applies every answer.  The referee uses only the common GameState interface, so it works
for every registered game: ``current_player``, ``decision``, ``legal_action_strings``,
``apply_action``, ``observation``, ``events_for``, ``is_terminal``, ``scores``, ``ranks``,
``to_record``.
"""

from __future__ import annotations

import collections
import dataclasses
import datetime
import random
import socket
import threading
import time
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from tournament import wire
from tournament.config import TournamentConfig
from tournament.schedule import Job
from tournament.seats import Decision, Player
from tournament.session import BotFault, BotSession, close_all
from trickcore.game import GameState, IllegalActionError, competition_ranks
from trickcore.games import new_game

RECORD_FORMAT = "trickcore-game/1"


class GameAborted(Exception):
    """The tournament is stopping (Ctrl-C); the game in progress is not recorded."""


class Transcript:
    """Every line both ways with its time since the game began, plus the runner's notes.

    Recording is one tuple per write or read (a batch of lines sent at once is one entry);
    the text is only formatted when the transcript is written.  At most ``limit`` bytes of
    traffic are kept per seat (the beginning of the game); beyond that the entries are only
    counted, so a bot that floods costs neither memory nor disk, and the transcript ends with
    a note of what was dropped.  The runner's own notes are always kept."""

    def __init__(self, limit: int = 4 << 20) -> None:
        self.t0 = time.perf_counter()
        self.limit = limit
        self.lines: list[tuple[float, int, str, str]] = []
        self.kept: collections.Counter[int] = collections.Counter()  # bytes kept per seat
        self.dropped: dict[int, list[int]] = {}  # seat -> [entries, bytes] not kept

    def sink(self, seat: int) -> Callable[[str, str], None]:
        lines, t0, clock, kept, limit = self.lines, self.t0, time.perf_counter, self.kept, self.limit

        def add(direction: str, text: str) -> None:
            size = len(text)
            if kept[seat] + size <= limit:
                kept[seat] += size
                lines.append((clock() - t0, seat, direction, text))
            else:
                dropped = self.dropped.setdefault(seat, [0, 0])
                dropped[0] += 1
                dropped[1] += size
        return add

    def note(self, seat: int, text: str) -> None:
        self.lines.append((time.perf_counter() - self.t0, seat, "!", text))

    def text(self) -> str:
        # ">" runner to bot, "<" bot to runner, "!" runner note, one line each.
        out: list[str] = []
        end = time.perf_counter() - self.t0
        notes = [(end, seat, "!", f"transcript limit transcript_bytes = {self.limit}: {n} more entries "
                                  f"({size} characters) of this seat not kept")
                 for seat, (n, size) in sorted(self.dropped.items())]
        for t, seat, d, text in sorted(self.lines + notes, key=lambda entry: entry[0]):
            prefix = f"{t:11.6f} seat{seat} {d} "
            out.extend(prefix + line + "\n" for line in text.split("\n"))
        return "".join(out)


class EventFeed:
    """The game's events as ``event`` lines, each encoded once, handed out to every seat that
    may see it, in order.

    The events come from ``GameState.events_since(start)`` (each event with the seats that
    may see it; docs/game-interface.md).  ``sync()`` must be called after every action.
    ``wanted[seat]`` is False for a bot that declared ``feature events off``: it gets no
    event lines, and when no seat wants events none are encoded at all."""

    def __init__(self, state: GameState, players: int, wanted: list[bool] | None = None):
        self.state = state
        self.wanted = list(wanted) if wanted is not None else [True] * players
        self.active = any(self.wanted)
        self.cursor = [0] * players
        self.lines: list[tuple[frozenset[int] | None, str]] = []  # (visible_to or None, line), one per event
        self._next = 0  # index of the game's next event not yet encoded
        self.sync()

    def sync(self) -> None:
        """Encode the events the last action added."""
        if not self.active:
            return
        new, self._next = self.state.events_since(self._next)
        if new:
            encode = wire.event
            self.lines.extend([(visible, encode(data)) for visible, data in new])

    def pending(self, seat: int) -> list[str]:
        """The seat's events since the last call for it."""
        if not self.wanted[seat]:
            return []
        start = self.cursor[seat]
        lines = self.lines
        self.cursor[seat] = len(lines)
        return [line for visible, line in lines[start:] if visible is None or seat in visible]


@dataclasses.dataclass
class SeatState:
    bot: str  # the name the seat's player has in the game (a bot of the config, or a person's)
    player: Player | None = None  # who is asked the seat's decisions (None: a bot that could not start)
    session: BotSession | None = None  # the bot's process, for a bot's seat (then also its player)
    reachable: bool = False  # may be asked (started, handshake done, not crashed or stalled)
    forfeited: str | None = None  # why, once the seat has forfeited
    # (fault class, why) once the bot cannot be asked for the rest of the game: each of its
    # later decisions counts as a fault of that class, so its policy (and forfeit_after) applies
    removed: tuple[str, str] | None = None
    faults: collections.Counter[str] = dataclasses.field(default_factory=collections.Counter)
    think_s: float = 0.0


@dataclasses.dataclass
class GameResult:
    record: dict[str, Any]  # one line of results.jsonl
    failed: bool  # any fault, so per-failure records (stderr) are kept
    # With a table that collects its files (a remote table): path in the output folder -> text,
    # for the runner to write; empty when the table wrote them itself.
    files: dict[str, str] = dataclasses.field(default_factory=dict)


class Table:
    """One table of a tournament with the bot sessions it owns."""

    def __init__(self, config: TournamentConfig, out_dir: Path | None, stop: threading.Event | None = None,
                 cpu: int | None = None, node: str = "local", collect_files: bool = False,
                 people: Mapping[str, Player] | None = None):
        self.config = config
        self.out_dir = out_dir
        self.stop = stop or threading.Event()
        self.cpu = cpu  # with cpu_affinity = "table": the CPU of this table and its bots
        self.sessions: dict[str, BotSession] = {}
        # Where the games are played, named in every record: this machine and the node of the
        # executor ("local", or a Ray node id).
        self.host = socket.gethostname()
        self.node = node
        # A remote table hands its transcripts and stderr files to the runner with each game
        # (GameResult.files) instead of writing them: the runner is the one writer of the outputs.
        self.collect_files = collect_files
        self._files: dict[str, str] = {}
        #: Seats held by a person, not a bot (``trickcore play``, tournament/play.py): the seat's
        #: name in a job -> its player.  No process is started for them.
        self.people: Mapping[str, Player] = dict(people or {})

    def write_file(self, path: Path, text: str) -> None:
        """A per-game file of the output folder (transcript, stderr), or kept for the runner."""
        if self.collect_files:
            self._files[path.as_posix()] = text
        elif self.out_dir is not None:
            (self.out_dir / path).parent.mkdir(parents=True, exist_ok=True)
            (self.out_dir / path).write_text(text, encoding="utf-8")

    def take_files(self) -> dict[str, str]:
        files, self._files = self._files, {}
        return files

    def close(self) -> None:
        close_all(self.sessions.values())
        self.sessions.clear()

    # ---- sessions -----------------------------------------------------------------
    def _prepare_sessions(self, game: GameRun) -> None:
        """Seat a session for every bot of the game: reuse the table's processes where allowed,
        start the others (in parallel) and read their handshakes."""
        wanted = set(game.job.bots)
        leaving = []
        for name in list(self.sessions):
            session = self.sessions[name]
            # Keep a process only if this game seats it and it may be reused; a table thereby
            # never holds more processes than seats.  Nor if it has played this deal already
            # (duplicate seatings, another lineup): it could remember every hand of it.
            if (name not in wanted or not session.alive() or self.config.bot(name).restart == "game"
                    or game.job.seed in session.deals_played):
                leaving.append(self.sessions.pop(name))
        close_all(leaving)
        fresh: list[int] = []
        for seat, st in enumerate(game.seats):
            if st.player is not None:  # a person's seat (GameRun seats them): no process
                st.reachable = True
                continue
            st.session = self.sessions.get(st.bot)
            if st.session is None:
                st.session = BotSession(self.config.bot(st.bot), self.config, cpu=self.cpu)
                st.session.set_io_sink(game.transcript.sink(seat))
                try:
                    st.session.spawn()
                    fresh.append(seat)
                except BotFault as f:
                    game.fault(seat, f.cls, f.detail)
                    st.session = None
                    st.removed = (f.cls, f.detail)
                    continue
            st.session.set_io_sink(game.transcript.sink(seat))
            st.session.deals_played.add(game.job.seed)
            st.player = st.session
            st.reachable = True
        # Spawned together so that slow starters start in parallel; handshakes read one by one.
        for seat in fresh:
            st = game.seats[seat]
            assert st.session is not None  # a fresh seat's session started
            try:
                st.session.handshake()
                self.sessions[st.bot] = st.session
            except BotFault as f:
                st.reachable = False
                st.removed = (f.cls, f.detail)
                game.fault(seat, f.cls, f.detail)
                st.session.kill()

    def play(self, job: Job) -> GameResult:
        """Play one scheduled game to its end and return its record."""
        return GameRun(self, job).play()


class GameRun:
    """One game at a table: the referee loop, the fault policies and the game's record.

    Holds everything that lives for one game (the state, the seats, the transcript, the
    faults and actions so far), so each step is a method of its own."""

    def __init__(self, table: Table, job: Job) -> None:
        self.table = table
        self.config = table.config
        self.job = job
        self.started_at = datetime.datetime.now(datetime.timezone.utc)
        self.cpu_start = time.thread_time()
        self.transcript = Transcript(self.config.limits.transcript_bytes)
        self.seats = [SeatState(bot, table.people.get(bot)) for bot in job.bots]
        self.fault_log: list[dict[str, Any]] = []
        self.actions: list[dict[str, Any]] = []
        self.state: GameState | None = None
        self.feed: EventFeed | None = None
        self.setup_s = 0.0
        self.asked = -1  # the seat whose request is out
        self.mark = 0.0  # when the runner last got a reply; the runner's overhead is measured from here

    # ---- faults ---------------------------------------------------------------------
    def fault(self, seat: int, cls: str, detail: str) -> None:
        """Count a fault of ``seat`` and apply its class's policy (substitute or forfeit)."""
        st = self.seats[seat]
        policy = self.config.failures[cls]
        st.faults[cls] += 1
        forfeit = policy.action == "forfeit" or (policy.forfeit_after and st.faults[cls] >= policy.forfeit_after)
        outcome = "forfeit" if forfeit else "substitute"
        if forfeit and st.forfeited is None:
            st.forfeited = f"{cls}: {detail}"
        entry = {"seat": seat, "bot": st.bot, "class": cls, "detail": detail, "outcome": outcome,
                 "action_index": len(self.actions) if self.state is not None else None}
        self.fault_log.append(entry)
        self.transcript.note(seat, f"fault {cls} ({outcome}): {detail}")
        for other in self.seats:
            if other.player is not None:
                other.player.fault_seen(entry)

    def unreachable(self, seat: int, cls: str, why: str) -> None:
        """The bot can no longer be asked in this game; the table restarts it for the next.
        Its later decisions in this game count as faults of ``cls`` (the fault that removed it)."""
        st = self.seats[seat]
        st.reachable = False
        st.removed = (cls, why)
        self.transcript.note(seat, f"bot unreachable for the rest of the game: {why}")
        if st.session is not None:
            st.session.kill()
            self.table.sessions.pop(st.bot, None)

    # ---- the game -------------------------------------------------------------------
    def play(self) -> GameResult:
        self.table._prepare_sessions(self)
        self.setup_s = time.perf_counter() - self.transcript.t0  # starting and handshaking bots, if any
        cfg = self.config
        self.state = new_game(cfg.game, cfg.players, cfg.game_options, self.job.seed)
        self._start_game()
        self.feed = EventFeed(self.state, cfg.players,
                              [st.player is None or st.player.wants_events for st in self.seats])
        self._referee()
        return self._end_game()

    def _start_game(self) -> None:
        """Every player is started (a bot: ``newgame`` and its barrier in one write), then
        awaited: the bots get ready in parallel."""
        cfg, state, job = self.config, self.state, self.job
        assert state is not None
        teams = cfg.game_info.teams(cfg.players) if cfg.game_info.teams is not None else None
        # Milliseconds as JSON numbers with a fraction, like time.decision_ms in every request.
        settings = {"decision_ms": float(cfg.time.decision_ms), "game_ms": float(cfg.time.game_ms),
                    "forced": "auto" if cfg.auto_play_forced else "ask", "protocol": wire.PROTOCOL_VERSION}
        started: list[tuple[int, Player]] = []
        for seat, st in enumerate(self.seats):
            if st.reachable:
                assert st.player is not None  # a reachable seat has a player
                st.player.start(state, {
                    "game": cfg.game, "options": state.options, "players": cfg.players, "seat": seat,
                    "names": list(job.bots), "teams": [list(t) for t in teams] if teams else None,
                    "settings": settings})
                started.append((seat, st.player))
        for seat, player in started:
            try:
                player.ready()
            except BotFault as f:
                self.fault(seat, f.cls, f"readiness barrier after newgame: {f.detail}")
                self.unreachable(seat, f.cls, f.detail)

    def _deliver(self, seat: int, *extra: str) -> None:
        """A seat's new events (and any extra lines) in one write; an unreachable seat's events
        are dropped."""
        assert self.feed is not None
        lines = self.feed.pending(seat)
        if (lines or extra) and self.seats[seat].reachable:
            player = self.seats[seat].player
            assert player is not None  # a reachable seat has a player
            player.tell(*lines, *extra)

    def _deliver_to_the_others(self) -> None:
        # Immediate delivery: once a request is on its way, every other seat gets what it has
        # not seen yet, so bots can follow the game while the asked bot thinks (and the asked
        # bot is woken first).  On-request delivery leaves the events to each seat's next
        # request or gameover: fewer writes, fewer wake-ups, the same lines.
        for other in range(self.config.players):
            if other != self.asked:
                self._deliver(other)

    def _referee(self) -> None:
        """Every decision to the end of the game: ask the seat's player, or play for it."""
        cfg, state, seats, actions, feed, job = self.config, self.state, self.seats, self.actions, self.feed, self.job
        assert state is not None and feed is not None
        while_waiting = self._deliver_to_the_others if cfg.event_delivery == "immediate" else None
        players = [st.player for st in seats if st.player is not None]
        self.mark = time.perf_counter()
        stopping = self.table.stop.is_set
        events_on = feed.active  # False when every bot said "feature events off"
        no_events: list[str] = []
        while not state.is_terminal():
            if stopping():
                raise GameAborted()
            seat = self.asked = state.current_player()
            st = seats[seat]
            legal = state.legal_action_strings()
            entry: dict[str, Any] = {"seat": seat, "decision": state.decision()}
            chosen: str | None = None
            applied = False
            if cfg.auto_play_forced and len(legal) == 1:
                chosen, entry["by"] = legal[0], "forced"
            elif st.reachable and st.forfeited is None:
                # The seat's pending events travel with its request, in the same write.
                chosen = self._ask(seat, legal, entry, feed.pending(seat) if events_on else no_events, while_waiting)
                applied = chosen is not None
            elif st.removed is not None and st.forfeited is None:
                # A bot that hangs must not do better than one that crashes: every decision it
                # cannot be asked is a fault of the class that removed it, under that policy.
                cls, why = st.removed
                self.fault(seat, cls, f"removed for the rest of the game: {why}")
            if chosen is None:
                # Reproducible substitute: the same game and position always get the same move.
                chosen = random.Random(f"{job.seed}:{job.job_id}:{len(actions)}").choice(legal)
                entry.setdefault("by", "substitute")
            if not applied:
                state.apply_action(chosen)
            entry["action"] = chosen
            actions.append(entry)
            if events_on:
                feed.sync()
            for player in players:
                player.seen(state, seat)

    def _ask(self, seat: int, legal: list[str], entry: dict[str, Any], events: list[str],
             while_waiting: Callable[[], None] | None) -> str | None:
        """Ask the seat's player and apply its answer; return the choice, or None after a fault
        (the state is then unchanged and the caller substitutes)."""
        st = self.seats[seat]
        player = st.player
        assert player is not None and self.state is not None  # the seat is reachable, the game on
        budget_s, game_left_ms = self._budget(st)
        if player.timed and budget_s <= 0:
            if events:
                player.tell(*events)
            self.fault(seat, "timeout", f"game budget game_ms = {self.config.time.game_ms:g} ms used up")
            return None
        decision = Decision(seat, entry["decision"], legal, self.state.observation(seat), budget_s, game_left_ms,
                            events, while_waiting)
        try:
            answer = player.ask(decision)
        except BotFault as f:
            assert st.session is not None  # only a bot's session faults
            entry["runner_us"] = round((st.session.last_sent - self.mark) * 1e6, 1)
            self._bot_fault(seat, f, budget_s, entry)
            return None
        if answer.sent is not None:
            # From the previous answer to this request's write: applying, events, view, JSON.
            entry["runner_us"] = round((answer.sent - self.mark) * 1e6, 1)
        self.mark = answer.received
        if player.timed:
            st.think_s += answer.think_ms / 1000
        entry["ms"] = round(answer.think_ms, 3)
        entry["by"] = answer.by
        return self._apply_answer(seat, answer.action, legal, entry)

    def _budget(self, st: SeatState) -> tuple[float, float | None]:
        """Seconds the bot has for this decision, and what is left of its game budget (ms)."""
        time_control = self.config.time
        budget_s = time_control.decision_ms / 1000
        if not time_control.game_ms:
            return budget_s, None
        left_s = time_control.game_ms / 1000 - st.think_s
        return min(budget_s, left_s), round(max(left_s, 0.0) * 1000, 3)

    def _bot_fault(self, seat: int, f: BotFault, budget_s: float, entry: dict[str, Any]) -> None:
        st = self.seats[seat]
        if f.cls == "timeout":
            st.think_s += budget_s
            entry["ms"] = round(budget_s * 1000, 3)
        self.fault(seat, f.cls, f.detail)
        if f.cls in ("crash", "limit"):
            self.unreachable(seat, f.cls, f.detail)
        elif f.cls == "timeout":
            # A bot that is merely slow answers the barrier after its late reply; one that
            # hangs does not, and is killed instead of costing a timeout per decision.
            assert st.session is not None  # a timeout came from the seat's session
            try:
                st.session.barrier()
            except BotFault as g:
                self.unreachable(seat, "timeout", f"stalled after a timeout ({g.detail})")

    def _apply_answer(self, seat: int, text: str, legal: list[str], entry: dict[str, Any]) -> str | None:
        """Parse an answer and apply it; None (and an ``illegal`` fault) if it is not an option."""
        state = self.state
        assert state is not None
        try:
            # Parsed first, so that the canonical text of the option is known without
            # rebuilding the history ("kh" may be accepted for "KH").
            action = state.string_to_action(text)
            state.apply_action(action)
        except IllegalActionError as exc:
            self.fault(seat, "illegal", str(exc))
            entry["by"] = "substitute"
            entry["rejected"] = text
            return None
        return text if text in legal else state.action_to_string(action)

    # ---- the end --------------------------------------------------------------------
    def _end_game(self) -> GameResult:
        state, seats = self.state, self.seats
        assert state is not None
        scores = [float(s) for s in state.scores()]
        ranks = list(state.ranks())
        forfeited = [seat for seat, st in enumerate(seats) if st.forfeited is not None]
        for seat, st in enumerate(seats):
            self._deliver(seat, wire.gameover({"scores": scores, "ranks": ranks, "forfeited": forfeited,
                                               "seat": seat}))
            if st.reachable and st.session is not None:
                st.session.games_played += 1
        record = self._record(scores, ranks, forfeited)
        # The table thread's CPU time for this game, the record itself included.
        record["cpu_s"] = round(time.thread_time() - self.cpu_start, 6)
        return GameResult(record, bool(self.fault_log), self.table.take_files())

    def _record(self, scores: list[float], ranks: list[int], forfeited: list[int]) -> dict[str, Any]:
        """The game's line of results.jsonl (docs/tournament.md, "Records")."""
        cfg, state, seats, actions = self.config, self.state, self.seats, self.actions
        assert state is not None
        result_scores, result_ranks = standing_results(scores, ranks, forfeited)
        notes, bot_info, stderr_files = self._bot_reports()
        overheads = [a["runner_us"] for a in actions if "runner_us" in a]
        return {
            "format": RECORD_FORMAT, "status": "played", **self.job.to_dict(),
            "game": cfg.game, "players": cfg.players, "options": dict(state.options),
            "scores": scores, "ranks": ranks, "forfeited": forfeited,
            "result": {"scores": result_scores, "ranks": result_ranks},
            "faults": self.fault_log,
            "fault_counts": [dict(st.faults) for st in seats],
            "removed": {str(seat): {"class": st.removed[0], "detail": st.removed[1]}
                        for seat, st in enumerate(seats) if st.removed is not None},
            "actions": actions,
            "notes": notes, "bot_info": bot_info,
            "think_ms": [round(st.think_s * 1000, 3) for st in seats],
            "runner_us": {"mean": round(sum(overheads) / len(overheads), 1) if overheads else None,
                          "max": max(overheads) if overheads else None, "decisions": len(overheads)},
            "started_at": self.started_at.isoformat(timespec="milliseconds"),
            "host": self.table.host, "node": self.table.node,
            "duration_s": round(time.perf_counter() - self.transcript.t0, 6), "setup_s": round(self.setup_s, 6),
            "transcript": self._transcript_file(), "stderr": stderr_files,
            "record": state.to_record(),
        }

    def _bot_reports(self) -> tuple[dict[str, dict[str, Any]], dict[str, dict[str, str | None]], dict[str, str]]:
        """Per seat: the session's notes (unknown lines, stale replies, info), the bot's name and
        author, and the stderr file kept for it (by the [records] policy)."""
        cfg, out_dir = self.config, self.table.out_dir
        notes: dict[str, dict[str, Any]]
        bot_info: dict[str, dict[str, str | None]]
        stderr_files: dict[str, str]
        notes, bot_info, stderr_files = {}, {}, {}
        for seat, st in enumerate(self.seats):
            if st.session is None:
                continue
            n = st.session.take_notes()
            if n.any() or n.info_lines:
                notes[str(seat)] = n.to_dict()
            bot_info[str(seat)] = {"name": st.session.name, "author": st.session.author}
            err = st.session.take_stderr()
            keep = cfg.records.stderr == "all" or (cfg.records.stderr == "failed" and st.faults)
            if err and keep and (out_dir is not None or self.table.collect_files):
                path = Path("stderr") / f"{self.job.job_id}-seat{seat}-{st.bot}.log"
                self.table.write_file(path, err)
                stderr_files[str(seat)] = str(path)
        return notes, bot_info, stderr_files

    def _transcript_file(self) -> str | None:
        """Write the game's transcript if the [records] policy keeps it; its path in the output."""
        keep, out_dir = self.config.records.transcripts, self.table.out_dir
        if (out_dir is None and not self.table.collect_files) or not (keep == "all" or
                                                                       (keep == "failed" and self.fault_log)):
            return None
        path = Path("transcripts") / f"{self.job.job_id}.txt"
        self.table.write_file(path, self.transcript.text())
        return str(path)


def standing_results(scores: list[float], ranks: list[int], forfeited: list[int]) -> tuple[list[float], list[int]]:
    """Scores and ranks for the standings: a forfeited seat counts the game's lowest score and
    ranks below every seat that did not forfeit; the others keep their order among themselves."""
    if not forfeited:
        return list(scores), list(ranks)
    low = min(scores)
    result_scores = [low if s in forfeited else scores[s] for s in range(len(scores))]
    playing = [s for s in range(len(scores)) if s not in forfeited]
    inner = competition_ranks([scores[s] for s in playing])
    result_ranks = [0] * len(scores)
    for s, r in zip(playing, inner):
        result_ranks[s] = r
    for s in forfeited:
        result_ranks[s] = len(playing) + 1
    return result_scores, result_ranks


# Fields of a game record that depend on timing, not on the games' course; drop them to
# compare two runs (see results.comparable).
# Where a game ran (host, node, and a remote table's worker) is left out the same way.
TIMING_FIELDS = ("started_at", "duration_s", "setup_s", "cpu_s", "think_ms", "runner_us", "transcript", "stderr",
                 "notes", "host", "node", "table_worker")
TIMING_ACTION_FIELDS = ("ms", "runner_us")
