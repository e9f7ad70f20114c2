/* deck.c - building a deck description card by card. */
#include <string.h>
#include "internal.h"

void tc_deck_init(tc_deck *d, int n_suits) {
    memset(d, 0, sizeof *d);
    d->n_suits = n_suits < 0 ? 0 : (n_suits > TC_MAX_SUITS ? TC_MAX_SUITS : n_suits);
}

int tc_deck_add(tc_deck *d, int suit, int rank, int strength, int trump_strength, int points, int role) {
    int id = d->n_cards;
    tc_cards bit;
    if (id >= TC_MAX_CARDS) return TC_E_FULL;
    if (suit != TC_NO_SUIT && (suit < 0 || suit >= d->n_suits)) return TC_E_ARG;
    if (rank < 0 || rank > 255 || strength < 0 || strength > 255 || trump_strength < 0 ||
        trump_strength > 255 || points < 0 || points > 255 || role < 0 || role > 15)
        return TC_E_ARG;
    bit = tc_cards_of(id);
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
    d->n_cards = id + 1;
    return id;
}

void tc_deck_set_decl(tc_deck *d, int strength0, int strength1) {
    d->decl_strength[0] = (uint8_t)strength0;
    d->decl_strength[1] = (uint8_t)strength1;
}
