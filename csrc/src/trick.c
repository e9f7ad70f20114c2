/* trick.c - the exported entry points of legal-move generation and trick
 * resolution.  The rules themselves are the static inline functions of
 * rules_inline.h (one definition each), which play.c inlines into its loops;
 * this file wraps them for bindings and embedders, with the cheap checks that
 * keep a bad argument from indexing out of bounds (trickcore.h). */
#include "rules_inline.h"

void tc_trick_start(tc_trick *t, int leader) {
    if (!t) return;
    t->n_played = 0;
    t->leader = leader;
    t->led = TC_LED_NONE;
    t->open[0] = t->open[1] = TC_NO_SUIT;
    t->best[0] = t->best[1] = -1;
    t->best_key[0] = t->best_key[1] = 0;
    t->cards = tc_cards_empty();
    t->points = 0;
}

/* Rules fields in range for this deck (the O(1) part of tc_rules_check). */
static int rules_status(const tc_deck *d, const tc_rules *r) {
    if (d->n_cards < 0 || d->n_cards > TC_MAX_CARDS || d->n_suits < 0 || d->n_suits > TC_MAX_SUITS)
        return TC_E_DECK;
    if (r->n_players < 2 || r->n_players > TC_MAX_PLAYERS) return TC_E_PLAYERS;
    if (r->follow < TC_FOLLOW_FREE || r->follow > TC_FOLLOW_DOUBLE) return TC_E_FOLLOW;
    if (r->winner < TC_WIN_TRUMP || r->winner > TC_WIN_DOUBLE) return TC_E_WINNER;
    if (r->trump != TC_NO_SUIT && (r->trump < 0 || r->trump >= d->n_suits)) return TC_E_TRUMP;
    /* tc_rules_check's last test, O(1) with the deck's role masks. */
    if (!tc_is_empty(tc_or(d->always, d->top_trump)) && (r->winner != TC_WIN_TRUMP || r->follow == TC_FOLLOW_OVERTRUMP))
        return TC_E_UNPLAYABLE;
    return TC_OK;
}

/* A trick the rules functions can read: counters and indices in range. */
static int trick_status(const tc_deck *d, const tc_rules *r, const tc_trick *t) {
    int i, rc = rules_status(d, r);
    if (rc != TC_OK) return rc;
    if (t->n_played < 0 || t->n_played > r->n_players) return TC_E_STATE;
    if (t->led != TC_LED_NONE && t->led != TC_LED_TRUMP && (t->led < 0 || t->led >= d->n_suits)) return TC_E_STATE;
    /* Over-trumping reads the led suit's mask once a card is down; every card has a suit there. */
    if (r->follow == TC_FOLLOW_OVERTRUMP && t->n_played > 0 && t->led < 0) return TC_E_STATE;
    for (i = 0; i < 2; i++) {
        if (t->best[i] < -1 || t->best[i] >= t->n_played) return TC_E_STATE;
        if (t->open[i] != TC_NO_SUIT && (t->open[i] < 0 || t->open[i] >= d->n_suits)) return TC_E_STATE;
    }
    for (i = 0; i < t->n_played; i++)
        if (t->card[i] >= d->n_cards) return TC_E_STATE;
    return TC_OK;
}

tc_cards tc_legal(const tc_deck *d, const tc_rules *r, const tc_trick *t, tc_cards hand) {
    if (!d || !r || !t || trick_status(d, r, t) != TC_OK) return tc_cards_empty();
    return tc__legal(d, r, t, hand);
}

int tc_moves(const tc_deck *d, const tc_rules *r, const tc_trick *t, tc_cards hand, uint16_t *out) {
    int rc;
    if (!d || !r || !t || !out) return TC_E_ARG;
    if ((rc = trick_status(d, r, t)) != TC_OK) return rc;
    return tc__moves(d, r, t, hand, out);
}

int tc_trick_add(const tc_deck *d, const tc_rules *r, tc_trick *t, int move) {
    int rc;
    if (!d || !r || !t) return TC_E_ARG;
    if ((rc = trick_status(d, r, t)) != TC_OK) return rc;
    return tc__trick_add(d, r, t, move);
}

int tc_trick_winner(const tc_trick *t, int n_players, int pile) {
    if (!t || n_players < 1 || n_players > TC_MAX_PLAYERS || t->leader < 0 || t->leader >= n_players) return -1;
    if (t->best[0] >= n_players || t->best[1] >= n_players) return -1;
    return tc__trick_winner(t, n_players, pile);
}

int tc_trick_next_leader(const tc_deck *d, const tc_trick *t, int n_players) {
    int i;
    if (!d || !t || n_players < 1 || n_players > TC_MAX_PLAYERS || t->n_played < 0 || t->n_played > n_players)
        return -1;
    for (i = 0; i < t->n_played; i++)
        if (t->card[i] >= TC_MAX_CARDS) return -1;
    return tc_trick_winner(t, n_players, 0) < 0 ? -1 : tc__next_leader(d, t, n_players);
}

int tc_trick_points(const tc_deck *d, const tc_trick *t) {
    (void)d;
    return t ? t->points : 0;
}
