"""Helpers for the Beim Jupiter tests: move texts on the real decks, random play, invariants, and an
independent reference of the end-of-round distribution (written as the physical procedure of the
rulebook, not copied from the module)."""

from __future__ import annotations

import random

import trickcore
from trickcore import _core
from trickcore.games import beim_jupiter as bj

GAME = "beim-jupiter"


def info(n: int = 4) -> bj.DeckInfo:
    return bj.DECK_INFO[n]


def trump_index(t: str | None) -> int:
    """'R' -> 1; None / 'none' -> NO_SUIT."""
    return _core.NO_SUIT if t in (None, "none") else bj.SUITS.index(t)


def move_ids(n: int, texts: list[str]) -> list[int]:
    """Move ids of a trick's texts; the k-th LAMB in the list is the k-th lamb card."""
    d, out, lambs = info(n), [], 0
    for t in texts:
        if t == "LAMB":
            out.append(d.lambs[lambs])
            lambs += 1
        else:
            out.append(d.deck.parse_move(t))
    return out


def hand_mask(n: int, texts: list[str], avoid_lambs: int = 0) -> int:
    """Mask of a hand; its lambs are taken after the first ``avoid_lambs`` lamb cards."""
    d, m, lambs = info(n), 0, avoid_lambs
    for t in texts:
        if t == "LAMB":
            m |= 1 << d.lambs[lambs]
            lambs += 1
        else:
            m |= 1 << d.deck.card_id(t)
    return m


def legal_texts(n: int, trump, leader: int, trick: list[str], hand: list[str]) -> list[str]:
    d = info(n)
    lambs_in_trick = trick.count("LAMB")
    moves = _core.legal_moves(d.deck, n, _core.FOLLOW_SUIT, _core.WIN_TRUMP, trump_index(trump), leader,
                              move_ids(n, trick), hand_mask(n, hand, lambs_in_trick))
    return [d.move_text(m) for m in moves]


def resolve(n: int, trump, leader: int, trick: list[str]) -> dict:
    d = info(n)
    return _core.resolve_trick(d.deck, n, _core.FOLLOW_SUIT, _core.WIN_TRUMP, trump_index(trump), leader,
                               move_ids(n, trick))


def play_random(state, rng: random.Random, until=None, check=None):
    """Play uniformly random legal actions until ``until(state)`` or the end; ``check(state)`` after each."""
    while not state.is_terminal():
        if until is not None and until(state):
            return state
        state.apply_action(rng.choice(state.legal_actions()))
        if check is not None:
            check(state)
    return state


def new(n: int, seed: int, **options):
    return trickcore.new_game(GAME, n, options or None, seed)


def to_decision(n: int, seed: int, round_: int, kind: str, **options):
    """A state (random play from ``seed``) at the first ``kind`` decision of round ``round_``."""
    s = new(n, seed, **options)
    return play_random(s, random.Random(seed), until=lambda st: st.round == round_ and st.decision() == kind)


# ---- invariants -------------------------------------------------------------------------------
def played_this_round(state) -> int:
    tp = state._tp
    m = 0
    if state.phase in ("play", "over") and tp is not None:
        for trick in tp.tricks:
            for mv in trick[1]:
                m |= 1 << (mv & 127)
        if not tp.over:
            for mv in tp.current_trick()[1]:
                m |= 1 << (mv & 127)
    return m


def places(state) -> dict[str, int]:
    """Every place a card can be, as masks (rule 3.3: each card is in exactly one)."""
    n = state.num_players
    out = {f"hand{p}": state.hand(p) for p in range(n)}
    out["leftover"] = state.leftover
    front = 0
    for p in range(n):
        c = state.colour[p]
        if c is not None and (state.bids[p] is None or state.bids[p] == "ZERO"):
            front |= 1 << c
    out["in_front"] = front if state.phase != "over" else 0
    out["table"] = sum(1 << e[0] for T in state.table for e in state.table[T])
    out["victory"] = sum(1 << c for cards in state.victory for c in cards)
    out["removed"] = sum(1 << c for c in state.removed)
    out["played"] = played_this_round(state)
    return out


def check_invariants(state) -> None:
    n, d = state.num_players, info(state.num_players)
    pl = places(state)
    total = 0
    for name, m in pl.items():
        assert total & m == 0, f"card in two places ({name}): {d.texts(total & m)}"
        total |= m
    assert total == d.all, f"cards missing: {d.texts(d.all & ~total)}"
    # only number cards lie at trick-count cards or become victory cards (rule 3.4)
    assert (pl["table"] | pl["victory"] | pl["removed"]) & ~d.number_mask == 0
    assert all(1 <= T <= state.t for T in state.table if state.table[T])
    if state.phase != "over":
        r = state.round
        per = bj.dealt_per_player(r)
        assert state.t == 13 - r
        assert state.start == (state.dealer + 1) % n
        assert _core.cards_count(state.leftover) == bj.left_over(n, r)
        assert state.selected & ~(pl["table"] | pl["victory"] | pl["removed"] | pl["in_front"]) == 0
        if state.phase == "play":
            tp = state._tp
            assert sum(tp.tricks_won()) == tp.n_tricks_done
            assert sum(tp.points_won()) == sum(t[5] for t in tp.tricks)
            sizes = [_core.cards_count(state.hand(p)) for p in range(n)]
            left = state.t - tp.n_tricks_done
            leader = tp.current_trick()[0]
            for p in range(n):
                played = 1 if (p - leader) % n < tp.trick_len else 0
                assert sizes[p] == left - played
        else:
            chosen = [c is not None for c in state.colour]
            for p in range(n):
                assert _core.cards_count(state.hand(p)) == per - chosen[p]
                assert state.hand(p) & d.number_mask or chosen[p]
    assert state.scores() == [float(sum(d.value[c] for c in v)) for v in state.victory]


# ---- reference distribution (rules 7.2-8.1), written independently ------------------------------
def reference_round_end(n, start, t, table, bids, colour, tricks, points):
    """Physical procedure: markers, categories, claimants picking one after another.

    ``table``: {T: [card names]} with this round's cards; returns (gains per seat as card lists,
    removed cards, table after removal)."""
    val = lambda c: int(c[1:])  # noqa: E731
    suit = lambda c: "BRYG".index(c[0])  # noqa: E731
    lock_owner = {}                     # card -> seat whose marker lies on it
    bid_t = {}
    zero = set()
    for p, b in enumerate(bids):
        if b == "ZERO":
            zero.add(p)
            continue
        T = int(b.split("+")[0])
        bid_t[p] = T
        if b.endswith("+L"):
            lock_owner[colour[p]] = p
    category = {}
    for p in bid_t:
        if colour[p] in lock_owner:
            category[p] = "A" if tricks[p] == bid_t[p] else "C"
        else:
            category[p] = "B"
    for p in bid_t:                      # failed locks are lifted
        if category[p] == "C":
            del lock_owner[colour[p]]
    gains = [[] for _ in range(n)]
    removed = []
    for p in sorted(zero):
        if tricks[p] == 0:
            gains[p].append(colour[p])
        else:
            removed.append(colour[p])
    lying = {T: list(v) for T, v in table.items()}
    for T in range(1, max([t] + list(lying)) + 1):
        claim = [p for p in bid_t if tricks[p] == T]
        for cat in "ABC":
            group = [p for p in claim if category[p] == cat]
            seatorder = [(start + i) % n for i in range(n)]
            group.sort(key=lambda p: seatorder.index(p))
            group.sort(key=lambda p: points[p], reverse=True)   # stable: seat order breaks ties
            for p in group:
                options = [c for c in lying.get(T, []) if lock_owner.get(c, p) == p]
                if options:
                    top = max(val(c) for c in options)
                    best = [c for c in options if val(c) == top]
                    if cat == "A" and colour[p] in best:
                        pick = colour[p]
                    else:
                        pick = min(best, key=suit)
                    lying[T].remove(pick)
                    gains[p].append(pick)
                lock_owner.pop(colour[p], None) if cat == "A" else None
    removed += lying.pop(t, [])
    return gains, removed, {T: v for T, v in lying.items() if v}


def check_events_replay_scores(state) -> None:
    """Rebuild the whole match from the public event stream (as a bot would) and check every
    round's trick counts, trick points and distribution against the reference, and the scores."""
    n = state.num_players
    events, _ = state.events_for(0)
    table: dict[int, list[str]] = {}
    scores = [0] * n
    rounds = 0
    cur = None
    for ev in events:
        kind = ev["type"]
        if kind == "round_start":
            cur = {"start": ev["start_player"], "t": ev["tricks"], "bids": [None] * n, "k": [0] * n,
                   "pts": [0] * n, "colour": None, "tricks": 0}
            assert ev["tricks"] == 13 - ev["round"]
        elif kind == "reveal":
            cur["colour"] = ev["cards"]
        elif kind == "bid":
            cur["bids"][ev["seat"]] = ev["bid"]
            if ev["bid"] != "ZERO":
                table.setdefault(int(ev["bid"].split("+")[0]), []).append(cur["colour"][ev["seat"]])
        elif kind == "trick":
            cur["k"][ev["winner"]] += 1
            cur["pts"][ev["winner"]] += sum(int(c[1:]) for c in ev["cards"]
                                            if c[0] in "BRYG" and c[1:].isdigit())
            cur["tricks"] += 1
            assert len(ev["cards"]) == n
        elif kind == "round_end":
            rounds += 1
            assert cur["tricks"] == cur["t"] and sum(cur["k"]) == cur["t"]
            assert ev["tricks_won"] == cur["k"] and ev["trick_points"] == cur["pts"]
            gains, removed, after = reference_round_end(n, cur["start"], cur["t"], table, cur["bids"],
                                                        cur["colour"], cur["k"], cur["pts"])
            assert sorted(ev["removed"]) == sorted(removed)
            for p in range(n):
                assert sorted(c for q, _T, c in ev["picks"] if q == p) == sorted(
                    c for c in gains[p] if not (cur["bids"][p] == "ZERO"))
                scores[p] += sum(int(c[1:]) for c in gains[p])
                assert ev["gains"][p] == sum(int(c[1:]) for c in gains[p])
            table = after
            assert ev["scores"] == [float(s) for s in scores]
    assert rounds == (8 if state.is_terminal() else rounds)
    if state.is_terminal():
        assert state.scores() == [float(s) for s in scores]
        assert {T: sorted(v) for T, v in table.items()} == {
            T: sorted(info(n).names[e[0]] for e in es) for T, es in state.table.items() if es}
