"""Information (§10): for every seat and decision, the observation and the seat's events hold
nothing the seat may not know.  Method: replay the game with every card the seat cannot know
renamed by a random permutation (in the pack and in every action that names it), and check
that the seat's observation, events and legal actions are unchanged.  Within a deal whose
play has begun the permutation keeps suits (so following stays legal); hidden cards of past
deals (face-down discards, untaken squint cards: D-14) are permuted freely."""

from __future__ import annotations

import random

from tests.games.squint.util import bid_all, new_state, numeral_biased_action
from trickcore.games import new_game
from trickcore.games import squint as sq
from trickcore.games.squint import SquintState

OPTIONS = {"deal_limit": 2, "target_score": 0}


def known(state: SquintState, seat: int) -> set[int]:
    """Cards of the current deal whose place the seat may know (docs/rules/squint.md §10)."""
    k = set(sq.cards_of(state.dealt[seat]))
    if state.contract is not None:                      # the reveal
        k |= set(state.bids)
    k |= set(state.offer.get(seat, ()))                 # squint cards it picked up
    for _a, b, cards in state.passes:                   # cards passed to it
        if b == seat:
            k |= set(cards)
    if state.null_discards is not None:
        k |= set(state.null_discards)
    tp = state._play_tp
    if tp is not None:
        for t in tp.tricks:
            k |= {m & 127 for m in t[1]}
        k |= {m & 127 for m in tp.current_trick()[1]}
    return k


def perm(hidden: set[int], rng: random.Random, keep_suit: bool) -> dict[int, int]:
    pi = {c: c for c in range(52)}
    groups = [[c for c in sorted(hidden) if sq.card_suit(c) == s] for s in range(4)] if keep_suit \
        else [sorted(hidden)]
    for g in groups:
        shuffled = g[:]
        rng.shuffle(shuffled)
        pi.update(zip(g, shuffled))
    return pi


def map_action(a: int, pi: dict[int, int]) -> int:
    if a < 52:
        return pi[a]
    if sq.BID_BASE <= a < sq.BID_BASE + 52:
        return sq.BID_BASE + pi[a - sq.BID_BASE]
    if sq.DISCARD1_BASE <= a < sq.DISCARD1_BASE + 52:
        return sq.DISCARD1_BASE + pi[a - sq.DISCARD1_BASE]
    if a >= sq.PAIR_BASE:
        x, y = sq.pair_cards(a)
        return sq.pair_id(pi[x], pi[y])
    return a


def disguised(state: SquintState, seat: int, rng: random.Random) -> SquintState:
    """The same game with every card hidden from ``seat`` renamed."""
    actions = state.action_ids
    replayed = new_game("squint", 5, state.options, state.seed)
    plans: dict[int, dict[int, int]] = {}
    deal_of = []
    for a in actions:
        tp = replayed._play_tp
        if replayed.phase == "play" and tp.tricks_left == 1 and tp.trick_len == 4:
            # this card ends the deal: what stays hidden forever (D-14)
            in_hands = {c for s in range(5) for c in sq.cards_of(tp.hand(s))}
            hidden = set(range(52)) - known(replayed, seat) - in_hands
            plans[replayed.deal_no] = perm(hidden, rng, keep_suit=False)
        deal_of.append(replayed.deal_no)
        replayed.apply_action(a)
    if not state.is_terminal():
        hidden = set(range(52)) - known(state, seat)
        plans[state.deal_no] = perm(hidden, rng, keep_suit=state._play_tp is not None)
    overrides = {d: [pi[c] for c in state._deal_order(d)] for d, pi in plans.items()}
    other = SquintState(5, state.options, state.seed, _deal_overrides=overrides)
    for a, d in zip(actions, deal_of):
        other.apply_action(map_action(a, plans[d]) if d in plans else a)
    return other


def view(state: SquintState, seat: int):
    legal = state.legal_actions() if state.current_player() == seat else None
    return state.observation(seat), state.events_for(seat)[0], legal


def test_observations_hide_what_section_10_hides():
    rng = random.Random(2024)
    checked_kinds = set()
    changed_elsewhere = 0
    checks = 0
    for seed in range(36):
        state = new_game("squint", 5, OPTIONS, 7000 + seed)
        pick = random.Random(seed)
        while True:
            kind = state.decision()
            rare = kind in ("choice", "pass", "squint") or (kind == "discard")
            if state.is_terminal() or rare or pick.random() < 0.05:
                for seat in range(5):
                    other = disguised(state, seat, rng)
                    assert view(other, seat) == view(state, seat), (seed, kind, seat)
                    checks += 1
                    q = (seat + 1) % 5
                    if view(other, q)[0] != view(state, q)[0]:
                        changed_elsewhere += 1
                checked_kinds.add(kind)
            if state.is_terminal():
                break
            state.apply_action(numeral_biased_action(state, pick))
    assert checked_kinds == {"bid", "choice", "squint", "discard", "pass", "play", ""}
    assert changed_elsewhere > checks // 2   # the renaming really changes what others hold


def test_bids_stay_hidden_until_all_have_chosen():
    st = new_state(0, hands={1: ["AS"], 2: ["2H"], 3: ["KD"], 4: ["7C"], 0: ["9S"]})
    order = [1, 2, 3, 4, 0]
    bids = {1: "AS", 2: "2H", 3: "KD", 4: "7C", 0: "9S"}
    for i, seat in enumerate(order):
        st.apply_action(bids[seat], seat=seat)
        for s in range(5):
            obs = st.observation(s)
            done = i == 4
            assert obs["bids_chosen"] == [x in order[:i + 1] for x in range(5)]
            assert (obs["bids"] is not None) == done
            assert obs["bid"] == (bids[s] if s in order[:i + 1] else None)
            events = st.events_for(s)[0]
            for e in events:
                if e["type"] == "bid":
                    assert e["seat"] == s
    assert st.observation(3)["bids"] == ["9S", "AS", "2H", "KD", "7C"]
    assert st.observation(3)["contract"]["kind"] == "multiple"


def test_solo_squint_and_discards_are_private():
    st = new_state(0, hands={1: ["4H"], 2: ["JD"], 3: ["AC"], 4: ["8S"], 0: ["KS"]}, squint=("5C", "6C"),
                   options={"deal_limit": 1})
    bid_all(st, {1: "4H", 2: "JD", 3: "AC", 4: "8S", 0: "KS"})
    st.apply_action("TAKE", seat=3)
    assert sorted(st.observation(3)["squint_cards"]) == ["5C", "6C"]
    assert st.observation(3)["hand_sizes"][3] == 12
    for s in (0, 1, 2, 4):
        obs = st.observation(s)
        assert obs["squint_cards"] is None and obs["hand_sizes"][3] == 12
        assert obs["squint_decisions"] == [{"seat": 3, "choice": "TAKE"}]
    st.apply_action("6C+5C", seat=3)
    assert st.observation(3)["discards"] == ["5C", "6C"]
    for s in (0, 1, 2, 4):
        assert st.observation(s)["discards"] is None
        text = repr(st.events_for(s)[0])
        assert "5C" not in text and "6C" not in text
    # the end of the deal discloses nothing (D-14)
    while not st.is_terminal():
        st.apply_action(st.legal_actions()[0])
    for s in (0, 1, 2, 4):
        for text in (repr(st.observation(s)), repr(st.events_for(s)[0])):
            assert "6C" not in text and "5C" not in text
