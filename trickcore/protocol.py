"""Constants of the bot protocol (docs/protocol.md), owned here and nowhere else.

The runner's wire codec (``tournament.wire``) and the bot SDK (``trickcore.bot``) both
import them, so a bot written with the SDK and the runner can never disagree on the
version, the option types or the handshake features.  Standard library only: the SDK
must stay importable without the compiled core.
"""

from __future__ import annotations

from typing import Final

#: The version a runner announces (``trickcore <version>``) and a bot confirms (``trickcoreok``).
PROTOCOL_VERSION: Final = 1
#: Versions a runner accepts in ``trickcoreok`` (docs/protocol.md section 2.1).
SUPPORTED_VERSIONS: Final = (1,)
#: Types of the options a bot may declare in its handshake (section 2.2).
OPTION_TYPES: Final = ("int", "float", "bool", "string", "choice")
#: Handshake features a bot may set, with their values; the first value is the default (section 2.5).
FEATURES: Final = {"events": ("on", "off")}

__all__ = ["FEATURES", "OPTION_TYPES", "PROTOCOL_VERSION", "SUPPORTED_VERSIONS"]
