/* rules_inline.h - the trick rules, as static inline functions.
 *
 * The single definition of every follow rule and winner rule.  trick.c exports
 * them as tc_legal / tc_trick_add; play.c inlines them into the playout and
 * perft loops, which is where the core spends its time. */
#ifndef TC_RULES_INLINE_H
#define TC_RULES_INLINE_H
#include "internal.h"

/* Cards of `hand` that belong to the trump category: the trump suit and the
 * suitless top trumps (Beim Jupiter 6.2). */
static inline tc_cards trump_cards(const tc_deck *d, const tc_rules *r, tc_cards hand) {
    tc_cards t = tc_and(hand, d->top_trump);
    if (r->trump >= 0) t = tc_or(t, tc_and(hand, d->suit_mask[r->trump]));
    return t;
}

/* Strength of the trick's current best trump, or -1 if it holds no trump. */
static inline int top_trump_power(const tc_deck *d, const tc_rules *r, const tc_trick *t) {
    int b = t->best[0];
    if (b < 0 || r->trump < 0 || d->suit[t->card[b]] != r->trump) return -1;
    return t->power[b];
}

/* Trumps of `trumps` ranked above `power` (Klaberjass "beats top"). */
static inline tc_cards trumps_above(const tc_deck *d, tc_cards trumps, int power) {
    tc_cards out = tc_cards_empty();
    int c;
    for (c = tc_first(trumps); c >= 0; c = tc_next(trumps, c))
        if (d->trump_strength[c] > power) out = tc_or(out, tc_cards_of(c));
    return out;
}

static inline tc_cards tc__legal(const tc_deck *d, const tc_rules *r, const tc_trick *t, tc_cards hand) {
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

/* Effective strength of a card as played. */
static inline int card_power(const tc_deck *d, const tc_rules *r, int card, int decl) {
    if (d->role[card] & TC_ROLE_DECLARED) return d->decl_strength[decl];
    if (r->trump >= 0 && d->suit[card] == r->trump) return d->trump_strength[card];
    return d->strength[card];
}

/* Winning keys.  A card replaces the current winner iff its key is strictly
 * greater, so equal keys go to the card played first (Sticheln C7a, Jupiter and
 * Juno 6.7a); key 0 never wins.  key = class << 8 | order, classes:
 *   TC_WIN_TRUMP:   3 top trump (order 0: the first stays), 2 trump suit,
 *                   1 led suit, 0 other suit or always-playable card;
 *   TC_WIN_OFFLEAD: 2 trump (non-lead colour, not a zero; order = strength, or
 *                   255 - strength when the lowest wins), 1 lead colour, 0 zero. */
static inline unsigned trump_key(const tc_deck *d, const tc_rules *r, const tc_trick *t, int card, int power) {
    int role = d->role[card], suit = d->suit[card];
    if (role & TC_ROLE_ALWAYS) return 0;
    if (role & TC_ROLE_TOP_TRUMP) return 3u << 8;
    if (r->trump >= 0 && suit == r->trump) return 2u << 8 | (unsigned)power;
    if (suit == t->led) return 1u << 8 | (unsigned)power;
    return 0;
}

static inline unsigned offlead_key(const tc_deck *d, const tc_rules *r, const tc_trick *t, int card, int power) {
    if (d->suit[card] == t->led) return 1u << 8 | (unsigned)power;
    if (d->rank[card] == 0) return 0;                 /* zeros are never trumps (C6) */
    return 2u << 8 | (unsigned)(r->winner == TC_WIN_OFFLEAD_LOW ? 255 - power : power);
}

static inline int tc__trick_add(const tc_deck *d, const tc_rules *r, tc_trick *t, int move) {
    int card = TC_MOVE_CARD(move), decl = TC_MOVE_DECL(move);
    int i = t->n_played, power, pile = 0;
    unsigned key;
    if (i >= r->n_players) return TC_E_STATE;
    if (card >= d->n_cards) return TC_E_CARD;
    power = card_power(d, r, card, decl);
    t->card[i] = (uint8_t)card;
    t->power[i] = (uint8_t)power;
    t->decl[i] = (uint8_t)decl;
    t->n_played = i + 1;
    t->cards.w[card >> 6] |= (uint64_t)1 << (card & 63);
    t->points += d->points[card];

    switch (r->winner) {
    case TC_WIN_TRUMP:
        if (t->led == TC_LED_NONE && !(d->role[card] & TC_ROLE_ALWAYS)) {
            /* The first card that is not a lamb sets the led category (BJ 6.3). */
            if ((d->role[card] & TC_ROLE_TOP_TRUMP) || (r->trump >= 0 && d->suit[card] == r->trump))
                t->led = (int8_t)(r->trump >= 0 ? r->trump : TC_LED_TRUMP);
            else
                t->led = d->suit[card];
        }
        key = trump_key(d, r, t, card, power);
        break;
    case TC_WIN_OFFLEAD_HIGH:
    case TC_WIN_OFFLEAD_LOW:
        if (i == 0) t->led = d->suit[card];        /* a led zero still sets the colour (D-5) */
        key = offlead_key(d, r, t, card, power);
        break;
    case TC_WIN_DOUBLE: {
        int suit = d->suit[card];
        if (t->open[0] == TC_NO_SUIT || suit == t->open[0]) t->open[0] = (int8_t)suit;
        else if (t->open[1] == TC_NO_SUIT || suit == t->open[1]) { t->open[1] = (int8_t)suit; pile = 1; }
        else pile = TC_PILE_PASS;                   /* a third-colour card is a pass (H3c) */
        if (i == 0) t->led = (int8_t)suit;
        key = pile == TC_PILE_PASS ? 0 : 1u << 8 | (unsigned)power;
        break;
    }
    default:
        return TC_E_ARG;
    }
    t->pile[i] = (uint8_t)pile;
    if (pile != TC_PILE_PASS && key > t->best_key[pile]) {
        t->best_key[pile] = (uint16_t)key;
        t->best[pile] = (int8_t)i;
    }
    return TC_OK;
}

#endif
