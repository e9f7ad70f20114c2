"""Klaberjass trick play (docs/rules/klaberjass.md §7.2, §7.3) through the C core: the trick
examples of the rules page (§13), the oracle written from the rules text against the core on
random positions, and perft."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from trickcore import _core
from trickcore.games import klaberjass as kj

from . import oracle
from .helpers import cards, make_order, new_state, play

OVER, WIN = _core.FOLLOW_OVERTRUMP, _core.WIN_TRUMP


def core_legal(trump: str, leader: int, trick: str, hand: str, n: int = 4) -> set[str]:
    t = kj.SUITS.index(trump)
    mask = _core.legal_cards(kj.DECKS[t], n, OVER, WIN, t, leader, cards(trick), kj.mask_of(cards(hand)))
    return set(kj.names(mask))


def check_legal(trump: str, leader: int, trick: str, hand: str, expected: str, n: int = 4) -> None:
    got = core_legal(trump, leader, trick, hand, n)
    assert got == set(expected.split()), (got, expected)
    assert oracle.legal(hand.split(), trick.split(), trump) == set(expected.split())


def resolve(trump: str, leader: int, trick: str, n: int = 4) -> dict:
    t = kj.SUITS.index(trump)
    return _core.resolve_trick(kj.DECKS[t], n, OVER, WIN, t, leader, cards(trick))


# ---- worked examples on trick play (docs/rules/klaberjass.md §13) ----------------------------
def test_KJ_08_trump_led_must_beat_it():
    check_legal("S", 1, "AS", "9S 7S AH 8D", "9S")


def test_KJ_09_trump_led_cannot_beat_it():
    check_legal("S", 1, "JS", "9S 7S AH", "9S 7S")


def test_KJ_10_trump_led_must_beat_partners_card():
    check_legal("H", 0, "AH 7C", "9H 7H AS", "9H")


def test_KJ_11_plain_suit_led_follow_no_trumping():
    check_legal("S", 1, "KH 8S", "7H AH JS", "7H AH")
    for card in ("7H", "AH"):
        for last in ("9H", "QC"):
            assert resolve("S", 1, f"KH 8S {card} {last}")["winner"] == 2


def test_KJ_12_void_must_trump_though_partner_wins():
    check_legal("D", 0, "AC 7C", "7D AD TH 8S", "7D AD")


def test_KJ_13_void_must_overtrump():
    check_legal("D", 1, "TH KD", "QD TD 8C", "TD")


def test_KJ_14_void_cannot_overtrump_must_undertrump():
    check_legal("D", 1, "TH 9D", "QD 8D AC 7S", "QD 8D")


def test_KJ_15_void_must_overtrump_own_partner():
    check_legal("D", 0, "AS 8D 7S", "QD 7D AH", "QD")
    r = resolve("D", 0, "AS 8D 7S QD")
    assert r["winner"] == 3 and r["points"] == 14
    assert oracle.trick_points("AS 8D 7S QD".split(), "D") == 14


def test_KJ_16_trick_winner_and_points():
    check_legal("C", 0, "AH TH 7C", "8C KS", "8C")
    r = resolve("C", 0, "AH TH 7C 8C")
    assert r["winner"] == 3 and r["points"] == 21


def test_KJ_17_plain_suit_trick_with_discard():
    r = resolve("C", 1, "9D JD AH 7D")
    assert r["winner"] == 2 and r["points"] == 13
    assert oracle.winner_index("9D JD AH 7D".split(), "C") == 1


def test_KJ_30_two_players_trumping_in_two_card_trick():
    check_legal("H", 1, "AC", "8H QH TS", "8H QH", n=2)


def test_trump_order_and_points_in_the_decks():
    for t in range(4):
        d = kj.DECKS[t]
        order = [d.name(c) for c in sorted(range(32), key=lambda c: (d.suit(c), -(d.trump_strength(c)
                 if d.suit(c) == t else d.strength(c))))]
        for s in range(4):
            ranks = "".join(name[0] for name in order[8 * s:8 * s + 8])
            assert ranks == ("J9ATKQ87" if s == t else "ATKQJ987")
        assert sum(d.points(c) for c in range(32)) == 152


# ---- the oracle against the core ----------------------------------------------------------------
position = st.tuples(st.sampled_from([2, 3, 4]), st.integers(0, 3), st.permutations(list(range(32))),
                     st.integers(0, 3), st.integers(1, 9), st.integers(0, 3))


@settings(max_examples=800, deadline=None)
@given(position)
def test_oracle_legal_cards_match_core(pos):
    n, trump, perm, k, size, leader = pos
    k = min(k, n - 1)
    leader %= n
    trick = perm[:k]
    hand = perm[k:k + size]
    tname = kj.SUITS[trump]
    got = _core.legal_cards(kj.DECKS[trump], n, OVER, WIN, trump, leader, trick, kj.mask_of(hand))
    want = oracle.legal([kj.CARD_NAMES[c] for c in hand], [kj.CARD_NAMES[c] for c in trick], tname)
    assert set(kj.names(got)) == want
    moves = _core.legal_moves(kj.DECKS[trump], n, OVER, WIN, trump, leader, trick, kj.mask_of(hand))
    assert moves == sorted(kj.parse_card(c) for c in want)


@settings(max_examples=800, deadline=None)
@given(position)
def test_oracle_trick_winner_and_points_match_core(pos):
    n, trump, perm, _k, _size, leader = pos
    leader %= n
    for length in range(1, n + 1):
        trick = perm[:length]
        names = [kj.CARD_NAMES[c] for c in trick]
        r = _core.resolve_trick(kj.DECKS[trump], n, OVER, WIN, trump, leader, trick)
        assert r["winner"] == (leader + oracle.winner_index(names, kj.SUITS[trump])) % n
        assert r["points"] == oracle.trick_points(names, kj.SUITS[trump])


@settings(max_examples=300, deadline=None)
@given(st.sampled_from([2, 3, 4]), st.integers(0, 3), st.integers(0, 2**32 - 1))
def test_oracle_full_deals_match_trick_phase(n, trump, seed):
    """Play whole trick phases through TrickPhase with random legal cards; every legal set,
    winner and point count equals the oracle's."""
    rng = random.Random(seed)
    deck = list(range(32))
    rng.shuffle(deck)
    size = 8 if n == 4 else 9
    hands = [deck[i * size:(i + 1) * size] for i in range(n)]
    tp = _core.TrickPhase(kj.DECKS[trump], n, OVER, WIN, trump, [kj.mask_of(h) for h in hands], 0, size)
    tname = kj.SUITS[trump]
    pts = [0] * n
    while not tp.over:
        seat = tp.to_move
        leader, moves, _led, _open = tp.current_trick()
        names = [kj.CARD_NAMES[m] for m in moves]
        legal = oracle.legal(kj.names(tp.hand(seat)), names, tname)
        assert set(kj.names(tp.legal_cards())) == legal
        card = rng.choice(sorted(legal))
        done = tp.play(kj.parse_card(card))
        if done:
            t = tp.tricks[-1]
            played = [kj.CARD_NAMES[m] for m in t[1]]
            w = (t[0] + oracle.winner_index(played, tname)) % n
            assert t[2] == w and t[5] == oracle.trick_points(played, tname)
            pts[w] += t[5]
    assert tp.points_won() == pts
    for s in range(n):
        assert sum(oracle.points(c, tname) for c in kj.names(tp.won(s))) == pts[s]
        # the deal's end scores each seat with points_won (side_points_of), as side_points would
        # with its won cards
        assert kj.mask_points(tp.won(s), trump) == pts[s]


# ---- perft -----------------------------------------------------------------------------------
def perft_position():
    """A fixed 4-player trick-phase position: dealer 0, seat 1 takes the turned ♠Q, nobody
    melds or doubles; no Belle is possible (trump ♠K and ♠Q in different hands)."""
    order = make_order(4, {1: "JS 9H AH TC 7D 8C KD 7H", 2: "AS KS 9C JH QD 8H AC 9D",
                           3: "TS 8S 7S AD JD 7C QH KC"}, dealer=0, turned="QS", seed=3)
    s = new_state(4, 0, order)
    play(s, "pass", "take")   # seat 1 passes, seat 2 takes: trump spades
    while s.decision() != "play":
        play(s, "pass")
    assert s._belle_holder is None and s._fast
    return s


def py_perft(state, depth: int) -> int:
    if depth == 0 or state.decision() != "play":
        return 1
    total = 0
    for a in state.legal_actions():
        child = state.clone()
        child.apply_action(a)
        total += py_perft(child, depth - 1)
    return total


PERFT = {1: 8, 2: 16, 3: 28, 4: 56, 5: 392, 6: 699, 7: 1201, 8: 2346}  # pinned, cross-checked below


def test_perft_pinned_and_cross_checked():
    s = perft_position()
    tp = s._tp
    hands = [kj.names(tp.hand(p)) for p in range(4)]
    for depth, count in PERFT.items():
        c, leaves, tricks, points = tp.perft(depth)
        assert c == count == leaves
        if depth <= 6:
            assert py_perft(s, depth) == count
        assert oracle.perft(hands, 1, "S", depth) == count
    div = tp.divide(3)
    assert sum(div.values()) == PERFT[3]


def test_perft_to_the_end_after_five_tricks():
    s = perft_position()
    rng = random.Random(11)
    while s._tp.n_tricks_done < 5:
        s.apply_action(rng.choice(s.legal_actions()))
    tp = s._tp
    c, leaves, tricks, points = tp.perft(-1)
    hands = [kj.names(tp.hand(p)) for p in range(4)]
    leader = tp.to_move
    assert c == PERFT_END == oracle.perft(hands, leader, "S", 99)
    assert py_perft(s, 99) == c
    # the sums run over all 8 tricks of each leaf: 8 tricks and 152 card points per leaf
    assert sum(tricks) == 8 * leaves and sum(points) == 152 * leaves


PERFT_END = 198
