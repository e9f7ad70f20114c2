"""``trickcore replay``: a recorded game step by step, as text (every seat's view, or exactly what one
seat saw) or as the viewer's HTML page.  The steps come from the one replay walker
(tournament/replay_walk.py), as the viewer's and ``play``'s do."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from tournament.replay_walk import Step, walk
from tournament.results import MANIFEST_FILE, RESULTS_FILE, ResultsFile, ResumeError, checked_records

if TYPE_CHECKING:
    from trickcore.game import GameState


def _load_record(path: str, job: str | None) -> dict[str, Any]:
    """A game record from results.jsonl (``--job`` picks one; default the first) or a JSON file
    holding one record (a results line, or a bare ``GameState.to_record()``).  The results.jsonl
    of a run folder (run.json beside it) is read as every reader of a run reads it: each game
    once, with the job, seed and seating of the run's schedule, or not at all."""
    file = Path(path)
    if file.name == RESULTS_FILE and (file.parent / MANIFEST_FILE).exists():
        try:
            lines = [record for _, _, record in checked_records(file.parent)]
        except ResumeError as exc:
            click.echo(f"error: {exc}", err=True)
            sys.exit(2)
    elif path.endswith(".jsonl"):
        lines = [record for _, _, record in ResultsFile(file)]
    else:
        lines = [json.loads(file.read_text(encoding="utf-8"))]
    if job is not None:
        lines = [r for r in lines if r.get("job") == job]
        if not lines:
            raise click.BadParameter(f"no game {job!r} in {path}", param_hint="--job")
    played = [r for r in lines if r.get("status", "played") == "played"]
    if not played:
        raise click.BadParameter(f"{path} holds no played game", param_hint="PATH")
    return played[0]


@click.command("replay")
@click.argument("path", type=click.Path(exists=True, dir_okay=False))
@click.option("--job", help="Which game of a results.jsonl (e.g. t0-d3-s5); default the first.")
@click.option("--seat", type=int, help="Show the game exactly as this seat saw it: its view and options before "
                                       "each of its decisions, its own actions, and the events it was sent "
                                       "(other seats' hidden choices stay hidden). Default: omniscient.")
@click.option("--html", "html_out", type=click.Path(dir_okay=False), metavar="OUT.html",
              help="Write the replay viewer page (every seat's view and the organiser's; with --seat only that "
                   "seat's) instead of printing.")
@click.option("--json", "as_json", is_flag=True,
              help="Print the views as JSON (every seat's at the start; with --seat the seat's before each of its "
                   "decisions) instead of the hands and the tricks.")
def replay_command(path: str, job: str | None, seat: int | None, html_out: str | None, as_json: bool) -> None:
    """Replay a recorded game from its record alone and print it action by action."""
    from trickcore.games import replay

    record = _load_record(path, job)
    game = record.get("record", record)
    state = replay({**game, "history": []})
    if seat is not None and not 0 <= seat < state.num_players:
        raise click.BadParameter(f"seat {seat} is not in 0..{state.num_players - 1}", param_hint="--seat")
    if html_out is not None:
        from tournament.replay_html import write_replay

        written = write_replay(record, html_out, seats=None if seat is None else [seat], omniscient=seat is None)
        click.echo(f"replay page: {written}")
        return
    bots = record.get("bots") or [f"seat{s}" for s in range(state.num_players)]
    actions = record.get("actions") or [{} for _ in game["history"]]
    # The seed names the deal, and with it every hand: only the organiser's replay shows it.
    seed = f", seed {game['seed']}" if seat is None else ""
    click.echo(f"{game['game']} with {game['players']} players{seed}, options {game['options']}")
    if seat is None:
        _replay_omniscient(state, game["history"], actions, bots, as_json)
        faults = record.get("faults", [])
    else:
        _replay_as_seat(state, seat, game["history"], actions, bots, as_json)
        faults = [f for f in record.get("faults", []) if f["seat"] == seat]  # a fault's detail may quote cards
    for f in faults:
        click.echo(f"fault: seat {f['seat']} ({f['bot']}) {f['class']} -> {f['outcome']}: {f['detail']}")
    click.echo(f"scores {state.scores()}, ranks {state.ranks()}"
               + (f", forfeited seats {record['forfeited']}" if record.get("forfeited") else ""))


def _action_line(step: Step, bots: list[str], meta: dict[str, Any]) -> str:
    mover = step.mover
    assert mover is not None  # a step after the deal has a mover
    how = meta.get("by", "")
    timing = f", {meta['ms']:.1f} ms" if "ms" in meta else ""
    rejected = f", rejected {meta['rejected']!r}" if "rejected" in meta else ""
    return (f"{step.number:4d}. seat {mover} ({bots[mover]}) {step.decision}: {step.action}"
            f"{f'  [{how}{timing}{rejected}]' if how else ''}")


def _hand_line(view: dict[str, Any]) -> str:
    return " ".join(map(str, view.get("hand") or [])) or "-"


def _trick_line(view: dict[str, Any], before: Any, bots: list[str]) -> str | None:
    """The trick a view's ``last_trick`` shows, if it is a new one: its cards and who won it."""
    trick = view.get("last_trick")
    if not trick or trick == before:
        return None
    won = f"seat {trick['winner']} ({bots[trick['winner']]})" if "winner" in trick else "?"
    if trick.get("winner2") is not None:  # Hattrick: the second-highest card wins a trick too
        won += f" and seat {trick['winner2']} ({bots[trick['winner2']]})"
    return f"      trick: {' '.join(map(str, trick.get('cards', [])))}  won by {won}"


def _step_meta(step: Step, actions: list[dict[str, Any]]) -> dict[str, Any]:
    """How the step's action was made, as the game record says (nothing for a bare record)."""
    return actions[step.number - 1] if step.number <= len(actions) else {}


def _replay_omniscient(state: GameState, history: list[str], actions: list[dict[str, Any]], bots: list[str],
                       as_json: bool) -> None:
    """Every seat's hand (or with ``as_json`` its whole view) at the start and after each new
    deal, then every action with how it was made, and who won each trick."""
    def show_hands(label: str, views: dict[int, dict[str, Any]]) -> None:
        for s, view in views.items():
            shown = json.dumps(view, sort_keys=True) if as_json else _hand_line(view)
            click.echo(f"{label}seat {s} ({bots[s]}) {'sees' if as_json else 'holds'}: {shown}")

    steps = walk(state, history, range(state.num_players))
    first = next(steps)
    show_hands("", first.views)
    sizes = [len(view.get("hand") or []) for view in first.views.values()]
    last = first.views[0].get("last_trick")
    for step in steps:
        click.echo(_action_line(step, bots, _step_meta(step, actions)))
        line = _trick_line(step.views[0], last, bots)
        if line:
            click.echo(line)
        last = step.views[0].get("last_trick")
        now = [len(view.get("hand") or []) for view in step.views.values()]
        if any(n > b for n, b in zip(now, sizes)) and not state.is_terminal():
            click.echo("new deal:")
            show_hands("  ", step.views)
        sizes = now


def _replay_as_seat(state: GameState, seat: int, history: list[str], actions: list[dict[str, Any]], bots: list[str],
                    as_json: bool = False) -> None:
    """What ``seat`` was shown, in order: its own decisions with the view and options it had,
    and the events it may see (GameState.events_for, the same stream its bot was sent).
    Other seats' actions appear only through those events; a decision that produced none is
    shown as made, never what was chosen."""
    steps = walk(state, history, [seat])
    view = next(steps).views[seat]  # the events before the first decision are in this view
    click.echo(f"as seen by seat {seat} ({bots[seat]}): "
               + (json.dumps(view, sort_keys=True) if as_json else f"holds {_hand_line(view)}"))
    last = view.get("last_trick")
    for step in steps:
        events = step.events[seat]
        if step.mover == seat:  # the view it decided on is the one the step before left
            click.echo(f"  view: {json.dumps(view, sort_keys=True)}" if as_json else f"  hand: {_hand_line(view)}")
            click.echo(f"  legal: {' '.join(step.legal)}")
            click.echo(_action_line(step, bots, _step_meta(step, actions)))
        else:  # what was chosen shows only through the events this seat may see
            mover = step.mover
            assert mover is not None  # a step after the deal has a mover
            hidden = "" if events else f", not shown to seat {seat}"
            click.echo(f"{step.number:4d}. seat {mover} ({bots[mover]}) {step.decision}: made{hidden}")
        for event in events:
            click.echo(f"      event: {json.dumps(event, sort_keys=True)}")
        view = step.views[seat]
        if not as_json:  # the seat's own view of the trick just completed (it is public)
            line = _trick_line(view, last, bots)
            if line:
                click.echo(line)
            last = view.get("last_trick")
