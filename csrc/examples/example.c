/* example.c - embedding the trickcore core in a plain C program.
 *
 * Builds a 52-card deck, deals four hands from a fixed seed, plays one trick by
 * hand through the checked API, shows how bad input is refused, then runs random
 * playouts, a perft count and a playout search of one position.
 * Compiles with -std=c99 -Wall -Wextra -pedantic -Werror; needs only trickcore.h. */
#include <stdio.h>
#include "trickcore.h"

int main(void) {
    tc_deck deck;
    tc_rules rules;
    tc_rng rng;
    tc_cards hands[4];
    tc_play_state state, small;
    uint16_t moves[TC_MAX_MOVES];
    uint32_t tricks[4] = {0, 0, 0, 0};
    tc_perft_stats stats;
    int i, n, status;

    tc_reference_deck(&deck);
    rules.n_players = 4;
    rules.follow = TC_FOLLOW_SUIT;
    rules.winner = TC_WIN_TRUMP;
    rules.trump = 0;

    tc_rng_seed(&rng, 42);
    tc_deal(&rng, deck.all, 4, 13, hands, NULL);
    status = tc_play_init(&state, &deck, &rules, hands, 0, 13);
    if (status != TC_OK) {
        printf("error: %s\n", tc_strerror(status));
        return 1;
    }

    /* Play the first trick: each seat plays its first legal move. */
    for (i = 0; i < 4; i++) {
        n = tc_play_moves(&deck, &rules, &state, moves);
        status = tc_play(&deck, &rules, &state, moves[0]);
        if (status != TC_OK) {
            printf("error: %s\n", tc_strerror(status));
            return 1;
        }
    }
    printf("trick 1 won by seat %d (%d legal moves for the last seat)\n", state.last_winner, n);

    /* An illegal move gives a defined error code, never a crash. */
    status = tc_play(&deck, &rules, &state, 200);
    printf("playing move 200 (card 72, declared): %s\n", tc_strerror(status));

    /* Data is checked where it enters: a suitless card that is neither a lamb
     * nor a top trump could never be followed or win, so the deck refuses it. */
    {
        tc_deck odd;
        tc_deck_init(&odd, 2);
        status = tc_deck_add(&odd, TC_NO_SUIT, 1, 1, 1, 0, 0);
        printf("adding a plain suitless card: %s\n", tc_strerror(status));
        rules.trump = 5;
        status = tc_play_init(&small, &deck, &rules, hands, 0, 13);
        printf("trump suit 5 in a 4-suit deck: %s\n", tc_strerror(status));
        rules.trump = 0;
    }

    for (i = 0; i < 1000; i++) tc_reference_playout(&deck, &rng, tricks);
    printf("1000 random deals: tricks per seat %u %u %u %u\n", tricks[0], tricks[1], tricks[2], tricks[3]);

    /* Perft over the last 3 tricks of a deal (3 cards each). */
    tc_rng_seed(&rng, 7);
    tc_deal(&rng, deck.all, 4, 3, hands, NULL);
    tc_play_init(&small, &deck, &rules, hands, 0, 3);
    {
        unsigned long long leaves = (unsigned long long)tc_perft(&deck, &rules, &small, -1, &stats);
        printf("perft(3 tricks) = %llu leaves, seat 0 won %llu tricks over all leaves\n", leaves,
               (unsigned long long)stats.tricks[0]);
    }
    /* Search from the current position: 2,000 random playouts after each legal
     * move of the seat to move, in C, with per-seat means of tricks won. */
    {
        uint16_t cand[TC_MAX_MOVES];
        tc_playout_stats eval[TC_MAX_MOVES];
        int k, best = 0, seat = tc_play_to_move(&state, &rules);
        tc_rng_seed(&rng, 11);
        n = tc_playouts_per_move(&deck, &rules, &state, 2000, TC_POLICY_RANDOM, &rng, cand, eval);
        for (k = 1; k < n; k++)
            if (eval[k].tricks[seat] > eval[best].tricks[seat]) best = k;
        printf("seat %d: %d moves evaluated, best card %d expects %.2f tricks\n", seat, n, cand[best],
               eval[best].tricks[seat]);
    }
    printf("trickcore %s\n", tc_version());
    return 0;
}
