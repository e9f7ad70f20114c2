"""The reference game of the benchmarks: dense actions and the tensor of a seat's view.

Cards (C = 52): id order, suit-major (S H D C), ranks 2..A."""

from __future__ import annotations

from collections.abc import Iterable
from types import ModuleType
from typing import Any

from trickcore.encodings.base import CardEncoding
from trickcore.games import reference as ref


class ReferenceEncoding(CardEncoding):
    game = "reference"
    DECISIONS = ("play",)

    def __init__(self, players: int, options: dict[str, Any]):
        self._cards_setup([ref.DECK.name(c) for c in range(52)])
        super().__init__(players, options)

    def _action_ids(self) -> Iterable[int]:
        return range(52)

    def _layout(self) -> None:
        self._common_layout()
        self.o_trump = self._field("trump", (4,), "one-hot: the trump suit (S, H, D, C)")

    def _encoder(self, compiled: ModuleType) -> Any:
        return compiled.ReferenceEncoder(self, ref.ReferenceState, list(range(52)))

    def score_bounds(self) -> tuple[float, float]:
        return 0.0, 13.0

    def max_game_length(self) -> int:
        return 52
