/* deck.c - building and checking a deck description, and checking rules against it.
 *
 * Validation lives here, where data enters, so the trick rules (rules_inline.h)
 * can index their tables without checks: a checked deck's suits are in
 * 0..n_suits-1 or TC_NO_SUIT, its roles are consistent, and no two cards of a
 * suit tie. */
#include <string.h>
#include "internal.h"

#define ROLE_BITS (TC_ROLE_ALWAYS | TC_ROLE_TOP_TRUMP | TC_ROLE_DECLARED | TC_ROLE_TWIN)

int tc_deck_init(tc_deck *d, int n_suits) {
    if (!d) return TC_E_ARG;
    memset(d, 0, sizeof *d);
    if (n_suits < 0 || n_suits > TC_MAX_SUITS) return TC_E_SUIT;
    d->n_suits = n_suits;
    return TC_OK;
}

static int is_byte(int v) { return v >= 0 && v <= 255; }

/* The checks of one card against the cards before it (ids 0..id-1). */
static int card_status(const tc_deck *d, int id, int suit, int rank, int strength, int trump_strength,
                       int points, int role) {
    int c;
    if (suit != TC_NO_SUIT && (suit < 0 || suit >= d->n_suits)) return TC_E_SUIT;
    if (!is_byte(rank) || !is_byte(strength) || !is_byte(trump_strength) || !is_byte(points)) return TC_E_VALUE;
    if (role < 0 || (role & ~ROLE_BITS)) return TC_E_ROLE;
    if ((role & TC_ROLE_ALWAYS) && (role & TC_ROLE_TOP_TRUMP)) return TC_E_ROLE;
    /* A suitless card must be one of the two suitless kinds the rules know, and
     * those two are suitless by definition (Beim Jupiter 2.1: JUP, JUNO, lambs). */
    if ((suit == TC_NO_SUIT) != ((role & (TC_ROLE_ALWAYS | TC_ROLE_TOP_TRUMP)) != 0)) return TC_E_ROLE;
    for (c = 0; c < id; c++) {
        int twin = (role & TC_ROLE_TWIN) && (d->role[c] & TC_ROLE_TWIN);
        if (twin) {
            if (d->suit[c] != suit || d->rank[c] != rank || d->strength[c] != strength ||
                d->trump_strength[c] != trump_strength || d->points[c] != points || d->role[c] != role)
                return TC_E_TWIN;
            continue;
        }
        if ((role | d->role[c]) & (TC_ROLE_TWIN | TC_ROLE_DECLARED)) continue;
        if (suit == TC_NO_SUIT || d->suit[c] != suit) continue;
        if (d->strength[c] == strength || d->trump_strength[c] == trump_strength) return TC_E_STRENGTH;
    }
    return TC_OK;
}

static void set_card(tc_deck *d, int id, int suit, int rank, int strength, int trump_strength, int points,
                     int role) {
    tc_cards bit = tc_cards_of(id);
    d->suit[id] = (int8_t)suit;
    d->rank[id] = (uint8_t)rank;
    d->strength[id] = (uint8_t)strength;
    d->trump_strength[id] = (uint8_t)trump_strength;
    d->points[id] = (uint8_t)points;
    d->role[id] = (uint8_t)role;
    d->all = tc_or(d->all, bit);
    if (suit != TC_NO_SUIT) d->suit_mask[suit] = tc_or(d->suit_mask[suit], bit);
    if (role & TC_ROLE_ALWAYS) d->always = tc_or(d->always, bit);
    if (role & TC_ROLE_TOP_TRUMP) d->top_trump = tc_or(d->top_trump, bit);
    if (role & TC_ROLE_DECLARED) d->declared = tc_or(d->declared, bit);
    if (role & TC_ROLE_TWIN) d->twin = tc_or(d->twin, bit);
}

int tc_deck_add(tc_deck *d, int suit, int rank, int strength, int trump_strength, int points, int role) {
    int id, rc;
    if (!d) return TC_E_ARG;
    id = d->n_cards;
    if (id < 0 || d->n_suits < 0 || d->n_suits > TC_MAX_SUITS) return TC_E_DECK;
    if (id >= TC_MAX_CARDS) return TC_E_FULL;
    rc = card_status(d, id, suit, rank, strength, trump_strength, points, role);
    if (rc != TC_OK) return rc;
    set_card(d, id, suit, rank, strength, trump_strength, points, role);
    d->n_cards = id + 1;
    return id;
}

int tc_deck_set_decl(tc_deck *d, int strength0, int strength1) {
    if (!d) return TC_E_ARG;
    if (!is_byte(strength0) || !is_byte(strength1)) return TC_E_VALUE;
    d->decl_strength[0] = (uint8_t)strength0;
    d->decl_strength[1] = (uint8_t)strength1;
    return TC_OK;
}

int tc_deck_check(const tc_deck *d) {
    tc_deck rebuilt;
    int id, rc, s;
    if (!d) return TC_E_ARG;
    if (d->n_cards < 0 || d->n_cards > TC_MAX_CARDS || d->n_suits < 0 || d->n_suits > TC_MAX_SUITS)
        return TC_E_DECK;
    /* Re-add every card to a fresh deck: the same checks as tc_deck_add, and the
     * masks a correct deck must have. */
    tc_deck_init(&rebuilt, d->n_suits);
    for (id = 0; id < d->n_cards; id++) {
        rc = card_status(&rebuilt, id, d->suit[id], d->rank[id], d->strength[id], d->trump_strength[id],
                         d->points[id], d->role[id]);
        if (rc != TC_OK) return rc;
        set_card(&rebuilt, id, d->suit[id], d->rank[id], d->strength[id], d->trump_strength[id], d->points[id],
                 d->role[id]);
    }
    if (!tc_equal(rebuilt.all, d->all) || !tc_equal(rebuilt.always, d->always) ||
        !tc_equal(rebuilt.top_trump, d->top_trump) || !tc_equal(rebuilt.declared, d->declared) ||
        !tc_equal(rebuilt.twin, d->twin))
        return TC_E_DECK;
    for (s = 0; s < TC_MAX_SUITS; s++)
        if (!tc_equal(rebuilt.suit_mask[s], d->suit_mask[s])) return TC_E_DECK;
    return TC_OK;
}

int tc_rules_check(const tc_deck *d, const tc_rules *r) {
    tc_cards suitless;
    if (!d || !r) return TC_E_ARG;
    if (r->n_players < 2 || r->n_players > TC_MAX_PLAYERS) return TC_E_PLAYERS;
    if (r->follow < TC_FOLLOW_FREE || r->follow > TC_FOLLOW_DOUBLE) return TC_E_FOLLOW;
    if (r->winner < TC_WIN_TRUMP || r->winner > TC_WIN_DOUBLE) return TC_E_WINNER;
    if (r->trump != TC_NO_SUIT && (r->trump < 0 || r->trump >= d->n_suits)) return TC_E_TRUMP;
    /* Suitless cards are meaningful only to the trump rule: the off-lead and
     * double-trick rules and over-trumping read a suit from every card. */
    suitless = tc_or(d->always, d->top_trump);
    if (!tc_is_empty(suitless) && (r->winner != TC_WIN_TRUMP || r->follow == TC_FOLLOW_OVERTRUMP))
        return TC_E_UNPLAYABLE;
    return TC_OK;
}
