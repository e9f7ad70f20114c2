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

/* Beim Jupiter's deck for values 1..m (11 with 4 players, 14 with 5): per suit B R Y G the
 * numbers 1..m then the God card, id s*(m+1) + v-1; then JUP, JUNO and three lambs. */
static void jupiter_deck(tc_deck *d, int m) {
    int s, v;
    tc_deck_init(d, 4);
    for (s = 0; s < 4; s++) {
        for (v = 1; v <= m; v++) tc_deck_add(d, s, v, v, v, v, 0);
        tc_deck_add(d, s, 0, 0, 0, 0, TC_ROLE_DECLARED);
    }
    tc_deck_add(d, TC_NO_SUIT, 0, 0, 0, 0, TC_ROLE_TOP_TRUMP);
    tc_deck_add(d, TC_NO_SUIT, 0, 0, 0, 0, TC_ROLE_TOP_TRUMP);
    for (v = 0; v < 3; v++) tc_deck_add(d, TC_NO_SUIT, 0, 0, 0, 0, TC_ROLE_ALWAYS | TC_ROLE_TWIN);
    tc_deck_set_decl(d, 0, 15);
}

enum { BJ_B, BJ_R, BJ_Y, BJ_G };
#define BJ4(s, v) ((s) * 12 + (v) - 1)   /* a number card of the 4-player deck */
#define BJ5(s, v) ((s) * 15 + (v) - 1)   /* ... of the 5-player deck */

static void bj_seat(tc_bj_round *in, int p, int bid, int locked, int colour, int tricks, int points) {
    in->bid[p] = (uint8_t)bid;
    in->locked[p] = (uint8_t)locked;
    in->colour[p] = (uint8_t)colour;
    in->tricks[p] = (uint8_t)tricks;
    in->points[p] = (uint16_t)points;
}

static void bj_lay(tc_bj_round *in, int count, int card) {
    in->card[in->n_table] = (uint8_t)card;
    in->count[in->n_table++] = (uint8_t)count;
}

/* Rules 7.2-8.1 on the rulebook's example and the vectors BJ-26, BJ-27 of
 * docs/rules/beim_jupiter.md §12 (bids "T" unlocked, "T+L" locked, 0 = ZERO). */
static void test_bj_distribute(void) {
    tc_deck d4, d5;
    tc_bj_round in, bad;
    tc_bj_distribution out, before;
    jupiter_deck(&d4, 11);
    jupiter_deck(&d5, 14);
    CHECK(tc_deck_check(&d4) == TC_OK && d4.n_cards == 53 && d5.n_cards == 65);

    /* BJ-03: seats 0..3 bid 4+L, 4+L, 1+L, 2; table 1: R8; 2: Y1 G4; 4: Y9 B6 G5 */
    memset(&in, 0, sizeof in);
    in.n_players = 4; in.start = 0; in.t = 12;
    bj_seat(&in, 0, 4, 1, BJ4(BJ_B, 6), 4, 47);
    bj_seat(&in, 1, 4, 1, BJ4(BJ_G, 5), 4, 38);
    bj_seat(&in, 2, 1, 1, BJ4(BJ_R, 8), 2, 60);
    bj_seat(&in, 3, 2, 0, BJ4(BJ_G, 4), 2, 0);
    bj_lay(&in, 1, BJ4(BJ_R, 8));
    bj_lay(&in, 2, BJ4(BJ_Y, 1));
    bj_lay(&in, 2, BJ4(BJ_G, 4));
    bj_lay(&in, 4, BJ4(BJ_Y, 9));
    bj_lay(&in, 4, BJ4(BJ_B, 6));
    bj_lay(&in, 4, BJ4(BJ_G, 5));
    CHECK(tc_bj_distribute(&d4, &in, &out) == TC_OK);
    CHECK(out.category[0] == TC_BJ_A && out.category[1] == TC_BJ_A && out.category[2] == TC_BJ_C &&
          out.category[3] == TC_BJ_B && out.category[4] == TC_BJ_NONE);
    CHECK(out.n_picks == 4);
    CHECK(out.pick_seat[0] == 3 && out.pick_count[0] == 2 && out.pick_card[0] == BJ4(BJ_G, 4));
    CHECK(out.pick_seat[1] == 2 && out.pick_count[1] == 2 && out.pick_card[1] == BJ4(BJ_Y, 1));
    CHECK(out.pick_seat[2] == 0 && out.pick_count[2] == 4 && out.pick_card[2] == BJ4(BJ_Y, 9));
    CHECK(out.pick_seat[3] == 1 && out.pick_count[3] == 4 && out.pick_card[3] == BJ4(BJ_B, 6));
    CHECK(out.won[0] == BJ4(BJ_Y, 9) && out.won[3] == BJ4(BJ_G, 4) && out.zero[0] == -1);
    CHECK(out.n_left == 2 && out.left_card[0] == BJ4(BJ_R, 8) && out.left_count[0] == 1 &&
          out.left_card[1] == BJ4(BJ_G, 5) && out.left_count[1] == 4);
    CHECK(out.n_removed == 0 && out.n_table == 2 && out.table_card[1] == BJ4(BJ_G, 5));

    /* BJ-26: the ZERO bidder (seat 2) took 2 tricks, so his R7 leaves the game */
    memset(&in, 0, sizeof in);
    in.n_players = 4; in.start = 1; in.t = 11;
    bj_seat(&in, 0, 3, 0, BJ4(BJ_Y, 3), 0, 0);
    bj_seat(&in, 1, 5, 1, BJ4(BJ_B, 10), 5, 0);
    bj_seat(&in, 2, 0, 0, BJ4(BJ_R, 7), 2, 0);
    bj_seat(&in, 3, 2, 0, BJ4(BJ_G, 5), 4, 0);
    bj_lay(&in, 5, BJ4(BJ_B, 10));
    bj_lay(&in, 2, BJ4(BJ_G, 5));
    bj_lay(&in, 3, BJ4(BJ_Y, 3));
    CHECK(tc_bj_distribute(&d4, &in, &out) == TC_OK);
    CHECK(out.category[2] == TC_BJ_NONE && out.zero[2] == 0 && out.won[2] == -1 && out.zero[1] == -1);
    CHECK(out.n_removed == 1 && out.removed[0] == BJ4(BJ_R, 7));
    CHECK(out.n_picks == 1 && out.pick_seat[0] == 1 && out.pick_card[0] == BJ4(BJ_B, 10));
    CHECK(out.n_table == 2 && out.table_count[0] == 2 && out.table_count[1] == 3);
    in.tricks[2] = 0;                                          /* BJ-25's way: he keeps it */
    CHECK(tc_bj_distribute(&d4, &in, &out) == TC_OK);
    CHECK(out.zero[2] == 1 && out.won[2] == BJ4(BJ_R, 7) && out.n_removed == 0);

    /* BJ-27: count 6 = t leaves the game with B13 and R14 (5 players) */
    memset(&in, 0, sizeof in);
    in.n_players = 5; in.start = 1; in.t = 6;
    bj_seat(&in, 0, 2, 1, BJ5(BJ_G, 2), 0, 0);
    bj_seat(&in, 1, 6, 0, BJ5(BJ_R, 14), 1, 0);
    bj_seat(&in, 2, 2, 1, BJ5(BJ_B, 9), 2, 0);
    bj_seat(&in, 3, 1, 0, BJ5(BJ_Y, 1), 0, 0);
    bj_seat(&in, 4, 3, 0, BJ5(BJ_G, 12), 3, 0);
    bj_lay(&in, 6, BJ5(BJ_B, 13));
    bj_lay(&in, 6, BJ5(BJ_R, 14));
    bj_lay(&in, 2, BJ5(BJ_B, 9));
    bj_lay(&in, 2, BJ5(BJ_G, 2));
    bj_lay(&in, 1, BJ5(BJ_Y, 1));
    bj_lay(&in, 3, BJ5(BJ_G, 12));
    CHECK(tc_bj_distribute(&d5, &in, &out) == TC_OK);
    CHECK(out.category[0] == TC_BJ_C && out.category[2] == TC_BJ_A && out.n_picks == 3);
    CHECK(out.pick_seat[0] == 1 && out.pick_card[0] == BJ5(BJ_Y, 1) && out.pick_card[1] == BJ5(BJ_B, 9) &&
          out.pick_card[2] == BJ5(BJ_G, 12));
    CHECK(out.n_removed == 2 && out.removed[0] == BJ5(BJ_B, 13) && out.removed[1] == BJ5(BJ_R, 14));
    CHECK(out.n_left == 3 && out.n_table == 1 && out.table_card[0] == BJ5(BJ_G, 2) && out.table_count[0] == 2);

    /* Refusals leave *out as it was. */
    before = out;
    CHECK(tc_bj_distribute(NULL, &in, &out) == TC_E_ARG && tc_bj_distribute(&d5, NULL, &out) == TC_E_ARG &&
          tc_bj_distribute(&d5, &in, NULL) == TC_E_ARG);
    bad = in; bad.n_players = 9;                   CHECK(tc_bj_distribute(&d5, &bad, &out) == TC_E_PLAYERS);
    bad = in; bad.start = 5;                       CHECK(tc_bj_distribute(&d5, &bad, &out) == TC_E_SEAT);
    bad = in; bad.t = 13;                          CHECK(tc_bj_distribute(&d5, &bad, &out) == TC_E_ARG);
    bad = in; bad.n_table = -1;                    CHECK(tc_bj_distribute(&d5, &bad, &out) == TC_E_ARG);
    bad = in; bad.tricks[1] = 13;                  CHECK(tc_bj_distribute(&d5, &bad, &out) == TC_E_ARG);
    bad = in; bad.locked[1] = 2;                   CHECK(tc_bj_distribute(&d5, &bad, &out) == TC_E_ARG);
    bad = in; bad.count[0] = 0;                    CHECK(tc_bj_distribute(&d5, &bad, &out) == TC_E_ARG);
    bad = in; bad.card[1] = bad.card[0];           CHECK(tc_bj_distribute(&d5, &bad, &out) == TC_E_ARG);
    bad = in; bad.bid[1] = 5;                      CHECK(tc_bj_distribute(&d5, &bad, &out) == TC_E_ARG);
    bad = in; bad.bid[1] = 0;                      CHECK(tc_bj_distribute(&d5, &bad, &out) == TC_E_ARG);
    bad = in; bad.card[5] = 3 * 15 + 14; /* Ggod */ CHECK(tc_bj_distribute(&d5, &bad, &out) == TC_E_CARD);
    bad = in; bad.colour[4] = 200;                 CHECK(tc_bj_distribute(&d5, &bad, &out) == TC_E_CARD);
    bad = in; bad.card[5] = BJ5(BJ_G, 12);         CHECK(tc_bj_distribute(&d4, &bad, &out) == TC_E_CARD);
    CHECK(memcmp(&before, &out, sizeof out) == 0);
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
    test_bj_distribute();
    if (failures) { printf("%d failed\n", failures); return 1; }
    printf("test_core: all passed\n");
    return 0;
}
