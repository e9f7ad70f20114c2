/* trick.c - legal-move generation and incremental trick resolution.
 *
 * This file is the one place where trick rules live; every binding and every
 * game module calls into it. */
#include "internal.h"

void tc_trick_start(tc_trick *t, int leader) {
    t->n_played = 0;
    t->leader = leader;
    t->led = TC_LED_NONE;
    t->open[0] = t->open[1] = TC_NO_SUIT;
    t->best[0] = t->best[1] = -1;
}

/* Cards of `hand` that belong to the trump category: the trump suit and the
 * suitless top trumps (Beim Jupiter 6.2). */
static tc_cards trump_cards(const tc_deck *d, const tc_rules *r, tc_cards hand) {
    tc_cards t = tc_and(hand, d->top_trump);
    if (r->trump >= 0) t = tc_or(t, tc_and(hand, d->suit_mask[r->trump]));
    return t;
}

/* Strength of the trick's current best trump, or -1 if it holds no trump. */
static int top_trump_power(const tc_deck *d, const tc_rules *r, const tc_trick *t) {
    int b = t->best[0];
    if (b < 0 || r->trump < 0 || d->suit[t->card[b]] != r->trump) return -1;
    return t->power[b];
}

/* Trumps of `trumps` ranked above `power` (Klaberjass "beats top"). */
static tc_cards trumps_above(const tc_deck *d, tc_cards trumps, int power) {
    tc_cards out = tc_cards_empty();
    int c;
    for (c = tc_first(trumps); c >= 0; c = tc_next(trumps, c))
        if (d->trump_strength[c] > power) out = tc_or(out, tc_cards_of(c));
    return out;
}

tc_cards tc_legal(const tc_deck *d, const tc_rules *r, const tc_trick *t, tc_cards hand) {
    tc_cards follow;
    switch (r->follow) {
    case TC_FOLLOW_SUIT:
        if (t->led == TC_LED_NONE) return hand;
        if (t->led == TC_LED_TRUMP || t->led == r->trump)
            follow = trump_cards(d, r, hand);
        else
            follow = tc_and(hand, d->suit_mask[t->led]);
        if (tc_is_empty(follow)) return hand;
        /* Always-playable cards (lambs) stay legal even when the player can follow. */
        return tc_or(follow, tc_and(hand, d->always));
    case TC_FOLLOW_OVERTRUMP: {
        tc_cards trumps, above;
        int top;
        if (t->n_played == 0) return hand;                       /* 7.2.1 */
        trumps = r->trump >= 0 ? tc_and(hand, d->suit_mask[r->trump]) : tc_cards_empty();
        top = top_trump_power(d, r, t);
        if (t->led != r->trump) {
            follow = tc_and(hand, d->suit_mask[t->led]);
            if (!tc_is_empty(follow)) return follow;             /* 7.2.3 */
            if (tc_is_empty(trumps)) return hand;                /* 7.2.5 */
            if (top < 0) return trumps;                          /* 7.2.4, no trump in P */
        } else if (tc_is_empty(trumps)) {
            return hand;                                         /* 7.2.2, no trump */
        }
        above = trumps_above(d, trumps, top);                    /* over-trump if able, */
        return tc_is_empty(above) ? trumps : above;              /* else any trump (under-trump) */
    }
    case TC_FOLLOW_FREE:
    case TC_FOLLOW_DOUBLE:
    default:
        return hand;
    }
}

int tc_moves(const tc_deck *d, const tc_rules *r, const tc_trick *t, tc_cards hand, uint16_t *out) {
    tc_cards legal = tc_legal(d, r, t, hand);
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

/* Effective strength of a card as played. */
static int card_power(const tc_deck *d, const tc_rules *r, int card, int decl) {
    if (d->role[card] & TC_ROLE_DECLARED) return d->decl_strength[decl];
    if (r->trump >= 0 && d->suit[card] == r->trump) return d->trump_strength[card];
    return d->strength[card];
}

/* Class of a played card under TC_WIN_TRUMP: 3 top trump, 2 trump suit, 1 led suit,
 * 0 cannot win (other suit, or an always-playable card). */
static int trump_class(const tc_deck *d, const tc_rules *r, const tc_trick *t, int card) {
    int role = d->role[card], suit = d->suit[card];
    if (role & TC_ROLE_ALWAYS) return 0;
    if (role & TC_ROLE_TOP_TRUMP) return 3;
    if (r->trump >= 0 && suit == r->trump) return 2;
    if (suit == t->led) return 1;
    return 0;
}

/* Class under Sticheln's rule (C6): 2 trump (off-lead colour, not a zero), 1 lead colour, 0 zero. */
static int offlead_class(const tc_deck *d, const tc_trick *t, int card) {
    if (d->suit[card] == t->led) return 1;
    return d->rank[card] != 0 ? 2 : 0;
}

int tc_trick_add(const tc_deck *d, const tc_rules *r, tc_trick *t, int move) {
    int card = TC_MOVE_CARD(move), decl = TC_MOVE_DECL(move);
    int i = t->n_played, b;
    if (i >= r->n_players) return TC_E_STATE;
    if (card >= d->n_cards) return TC_E_CARD;
    t->card[i] = (uint8_t)card;
    t->power[i] = (uint8_t)card_power(d, r, card, decl);
    t->pile[i] = 0;
    t->n_played = i + 1;

    switch (r->winner) {
    case TC_WIN_TRUMP: {
        int cls, bcls;
        if (t->led == TC_LED_NONE && !(d->role[card] & TC_ROLE_ALWAYS)) {
            /* The first card that is not a lamb sets the led category (BJ 6.3). */
            if ((d->role[card] & TC_ROLE_TOP_TRUMP) || (r->trump >= 0 && d->suit[card] == r->trump))
                t->led = (int8_t)(r->trump >= 0 ? r->trump : TC_LED_TRUMP);
            else
                t->led = d->suit[card];
        }
        cls = trump_class(d, r, t, card);
        if (cls == 0) break;
        b = t->best[0];
        if (b < 0) { t->best[0] = (int8_t)i; break; }
        bcls = trump_class(d, r, t, t->card[b]);
        /* Among top trumps the first played wins: a later one never replaces it. */
        if (cls > bcls || (cls == bcls && cls < 3 && t->power[i] > t->power[b])) t->best[0] = (int8_t)i;
        break;
    }
    case TC_WIN_OFFLEAD_HIGH:
    case TC_WIN_OFFLEAD_LOW: {
        int cls, bcls;
        if (i == 0) t->led = d->suit[card];        /* a led zero still sets the colour (D-5) */
        cls = offlead_class(d, t, card);
        if (cls == 0) break;
        b = t->best[0];
        if (b < 0) { t->best[0] = (int8_t)i; break; }
        bcls = offlead_class(d, t, t->card[b]);
        if (cls > bcls) t->best[0] = (int8_t)i;
        else if (cls == bcls) {
            /* Strict comparisons: of equal trumps the first played wins (C7a, V2). */
            int low = cls == 2 && r->winner == TC_WIN_OFFLEAD_LOW;
            if (low ? t->power[i] < t->power[b] : t->power[i] > t->power[b])
                t->best[0] = (int8_t)i;
        }
        break;
    }
    case TC_WIN_DOUBLE: {
        int suit = d->suit[card], p;
        if (t->open[0] == TC_NO_SUIT || suit == t->open[0]) { t->open[0] = (int8_t)suit; p = 0; }
        else if (t->open[1] == TC_NO_SUIT || suit == t->open[1]) { t->open[1] = (int8_t)suit; p = 1; }
        else p = TC_PILE_PASS;                      /* a third-colour card is a pass (H3c) */
        t->pile[i] = (uint8_t)p;
        if (i == 0) t->led = (int8_t)suit;
        if (p != TC_PILE_PASS && (t->best[p] < 0 || t->power[i] > t->power[t->best[p]]))
            t->best[p] = (int8_t)i;
        break;
    }
    default:
        return TC_E_ARG;
    }
    return TC_OK;
}

int tc_trick_winner(const tc_trick *t, int n_players, int pile) {
    if (pile < 0 || pile > 1 || t->best[pile] < 0) return -1;
    return (t->leader + t->best[pile]) % n_players;
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
    int i, sum = 0;
    for (i = 0; i < t->n_played; i++) sum += d->points[t->card[i]];
    return sum;
}
