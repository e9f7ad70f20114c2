"""Who plays a run besides the bots it lists: a gauntlet's candidate, a paired run's two
candidates A and B (each a bot, or a partnership of bots) and the fillers that hold the other
seats (docs/tournament.md, "The paired format"), read from a config's [tournament] table with the
one validator (tournament/validate.py), and whether the field fits the game's seats."""

from __future__ import annotations

from typing import Any

from tournament.validate import Checker, type_name
from trickcore.game import GameInfo


def check_field_size(c: Checker, fmt: str, players: int, n: int,
                      candidates: tuple[tuple[str, ...], tuple[str, ...]] | None = None) -> None:
    """Each format needs a field of bots that fits its seats."""
    if fmt == "duplicate" and n != players:
        c.error("bots", f"format 'duplicate' seats every bot at every table, so it needs exactly "
                        f"{players} bots for {players} seats; got {n} (too {'many' if n > players else 'few'}"
                        f"; use format 'round-robin' or 'gauntlet' for a larger field)")
    elif fmt == "round-robin" and n < players:
        c.error("bots", f"format 'round-robin' needs at least {players} bots for {players} seats; got {n} "
                        f"(too few)")
    elif fmt == "gauntlet" and n < players:
        c.error("bots", f"format 'gauntlet' needs the candidate and at least {players - 1} field bots "
                        f"for {players} seats; got {n} bots (too few)")
    elif fmt == "paired" and candidates is not None:
        held = len(candidates[0])
        fillers = n - 2 * held
        if fillers != players - held:
            holds = "1 seat" if held == 1 else f"the {held} seats of a partnership"
            c.error("bots", f"format 'paired' seats candidate A or B in {holds} and a filler in each of the other "
                            f"{players - held}, so it needs exactly {players - held} bots besides the candidates; "
                            f"got {fillers} (too {'many' if fillers > players - held else 'few'}; leave out every "
                            f"bot but the candidates to fill those seats with the bundled heuristic bot)")


def read_candidate(c: Checker, fmt: str, candidate: str | None, names: list[str]) -> str | None:
    """The gauntlet's candidate: the named bot, by default the first; other formats have none."""
    if fmt != "gauntlet":
        if candidate is not None:
            c.error("tournament.candidate", f"only used with format 'gauntlet' (format is {fmt!r})")
        return candidate
    if candidate is None:
        return names[0] if names else None
    if candidate not in names:
        c.error("tournament.candidate", f"{candidate!r} is not the name of a bot; bots are "
                                        f"{', '.join(names) or '(none)'}")
    return candidate


#: paired: the bot that holds the seats the candidates do not, when the config names none -- the
#: bundled heuristic bot (trickcore.policies.<game>), one process per seat, each seeded by its number.
DEFAULT_FILLER = ("{python}", "{bots}/heuristic_bot.py")
DEFAULT_FILLER_NAME = "filler"


def default_fillers(count: int, taken: list[str]) -> list[dict[str, Any]]:
    """The [[bots]] entries of the default fillers (as the effective config lists them):
    ``filler-1`` ... ``filler-<count>``; a name already taken by a candidate is skipped."""
    out: list[dict[str, Any]] = []
    number = 0
    while len(out) < count:
        number += 1
        name = f"{DEFAULT_FILLER_NAME}-{number}"
        if name not in taken:
            out.append({"name": name, "command": list(DEFAULT_FILLER), "options": {"seed": number}})
    return out


def read_candidates(c: Checker, fmt: str, value: Any, names: list[str], info: GameInfo | None,
                players: int | None) -> tuple[tuple[str, ...], tuple[str, ...]] | None:
    """``tournament.candidates`` of format 'paired': A and B, each a bot's name or, in a partnership
    game, an array of names, one per seat of a partnership (a candidate holds a whole partnership:
    docs/tournament.md, "The paired format").  None when not paired, or when it is wrong."""
    key = "tournament.candidates"
    if fmt != "paired":
        if value is not None:
            c.error(key, f"only used with format 'paired' (format is {fmt!r})")
        return None
    teams = info.teams(players) if info is not None and players is not None and info.teams is not None else None
    held = len(teams[0]) if teams else 1
    example = ('["new", "old"]' if held == 1 else
               "[" + ", ".join("[" + ", ".join(f'"{v}-{i}"' for i in range(1, held + 1)) + "]"
                               for v in ("new", "old")) + "]")
    if value is None:
        c.error(key, f"missing (format 'paired' compares candidate A with candidate B, e.g. candidates = {example}"
                     f"{'' if held == 1 else ', one bot per seat of a partnership'})")
        return None
    if not isinstance(value, list) or len(value) != 2:
        got = (type_name(value) if not isinstance(value, list)
               else f"{len(value)} entr{'y' if len(value) == 1 else 'ies'}")
        c.error(key, f"must be an array of two candidates, A and B (e.g. {example}), got {got}")
        return None
    sides: list[tuple[str, ...]] = []
    seen: dict[str, str] = {}
    for i, entry in enumerate(value):
        entry_key, label = f"{key}[{i}]", "AB"[i]
        given = [entry] if isinstance(entry, str) else entry
        if not isinstance(given, list) or not all(isinstance(n, str) for n in given):
            c.error(entry_key, f"must be {'the name of a bot' if held == 1 else 'an array of bot names'}, got "
                               f"{type_name(entry)} {entry!r}")
            continue
        if len(given) != held:
            if held == 1:
                c.error(entry_key, f"must be the name of one bot, got {len(given)} names")
            else:
                assert info is not None and teams is not None  # held > 1 comes from the game's partnerships
                c.error(entry_key, f"{info.name} with {players} players is played in partnerships of {held} seats, "
                                   f"and a candidate holds a whole partnership: name {held} bots, one per seat "
                                   f"(e.g. {example}; define the program once per seat, each under its own name: "
                                   f"a process per seat), got {len(given)} name{'s' if len(given) != 1 else ''}")
            continue
        for name in given:
            if name not in names:
                c.error(entry_key, f"{name!r} is not the name of a bot; bots are {', '.join(names) or '(none)'}")
            elif name in seen:
                c.error(entry_key, f"{name!r} is already {seen[name]}; each seat of a candidate is a bot of its "
                                   f"own (to seat one program twice, define it twice with two names)")
            else:
                seen[name] = f"candidate {label}" if held == 1 else f"a seat of candidate {label}"
        sides.append(tuple(given))
    if len(sides) != 2 or len(seen) != 2 * held:
        return None
    return sides[0], sides[1]
