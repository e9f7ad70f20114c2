"""The observation tensors built from the views: the tests' oracle for the compiled encoders.

A game's tensor is defined by what ``state.observation(seat)`` holds (docs/games/<game>.md,
"Tensor encoding").  The package has one encoder per game, which writes the tensor straight from
the state (``Encoding.state_tensor``, trickcore/encodings/_fast.pyx); here the same tensor is
built from the view dict alone, block by block, with the encoding's layout (its offsets, card
indices and decisions) and nothing else of it.  test_state_tensor.py compares the two bit for
bit.  This is the view-based fill the encodings themselves had before the compiled encoders
became the only ones (``Encoding.tensor`` and the games' ``_fill``), kept unchanged in what it
writes.

Every fill appends the indices of the ones to ``ones`` and the (index, value) pairs of the
numbers to ``at`` and ``values``; the numbers are written after the ones.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

import numpy as np

from trickcore.encodings.base import CardEncoding
from trickcore.games import hattrick as ht
from trickcore.games import klaberjass as kj
from trickcore.games import reference as ref
from trickcore.games import squint as sq
from trickcore.games.beim_jupiter.encoding import BID_SLOTS, TRUMPS, _bid_slot
from trickcore.games.hattrick.encoding import PLAY_KINDS
from trickcore.games.klaberjass.encoding import CALL_ROUNDS, CALLS
from trickcore.games.squint.encoding import KINDS
from trickcore.games.sticheln import FLAGS
from trickcore.games.sticheln.encoding import COLOURS

View = Mapping[str, Any]
Fill = Callable[[Any, View, list[int], list[int], list[float]], None]


def view_tensor(enc: CardEncoding, obs: View) -> np.ndarray:
    """The ``float32`` tensor of one view (``state.observation(seat)``) of ``enc``'s game,
    built from the dict alone."""
    ones: list[int] = []
    at: list[int] = []
    values: list[float] = []
    FILLS[enc.game](enc, obs, ones, at, values)
    out = np.zeros(enc.size, np.float32)
    if ones:
        out[ones] = 1.0
    if at:
        out[at] = values
    return out


# ---- the blocks every game shares (CardEncoding._common_layout) -----------------------------------
def _common(enc: Any, obs: View, ones: list[int], at: list[int], values: list[float],
            trick_key: str | None = "trick", tricks_key: str | None = "tricks") -> None:
    """``hand``, ``trick`` and ``trick_leader`` (from ``obs[trick_key]``), ``played`` (from the
    completed tricks ``obs[tricks_key]``), ``last_trick`` and its winner, ``to_move``,
    ``decision``, ``hand_sizes``, ``tricks_won`` and ``scores``.  A game whose tricks have other
    keys (Hattrick's double tricks) passes None and writes those blocks itself."""
    n, ci = enc.players, enc.card_index
    me = obs["seat"]
    for name in obs.get("hand") or ():
        ones.append(enc.o_hand + ci[name])
    trick = obs.get(trick_key) if trick_key else None
    if trick:
        _trick_cards(enc, trick, enc.o_trick, me, ones)
        ones.append(enc.o_leader + (trick["leader"] - me) % n)
    tricks = obs.get(tricks_key) if tricks_key else None
    for t in tricks or ():
        _trick_cards(enc, t, enc.o_played, me, ones)
    last = obs.get("last_trick")
    if last:
        _trick_cards(enc, last, enc.o_last, me, ones)
        ones.append(enc.o_last_winner + (last["winner"] - me) % n)
    mover = obs.get("to_move", -1)
    if mover is not None and mover >= 0:
        ones.append(enc.o_to_move + (mover - me) % n)
    decisions = list(enc.DECISIONS)
    decision = obs.get("decision", "")
    if decision in decisions:
        ones.append(enc.o_decision + decisions.index(decision))
    _numbers(enc, enc.o_sizes, obs.get("hand_sizes"), me, at, values)
    _numbers(enc, enc.o_won, obs.get("tricks_won"), me, at, values)
    _numbers(enc, enc.o_scores, obs.get("scores"), me, at, values)


def _trick_cards(enc: Any, trick: View, offset: int, me: int, ones: list[int]) -> None:
    """A trick's cards by the relative seat that played them (rows of C)."""
    n, c, ci = enc.players, enc.n_cards, enc.card_index
    lead = trick["leader"] - me
    for i, name in enumerate(trick["cards"]):
        ones.append(offset + (lead + i) % n * c + ci[name])


def _numbers(enc: Any, offset: int, numbers: Sequence[float] | None, me: int,
             at: list[int], values: list[float]) -> None:
    """Per-seat numbers, rotated so that index 0 is the observer (zeros left out)."""
    if not numbers:
        return
    n = enc.players
    for s, v in enumerate(numbers):
        if v:
            at.append(offset + (s - me) % n)
            values.append(float(v))


def _seat(enc: Any, offset: int, seat: int | None, me: int, ones: list[int]) -> None:
    """A one-hot relative seat (nothing for None or a negative seat)."""
    if seat is not None and seat >= 0:
        ones.append(offset + (seat - me) % enc.players)


def _card_set(enc: Any, offset: int, names: Iterable[str] | None, ones: list[int]) -> None:
    for name in names or ():
        ones.append(offset + enc.card_index[name])


# ---- the games ------------------------------------------------------------------------------------
def _reference(enc: Any, obs: View, ones: list[int], at: list[int], values: list[float]) -> None:
    _common(enc, obs, ones, at, values)
    ones.append(enc.o_trump + ref.SUITS.index(obs["trump"]))


def _beim_jupiter(enc: Any, obs: View, ones: list[int], at: list[int], values: list[float]) -> None:
    _common(enc, obs, ones, at, values)
    n, c, ci = enc.players, enc.n_cards, enc.card_index
    me = obs["seat"]
    lambs = obs["hand"].count("LAMB")
    if lambs:
        at.append(enc.o_lambs)
        values.append(float(lambs))
    trick = obs["trick"]
    if trick:
        lead = trick["leader"] - me
        for i, name in enumerate(trick["cards"]):
            if name.endswith("=15"):
                ones.append(enc.o_god + (lead + i) % n)
    ones.append(enc.o_round + obs["round"] - 1)
    at.append(enc.o_t)
    values.append(float(obs["tricks_this_round"]))
    _seat(enc, enc.o_dealer, obs["dealer"], me, ones)
    _seat(enc, enc.o_start, obs["start_player"], me, ones)
    for s, name in enumerate(obs["colour_cards"]):
        if name is not None:
            ones.append(enc.o_colour + (s - me) % n * c + ci[name])
    for s, chosen in enumerate(obs["colour_chosen"]):
        if chosen:
            ones.append(enc.o_chosen + (s - me) % n)
    trump = obs["trump"]
    if trump is not None:
        ones.append(enc.o_trump + TRUMPS.index(trump))
    for s, bid in enumerate(obs["bids"]):
        if bid is not None:
            ones.append(enc.o_bids + (s - me) % n * BID_SLOTS + _bid_slot(bid))
    counts: dict[int, float] = {}
    for row in obs["table"]:
        t = row["count"] - 1
        for entry in row["cards"]:
            ones.append(enc.o_table + t * c + ci[entry["card"]])
            rel = (entry["owner"] - me) % n
            key = enc.o_table_owner + t * n + rel
            counts[key] = counts.get(key, 0.0) + 1.0
            if entry["locked"]:
                key = enc.o_table_locked + t * n + rel
                counts[key] = counts.get(key, 0.0) + 1.0
    at.extend(counts)
    values.extend(counts.values())
    for s, cards in enumerate(obs["victory_cards"]):
        base = enc.o_victory + (s - me) % n * c
        for name in cards:
            ones.append(base + ci[name])
    for s, used in enumerate(obs["zero_used"]):
        if used:
            ones.append(enc.o_zero + (s - me) % n)
    _card_set(enc, enc.o_removed, obs["removed_cards"], ones)
    _numbers(enc, enc.o_points, obs["trick_points"], me, at, values)


def _hattrick(enc: Any, obs: View, ones: list[int], at: list[int], values: list[float]) -> None:
    _common(enc, obs, ones, at, values, trick_key=None, tricks_key=None)   # double tricks: below
    n, c, ci = enc.players, enc.n_cards, enc.card_index
    me = obs["seat"]
    cur = obs["double_trick"]
    if cur:
        _seat(enc, enc.o_leader, cur["leader"], me, ones)
        for play in cur["plays"]:
            rel = (play["seat"] - me) % n
            ones.append(enc.o_trick + rel * c + ci[play["card"]])
            ones.append(enc.o_kind + rel * 3 + PLAY_KINDS.index(play["action"]))
        for i, col in enumerate(cur["open"]):
            ones.append(enc.o_open + i * 3 + ht.COLOURS.index(col))
    won: dict[int, float] = {}
    for t in obs["double_tricks"]:
        for play in t["plays"]:
            ones.append(enc.o_played + (play["seat"] - me) % n * c + ci[play["card"]])
        for winner in t["winners"].values():
            key = enc.o_won + (winner - me) % n
            won[key] = won.get(key, 0.0) + 1.0
    at.extend(won)
    values.extend(won.values())
    last = obs["last_trick"]
    if last:
        _seat(enc, enc.o_winner2, last.get("winner2"), me, ones)
    at += (enc.o_game, enc.o_game + 1)
    values += (float(obs["game_number"]), float(obs["games"]))
    _seat(enc, enc.o_dealer, obs["dealer"], me, ones)
    _seat(enc, enc.o_first, obs["leader"], me, ones)
    for s, stacks in enumerate(obs["stacks"]):
        base = enc.o_stacks + (s - me) % n * c
        for cards in stacks.values():
            for name in cards:
                ones.append(base + ci[name])
    for s, cards in enumerate(obs["passed"]):
        base = enc.o_passed + (s - me) % n * c
        for name in cards:
            ones.append(base + ci[name])
    _numbers(enc, enc.o_current, obs.get("current_scores"), me, at, values)


def _sticheln(enc: Any, obs: View, ones: list[int], at: list[int], values: list[float]) -> None:
    _common(enc, obs, ones, at, values)
    n, c, ci = enc.players, enc.n_cards, enc.card_index
    me = obs["seat"]
    at += (enc.o_round, enc.o_round + 1)
    values += (float(obs["round"]), float(obs["rounds"]))
    flags = obs["flags"]
    for i, f in enumerate(FLAGS):
        if flags[f]:
            ones.append(enc.o_flags + i)
    _seat(enc, enc.o_dealer, obs["dealer"], me, ones)
    _seat(enc, enc.o_first, obs["leader"], me, ones)
    for s, cards in enumerate(obs["laid_out"]):
        if cards:
            base = enc.o_laid + (s - me) % n * c
            for name in cards:
                ones.append(base + ci[name])
    _numbers(enc, enc.o_laid_n, obs["laid_out_count"], me, at, values)
    for s, chosen in enumerate(obs["chosen"]):
        if chosen:
            ones.append(enc.o_chosen + (s - me) % n)
    for s, colours in enumerate(obs["special_colours"]):
        if colours:
            base = enc.o_special + (s - me) % n * 6
            for col in colours:
                ones.append(base + COLOURS.index(col))
    choice = obs["colour_choice"]
    if choice and choice[me]:
        for col in choice[me]:
            ones.append(enc.o_choice + COLOURS.index(col))
    for s, cards in enumerate(obs["won"]):
        if cards:
            base = enc.o_won_cards + (s - me) % n * c
            for name in cards:
                ones.append(base + ci[name])


def _squint(enc: Any, obs: View, ones: list[int], at: list[int], values: list[float]) -> None:
    _common(enc, obs, ones, at, values)
    n, c, ci = enc.players, enc.n_cards, enc.card_index
    me = obs["seat"]
    at += (enc.o_deal, enc.o_deal + 1, enc.o_deal + 2, enc.o_mult)
    values += (float(obs["deal"]), float(obs["target_score"]), float(obs["deal_limit"]), float(obs["multiplier"]))
    _seat(enc, enc.o_dealer, obs["dealer"], me, ones)
    if obs["bid"] is not None:
        ones.append(enc.o_bid + ci[obs["bid"]])
    for s, chosen in enumerate(obs["bids_chosen"]):
        if chosen:
            ones.append(enc.o_bids_chosen + (s - me) % n)
    if obs["bids"] is not None:
        for s, name in enumerate(obs["bids"]):
            ones.append(enc.o_bids + (s - me) % n * c + ci[name])
    contract = obs["contract"]
    if contract is not None:
        ones.append(enc.o_kind + KINDS.index(contract["kind"]))
        for s in contract["contractors"]:
            _seat(enc, enc.o_contractors, s, me, ones)
        if contract["trump"] is not None:
            ones.append(enc.o_trump + sq.SUITS.index(contract["trump"]))
        if contract["penalty"] is not None:
            ones.append(enc.o_penalty + sq.SUITS.index(contract["penalty"]))
        for s in contract.get("aces", ()):
            _seat(enc, enc.o_aces, s, me, ones)
        for s in contract.get("deuces", ()):
            _seat(enc, enc.o_deuces, s, me, ones)
        if "solo_trump" in contract:
            ones.append(enc.o_offer + sq.SUITS.index(contract["solo_trump"]))
            ones.append(enc.o_offer + 4 + sq.SUITS.index(contract["null_penalty"]))
    for d in obs["squint_decisions"]:
        ones.append(enc.o_squint + (d["seat"] - me) % n * 2 + (d["choice"] == "HAND"))
    _card_set(enc, enc.o_squint_cards, obs["squint_cards"], ones)
    _card_set(enc, enc.o_discards, obs["discards"], ones)
    for p in obs["passes"]:
        _seat(enc, enc.o_passes, p["seat"], me, ones)
    _card_set(enc, enc.o_passed, obs["passed"], ones)
    _card_set(enc, enc.o_received, obs["received"], ones)
    _card_set(enc, enc.o_null_discards, obs["null_discards"], ones)
    _numbers(enc, enc.o_clean, obs.get("clean_tricks"), me, at, values)


def _klaberjass(enc: Any, obs: View, ones: list[int], at: list[int], values: list[float]) -> None:
    _common(enc, obs, ones, at, values)
    n, c, ci = enc.players, enc.n_cards, enc.card_index
    me = obs["seat"]
    at += (enc.o_deal, enc.o_deal + 1)
    values += (float(obs["deal"]), float(obs["target"]))
    _seat(enc, enc.o_dealer, obs["dealer"], me, ones)
    _seat(enc, enc.o_forehand, obs["forehand"], me, ones)
    if "hand" not in obs:           # the match is over: nothing else is shown
        return
    if obs["packet"]:
        at.append(enc.o_packet)
        values.append(float(obs["packet"]))
    ones.append(enc.o_turned + ci[obs["turned"]])
    if obs["stack_top"] is not None:
        ones.append(enc.o_stack_top + ci[obs["stack_top"]])
    width = len(CALLS)
    for call in obs["calls"]:
        ones.append(enc.o_calls + (CALL_ROUNDS.index(call["round"]) * n + (call["seat"] - me) % n) * width
                    + CALLS.index(call["call"]))
    _seat(enc, enc.o_kleines, obs["kleines"], me, ones)
    if obs["trump"] is not None:
        ones.append(enc.o_trump + kj.SUITS.index(obs["trump"]))
    _seat(enc, enc.o_declarer, obs["declarer"], me, ones)
    ex = obs["exchange"]
    if ex is not None:
        _seat(enc, enc.o_exchange, ex["seat"], me, ones)
        if ex["exchanged"]:
            ones.append(enc.o_exchange + n)
    for m in obs["melds"]:
        rel = (m["seat"] - me) % n
        ones.append(enc.o_meld_calls + rel * 2)
        if m["declared"]:
            ones.append(enc.o_meld_calls + rel * 2 + 1)
        for meld in m["melds"]:
            for name in meld["cards"]:
                ones.append(enc.o_melds + rel * c + ci[name])
    for meld in obs.get("my_melds", ()):
        _card_set(enc, enc.o_my_melds, meld["cards"], ones)
    best = obs["best_meld"]
    if best is not None:
        _seat(enc, enc.o_best, best["seat"], me, ones)
        at.append(enc.o_best + n)
        values.append(float(best["value"]))
    _numbers(enc, enc.o_meld_points, obs["meld_points"], me, at, values)
    for d in obs["doubling"]:
        if d["call"] != "pass":
            ones.append(enc.o_doubling + (d["seat"] - me) % n * 2 + (d["call"] == "re"))
    at.append(enc.o_mult)
    values.append(float(obs["multiplier"]))
    belle = obs["belle"]
    if belle is not None:
        ones.append(enc.o_belle + (belle["seat"] - me) % n * c + ci[belle["card"]])
    _numbers(enc, enc.o_points, obs["points_won"], me, at, values)


#: The fill of every game, by the encoding's ``game``.
FILLS: dict[str, Fill] = {
    "reference": _reference,
    "beim-jupiter": _beim_jupiter,
    "hattrick": _hattrick,
    "sticheln": _sticheln,
    "squint": _squint,
    "klaberjass": _klaberjass,
}
