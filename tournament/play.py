"""A person at the table: ``trickcore play`` (docs/play.md).

A web server (aiohttp, on 127.0.0.1 unless ``--host`` says otherwise) serves one page, and
the person plays one seat of a game from it against bots.  The bots are run exactly as in a tournament: the referee loop
of tournament/match.py (:class:`~tournament.match.GameRun`) plays the game, with the same
protocol, time control, sandbox and failure policies; the person's seat is one of the table's
``people``, whose player (:class:`PersonSeat`, tournament/seats.py) asks the page instead of a
process.

What the page is sent is the person's seat's view and nothing more: ``observation(seat)`` after
every action, the events ``events_for(seat)`` gives that seat, and at the person's decisions
the legal options.  A bot's fault is shown by its class and what the runner did, never by its
detail (which may quote the bot's cards).

Threads: the server runs in the main thread's event loop; the games run in one game thread
(the referee loop blocks on bot pipes).  The game thread publishes messages to the loop
(``call_soon_threadsafe``); the page's choices reach the game thread through a future it waits
on (``concurrent.futures.Future``), which the loop resolves, or fails once the session stops.

Who may connect: the server listens on the loopback address by default and then refuses any
request whose peer is not a loopback address; with ``--host`` it listens on another address,
for people on other machines, and serves any peer.  It refuses a request whose Host header is
not an address or one of the machine's names (a web page elsewhere cannot reach it by DNS
rebinding), and needs a person's secret token (in the URL the command prints) on every request,
so a local bot run without a sandbox cannot play or watch a person's seat.  One page controls
a seat at a time: a second one is told the seat is taken and may act only once the first has
gone.
"""

from __future__ import annotations

import asyncio
import collections
import concurrent.futures
import dataclasses
import ipaddress
import json
import secrets
import socket
import threading
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from aiohttp import WSMsgType, web

from tournament.config import TournamentConfig
from tournament.files import write_whole
from tournament.match import GameAborted, Table
from tournament.replay_html import faces_data
from tournament.replay_walk import SeatWatch
from tournament.schedule import Job, deal_seed, master_key
from tournament.seats import Answer, Decision
from trickcore.game import GameInfo, GameState
from trickcore.games import get_game, table_of

#: The name of the person's seat in the game records (``bots`` of a record).
PERSON = "you"

#: Seconds a game waits for a page after the controlling page has gone (a reload comes back
#: in time); then the game ends, and with it every bot process.
DEFAULT_LINGER_S = 10.0


@dataclasses.dataclass
class Choice:
    """What the page sent: an action text, ``continue`` (after a deal, or a new game after the
    last) or ``quit``."""

    kind: str
    action: str = ""


class PersonSeat:
    """The person's player (tournament/seats.py): each decision is put to the page and answered
    there, and the page is shown the game from the seat after every action."""

    timed = False  # a person takes the time they need
    wants_events = False  # the page is shown the seat's events from the game itself (SeatWatch)

    def __init__(self, session: PlaySession) -> None:
        self.session = session
        self.deal = -1

    def start(self, state: GameState, newgame: dict[str, Any]) -> None:
        self.deal = state.deal_number()
        self.session.start_game(state)

    def ready(self) -> None:
        """The page needs no readiness barrier."""

    def tell(self, *lines: str) -> None:
        """The page is shown the game by :meth:`seen`, not by wire lines."""

    def ask(self, decision: Decision) -> Answer:
        session = self.session
        asked = time.perf_counter()
        session.publish({"type": "ask", "decision": decision.kind, "legal": list(decision.legal)}, keep="ask")
        if decision.while_waiting is not None:
            decision.while_waiting()
        while True:
            choice = session.next_choice()
            if choice.kind == "hint" and session.hints and session.state is not None:
                session.give_hint(session.state)
                continue
            if choice.kind == "act" and choice.action in decision.legal:
                now = time.perf_counter()
                return Answer(choice.action, "person", (now - asked) * 1000, now)
            if choice.kind == "act":        # not an option now: nothing happens in the game
                session.publish({"type": "refused", "action": choice.action})

    def seen(self, state: GameState, mover: int) -> None:
        session = self.session
        trick_before = session.last_trick_key
        deal = state.deal_number()
        deal_over = deal != self.deal and not state.is_terminal()
        self.deal = deal
        session.show(state, mover, deal_over=deal_over)
        # A person's move is not paced, and a bot's once per table (after the last person has seen it).
        if not deal_over and mover not in session.people and session is session.lead.group[-1] and session.pace > 0:
            # A bot's move, at a pace a person can follow; a completed trick stays a while longer.
            ended = session.last_trick_key != trick_before
            if session.pause(session.pace * (2 if ended else 1)):
                raise GameAborted()

    def fault_seen(self, fault: dict[str, Any]) -> None:
        self.session.fault_shown(fault)


class PlaySession:
    """The person's seat, the games played at it, and the pages connected to it."""

    def __init__(self, config: TournamentConfig, seat: int, out_dir: Path, *, pace: float = 0.8,
                 seed: int | None = None, linger_s: float = DEFAULT_LINGER_S,
                 notify: Callable[[str], None] | None = None, people: Sequence[int] = (),
                 hints: bool = False) -> None:
        self.config = config
        self.hints = hints    # a person may ask what the bundled search bot would play (give_hint)
        self.hinted: list[dict[str, Any]] = []   # the hints given in the game being played
        # The seats of people: this session's, then the others' (``people``), each played from a
        # page of its own with a key of its own (a companion session of this one, in ``group``).
        self.people = [seat] + [s for s in people if s != seat]
        # The terminal's lines (trickcore play prints them): a bot's faults, the page gone, the end.
        self.notify = notify or (lambda line: None)
        self.ended = ""  # why the session stopped, once it has: the page closed, quit on the page
        self.seat = seat
        self.out_dir = out_dir
        self.pace = pace
        self.linger_s = linger_s
        self.master = master_key(secrets.randbits(64) if seed is None else seed)
        self.token = secrets.token_urlsafe(24)
        self.stop = threading.Event()
        self.choices: collections.deque[Choice] = collections.deque()  # the page's, not yet taken
        self.waiting: concurrent.futures.Future[Choice] | None = None  # the game thread's wait for one
        self.names = self.bot_names()
        self.loop: asyncio.AbstractEventLoop | None = None
        self.controller: web.WebSocketResponse | None = None
        self.outbox: asyncio.Queue[str] | None = None
        self.lock = threading.Lock()
        self.snapshot: dict[str, Any] = {}
        self.games = 0
        self.records: list[Path] = []
        self.last_trick_key = ""
        self.opening = ""  # the type of the game's first event, which opens every deal
        self.error: BaseException | None = None
        self.thread: threading.Thread | None = None
        self.on_stop: Callable[[], None] | None = None
        self.table: Table | None = None            # the game thread's table (its bot sessions)
        self.state: GameState | None = None        # the game being played
        self.watch: SeatWatch | None = None        # what the seat has been shown of it
        self.lead = self                           # the session that runs the games and the server
        self.group = [self] + [self._companion(s) for s in self.people[1:]]

    def _companion(self, seat: int) -> PlaySession:
        """The session of another person's seat at this table: the table, its games, its stop and
        its records are this session's; the seat, the page's key and what the page was shown are
        its own."""
        other = PlaySession.__new__(PlaySession)
        other.__dict__.update(self.__dict__)
        other.seat = seat
        other.token = secrets.token_urlsafe(24)
        other.lock = threading.Lock()
        other.choices = collections.deque()
        other.waiting = None
        other.controller = other.outbox = None
        other.snapshot = {}
        other.last_trick_key = other.opening = ""
        other.state = other.watch = None
        other.lead = self
        return other

    def bot_names(self) -> list[str]:
        """The table's seats: the config's bots in turn around the people's seats, which are
        named ``you`` (one person) or ``person<seat>`` (several)."""
        bots = iter(b.name for b in self.config.bots)
        return [person_name(s, self.people) if s in self.people else next(bots) for s in range(self.config.players)]

    def pause(self, seconds: float) -> bool:
        """Wait ``seconds`` (the pace of the bots' moves); True if the session was stopped meanwhile."""
        return self.stop.wait(seconds)

    # ---- the game thread ------------------------------------------------------------------
    def start(self) -> None:
        self.thread = threading.Thread(target=self._games, name="trickcore-play", daemon=True)
        self.thread.start()

    def _games(self) -> None:
        table = self.table = Table(self.config, None, self.stop,
                                   people={self.names[one.seat]: PersonSeat(one) for one in self.group})
        try:
            while not self.stop.is_set():
                self.games += 1
                job = Job(index=self.games - 1, job_id=f"play-{self.games}", table=0, deal=self.games,
                          seed=deal_seed(self.master, self.games), seating=0, bots=tuple(self.names))
                for one in self.group:
                    one.begin_game()
                try:
                    result = table.play(job)
                except GameAborted:
                    return
                record = result.record
                if self.hinted:   # the hints the people asked for, where they asked (docs/play.md)
                    record["hints"] = self.hinted
                for fault in record["faults"]:  # the game is over: what each fault was, cards and all
                    self.notify(f"game {self.games}, seat {fault['seat']} ({fault['bot']}): {fault['class']}: "
                                f"{fault['detail']}")
                path = self.save(record)
                for one in self.group:
                    one.publish({"type": "over", "scores": record["scores"], "ranks": record["ranks"],
                                 "result": record["result"], "forfeited": record["forfeited"], "record": str(path),
                                 "game": len(self.records)}, keep="over")
                for one in self.group:   # the next game starts when every person has gone on
                    one.wait_to_go_on()
        except GameAborted:
            pass
        except BaseException as exc:        # shown to the person and re-raised by the command
            self.error = exc
            for one in self.group:
                one.publish({"type": "error", "text": f"{type(exc).__name__}: {exc}"})
        finally:
            table.close()
            if self.loop is not None and self.on_stop is not None:
                self.loop.call_soon_threadsafe(self.on_stop)

    def save(self, record: dict[str, Any]) -> Path:
        """The finished game as a game record file (a results.jsonl line), which
        ``trickcore replay`` and the replay viewer open."""
        self.out_dir.mkdir(parents=True, exist_ok=True)
        stamp = time.strftime("%Y%m%d-%H%M%S")
        path = self.out_dir / f"{self.config.game}-{stamp}-game{self.games}.json"
        write_whole(path, json.dumps(record, indent=1) + "\n")
        self.records.append(path)
        return path

    def next_choice(self) -> Choice:
        """The page's next choice (the game thread waits for it); GameAborted once the session
        stops, or when the choice is to quit."""
        waiting: concurrent.futures.Future[Choice] | None = None
        with self.lock:
            if self.stop.is_set():
                raise GameAborted()
            if self.choices:
                choice = self.choices.popleft()
            else:
                waiting = self.waiting = concurrent.futures.Future()
        if waiting is not None:
            choice = waiting.result()  # raises GameAborted once halt() fails it
        if choice.kind == "quit":
            self.halt("you quit on the page")
            raise GameAborted()
        return choice

    def halt(self, why: str = "") -> None:
        """Stop the session (from any thread): the game ends, and with it every bot process."""
        if why:
            self.end(why)
        for one in self.lead.group:
            with one.lock:
                self.stop.set()
                waiting, one.waiting = one.waiting, None
            if waiting is not None:
                waiting.set_exception(GameAborted())

    def give_hint(self, state: GameState) -> None:
        """What the bundled search bot would play at the seat's decision, and its value of each
        option (:func:`search_hint`), shown to the page and kept for the game record."""
        hint = search_hint(state, self.seat)
        self.lead.hinted.append({"seat": self.seat, "ply": len(state.history), **hint})
        self.publish({"type": "hint", **hint})

    def begin_game(self) -> None:
        if self is self.lead:
            self.hinted = []
        with self.lock:
            self.snapshot = {"events": [], "view": None, "ask": None, "pause": None, "over": None, "faults": [],
                             "game": self.lead.games}
        self.last_trick_key = ""
        self.publish({"type": "game", "game": self.lead.games}, keep=None)

    def start_game(self, state: GameState) -> None:
        """The game is dealt: the page is shown it from the seat."""
        self.state = state
        self.watch = SeatWatch(state, [self.seat])
        self.show(state, None)

    def show(self, state: GameState, actor: int | None, deal_over: bool = False) -> None:
        """After an action (or at the start): the seat's view and its new events.  With
        ``deal_over`` (the action ended a deal, and the next one is dealt), the page is first
        sent the events up to the next deal's first, without a view, so that the ended deal stays
        on the table with its score sheet until the person goes on; then the next deal."""
        assert self.watch is not None  # start_game() began watching
        step = self.watch.step(actor)
        view, events = step.views[self.seat], step.events[self.seat]
        if not self.opening and events:
            self.opening = events[0]["type"]   # the type of the first event opens every deal
        if deal_over:
            cut = next((i for i, event in enumerate(events) if i and event["type"] == self.opening), len(events))
            ended, events = events[:cut], events[cut:]
            with self.lock:
                self.snapshot["events"].extend(ended)
                self.snapshot["ask"] = None
            self.publish({"type": "update", "view": None, "events": ended, "actor": actor, "to_move": -1,
                          "decision": "", "deal": state.deal_number() - 1, "over": False})
            self.publish({"type": "pause", "deal": state.deal_number()}, keep="pause")
            self.wait_to_go_on()
        self.last_trick_key = json.dumps(view.get("last_trick"), sort_keys=True, default=str)
        with self.lock:
            self.snapshot["events"].extend(events)
            self.snapshot["view"] = view
            self.snapshot["ask"] = None
            self.snapshot["pause"] = None
        self.publish({"type": "update", "view": view, "events": events, "actor": actor,
                      "to_move": step.to_move, "decision": step.next,
                      "deal": state.deal_number(), "over": state.is_terminal()})

    def wait_to_go_on(self) -> None:
        """Until the person goes on (next deal, new game); a choice of an action meanwhile is
        no option and is dropped."""
        while self.next_choice().kind != "continue":
            pass

    def fault_shown(self, fault: dict[str, Any]) -> None:
        # The detail stays in the record: it may quote the faulty bot's own cards.
        shown = {"seat": fault["seat"], "bot": fault["bot"], "class": fault["class"], "outcome": fault["outcome"]}
        with self.lock:
            self.snapshot.setdefault("faults", []).append(shown)
        self.publish({"type": "fault", **shown})
        did = "it forfeits the game" if fault["outcome"] == "forfeit" else "a random legal option was played for it"
        if self is not self.lead:   # the terminal says it once
            return
        self.notify(f"fault: seat {fault['seat']} ({fault['bot']}): {fault['class']}, {did} (what it did is printed "
                    f"when the game ends: it may show the bot's cards)")

    def end(self, why: str) -> None:
        """Say why the session stops (the first reason given is kept)."""
        self.lead.ended = self.lead.ended or why

    def publish(self, message: dict[str, Any], keep: str | None = "") -> None:
        """Send a message to the controlling page (from any thread); ``keep`` names the
        snapshot slot it also fills, for a page that connects later."""
        if keep:
            with self.lock:
                self.snapshot[keep] = message
        loop = self.loop
        if loop is not None:
            text = json.dumps(message, default=str)
            loop.call_soon_threadsafe(self._to_page, text)

    # ---- the event loop -------------------------------------------------------------------
    def _to_page(self, text: str) -> None:
        if self.outbox is not None:
            self.outbox.put_nowait(text)

    def hello(self) -> dict[str, Any]:
        info, cfg = self.config.game_info, self.config
        teams = info.teams(cfg.players) if info.teams is not None else None
        return {"type": "hello", "game": cfg.game, "title": info.title, "players": cfg.players, "seat": self.seat,
                "hints": self.hints,
                "names": self.names, "teams": [list(t) for t in teams] if teams else None,
                "faces": faces_data(cfg.game, cfg.players, cfg.game_options), "options": dict(cfg.game_options),
                "options_text": options_in_words(info, cfg.game_options, cfg.players), "table": table_of(cfg.game),
                "rules": rule_links(cfg.game)}

    def resume_message(self) -> dict[str, Any]:
        with self.lock:
            return {"type": "resume", **json.loads(json.dumps(self.snapshot, default=str))}

    def offer(self, data: dict[str, Any]) -> None:
        """A message from the controlling page."""
        kind = data.get("type")
        if kind == "act" and isinstance(data.get("action"), str):
            self._choose(Choice("act", data["action"]))
        elif kind == "hint" and self.hints:
            self._choose(Choice("hint"))
        elif kind in ("continue", "quit"):
            if kind == "quit":  # said here, before the page's socket may close
                self.end("you quit on the page")
            self._choose(Choice(str(kind)))

    def _choose(self, choice: Choice) -> None:
        """The game thread's wait ends with ``choice``; when it is not waiting, the choice is
        kept, in order, for its next wait."""
        with self.lock:
            waiting, self.waiting = self.waiting, None
            if waiting is None:
                self.choices.append(choice)
        if waiting is not None:
            waiting.set_result(choice)


# ---- the server ------------------------------------------------------------------------------
def _is_loopback(host: str | None) -> bool:
    if not host:
        return False
    try:
        return ipaddress.ip_address(host.split("%")[0]).is_loopback
    except ValueError:
        return False


def _is_address(host: str) -> bool:
    try:
        ipaddress.ip_address(host.split("%")[0])
    except ValueError:
        return False
    return True


def is_loopback_host(host: str) -> bool:
    """Whether a server on ``host`` listens on this machine's loopback address only."""
    return host == "localhost" or _is_loopback(host)


def is_wildcard(host: str) -> bool:
    """Whether ``host`` is every address of the machine (``0.0.0.0``, ``::``)."""
    return host in ("", "0.0.0.0", "::")


def reachable_name(host: str) -> str:
    """The host of the addresses the command prints for a server listening on ``host``: the
    address itself, or for every address of the machine (:func:`is_wildcard`) the machine's
    address on its network (the source address of a route outward; connecting a UDP socket
    sends nothing), else its name."""
    if not is_wildcard(host):
        return host
    family, probe_to = (socket.AF_INET6, "2001:db8::1") if host == "::" else (socket.AF_INET, "192.0.2.1")
    try:
        with socket.socket(family, socket.SOCK_DGRAM) as probe:
            probe.connect((probe_to, 9))
            address = str(probe.getsockname()[0])
    except OSError:
        return socket.gethostname()
    return socket.gethostname() if _is_loopback(address) else address


def make_app(session: PlaySession, others: bool = False, names: Sequence[str] = ()) -> web.Application:
    """The page and its websocket, for a key of the table's people only: each request is served
    for the person whose key it holds (:func:`owner`).  Without ``others`` the peer must be a
    loopback address; with it (``--host`` beyond the loopback address) any peer that holds a
    key.  The Host header must be ``localhost``, an address, or one of the machine's ``names``:
    a name that is none of these is another site's (DNS rebinding)."""
    lead = session
    known = {"localhost", *(n.lower() for n in names)}

    def owner(request: web.Request) -> PlaySession:
        """The session of the person whose key the request holds."""
        key = request.query.get("t", "")
        for one in lead.group:
            if secrets.compare_digest(key, one.token):
                return one
        raise web.HTTPForbidden(text="open the address trickcore play printed (it holds the session's key)")

    @web.middleware
    async def guard(request: web.Request, handler: Callable[[web.Request], Any]) -> web.StreamResponse:
        if not others and not _is_loopback(request.remote):
            raise web.HTTPForbidden(text="trickcore play answers only this machine's loopback address")
        host = (request.host or "")
        host = host[1:].partition("]")[0] if host.startswith("[") else host.rsplit(":", 1)[0]
        if host.lower() not in known and not (_is_loopback(host) or (others and _is_address(host))):
            raise web.HTTPForbidden(text="unexpected Host header")
        owner(request)
        response: web.StreamResponse = await handler(request)
        return response

    async def page(request: web.Request) -> web.Response:
        from tournament.pages import render

        session = owner(request)
        title = f"{session.config.game_info.title} – trickcore play"
        html = render("play.html.j2", generator="trickcore play", title=title,
                      data={"token": session.token, **session.hello()})
        return web.Response(text=html, content_type="text/html",
                            headers={"Cache-Control": "no-store", "Referrer-Policy": "no-referrer",
                                     "Content-Security-Policy": "default-src 'none'; style-src 'unsafe-inline'; "
                                                                "script-src 'unsafe-inline'; connect-src 'self'; "
                                                                "img-src data:"})

    async def replay(request: web.Request) -> web.Response:
        """The replay viewer of a finished game of the session (``game``: 1, 2, ...), from the
        person's seat: the other hands stay hidden, as they were during the game."""
        from tournament.replay_html import replay_html

        session = owner(request)
        try:
            path = session.records[int(request.query.get("game", "")) - 1]
        except (ValueError, IndexError):
            raise web.HTTPNotFound(text="no finished game of that number") from None
        record = json.loads(path.read_text(encoding="utf-8"))
        html = replay_html(record, seats=[session.seat], omniscient=False)
        return web.Response(text=html, content_type="text/html",
                            headers={"Cache-Control": "no-store", "Referrer-Policy": "no-referrer",
                                     "Content-Security-Policy": "default-src 'none'; style-src 'unsafe-inline'; "
                                                                "script-src 'unsafe-inline'; img-src data:"})

    async def rules(request: web.Request) -> web.Response:
        """The game's rules page (docs/rules/<file>.md rendered, tournament/rules_page.py), which
        the prompts link at the section they follow."""
        from tournament.rules_page import RulesNotFound, rules_page

        session = owner(request)
        name = table_of(session.config.game).get("rules") or ""
        try:
            html = rules_page(name)
        except RulesNotFound:
            raise web.HTTPNotFound(text="this game's rules are not installed") from None
        return web.Response(text=html, content_type="text/html",
                            headers={"Cache-Control": "no-store", "Referrer-Policy": "no-referrer",
                                     "Content-Security-Policy": "default-src 'none'; style-src 'unsafe-inline'; "
                                                                "img-src data:"})

    async def websocket(request: web.Request) -> web.WebSocketResponse:
        session = owner(request)
        origin = request.headers.get("Origin")
        if origin is not None and origin.rsplit("//", 1)[-1] != request.host:
            raise web.HTTPForbidden(text="the page of another site may not connect")
        ws = web.WebSocketResponse(heartbeat=20)
        await ws.prepare(request)
        if session.controller is not None and not session.controller.closed:
            await ws.send_str(json.dumps({"type": "taken"}))
            await ws.close()
            return ws
        session.controller = ws
        outbox: asyncio.Queue[str] = asyncio.Queue()
        session.outbox = outbox
        await ws.send_str(json.dumps(session.hello()))
        await ws.send_str(json.dumps(session.resume_message()))

        async def sender() -> None:
            while True:
                text = await outbox.get()
                await ws.send_str(text)

        task = asyncio.ensure_future(sender())
        try:
            async for msg in ws:
                if msg.type == WSMsgType.TEXT:
                    try:
                        data = json.loads(msg.data)
                    except ValueError:
                        continue
                    if isinstance(data, dict):
                        session.offer(data)
        finally:
            task.cancel()
            if session.controller is ws:
                session.controller = None
                session.outbox = None
                if not session.stop.is_set() and not lead.ended:
                    session.notify(f"the page has closed; the game ends in {session.linger_s:g} s unless the "
                                   f"page is opened again")
                asyncio.get_running_loop().call_later(session.linger_s, _gone, session)
        return ws

    def _gone(session: PlaySession) -> None:
        # The controlling page closed and no page took the seat since: the game ends.
        if session.controller is None:
            alone = len(lead.group) == 1
            session.halt("the page was closed" if alone else f"the page of seat {session.seat} was closed")

    app = web.Application(middlewares=[guard])
    app.router.add_get("/", page)
    app.router.add_get("/ws", websocket)
    app.router.add_get("/replay", replay)
    app.router.add_get("/rules", rules)
    return app


async def serve(session: PlaySession, host: str = "127.0.0.1", port: int = 0,
                ready: Callable[[str], None] | None = None, others: bool | None = None) -> None:
    """Serve the session until it stops (the page closed, ``quit``, Ctrl-C or an error);
    ``ready`` gets each person's page address (the session's first) once the server listens,
    named as other machines reach it (:func:`reachable_name`).  ``others``: whether a peer
    other than the loopback address is served (by default, when ``host`` is not a loopback one)."""
    loop = asyncio.get_running_loop()
    for one in session.group:
        one.loop = loop
    done = asyncio.Event()
    session.on_stop = done.set
    if others is None:
        others = not is_loopback_host(host)
    shown_host = reachable_name(host)
    names = {shown_host, socket.gethostname(), socket.getfqdn()} if others else set()
    runner = web.AppRunner(make_app(session, others, sorted(names)), access_log=None, handle_signals=False)
    await runner.setup()
    # The socket is bound here, so its port (a free one for port 0) is known before serving.
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind((host or "0.0.0.0", port))
    bound = sock.getsockname()[1]
    await web.SockSite(runner, sock).start()
    shown = f"[{shown_host}]" if ":" in shown_host else shown_host
    session.start()
    if ready is not None:
        for one in session.group:   # each person's page, with its own key
            ready(f"http://{shown}:{bound}/?t={one.token}")
    try:
        await done.wait()  # set by the game thread as it ends (on_stop)
    finally:
        session.halt()
        if session.thread is not None:
            await loop.run_in_executor(None, session.thread.join)
        # Close the page's socket first: the server's cleanup would wait for it.
        for one in session.group:
            if one.controller is not None and not one.controller.closed:
                await one.controller.close(message=b"the game has ended")
        await runner.cleanup()


#: Worlds a hint searches: a fixed number, not a time, so that a hint is the same at the same state.
HINT_WORLDS = 200


def search_hint(state: GameState, seat: int) -> dict[str, Any]:
    """What the bundled search bot (tournament/bots/search_bot.py) would play at ``state``'s
    decision for ``seat``, with its options and tuning for the game: ``best`` (an option's text),
    ``by`` (``search``; ``heuristic`` where the bot leaves the decision to the game's policy, or
    ``first`` for a game it can neither follow nor leave to a policy)
    and ``values`` (option -> mean value of its rollouts, for a searched decision).  As the bot
    does, it searches a game rebuilt from the seat's own events (trickcore.mirror), so nothing
    the seat may not see takes part; its generator is seeded by the game's seed and the decisions
    made so far, and it searches :data:`HINT_WORLDS` worlds."""
    import random

    from tournament.bots.search_bot import AUTO
    from trickcore.games import policy_of
    from trickcore.mirror import Mirror, MirrorError
    from trickcore.search import heuristic_guide, search

    info = state.info
    tuned = {**AUTO, **info.search_tuning}
    rng = random.Random(f"hint:{state.seed}:{len(state.history)}")
    legal = state.legal_action_strings()
    policy = policy_of(info.name)
    if tuned["searched"] == "play" and state.decision() != "play" and policy is not None:
        return {"best": policy(state.observation(seat), legal, rng), "by": "heuristic", "values": {}}
    try:
        mirror = Mirror(info.name, state.num_players, state.options, seat, seed=rng.getrandbits(32))
        for event in state.events_for(seat, 0)[0]:
            mirror.feed(event)
        seen = mirror.sync()
    except MirrorError:   # a game the bot cannot follow: it plays the heuristic, else the first option
        if policy is None:
            return {"best": legal[0], "by": "first", "values": {}}
        return {"best": policy(state.observation(seat), legal, rng), "by": "heuristic", "values": {}}
    guide = heuristic_guide(info.name) if tuned["guide"] == "heuristic" else None
    result = search(seen, seat, rng, 600_000.0, max_worlds=HINT_WORLDS, policy=tuned["policy"], guide=guide)
    values = {seen.action_to_string(a): round(v, 3) for a, v in result.values.items()}
    return {"best": seen.action_to_string(result.action), "by": "search", "values": values}


def rule_links(game: str) -> dict[str, Any]:
    """What the page needs to link the game's rules (served at ``rules``): ``page`` (whether the
    game has a rules page) and ``anchors`` (decision kind -> the anchor of the section its prompt
    cites, e.g. ``take`` -> ``s4``)."""
    from tournament.rules_page import anchor_of_rule

    table = table_of(game)
    if not table.get("rules"):
        return {"page": False, "anchors": {}}
    anchors = {kind: anchor_of_rule(d["rule"]) for kind, d in table.get("decisions", {}).items() if d.get("rule")}
    return {"page": True, "anchors": anchors}


def people_seats(players: int, seat: int, count: int) -> list[int]:
    """The seats of ``count`` people at a table of ``players``, the first ``seat``: spread evenly
    around the table (so that two people at Klaberjass with four are partners)."""
    return [(seat + i * players // count) % players for i in range(count)]


#: A BOT_CMD of ``trickcore play`` that is this word is a person's seat, not a bot.
PERSON_WORD = "person"


def table_seats(players: int, commands: Sequence[str], seat: int | None,
                people: int | None) -> tuple[list[int], list[str]]:
    """The people's seats (the first is the one whose page the command opens) and the bots'
    commands of ``trickcore play``'s arguments.  Without the word ``person`` among the commands:
    ``--people`` seats spread evenly from ``--seat`` (:func:`people_seats`), the commands filling
    the other seats in turn.  With it, the commands are the table's seats in order, one each,
    ``person`` a person's: then ``--seat`` (if given) must be one of them, and ``--people`` (if
    given) their number.  Raises ConfigError for arguments that contradict each other."""
    from tournament.config import ConfigError

    def fail(message: str) -> ConfigError:
        return ConfigError([message], "trickcore play")

    if seat is not None and not 0 <= seat < players:
        raise fail(f"--seat: seat {seat} is not in 0..{players - 1} ({players} players)")
    marked = [s for s, command in enumerate(commands) if command.strip() == PERSON_WORD]
    if not marked:
        count = 1 if people is None else people
        first = 0 if seat is None else seat
        if count > players:
            raise fail(f"--people: {count} people at a table of {players}")
        return people_seats(players, first, count), list(commands)
    if len(commands) != players:
        raise fail(f"with {PERSON_WORD!r} among the bot commands, give one per seat: {players} seats, "
                   f"{len(commands)} given (-p sets the number of seats)")
    if people is not None and people != len(marked):
        raise fail(f"--people {people}, but {len(marked)} seats are {PERSON_WORD!r}: give one or the other")
    if seat is not None and seat not in marked:
        raise fail(f"--seat {seat}, but that seat is the bot {commands[seat]!r}; the people's seats are "
                   + ", ".join(map(str, marked)))
    first = marked[0] if seat is None else seat
    return [first] + [s for s in marked if s != first], [c for c in commands if c.strip() != PERSON_WORD]


def person_name(seat: int, people: Sequence[int]) -> str:
    """A person's seat's name in the game records: ``you`` when one person plays, else
    ``person<seat>``."""
    return PERSON if len(people) == 1 else f"person{seat}"


def options_in_words(info: GameInfo, options: dict[str, Any], players: int) -> str:
    """The game's options as the page's header shows them, e.g. ``variant: verkehrt, rounds: 1``:
    the variant (its flags, joined by ``+``) where the game has variants, and every other option
    whose value is not the game's default."""
    defaults = info.resolve_options({}, players)
    parts = []
    flags = {spec.name for spec in info.options if spec.type is bool} if info.variants else set()
    if flags:
        on = [spec.name for spec in info.options if spec.name in flags and options.get(spec.name)]
        parts.append("variant: " + ("+".join(on) if on else "classic"))
    for spec in info.options:
        value = options.get(spec.name, spec.default)
        if spec.name not in flags and value != defaults.get(spec.name):
            shown = ("yes" if value else "no") if isinstance(value, bool) else str(value)
            parts.append(f"{spec.name.replace('_', ' ')}: {shown}")
    return ", ".join(parts) or "the game's default options"


def play_config(game: str, players: int | None, seat: int, commands: list[list[str]], options: dict[str, Any],
                decision_ms: float, sandbox_kind: str | None, people: Sequence[int] = ()) -> TournamentConfig:
    """The config of a person's table: ``commands`` (argument lists) fill the seats that are
    neither ``seat`` nor one of ``people`` (the other people's seats) in turn, the bundled
    heuristic bot (one process per seat, each seeded by its seat) when none is given; the time
    control, failure policies, limits and sandbox are a tournament's defaults.  Raises
    ConfigError (and GameConfigError) as a tournament config does."""
    from tournament.config import DEFAULT_FILLER, ConfigError, parse_config, program_name

    info = get_game(game)
    if players is None:
        players = min(info.players)
    if not 0 <= seat < players:
        raise ConfigError([f"--seat: seat {seat} is not in 0..{players - 1} ({players} players)"], "trickcore play")
    for other in people:
        if not 0 <= other < players:
            raise ConfigError([f"--people: seat {other} is not in 0..{players - 1} ({players} players)"],
                              "trickcore play")
    persons = {seat, *people}
    bots: list[dict[str, Any]] = []
    others = [s for s in range(players) if s not in persons]
    for k, s in enumerate(others):
        if commands:
            argv = commands[k % len(commands)]
            bots.append({"name": f"seat{s}-{program_name(argv)}", "command": list(argv)})
        else:
            bots.append({"name": f"seat{s}-heuristic", "command": list(DEFAULT_FILLER), "options": {"seed": s}})
    doc: dict[str, Any] = {
        "game": {"name": info.name, "players": players, "options": options},
        "tournament": {"name": "play", "format": "duplicate", "deals": 1, "seed": 1},
        "time": {"decision_ms": decision_ms},
        "bots": bots,
    }
    if sandbox_kind is not None:
        doc["sandbox"] = {"kind": sandbox_kind}
    # The people's seats of the table are theirs (Table.people): the bots fill the others.
    return parse_config(doc, "trickcore play", people=len(persons))
