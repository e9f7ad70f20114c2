/* internal.h - helpers shared by the core's translation units (not installed). */
#ifndef TC_INTERNAL_H
#define TC_INTERNAL_H
#include "trickcore.h"

#if (defined(__GNUC__) || defined(__clang__)) && (defined(__POPCNT__) || !defined(__x86_64__))
#define TC_POPCNT64(x) __builtin_popcountll(x)
#define TC_CTZ64(x) __builtin_ctzll(x)
#define TC_CLZ64(x) __builtin_clzll(x)
#elif defined(__GNUC__) || defined(__clang__)
/* x86-64 without -mpopcnt: GCC would call libgcc's __popcountdi2; inline SWAR instead. */
static inline int tc__swar_popcnt64(uint64_t x) {
    x = x - ((x >> 1) & 0x5555555555555555ULL);
    x = (x & 0x3333333333333333ULL) + ((x >> 2) & 0x3333333333333333ULL);
    x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0FULL;
    return (int)((x * 0x0101010101010101ULL) >> 56);
}
#define TC_POPCNT64(x) tc__swar_popcnt64(x)
#define TC_CTZ64(x) __builtin_ctzll(x)
#define TC_CLZ64(x) __builtin_clzll(x)
#else
static inline int tc__popcnt64(uint64_t x) { int n = 0; while (x) { x &= x - 1; n++; } return n; }
static inline int tc__ctz64(uint64_t x) { int n = 0; while (!(x & 1)) { x >>= 1; n++; } return n; }
static inline int tc__clz64(uint64_t x) { int n = 0; while (!(x & ((uint64_t)1 << 63))) { x <<= 1; n++; } return n; }
#define TC_POPCNT64(x) tc__popcnt64(x)
#define TC_CTZ64(x) tc__ctz64(x)
#define TC_CLZ64(x) tc__clz64(x)
#endif

static inline int tc__count(tc_cards a) {
    return TC_POPCNT64(a.w[0]) + (a.w[1] ? TC_POPCNT64(a.w[1]) : 0);
}

/* Select the n-th set bit of one word by clearing the n lowest (hands are small,
 * so this beats a portable broadword select). */
static inline int tc__select64(uint64_t w, int n) {
    while (n-- > 0) w &= w - 1;
    return TC_CTZ64(w);
}

static inline uint64_t tc__rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

static inline uint64_t tc__rng_next(tc_rng *rng) {
    uint64_t *s = rng->s;
    uint64_t result = tc__rotl(s[1] * 5, 7) * 9;
    uint64_t t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = tc__rotl(s[3], 45);
    return result;
}

/* Lemire's multiply-shift on the high 32 bits, as documented in trickcore.h. */
static inline uint32_t tc__rng_below(tc_rng *rng, uint32_t n) {
    uint64_t m = (tc__rng_next(rng) >> 32) * (uint64_t)n;
    uint32_t low = (uint32_t)m;
    if (low < n) {
        uint32_t threshold = (uint32_t)(0u - n) % n;
        while (low < threshold) {
            m = (tc__rng_next(rng) >> 32) * (uint64_t)n;
            low = (uint32_t)m;
        }
    }
    return (uint32_t)(m >> 32);
}

/* A uniformly random card of a non-empty set (one popcount per word). */
static inline int tc__random_card(tc_cards a, tc_rng *rng) {
    int c0 = TC_POPCNT64(a.w[0]), c1 = a.w[1] ? TC_POPCNT64(a.w[1]) : 0;
    int k = (int)tc__rng_below(rng, (uint32_t)(c0 + c1));
    return k < c0 ? tc__select64(a.w[0], k) : 64 + tc__select64(a.w[1], k - c0);
}


/* Play `move` for the seat to move with none of tc_play's checks: only for a move of the list
 * tc__moves (tc_play_moves) gave for this same position.  For the Python binding's card-play
 * fast path (trickcore/_core.pyx), which keeps that list for the decision anyway; every other
 * caller plays through tc_play. */
void tc__play_listed(const tc_deck *d, const tc_rules *r, tc_play_state *s, int move);

#endif
