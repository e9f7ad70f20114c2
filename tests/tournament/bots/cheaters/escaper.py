#!/usr/bin/env python3
"""Attack 10: leave a process behind that outlives the bot, its game and the tournament.

At its first request it double-forks: the child calls setsid() (a new session and process
group, out of reach of a kill of the bot's group) and starts a grandchild, then exits, so
the grandchild is orphaned.  The grandchild runs Python that sleeps ``--sleep`` seconds
(default 60) and then writes ``--file``; ``--marker`` is in its command line, so the test can
find it in the host's process list."""

import os
import sys

from cheatlib import flag, play, report

CODE = "import sys, time; time.sleep(float(sys.argv[1])); open(sys.argv[2], 'w').write('escaped ' + sys.argv[3])"


def attack(n: int) -> None:
    if n != 1:
        return
    marker, path, sleep = flag("marker", "escaper"), flag("file", "/tmp/escaped"), flag("sleep", "60")
    child = os.fork()
    if child == 0:
        try:
            os.setsid()
            if os.fork() == 0:
                null = os.open(os.devnull, os.O_RDWR)
                for fd in (0, 1, 2):
                    os.dup2(null, fd)
                os.execv(sys.executable, [sys.executable, "-c", CODE, sleep, path, marker])
        finally:
            os._exit(0)
    os.waitpid(child, 0)
    report("escape", started=True, marker=marker)


play("escaper", on_request=attack)
