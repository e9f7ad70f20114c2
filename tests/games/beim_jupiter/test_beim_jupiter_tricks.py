"""Beim Jupiter trick play: the rules-text oracle against the C core on random positions of the
real decks (hypothesis), and perft from fixed positions of the trick phase."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from trickcore import _core
from trickcore.games import beim_jupiter as bj

from . import oracle
from .bj_helpers import info, new, play_random, to_decision

FOLLOW, WIN = _core.FOLLOW_SUIT, _core.WIN_TRUMP


def o_move(d: bj.DeckInfo, move: int) -> tuple[oracle.OCard, int | None]:
    c = oracle.card(d.names[move & 127])
    return c, (bj.GOD_DECL[move >> 7] if c.kind == "god" else None)


def o_text(m: tuple[str, int | None]) -> str:
    return m[0] if m[1] is None else f"{m[0]}={m[1]}"


@st.composite
def positions(draw, complete: bool):
    n = draw(st.sampled_from([3, 4, 5]))
    d = info(n)
    trump = draw(st.sampled_from([None, 0, 1, 2, 3]))
    cards = draw(st.permutations(list(range(d.n_cards))))
    k = n if complete else draw(st.integers(0, n - 1))
    trick_cards = cards[:k]
    if complete and all(d.is_lamb[c] for c in trick_cards):   # impossible in play
        trick_cards = [c for c in cards if not d.is_lamb[c]][:1] + trick_cards[1:]
    moves = [c | (draw(st.integers(0, 1)) << 7 if d.is_god[c] else 0) for c in trick_cards]
    hand_size = draw(st.integers(1, 13))
    hand = [c for c in cards if c not in trick_cards][:hand_size]
    leader = draw(st.integers(0, n - 1))
    return n, d, trump, leader, moves, hand


@settings(max_examples=300, deadline=None)
@given(positions(complete=False))
def test_legal_moves_match_the_oracle(pos):
    n, d, trump, leader, moves, hand = pos
    t = _core.NO_SUIT if trump is None else trump
    mask = sum(1 << c for c in hand)
    core = _core.legal_moves(d.deck, n, FOLLOW, WIN, t, leader, moves, mask)
    o_trump = None if trump is None else bj.SUITS[trump]
    expect = oracle.legal_moves([oracle.card(d.names[c]) for c in hand], [o_move(d, m) for m in moves], o_trump)
    assert sorted(d.move_text(m) for m in core) == sorted(o_text(m) for m in expect)
    assert len(core) == len(set(core)) == len(expect)
    cards = _core.legal_cards(d.deck, n, FOLLOW, WIN, t, leader, moves, mask)
    expect_cards = oracle.legal_cards([oracle.card(d.names[c]) for c in hand], [o_move(d, m) for m in moves], o_trump)
    assert sorted(d.names[c] for c in d.cards(cards)) == sorted(c.name for c in expect_cards)


@settings(max_examples=300, deadline=None)
@given(positions(complete=True))
def test_trick_winner_matches_the_oracle(pos):
    n, d, trump, leader, moves, _hand = pos
    t = _core.NO_SUIT if trump is None else trump
    res = _core.resolve_trick(d.deck, n, FOLLOW, WIN, t, leader, moves)
    o_trump = None if trump is None else bj.SUITS[trump]
    trick = [o_move(d, m) for m in moves]
    assert res["winner"] == (leader + oracle.winner_index(trick, o_trump)) % n
    assert res["points"] == oracle.trick_points(trick)


def test_every_vector_trick_agrees_with_the_oracle():
    """The tricks of BJ-09..BJ-18 through the oracle (the core side is in the vectors file)."""
    cases = [("R", ["B5", "JUNO", "JUP", "Rgod=15"], 1, 5), ("B", ["Rgod=0", "LAMB", "Y11", "G3"], 0, 14),
             ("B", ["Rgod=0", "LAMB", "Y11", "B1"], 3, 12), ("R", ["B11", "Rgod=0", "B10", "Y9"], 1, 30),
             ("G", ["LAMB", "Y4", "Y9", "G1"], 3, 14), (None, ["LAMB", "LAMB2", "B3", "B2"], 2, 5),
             (None, ["JUP", "JUNO", "R10", "B1"], 0, 11), (None, ["Y2", "B11", "Y1", "Rgod=15"], 0, 14),
             ("R", ["R3", "JUP", "Rgod=15", "R1"], 1, 4), ("R", ["B8", "B2", "Bgod=15", "R6"], 3, 16),
             ("Y", ["LAMB", "JUNO", "Y3", "JUP"], 1, 3)]
    for trump, texts, win, pts in cases:
        trick = []
        for t in texts:
            name, _, decl = t.partition("=")
            trick.append((oracle.card(name), int(decl) if decl else None))
        assert oracle.winner_index(trick, trump) == win and oracle.trick_points(trick) == pts, texts


# ---- perft -------------------------------------------------------------------------------------
def perft_state(state, depth: int) -> int:
    if depth == 0 or state.decision() != "play":
        return 1
    total = 0
    for a in state.legal_actions():
        child = state.clone()
        child.apply_action(a)
        total += perft_state(child, depth - 1)
    return total


def perft_oracle(n, trump, hands, leader, depth, trick=None, tricks_left=None):
    """Count play sequences with the oracle's legal moves and winner (hands: lists of names)."""
    trick = trick or []
    if depth == 0 or tricks_left == 0:
        return 1
    seat = (leader + len(trick)) % n
    hand = [oracle.card(c) for c in hands[seat]]
    total = 0
    for name, decl in sorted(oracle.legal_moves(hand, [(oracle.card(c), dd) for c, dd in trick], trump)):
        real = name if name != "LAMB" else min(c for c in hands[seat] if c.startswith("LAMB"))
        new_hands = [list(h) for h in hands]
        new_hands[seat].remove(real)
        t2 = trick + [(real, decl)]
        if len(t2) == n:
            w = (leader + oracle.winner_index([(oracle.card(c), dd) for c, dd in t2], trump)) % n
            total += perft_oracle(n, trump, new_hands, w, depth - 1, [], tricks_left - 1)
        else:
            total += perft_oracle(n, trump, new_hands, leader, depth - 1, t2, tricks_left)
    return total


def round8_position(n: int, seed: int):
    """Round 8's trick phase of a seeded random game after one trick of first-legal plays."""
    s = to_decision(n, seed, 8, "play")
    assert s.round == 8 and s._tp.n_tricks_done == 0 and s._tp.trick_len == 0
    for _ in range(n):
        s.apply_action(s.legal_actions()[0])
    return s


def test_perft_round8_three_players_pinned_and_cross_checked():
    s = round8_position(3, 29)
    d = info(3)
    assert [d.texts(s.hand(p)) for p in range(3)] == [
        ["Bgod", "R8", "G4", "JUNO"], ["Rgod", "G7", "G8", "JUP"], ["Y1", "Ggod", "LAMB", "LAMB"]]
    assert s.trump == 2 and s._tp.to_move == 2 and s._tp.tricks_left == 4
    count, leaves, tricks, points = s._tp.perft(-1)
    assert (count, leaves, tricks, points) == (3880, 3880, [6344, 6252, 6804], [28720, 49814, 99946])
    assert sum(tricks) == 5 * leaves       # the trick already played counts at every leaf
    assert [s._tp.perft(k)[0] for k in range(1, 5)] == [4, 8, 20, 67]
    assert perft_state(s, 99) == count
    o_hands = [[d.names[c] for c in d.cards(s.hand(p))] for p in range(3)]
    assert perft_oracle(3, "Y", o_hands, s._tp.to_move, 99, tricks_left=4) == count
    divide = s._tp.divide(-1)
    assert sum(divide.values()) == count and len(divide) == len(s.legal_actions())


def test_perft_round1_four_players_pinned_and_cross_checked():
    s = to_decision(4, 8, 1, "play")
    d = info(4)
    assert s._tp.n_tricks_done == 0 and s._tp.trick_len == 0 and s.trump == 1
    counts = [s._tp.perft(k)[0] for k in range(1, 6)]
    assert counts == [13, 59, 225, 672, 7814]
    assert perft_state(s, 4) == counts[3]
    o_hands = [[d.names[c] for c in d.cards(s.hand(p))] for p in range(4)]
    assert perft_oracle(4, "R", o_hands, s._tp.to_move, 5, tricks_left=12) == counts[4]


def test_perft_through_the_interface_equals_core_on_random_positions():
    for seed in range(3):
        n = 3 + seed
        s = new(n, seed)
        rng = random.Random(seed)
        play_random(s, rng, until=lambda st: st.round == 8 and st.decision() == "play"
                    and st._tp.n_tricks_done >= 3)
        assert perft_state(s, 99) == s._tp.perft(-1)[0]
