"""A ``trickcore play`` server for the tests: the session and its server run in a thread of
their own (its own event loop), on the loopback address and a free port, as the command runs
them (tournament/play.py)."""

from __future__ import annotations

import asyncio
import json
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from tests.tournament.report_fixtures import card_pattern, strings
from tournament.play import PlaySession, play_config, serve


class Server:
    """One play session served in a thread; ``url`` is the page's address (with its key)."""

    def __init__(self, tmp: Path, game: str, players: int, seat: int = 0, options: dict[str, Any] | None = None,
                 commands: list[list[str]] | None = None, decision_ms: float = 5000, seed: int = 7,
                 linger_s: float = 10.0, host: str = "127.0.0.1", sandbox: str | None = None,
                 people: tuple[int, ...] = (), hints: bool = False, others: bool | None = None) -> None:
        config = play_config(game, players, seat, commands or [], options or {}, decision_ms, sandbox, people)
        self.session = PlaySession(config, seat, tmp / "records", pace=0.0, seed=seed, linger_s=linger_s,
                                   people=people, hints=hints)
        self.url = ""
        self.urls: list[str] = []   # each person's page (the session's first), ``people`` in order
        self.error: BaseException | None = None
        ready = threading.Event()

        def got(url: str) -> None:
            self.urls.append(url)
            self.url = self.urls[0]
            if len(self.urls) == len(self.session.group):
                ready.set()

        def run() -> None:
            try:
                asyncio.run(serve(self.session, host=host, ready=got, others=others))
            except BaseException as exc:     # noqa: BLE001 - the test reads it
                self.error = exc
                ready.set()

        self.thread = threading.Thread(target=run, daemon=True)
        self.thread.start()
        assert ready.wait(30), "the server did not start"
        if self.error is not None:
            raise self.error

    @property
    def ws_url(self) -> str:
        base, _, key = self.url.partition("/?t=")
        return base.replace("http://", "ws://") + "/ws?t=" + key

    def stop(self) -> None:
        self.session.halt()
        self.thread.join(30)
        assert not self.thread.is_alive(), "the server did not stop"


def names(value: Any) -> set[str]:
    """Every string in ``value`` and the parts of it a card text may have: ``KH+belle`` and
    ``7C+8C`` (options of several parts), ``Ggod=0`` (a card played with a declared value)."""
    out: set[str] = set()
    for text in strings(value):
        out.add(text)
        for part in text.split("+"):
            out.update((part, part.split("=")[0]))
    return out


def hidden_now(state: Any, seat: int) -> set[str]:
    """The cards other seats hold or see that ``seat`` cannot know now: in another seat's
    observation, but neither in its own observation nor in any event it was sent in this game
    (a card seen once stays known: Beim Jupiter deals the cards played in one round again in
    the next)."""
    pattern = card_pattern(state.info.name)
    events, _ = state.events_for(seat, 0)
    known = names(events) | names(state.observation(seat))
    theirs = {t for o in range(state.num_players) if o != seat for t in names(state.observation(o))}
    return {t for t in theirs - known if pattern.match(t)}


def tokens_of_frames(frames: list[str]) -> set[str]:
    """Every string in the JSON messages the page received, and its parts (:func:`names`);
    but the faces of the deck's cards in the ``hello`` message (how to draw every card of the
    game: the deck, which every player knows, not anybody's hand)."""
    out: set[str] = set()
    for frame in frames:
        try:
            data = json.loads(frame)
        except ValueError:
            continue
        if isinstance(data, dict) and data.get("type") == "hello":
            data = {k: v for k, v in data.items() if k != "faces"}
        out |= names(data)
    return out


def leaked(tokens: set[str], state: Any, seat: int) -> set[str]:
    """The cards hidden from ``seat`` now that appear among ``tokens``."""
    return tokens & hidden_now(state, seat)


def finished_records(session: PlaySession) -> Iterator[dict[str, Any]]:
    for path in session.records:
        yield json.loads(path.read_text(encoding="utf-8"))


def omniscient_tokens(state: Any) -> set[str]:
    """What an organiser's page would be sent: every seat's observation."""
    return tokens_of_frames([json.dumps([state.observation(s) for s in range(state.num_players)])])

