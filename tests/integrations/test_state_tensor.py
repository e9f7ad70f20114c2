"""Tensors written straight from a state (``Encoding.state_tensor``, the compiled encoders of
trickcore/encodings/_fast.pyx, the package's only encoders) equal the tensors built from the
view dict (``view_tensor(enc, state.observation(seat))``, the readable definition, kept in
view_tensors.py as the tests' oracle), bit for bit: at every decision of seeded random matches of
every game, player count and variant, for every seat, into a reused buffer full of garbage; on
states seen for the first time mid-trick (clones, pickled copies), seen only now and then, many
at once, whose history holds no card moves, and after an action other than a card play or an
edit in the middle of a trick phase (the game's blocks kept while cards are played are then
written anew).  The comparison is shown to report one wrong entry and a wrong oracle, and the
state fields the encoders read are shown to be public and documented."""

from __future__ import annotations

import pickle
import random
import re
from pathlib import Path

import numpy as np
import pytest

import trickcore
from trickcore._core import ActionLog
from trickcore.encodings import _fast, encoding
from trickcore.encodings.base import Encoding

from .configs import CONFIGS, ONE_PER_GAME, config_id, random_states
from .view_tensors import view_tensor

ROOT = Path(__file__).resolve().parents[2]


def assert_same(enc, state, seat, out, oracle=view_tensor):
    """The state's tensor, written into ``out`` (garbage first), is the view's, bit for bit;
    ``oracle(enc, view)`` builds the view's."""
    want = oracle(enc, state.observation(seat))
    out.fill(np.nan)
    got = enc.state_tensor(state, seat, out)
    assert got is out
    if not np.array_equal(got.view(np.uint32), want.view(np.uint32)):
        wrong = [(f.name, int(i) - f.offset, float(want[i]), float(got[i]))
                 for i in np.flatnonzero(got.view(np.uint32) != want.view(np.uint32))[:8]
                 for f in enc.fields if f.offset <= i < f.offset + f.size]
        raise AssertionError(f"seat {seat} at a {state.decision()!r} decision, actions {state.action_ids}: "
                             f"(block, index, view, state) {wrong}")


@pytest.mark.parametrize("config", CONFIGS, ids=config_id)
def test_every_decision_of_random_matches(config):
    """Seeded matches until 2,000 tensors are checked: every decision, every seat."""
    game, n, options = config
    enc = encoding(game, n, options)
    assert enc.state_tensor == enc.encoder.encode
    out = np.empty(enc.size, np.float32)
    checked = seed = 0
    while checked < 2000:
        seed += 1
        for state in random_states(game, n, options, seed=seed):
            for seat in range(n):
                assert_same(enc, state, seat, out)
                checked += 1


@pytest.mark.parametrize("config", CONFIGS, ids=config_id)
def test_states_seen_now_and_then_and_copies_seen_first_mid_trick(config):
    """Every seventh decision only (several tricks complete between two tensors), and at every
    third decision a clone and a pickled copy, whose trick phases the encoder meets mid-trick."""
    game, n, options = config
    enc = encoding(game, n, options)
    out = np.empty(enc.size, np.float32)
    rng = random.Random(7)
    for state in random_states(game, n, options, seed=70, every=7):
        assert_same(enc, state, rng.randrange(n), out)
    for k, state in enumerate(random_states(game, n, options, seed=71, every=3)):
        copy = state.clone() if k % 2 else pickle.loads(pickle.dumps(state))
        for seat in range(n):
            assert_same(enc, copy, seat, out)


@pytest.mark.parametrize("config", CONFIGS, ids=config_id)
def test_the_history_is_not_read(config):
    """Nothing in a view depends on the history's action ids, and the tensors read the trick
    phase itself: a copy whose history holds none of its moves has the same tensors."""
    game, n, options = config
    enc = encoding(game, n, options)
    out = np.empty(enc.size, np.float32)
    for state in random_states(game, n, options, seed=90, every=2):
        copy = state.clone()
        copy._actions = ActionLog([999] * len(copy._actions))      # no action id of any game
        for seat in range(n):
            assert_same(enc, copy, seat, out)
            assert_same(enc, state, seat, out)


@pytest.mark.parametrize("config", CONFIGS, ids=config_id)
def test_many_matches_at_once(config):
    """Random matches played side by side with one encoding (as vectorized environments do):
    the tensor of the seat to move at every step of each, more trick phases at once than the
    encoder keeps game blocks for (Sticheln, 300 matches)."""
    game, n, options = config
    enc = encoding(game, n, options)
    out = np.empty(enc.size, np.float32)
    width = 300 if config == CONFIGS[-1] else 12
    matches = [random_states(game, n, options, seed=1000 + k) for k in range(width)]
    while matches:
        for match in list(matches):
            state = next(match, None)
            if state is None:
                matches.remove(match)
            else:
                assert_same(enc, state, max(state.current_player(), 0), out)


@pytest.mark.parametrize("game, n, options", [("sticheln", 5, {"rounds": 1}), ("beim-jupiter", 4, {}),
                                              ("hattrick", 4, {"games": 1}), ("squint", 5, {"deal_limit": 1}),
                                              ("klaberjass", 3, {"max_deals": 2})])
def test_an_action_other_than_a_card_play_or_an_edit_mid_trick_phase_is_seen(game, n, options):
    """The game's blocks are kept from one tensor to the next while only cards are played; a
    change of them mid-phase, by an action that plays no card (emulated: the dealer moves and
    the history grows by one action) or by an edit announced with ``_begin_edit``, shows at once."""
    enc = encoding(game, n, options)
    out = np.empty(enc.size, np.float32)
    seen = 0
    for state in random_states(game, n, options, seed=21, every=2):
        if state.decision() != "play" or state.current_player() < 0:
            continue
        for seat in range(n):
            assert_same(enc, state, seat, out)           # kept for every seat
        for how in ("action", "edit"):
            edited = state.clone()
            for seat in range(n):
                enc.state_tensor(edited, seat, out)
            if how == "edit":
                edited._begin_edit()
            else:
                edited._actions.append(999)
            edited.dealer = (edited.dealer + 1) % n      # a clone's own attribute (copy-on-write)
            for seat in range(n):
                assert_same(enc, edited, seat, out)
        seen += 1
    assert seen > 5


@pytest.mark.parametrize("config", CONFIGS, ids=config_id)
def test_tricks_won_block_holds_the_views_tricks_won(config):
    game, n, options = config
    enc = encoding(game, n, options)
    for state in random_states(game, n, options, seed=5, every=3):
        for seat in range(n):
            won = state.observation(seat).get("tricks_won")
            if won:
                tensor = enc.state_tensor(state, seat)
                assert list(enc.views(tensor)["tricks_won"]) == [won[(seat + r) % n] for r in range(n)]


def test_arguments_are_checked():
    enc = encoding("reference", 4)
    state = trickcore.new_game("reference", 4, seed=1)
    for seat in (-1, 4, True, 1.0, "1"):
        with pytest.raises(ValueError):
            enc.state_tensor(state, seat)
    with pytest.raises(TypeError):
        enc.state_tensor(trickcore.new_game("hattrick", 4, seed=1), 0)
    fresh = type(enc)(4, enc.options)          # None is what its encoder has checked last: nothing
    for junk in (None, object(), 0):
        with pytest.raises(TypeError):
            fresh.state_tensor(junk, 0)
    with pytest.raises(ValueError):
        encoding("hattrick", 5).state_tensor(trickcore.new_game("hattrick", 4, seed=1), 0)
    for out in (np.zeros(enc.size, np.float64), np.zeros(enc.size + 1, np.float32),
                np.zeros((2, enc.size), np.float32)[:, 0]):
        with pytest.raises((ValueError, BufferError)):
            enc.state_tensor(state, 0, out)
    tensor = enc.state_tensor(state, 0)
    assert tensor.dtype == np.float32 and tensor.shape == enc.shape


def test_encodings_copy_as_themselves_and_pickle_by_configuration():
    """OpenSpiel deep-copies games, which hold their encoding; pickling rebuilds it."""
    import copy
    enc = encoding("klaberjass", 3, {"max_deals": 2})
    assert copy.copy(enc) is enc and copy.deepcopy(enc) is enc
    again = pickle.loads(pickle.dumps(enc))
    state = next(random_states("klaberjass", 3, {"max_deals": 2}, seed=3, every=40))
    assert again.options == enc.options and np.array_equal(again.state_tensor(state, 2), enc.state_tensor(state, 2))
    with pytest.raises(TypeError):
        pickle.dumps(enc.encoder)


# ---- one encoder, the compiled one -------------------------------------------------------------
@pytest.mark.parametrize("config", CONFIGS, ids=config_id)
def test_the_compiled_encoder_is_the_only_encoder(config):
    """``state_tensor`` is the game's class of _fast.pyx, called directly; the encodings keep no
    second way to a tensor (the view-based fill lives in the tests only)."""
    enc = encoding(*config)
    assert type(enc.encoder).__module__ == _fast.__name__
    assert enc.state_tensor == enc.encoder.encode
    assert enc.observation_tensor(trickcore.new_game(*config, seed=1), 0).shape == enc.shape
    for cls in type(enc).__mro__:
        assert not {"tensor", "_fill", "_fill_common"} & set(vars(cls)), cls


# ---- the comparison can fail ---------------------------------------------------------------------
class _Corrupted:
    """An encoding whose tensors are the real ones with entry ``index`` set to ``value``."""

    def __init__(self, enc: Encoding, index: int, value: float):
        self.enc, self.index, self.value = enc, index, value

    def __getattr__(self, name):
        return getattr(self.enc, name)

    def state_tensor(self, state, seat, out=None):
        out = self.enc.state_tensor(state, seat, out)
        out[self.index] = self.value
        return out


def _mid_match(game, n, options):
    """A state some way into a seeded match: cards are played, a trick is done (a copy:
    random_states plays on with the state it yields)."""
    for state in random_states(game, n, options, seed=2):
        if state.decision() == "play" and state.last_trick() is not None and len(state.action_ids) > 12:
            return state.clone()
    raise AssertionError("the match has no trick play")


@pytest.mark.parametrize("config", ONE_PER_GAME, ids=config_id)
def test_the_comparison_reports_one_wrong_entry(config):
    """One entry of the state's tensor changed (in the middle of each block: a 0 or 1 the other
    way, NaN, and -0.0 for a 0, which equals it as a number but not bit for bit) is reported
    with its block and index."""
    game, n, options = config
    enc = encoding(game, n, options)
    out = np.empty(enc.size, np.float32)
    state, seat = _mid_match(game, n, options), 1
    assert_same(enc, state, seat, out)                   # unchanged, it passes
    want = view_tensor(enc, state.observation(seat))
    for block in enc.fields:
        i = block.offset + block.size // 2
        for value in (1.0 - want[i], np.nan) + ((-0.0,) if want[i] == 0 else ()):
            with pytest.raises(AssertionError, match=rf"\('{block.name}', {i - block.offset}, "):
                assert_same(_Corrupted(enc, i, value), state, seat, out)


#: Oracles that read the view wrong: (what is wrong, the oracle, the block it gets wrong).
WRONG_ORACLES = [
    ("the last trick left out", lambda enc, obs: view_tensor(enc, {**obs, "last_trick": None}), "last_trick"),
    ("seats relative to the next seat",
     lambda enc, obs: view_tensor(enc, {**obs, "seat": (obs["seat"] + 1) % enc.players}), ""),
]


@pytest.mark.parametrize("wrong", WRONG_ORACLES, ids=[w[0] for w in WRONG_ORACLES])
@pytest.mark.parametrize("config", ONE_PER_GAME, ids=config_id)
def test_the_comparison_reports_a_wrong_oracle(config, wrong):
    """Checked against an oracle that reads the view wrong, the comparison fails exactly where
    that oracle's tensor differs from the right one's, naming the block, and such places come
    in every match."""
    game, n, options = config
    _what, oracle, block = wrong
    enc = encoding(game, n, options)
    out = np.empty(enc.size, np.float32)
    reported = 0
    for state in random_states(game, n, options, seed=4, every=3):
        for seat in range(n):
            obs = state.observation(seat)
            if np.array_equal(oracle(enc, obs).view(np.uint32), view_tensor(enc, obs).view(np.uint32)):
                assert_same(enc, state, seat, out, oracle=oracle)
            else:
                with pytest.raises(AssertionError, match=f"'{block}" if block else "block, index"):
                    assert_same(enc, state, seat, out, oracle=oracle)
                reported += 1
    assert reported > 0


# ---- the encoders read documented state fields ---------------------------------------------------
#: StateCore's own fields, the binding's (trickcore/_core.pxd), which the encoders read as C fields.
BINDING_FIELDS = {"_tp", "_fast", "_actions", "_edits"}
#: Where each game documents its state fields: its player page, or the reference game's module
#: docstring (the benchmark game has no player page; its rules are its docstring).
def _field_docs() -> dict[str, str]:
    """Encoder class (its name without "Encoder") -> the file listing its game's state fields, for
    every registered game: found from the registry, so a new game is checked once it registers."""
    out = {}
    for info in trickcore.list_games():
        enc = encoding(info.name, info.players[0])
        module = info.factory.__module__.rsplit(".", 1)[1]
        page = f"docs/games/{module}.md"
        out[type(enc.encoder).__name__.removesuffix("Encoder")] = (
            page if (ROOT / page).is_file() else f"trickcore/games/{module}/__init__.py")
    return out


FIELD_DOCS = _field_docs()


def _fields_read() -> dict[str, set[str]]:
    """The attributes of ``state`` each encoder class of _fast.pyx reads, with those of the
    shared ``_Encoder`` code (everything before the first game's class) in every game's set;
    docstrings and comments left out."""
    code = (ROOT / "trickcore" / "encodings" / "_fast.pyx").read_text(encoding="utf-8")
    code = re.sub(r'"""(.*?)"""', "", code, flags=re.S)
    code = re.sub(r"#[^\n]*", "", code)
    parts = re.split(r"^cdef class (\w+)Encoder\(_Encoder\):", code, flags=re.M)
    shared = set(re.findall(r"\bstate\.(\w+)", parts[0]))
    return {game: shared | set(re.findall(r"\bstate\.(\w+)", body)) for game, body in zip(parts[1::2], parts[2::2])}


def _fields_documented(path: str) -> list[str]:
    """The names listed under "State fields the encoder reads" (one ``- `name`: ...`` item
    each; in a docstring, ``- ``name``: ...``)."""
    text = (ROOT / path).read_text(encoding="utf-8")
    section = text.split("State fields the encoder reads", 1)[1].split("\n## ", 1)[0].split('"""', 1)[0]
    return re.findall(r"^- `{1,2}(\w+)`{1,2}:", section, re.M)


def test_the_encoders_read_public_state_fields_that_the_games_document():
    """Every attribute of the state an encoder reads is public (or one of StateCore's own C
    fields) and listed in the game's documentation, and every field listed there is read."""
    read = _fields_read()
    assert set(read) == set(FIELD_DOCS)
    for game, fields in read.items():
        own = fields - BINDING_FIELDS
        assert not [f for f in own if f.startswith("_")], (game, sorted(own))
        documented = _fields_documented(FIELD_DOCS[game])
        assert len(documented) == len(set(documented)), (game, documented)
        assert set(documented) == own, (game, sorted(own - set(documented)), sorted(set(documented) - own))


def test_the_field_check_sees_a_private_read_and_a_missing_entry(tmp_path, monkeypatch):
    """The check above parses what it should: a read of a private field, or of a field the page
    does not list, makes it fail."""
    code = (ROOT / "trickcore" / "encodings" / "_fast.pyx").read_text(encoding="utf-8")
    fake = tmp_path / "trickcore" / "encodings" / "_fast.pyx"
    fake.parent.mkdir(parents=True)
    for page in set(FIELD_DOCS.values()):
        (tmp_path / page).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / page).write_text((ROOT / page).read_text(encoding="utf-8"), encoding="utf-8")
    monkeypatch.setitem(globals(), "ROOT", tmp_path)
    fake.write_text(code, encoding="utf-8")
    test_the_encoders_read_public_state_fields_that_the_games_document()   # the copy passes
    marker = "cdef class SquintEncoder(_Encoder):"
    for extra in ("_hidden", "undocumented"):
        fake.write_text(code.replace(marker, f"{marker}\n    x = state.{extra}"), encoding="utf-8")
        with pytest.raises(AssertionError, match="Squint"):
            test_the_encoders_read_public_state_fields_that_the_games_document()
