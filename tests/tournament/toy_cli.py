"""The tournament CLI with the toy test games registered, for tests that run it as a process."""

import sys
from pathlib import Path

# Run as a program: the checkout's root on the path, for the tests package's toy games.
sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from tests.tournament.toygame import register_toy_games  # noqa: E402

register_toy_games()

from tournament.cli import main  # noqa: E402

main()
