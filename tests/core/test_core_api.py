"""The Python binding's contract: card sets, the generator, decks, trick phases,
and clear errors for bad input (never a crash)."""

import pytest

from tests.core.decks import jupiter_deck, plain52, sticheln_deck
from trickcore import CoreError, _core


def test_card_set_helpers_span_two_words():
    s = (1 << 3) | (1 << 64) | (1 << 127)
    assert _core.cards_list(s) == [3, 64, 127]
    assert _core.cards_list(s, 256) == [259, 320, 383]          # each id plus an action offset
    assert _core.cards_list(0, 256) == []
    assert _core.cards_count(s) == 3
    assert _core.cards_nth(s, 1) == 64
    assert _core.cards_first(s) == 3 and _core.cards_last(s) == 127
    with pytest.raises(CoreError):
        _core.cards_count(1 << 128)
    with pytest.raises(CoreError):
        _core.cards_count(-1)


def test_cards_mask_is_the_inverse_of_cards_list():
    s = (1 << 3) | (1 << 64) | (1 << 127)
    assert _core.cards_mask([3, 64, 127]) == s
    assert _core.cards_mask((127, 3, 64, 3)) == s            # any order; a repeated id counts once
    assert _core.cards_mask(c for c in (3, 64, 127)) == s     # any iterable
    assert _core.cards_mask([]) == 0
    for m in (0, 1, (1 << 52) - 1, 0x5A5A << 40, s):
        assert _core.cards_mask(_core.cards_list(m)) == m
    for bad in ([128], [-1], [3, 1 << 40]):
        with pytest.raises(CoreError):
            _core.cards_mask(bad)
    with pytest.raises(TypeError):
        _core.cards_mask(["AS"])


def test_generator_is_pinned():
    """The generator is part of the API: these numbers must never change on any platform."""
    rng = _core.Rng(0)
    assert [rng.next() for _ in range(2)] == [0x99EC5F36CB75F2B4, 0xBF6E1F784956452A]
    rng = _core.Rng(42)
    assert [rng.below(52) for _ in range(8)] == PINNED_BELOW
    deck, _ = plain52()
    hands, rest = _core.Rng(7).deal(deck.all, 4, 13)
    assert deck.cards_text(hands[0]) == PINNED_HAND and rest == 0


def test_names_of_a_card_set():
    # Deck.names_of is the one-call form of [deck.names[c] for c in cards_list(mask)]; the
    # module indexes without bounds checks, so a card outside the deck must be refused.
    rng = _core.Rng(3)
    for deck, _ in (plain52(), sticheln_deck(), jupiter_deck()):
        n = deck.n_cards
        for _ in range(50):
            m = sum(1 << c for c in range(n) if rng.below(2))
            assert deck.names_of(m) == [deck.names[c] for c in _core.cards_list(m)]
            assert deck.cards_text(m) == " ".join(deck.names_of(m))
        assert deck.names_of(0) == [] and deck.names_of(1 << (n - 1)) == [deck.names[n - 1]]
        for outside in (1 << n, (1 << 127) | 1):
            with pytest.raises(CoreError, match="not in this deck"):
                deck.names_of(outside)
            with pytest.raises(CoreError, match="not in this deck"):
                deck.cards_text(outside)


PINNED_BELOW = [4, 19, 35, 48, 51, 40, 37, 44]
PINNED_HAND = "2C 2D 4D TD QD KD 2H 3H 4H JH 2S 5S 9S"


def test_generator_state_roundtrip_and_shuffle():
    a = _core.Rng(5)
    state = a.getstate()
    x = [a.next() for _ in range(3)]
    a.setstate(state)
    assert [a.next() for _ in range(3)] == x
    items = list(range(10))
    _core.Rng(3).shuffle(items)
    assert sorted(items) == list(range(10)) and items != list(range(10))
    with pytest.raises(CoreError):
        a.below(0)


def test_deck_notation_roundtrip():
    deck, cards = jupiter_deck()
    god = deck.card_id("Rgod")
    assert deck.move_text(god) == "Rgod=0" and deck.move_text(god | 128) == "Rgod=15"
    assert deck.parse_move("Rgod=15") == god | 128
    for bad in ("Rgod", "Rgod=7", "R5=0", "X9"):
        with pytest.raises(CoreError):
            deck.parse_move(bad)
    with pytest.raises(CoreError):
        deck.add("R5", 1, 5)                 # duplicate name
    with pytest.raises(CoreError):
        deck.add("Z1", 7, 1)                 # suit outside the deck
    with pytest.raises(CoreError):
        deck.name(200)


def test_deck_is_full_at_128_cards():
    deck = _core.Deck(1)
    for i in range(128):
        deck.add(f"c{i}", 0, i % 200)
    with pytest.raises(CoreError, match="deck full"):
        deck.add("one-too-many", 0, 1)


def test_trick_phase_errors_leave_state_unchanged():
    deck, cards = plain52()
    hands, _ = _core.Rng(1).deal(deck.all, 4, 13)
    tp = _core.TrickPhase(deck, 4, _core.FOLLOW_SUIT, _core.WIN_TRUMP, 0, hands, 0, 13)
    before = (tp.hand(0), tp.to_move, tp.current_trick())
    not_in_hand = _core.cards_first(hands[1])
    with pytest.raises(CoreError, match="not in the player's hand"):
        tp.play(not_in_hand)
    with pytest.raises(CoreError, match="out of range"):
        tp.play(60)
    with pytest.raises(CoreError, match="declaration"):
        tp.play(_core.cards_first(hands[0]) | 128)
    assert (tp.hand(0), tp.to_move, tp.current_trick()) == before
    tp.play(tp.moves()[0])
    follower_hand = tp.hand(1)
    illegal = [c for c in _core.cards_list(follower_hand) if not (tp.legal_cards() >> c) & 1]
    if illegal:
        with pytest.raises(CoreError, match="follow rule"):
            tp.play(illegal[0])


@pytest.mark.parametrize("bad", [
    dict(n_players=1), dict(n_players=9), dict(follow=7), dict(leader=4), dict(tricks=65),
])
def test_bad_trick_phase_arguments(bad):
    deck, _ = plain52()
    hands, _ = _core.Rng(1).deal(deck.all, 4, 13)
    args = dict(n_players=4, follow=_core.FOLLOW_SUIT, winner=_core.WIN_TRUMP, trump=0, leader=0, tricks=13)
    args.update(bad)
    h = hands[:args["n_players"]] if args["n_players"] <= 4 else hands + [0] * (args["n_players"] - 4)
    with pytest.raises(CoreError):
        _core.TrickPhase(deck, args["n_players"], args["follow"], args["winner"], args["trump"], h,
                         args["leader"], args["tricks"])


def test_hand_outside_deck_is_rejected():
    deck, _ = plain52()
    with pytest.raises(CoreError, match="outside the deck"):
        _core.TrickPhase(deck, 2, _core.FOLLOW_SUIT, _core.WIN_TRUMP, 0, [1 << 60, 1], 0, 1)


def test_playout_conserves_cards():
    deck, cards = sticheln_deck()
    for seed in range(20):
        hands, rest = _core.Rng(seed).deal(deck.all, 6, 15)
        tp = _core.TrickPhase(deck, 6, _core.FOLLOW_FREE, _core.WIN_OFFLEAD_HIGH, _core.NO_SUIT, hands, 0, 15)
        tp.playout(_core.Rng(seed))
        won = [tp.won(p) for p in range(6)]
        assert sum(tp.tricks_won()) == 15
        assert sum(bin(w).count("1") for w in won) == 90
        union = 0
        for w in won:
            assert union & w == 0
            union |= w
        assert union == sum(hands) and union & rest == 0


def test_reference_playouts_deterministic():
    assert _core.reference_playouts(50, 3) == _core.reference_playouts(50, 3)
    assert sum(_core.reference_playouts(50, 3)) == 50 * 13
