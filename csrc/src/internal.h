/* internal.h - helpers shared by the core's translation units (not installed). */
#ifndef TC_INTERNAL_H
#define TC_INTERNAL_H
#include "trickcore.h"

#if defined(__GNUC__) || defined(__clang__)
#define TC_POPCNT64(x) __builtin_popcountll(x)
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

/* Play a move already known to be legal for the seat to move (no checks). */
void tc__play_unchecked(const tc_deck *d, const tc_rules *r, tc_play_state *s, int move);

#endif
