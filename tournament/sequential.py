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

from pathlib import Path
from typing import Any

from tournament.config import TournamentConfig
from tournament.files import write_json
from tournament.paired import PairedResults, PairedShape, describe_progress
from tournament.sprt import Sprt, SprtSpec, SprtStatus

SPRT_FILE = "sprt.json"


class PairedProgress:
    """Where a paired run stands, fed its records as they are written: its pairs and margin A - B
    so far (tournament.paired) and, with ``[stop] sprt``, the sequential test over its deals."""

    def __init__(self, config: TournamentConfig, records: list[dict[str, Any]]) -> None:
        self.config = config
        self.results = PairedResults(PairedShape.of_config(config))
        self.sprt = None if config.sprt is None else Sprt(config.sprt)
        self.counted = 0          # deals 0..counted-1 are samples of the test
        for record in records:
            self.add(record)

    @property
    def spec(self) -> SprtSpec:
        assert self.config.sprt is not None, "a paired run without [stop] sprt has no test"
        return self.config.sprt

    @property
    def decision(self) -> str | None:
        return None if self.sprt is None else self.sprt.decision

    @property
    def games_played(self) -> int:
        return self.results.games_played

    def add(self, record: dict[str, Any]) -> bool:
        """Take one recorded game; True when it made one or more deals count."""
        if self.results.add(record) is None:
            return False
        before = self.counted
        while (sample := self.results.deal_sample(self.counted)) is not None:
            if self.sprt is not None:
                self.sprt.add(sample)
            self.counted += 1
        return self.counted > before

    def status(self) -> SprtStatus:
        assert self.sprt is not None, "a paired run without [stop] sprt has no test"
        return self.sprt.status(path=True)

    def write(self, out: Path, stopped_early: bool) -> None:
        """``sprt.json``: the test, where it stands and the LLR after each deal (the report's
        chart); replaced whole, so a reader never sees half of it."""
        data = {"spec": self.spec.to_dict(), "status": self.status().to_dict(),
                "candidates": list(self.results.shape.labels),
                "unit": "score points per deal, A - B, the mean over the deal's seatings",
                "games_played": self.games_played, "pairs": self.results.pairs,
                "deals": self.counted, "stopped_early": stopped_early}
        write_json(out / SPRT_FILE, data)

    def outcome(self, stopped_early: bool) -> dict[str, Any]:
        """The test's outcome for summary.json and run.json: the status without its path, the
        games played and whether the rest of the schedule was left unplayed."""
        out = self.status().to_dict()
        del out["llr_path"]
        return {**out, "games_played": self.games_played, "deals": self.counted, "stopped_early": stopped_early}

    def describe(self) -> str:
        """The progress line's note: the margin A - B over the pairs so far (the figure and
        interval the summary ends on) and, with a test, where the test stands."""
        margin = describe_progress(self.results)
        return margin if self.sprt is None else f"{margin}; {self._test_line()}"

    def describe_sprt(self) -> str:
        """The test's line at the end of a run: the decision (or the LLR between its bounds) and
        the deals and games it took; the margin is the paired line's, printed above it."""
        return f"{self._test_line()} ({self.games_played} games)"

    def _test_line(self) -> str:
        st = self.status()
        verdict = {"H1": f"H1 accepted (A - B >= {self.spec.m1:g})", "H0": f"H0 accepted (A - B <= {self.spec.m0:g})"}
        head = verdict[st.decision] + f" at deal {st.decided_at}" if st.decision else "undecided"
        return f"SPRT {head}: LLR {st.llr:+.2f} in [{st.lower:.2f}, {st.upper:.2f}] over {st.samples} deals"
