/* trick.c - legal-move generation and incremental trick resolution.
 *
 * This file is the one place where trick rules live; every binding and every
 * game module calls into it. */
#include "rules_inline.h"

void tc_trick_start(tc_trick *t, int leader) {
    t->n_played = 0;
    t->leader = leader;
    t->led = TC_LED_NONE;
    t->open[0] = t->open[1] = TC_NO_SUIT;
    t->best[0] = t->best[1] = -1;
    t->best_key[0] = t->best_key[1] = 0;
    t->cards = tc_cards_empty();
    t->points = 0;
}

tc_cards tc_legal(const tc_deck *d, const tc_rules *r, const tc_trick *t, tc_cards hand) {
    return tc__legal(d, r, t, hand);
}

int tc_moves(const tc_deck *d, const tc_rules *r, const tc_trick *t, tc_cards hand, uint16_t *out) {
    tc_cards legal = tc__legal(d, r, t, hand);
    tc_cards twins = tc_and(legal, d->twin);
    tc_cards decl = tc_and(legal, d->declared);
    int n = 0, c;
    if (!tc_is_empty(twins)) {          /* identical cards give one move: keep the lowest */
        legal = tc_minus(legal, twins);
        legal = tc_or(legal, tc_cards_of(tc_first(twins)));
    }
    for (c = tc_first(legal); c >= 0; c = tc_next(legal, c)) out[n++] = (uint16_t)TC_MOVE(c, 0);
    for (c = tc_first(decl); c >= 0; c = tc_next(decl, c)) out[n++] = (uint16_t)TC_MOVE(c, 1);
    return n;
}

int tc_trick_add(const tc_deck *d, const tc_rules *r, tc_trick *t, int move) {
    return tc__trick_add(d, r, t, move);
}

int tc_trick_winner(const tc_trick *t, int n_players, int pile) {
    int seat;
    if (pile < 0 || pile > 1 || t->best[pile] < 0) return -1;
    seat = t->leader + t->best[pile];
    return seat >= n_players ? seat - n_players : seat;
}

/* Values of one Hattrick pile, sorted descending; returns the count. */
static int pile_values(const tc_deck *d, const tc_trick *t, int pile, int *out) {
    int n = 0, i, j;
    for (i = 0; i < t->n_played; i++)
        if (t->pile[i] == pile) {
            int v = d->rank[t->card[i]];
            for (j = n; j > 0 && out[j - 1] < v; j--) out[j] = out[j - 1];
            out[j] = v;
            n++;
        }
    return n;
}

int tc_trick_next_leader(const tc_deck *d, const tc_trick *t, int n_players) {
    int a[TC_MAX_PLAYERS], b[TC_MAX_PLAYERS], na, nb, k, win;
    if (t->best[0] < 0) return -1;
    if (t->best[1] < 0) return tc_trick_winner(t, n_players, 0);
    na = pile_values(d, t, 0, a);
    nb = pile_values(d, t, 1, b);
    win = -1;
    for (k = 0; win < 0 && (k < na || k < nb); k++) {          /* H5 step 2 */
        if (k >= nb || (k < na && a[k] > b[k])) win = 0;
        else if (k >= na || b[k] > a[k]) win = 1;
    }
    if (win < 0) win = t->open[0] < t->open[1] ? 0 : 1;         /* H5 step 3: colour order */
    return tc_trick_winner(t, n_players, win);
}

int tc_trick_points(const tc_deck *d, const tc_trick *t) {
    (void)d;
    return t->points;
}
