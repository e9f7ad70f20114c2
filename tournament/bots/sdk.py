"""The Python bot SDK, kept under its old name: the one implementation is ``trickcore.bot``.

    from trickcore.bot import run      # preferred
    from tournament.bots.sdk import run  # the same function
"""

from trickcore.bot import PROTOCOL_VERSION, Bot, Option, run, seeded_choice

__all__ = ["PROTOCOL_VERSION", "Bot", "Option", "run", "seeded_choice"]
