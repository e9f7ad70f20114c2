"""What input can make the engine keep is bounded: the encodings of the configurations used last
(trickcore.encodings.ENCODINGS_KEPT) and the decks of the pickles loaded last
(trickcore._core.DECKS_KEPT), each the least recently used dropped first."""

from __future__ import annotations

import pickle

import pytest

from trickcore import _core


def test_loading_pickles_of_ever_new_decks_keeps_a_bounded_number():
    kept = []
    for k in range(_core.DECKS_KEPT * 3):
        deck = _core.Deck(2)
        deck.add(f"A{k}", 0, 0)
        deck.add("B", 1, 0)
        loaded = pickle.loads(pickle.dumps(deck))
        assert loaded.names == [f"A{k}", "B"]
        kept.append(loaded)
    assert len(_core._DECKS_BY_SPEC) <= _core.DECKS_KEPT
    again = pickle.loads(pickle.dumps(kept[-1]))       # the latest is still shared
    assert again is kept[-1]


def test_ever_new_encoding_configurations_keep_a_bounded_number():
    pytest.importorskip("numpy")
    from trickcore import encodings

    assert encodings.ENCODINGS_KEPT < 99
    first = encodings.encoding("sticheln", 4, {"rounds": 1})
    assert encodings.encoding("sticheln", 4, {"rounds": 1}) is first
    for rounds in range(2, 101):                  # 100 configurations, more than are kept
        encodings.encoding("sticheln", 4, {"rounds": rounds})
        assert len(encodings._CACHE) <= encodings.ENCODINGS_KEPT
    latest = encodings.encoding("sticheln", 4, {"rounds": 100})
    assert encodings.encoding("sticheln", 4, {"rounds": 100}) is latest
