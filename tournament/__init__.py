"""trickcore tournament runner: external bots over stdin/stdout, TOML-configured.

Modules, bottom-up:

* ``wire``     -- the protocol's messages (docs/protocol.md), pure encode/parse
* ``process``  -- one bot program as an OS process: threads, bounded I/O, group kill
* ``sandbox``  -- the bubblewrap sandbox every bot runs in: what it sees, its limits, its memory watch
* ``session``  -- the protocol conversation with one bot; misbehaviour -> BotFault
* ``config``   -- TOML config validation (docs/tournament.md)
* ``schedule`` -- tables, deals, seat rotations, seeds -> jobs
* ``match``    -- the referee: one game at one table, fault policies
* ``results``  -- append-only JSONL results, resume, output files
* ``ratings``  -- standings: mean score with CIs, win share, openskill
* ``runner``   -- the whole tournament: worker tables (threads or processes), disqualification, Ctrl-C
* ``compliance`` -- ``trickcore compliance``: one bot against the protocol
* ``demos``    -- the per-game demo configs and their standings as a markdown table
* ``bench``    -- ``trickcore bench-runner``: overhead per decision against a pipe ping-pong floor
* ``report``   -- ``trickcore report``: the HTML report of a run (``html_assets``: its CSS, JS, SVG)
* ``replay_html`` -- the replay viewer: one game as a page, per-seat views from each seat's observations
* ``cli``      -- click commands: tournament, match, compliance, replay, demo-standings, bench-runner

The Python bot SDK is ``trickcore.bot``.
"""

from tournament.wire import PROTOCOL_VERSION

__all__ = ["PROTOCOL_VERSION"]
