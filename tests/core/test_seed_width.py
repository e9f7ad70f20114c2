"""Every bit of a game seed reaches the deal.

The tournament runner derives 64-bit game seeds from a secret master seed; that is only worth
something if the engine shuffles with all 64 bits.  A core that kept 32 of them would let a bot
search the 2**32 shuffles that could have dealt its hand, and so learn every other hand.  The
generator is seeded with the whole uint64 (``tc_rng_seed``: splitmix64 from the full seed), and
each game mixes the whole seed into its per-round generators (masked to 64 bits, never to 32);
these tests fail if any layer truncates.
"""

from __future__ import annotations

import pytest

import trickcore
from trickcore._core import Rng
from trickcore.games import list_games

LOW = 0x9E3779B9  # the low 32 bits both seeds share
PAIRS = [((hi << 32) | LOW, (hi2 << 32) | LOW) for hi, hi2 in ((0, 1), (1, 2), (0x80000000, 0x80000001),
                                                              (0x12345678, 0xFFFFFFFF))]


def test_generator_uses_the_high_32_bits_of_its_seed():
    for a, b in PAIRS:
        assert [Rng(a).next() for _ in range(4)] != [Rng(b).next() for _ in range(4)]
        deck = (1 << 52) - 1
        assert Rng(a).deal(deck, 4, 13) != Rng(b).deal(deck, 4, 13)


def _hands(game: str, players: int, seed: int) -> list[dict]:
    """What every seat sees when the game starts: its own hand among the rest."""
    state = trickcore.new_game(game, players, seed=seed)
    return [state.observation(seat) for seat in range(players)]


@pytest.mark.parametrize("info", list_games(), ids=lambda i: i.name)
def test_game_seeds_differing_only_in_their_high_32_bits_deal_different_hands(info):
    for players in sorted(info.players):
        for a, b in PAIRS:
            assert (a ^ b) >> 32 and (a ^ b) & 0xFFFFFFFF == 0
            assert _hands(info.name, players, a) != _hands(info.name, players, b), (players, hex(a), hex(b))
            assert _hands(info.name, players, a) == _hands(info.name, players, a)  # and the seed alone decides
