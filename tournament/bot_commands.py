"""Bot commands as their authors mean them (docs/tournament.md, "Bot commands"): which words of a
command are paths, taken from where (``resolve_command``), the folder a bot starts in
(``command_folder``, ``module_folder``), what a command that cannot start says
(``check_command``), and the name a bot gets from its command (``program_name``)."""

from __future__ import annotations

import errno
import os
import re
import shutil
import sys
from collections.abc import Sequence
from pathlib import Path

#: Flags after which the next word is a module or code, never a path: ``python -m pkg``, ``-c code``.
_NEXT_IS_NO_PATH = ("-m", "-c")
#: A script's place holds a path when the word is written like one: ``bots/x``, ``mybot.py``, ``Bot.jar``.
_PATH_LIKE = re.compile(r".*/.*|.*\w\.[A-Za-z]\w*")
_BASE_RULE = ("relative paths in a bot command are taken from its cwd, else from the config file's folder; on the "
              "command line, from the current folder")


def _script_index(command: Sequence[str]) -> int | None:
    """Where a command's script stands: its first word after the program that is neither a flag nor
    the module or code of ``-m``/``-c``; None when there is none."""
    for i in range(1, len(command)):
        if command[i - 1] in _NEXT_IS_NO_PATH:
            return None  # python -m pkg, sh -c ...: a module or code takes the script's place
        if not command[i].startswith("-"):
            return i
    return None


def resolve_command(command: Sequence[str], base: Path) -> tuple[str, ...]:
    """``command`` with its paths made absolute against ``base``, as a person running it in
    ``base`` means them: the program when written with a slash (``./bot``; a bare name such as
    ``python`` or ``bot`` is a program on PATH, as in a shell), the script (``mybot.py`` in
    ``python mybot.py``, also when the file is missing, so the error names it), and any later
    word that names an existing file or folder in ``base`` (``.`` in ``java -cp . Bot``).
    Flags and the module or code after ``-m`` or ``-c`` stay as written."""
    program, *args = command
    words = [os.path.normpath(base / program) if "/" in program else program]
    script = _script_index(command)
    for i, word in enumerate(args, start=1):
        path = base / word
        if (not word.startswith("-") and command[i - 1] not in _NEXT_IS_NO_PATH
                and (path.exists() or (i == script and _PATH_LIKE.fullmatch(word)))):
            words.append(os.path.normpath(path))
        else:
            words.append(word)
    return tuple(words)


def module_folder(command: Sequence[str], base: Path) -> str | None:
    """``python -m pkg`` finds ``pkg`` in its working directory: ``base`` when it holds the
    module (a package folder or a ``.py`` file), which makes it the bot's own folder."""
    for flag, word in zip(command, command[1:]):
        if flag == "-m":
            top = word.split(".")[0]
            return str(base) if (base / top).is_dir() or (base / f"{top}.py").is_file() else None
    return None


def command_folder(command: Sequence[str]) -> str | None:
    """The folder a bot without a ``cwd`` starts in, its own: that of its script, the first path
    after the program (a file's folder; a folder, as in ``java -cp . Bot``, is itself), else that
    of its program when the command names it by a path (``./bot``), else None (a program on PATH
    and no path after it)."""
    for before, word in zip(command, command[1:]):
        if os.path.isabs(word) and before not in _NEXT_IS_NO_PATH:
            return word if os.path.isdir(word) else os.path.dirname(word)
    if os.path.isabs(command[0]) and command[0] != sys.executable:
        return os.path.dirname(command[0])
    return None


def check_command(command: Sequence[str]) -> None:
    """Raise FileNotFoundError or PermissionError, in words that name the path tried and the
    folder looked in, when ``command`` (resolved: resolve_command) cannot start: its program
    is not on PATH or not there, or its script is not there."""
    program = command[0]
    if "/" not in program:
        if shutil.which(program) is None:
            raise FileNotFoundError(errno.ENOENT, f"no program {program!r} on PATH ({os.environ.get('PATH', '')}); "
                                                  f"a program of the bot's own is named by its path, e.g. "
                                                  f"./{program}")
    elif not os.path.isfile(program):
        raise FileNotFoundError(errno.ENOENT, _not_there(program))
    elif not os.access(program, os.X_OK):
        raise PermissionError(errno.EACCES, f"{program} is not executable (chmod +x {program})")
    script = _script_index(command)
    if script is not None and os.path.isabs(command[script]) and not os.path.exists(command[script]):
        raise FileNotFoundError(errno.ENOENT, _not_there(command[script]))


def _not_there(path: str) -> str:
    folder, name = os.path.split(path)
    where = f"no {name} in {folder}" if os.path.isdir(folder) else f"no folder {folder} (for {name})"
    return f"there is {where} ({_BASE_RULE})"


def program_name(argv: list[str]) -> str:
    """A bot named after its script, else its module, else its program: ``python bot.py --depth 3``
    -> bot, ``python -m pkg`` -> pkg, ``java -cp . Bot`` -> Bot, ``./bot`` -> bot."""
    script = _script_index(argv)
    if script is not None:
        names = [Path(w).stem for w in argv[script:] if not w.startswith("-") and Path(w).stem]
        if names:
            return names[0]
    for flag, word in zip(argv, argv[1:]):
        if flag == "-m":
            return word
    return Path(argv[0]).stem if argv and Path(argv[0]).stem else "bot"
