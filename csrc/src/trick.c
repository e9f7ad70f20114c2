/* trick.c - the exported entry points of legal-move generation and trick
 * resolution.  The rules themselves are the static inline functions of
 * rules_inline.h (one definition each), which play.c inlines into its loops;
 * this file only wraps them for bindings and embedders. */
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
    return tc__trick_winner(t, n_players, pile);
}

int tc_trick_next_leader(const tc_deck *d, const tc_trick *t, int n_players) {
    return tc__next_leader(d, t, n_players);
}

int tc_trick_points(const tc_deck *d, const tc_trick *t) {
    (void)d;
    return t->points;
}
