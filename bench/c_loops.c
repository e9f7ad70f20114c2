/* c_loops.c - the timed C loops of `trickcore bench` and the suites in bench/: the floor and the core.
 *
 * Each function runs its whole loop in C and returns the nanoseconds of the loop alone, read from
 * CLOCK_MONOTONIC (Python's time.perf_counter_ns on Linux) right before and after it: the set-up
 * (deck, generator, deal) is not timed.  bench/c_loops.py compiles this file with bench/floor.c
 * and the core's sources in csrc/src into a cffi module and turns the nanoseconds into figures
 * per card play or per call. */
#define _POSIX_C_SOURCE 199309L /* clock_gettime under -std=c99 */
#include <stdint.h>
#include <string.h>
#include <time.h>

#include "c_loops.h"
#include "floor.h"
#include "trickcore.h"

static int64_t now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/* The tricks per seat are counted into an array on the stack, as the loops always did, and copied
 * out after the clock has stopped. */
int64_t loop_floor(int deals, uint64_t seed, uint32_t *tricks_out) {
    uint32_t tricks[4] = {0, 0, 0, 0};
    int64_t t0, dt;
    t0 = now_ns();
    floor_playouts(deals, seed, tricks);
    dt = now_ns() - t0;
    memcpy(tricks_out, tricks, sizeof(tricks));
    return dt;
}

int64_t loop_core_reference(int deals, uint64_t seed, uint32_t *tricks_out) {
    tc_deck d;
    tc_rng rng;
    uint32_t tricks[4] = {0, 0, 0, 0};
    int64_t t0, dt;
    int i;
    tc_reference_deck(&d);
    tc_rng_seed(&rng, seed);
    t0 = now_ns();
    for (i = 0; i < deals; i++) tc_reference_playout(&d, &rng, tricks);
    dt = now_ns() - t0;
    memcpy(tricks_out, tricks, sizeof(tricks));
    return dt;
}

int64_t loop_core_legal(int calls, uint64_t seed, uint64_t *result) {
    tc_deck d;
    tc_rng rng;
    tc_rules r;
    tc_cards hands[4];
    tc_trick t;
    tc_cards legal;
    uint64_t acc = 0; /* a local, as the loop had it: no store through a pointer per call */
    int64_t t0, dt;
    int i;
    tc_reference_deck(&d);
    tc_rng_seed(&rng, seed);
    r.n_players = 4; r.follow = TC_FOLLOW_SUIT; r.winner = TC_WIN_TRUMP; r.trump = 0;
    tc_deal(&rng, d.all, 4, 13, hands, NULL);
    tc_trick_start(&t, 0);
    tc_trick_add(&d, &r, &t, tc_first(hands[0]));
    t0 = now_ns();
    for (i = 0; i < calls; i++) {
        legal = tc_legal(&d, &r, &t, hands[1 + (i & 1)]);
        acc += legal.w[0];
    }
    dt = now_ns() - t0;
    *result = acc;
    return dt;
}

int64_t loop_core_resolve(int tricks, uint64_t seed, uint64_t *result) {
    tc_deck d;
    tc_rng rng;
    tc_rules r;
    tc_trick t;
    uint64_t acc = 0;
    unsigned char cards[4096];
    int64_t t0, dt;
    int i, k;
    tc_reference_deck(&d);
    tc_rng_seed(&rng, seed);
    r.n_players = 4; r.follow = TC_FOLLOW_SUIT; r.winner = TC_WIN_TRUMP; r.trump = 1;
    for (i = 0; i < 4096; i++) cards[i] = (unsigned char)tc_rng_below(&rng, 52);
    t0 = now_ns();
    for (i = 0; i < tricks; i++) {
        tc_trick_start(&t, 0);
        for (k = 0; k < 4; k++) tc_trick_add(&d, &r, &t, cards[(4 * i + k) & 4095]);
        acc += (uint64_t)tc_trick_winner(&t, 4, 0);
    }
    dt = now_ns() - t0;
    *result = acc;
    return dt;
}
