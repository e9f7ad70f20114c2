"""trickcore: a C-accelerated engine for trick-taking card games.

    >>> import trickcore
    >>> state = trickcore.new_game("beim-jupiter", 4, seed=7)
    >>> state.decision()
    'colour'
"""

try:
    from trickcore._core import version as core_version
except ModuleNotFoundError as exc:  # a source checkout whose extension was never built
    if exc.name != "trickcore._core":
        raise
    raise ImportError(
        "trickcore's compiled core (trickcore._core) is not built in this source tree "
        f"({__path__[0]}). Build it in place with `pip install -e .` (or `python setup.py build_ext "
        "--inplace`), or run from outside the checkout to use an installed trickcore.") from None
from trickcore.errors import CoreError, GameConfigError, IllegalActionError, TrickcoreError
from trickcore.game import TERMINAL, GameInfo, GameState, OptionSpec
from trickcore.games import get_game, list_games, new_game, replay
from trickcore.worlds import InconsistentStateError

# The package's version, written only here: pyproject.toml reads this line without importing the
# package ([tool.setuptools.dynamic]), so it stays a plain string.  The C library has its own
# version, core_version() (TC_VERSION_STRING in csrc/include/trickcore.h).
__version__ = "1.0.0"

__all__ = [
    "TERMINAL", "CoreError", "GameConfigError", "GameInfo", "GameState", "IllegalActionError",
    "InconsistentStateError", "OptionSpec", "TrickcoreError", "core_version", "get_game", "list_games",
    "new_game", "replay",
]
