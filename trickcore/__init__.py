"""trickcore: a C-accelerated engine for trick-taking card games.

    >>> import trickcore
    >>> state = trickcore.new_game("beim-jupiter", 4, seed=7)
    >>> state.decision()
    'colour'
"""

from trickcore._core import version as core_version
from trickcore.errors import CoreError, GameConfigError, IllegalActionError, TrickcoreError
from trickcore.game import TERMINAL, GameInfo, GameState, OptionSpec
from trickcore.games import get_game, list_games, new_game, replay

__version__ = "1.0.0"

__all__ = [
    "TERMINAL", "CoreError", "GameConfigError", "GameInfo", "GameState", "IllegalActionError",
    "OptionSpec", "TrickcoreError", "core_version", "get_game", "list_games", "new_game", "replay",
]
