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
* ``report``   -- ``trickcore report``: writes the HTML report of a run (``report_data``: what it reads
  and sums up; ``report_page``: what its sections show)
* ``replay_html`` -- the replay viewer: one game as a page, per-seat views from each seat's observations
* ``pages``    -- the pages' Jinja2 templates with autoescaping (``templates/``, with their CSS, JS, SVG)
* ``cli``      -- click commands: tournament, match, compliance, replay, demo-standings, bench-runner

The Python bot SDK is ``trickcore.bot``.
"""

from trickcore.protocol import PROTOCOL_VERSION

__all__ = ["PROTOCOL_VERSION"]
