"""Bundled bots, each runnable as a program: ``{python} {bots}/<file>.py``.

* ``random_bot.py``    uniformly random legal option (plain Python, no trickcore; stateless, reproducible)
* ``example_bot.py``   the ~30-line example bot printed in docs/protocol.md (plain Python, no trickcore)
* ``c/random_bot.c``   a random bot in C99 with only libc (build it with any C compiler)
* ``heuristic_bot.py`` per-game policy ``trickcore.policies.<game>.choose``, else random (uses ``trickcore.bot``)

The runner's tests use one more program, ``tests/tournament/bots/mockbot.py``: a random bot
that misbehaves on request (crash, hang, flood, ...).  It is not installed.
"""
