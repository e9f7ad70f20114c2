"""A table process stopped by a signal (Ctrl-C, or SIGTERM from the runner or from the kernel
when the runner dies) takes no lock in its handler and raises nothing into the code it
interrupts (tournament/runner.py, ``_stop_on_signals``): an exception raised between a lock's
acquire and the block that releases it would leave the lock held (bpo-29988), and the cleanup
that kills the bots would wait on it forever."""

from __future__ import annotations

import subprocess
import sys
import textwrap

import pytest

# The child holds the bots' registry lock, as a thread does for an instant while a bot starts or
# ends, and is signalled while it does.  It must go on (and release the lock itself), with the
# stop seen and the runner's connection shut, and then clean up without waiting forever.
CHILD = textwrap.dedent("""
    import os, signal, sys, threading
    from multiprocessing import Pipe
    from tournament import process, runner

    runner_end, table_end = Pipe()
    stopping = runner._stop_on_signals(table_end)
    process._LIVE_LOCK.acquire()            # as if interrupted right after acquiring it
    os.kill(os.getpid(), signal.SIGNUM)     # delivered before the next bytecode
    held = process._LIVE_LOCK.locked()
    process._LIVE_LOCK.release()
    try:
        table_end.recv()
        shut = False
    except (EOFError, OSError):
        shut = True
    process.kill_all()                      # the cleanup takes the lock: it must be free
    print(held, stopping(), shut, flush=True)
""")


@pytest.mark.parametrize("signum", ["SIGTERM", "SIGINT"])
def test_a_signal_to_a_table_process_raises_nothing_and_takes_no_lock(signum):
    done = subprocess.run([sys.executable, "-c", CHILD.replace("SIGNUM", signum)], capture_output=True,
                          text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["True", "True", "True"]


def test_the_handler_kills_the_bots_without_their_lock():
    # A registered bot (a process group of its own) is killed by the handler while the lock is held.
    child = textwrap.dedent("""
        import os, signal, subprocess, sys
        from multiprocessing import Pipe
        from tournament import process, runner

        class Bot:                        # what kill_all_now reads of a bot: its process group
            def __init__(self, proc):
                self.proc, self.pid = proc, proc.pid
        sleeper = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"], start_new_session=True)
        process._LIVE.add(Bot(sleeper))
        _, table_end = Pipe()
        runner._stop_on_signals(table_end)
        with process._LIVE_LOCK:
            os.kill(os.getpid(), signal.SIGTERM)
        print(sleeper.wait(timeout=20), flush=True)
        process._LIVE.clear()             # not a BotProcess: kept out of the exit-time cleanup
    """)
    done = subprocess.run([sys.executable, "-c", child], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == str(-9)
