"""Plain-text tables for the command line, rendered by rich.

Every table the commands print (``trickcore games``, ``bench``, ``bench-runner``, the
tournament standings) goes through :func:`render`: a header, a rule under it and the rows,
no borders, no colours, so the text is the same on a terminal, in a log and in a test.
"""

from __future__ import annotations

import io
from collections.abc import Iterable, Sequence

from rich import box
from rich.console import Console
from rich.table import Table


def render(header: Sequence[str], rows: Iterable[Sequence[object]], right: Iterable[int] = (),
           width: int | None = None) -> str:
    """The table as text; columns whose index is in ``right`` are right-aligned (numbers).  With
    a ``width``, the last column is wrapped so that the table fits it (its other columns never are)."""
    right = set(right)
    table = Table(box=box.SIMPLE_HEAD, show_edge=False, pad_edge=False, header_style="", highlight=False)
    for i, title in enumerate(header):
        last = i == len(header) - 1
        table.add_column(title, justify="right" if i in right else "left", no_wrap=not (last and width),
                         overflow="fold")
    for row in rows:
        table.add_row(*(str(cell) for cell in row))
    # Without a width, a wide virtual console: the table takes the width it needs, never wrapped.
    console = Console(file=io.StringIO(), width=width or 4096, color_system=None, force_terminal=False,
                      highlight=False, emoji=False, markup=False)
    console.print(table)
    text = console.file.getvalue()  # type: ignore[attr-defined]
    return "\n".join(line.rstrip() for line in text.splitlines() if line.strip())
