"""Plain-text tables for the command line, rendered by rich.

Every table the commands print (``trickcore games``, ``bench``, ``bench-runner``, the
tournament standings) goes through :func:`render`: a header, a rule under it and the rows,
no borders, no colours, so the text is the same on a terminal, in a log and in a test.
"""

from __future__ import annotations

import io
import textwrap
from collections.abc import Iterable, Sequence

from rich import box
from rich.console import Console
from rich.table import Table

#: With a width, the last column is wrapped inside the table only when it keeps at least this
#: many characters a line; narrower, its text goes under its row instead, across the whole width.
#: A narrower column takes more lines than that (`trickcore bench` at 100 columns: 425 lines as a
#: column of 38 characters, 339 under the rows), and at a few characters it holds a word a line.
LAST_COLUMN_MIN = 48


def render(header: Sequence[str], rows: Iterable[Sequence[object]], right: Iterable[int] = (),
           width: int | None = None, optional: Sequence[int] = ()) -> str:
    """The table as text; columns whose index is in ``right`` are right-aligned (numbers).  With
    a ``width``, a table wider than it first leaves out its ``optional`` columns, in that order,
    until it fits (a last line names those left out), then has its last column wrapped to fit
    (its other columns never are) or, where that column would keep fewer than LAST_COLUMN_MIN
    characters, printed under each row, indented and wrapped to the width: fewer columns on a
    narrow terminal, all of them on a wide one."""
    right = set(right)
    cells = [[str(cell) for cell in row] for row in rows]
    kept = list(range(len(header)))
    left_out = []

    def kept_width() -> int:
        return _natural_width([header[i] for i in kept], [[row[i] for i in kept] for row in cells])

    for column in optional:
        if width is None or kept_width() <= width:
            break
        kept.remove(column)
        left_out.append(header[column])
    text = _fitted([header[i] for i in kept], [[row[i] for i in kept] for row in cells],
                   {n for n, i in enumerate(kept) if i in right}, width)
    if not left_out:
        return text
    note = f"(left out at this width: {', '.join(left_out)})"
    return "\n".join([text, *textwrap.wrap(note, width=max(width or 20, 20), break_on_hyphens=False)])


def _natural_width(header: Sequence[str], cells: list[list[str]]) -> int:
    return max(map(len, _table(header, cells, set(), None).splitlines()), default=0)


def _fitted(header: Sequence[str], cells: list[list[str]], right: set[int], width: int | None) -> str:
    if width is not None and len(header) > 1:
        natural = _table(header, cells, right, None)
        if max(map(len, natural.splitlines()), default=0) <= width:
            return natural
        first = _table(header[:-1], [row[:-1] for row in cells], right, None).splitlines()
        # rich's SIMPLE_HEAD puts two spaces between columns
        if width - max(map(len, first), default=0) - 2 < LAST_COLUMN_MIN:
            if max((len(row[-1]) for row in cells), default=0) <= LAST_COLUMN_MIN:
                return natural  # no text to put under the rows: too wide, but wrapping cannot help
            return _stacked(header[-1], first, [row[-1] for row in cells], width)
    return _table(header, cells, right, width)


def _table(header: Sequence[str], cells: list[list[str]], right: set[int], width: int | None) -> str:
    table = Table(box=box.SIMPLE_HEAD, show_edge=False, pad_edge=False, header_style="", highlight=False)
    for i, title in enumerate(header):
        last = i == len(header) - 1
        table.add_column(title, justify="right" if i in right else "left", no_wrap=not (last and width),
                         overflow="fold")
    for row in cells:
        table.add_row(*row)
    # Without a width, a wide virtual console: the table takes the width it needs, never wrapped.
    console = Console(file=io.StringIO(), width=width or 4096, color_system=None, force_terminal=False,
                      highlight=False, emoji=False, markup=False)
    console.print(table)
    text = console.file.getvalue()  # type: ignore[attr-defined]
    return "\n".join(line.rstrip() for line in text.splitlines() if line.strip())


def _stacked(title: str, first: list[str], last: list[str], width: int) -> str:
    """The table of the other columns (``first``: header, rule, one line a row, as no cell of
    theirs wraps), each row followed by its last column's text, indented by two spaces."""
    def under(text: str) -> list[str]:
        return textwrap.wrap(text, width=max(width - 2, 20), initial_indent="  ", subsequent_indent="  ",
                             break_on_hyphens=False)

    lines = [first[0], *under(title), first[1]]
    for line, text in zip(first[2:], last):
        lines += [line, *under(text)]
    return "\n".join(lines)
