"""Engine benchmarks: every figure in ns per card play and as a ratio to the floor.

The floor is bench/floor.c, a minimal hand-written C loop over 64-bit masks that
plays the reference game (4 x 13 cards, random trump, must follow, uniformly random
legal card).  The machine is shared and noisy, so the floor is measured in the same
run, interleaved with every other benchmark, and each figure is the best of
``repeat`` runs: ratios stay comparable where absolute numbers do not.

Used by ``trickcore bench`` (a thin command that imports this module from the checkout's bench/
folder: the benchmarks are not installed) and by the pytest-benchmark suites in bench/.  The
loops in C are bench/c_loops.py's.
"""

from __future__ import annotations

import contextlib
import dataclasses
import functools
import os
import pickle
import random
import time
from collections.abc import Callable, Iterator
from typing import Any

import c_loops

from trickcore import _core, tables
from trickcore._core import TrickPhase
from trickcore.cli import game_state_in_trick_phase, game_trick_phase  # perft starts there too
from trickcore.games import list_games, new_game


@dataclasses.dataclass
class Result:
    name: str
    ns_per_play: float
    ratio: float
    what: str
    extra: dict[str, Any] = dataclasses.field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "ns_per_play": round(self.ns_per_play, 2), "ratio": round(self.ratio, 2),
                "what": self.what, **self.extra}


# ---- the measured loops -------------------------------------------------------------
def python_driven_reference(games: int, seed: int = 1) -> float:
    """ns per card play of the reference game driven one card at a time from Python
    through the game interface: legal actions, pick one at random, apply."""
    rng = _core.Rng(seed)
    states = [new_game("reference", 4, seed=seed + i) for i in range(games)]
    below = rng.below
    t0 = time.perf_counter_ns()
    plays = 0
    for state in states:
        legal_actions, apply_action, is_terminal = state.legal_actions, state.apply_action, state.is_terminal
        while not is_terminal():
            legal = legal_actions()
            apply_action(legal[below(len(legal))])
            plays += 1
    return (time.perf_counter_ns() - t0) / plays


class _NoOp:
    """Stand-in for a game state whose methods do nothing: the interpreter's own cost."""

    def is_terminal(self) -> bool:
        return False

    def apply_action(self, action: int) -> None:
        return None

    def method(self) -> None:
        return None


def python_limit(plays: int, seed: int = 1) -> float:
    """ns per "card play" of the natural loop with nothing behind it: two no-op method calls
    and ``random.choice`` over a tuple that already exists.  No Python engine can be cheaper
    than this from the same loop."""
    obj, legal = _NoOp(), tuple(range(10))
    choice = random.Random(seed).choice
    t0 = time.perf_counter_ns()
    for _ in range(plays):
        if obj.is_terminal():
            break
        obj.apply_action(choice(legal))
    return (time.perf_counter_ns() - t0) / plays


def natural_loop_reference(games: int, seed: int = 1) -> float:
    """ns per card play of the loop a user writes, deal included:
    ``while not s.is_terminal(): s.apply_action(rng.choice(s.legal_actions()))``.  The card plays
    are counted from each game's history after its loop, so the timed loop is that line alone
    (a counter in it would add an addition per card that the interpreter-limit loop lacks)."""
    rng = random.Random(seed)
    plays = 0
    t0 = time.perf_counter_ns()
    for g in range(games):
        s = new_game("reference", 4, seed=seed + g)
        while not s.is_terminal():
            s.apply_action(rng.choice(s.legal_actions()))
        plays += len(s._actions)   # every action of the reference game is a card play
    return (time.perf_counter_ns() - t0) / plays


def interface_calls(calls: int, seed: int = 1) -> dict[str, float]:
    """ns per call, on a reference-game state in its trick phase: ``legal_actions()`` (cached
    within a decision), a no-op method call on a Python object (the comparison the goal names),
    ``apply_action(int)`` per card with the ``legal_actions`` call that precedes it, and alone
    (with a one-argument no-op method beside it)."""
    state = new_game("reference", 4, seed=seed)
    state.apply_action(state.legal_actions()[0])
    legal_actions, noop = state.legal_actions, _NoOp().method
    out = {}
    for name, fn in (("legal", legal_actions), ("noop", noop)):
        t0 = time.perf_counter_ns()
        for _ in range(calls):
            fn()
        out[name] = (time.perf_counter_ns() - t0) / calls
    states = [new_game("reference", 4, seed=seed + i) for i in range(max(1, calls // 52))]
    plays = 0
    t0 = time.perf_counter_ns()
    for st in states:
        legal_actions, apply_action = st.legal_actions, st.apply_action
        for _ in range(52):
            apply_action(legal_actions()[0])
        plays += 52
    out["legal_apply"] = (time.perf_counter_ns() - t0) / plays
    # apply_action(int) alone: the card plays of the games just played, replayed into fresh states
    # of the same seeds (the fast path checks the card in C, so no legal_actions() call is needed
    # in between); beside it a no-op method that takes one argument.
    games = [(new_game("reference", 4, seed=st.seed), st.action_ids) for st in states]
    plays = 0
    t0 = time.perf_counter_ns()
    for st, moves in games:
        apply_action = st.apply_action
        for move in moves:
            apply_action(move)
        plays += len(moves)
    out["apply"] = (time.perf_counter_ns() - t0) / plays
    noop_arg = _NoOp().apply_action
    t0 = time.perf_counter_ns()
    for move in range(calls):
        noop_arg(move)
    out["noop_arg"] = (time.perf_counter_ns() - t0) / calls
    return out


def game_copies(name: str, players: int, copies: int, seed: int = 1) -> dict[str, float] | None:
    """ns per ``clone()`` and per pickle round trip of a state at its first trick phase."""
    state = game_state_in_trick_phase(name, players, seed)
    if state is None:
        return None
    t0 = time.perf_counter_ns()
    for _ in range(copies):
        state.clone()
    clone_ns = (time.perf_counter_ns() - t0) / copies
    n = max(1, copies // 20)
    t0 = time.perf_counter_ns()
    for _ in range(n):
        pickle.loads(pickle.dumps(state, pickle.HIGHEST_PROTOCOL))
    return {"clone": clone_ns, "pickle": (time.perf_counter_ns() - t0) / n}


def python_trickphase_calls(calls: int, seed: int = 1) -> tuple[float, float]:
    """(ns per legal-move call, ns per card play) on the binding's TrickPhase from Python."""
    deck = _core.reference_deck()
    hands, _ = _core.Rng(seed).deal(deck.all, 4, 13)
    tp = _core.TrickPhase(deck, 4, _core.FOLLOW_SUIT, _core.WIN_TRUMP, 0, hands, 0, 13)
    tp.play(tp.moves()[0])
    moves = tp.moves
    t0 = time.perf_counter_ns()
    for _ in range(calls):
        moves()
    legal_ns = (time.perf_counter_ns() - t0) / calls
    rng = _core.Rng(seed)
    phases = [_core.TrickPhase(deck, 4, _core.FOLLOW_SUIT, _core.WIN_TRUMP, i & 3, hands, 0, 13)
              for i in range(max(1, calls // 52))]
    t0 = time.perf_counter_ns()
    plays = 0
    for p in phases:
        pm, play = p.moves, p.play
        while not p.over:
            m = pm()
            play(m[rng.below(len(m))])
            plays += 1
    return legal_ns, (time.perf_counter_ns() - t0) / plays


class _NoOpPhase:
    """Stand-in for a TrickPhase whose methods do nothing: the interpreter's own cost of the
    TrickPhase loop (``over``, ``moves()``, the pick, ``play()``)."""

    over = False

    def __init__(self) -> None:
        self.legal = tuple(range(10))

    def moves(self) -> tuple[int, ...]:
        return self.legal

    def play(self, move: int) -> bool:
        return False


def python_trickphase_limit(plays: int, seed: int = 1) -> float:
    """ns per "card play" of the loop of ``python_trickphase_calls`` over a stand-in whose methods
    do nothing and whose moves already exist, with the same pick (``Rng.below``): no binding can
    make that loop cheaper, and the C work it drives (the core's own playout) comes on top."""
    p = _NoOpPhase()
    below = _core.Rng(seed).below
    pm, play = p.moves, p.play
    t0 = time.perf_counter_ns()
    for _ in range(plays):
        if p.over:
            break
        m = pm()
        play(m[below(len(m))])
    return (time.perf_counter_ns() - t0) / plays


def python_resolve_calls(calls: int, seed: int = 1) -> float:
    """ns per full-trick resolution through the one-off API (_core.resolve_trick) from Python."""
    deck = _core.reference_deck()
    rng = _core.Rng(seed)
    tricks = []
    for _ in range(64):
        ids = list(range(52))
        rng.shuffle(ids)
        tricks.append(ids[:4])
    resolve = _core.resolve_trick
    t0 = time.perf_counter_ns()
    for i in range(calls):
        resolve(deck, 4, _core.FOLLOW_SUIT, _core.WIN_TRUMP, 1, 0, tricks[i & 63])
    return (time.perf_counter_ns() - t0) / calls


def game_random_full_games(name: str, players: int, games: int, seed: int = 1) -> dict[str, float]:
    """Full random games through the Python interface: games/s and ns per action."""
    rng = _core.Rng(seed)
    actions = 0
    t0 = time.perf_counter_ns()
    for g in range(games):
        state = new_game(name, players, seed=seed + g)
        while not state.is_terminal():
            legal = state.legal_actions()
            state.apply_action(legal[rng.below(len(legal))])
            actions += 1
    dt = time.perf_counter_ns() - t0
    return {"games_per_s": games / (dt / 1e9), "ns_per_action": dt / max(actions, 1), "actions": actions,
            "ns": dt}


def card_plays(name: str, players: int, games: int, seed: int = 1) -> int:
    """How many of the actions of ``game_random_full_games`` (same seeds, so the same games) were
    card plays: counted in a second, untimed pass, so asking ``decision()`` costs the timed loop
    nothing."""
    rng = _core.Rng(seed)
    cards = 0
    for g in range(games):
        state = new_game(name, players, seed=seed + g)
        while not state.is_terminal():
            cards += state.decision() == "play"
            legal = state.legal_actions()
            state.apply_action(legal[rng.below(len(legal))])
    return cards


def c_playouts(tp: TrickPhase, playouts: int, seed: int = 1) -> float:
    """ns per card play of the core's random playout from a trick phase's start (in C)."""
    rng = _core.Rng(seed)
    copies = [tp.copy() for _ in range(playouts)]
    t0 = time.perf_counter_ns()
    for c in copies:
        c.playout(rng)
    dt = time.perf_counter_ns() - t0
    cards = sum(bin(tp.hand(p)).count("1") - bin(c.hand(p)).count("1") for c in copies[:1] for p in range(tp.n_players))
    return dt / (playouts * max(cards, 1))


def state_playouts(name: str, players: int, playouts: int, seed: int = 1) -> float | None:
    """ns per card play of ``GameState.playouts`` (one Python call, every playout in C) from
    the first trick phase of a random game."""
    state = game_state_in_trick_phase(name, players, seed)
    if state is None or state._tp is None:
        return None
    tp = state._tp
    cards = sum(_core.cards_count(tp.hand(p)) for p in range(players))
    end = tp.copy()
    end.playout(_core.Rng(seed))
    cards -= sum(_core.cards_count(end.hand(p)) for p in range(players))
    t0 = time.perf_counter_ns()
    state.playouts(playouts, seed=seed)
    return (time.perf_counter_ns() - t0) / (playouts * max(cards, 1))


def worlds_and_search(name: str, players: int, worlds: int, budget_ms: float, seed: int = 1
                      ) -> tuple[float, float, int] | None:
    """At the first trick phase of a random game: ns per world drawn for the seat to move
    (``GameState.worlds``), and ns per rollout and rollouts in one PIMC search of ``budget_ms``
    (trickcore.search: a world per round, every legal card rolled out to the deal's end)."""
    from trickcore.search import search
    state = game_state_in_trick_phase(name, players, seed)
    if state is None:
        return None
    seat = state.current_player()
    t0 = time.perf_counter_ns()
    for _world in state.worlds(seat, worlds, seed=seed):
        pass
    per_world = (time.perf_counter_ns() - t0) / worlds
    result = search(state, seat, random.Random(seed), budget_ms)
    return per_world, result.elapsed_ms * 1e6 / max(result.total_rollouts, 1), result.total_rollouts


# ---- the report -------------------------------------------------------------------
def best(fn: Callable[[], float], repeat: int) -> float:
    return min(fn() for _ in range(repeat))


#: Rounds per ``--repeat`` of the figures measured in alternation: the full-game rows, and the
#: natural loop with its interpreter limit (_Run.full_games says why there are more).
ROUNDS_PER_REPEAT = 3


class _Run:
    """One ``trickcore bench`` run: the floor is re-measured before every figure (noise on a
    shared machine hits both alike) and every figure is the best of ``repeat`` (the figures
    measured in alternation: of ``ROUNDS_PER_REPEAT`` times as many rounds)."""

    def __init__(self, quick: bool, repeat: int, progress: Callable[[str], None] | None) -> None:
        self.scale = 0.2 if quick else 1.0
        self.quick, self.repeat, self.progress = quick, repeat, progress
        self.n_deals = int(20000 * self.scale)
        self.floors: list[float] = []
        self.rows: list[tuple[str, float, str, dict[str, Any]]] = []

    def say(self, message: str) -> None:
        if self.progress:
            self.progress(message)

    def floor(self) -> float:
        value = c_loops.floor(self.n_deals)[0]
        self.floors.append(value)
        return value

    def best(self, measure: Callable[[], float]) -> float:
        """The best of ``repeat`` runs of ``measure``, each right after a floor measurement."""
        return best(lambda: (self.floor(), measure())[1], self.repeat)

    def add(self, name: str, ns: float, what: str, **extra: Any) -> None:
        self.rows.append((name, ns, what, extra))

    def core(self) -> None:
        self.say("floor and core playout (C)")
        for _ in range(self.repeat):
            self.floor()
        scale = self.scale
        self.add("core_playout_reference_c", self.best(lambda: c_loops.core_reference(self.n_deals)[0]),
                 "the core's generic random playout of the reference game, in C")
        self.add("core_legal_c", self.best(lambda: c_loops.core_legal(int(2_000_000 * scale))[0]),
                 "one legal-move generation call (tc_legal), in C; per call")
        self.add("core_resolve_c", self.best(lambda: c_loops.core_resolve(int(1_000_000 * scale))[0]),
                 "trick resolution (tc_trick_add + winner), in C; per card")

    def binding(self) -> None:
        self.say("Python binding calls")
        calls = int(50_000 * self.scale)
        pairs = []
        for _ in range(self.repeat):
            self.floor()
            pairs.append(python_trickphase_calls(calls))
        self.add("binding_legal_python", min(lg for lg, _ in pairs), "TrickPhase.moves() from Python; per call")
        self.add("binding_resolve_python", self.best(lambda: python_resolve_calls(int(20_000 * self.scale))),
                 "_core.resolve_trick() of a full 4-card trick from Python (one-off API); per call")
        self.add("binding_play_python", min(pl for _, pl in pairs),
                 "TrickPhase: moves(), random pick, play() from Python; per card")
        self.add("trickphase_limit_python", self.best(lambda: python_trickphase_limit(int(200_000 * self.scale))),
                 "interpreter limit of the row above: the same loop over no-op methods and an existing tuple; "
                 "per card")

    def interface(self) -> None:
        self.say("reference game driven from Python through the game interface")
        self.add("interface_play_reference_python", self.best(lambda: python_driven_reference(int(400 * self.scale))),
                 "reference game through the game interface: legal_actions, random pick, apply_action; per card")
        # The natural loop and its interpreter limit in alternation, as many rounds as the full-game
        # rows have: their ratio is a goal, and a slow spell of the machine then meets both.
        limit, natural = [], []
        for _ in range(ROUNDS_PER_REPEAT * self.repeat):
            self.floor()
            limit.append(python_limit(int(200_000 * self.scale)))
            natural.append(natural_loop_reference(int(400 * self.scale)))
        self.add("python_limit", min(limit),
                 "interpreter limit: the natural loop over no-op methods and an existing tuple; per card")
        self.add("natural_loop_reference_python", min(natural),
                 "while not s.is_terminal(): s.apply_action(rng.choice(s.legal_actions())), "
                 "reference game, deal included; per card")
        calls = [interface_calls(int(100_000 * self.scale)) for _ in range(self.repeat)]
        self.floor()
        self.add("interface_legal_actions_python", min(c["legal"] for c in calls),
                 "legal_actions() within one decision (cached tuple); per call")
        self.add("python_noop_method", min(c["noop"] for c in calls),
                 "a no-op method call on a Python object (the yardstick of the call above); per call")
        self.add("interface_legal_apply_python", min(c["legal_apply"] for c in calls),
                 "legal_actions() + apply_action(int) per card, reference game")
        self.add("interface_apply_action_python", min(c["apply"] for c in calls),
                 "apply_action(int) alone, a card play of the reference game; per call")
        self.add("python_noop_method_arg", min(c["noop_arg"] for c in calls),
                 "a no-op method call with one argument on a Python object (the yardstick of the call "
                 "above); per call")

    def game(self, name: str, title: str, players: int) -> None:
        self.say(f"{name} {players}p")
        tp = game_trick_phase(name, players)
        if tp is not None:
            self.add(f"{name}_{players}p_playout_c", self.best(lambda: c_playouts(tp, int(2000 * self.scale))),
                     f"{title}, {players} players: random trick-phase playout in C; per card")
        n_playouts = int(2000 * self.scale)
        ns = self.best(lambda: state_playouts(name, players, n_playouts) or 0.0)
        if ns:
            self.add(f"{name}_{players}p_playouts_python", ns,
                     f"{title}, {players} players: state.playouts({n_playouts}) from Python, all in C; per card")
        runs = [game_copies(name, players, int(20_000 * self.scale)) for _ in range(self.repeat)]
        copies = None if runs[0] is None else {k: min(r[k] for r in runs if r) for k in runs[0]}
        if copies is not None:
            self.add(f"{name}_{players}p_clone_python", copies["clone"],
                     f"{title}, {players} players: clone() at the first trick phase; per copy")
            self.add(f"{name}_{players}p_pickle_python", copies["pickle"],
                     f"{title}, {players} players: pickle.dumps + loads at the first trick phase; per round trip")
        budget = 100 * self.scale
        searches = [worlds_and_search(name, players, int(200 * self.scale), budget) for _ in range(self.repeat)]
        if searches[0] is not None:
            done = [s for s in searches if s is not None]
            self.floor()
            self.add(f"{name}_{players}p_world_python", min(s[0] for s in done),
                     f"{title}, {players} players: one world for the seat to move (state.worlds) at the first "
                     "trick phase; per world")
            fastest = min(done, key=lambda s: s[1])
            self.add(f"{name}_{players}p_search_rollout_python", fastest[1],
                     f"{title}, {players} players: PIMC search (trickcore.search) of {budget:.0f} ms at the first "
                     "trick phase; per rollout to the deal's end", rollouts=fastest[2])

    def full_games(self, configs: list[tuple[str, str, int]]) -> None:
        """Full random games of every (game, title, players), measured round-robin: each round
        plays every configuration once, so a slow spell of the shared machine costs each of them
        one round instead of every run of one of them.  Rounds are short (20 games of each), and
        on a shared machine one configuration's time moves by a factor of 2-3 from round to
        round, so there are ``ROUNDS_PER_REPEAT`` times ``repeat`` of them: the fastest
        round, like the floor (the fastest of its measurements, one before each round), then
        comes from a moment when the machine was not taken by others."""
        self.say("full random games, every game and player count in turn")
        n_games = 4 if self.quick else 20
        for name, _title, players in configs:
            game_random_full_games(name, players, 1)   # warm-up: the game module's first import is not play
        fastest: dict[tuple[str, int], dict[str, float]] = {}
        for _ in range(ROUNDS_PER_REPEAT * self.repeat):
            self.floor()
            for name, _title, players in configs:
                stats = game_random_full_games(name, players, n_games)
                kept = fastest.get((name, players))
                if kept is None or stats["ns_per_action"] < kept["ns_per_action"]:
                    fastest[name, players] = stats
        for name, title, players in configs:
            stats = fastest[name, players]
            self.add(f"{name}_{players}p_full_games_python", stats["ns_per_action"],
                     f"{title}, {players} players: full random games through the interface; per action "
                     "(all decisions)", games_per_s=round(stats["games_per_s"], 2),
                     ns_per_card=round(stats["ns"] / max(card_plays(name, players, n_games), 1), 1))

    def results(self) -> list[Result]:
        floor_ns = min(self.floors)
        results = [Result("floor_c", floor_ns, 1.0, "bench/floor.c: hand-written 64-bit-mask loop, reference game")]
        for _name, _ns, _what, extra in self.rows:
            if "ns_per_card" in extra:   # a full-game row: the same time per card play, as a ratio too
                extra["card_ratio"] = round(extra["ns_per_card"] / floor_ns, 2)
        return results + [Result(name, ns, ns / floor_ns, what, extra) for name, ns, what, extra in self.rows]


def format_results(results: list[Result], width: int | None = None) -> str:
    """The table ``trickcore bench`` prints: a row per figure (its name, ns, the ratio to the floor
    and what it measures), fitted to ``width`` (trickcore.tables.render: on a narrow terminal the
    description goes under its row)."""
    rows = [[r.name, f"{r.ns_per_play:,.1f}", f"{r.ratio:,.2f}x",
             (f"{r.extra['games_per_s']:,.1f} games/s  " if "games_per_s" in r.extra else "")
             + (f"{r.extra['card_ratio']:,.2f}x per card play  " if "card_ratio" in r.extra else "") + r.what]
            for r in results]
    return tables.render(["benchmark", "ns", "vs floor", "what"], rows, right=(1, 2), width=width)


@contextlib.contextmanager
def one_cpu(enabled: bool = True) -> Iterator[int | None]:
    """Run the body on one CPU (Linux ``sched_setaffinity``): the last this process may use, or
    None where pinning is off or unsupported.  A loop the scheduler moves to another CPU starts
    there with cold caches, and the floor and the loop it is compared with may then run on
    different CPUs, so a ratio moves more from run to run (docs/benchmarks.md has figures).
    The process's CPU set is restored after."""
    if not enabled or not hasattr(os, "sched_setaffinity"):
        yield None
        return
    allowed = os.sched_getaffinity(0)
    cpu = max(allowed)
    os.sched_setaffinity(0, {cpu})
    try:
        yield cpu
    finally:
        os.sched_setaffinity(0, allowed)


def run(quick: bool = False, repeat: int = 5, games: bool = True, progress: Callable[[str], None] | None = None,
        pin: bool = True) -> list[Result]:
    """Run every benchmark: the core in C, the binding, the reference game through the
    interface and, with ``games``, every registered game at every player count.  With ``pin``,
    on one CPU (one_cpu)."""
    bench = _Run(quick, repeat, progress)
    with one_cpu(pin) as cpu:
        if cpu is not None:
            bench.say(f"pinned to CPU {cpu}")
        bench.core()
        bench.binding()
        bench.interface()
        if games:
            configs = [(info.name, info.title, players) for info in list_games() if info.name != "reference"
                       for players in info.players]
            for name, title, players in configs:
                bench.game(name, title, players)
            bench.full_games(configs)
    return bench.results()


#: OpenSpiel's trick-taking games that ``compare_openspiel`` drives, with what a full game holds.
OPENSPIEL_GAMES: tuple[tuple[str, dict[str, Any], str], ...] = (
    ("hearts", {}, "Hearts (pass phase included)"),
    ("skat", {}, "Skat (bidding and skat included)"),
    # played out: by default OpenSpiel scores a bridge deal by double-dummy analysis instead
    ("bridge", {"use_double_dummy_result": False}, "Bridge (auction and play)"),
)


def _openspiel_full_games(game: Any, games: int, rng: _core.Rng) -> float:
    """ns per action of ``games`` random full games of an OpenSpiel game (chance nodes resolved
    by the same pick and not counted)."""
    actions = 0
    t0 = time.perf_counter_ns()
    for _ in range(games):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[rng.below(len(outcomes))][0])
                continue
            legal = state.legal_actions()
            state.apply_action(legal[rng.below(len(legal))])
            actions += 1
    return (time.perf_counter_ns() - t0) / actions


def compare_openspiel(repeat: int = 3, games: int = 100) -> list[Result] | None:
    """The full-game loop of ``game_random_full_games`` over OpenSpiel's trick-taking games, each
    full game from its deal (chance nodes resolved by the same random pick, not counted as
    actions): per action, so it compares with the full-game rows' per-action figure.  None if
    open_spiel is not installed."""
    try:
        import pyspiel  # type: ignore
    except ImportError:
        return None
    rng = _core.Rng(1)
    results = []
    for name, params, what in OPENSPIEL_GAMES:
        game = pyspiel.load_game(name, params)
        ns = best(functools.partial(_openspiel_full_games, game, games, rng), repeat)
        floor_ns = min(c_loops.floor(20000)[0] for _ in range(repeat))
        results.append(Result(f"openspiel_{name}_full_games_python", ns, ns / floor_ns,
                              f"OpenSpiel {what}: full random games driven from Python; per action"))
    return results
