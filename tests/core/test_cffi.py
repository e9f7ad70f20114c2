"""Two bindings of one C API: cffi (ABI mode, the shared library) and Cython give
identical answers; the cffi declarations stay in sync with the public header."""

import importlib
import re
import sys
from pathlib import Path

import pytest

from tests.core.decks import jupiter_deck, sticheln_deck
from trickcore import _core
from trickcore.cffi_binding import cards_to_int, cdef_text, int_to_cards, load

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def cffi_lib(c_build):
    return load(c_build / "libtrickcore.so")


def exported_functions(text: str) -> set[str]:
    """Names of the functions a header declares, without its static inline helpers."""
    text = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
    kept, skipping = [], False
    for line in text.splitlines():
        if line.startswith("static inline"):
            skipping = line.count("{") > line.count("}")     # a multi-line inline body follows
            continue
        if skipping:
            skipping = line != "}"
            continue
        kept.append(line)
    return set(re.findall(r"^[\w ]+?\**\s*\b(tc_\w+)\s*\(", "\n".join(kept), flags=re.M))


def test_cdef_declares_every_exported_function():
    header = (ROOT / "csrc/include/trickcore.h").read_text()
    assert exported_functions(header) - exported_functions(cdef_text()) == set()
    assert exported_functions(header) >= {"tc_legal", "tc_perft", "tc_play", "tc_playout", "tc_deal"}


def test_without_cffi_the_binding_names_its_extra(monkeypatch):
    """cffi is an optional dependency (the cffi extra): without it, importing the binding says how
    to get it."""
    monkeypatch.setitem(sys.modules, "cffi", None)          # import cffi fails as if not installed
    monkeypatch.delitem(sys.modules, "trickcore.cffi_binding")
    with pytest.raises(ImportError, match=r'pip install "trickcore\[cffi\]"'):
        importlib.import_module("trickcore.cffi_binding")


def test_version_and_errors(cffi_lib):
    ffi, lib = cffi_lib
    assert ffi.string(lib.tc_version()).decode() == _core.version()
    for code in range(0, -9, -1):
        assert ffi.string(lib.tc_strerror(code)).decode() == _core.strerror(code)


def test_same_seed_same_deal(cffi_lib):
    ffi, lib = cffi_lib
    deck, _ = sticheln_deck()
    for seed in (0, 1, 2**63 + 5):
        rng = ffi.new("tc_rng *")
        lib.tc_rng_seed(rng, seed)
        hands = ffi.new("tc_cards[8]")
        rest = ffi.new("tc_cards *")
        assert lib.tc_deal(rng, int_to_cards(ffi, deck.all), 7, 15, hands, rest) == 0
        py_hands, py_rest = _core.Rng(seed).deal(deck.all, 7, 15)
        assert [cards_to_int(hands[i]) for i in range(7)] == py_hands
        assert cards_to_int(rest[0]) == py_rest


def test_legal_moves_and_perft_agree(cffi_lib):
    ffi, lib = cffi_lib
    deck, cards = jupiter_deck()
    # Rebuild the same deck through the C API directly.
    d = ffi.new("tc_deck *")
    lib.tc_deck_init(d, 4)
    for c in cards:
        role = (1 if c.always else 0) | (2 if c.top_trump else 0) | (4 if c.declared else 0) | (8 if c.twin else 0)
        assert lib.tc_deck_add(d, -1 if c.suit is None else c.suit, c.rank, c.strength, c.trump_strength,
                               c.points, role) == c.id
    lib.tc_deck_set_decl(d, 0, 15)
    rng = _core.Rng(11)
    hands, _ = rng.deal(deck.all, 4, 4)
    rules = ffi.new("tc_rules *", {"n_players": 4, "follow": 1, "winner": 0, "trump": 2})
    state = ffi.new("tc_play_state *")
    chands = ffi.new("tc_cards[8]", [int_to_cards(ffi, h) for h in hands])
    assert lib.tc_play_init(state, d, rules, chands, 1, 4) == 0
    tp = _core.TrickPhase(deck, 4, _core.FOLLOW_SUIT, _core.WIN_TRUMP, 2, hands, 1, 4)
    stats = ffi.new("tc_perft_stats *")
    count = lib.tc_perft(d, rules, state, -1, stats)
    py = tp.perft()
    assert (count, stats.leaves, list(stats.tricks)[:4], list(stats.points)[:4]) == py
    out = ffi.new("uint16_t[256]")
    n = lib.tc_play_moves(d, rules, state, out)
    assert list(out)[:n] == tp.moves()
    # The same random playout from the same generator state.
    crng = ffi.new("tc_rng *")
    lib.tc_rng_seed(crng, 99)
    assert lib.tc_playout(d, rules, state, crng) == 0
    tp.playout(_core.Rng(99))
    assert list(state.tricks)[:4] == tp.tricks_won()
    assert [cards_to_int(state.won[i]) for i in range(4)] == [tp.won(i) for i in range(4)]


def test_bad_input_gives_codes_not_crashes(cffi_lib):
    ffi, lib = cffi_lib
    d = ffi.new("tc_deck *")
    lib.tc_reference_deck(d)
    assert lib.tc_deck_add(d, 9, 0, 0, 0, 0, 0) == lib.TC_E_SUIT         # bad suit
    rules = ffi.new("tc_rules *", {"n_players": 9, "follow": 1, "winner": 0, "trump": 0})
    state = ffi.new("tc_play_state *")
    hands = ffi.new("tc_cards[8]")
    assert lib.tc_play_init(state, d, rules, hands, 0, 13) == lib.TC_E_PLAYERS
    rules.n_players = 4
    assert lib.tc_play_init(state, d, rules, hands, 0, 1) == lib.TC_E_HANDS   # empty hands, one trick
    assert lib.tc_play_init(state, ffi.NULL, rules, hands, 0, 1) == lib.TC_E_ARG
    rng = ffi.new("tc_rng *")
    lib.tc_rng_seed(rng, 1)
    assert lib.tc_deal(rng, d.all, 4, 13, hands, ffi.NULL) == lib.TC_OK
    assert lib.tc_play_init(state, d, rules, hands, 0, 13) == lib.TC_OK
    assert lib.tc_play(d, rules, state, 127) == lib.TC_E_CARD
    assert lib.tc_play(d, rules, state, 5) == lib.TC_E_NOT_IN_HAND
    assert lib.tc_play(d, rules, state, 5 | 128) == lib.TC_E_DECL
