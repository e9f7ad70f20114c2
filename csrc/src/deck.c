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

/* A new card is checked by checking the deck with it: one definition of what a
 * valid deck is (tc_deck_check), and the deck stays unchanged on error. */
int tc_deck_add(tc_deck *d, int suit, int rank, int strength, int trump_strength, int points, int role) {
    tc_deck trial;
    int id, rc;
    if (!d) return TC_E_ARG;
    id = d->n_cards;
    if (id < 0 || d->n_suits < 0 || d->n_suits > TC_MAX_SUITS) return TC_E_DECK;
    if (id >= TC_MAX_CARDS) return TC_E_FULL;
    /* What the struct's narrow fields could not even hold is refused before storing. */
    if (suit != TC_NO_SUIT && (suit < 0 || suit >= d->n_suits)) return TC_E_SUIT;
    if (!is_byte(rank) || !is_byte(strength) || !is_byte(trump_strength) || !is_byte(points)) return TC_E_VALUE;
    if (role < 0 || (role & ~ROLE_BITS)) return TC_E_ROLE;
    trial = *d;
    set_card(&trial, id, suit, rank, strength, trump_strength, points, role);
    trial.n_cards = id + 1;
    if ((rc = tc_deck_check(&trial)) != TC_OK) return rc;
    *d = trial;
    return id;
}

int tc_deck_set_decl(tc_deck *d, int strength0, int strength1) {
    if (!d) return TC_E_ARG;
    if (!is_byte(strength0) || !is_byte(strength1)) return TC_E_VALUE;
    d->decl_strength[0] = (uint8_t)strength0;
    d->decl_strength[1] = (uint8_t)strength1;
    return TC_OK;
}

/* One pass over the cards with a bit set of the strengths seen per suit: the
 * checks of tc_deck_add for a whole deck in O(cards), since tc_play_init runs
 * it at the start of every trick phase. */
int tc_deck_check(const tc_deck *d) {
    uint64_t seen[TC_MAX_SUITS][4], seen_trump[TC_MAX_SUITS][4];
    tc_cards all = tc_cards_empty(), always = all, top = all, declared = all, twin = all;
    tc_cards suit_mask[TC_MAX_SUITS];
    int id, s, first_twin = -1;
    if (!d) return TC_E_ARG;
    if (d->n_cards < 0 || d->n_cards > TC_MAX_CARDS || d->n_suits < 0 || d->n_suits > TC_MAX_SUITS)
        return TC_E_DECK;
    memset(seen, 0, sizeof seen);
    memset(seen_trump, 0, sizeof seen_trump);
    for (s = 0; s < TC_MAX_SUITS; s++) suit_mask[s] = tc_cards_empty();
    for (id = 0; id < d->n_cards; id++) {
        int suit = d->suit[id], role = d->role[id], str = d->strength[id], tstr = d->trump_strength[id];
        tc_cards bit = tc_cards_of(id);
        if (suit != TC_NO_SUIT && (suit < 0 || suit >= d->n_suits)) return TC_E_SUIT;
        if (role & ~ROLE_BITS) return TC_E_ROLE;
        if ((role & TC_ROLE_ALWAYS) && (role & TC_ROLE_TOP_TRUMP)) return TC_E_ROLE;
        if ((suit == TC_NO_SUIT) != ((role & (TC_ROLE_ALWAYS | TC_ROLE_TOP_TRUMP)) != 0)) return TC_E_ROLE;
        if (role & TC_ROLE_TWIN) {
            if (first_twin < 0) first_twin = id;
            else if (d->suit[first_twin] != suit || d->rank[first_twin] != d->rank[id] ||
                     d->strength[first_twin] != str || d->trump_strength[first_twin] != tstr ||
                     d->points[first_twin] != d->points[id] || d->role[first_twin] != role)
                return TC_E_TWIN;
        } else if (!(role & TC_ROLE_DECLARED) && suit != TC_NO_SUIT) {
            uint64_t sbit = (uint64_t)1 << (str & 63), tbit = (uint64_t)1 << (tstr & 63);
            if ((seen[suit][str >> 6] & sbit) || (seen_trump[suit][tstr >> 6] & tbit)) return TC_E_STRENGTH;
            seen[suit][str >> 6] |= sbit;
            seen_trump[suit][tstr >> 6] |= tbit;
        }
        all = tc_or(all, bit);
        if (suit != TC_NO_SUIT) suit_mask[suit] = tc_or(suit_mask[suit], bit);
        if (role & TC_ROLE_ALWAYS) always = tc_or(always, bit);
        if (role & TC_ROLE_TOP_TRUMP) top = tc_or(top, bit);
        if (role & TC_ROLE_DECLARED) declared = tc_or(declared, bit);
        if (role & TC_ROLE_TWIN) twin = tc_or(twin, bit);
    }
    if (!tc_equal(all, d->all) || !tc_equal(always, d->always) || !tc_equal(top, d->top_trump) ||
        !tc_equal(declared, d->declared) || !tc_equal(twin, d->twin))
        return TC_E_DECK;
    for (s = 0; s < TC_MAX_SUITS; s++)
        if (!tc_equal(suit_mask[s], d->suit_mask[s])) return TC_E_DECK;
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
