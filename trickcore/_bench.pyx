# cython: language_level=3
"""Timed inner loops for `trickcore bench` and bench/: the floor and the core in C.

Each function runs its whole loop in C without the GIL and returns nanoseconds
per card play, measured with a monotonic clock around the loop only."""

from libc.stdint cimport uint32_t, uint64_t
from libc.string cimport memset
from trickcore._ccore cimport *
import time

cdef extern from "floor.h" nogil:
    uint64_t floor_playouts(int n_deals, uint64_t seed, uint32_t *tricks)


def floor(int deals, uint64_t seed=1):
    """ns per card play of the hand-written 64-bit-mask floor loop, and tricks per seat."""
    cdef uint32_t tricks[4]
    memset(tricks, 0, sizeof(tricks))
    t0 = time.perf_counter_ns()
    with nogil:
        floor_playouts(deals, seed, tricks)
    dt = time.perf_counter_ns() - t0
    return dt / (deals * 52.0), [tricks[i] for i in range(4)]


def core_reference(int deals, uint64_t seed=1):
    """ns per card play of the core's generic playout of the reference game."""
    cdef tc_deck d
    cdef tc_rng rng
    cdef uint32_t tricks[4]
    cdef int i
    memset(tricks, 0, sizeof(tricks))
    tc_reference_deck(&d)
    tc_rng_seed(&rng, seed)
    t0 = time.perf_counter_ns()
    with nogil:
        for i in range(deals):
            tc_reference_playout(&d, &rng, tricks)
    dt = time.perf_counter_ns() - t0
    return dt / (deals * 52.0), [tricks[i] for i in range(4)]


def core_legal(int calls, uint64_t seed=1):
    """ns per tc_legal call on reference-game positions (one trick = 4 calls)."""
    cdef tc_deck d
    cdef tc_rng rng
    cdef tc_rules r
    cdef tc_cards hands[4]
    cdef tc_trick t
    cdef tc_cards legal
    cdef uint64_t acc = 0
    cdef int i, p
    tc_reference_deck(&d)
    tc_rng_seed(&rng, seed)
    r.n_players = 4; r.follow = TC_FOLLOW_SUIT; r.winner = TC_WIN_TRUMP; r.trump = 0
    tc_deal(&rng, d.all, 4, 13, hands, NULL)
    tc_trick_start(&t, 0)
    tc_trick_add(&d, &r, &t, tc_first(hands[0]))
    t0 = time.perf_counter_ns()
    with nogil:
        for i in range(calls):
            legal = tc_legal(&d, &r, &t, hands[1 + (i & 1)])
            acc += legal.w[0]
    dt = time.perf_counter_ns() - t0
    return dt / calls, acc


def core_resolve(int tricks, uint64_t seed=1):
    """ns per card of trick resolution (tc_trick_add + tc_trick_winner) in C."""
    cdef tc_deck d
    cdef tc_rng rng
    cdef tc_rules r
    cdef tc_trick t
    cdef uint64_t acc = 0
    cdef unsigned char cards[4096]
    cdef int i, k
    tc_reference_deck(&d)
    tc_rng_seed(&rng, seed)
    r.n_players = 4; r.follow = TC_FOLLOW_SUIT; r.winner = TC_WIN_TRUMP; r.trump = 1
    for i in range(4096):
        cards[i] = tc_rng_below(&rng, 52)
    t0 = time.perf_counter_ns()
    with nogil:
        for i in range(tricks):
            tc_trick_start(&t, 0)
            for k in range(4):
                tc_trick_add(&d, &r, &t, cards[(4 * i + k) & 4095])
            acc += tc_trick_winner(&t, 4, 0)
    dt = time.perf_counter_ns() - t0
    return dt / (tricks * 4.0), acc
