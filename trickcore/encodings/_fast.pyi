"""Type stub of the compiled encoders (trickcore/encodings/_fast.pyx), the package's only tensor
encoders: each writes one game's observation tensor (what ``state.observation(seat)`` holds)
straight from a state."""

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

class _Encoder:
    @property
    def size(self) -> int: ...
    @property
    def players(self) -> int: ...
    def encode(self, state: Any, seat: int, out: npt.NDArray[np.float32] | None = None) -> npt.NDArray[np.float32]: ...

class ReferenceEncoder(_Encoder):
    def __init__(self, enc: Any, state_type: type, cards: Sequence[int | None]) -> None: ...

class HattrickEncoder(_Encoder):
    def __init__(self, enc: Any, state_type: type, cards: Sequence[int | None], colour_of: Sequence[int]) -> None: ...

class StichelnEncoder(_Encoder):
    def __init__(self, enc: Any, state_type: type, cards: Sequence[int | None], flag_names: Sequence[str]) -> None: ...

class BeimJupiterEncoder(_Encoder):
    def __init__(self, enc: Any, state_type: type, cards: Sequence[int | None], lambs: Sequence[int],
                 values: Sequence[int], bid_slot: Mapping[str, int], bid_slots: int, max_t: int) -> None: ...

class SquintEncoder(_Encoder):
    def __init__(self, enc: Any, state_type: type, cards: Sequence[int | None], kinds: Sequence[str],
                 no_suit: int) -> None: ...

class KlaberjassEncoder(_Encoder):
    def __init__(self, enc: Any, state_type: type, cards: Sequence[int | None], call_rounds: Sequence[str],
                 calls: Sequence[str], decisions: Mapping[str, str]) -> None: ...
