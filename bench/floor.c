/* floor.c - the benchmark floor: the reference game hand-written over 64-bit masks.
 *
 * 4 players x 13 cards of a 52-card deck (card = suit*13 + rank), a random trump
 * suit, must follow suit, a uniformly random legal card; leader of trick 1 is
 * seat 0.  Nothing generic: one word per hand, one suit mask per suit.  It uses
 * the same generator and bounded-random method as the core (a private copy), so
 * the ratio core/floor measures the engine, not the RNG.  trickcore bench and
 * bench/test_bench_core.py report every figure as a ratio to this loop. */
#include <stdint.h>
#include "floor.h"

/* Same popcount strategy as the core (csrc/src/internal.h): hardware if the
 * compiler may use it, else inline SWAR rather than a libgcc call. */
#if defined(__POPCNT__) || !defined(__x86_64__)
#define POPCNT(x) __builtin_popcountll(x)
#else
static inline int POPCNT(uint64_t x) {
    x = x - ((x >> 1) & 0x5555555555555555ULL);
    x = (x & 0x3333333333333333ULL) + ((x >> 2) & 0x3333333333333333ULL);
    x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0FULL;
    return (int)((x * 0x0101010101010101ULL) >> 56);
}
#endif

typedef struct { uint64_t s[4]; } floor_rng;

static uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

static uint64_t next(floor_rng *g) {
    uint64_t *s = g->s, r = rotl(s[1] * 5, 7) * 9, t = s[1] << 17;
    s[2] ^= s[0]; s[3] ^= s[1]; s[1] ^= s[2]; s[0] ^= s[3]; s[2] ^= t; s[3] = rotl(s[3], 45);
    return r;
}

static uint32_t below(floor_rng *g, uint32_t n) {
    uint64_t m = (next(g) >> 32) * (uint64_t)n;
    uint32_t low = (uint32_t)m;
    if (low < n) {
        uint32_t threshold = (uint32_t)(0u - n) % n;
        while (low < threshold) { m = (next(g) >> 32) * (uint64_t)n; low = (uint32_t)m; }
    }
    return (uint32_t)(m >> 32);
}

static uint64_t splitmix(uint64_t *x) {
    uint64_t z = (*x += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

uint64_t floor_playouts(int n_deals, uint64_t seed, uint32_t *tricks) {
    const uint64_t suit13 = 0x1FFFULL;
    floor_rng g;
    uint64_t checksum = 0;
    int i, k, deal;
    for (i = 0; i < 4; i++) g.s[i] = splitmix(&seed);
    for (deal = 0; deal < n_deals; deal++) {
        uint8_t deck[52];
        uint64_t hand[4] = {0, 0, 0, 0};
        int trump = (int)below(&g, 4), leader = 0, trick;
        for (i = 0; i < 52; i++) deck[i] = (uint8_t)i;
        for (i = 51; i > 0; i--) {
            int j = (int)below(&g, (uint32_t)(i + 1));
            uint8_t t = deck[i]; deck[i] = deck[j]; deck[j] = t;
        }
        for (i = 0; i < 52; i++) hand[i / 13] |= 1ULL << deck[i];
        for (trick = 0; trick < 13; trick++) {
            int led = -1, best = -1, best_key = -1;
            for (k = 0; k < 4; k++) {
                int seat = (leader + k) & 3, card, key, suit;
                uint64_t legal = hand[seat], w;
                if (led >= 0 && (hand[seat] & (suit13 << (13 * led)))) legal &= suit13 << (13 * led);
                w = legal;
                for (i = (int)below(&g, (uint32_t)POPCNT(legal)); i > 0; i--) w &= w - 1;
                card = __builtin_ctzll(w);
                hand[seat] &= ~(1ULL << card);
                suit = card / 13;
                if (led < 0) led = suit;
                key = suit == trump ? 32 + card % 13 : (suit == led ? 16 + card % 13 : 0);
                if (key > best_key) { best_key = key; best = seat; }
            }
            leader = best;
            tricks[best]++;
        }
        checksum += (uint64_t)leader;
    }
    return checksum;
}
