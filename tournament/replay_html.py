"""The replay viewer: one recorded game as a self-contained HTML page (``trickcore replay RECORD
--html OUT``, and the pages the tournament report links to).

The page steps through the game decision by decision.  Each *view* is a list of frames, frame
``k`` being the game after ``k`` decisions:

* a **seat view** is built only from what that seat was given -- ``GameState.observation(seat)``
  (the view its bot got with every request) and ``GameState.events_for(seat)`` (the events it
  was sent) -- so another seat's hidden cards and face-down choices never reach it.  Another
  seat's decision is described by the events it caused for this seat, never by its text;
* the **omniscient view** (the organiser's, labelled as such) shows every hand and every action.

Frames are stored as patches of the observation (changed keys; lists that only grew carry the
new items), so a game of a few hundred decisions with five views stays around a hundred
kilobytes.  The cards are drawn from the game's faces of them (``GameInfo.faces``, in the data),
so the page's script knows no game.  Everything -- data, CSS, JavaScript and the card drawings --
is inline: the page fetches nothing.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from tournament.replay_walk import walk
from trickcore.games import card_faces, get_game, replay

VIEWER_FORMAT = "trickcore-replay/1"
OMNISCIENT = "all"


def _patch(old: dict[str, Any] | None, new: dict[str, Any]) -> dict[str, Any]:
    """The change from ``old`` to ``new``: ``{"=": {key: value}, "+": {key: appended items},
    "~": {key: patch of a nested dict}, "-": [removed keys]}`` (empty parts left out); ``old``
    None gives the whole of ``new``."""
    if old is None:
        return {"=": new}
    put: dict[str, Any] = {}
    grow: dict[str, Any] = {}
    nested: dict[str, Any] = {}
    for key, value in new.items():
        before = old.get(key, _MISSING)
        if before is _MISSING or before != value:
            if (isinstance(value, list) and isinstance(before, list) and len(value) > len(before)
                    and value[:len(before)] == before):
                grow[key] = value[len(before):]
            elif isinstance(value, dict) and isinstance(before, dict) and value and before:
                nested[key] = _patch(before, value)
            else:
                put[key] = value
    gone = [key for key in old if key not in new]
    out: dict[str, Any] = {}
    for part, content in (("=", put), ("+", grow), ("~", nested), ("-", gone)):
        if content:
            out[part] = content
    return out


_MISSING = object()


def _omniscient_observation(observations: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """Every seat's observation folded into one: the keys all seats see alike, and per seat
    (``private``) the keys whose value differs for that seat (its hand, its own choices)."""
    first = observations[0]
    shared = {k: v for k, v in first.items()
              if k != "seat" and all(o.get(k, _MISSING) == v for o in observations[1:])}
    private = {str(s): {k: v for k, v in o.items() if k != "seat" and k not in shared}
               for s, o in enumerate(observations)}
    return {**shared, "private": private}


def _how(meta: dict[str, Any]) -> dict[str, Any]:
    """How an action was made: by whom (bot, substitute, forced) and the think time.  Only the
    mover's own view and the omniscient one get it -- that a move was forced tells something of
    the mover's hand -- and so with a rejected answer, which may quote the bot's cards (``"r"``)."""
    out: dict[str, Any] = {"how": meta["by"]} if "by" in meta else {}
    if isinstance(meta.get("ms"), (int, float)):
        out["ms"] = round(meta["ms"], 1)
    return out


def faces_data(game: str, players: int, options: dict[str, Any] | None) -> dict[str, dict[str, Any]]:
    """How a page draws each card of the game (trickcore.games.card_faces): card text -> its
    face's fields, the empty ones left out."""
    return {text: {key: value for key, value in dataclasses.asdict(face).items() if value}
            for text, face in card_faces(game, players, options).items()}


def build_replay(record: dict[str, Any], seats: Sequence[int] | None = None,
                 omniscient: bool = True) -> dict[str, Any]:
    """The data of the viewer for one game: ``record`` is a results.jsonl line (job, bots,
    timing, faults) or a bare ``GameState.to_record()``.  ``seats`` limits the seat views
    (default: every seat); ``omniscient`` adds the organiser's view."""
    game = record.get("record", record)
    history: list[str] = list(game["history"])
    state = replay({**game, "history": []})
    n = state.num_players
    seat_list = list(range(n)) if seats is None else sorted(set(seats))
    for s in seat_list:
        if not 0 <= s < n:
            raise ValueError(f"seat {s} is not in 0..{n - 1}")
    bots = list(record.get("bots") or [f"seat{s}" for s in range(n)])
    actions = list(record.get("actions") or [{} for _ in history])
    info = get_game(game["game"])
    teams = info.teams(n) if info.teams is not None else None

    views: list[dict[str, Any]] = [{"id": f"seat{s}", "seat": s, "label": f"seat {s} ({bots[s]})", "frames": []}
                                   for s in seat_list]
    if omniscient:
        views.append({"id": OMNISCIENT, "seat": None, "label": "all cards (organiser's view)", "frames": []})
    last: list[dict[str, Any] | None] = [None] * len(views)
    steps: list[dict[str, Any]] = []  # per frame, what every view may know: who moves and what kind

    # Every seat's view and events at every step, whichever views the page has: the organiser's
    # view is made of all the seats' observations.
    for step in walk(state, history, range(n)):
        if step.mover is None:  # frame 0: the game as dealt (its events: the deal itself)
            steps.append({"to": step.to_move, "kind": step.next})
        else:
            steps.append({"seat": step.mover, "kind": step.decision, "to": step.to_move, "next": step.next})
        meta = actions[step.number - 1] if 0 < step.number <= len(actions) else {}
        omniscient_view = _omniscient_observation([step.views[s] for s in range(n)]) if omniscient else None
        for i, view in enumerate(views):
            seat = view["seat"]
            if step.mover is not None and (seat is None or seat == step.mover):
                shown: dict[str, Any] = {"a": step.action, "legal": step.legal, **_how(meta)}
                if "rejected" in meta:
                    shown["r"] = meta["rejected"]
            else:  # what another seat chose shows only through the events this seat was sent
                shown = {}
            if seat is not None and step.events[seat]:
                shown["e"] = step.events[seat]
            obs = step.views[seat] if seat is not None else omniscient_view
            assert obs is not None  # the organiser's view is folded whenever the page has it
            patch = _patch(last[i], obs)
            last[i] = obs
            view["frames"].append({"o": patch, **shown} if patch else shown)

    finished = state.is_terminal()
    result = record.get("result") or {}
    return {
        "format": VIEWER_FORMAT,
        "game": game["game"], "title": info.title, "players": n, "options": game.get("options", {}),
        # The seed names the deal, and with it every hand: only a page with the organiser's view has it.
        "seed": game.get("seed") if omniscient else None, "job": record.get("job"), "bots": bots, "teams": teams,
        "faces": faces_data(info.name, n, game.get("options")),
        "steps": steps, "views": views, "finished": finished,
        "scores": state.scores() if finished else None, "ranks": state.ranks() if finished else None,
        "result": result or None, "forfeited": record.get("forfeited") or [],
        # A fault's detail may quote the cards of the bot that made it: a page without the
        # organiser's view holds the faults of its own seats only.
        "faults": [{k: f.get(k) for k in ("seat", "bot", "class", "outcome", "detail")}
                   for f in record.get("faults", []) if omniscient or f.get("seat") in seat_list],
    }


def replay_html(record: dict[str, Any], seats: Sequence[int] | None = None, omniscient: bool = True,
                back: str | None = None, back_label: str = "tournament report") -> str:
    """The viewer page of one game (see :func:`build_replay`); ``back`` is an optional link (to
    the tournament report, or what ``back_label`` names) shown in the header.  Rendered from
    templates/replay.html.j2."""
    from tournament.pages import render

    data = build_replay(record, seats, omniscient)
    title = f"{data['title']} – {data['job'] or 'game'}" + (f" (seed {data['seed']})" if data["seed"] is not None
                                                             else "")
    return render("replay.html.j2", generator="trickcore replay viewer", title=title, back=back,
                  back_label=back_label, data=data)


def write_replay(record: dict[str, Any], out: str | Path, seats: Sequence[int] | None = None,
                 omniscient: bool = True, back: str | None = None) -> Path:
    from tournament.files import write_whole

    path = Path(out)
    write_whole(path, replay_html(record, seats, omniscient, back))
    return path
