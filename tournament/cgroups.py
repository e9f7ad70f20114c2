"""A cgroup v2 per bot, where the organiser gives the runner a subtree of its own.

In a cgroup of its own a bot's memory is the kernel's to count: ``memory.max`` is its
``memory_mb`` (and ``memory.swap.max`` 0, so nothing escapes to swap), the kernel's
out-of-memory killer ends the whole bot when it holds more (``memory.oom.group``) and notes it
in ``memory.events``, and ``pids.max`` bounds its processes and threads.  Without one, the
runner counts (tournament.sandbox.MemoryWatch).

The runner makes cgroups only in a subtree it was given (docs/tournament.md, ``[sandbox]``):

* one named in ``[sandbox] cgroup``, checked when the config is read;
* or its own cgroup, when that is marked delegated: systemd's ``Delegate=yes`` (``systemd-run
  --scope -p Delegate=yes``) sets the extended attribute ``trusted.delegate`` (system manager)
  or ``user.delegate`` (a user's manager) to 1; and a cgroup chowned to an ordinary user below
  a parent that is not the user's (``mkdir`` and ``chown`` by root) is that user's to divide.

A cgroup the runner merely may write to is not enough: root may write to every cgroup, and
under systemd a user owns every cgroup of the user's session, though a supervisor manages
them.  So nothing is made where a supervisor owns the cgroup, nor on cgroup v1 or a hybrid
hierarchy whose v2 part has no memory controller.
"""

from __future__ import annotations

import errno
import itertools
import os
import re
import time

# What a sandbox runs besides the bot: bwrap, and bwrap's init as process 1 of the sandbox.
_BWRAP_PROCESSES = 2
# After a bot's processes are killed, how long its cgroup may take to empty (their exits are
# asynchronous) before the runner leaves it behind.
_REMOVE_WAIT_S = 2.0


class CgroupError(OSError):
    """A named cgroup the runner cannot use, or one that failed it; the message says why."""


def _read(folder: str, name: str) -> str:
    with open(os.path.join(folder, name)) as fh:
        return fh.read()


def _write(folder: str, name: str, value: str) -> None:
    # One write(2) per value: a cgroup file takes one value per write.
    fd = os.open(os.path.join(folder, name), os.O_WRONLY)
    try:
        os.write(fd, value.encode())
    finally:
        os.close(fd)


def _unescape(field: str) -> str:
    """A path of /proc/self/mountinfo, whose spaces, tabs, newlines and backslashes are octal escapes."""
    return re.sub(r"\\([0-7]{3})", lambda m: chr(int(m[1], 8)), field)


def mounts(mountinfo: str) -> list[tuple[str, str]]:
    """(mount point, file system type) of each line of a /proc/<pid>/mountinfo text."""
    found = []
    for line in mountinfo.splitlines():
        fields, _, rest = line.partition(" - ")
        parts = fields.split()
        if len(parts) >= 5 and rest:
            found.append((_unescape(parts[4]), rest.split()[0]))
    return found


def own_cgroup(proc_cgroup: str, mountinfo: str) -> str | None:
    """The folder of the cgroup v2 a process is in, from its /proc/<pid>/cgroup and mountinfo
    texts (the ``0::`` line; the first cgroup2 mount), or None when it is in none."""
    path = next((line[3:] for line in proc_cgroup.splitlines() if line.startswith("0::")), None)
    mount = next((point for point, fstype in mounts(mountinfo) if fstype == "cgroup2"), None)
    if path is None or mount is None:
        return None
    return os.path.normpath(mount + "/" + path.lstrip("/"))


def _file_system(path: str) -> str:
    with open("/proc/self/mountinfo") as fh:
        table = mounts(fh.read())
    best, kind = "", "unknown"
    for point, fstype in table:  # later mounts hide earlier ones at the same point
        if (path == point or path.startswith(point.rstrip("/") + "/")) and len(point) >= len(best):
            best, kind = point, fstype
    return kind


def problem(folder: str) -> str | None:
    """Why the runner cannot make its bots' cgroups in ``folder``, or None when it can."""
    if not os.path.isabs(folder):
        return "is not an absolute path"
    if not os.path.exists(folder):
        return "does not exist"
    if not os.path.isdir(folder):
        return "is not a folder"
    kind = _file_system(os.path.realpath(folder))
    if kind != "cgroup2":
        return f"is not a cgroup v2 folder (it lies on a file system of type {kind}, not cgroup2)"
    controllers = _read(folder, "cgroup.controllers").split()
    if "memory" not in controllers:
        offered = " ".join(controllers) or "none"
        return (f"offers no memory controller to its cgroups (its cgroup.controllers: {offered}; the memory "
                f"controller is enabled in its parent's cgroup.subtree_control, and on a hybrid cgroup v1/v2 "
                f"system it belongs to v1)")
    for name in ("", "cgroup.procs", "cgroup.subtree_control"):
        if not os.access(os.path.join(folder, name), os.W_OK):
            return (f"is not writable by this runner (user id {os.geteuid()}): {os.path.join(folder, name)} "
                    f"(a delegated cgroup is chowned to the organiser)")
    return None


def _delegated(folder: str) -> bool:
    for attribute in ("trusted.delegate", "user.delegate"):
        try:
            if os.getxattr(folder, attribute).strip() == b"1":
                return True
        except OSError:
            pass
    euid = os.geteuid()
    try:
        return euid != 0 and os.stat(folder).st_uid == euid and os.stat(os.path.dirname(folder)).st_uid != euid
    except OSError:
        return False


def find(named: str) -> tuple[str | None, str]:
    """The cgroup v2 folder the runner makes its bots' cgroups in, or None; and why, in words.
    ``named`` is ``[sandbox] cgroup``: "" finds the runner's own delegated cgroup, "none"
    turns cgroups off, a path names the folder (CgroupError when it cannot be used)."""
    if named == "none":
        return None, '[sandbox] cgroup = "none"'
    if named:
        why = problem(named)
        if why:
            raise CgroupError(errno.EINVAL, f"[sandbox] cgroup {named} {why}")
        return named, f"{named}, named in [sandbox] cgroup"
    try:
        with open("/proc/self/cgroup") as fh, open("/proc/self/mountinfo") as mi:
            own = own_cgroup(fh.read(), mi.read())
    except OSError:
        own = None
    if own is None or not os.path.isdir(own):
        return None, "this runner is in no cgroup v2 hierarchy it can see"
    if not _delegated(own):
        return None, (f"this runner's cgroup {own} is not delegated to it (no trusted.delegate or user.delegate "
                      f"mark, and not chowned to it below a parent that is not its own)")
    why = problem(own)
    if why:
        return None, f"this runner's delegated cgroup {own} {why}"
    return own, f"this runner's own cgroup {own}, delegated to it"


def prepare(folder: str) -> None:
    """Let the cgroups made in ``folder`` have limits of their own: its cgroup.subtree_control
    passes the memory (and pids) controllers down.  A cgroup with processes in it cannot do that
    (cgroup v2's "no internal processes" rule), so when ``folder`` is the runner's own cgroup,
    its processes (the runner and what it started) move to a leaf cgroup ``runner`` first."""
    wanted = [c for c in ("memory", "pids") if c in _read(folder, "cgroup.controllers").split()]
    if set(wanted) <= set(_read(folder, "cgroup.subtree_control").split()):
        return
    enable = " ".join(f"+{c}" for c in wanted)
    for _ in range(5):  # a process of the cgroup may start another while the others move
        try:
            _write(folder, "cgroup.subtree_control", enable)
            return
        except OSError as exc:
            if exc.errno != errno.EBUSY:
                raise CgroupError(exc.errno, f"cannot enable {enable} in {folder}/cgroup.subtree_control: "
                                             f"{exc.strerror}") from None
        procs = _read(folder, "cgroup.procs").split()
        if str(os.getpid()) not in procs:
            raise CgroupError(errno.EBUSY, f"{folder} holds processes other than this runner's ({len(procs)}); "
                                           f"name a cgroup of its own for the runner's bots")
        leaf = os.path.join(folder, "runner")
        os.makedirs(leaf, exist_ok=True)
        for pid in procs:
            try:
                _write(leaf, "cgroup.procs", pid)
            except ProcessLookupError:
                pass  # ended meanwhile
    raise CgroupError(errno.EBUSY, f"cannot enable {enable} in {folder}/cgroup.subtree_control: its processes "
                                   f"keep starting others")


class BotCgroup:
    """The cgroup of one bot, made before the bot starts and removed after it ended."""

    _numbers = itertools.count()

    def __init__(self, folder: str, memory_mb: int, processes: int):
        self.path = os.path.join(folder, f"bot-{os.getpid()}-{next(self._numbers)}")
        os.mkdir(self.path)
        try:
            if memory_mb > 0:
                _write(self.path, "memory.max", str(memory_mb << 20))
            for name, value in (("memory.swap.max", "0"), ("memory.oom.group", "1")):
                if os.path.exists(os.path.join(self.path, name)):  # no swap, or an older kernel
                    _write(self.path, name, value)
            if processes > 0 and os.path.exists(os.path.join(self.path, "pids.max")):
                _write(self.path, "pids.max", str(processes + _BWRAP_PROCESSES))
        except OSError:
            self.remove()
            raise

    def join(self, pid: int) -> None:
        """Move process ``pid`` (a bwrap that has not started anything yet) into the cgroup."""
        try:
            _write(self.path, "cgroup.procs", str(pid))
        except OSError as exc:
            # The kernel lets a process move others only within a subtree whose cgroup.procs it
            # may write: an unprivileged runner must itself run inside the cgroup it was given.
            raise CgroupError(exc.errno, f"cannot move the bot into its cgroup {self.path}: {exc.strerror} "
                                         f"(an organiser who is not root starts the runner inside the "
                                         f"[sandbox] cgroup it names)") from None

    def oom_kills(self) -> int:
        """How often the kernel's out-of-memory killer killed in this cgroup (memory.events)."""
        try:
            for line in _read(self.path, "memory.events").splitlines():
                key, _, value = line.partition(" ")
                if key == "oom_kill":
                    return int(value)
        except (OSError, ValueError):
            pass
        return 0

    def remove(self) -> None:
        """Kill what is left in the cgroup and remove it."""
        try:
            _write(self.path, "cgroup.kill", "1")  # Linux 5.14 and later
        except OSError:
            pass
        deadline = time.monotonic() + _REMOVE_WAIT_S
        while True:
            try:
                os.rmdir(self.path)
                return
            except FileNotFoundError:
                return
            except OSError as exc:
                if exc.errno != errno.EBUSY or time.monotonic() > deadline:
                    return  # left for the organiser's cleanup of the subtree
            time.sleep(0.01)
