/* test_core.c - a plain C test driver for the core: builds and runs with a C
 * compiler alone (make -C csrc check).  The Python suite holds the exhaustive
 * differential and perft tests; these pin the C API as embedders see it. */
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include "trickcore.h"

static int failures = 0;
#define CHECK(cond) do { if (!(cond)) { printf("FAIL %s:%d: %s\n", __FILE__, __LINE__, #cond); failures++; } } while (0)

/* Sticheln-like deck: 3 colours x ranks 0..5, id = colour*6 + rank. */
static void sticheln_deck(tc_deck *d) {
    int c, v;
    tc_deck_init(d, 3);
    for (c = 0; c < 3; c++)
        for (v = 0; v < 6; v++) tc_deck_add(d, c, v, v, v, 0, 0);
}

static void test_cards(void) {
    tc_cards a = tc_or(tc_cards_of(3), tc_or(tc_cards_of(64), tc_cards_of(127)));
    uint8_t ids[128];
    CHECK(tc_count(a) == 3);
    CHECK(tc_first(a) == 3 && tc_last(a) == 127);
    CHECK(tc_nth(a, 1) == 64 && tc_nth(a, 3) == -1);
    CHECK(tc_next(a, 3) == 64 && tc_next(a, 127) == -1);
    CHECK(tc_to_array(a, ids) == 3 && ids[2] == 127);
    CHECK(tc_strerror(TC_E_ILLEGAL)[0] != '\0');
}

static void test_rng(void) {
    tc_rng a, b;
    int i, same = 1;
    tc_rng_seed(&a, 1);
    tc_rng_seed(&b, 1);
    for (i = 0; i < 100; i++) same &= tc_rng_next(&a) == tc_rng_next(&b);
    CHECK(same);
    /* Pinned first output: the generator is part of the API contract. */
    tc_rng_seed(&a, 0);
    CHECK(tc_rng_next(&a) == 0x99EC5F36CB75F2B4ULL);
}

static void test_sticheln_tie(void) {
    tc_deck d;
    tc_rules r = {3, TC_FOLLOW_FREE, TC_WIN_OFFLEAD_HIGH, TC_NO_SUIT};
    tc_trick t;
    sticheln_deck(&d);
    tc_trick_start(&t, 0);
    tc_trick_add(&d, &r, &t, 0 * 6 + 2);  /* red 2 led */
    tc_trick_add(&d, &r, &t, 1 * 6 + 4);  /* blue 4: trump */
    tc_trick_add(&d, &r, &t, 2 * 6 + 4);  /* green 4: equal trump, later */
    CHECK(tc_trick_winner(&t, 3, 0) == 1);
    r.winner = TC_WIN_OFFLEAD_LOW;
    tc_trick_start(&t, 0);
    tc_trick_add(&d, &r, &t, 0 * 6 + 0);  /* red 0 led */
    tc_trick_add(&d, &r, &t, 1 * 6 + 0);  /* blue 0: never trump */
    tc_trick_add(&d, &r, &t, 2 * 6 + 0);
    CHECK(tc_trick_winner(&t, 3, 0) == 0);
}

static void test_errors(void) {
    tc_deck d;
    tc_rules r = {4, TC_FOLLOW_SUIT, TC_WIN_TRUMP, 0};
    tc_cards hands[4];
    tc_play_state s;
    tc_rng rng;
    tc_reference_deck(&d);
    tc_rng_seed(&rng, 3);
    CHECK(tc_deal(&rng, d.all, 4, 14, hands, NULL) == TC_E_ARG);
    tc_deal(&rng, d.all, 4, 13, hands, NULL);
    r.n_players = 9;
    CHECK(tc_play_init(&s, &d, &r, hands, 0, 13) == TC_E_PLAYERS);
    r.n_players = 4;
    CHECK(tc_play_init(&s, &d, &r, hands, 0, 13) == TC_OK);
    CHECK(tc_play(&d, &r, &s, 60) == TC_E_CARD);
    CHECK(tc_play(&d, &r, &s, tc_first(hands[1])) == TC_E_NOT_IN_HAND);
    CHECK(tc_play(&d, &r, &s, TC_MOVE(tc_first(hands[0]), 1)) == TC_E_DECL);
}

/* Every refusal of the checked entry points has its own status (trickcore.h). */
static void test_validation(void) {
    tc_deck d, j;
    tc_rules r = {4, TC_FOLLOW_SUIT, TC_WIN_TRUMP, 0};
    tc_cards hands[4];
    tc_play_state s;
    tc_rng rng;
    uint16_t moves[TC_MAX_MOVES];
    int i, status;

    CHECK(tc_deck_init(&d, 9) == TC_E_SUIT && d.n_suits == 0);
    CHECK(tc_deck_init(NULL, 2) == TC_E_ARG);
    CHECK(tc_deck_init(&d, 2) == TC_OK);
    CHECK(tc_deck_add(&d, 2, 1, 1, 1, 0, 0) == TC_E_SUIT);
    CHECK(tc_deck_add(&d, -3, 1, 1, 1, 0, 0) == TC_E_SUIT);
    CHECK(tc_deck_add(&d, 0, 256, 1, 1, 0, 0) == TC_E_VALUE);
    CHECK(tc_deck_add(&d, 0, 1, 1, 1, -1, 0) == TC_E_VALUE);
    CHECK(tc_deck_add(&d, 0, 1, 1, 1, 0, 16) == TC_E_ROLE);
    CHECK(tc_deck_add(&d, TC_NO_SUIT, 1, 1, 1, 0, 0) == TC_E_ROLE);           /* plain suitless */
    CHECK(tc_deck_add(&d, 0, 1, 1, 1, 0, TC_ROLE_TOP_TRUMP) == TC_E_ROLE);     /* suited top trump */
    CHECK(tc_deck_add(&d, TC_NO_SUIT, 0, 0, 0, 0, TC_ROLE_ALWAYS | TC_ROLE_TOP_TRUMP) == TC_E_ROLE);
    CHECK(tc_deck_add(&d, 0, 1, 1, 1, 0, 0) == 0);
    CHECK(tc_deck_add(&d, 0, 2, 1, 2, 0, 0) == TC_E_STRENGTH);                 /* strength 1 again */
    CHECK(tc_deck_add(&d, 0, 2, 2, 1, 0, 0) == TC_E_STRENGTH);                 /* trump strength 1 again */
    CHECK(tc_deck_add(&d, 1, 1, 1, 1, 0, 0) == 1);                             /* another suit: fine */
    CHECK(tc_deck_add(&d, TC_NO_SUIT, 0, 0, 0, 0, TC_ROLE_ALWAYS | TC_ROLE_TWIN) == 2);
    CHECK(tc_deck_add(&d, TC_NO_SUIT, 0, 0, 0, 1, TC_ROLE_ALWAYS | TC_ROLE_TWIN) == TC_E_TWIN);
    CHECK(tc_deck_add(&d, TC_NO_SUIT, 0, 0, 0, 0, TC_ROLE_ALWAYS | TC_ROLE_TWIN) == 3);
    CHECK(d.n_cards == 4 && tc_deck_check(&d) == TC_OK);
    CHECK(tc_deck_set_decl(&d, 0, 256) == TC_E_VALUE);
    for (i = d.n_cards; i < TC_MAX_CARDS; i++) tc_deck_add(&d, i % 2, i, i, i, 0, 0);
    CHECK(d.n_cards == TC_MAX_CARDS && tc_deck_add(&d, 0, 0, 200, 200, 0, 0) == TC_E_FULL);

    /* A struct filled by hand: tc_deck_check finds what tc_deck_add would refuse. */
    tc_reference_deck(&d);
    CHECK(tc_deck_check(&d) == TC_OK);
    j = d; j.suit_mask[1].w[0] ^= 1;               CHECK(tc_deck_check(&j) == TC_E_DECK);
    j = d; j.n_cards = 200;                        CHECK(tc_deck_check(&j) == TC_E_DECK);
    j = d; j.suit[5] = 7;                          CHECK(tc_deck_check(&j) == TC_E_SUIT);
    j = d; j.strength[5] = j.strength[6];          CHECK(tc_deck_check(&j) == TC_E_STRENGTH);
    j = d; j.role[5] = 32;                         CHECK(tc_deck_check(&j) == TC_E_ROLE);

    /* Rules against the deck. */
    CHECK(tc_rules_check(&d, &r) == TC_OK);
    r.follow = 4;                                  CHECK(tc_rules_check(&d, &r) == TC_E_FOLLOW);
    r.follow = TC_FOLLOW_SUIT; r.winner = -1;      CHECK(tc_rules_check(&d, &r) == TC_E_WINNER);
    r.winner = TC_WIN_TRUMP; r.trump = 4;          CHECK(tc_rules_check(&d, &r) == TC_E_TRUMP);
    r.trump = TC_NO_SUIT;                          CHECK(tc_rules_check(&d, &r) == TC_OK);
    r.trump = -2;                                  CHECK(tc_rules_check(&d, &r) == TC_E_TRUMP);
    r.trump = 0; r.n_players = 1;                  CHECK(tc_rules_check(&d, &r) == TC_E_PLAYERS);
    r.n_players = 4;
    tc_deck_init(&j, 2);
    tc_deck_add(&j, 0, 1, 1, 1, 0, 0);
    tc_deck_add(&j, TC_NO_SUIT, 0, 0, 0, 0, TC_ROLE_TOP_TRUMP);
    r.trump = 0; r.winner = TC_WIN_OFFLEAD_HIGH;   CHECK(tc_rules_check(&j, &r) == TC_E_UNPLAYABLE);
    r.winner = TC_WIN_TRUMP; r.follow = TC_FOLLOW_OVERTRUMP;
    CHECK(tc_rules_check(&j, &r) == TC_E_UNPLAYABLE);
    r.follow = TC_FOLLOW_SUIT;                     CHECK(tc_rules_check(&j, &r) == TC_OK);

    /* Hands, leader and tricks at the start of a trick phase. */
    tc_rng_seed(&rng, 5);
    tc_deal(&rng, d.all, 4, 13, hands, NULL);
    CHECK(tc_play_init(&s, &d, &r, hands, 4, 13) == TC_E_SEAT);
    CHECK(tc_play_init(&s, &d, &r, hands, 0, 14) == TC_E_HANDS);
    CHECK(tc_play_init(&s, &d, &r, hands, 0, -1) == TC_E_ARG);
    CHECK(tc_play_init(NULL, &d, &r, hands, 0, 13) == TC_E_ARG);
    hands[1] = tc_or(hands[1], tc_cards_of(tc_first(hands[0])));
    CHECK(tc_play_init(&s, &d, &r, hands, 0, 13) == TC_E_HANDS);
    hands[1] = tc_or(hands[1], tc_cards_of(100));
    CHECK(tc_play_init(&s, &d, &r, hands, 0, 13) == TC_E_CARD);

    /* tc_play_init_checked skips the deck's check only: the rest is refused alike. */
    CHECK(tc_play_init_checked(&s, &d, &r, hands, 0, 13) == TC_E_CARD);
    tc_deal(&rng, d.all, 4, 13, hands, NULL);
    CHECK(tc_play_init_checked(&s, &d, &r, hands, 4, 13) == TC_E_SEAT);
    CHECK(tc_play_init_checked(&s, &d, &r, hands, 0, 14) == TC_E_HANDS);
    CHECK(tc_play_init_checked(NULL, &d, &r, hands, 0, 13) == TC_E_ARG);
    r.follow = 4;                                  CHECK(tc_play_init_checked(&s, &d, &r, hands, 0, 13) == TC_E_FOLLOW);
    r.follow = TC_FOLLOW_SUIT;
    j = d; j.suit_mask[1].w[0] ^= 1;
    CHECK(tc_play_init(&s, &j, &r, hands, 0, 13) == TC_E_DECK);       /* the unchecked deck is refused... */
    {   /* ...the checked one trusted, and the phase it starts is the one tc_play_init starts */
        tc_play_state t;
        memset(&s, 0, sizeof s);
        memset(&t, 0, sizeof t);
        CHECK(tc_play_init_checked(&s, &d, &r, hands, 0, 13) == TC_OK);
        CHECK(tc_play_init(&t, &d, &r, hands, 0, 13) == TC_OK && memcmp(&s, &t, sizeof s) == 0);
    }

    /* Four lambs among four seats: a trick of lambs alone would have no winner. */
    tc_deck_init(&j, 1);
    for (i = 0; i < 4; i++) tc_deck_add(&j, 0, i, i, i, 0, 0);
    for (i = 0; i < 4; i++) tc_deck_add(&j, TC_NO_SUIT, 0, 0, 0, 0, TC_ROLE_ALWAYS | TC_ROLE_TWIN);
    for (i = 0; i < 4; i++) hands[i] = tc_or(tc_cards_of(i), tc_cards_of(4 + i));
    CHECK(tc_play_init(&s, &j, &r, hands, 0, 2) == TC_E_UNPLAYABLE);
    hands[3] = tc_cards_of(3);
    hands[2] = tc_or(hands[2], tc_cards_of(7));
    CHECK(tc_play_init(&s, &j, &r, hands, 0, 1) == TC_E_UNPLAYABLE);  /* still 4 lambs in play */
    hands[2] = tc_or(tc_cards_of(2), tc_cards_of(6));
    CHECK(tc_play_init(&s, &j, &r, hands, 0, 1) == TC_OK);            /* 3 lambs: fine */

    /* A state remembers its rules. */
    r.n_players = 3;
    CHECK(tc_play(&j, &r, &s, 0) == TC_E_RULES);
    CHECK(tc_play_moves(&j, &r, &s, moves) == TC_E_RULES);
    CHECK(tc_playout(&j, &r, &s, &rng) == TC_E_RULES);
    CHECK(tc_perft(&j, &r, &s, -1, NULL) == 0);
    r.n_players = 4;
    CHECK(tc_perft(&j, &r, &s, -1, NULL) > 0);

    /* Every status has its own text. */
    for (status = TC_STATUS_MIN; status < 0; status++) {
        int k;
        CHECK(tc_strerror(status)[0] != '\0');
        for (k = status + 1; k <= 0; k++) CHECK(tc_strerror(status) != tc_strerror(k));
    }
    CHECK(tc_strerror(TC_STATUS_MIN - 1)[0] == 'u');
}

/* Playouts for search: reproducible, the per-move form is the same as playing each
 * move and running tc_playouts, and the greedy policy takes a trick cheaply. */
static void test_playouts(void) {
    tc_deck d;
    tc_rules r = {4, TC_FOLLOW_SUIT, TC_WIN_TRUMP, 0};
    tc_cards hands[4];
    tc_play_state s, after;
    tc_rng rng, rng2;
    tc_playout_stats a, b, per[TC_MAX_MOVES];
    uint16_t moves[TC_MAX_MOVES];
    int n, k, p;
    double total;
    tc_reference_deck(&d);
    tc_rng_seed(&rng, 21);
    tc_deal(&rng, d.all, 4, 13, hands, NULL);
    CHECK(tc_play_init(&s, &d, &r, hands, 0, 13) == TC_OK);
    tc_rng_seed(&rng, 5);
    tc_rng_seed(&rng2, 5);
    CHECK(tc_playouts(&d, &r, &s, 300, TC_POLICY_RANDOM, &rng, &a) == TC_OK);
    CHECK(tc_playouts(&d, &r, &s, 300, TC_POLICY_RANDOM, &rng2, &b) == TC_OK);
    for (total = 0, p = 0; p < 4; p++) {
        CHECK(a.tricks[p] == b.tricks[p]);
        total += a.tricks[p];
    }
    CHECK(a.n == 300 && total > 12.999 && total < 13.001);
    CHECK(tc_playouts(&d, &r, &s, 0, TC_POLICY_RANDOM, &rng, &a) == TC_E_ARG);
    CHECK(tc_playouts(&d, &r, &s, 10, 7, &rng, &a) == TC_E_ARG);
    tc_rng_seed(&rng, 9);
    n = tc_playouts_per_move(&d, &r, &s, 50, TC_POLICY_GREEDY, &rng, moves, per);
    CHECK(n == tc_play_moves(&d, &r, &s, moves) && n > 0);
    tc_rng_seed(&rng2, 9);
    for (k = 0; k < n; k++) {
        after = s;
        CHECK(tc_play(&d, &r, &after, moves[k]) == TC_OK);
        CHECK(tc_playouts(&d, &r, &after, 50, TC_POLICY_GREEDY, &rng2, &a) == TC_OK);
        for (p = 0; p < 4; p++) CHECK(a.tricks[p] == per[k].tricks[p] && a.points[p] == per[k].points[p]);
    }
    /* Greedy: seat 1 holds the 9 and the king of spades after the 5 is led; it takes the
     * trick with the 9 (the cheapest winner) and the second trick with the king over the
     * queen.  Playing the king first would lose the second trick. */
    r.trump = 1;
    hands[0] = tc_or(tc_cards_of(3), tc_cards_of(10));           /* 5 and Q of spades */
    hands[1] = tc_or(tc_cards_of(7), tc_cards_of(11));           /* 9 and K of spades */
    hands[2] = tc_or(tc_cards_of(26), tc_cards_of(27));          /* low diamonds */
    hands[3] = tc_or(tc_cards_of(39), tc_cards_of(40));          /* low clubs */
    CHECK(tc_play_init(&s, &d, &r, hands, 0, 2) == TC_OK);
    CHECK(tc_play(&d, &r, &s, 3) == TC_OK);
    tc_rng_seed(&rng, 3);
    CHECK(tc_playouts(&d, &r, &s, 200, TC_POLICY_GREEDY, &rng, &a) == TC_OK);
    CHECK(a.tricks[1] == 2.0);
    CHECK(tc_playouts(&d, &r, &s, 200, TC_POLICY_RANDOM, &rng, &a) == TC_OK);
    CHECK(a.tricks[1] > 1.2 && a.tricks[1] < 1.8);                /* the king first half the time */
    n = tc_playouts_per_move(&d, &r, &s, 10, TC_POLICY_GREEDY, &rng, moves, per);
    CHECK(n == 2 && moves[0] == 7 && per[0].tricks[1] == 2.0 && per[1].tricks[1] == 1.0);
    /* The policy's move alone: greedy takes with the 9; random gives both moves; a bad
     * policy, and a phase that is over, are refused. */
    CHECK(tc_policy_move(&d, &r, &s, TC_POLICY_GREEDY, &rng) == 7);
    {
        int seen9 = 0, seenK = 0;
        for (k = 0; k < 200; k++) {
            int m = tc_policy_move(&d, &r, &s, TC_POLICY_RANDOM, &rng);
            CHECK(m == 7 || m == 11);
            seen9 += m == 7;
            seenK += m == 11;
        }
        CHECK(seen9 > 50 && seenK > 50);
    }
    CHECK(tc_policy_move(&d, &r, &s, 7, &rng) == TC_E_ARG);
    after = s;
    CHECK(tc_playout(&d, &r, &after, &rng) == TC_OK);
    CHECK(tc_policy_move(&d, &r, &after, TC_POLICY_GREEDY, &rng) == TC_E_STATE);
}

/* Extreme ints and NULL pointers at the checked entry points, each once found to read or
 * write out of bounds or to overflow (docs/engine.md: every int and every pointer). */
static void test_extremes(void) {
    tc_deck d;
    tc_rules r = {4, TC_FOLLOW_SUIT, TC_WIN_TRUMP, 0};
    tc_cards hands[4], a = tc_or(tc_cards_of(0), tc_cards_of(127));
    tc_play_state s;
    tc_rng rng;
    uint8_t bytes[4] = {1, 2, 3, 4};
    tc_reference_deck(&d);
    tc_rng_seed(&rng, 5);
    tc_deal(&rng, d.all, 4, 13, hands, NULL);
    CHECK(tc_play_init(&s, &d, &r, hands, 0, 13) == TC_OK);
    /* tc_playout read the deck before its NULL check. */
    CHECK(tc_playout(NULL, &r, &s, &rng) == TC_E_ARG);
    CHECK(tc_playout(&d, NULL, &s, &rng) == TC_E_ARG);
    CHECK(tc_playout(&d, &r, NULL, &rng) == TC_E_ARG);
    CHECK(tc_playout(&d, &r, &s, NULL) == TC_E_ARG);
    /* tc_shuffle: len - 1 overflowed at INT_MIN; a length <= 0 does nothing. */
    tc_shuffle(&rng, bytes, INT_MIN);
    tc_shuffle(&rng, bytes, -1);
    tc_shuffle(&rng, bytes, 0);
    tc_shuffle(&rng, bytes, 1);
    CHECK(bytes[0] == 1 && bytes[1] == 2 && bytes[2] == 3 && bytes[3] == 4);
    /* tc_next: after + 1 overflowed at INT_MAX and gave an id. */
    CHECK(tc_next(a, INT_MAX) == -1);
    CHECK(tc_next(a, 126) == 127 && tc_next(a, 127) == -1 && tc_next(a, 128) == -1);
    CHECK(tc_next(a, INT_MIN) == 0 && tc_next(a, -2) == 0 && tc_next(a, -1) == 0);
    CHECK(tc_nth(a, INT_MAX) == -1 && tc_nth(a, INT_MIN) == -1);
}

int main(void) {
    test_cards();
    test_extremes();
    test_rng();
    test_sticheln_tie();
    test_errors();
    test_validation();
    test_playouts();
    if (failures) { printf("%d failed\n", failures); return 1; }
    printf("test_core: all passed\n");
    return 0;
}
