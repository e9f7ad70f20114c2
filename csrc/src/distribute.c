/* distribute.c - Beim Jupiter's end of a round: the distribution of the colour
 * cards (rules 7.2-7.8 of docs/rules/beim_jupiter.md, decisions A-21..A-26 and
 * A-37) and the removal of the cards at count t (rule 8.1).
 *
 * A rule, not flow: it runs once per round on a handful of cards, but written in
 * Python it was the largest game-specific cost of a full game (a sort of claimants
 * and a max over keyed tuples per pick).  Here every card is a deck id; its value
 * is the deck's rank and its suit the deck's suit, as Beim Jupiter builds its
 * number cards. */
#include <string.h>
#include "internal.h"

/* A colour card is a number card (rule 5.4): suited, value 1 or more. */
static int is_number_card(const tc_deck *d, int c) {
    return c < d->n_cards && c < TC_MAX_CARDS && d->suit[c] != TC_NO_SUIT && d->rank[c] >= 1;
}

/* Rule 7.6: does claimant a pick before claimant b?  A before B before C, then more
 * trick points, then seat order from the start player (which tells any two apart). */
static int picks_before(const tc_bj_round *in, const int8_t *category, int a, int b) {
    int n = in->n_players;
    if (category[a] != category[b]) return category[a] < category[b];
    if (in->points[a] != in->points[b]) return in->points[a] > in->points[b];
    return (a - in->start + n) % n < (b - in->start + n) % n;
}

/* Rule 7.7: is card c a better pick than card best?  The higher value, then the
 * claimant's own card (`own`, -1 unless he is an A claimant: A-37), then the lower suit.
 * Beim Jupiter's cards never share value and suit; in a deck whose cards do, the
 * earlier table entry stays the better one. */
static int better_pick(const tc_deck *d, int c, int best, int own) {
    if (d->rank[c] != d->rank[best]) return d->rank[c] > d->rank[best];
    if (c == own || best == own) return c == own;
    return d->suit[c] < d->suit[best];
}

/* Every argument the rule cannot use is refused before anything is written. */
static int check_round(const tc_deck *d, const tc_bj_round *in, uint8_t *count_of) {
    int n = in->n_players, p, i;
    tc_cards colours = tc_cards_empty();
    if (n < 1 || n > TC_MAX_PLAYERS) return TC_E_PLAYERS;
    if (in->start < 0 || in->start >= n) return TC_E_SEAT;
    if (in->t < 1 || in->t > TC_BJ_MAX_COUNT || in->n_table < 0 || in->n_table > TC_MAX_CARDS) return TC_E_ARG;
    memset(count_of, 0, TC_MAX_CARDS);
    for (i = 0; i < in->n_table; i++) {
        int c = in->card[i];
        if (!is_number_card(d, c)) return TC_E_CARD;
        if (in->count[i] < 1 || in->count[i] > TC_BJ_MAX_COUNT || count_of[c]) return TC_E_ARG;
        count_of[c] = in->count[i];
    }
    for (p = 0; p < n; p++) {
        int c = in->colour[p];
        if (!is_number_card(d, c)) return TC_E_CARD;
        if (in->bid[p] > TC_BJ_MAX_COUNT || in->tricks[p] > TC_BJ_MAX_COUNT || in->locked[p] > 1 ||
            (in->locked[p] && in->bid[p] == 0) || tc_has(colours, c))
            return TC_E_ARG;
        /* a bid card lies at its bid (rule 5.6); a ZERO bidder's card lies before him */
        if (count_of[c] != in->bid[p]) return TC_E_ARG;
        colours = tc_or(colours, tc_cards_of(c));
    }
    return TC_OK;
}

int tc_bj_distribute(const tc_deck *d, const tc_bj_round *in, tc_bj_distribution *out) {
    uint8_t count_of[TC_MAX_CARDS];   /* the count each card lies at, 0 for none */
    tc_cards locked = tc_cards_empty(), taken = tc_cards_empty();
    int n, p, i, T, rc;
    if (!d || !in || !out) return TC_E_ARG;
    rc = check_round(d, in, count_of);
    if (rc != TC_OK) return rc;
    n = in->n_players;
    out->n_picks = out->n_left = out->n_removed = out->n_table = 0;
    for (p = 0; p < TC_MAX_PLAYERS; p++) {
        out->category[p] = TC_BJ_NONE;
        out->zero[p] = -1;
        out->won[p] = -1;
    }
    for (p = 0; p < n; p++) {
        int c = in->colour[p];
        if (in->bid[p] == 0) {                      /* rule 7.2: his own card or nothing */
            out->zero[p] = in->tricks[p] == 0;
            if (in->tricks[p] == 0) out->won[p] = (int16_t)c;
            else out->removed[out->n_removed++] = (uint8_t)c;
        } else if (!in->locked[p]) {
            out->category[p] = TC_BJ_B;             /* fulfilled or not */
        } else if (in->tricks[p] == in->bid[p]) {
            out->category[p] = TC_BJ_A;             /* rule 7.3 */
            locked = tc_or(locked, tc_cards_of(c)); /* rule 7.4: the only locks left */
        } else {
            out->category[p] = TC_BJ_C;
        }
    }
    /* Rules 7.5-7.7, count by count (their claimants and cards never overlap). */
    for (T = 1; T <= TC_BJ_MAX_COUNT; T++) {
        int order[TC_MAX_PLAYERS], m = 0, k;
        for (p = 0; p < n; p++) {
            if (out->category[p] == TC_BJ_NONE || in->tricks[p] != T) continue;
            for (k = m; k > 0 && picks_before(in, out->category, p, order[k - 1]); k--) order[k] = order[k - 1];
            order[k] = p;
            m++;
        }
        for (k = 0; k < m; k++) {
            int q = order[k], own = in->colour[q], is_a = out->category[q] == TC_BJ_A, best = -1;
            for (i = 0; i < in->n_table; i++) {
                int c = in->card[i];
                if (in->count[i] != T || tc_has(taken, c) || (tc_has(locked, c) && c != own)) continue;
                if (best < 0 || better_pick(d, c, best, is_a ? own : -1)) best = c;
            }
            if (best >= 0) {
                taken = tc_or(taken, tc_cards_of(best));
                out->won[q] = (int16_t)best;
                out->pick_seat[out->n_picks] = (uint8_t)q;
                out->pick_count[out->n_picks] = (uint8_t)T;
                out->pick_card[out->n_picks++] = (uint8_t)best;
            }
            if (is_a) locked = tc_minus(locked, tc_cards_of(own));   /* lifted right after his pick */
        }
    }
    /* Rule 7.8: what was not taken stays, unlocked; rule 8.1: count t leaves the game. */
    for (T = 1; T <= TC_BJ_MAX_COUNT; T++) {
        for (i = 0; i < in->n_table; i++) {
            int c = in->card[i];
            if (in->count[i] != T || tc_has(taken, c)) continue;
            out->left_card[out->n_left] = (uint8_t)c;
            out->left_count[out->n_left++] = (uint8_t)T;
            if (T == in->t) {
                out->removed[out->n_removed++] = (uint8_t)c;
            } else {
                out->table_card[out->n_table] = (uint8_t)c;
                out->table_count[out->n_table++] = (uint8_t)T;
            }
        }
    }
    return TC_OK;
}
