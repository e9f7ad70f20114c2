/* cards.c - 128-bit card sets, the seeded generator, shuffling and dealing. */
#include "internal.h"

static const char *const tc_messages[] = {
    "ok",
    "card id out of range or not in the deck",
    "card not in the player's hand",
    "card not allowed by the follow rule",
    "player count out of range",
    "declaration on a card that takes none",
    "action not possible in this state",
    "bad argument",
    "deck full",
    "suit count or suit out of range",
    "rank, strength, points or declared strength outside 0..255",
    "unknown or contradictory card roles, or a suitless card that is neither always-playable nor a top trump",
    "two cards of one suit share a strength or trump strength",
    "a twin card differs from the other twins",
    "inconsistent deck: sizes or masks do not match the cards",
    "unknown follow rule",
    "unknown winner rule",
    "trump is not a suit of the deck",
    "deck and rules could produce a trick without a winner",
    "hands overlap or hold fewer cards than there are tricks",
    "seat out of range",
    "rules differ from those the play state was started with",
};

const char *tc_strerror(int status) {
    if (status > 0 || status < TC_STATUS_MIN) return "unknown status";
    return tc_messages[-status];
}

const char *tc_version(void) { return TC_VERSION_STRING; }

int tc_count(tc_cards a) { return tc__count(a); }

int tc_first(tc_cards a) {
    if (a.w[0]) return TC_CTZ64(a.w[0]);
    if (a.w[1]) return 64 + TC_CTZ64(a.w[1]);
    return -1;
}

int tc_last(tc_cards a) {
    if (a.w[1]) return 127 - TC_CLZ64(a.w[1]);
    if (a.w[0]) return 63 - TC_CLZ64(a.w[0]);
    return -1;
}

int tc_nth(tc_cards a, int n) {
    int c0;
    if (n < 0) return -1;
    c0 = TC_POPCNT64(a.w[0]);
    if (n < c0) return tc__select64(a.w[0], n);
    n -= c0;
    if (n < TC_POPCNT64(a.w[1])) return 64 + tc__select64(a.w[1], n);
    return -1;
}

int tc_next(tc_cards a, int after) {
    int from;
    /* Every int is an answer: nothing lies above the last id, and anything below -1 starts
     * from the first (after + 1 must not overflow at INT_MAX). */
    if (after >= TC_MAX_CARDS - 1) return -1;
    from = after < -1 ? 0 : after + 1;
    if (from < 64) {
        uint64_t w = a.w[0] & (~(uint64_t)0 << from);
        if (w) return TC_CTZ64(w);
        from = 64;
    }
    {
        uint64_t w = a.w[1] & (~(uint64_t)0 << (from - 64));
        return w ? 64 + TC_CTZ64(w) : -1;
    }
}

int tc_to_array(tc_cards a, uint8_t *out) {
    int n = 0, k;
    for (k = 0; k < 2; k++) {
        uint64_t w = a.w[k];
        while (w) {
            out[n++] = (uint8_t)(64 * k + TC_CTZ64(w));
            w &= w - 1;
        }
    }
    return n;
}

/* ---- generator ---------------------------------------------------------- */
static uint64_t splitmix64(uint64_t *x) {
    uint64_t z = (*x += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

void tc_rng_seed(tc_rng *rng, uint64_t seed) {
    int i;
    for (i = 0; i < 4; i++) rng->s[i] = splitmix64(&seed);
}

uint64_t tc_rng_next(tc_rng *rng) { return tc__rng_next(rng); }

uint32_t tc_rng_below(tc_rng *rng, uint32_t n) { return tc__rng_below(rng, n); }

void tc_shuffle(tc_rng *rng, uint8_t *a, int len) {
    int i;
    if (!rng || !a || len <= 1) return;  /* len - 1 must not overflow at INT_MIN */
    for (i = len - 1; i > 0; i--) {
        int j = (int)tc__rng_below(rng, (uint32_t)(i + 1));
        uint8_t tmp = a[i];
        a[i] = a[j];
        a[j] = tmp;
    }
}

int tc_deal(tc_rng *rng, tc_cards cards, int n_players, int hand_size, tc_cards *hands, tc_cards *rest) {
    uint8_t ids[TC_MAX_CARDS];
    int n = tc_to_array(cards, ids), p, i, k = 0;
    if (n_players < 1 || n_players > TC_MAX_PLAYERS) return TC_E_PLAYERS;
    if (!rng || !hands || hand_size < 0 || hand_size > n / n_players) return TC_E_ARG;  /* no overflow */
    tc_shuffle(rng, ids, n);
    for (p = 0; p < n_players; p++) {
        hands[p] = tc_cards_empty();
        for (i = 0; i < hand_size; i++, k++) hands[p] = tc_or(hands[p], tc_cards_of(ids[k]));
    }
    if (rest) {
        *rest = tc_cards_empty();
        for (; k < n; k++) *rest = tc_or(*rest, tc_cards_of(ids[k]));
    }
    return TC_OK;
}
