"""The sequential test of a paired run (``[stop] sprt``): it follows the run as games are
recorded and says when to stop.

Its samples are whole deals: a deal's sample is the mean margin A - B over its pairs, one per
seating, once every seating of it has both games (the pairs of one deal share their cards, so
they are not independent samples; two deals are).  The deals are taken in order, 0, 1, 2, ...,
and a deal counts only once every deal before it has counted, so the test sees the same samples
in the same order whatever the concurrency, the executor or an interruption did: a resumed run
reaches the decision it would have reached in one go.  The schedule plays the deals a block at a
time (tournament.schedule), so samples arrive a block at a time.

The decision is the SPRT's (tournament.sprt, docs/sprt.md): H1 when the log-likelihood ratio
reaches the upper bound, H0 when it reaches the lower one.  Games already running when it comes
are finished and recorded; no new game starts.  ``sprt.json`` in the run folder says where the
test stands (written after every deal that counts, and at the end)."""

from __future__ import annotations

import os
import statistics
from pathlib import Path
from typing import Any

from tournament.config import TournamentConfig
from tournament.ratings import pair_rows, t95
from tournament.results import write_json
from tournament.schedule import PAIRED_TABLES, paired_seatings
from tournament.sprt import Sprt, SprtSpec, SprtStatus

SPRT_FILE = "sprt.json"


class PairedProgress:
    """Where a paired run stands, fed its records as they are written: the margin A - B over
    the deals counted so far and, with ``[stop] sprt``, the sequential test over them."""

    def __init__(self, config: TournamentConfig, records: list[dict[str, Any]]) -> None:
        assert config.candidates is not None
        self.config = config
        self.seatings = len(paired_seatings(config))
        self.sprt = None if config.sprt is None else Sprt(config.sprt)
        self.deal_margins: list[float] = []      # the margin of each deal counted, in deal order
        self.games: dict[tuple[int, int], dict[int, dict[str, Any]]] = {}   # (deal, seating) -> table -> record
        self.margins: dict[int, list[float]] = {}      # deal -> the margins of its complete pairs
        self.counted = 0          # deals 0..counted-1 are samples of the test
        self.games_played = 0
        for record in records:
            self.add(record)

    @property
    def spec(self) -> SprtSpec:
        assert self.config.sprt is not None, "a paired run without [stop] sprt has no test"
        return self.config.sprt

    @property
    def decision(self) -> str | None:
        return None if self.sprt is None else self.sprt.decision

    def add(self, record: dict[str, Any]) -> bool:
        """Take one recorded game; True when it made one or more deals count."""
        if record.get("status") != "played" or record.get("table") not in PAIRED_TABLES:
            return False
        self.games_played += 1
        key = (record["deal"], record["seating"])
        by_table = self.games.setdefault(key, {})
        by_table[record["table"]] = record
        if len(by_table) == len(PAIRED_TABLES):
            (row,) = pair_rows(self.config, by_table.values())
            self.margins.setdefault(record["deal"], []).append(row["margin"])
            del self.games[key]
        before = self.counted
        while len(self.margins.get(self.counted, ())) == self.seatings:
            self.deal_margins.append(statistics.fmean(self.margins[self.counted]))
            if self.sprt is not None:
                self.sprt.add(self.deal_margins[-1])
            self.counted += 1
        return self.counted > before

    def status(self) -> SprtStatus:
        assert self.sprt is not None, "a paired run without [stop] sprt has no test"
        return self.sprt.status(path=True)

    def write(self, out: Path, stopped_early: bool) -> None:
        """``sprt.json``: the test, where it stands and the LLR after each deal (the report's
        chart); replaced whole, so a reader never sees half of it."""
        data = {"spec": self.spec.to_dict(), "status": self.status().to_dict(),
                "candidates": [" + ".join(side) for side in self.config.candidates or ()],
                "unit": "score points per deal, A - B, the mean over the deal's seatings",
                "games_played": self.games_played, "pairs": sum(map(len, self.margins.values())),
                "deals": self.counted, "stopped_early": stopped_early}
        tmp = out / (SPRT_FILE + ".tmp")
        write_json(tmp, data)
        os.replace(tmp, out / SPRT_FILE)

    def outcome(self, stopped_early: bool) -> dict[str, Any]:
        """The test's outcome for summary.json and run.json: the status without its path, the
        games played and whether the rest of the schedule was left unplayed."""
        out = self.status().to_dict()
        del out["llr_path"]
        return {**out, "games_played": self.games_played, "deals": self.counted, "stopped_early": stopped_early}

    def describe(self) -> str:
        """One line: the decision (or the LLR between its bounds), the margin and the samples;
        without a test, the margin over the deals counted."""
        if self.sprt is None:
            return self._describe_margin()
        st = self.status()
        if st.mean is None:
            margin = ""
        elif st.stderr is None:
            margin = f", margin {st.mean:+.2f}"
        else:
            margin = f", margin {st.mean:+.2f} ± {1.96 * st.stderr:.2f}"
        verdict = {"H1": f"H1 accepted (A - B >= {self.spec.m1:g})", "H0": f"H0 accepted (A - B <= {self.spec.m0:g})"}
        head = verdict[st.decision] + f" at deal {st.decided_at}" if st.decision else "undecided"
        return (f"SPRT {head}: LLR {st.llr:+.2f} in [{st.lower:.2f}, {st.upper:.2f}]{margin} over {st.samples} deals "
                f"({self.games_played} games)")

    def _describe_margin(self) -> str:
        margins, a, b = self.deal_margins, *(" + ".join(side) for side in self.config.candidates or ())
        if not margins:
            return f"paired {a} - {b}: no deal complete yet ({self.games_played} games)"
        mean = statistics.fmean(margins)
        # the interval of tournament.ratings.paired_margin (Student t over the deals), so the line
        # ends on the figure the summary prints
        spread = "" if len(margins) < 2 else \
            f" ± {t95(len(margins) - 1) * statistics.stdev(margins) / len(margins) ** 0.5:.2f}"
        return f"paired {a} - {b}: {mean:+.2f}{spread} over {len(margins)} deals ({self.games_played} games)"
