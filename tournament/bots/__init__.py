"""Bundled bots, each runnable as a program: ``{python} {bots}/<file>.py``.

* ``random_bot.py``    uniformly random legal option (protocol-only, stateless, reproducible)
* ``example_bot.py``   the ~30-line example bot printed in docs/protocol.md
* ``heuristic_bot.py`` per-game policy ``trickcore.policies.<game>.choose``, else random
* ``mockbot.py``       a random bot that misbehaves on request (crash, hang, flood, ...)
* ``sdk.py``           turns a Python function ``choose(view, legal)`` into a bot
"""
