/* fuzz_core.c - a fuzz target over every public function of the core.
 *
 * The input bytes are read as a program: each step takes an opcode byte and its
 * arguments from the stream (missing bytes read as 0), so any byte string is a
 * valid input.  The steps build decks from arbitrary numbers, write raw bytes into
 * deck structs, start trick phases with arbitrary rules and hands, play arbitrary
 * moves, run playouts, perft and the trick functions, and check the invariants the
 * header promises (status codes in range, sums of tricks, unchanged inputs).  Any
 * broken invariant aborts; under AddressSanitizer and UndefinedBehaviorSanitizer any
 * out-of-bounds access or undefined behaviour aborts too.
 *
 * Two ways to run it:
 *   - with clang's libFuzzer:  clang -fsanitize=fuzzer,address,undefined ... fuzz_core.c
 *   - anywhere else, built with -DTC_FUZZ_MAIN: a seeded random-input driver,
 *       fuzz_core [-n INPUTS] [-t SECONDS] [-s SEED] [FILE...]
 *     runs the given files as inputs, then INPUTS random inputs (fresh random bytes and
 *     mutations of earlier ones), and prints how many it executed.
 */
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "trickcore.h"

#define REQUIRE(cond)                                                                   \
    do {                                                                                \
        if (!(cond)) {                                                                  \
            fprintf(stderr, "fuzz_core: invariant failed at %s:%d: %s\n", __FILE__,     \
                    __LINE__, #cond);                                                   \
            abort();                                                                    \
        }                                                                               \
    } while (0)

typedef struct {
    const uint8_t *p;
    size_t n, at;
} reader;

static unsigned byte(reader *r) { return r->at < r->n ? r->p[r->at++] : 0u; }
static int small(reader *r, int lo, int hi) { return lo + (int)(byte(r) % (unsigned)(hi - lo + 1)); }
/* The ints at the edges of every range: where an int parameter overflowed before. */
static const int EDGE_INTS[] = {INT_MIN, INT_MIN + 1, -129, -128, -2, -1, 0, 1, 126, 127, 128,
                                255, 256, INT_MAX - 1, INT_MAX};

static int any_int(reader *r) {
    /* Mostly small values around the valid ranges, sometimes extreme ones. */
    unsigned sel = byte(r);
    if (sel < 190) return (int)byte(r) - 20;
    if (sel < 205) return EDGE_INTS[byte(r) % (sizeof EDGE_INTS / sizeof EDGE_INTS[0])];
    if (sel < 230) return (int)(byte(r) | byte(r) << 8) - 1000;
    {
        uint32_t v = byte(r) | byte(r) << 8 | byte(r) << 16 | (uint32_t)byte(r) << 24;
        return (int)v;
    }
}
static tc_cards any_cards(reader *r) {
    tc_cards c;
    int k;
    c.w[0] = c.w[1] = 0;
    for (k = 0; k < 16; k++) c.w[k / 8] |= (uint64_t)byte(r) << (8 * (k % 8));
    return c;
}

static int status_ok(int rc) { return rc == TC_OK || (rc >= TC_STATUS_MIN && rc < 0); }

/* The fuzzer's world: a few decks and play states it builds and uses. */
typedef struct {
    tc_deck deck[2];
    tc_rules rules[2];
    tc_play_state state[2];
    int started[2];        /* state[i] came from a successful tc_play_init with deck[i], rules[i] */
    tc_rng rng;
} world;

static void make_game_deck(world *w, int i, reader *r) {
    /* A deck the rules accept, shaped like one of the games' decks. */
    int kind = small(r, 0, 3), s, v, n_suits = small(r, 1, 6), top = small(r, 3, 20);
    tc_deck *d = &w->deck[i];
    REQUIRE(tc_deck_init(d, n_suits) == TC_OK);
    for (s = 0; s < n_suits; s++)
        for (v = 0; v <= top && d->n_cards < TC_MAX_CARDS - 4; v++)
            REQUIRE(tc_deck_add(d, s, v, v, kind == 1 ? top - v : v, v % 4, 0) >= 0);
    if (kind == 2) {   /* Beim Jupiter-like extras */
        tc_deck_add(d, TC_NO_SUIT, 0, 0, 0, 0, TC_ROLE_TOP_TRUMP);
        tc_deck_add(d, TC_NO_SUIT, 0, 0, 0, 0, TC_ROLE_ALWAYS | TC_ROLE_TWIN);
        tc_deck_add(d, TC_NO_SUIT, 0, 0, 0, 0, TC_ROLE_ALWAYS | TC_ROLE_TWIN);
        tc_deck_set_decl(d, 0, 99);
    }
    if (kind == 3) tc_deck_add(d, 0, 200, 200, 200, 0, TC_ROLE_DECLARED);
    REQUIRE(tc_deck_check(d) == TC_OK);
}

static void op_deck_add(world *w, reader *r) {
    int i = byte(r) & 1, k, count = small(r, 1, 12);
    tc_deck before;
    if (byte(r) & 1) {
        int rc = tc_deck_init(&w->deck[i], any_int(r));
        REQUIRE(rc == TC_OK || rc == TC_E_SUIT);
        w->started[i] = 0;
    }
    for (k = 0; k < count; k++) {
        int rc;
        before = w->deck[i];
        rc = tc_deck_add(&w->deck[i], any_int(r), any_int(r), any_int(r), any_int(r), any_int(r), any_int(r));
        REQUIRE(rc >= 0 ? rc == before.n_cards : status_ok(rc));
        if (rc < 0) REQUIRE(memcmp(&before, &w->deck[i], sizeof before) == 0);   /* unchanged on error */
        REQUIRE(tc_deck_check(&w->deck[i]) == TC_OK);                            /* adds keep it valid */
    }
    REQUIRE(status_ok(tc_deck_set_decl(&w->deck[i], any_int(r), any_int(r))));
    w->started[i] = 0;
}

static void op_raw_deck(world *w, reader *r) {
    /* Arbitrary bytes over a valid deck: the check must refuse or accept, never crash. */
    int i = byte(r) & 1, k, edits = small(r, 1, 16);
    tc_deck d = w->deck[i];
    uint8_t *raw = (uint8_t *)&d;
    for (k = 0; k < edits; k++) raw[(byte(r) | byte(r) << 8) % sizeof d] = (uint8_t)byte(r);
    REQUIRE(status_ok(tc_deck_check(&d)));
    if (tc_deck_check(&d) == TC_OK) {
        w->deck[i] = d;   /* still a valid deck: keep playing with it */
        w->started[i] = 0;
    }
}

static void op_play_init(world *w, reader *r) {
    int i = byte(r) & 1, p, rc, tricks, leader;
    tc_cards hands[TC_MAX_PLAYERS];
    tc_rules *ru = &w->rules[i];
    ru->n_players = byte(r) < 230 ? small(r, 2, 8) : any_int(r);
    ru->follow = byte(r) < 230 ? small(r, 0, 3) : any_int(r);
    ru->winner = byte(r) < 230 ? small(r, 0, 3) : any_int(r);
    ru->trump = byte(r) < 200 ? small(r, -1, w->deck[i].n_suits - 1 < 0 ? -1 : w->deck[i].n_suits - 1) : any_int(r);
    if (byte(r) < 180 && ru->n_players >= 2 && ru->n_players <= 8) {
        /* A fair deal of the deck: often accepted. */
        int size = w->deck[i].n_cards / ru->n_players;
        tc_rng_seed(&w->rng, byte(r));
        rc = tc_deal(&w->rng, w->deck[i].all, ru->n_players, size, hands, NULL);
        REQUIRE(rc == TC_OK);
        tricks = byte(r) < 200 ? size : any_int(r);
    } else {
        for (p = 0; p < TC_MAX_PLAYERS; p++) hands[p] = any_cards(r);
        tricks = any_int(r);
    }
    leader = byte(r) < 230 ? small(r, 0, 7) : any_int(r);
    REQUIRE(status_ok(tc_rules_check(&w->deck[i], ru)));
    rc = tc_play_init(&w->state[i], &w->deck[i], ru, hands, leader, tricks);
    if (tc_rules_check(&w->deck[i], ru) != TC_OK) REQUIRE(rc != TC_OK);   /* bad rules never start */
    REQUIRE(status_ok(rc));
    w->started[i] = rc == TC_OK;
    if (rc == TC_OK) REQUIRE(tc_play_to_move(&w->state[i], ru) == (tricks > 0 ? leader : -1));
}

static int tricks_total(const tc_play_state *s, int n) {
    int p, t = 0;
    for (p = 0; p < n; p++) t += s->tricks[p];
    return t;
}

static void op_play(world *w, reader *r) {
    int i = byte(r) & 1, k, steps = small(r, 1, 60), n, rc;
    uint16_t moves[TC_MAX_MOVES];
    tc_rules other;
    if (!w->started[i]) return;
    for (k = 0; k < steps && !tc_play_over(&w->state[i]); k++) {
        tc_play_state before = w->state[i];
        n = tc_play_moves(&w->deck[i], &w->rules[i], &w->state[i], moves);
        REQUIRE(n >= 0 && n <= TC_MAX_MOVES);
        if (n == 0) break;   /* a hand ran out (its trick count allowed it): nothing to play */
        if (byte(r) < 160) {
            rc = tc_play(&w->deck[i], &w->rules[i], &w->state[i], moves[byte(r) % (unsigned)n]);
            REQUIRE(rc == TC_OK);
            if (w->rules[i].winner != TC_WIN_DOUBLE)
                REQUIRE(tricks_total(&w->state[i], w->rules[i].n_players) + w->state[i].tricks_left ==
                        tricks_total(&before, w->rules[i].n_players) + before.tricks_left);
        } else {
            rc = tc_play(&w->deck[i], &w->rules[i], &w->state[i], any_int(r));
            REQUIRE(status_ok(rc));
            if (rc != TC_OK) REQUIRE(memcmp(&before, &w->state[i], sizeof before) == 0);
        }
        REQUIRE(tc_play_over(&w->state[i]) || tc_play_to_move(&w->state[i], &w->rules[i]) >= 0);
    }
    other = w->rules[i];
    other.n_players = other.n_players == 8 ? 2 : other.n_players + 1;
    REQUIRE(tc_play(&w->deck[i], &other, &w->state[i], 0) == TC_E_RULES ||
            tc_play_over(&w->state[i]));
    REQUIRE(tc_play_moves(&w->deck[i], &other, &w->state[i], moves) == TC_E_RULES);
}

static void op_search(world *w, reader *r) {
    int i = byte(r) & 1, n = small(r, 1, 8), policy = byte(r) < 240 ? small(r, 0, 1) : any_int(r), k, rc;
    uint16_t moves[TC_MAX_MOVES];
    tc_playout_stats st, per[TC_MAX_MOVES];
    tc_perft_stats ps;
    tc_play_state copy;
    if (!w->started[i]) return;
    copy = w->state[i];
    tc_rng_seed(&w->rng, byte(r));
    rc = tc_playouts(&w->deck[i], &w->rules[i], &w->state[i], n, policy, &w->rng, &st);
    REQUIRE(status_ok(rc));
    REQUIRE(memcmp(&copy, &w->state[i], sizeof copy) == 0);
    rc = tc_playouts_per_move(&w->deck[i], &w->rules[i], &w->state[i], 1, policy, &w->rng, moves, per);
    REQUIRE(rc >= 0 ? rc <= TC_MAX_MOVES : status_ok(rc));
    /* the policy's move, when there is one, is one of the legal moves and plays */
    rc = tc_policy_move(&w->deck[i], &w->rules[i], &w->state[i], policy, &w->rng);
    if (rc >= 0) {
        tc_play_state after = w->state[i];
        REQUIRE(tc_play(&w->deck[i], &w->rules[i], &after, rc) == TC_OK);
    } else {
        REQUIRE(status_ok(rc));
    }
    REQUIRE(memcmp(&copy, &w->state[i], sizeof copy) == 0);
    /* perft only near the end of a phase, so one input stays fast */
    if (w->state[i].tricks_left <= 1 || (w->state[i].tricks_left <= 2 && w->rules[i].n_players <= 3))
        (void)tc_perft(&w->deck[i], &w->rules[i], &w->state[i], small(r, -1, 6), &ps);
    else
        (void)tc_perft(&w->deck[i], &w->rules[i], &w->state[i], small(r, 0, 2), byte(r) & 1 ? &ps : NULL);
    k = tc_playout(&w->deck[i], &w->rules[i], &copy, &w->rng);
    REQUIRE(status_ok(k));
    if (k == TC_OK) REQUIRE(tc_play_over(&copy));
}

static void op_trick(world *w, reader *r) {
    /* The trick building blocks under arbitrary rules, on tricks they built themselves. */
    int i = byte(r) & 1, k, cards = small(r, 0, 9), rc, n;
    tc_rules ru;
    tc_trick t;
    uint16_t moves[TC_MAX_MOVES];
    ru.n_players = byte(r) < 220 ? small(r, 2, 8) : any_int(r);
    ru.follow = byte(r) < 220 ? small(r, 0, 3) : any_int(r);
    ru.winner = byte(r) < 220 ? small(r, 0, 3) : any_int(r);
    ru.trump = byte(r) < 220 ? small(r, -1, 7) : any_int(r);
    tc_trick_start(&t, byte(r) < 230 ? small(r, 0, 7) : any_int(r));
    for (k = 0; k < cards; k++) {
        rc = tc_trick_add(&w->deck[i], &ru, &t, any_int(r));
        REQUIRE(status_ok(rc));
    }
    (void)tc_legal(&w->deck[i], &ru, &t, any_cards(r));
    n = tc_moves(&w->deck[i], &ru, &t, any_cards(r), moves);
    REQUIRE(n >= TC_STATUS_MIN && n <= TC_MAX_MOVES);
    (void)tc_trick_winner(&t, any_int(r), any_int(r));
    (void)tc_trick_next_leader(&w->deck[i], &t, ru.n_players);
    (void)tc_trick_points(&w->deck[i], &t);
    /* A trick with raw bytes: the wrappers refuse what they cannot read. */
    {
        uint8_t *raw = (uint8_t *)&t;
        int edits = small(r, 1, 6);
        for (k = 0; k < edits; k++) raw[byte(r) % sizeof t] = (uint8_t)byte(r);
        (void)tc_legal(&w->deck[i], &ru, &t, any_cards(r));
        (void)tc_moves(&w->deck[i], &ru, &t, any_cards(r), moves);
        (void)tc_trick_add(&w->deck[i], &ru, &t, any_int(r));
        (void)tc_trick_winner(&t, any_int(r), any_int(r));
        (void)tc_trick_next_leader(&w->deck[i], &t, any_int(r));
    }
}

static void op_cards(world *w, reader *r) {
    tc_cards a = any_cards(r), hands[TC_MAX_PLAYERS], rest;
    uint8_t ids[TC_MAX_CARDS], buf[32];
    int n = tc_count(a), k, x = any_int(r);
    REQUIRE(tc_to_array(a, ids) == n);
    REQUIRE(tc_first(a) == (n ? ids[0] : -1) && tc_last(a) == (n ? ids[n - 1] : -1));
    for (k = 0; k < n && k < 8; k++) REQUIRE(tc_nth(a, k) == ids[k]);
    REQUIRE(tc_nth(a, n) == -1 && tc_nth(a, -1) == -1);
    {
        int next = tc_next(a, x);  /* -1, or the lowest id of a above x: for every int x */
        REQUIRE(next == -1 || (next > x && next < TC_MAX_CARDS && tc_has(a, next)));
        REQUIRE(next != -1 || x >= TC_MAX_CARDS - 1 || tc_is_empty(a) || tc_last(a) <= x);
    }
    (void)tc_has(a, x);
    (void)tc_cards_of(x & 127);
    {
        int rc = tc_deal(&w->rng, a, any_int(r), any_int(r), hands, byte(r) & 1 ? &rest : NULL);
        REQUIRE(rc == TC_OK || rc == TC_E_PLAYERS || rc == TC_E_ARG);
    }
    for (k = 0; k < 32; k++) buf[k] = (uint8_t)byte(r);
    {
        /* a holds 32 bytes: any length up to 32, and every length <= 0 (nothing happens). */
        int len = byte(r) & 1 ? small(r, -3, 32) : (any_int(r) < 0 ? INT_MIN : -1), k2;
        uint8_t before[32];
        memcpy(before, buf, sizeof buf);
        tc_shuffle(&w->rng, buf, len);
        if (len <= 1)
            for (k2 = 0; k2 < 32; k2++) REQUIRE(buf[k2] == before[k2]);
    }
    (void)tc_rng_below(&w->rng, (uint32_t)any_int(r));
    (void)tc_rng_next(&w->rng);
    REQUIRE(tc_strerror(any_int(r)) != NULL && tc_version() != NULL);
    REQUIRE(tc_deck_init(NULL, 1) == TC_E_ARG && tc_deck_check(NULL) == TC_E_ARG);
    REQUIRE(tc_play_init(NULL, NULL, NULL, NULL, 0, 0) == TC_E_ARG);
}

/* NULL for every pointer of every checked entry point, one at a time, the others valid:
 * each is refused, never read. */
static void op_nulls(world *w, reader *r) {
    int i = byte(r) & 1;
    const tc_deck *d = &w->deck[i];
    const tc_rules *ru = &w->rules[i];
    tc_play_state s = w->state[i];
    tc_trick t = s.trick;
    tc_cards hands[TC_MAX_PLAYERS];
    uint16_t moves[TC_MAX_MOVES];
    tc_playout_stats stats[TC_MAX_MOVES];
    tc_perft_stats ps;
    tc_rng *rng = &w->rng;
    int n = any_int(r);
    memset(hands, 0, sizeof hands);
    REQUIRE(tc_deck_init(NULL, n) == TC_E_ARG);
    REQUIRE(tc_deck_add(NULL, n, n, n, n, n, n) == TC_E_ARG);
    REQUIRE(tc_deck_set_decl(NULL, n, n) == TC_E_ARG);
    REQUIRE(tc_deck_check(NULL) == TC_E_ARG);
    REQUIRE(tc_rules_check(NULL, ru) == TC_E_ARG && tc_rules_check(d, NULL) == TC_E_ARG);
    REQUIRE(tc_deal(NULL, d->all, 2, 1, hands, NULL) == TC_E_ARG);
    REQUIRE(tc_deal(rng, d->all, 2, 0, NULL, NULL) == TC_E_ARG);
    REQUIRE(tc_is_empty(tc_legal(NULL, ru, &t, d->all)) && tc_is_empty(tc_legal(d, NULL, &t, d->all)) &&
            tc_is_empty(tc_legal(d, ru, NULL, d->all)));
    REQUIRE(tc_moves(NULL, ru, &t, d->all, moves) == TC_E_ARG && tc_moves(d, NULL, &t, d->all, moves) == TC_E_ARG &&
            tc_moves(d, ru, NULL, d->all, moves) == TC_E_ARG && tc_moves(d, ru, &t, d->all, NULL) == TC_E_ARG);
    REQUIRE(tc_trick_add(NULL, ru, &t, n) == TC_E_ARG && tc_trick_add(d, NULL, &t, n) == TC_E_ARG &&
            tc_trick_add(d, ru, NULL, n) == TC_E_ARG);
    REQUIRE(tc_trick_winner(NULL, n, n) == -1);
    REQUIRE(tc_trick_next_leader(NULL, &t, n) == -1 && tc_trick_next_leader(d, NULL, n) == -1);
    REQUIRE(tc_trick_points(d, NULL) == 0);
    REQUIRE(tc_play_init(NULL, d, ru, hands, n, n) == TC_E_ARG && tc_play_init(&s, NULL, ru, hands, n, n) == TC_E_ARG &&
            tc_play_init(&s, d, NULL, hands, n, n) == TC_E_ARG && tc_play_init(&s, d, ru, NULL, n, n) == TC_E_ARG);
    REQUIRE(tc_play_to_move(NULL, ru) == -1 && tc_play_to_move(&s, NULL) == -1);
    REQUIRE(tc_play_moves(NULL, ru, &s, moves) == TC_E_ARG && tc_play_moves(d, NULL, &s, moves) == TC_E_ARG &&
            tc_play_moves(d, ru, NULL, moves) == TC_E_ARG && tc_play_moves(d, ru, &s, NULL) == TC_E_ARG);
    REQUIRE(tc_play(NULL, ru, &s, n) == TC_E_ARG && tc_play(d, NULL, &s, n) == TC_E_ARG &&
            tc_play(d, ru, NULL, n) == TC_E_ARG);
    REQUIRE(tc_playout(NULL, ru, &s, rng) == TC_E_ARG && tc_playout(d, NULL, &s, rng) == TC_E_ARG &&
            tc_playout(d, ru, NULL, rng) == TC_E_ARG && tc_playout(d, ru, &s, NULL) == TC_E_ARG);
    REQUIRE(tc_policy_move(NULL, ru, &s, 0, rng) == TC_E_ARG && tc_policy_move(d, NULL, &s, 0, rng) == TC_E_ARG &&
            tc_policy_move(d, ru, NULL, 0, rng) == TC_E_ARG && tc_policy_move(d, ru, &s, 0, NULL) == TC_E_ARG);
    REQUIRE(tc_playouts(NULL, ru, &s, 1, 0, rng, stats) == TC_E_ARG &&
            tc_playouts(d, NULL, &s, 1, 0, rng, stats) == TC_E_ARG &&
            tc_playouts(d, ru, NULL, 1, 0, rng, stats) == TC_E_ARG &&
            tc_playouts(d, ru, &s, 1, 0, NULL, stats) == TC_E_ARG &&
            tc_playouts(d, ru, &s, 1, 0, rng, NULL) == TC_E_ARG);
    REQUIRE(tc_playouts_per_move(NULL, ru, &s, 1, 0, rng, moves, stats) == TC_E_ARG &&
            tc_playouts_per_move(d, NULL, &s, 1, 0, rng, moves, stats) == TC_E_ARG &&
            tc_playouts_per_move(d, ru, NULL, 1, 0, rng, moves, stats) == TC_E_ARG &&
            tc_playouts_per_move(d, ru, &s, 1, 0, NULL, moves, stats) == TC_E_ARG &&
            tc_playouts_per_move(d, ru, &s, 1, 0, rng, NULL, stats) == TC_E_ARG &&
            tc_playouts_per_move(d, ru, &s, 1, 0, rng, moves, NULL) == TC_E_ARG);
    REQUIRE(tc_perft(NULL, ru, &s, 1, &ps) == 0 && tc_perft(d, NULL, &s, 1, NULL) == 0 &&
            tc_perft(d, ru, NULL, 1, NULL) == 0);
    {
        tc_bj_round round;
        tc_bj_distribution out;
        memset(&round, 0, sizeof round);
        REQUIRE(tc_bj_distribute(NULL, &round, &out) == TC_E_ARG && tc_bj_distribute(d, NULL, &out) == TC_E_ARG &&
                tc_bj_distribute(d, &round, NULL) == TC_E_ARG);
    }
    tc_shuffle(NULL, (uint8_t *)moves, 4);
    tc_shuffle(rng, NULL, n);
}

/* Beim Jupiter's distribution on rounds shaped like the game's (each bid card at its bid), with
 * a field made arbitrary now and then: a refusal leaves *out as it was; an answer accounts for
 * every card on the table exactly once (taken, or left: kept, or removed at t). */
static void op_bj_distribute(world *w, reader *r) {
    int i = byte(r) & 1, p, k, rc, n, extra;
    const tc_deck *d = &w->deck[i];
    tc_bj_round in, copy;
    tc_bj_distribution out, before;
    memset(&in, 0, sizeof in);
    memset(&out, 0xA5, sizeof out);
    n = small(r, 1, TC_MAX_PLAYERS);
    in.n_players = n;
    in.start = small(r, 0, n - 1);
    in.t = small(r, 1, TC_BJ_MAX_COUNT);
    for (p = 0; p < n; p++) {
        in.bid[p] = (uint8_t)small(r, 0, TC_BJ_MAX_COUNT);
        in.locked[p] = (uint8_t)(in.bid[p] ? byte(r) & 1 : 0);
        in.colour[p] = (uint8_t)(d->n_cards ? byte(r) % (unsigned)d->n_cards : 0);
        in.tricks[p] = (uint8_t)(byte(r) & 1 ? in.bid[p] : small(r, 0, TC_BJ_MAX_COUNT));
        in.points[p] = (uint16_t)small(r, 0, 40);
        if (in.bid[p]) {
            in.card[in.n_table] = in.colour[p];
            in.count[in.n_table++] = in.bid[p];
        }
    }
    extra = small(r, 0, 12);
    for (k = 0; k < extra && d->n_cards; k++) {
        in.card[in.n_table] = (uint8_t)(byte(r) % (unsigned)d->n_cards);
        in.count[in.n_table++] = (uint8_t)small(r, 1, TC_BJ_MAX_COUNT);
    }
    if (byte(r) < 40) {   /* arbitrary bytes over the round */
        uint8_t *raw = (uint8_t *)&in;
        int edits = small(r, 1, 4);
        for (k = 0; k < edits; k++) raw[(byte(r) | byte(r) << 8) % sizeof in] = (uint8_t)byte(r);
    }
    copy = in;
    before = out;
    rc = tc_bj_distribute(d, &in, &out);
    REQUIRE(status_ok(rc));
    REQUIRE(memcmp(&copy, &in, sizeof in) == 0);
    if (rc != TC_OK) {
        REQUIRE(memcmp(&before, &out, sizeof out) == 0);
        return;
    }
    n = in.n_players;   /* the raw edits may have changed it */
    REQUIRE(out.n_picks >= 0 && out.n_picks <= n && out.n_left + out.n_picks == in.n_table);
    REQUIRE(out.n_table <= out.n_left && out.n_removed >= out.n_left - out.n_table);
    for (k = 0; k < in.n_table; k++) {
        int c = in.card[k], seen = 0, j;
        for (j = 0; j < out.n_picks; j++)
            if (out.pick_card[j] == c) {
                seen++;
                REQUIRE(out.pick_count[j] == in.count[k] && out.won[out.pick_seat[j]] == c);
                REQUIRE(in.tricks[out.pick_seat[j]] == in.count[k] && out.category[out.pick_seat[j]] != TC_BJ_NONE);
            }
        for (j = 0; j < out.n_left; j++)
            if (out.left_card[j] == c) {
                seen++;
                REQUIRE(out.left_count[j] == in.count[k]);
            }
        REQUIRE(seen == 1);
    }
    for (p = 0; p < n; p++)
        REQUIRE(in.bid[p] == 0 ? out.category[p] == TC_BJ_NONE && out.zero[p] == (in.tricks[p] == 0)
                               : out.category[p] >= TC_BJ_A && out.category[p] <= TC_BJ_C && out.zero[p] == -1);
}

static void op_reference(world *w, reader *r) {
    uint32_t tricks[4] = {0, 0, 0, 0};
    tc_deck d;
    tc_reference_deck(&d);
    REQUIRE(tc_deck_check(&d) == TC_OK);
    tc_rng_seed(&w->rng, byte(r));
    REQUIRE(tc_reference_playout(&d, &w->rng, tricks) == 13);
    REQUIRE(tricks[0] + tricks[1] + tricks[2] + tricks[3] == 13);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    reader rd;
    world w;
    int steps = 0;
    rd.p = data;
    rd.n = size;
    rd.at = 0;
    memset(&w, 0, sizeof w);
    make_game_deck(&w, 0, &rd);
    make_game_deck(&w, 1, &rd);
    tc_rng_seed(&w.rng, 1);
    while (rd.at < rd.n && steps++ < 64) {
        switch (byte(&rd) % 10) {
        case 0: op_deck_add(&w, &rd); break;
        case 1: op_raw_deck(&w, &rd); break;
        case 2: case 3: op_play_init(&w, &rd); break;
        case 4: case 5: op_play(&w, &rd); break;
        case 6: op_search(&w, &rd); break;
        case 7: op_trick(&w, &rd); break;
        case 8: op_nulls(&w, &rd); break;
        default:
            switch (byte(&rd) % 3) {
            case 0: op_cards(&w, &rd); break;
            case 1: op_reference(&w, &rd); break;
            default: op_bj_distribute(&w, &rd); break;
            }
            break;
        }
    }
    return 0;
}

#ifdef TC_FUZZ_MAIN
#include <time.h>

static uint64_t splitmix(uint64_t *x) {
    uint64_t z = (*x += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

static int run_file(const char *path) {
    static uint8_t buf[1 << 16];
    size_t n;
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "fuzz_core: cannot read %s\n", path);
        return 1;
    }
    n = fread(buf, 1, sizeof buf, f);
    fclose(f);
    LLVMFuzzerTestOneInput(buf, n);
    return 0;
}

int main(int argc, char **argv) {
    long inputs = 100000, done = 0;
    double seconds = 0;
    uint64_t seed = 1, x;
    static uint8_t pool[64][512];
    static size_t pool_len[64];
    int i, files = 0;
    clock_t start = clock();
    for (i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "-n") && i + 1 < argc) inputs = atol(argv[++i]);
        else if (!strcmp(argv[i], "-t") && i + 1 < argc) seconds = atof(argv[++i]);
        else if (!strcmp(argv[i], "-s") && i + 1 < argc) seed = strtoull(argv[++i], NULL, 10);
        else {
            if (run_file(argv[i])) return 1;
            files++;
        }
    }
    x = seed;
    memset(pool_len, 0, sizeof pool_len);
    while (done < inputs) {
        uint8_t buf[512];
        size_t len;
        uint64_t pick = splitmix(&x);
        int slot = (int)(pick % 64);
        if (pool_len[slot] && (pick >> 8) % 2) {      /* mutate an earlier input */
            int edits = 1 + (int)((pick >> 16) % 8), k;
            len = pool_len[slot];
            memcpy(buf, pool[slot], len);
            for (k = 0; k < edits; k++) {
                uint64_t e = splitmix(&x);
                if (e % 4 == 0 && len < sizeof buf) buf[len++] = (uint8_t)(e >> 8);
                else buf[(e >> 16) % len] = (uint8_t)(e >> 24);
            }
        } else {                                       /* fresh random bytes */
            size_t k;
            len = 1 + (size_t)((pick >> 8) % sizeof buf);
            for (k = 0; k < len; k++) buf[k] = (uint8_t)splitmix(&x);
        }
        LLVMFuzzerTestOneInput(buf, len);
        memcpy(pool[slot], buf, len);
        pool_len[slot] = len;
        done++;
        if (seconds > 0 && (done & 255) == 0 && (double)(clock() - start) / CLOCKS_PER_SEC >= seconds) break;
    }
    printf("fuzz_core: %ld random inputs and %d files executed in %.1f s (seed %llu)\n", done, files,
           (double)(clock() - start) / CLOCKS_PER_SEC, (unsigned long long)seed);
    return 0;
}
#endif
