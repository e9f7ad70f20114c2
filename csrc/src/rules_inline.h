/* rules_inline.h - the trick rules, as static inline functions.
 *
 * The single definition of every trick rule: which cards may be played
 * (tc__legal), which card wins as the trick grows (tc__trick_add), whose card
 * that is (tc__trick_winner) and who leads next, with Hattrick's comparison of
 * the two piles (tc__next_leader).  trick.c exports them as tc_legal,
 * tc_trick_add, tc_trick_winner and tc_trick_next_leader; play.c inlines them
 * into the playout and perft loops, which is where the core spends its time. */
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

/* Distinct moves from the legal cards, ascending: declared cards give two moves,
 * twins one (tc_moves in trickcore.h). */
/* Append the move TC_MOVE(c, decl) of every card c of a to out[n..], ascending; returns the new
 * count.  A word at a time, lowest set bit first: the move list is built for every decision of
 * every caller, and stepping with tc_next would search from the start of a word per card. */
static inline int tc__append_moves(tc_cards a, int decl, uint16_t *out, int n) {
    int w;
    for (w = 0; w < 2; w++) {
        uint64_t bits = a.w[w];
        while (bits) {
            out[n++] = (uint16_t)TC_MOVE(64 * w + TC_CTZ64(bits), decl);
            bits &= bits - 1;
        }
    }
    return n;
}

static inline int tc__moves(const tc_deck *d, const tc_rules *r, const tc_trick *t, tc_cards hand, uint16_t *out) {
    tc_cards legal = tc__legal(d, r, t, hand);
    tc_cards twins = tc_and(legal, d->twin);
    tc_cards decl = tc_and(legal, d->declared);
    if (!tc_is_empty(twins)) {          /* identical cards give one move: keep the lowest */
        legal = tc_minus(legal, twins);
        legal = tc_or(legal, tc_cards_of(tc_first(twins)));
    }
    return tc__append_moves(decl, 1, out, tc__append_moves(legal, 0, out, 0));
}

/* Winning keys.  A card replaces the current winner iff its key is strictly
 * greater, so equal keys go to the card played first (Sticheln C7a, Jupiter and
 * Juno 6.7a); key 0 never wins.  key = class << 8 | order, classes:
 *   TC_WIN_TRUMP:   3 top trump (order 0: the first stays), 2 trump suit,
 *                   1 led suit, 0 other suit or always-playable card;
 *   TC_WIN_OFFLEAD: 2 trump (non-lead colour, not a zero; order = strength, or
 *                   255 - strength when the lowest wins), 1 lead colour, 0 zero.
 * The card's deck entries are read once into locals before the trick is written:
 * uint8_t stores may alias the deck's uint8_t tables, so the compiler would reload. */
static inline int tc__trick_add(const tc_deck *d, const tc_rules *r, tc_trick *t, int move) {
    int card = TC_MOVE_CARD(move), decl = TC_MOVE_DECL(move);
    int i = t->n_played, power, pile = 0, role, suit, rank, trump = r->trump, led;
    unsigned key;
    if (i >= r->n_players) return TC_E_STATE;
    if (card >= d->n_cards) return TC_E_CARD;
    role = d->role[card];
    suit = d->suit[card];
    rank = d->rank[card];
    if (role & TC_ROLE_DECLARED) power = d->decl_strength[decl];          /* God card 6.5 */
    else if (trump >= 0 && suit == trump) power = d->trump_strength[card];
    else power = d->strength[card];
    t->points += d->points[card];
    t->card[i] = (uint8_t)card;
    t->power[i] = (uint8_t)power;
    t->decl[i] = (uint8_t)decl;
    t->n_played = i + 1;
    t->cards.w[card >> 6] |= (uint64_t)1 << (card & 63);

    switch (r->winner) {
    case TC_WIN_TRUMP:
        led = t->led;
        if (led == TC_LED_NONE && !(role & TC_ROLE_ALWAYS)) {
            /* The first card that is not a lamb sets the led category (BJ 6.3). */
            if ((role & TC_ROLE_TOP_TRUMP) || (trump >= 0 && suit == trump))
                led = trump >= 0 ? trump : TC_LED_TRUMP;
            else
                led = suit;
            t->led = (int8_t)led;
        }
        if (role & TC_ROLE_ALWAYS) key = 0;                   /* lambs never win (6.6) */
        else if (role & TC_ROLE_TOP_TRUMP) key = 3u << 8;     /* first JUP/JUNO stays (6.7a) */
        else if (trump >= 0 && suit == trump) key = 2u << 8 | (unsigned)power;
        else if (suit == led) key = 1u << 8 | (unsigned)power;
        else key = 0;
        break;
    case TC_WIN_OFFLEAD_HIGH:
    case TC_WIN_OFFLEAD_LOW:
        if (i == 0) t->led = (int8_t)suit;          /* a led zero still sets the colour (D-5) */
        if (suit == t->led) key = 1u << 8 | (unsigned)power;
        else if (rank == 0) key = 0;                /* zeros are never trumps (C6) */
        else key = 2u << 8 | (unsigned)(r->winner == TC_WIN_OFFLEAD_LOW ? 255 - power : power);
        break;
    case TC_WIN_DOUBLE:
        if (t->open[0] == TC_NO_SUIT || suit == t->open[0]) t->open[0] = (int8_t)suit;
        else if (t->open[1] == TC_NO_SUIT || suit == t->open[1]) { t->open[1] = (int8_t)suit; pile = 1; }
        else pile = TC_PILE_PASS;                   /* a third-colour card is a pass (H3c) */
        if (i == 0) t->led = (int8_t)suit;
        key = pile == TC_PILE_PASS ? 0 : 1u << 8 | (unsigned)power;
        break;
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

/* The seat whose card wins pile `pile` of the trick, or -1 if none does. */
static inline int tc__trick_winner(const tc_trick *t, int n_players, int pile) {
    int seat;
    if (pile < 0 || pile > 1 || t->best[pile] < 0) return -1;
    seat = t->leader + t->best[pile];
    return seat >= n_players ? seat - n_players : seat;
}

/* Values of one Hattrick pile, sorted descending; returns the count. */
static inline int pile_values(const tc_deck *d, const tc_trick *t, int pile, int *out) {
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

/* Who leads next: the winner of the trick, or in a Hattrick double trick (two
 * piles) the winner of the stronger pile (H5): compare the piles' values from the
 * highest down, the first difference decides; a pile that runs out first loses;
 * equal piles go to the colour that comes first in the colour order.  -1 if the
 * trick has no winner. */
static inline int tc__next_leader(const tc_deck *d, const tc_trick *t, int n_players) {
    int a[TC_MAX_PLAYERS], b[TC_MAX_PLAYERS], na, nb, k, win;
    if (t->best[0] < 0) return -1;
    if (t->best[1] < 0) return tc__trick_winner(t, n_players, 0);
    na = pile_values(d, t, 0, a);
    nb = pile_values(d, t, 1, b);
    win = -1;
    for (k = 0; win < 0 && (k < na || k < nb); k++) {          /* H5 step 2 */
        if (k >= nb || (k < na && a[k] > b[k])) win = 0;
        else if (k >= na || b[k] > a[k]) win = 1;
    }
    if (win < 0) win = t->open[0] < t->open[1] ? 0 : 1;         /* H5 step 3: colour order */
    return tc__trick_winner(t, n_players, win);
}

#endif
