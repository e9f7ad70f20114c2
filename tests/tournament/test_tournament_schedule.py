"""Seat rotations, lineups per format, deal seeds, job ids."""

from __future__ import annotations

import itertools
import math

import pytest

from tests.tournament.support import bot_cmd, quick_doc
from tournament.config import parse_config
from tournament.schedule import build_schedule, deal_seed, master_key, seat_rotations


def every_bot_every_seat(rotations, n):
    """Every bot sits in every seat equally often."""
    times = len(rotations) // n
    for lineup_index in range(n):
        seats = sorted(rot.index(lineup_index) for rot in rotations)
        if seats != sorted(list(range(n)) * times):
            return False
    return True


@pytest.mark.parametrize("n", [2, 3, 4])
def test_all_permutations_up_to_four(n):
    rotations = seat_rotations(n)
    assert rotations[0] == tuple(range(n))
    assert sorted(rotations) == sorted(itertools.permutations(range(n)))
    assert len(rotations) == math.factorial(n)


@pytest.mark.parametrize("n", [5, 6, 8])
def test_cyclic_rotations_above_four(n):
    rotations = seat_rotations(n)
    assert len(rotations) == n
    assert every_bot_every_seat(rotations, n)
    for rot in rotations:  # each is a rotation of the identity
        shift = rot[0]
        assert rot == tuple((i + shift) % n for i in range(n))


def test_partnerships_rotate_as_units():
    teams = ((0, 2), (1, 3))
    rotations = seat_rotations(4, teams)
    assert len(rotations) == 4
    assert every_bot_every_seat(rotations, 4)
    partners = {frozenset((0, 2)), frozenset((1, 3))}  # lineup indices that form a partnership
    for rot in rotations:
        seated_teams = {frozenset((rot[a], rot[b])) for a, b in teams}
        assert seated_teams == partners


def test_partnerships_of_three_teams():
    teams = ((0, 3), (1, 4), (2, 5))
    rotations = seat_rotations(6, teams)
    assert len(rotations) == 6 * 2  # 3! team orders x 2 rotations inside each team
    assert every_bot_every_seat(rotations, 6)


def bots(n):
    return [{"name": f"b{i}", "command": bot_cmd("random_bot.py")} for i in range(n)]


def test_duplicate_replays_each_deal_under_every_seating():
    cfg = parse_config(quick_doc(bots(3), players=3, fmt="duplicate", deals=2))
    jobs = build_schedule(cfg)
    assert len(jobs) == 2 * 6
    for deal in range(2):
        group = [j for j in jobs if j.deal == deal]
        assert {j.seed for j in group} == {deal_seed(master_key(11), deal)}
        assert len({j.bots for j in group}) == 6
    assert len({j.job_id for j in jobs}) == len(jobs)
    assert [j.index for j in jobs] == list(range(len(jobs)))


def test_duplicate_with_partnerships_keeps_partners():
    cfg = parse_config(quick_doc(bots(4), game="toy-partners", players=4, fmt="duplicate"))
    jobs = build_schedule(cfg)
    assert len(jobs) == 4
    for j in jobs:
        assert {frozenset((j.bots[0], j.bots[2])), frozenset((j.bots[1], j.bots[3]))} == \
            {frozenset(("b0", "b2")), frozenset(("b1", "b3"))}


def test_round_robin_tables_and_seatings():
    cfg = parse_config(quick_doc(bots(4), players=3, deals=6))
    jobs = build_schedule(cfg)
    assert len(jobs) == 4 * 6  # C(4,3) tables x 6 deals, one seating each
    table0 = [j for j in jobs if j.table == 0]
    assert len({j.bots for j in table0}) == 6  # the seating advances with the deal
    # Each deal's seed is shared by every table.
    assert len({j.seed for j in jobs if j.deal == 0}) == 1


def test_gauntlet_candidate_at_every_table():
    doc = quick_doc(bots(4), players=2, fmt="gauntlet", deals=1)
    doc["tournament"]["candidate"] = "b2"
    jobs = build_schedule(parse_config(doc))
    assert len(jobs) == 3 * 2  # 3 opponents x 2 seatings
    assert all("b2" in j.bots for j in jobs)


def test_deal_seeds_are_stable_and_distinct():
    assert deal_seed(master_key(1), 0) == deal_seed(master_key(1), 0)
    seeds = {deal_seed(master_key(s), d) for s in range(5) for d in range(50)}
    assert len(seeds) == 250
    assert all(0 <= s < 2**64 for s in seeds)


def test_a_deal_in_play_at_one_table_waits_at_the_others():
    """DealQueue: jobs in schedule order, but for one whose deal is being played elsewhere; a
    table that finds only such jobs waits until the deal is free."""
    import threading
    import time

    from tournament.schedule import DealQueue, Job, next_free

    jobs = [Job(i, f"t0-d{deal}-s{seating}", 0, deal, deal, seating, ("a", "b"))
            for i, (deal, seating) in enumerate([(0, 0), (0, 1), (1, 0), (1, 1)])]
    assert next_free(jobs, {0}) == 2 and next_free(jobs, {0, 1}) is None and next_free(jobs, set()) == 0
    q = DealQueue(jobs)
    never = lambda: False  # noqa: E731
    first, second = q.take(never), q.take(never)
    assert (first.job_id, second.job_id) == ("t0-d0-s0", "t0-d1-s0")  # d0-s1 waits for d0-s0
    got: list[str] = []
    waiter = threading.Thread(target=lambda: got.append(q.take(never).job_id))
    waiter.start()
    time.sleep(0.3)
    assert got == []  # both deals left are in play
    q.done(second)
    waiter.join(timeout=5)
    assert got == ["t0-d1-s1"]
    q.done(first)
    assert q.take(never).job_id == "t0-d0-s1" and q.take(never) is None
    assert DealQueue(jobs).take(lambda: True) is None  # a stopped run takes nothing
