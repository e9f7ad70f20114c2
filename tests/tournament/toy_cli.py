"""The tournament CLI with the toy test games registered, for tests that run it as a process."""

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE.parents[1]), str(HERE)]

from toygame import register_toy_games  # noqa: E402

register_toy_games()

from tournament.cli import main  # noqa: E402

main()
