"""Perfect-information Monte Carlo (PIMC) search over sampled worlds, for any game.

At a decision of ``seat``: draw a world (``GameState.determinize``: every card the seat cannot
see placed, uniformly among the placements consistent with what it knows), play each legal
option in it, and play on to the end of the deal (the card play in C with a built-in policy,
``GameState.finish_trick_phase``; other decisions at random); an option's value is the
seat's score gain over the deal minus the mean gain of the other sides.  Repeat with fresh
worlds until the time budget is spent and choose the option with the best mean value.  Every
decision kind (bids, colour cards, trump choice, contracts, discards, card play) is searched the
same way, through the game interface.

A *guide* (``heuristic_guide``: the game's bundled heuristic) may play the rollouts' other
decisions instead of chance: bids, contracts and doublings played at random misjudge what an
option is worth.  Where the searched decision is itself not a card play, the guide then plays
the rollouts' cards too, card by card: whether a bid or a contract is made depends on how the
cards are played, and random card play says little about that (docs/search.md has the
measurements).

The search never reads the true state's hidden cards: it reads the state only through
``worlds``, which depend on the seat's knowledge alone (tests/test_worlds.py), and through the
legal options, which the seat sees.  docs/search.md has the figures and an example bot.
"""

from __future__ import annotations

import dataclasses
import random
import time
from collections.abc import Callable, Sequence

from trickcore.game import GameState
from trickcore.games import policy_of

__all__ = ["Guide", "SearchResult", "deal_value", "heuristic_guide", "search"]

#: Plays the decision of the seat to move in a rollout: ``guide(state, rng) -> action id``.
#: It may read only what that seat may see (``state.observation(state.current_player())``).
Guide = Callable[[GameState, random.Random], int]


@dataclasses.dataclass
class SearchResult:
    """What one search found: the chosen action and, per legal action, the mean value and the
    number of rollouts behind it."""

    action: int
    values: dict[int, float]
    rollouts: dict[int, int]
    worlds: int
    elapsed_ms: float

    @property
    def total_rollouts(self) -> int:
        return sum(self.rollouts.values())


def deal_value(before: Sequence[float], after: Sequence[float], seat: int,
               teams: Sequence[Sequence[int]] | None) -> float:
    """The seat's gain over the deal minus the mean gain of the other sides (a side is a team
    where the game has teams, else a seat): what a player of a multi-player game maximises."""
    gain = [a - b for a, b in zip(after, before)]
    sides = [list(t) for t in teams] if teams else [[q] for q in range(len(gain))]
    mine = next(side for side in sides if seat in side)
    others = [side for side in sides if side is not mine]
    if not others:
        return gain[seat]
    return gain[seat] - sum(gain[side[0]] for side in others) / len(others)


def heuristic_guide(game: str) -> Guide | None:
    """The game's registered heuristic policy (``GameInfo.policy``) as a rollout guide: it
    chooses from the observation of the seat to move, as the heuristic bot does.  None for a game
    without one."""
    choose = policy_of(game)
    if choose is None:
        return None

    def guide(state: GameState, rng: random.Random) -> int:
        legal = state.legal_actions()
        if len(legal) == 1:
            return legal[0]
        texts = [state.action_to_string(a) for a in legal]
        return state.string_to_action(choose(state.observation(state.current_player()), texts, rng))
    return guide


def _rollout(world: GameState, deal: int, rng: random.Random, policy: str, guide: Guide | None = None,
             guide_cards: bool = False) -> GameState:
    """Play ``world`` (modified in place) to the end of deal number ``deal``: each trick phase
    in C with the built-in ``policy`` (``finish_trick_phase``; with ``guide_cards``, the guide
    plays the cards instead), every other decision by ``guide`` or at random."""
    choice, legal, apply, deal_of = rng.choice, world.legal_actions, world.apply_action, world.deal_number
    while deal_of() == deal and not world.is_terminal():
        if not guide_cards and world.decision() == "play":
            try:
                world.finish_trick_phase(policy, rng.getrandbits(63))
                continue
            except ValueError:        # a trick phase the game plays card by card (a Belle to declare)
                pass
        apply(choice(legal()) if guide is None else guide(world, rng))
    return world


def search(state: GameState, seat: int, rng: random.Random, budget_ms: float,
           max_worlds: int = 10_000, rollouts_per_world: int = 1, policy: str = "random",
           guide: Guide | None = None) -> SearchResult:
    """PIMC at ``state``'s current decision for ``seat`` (the seat to move).

    Worlds are drawn one at a time and every legal action gets ``rollouts_per_world`` random
    rollouts in each, until ``budget_ms`` has passed (at least one world is always searched; a
    later world may be cut short, its options taken in random order) or ``max_worlds`` worlds
    are done.  ``SearchResult.rollouts`` tells how thin the estimate of each option is.  With one
    legal action the search returns at once.
    ``policy`` plays the cards of a rollout ("random" or "greedy": ``GameState.playouts``;
    random measured as strong or stronger in Sticheln and Hattrick, docs/search.md).  ``guide``
    (e.g. ``heuristic_guide(game)``) plays the rollouts' other decisions, and all of their
    decisions when the searched one is not a card play (module docstring)."""
    start = time.perf_counter()
    legal = list(state.legal_actions())
    if state.current_player() != seat:
        raise ValueError(f"seat {seat} is not to move (seat {state.current_player()} is)")
    totals = dict.fromkeys(legal, 0.0)
    counts = dict.fromkeys(legal, 0)
    if len(legal) == 1:
        return SearchResult(legal[0], totals, counts, 0, 0.0)
    deal = state.deal_number()
    teams = state.info.teams(state.num_players) if state.info.teams is not None else None
    deadline = start + budget_ms / 1000
    guide_cards = guide is not None and state.decision() != "play"
    worlds = 0
    # one model of what the seat cannot see, drawn from again and again (not rebuilt per world)
    out_of_time = False
    for world in state.worlds(seat, max_worlds, seed=rng.getrandbits(64)):
        before = world.scores()
        # In a random order, so that a world cut short by the clock favours no option.
        for action in rng.sample(legal, len(legal)) if worlds else legal:
            for _ in range(rollouts_per_world):
                trial = world.clone()
                trial.apply_action(action)
                _rollout(trial, deal, rng, policy, guide, guide_cards)
                totals[action] += deal_value(before, trial.scores(), seat, teams)
                counts[action] += 1
            # Past the deadline: stop, once every option has been tried (the first world is finished).
            if worlds and time.perf_counter() >= deadline:
                out_of_time = True
                break
        worlds += 1
        if out_of_time or time.perf_counter() >= deadline:
            break
    values = {a: totals[a] / counts[a] for a in legal}
    best = max(values.values())
    chosen = rng.choice([a for a in legal if values[a] == best])
    return SearchResult(chosen, values, counts, worlds, (time.perf_counter() - start) * 1000)
