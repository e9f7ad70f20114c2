/* cardset_layout.c - the measurement behind tc_cards' layout (docs/engine.md).
 *
 * Two candidate layouts for card sets of up to 128 cards, on the hot operations of a
 * random playout with suit-following: "cards of the led suit in hand", "is it
 * empty", "count the legal cards", "take the n-th", "remove it from the hand", "add
 * it to the trick".  A: two 64-bit words, card = any id, suits as precomputed
 * masks.  B: one 32-bit holding per suit (8 suits), card = suit * 32 + rank.
 * Both play the same random sequences of Sticheln-sized deals (6 suits x 21 ranks
 * = 126 cards, 6 hands of 21) so every operation touches both words / all suits.
 *
 *   cc -O3 -std=c99 -Wall bench/cardset_layout.c -o /tmp/layout && /tmp/layout
 */
#define _POSIX_C_SOURCE 199309L
#include <stdint.h>
#include <stdio.h>
#include <time.h>

#if defined(__POPCNT__) || !defined(__x86_64__)
#define POPCNT64(x) __builtin_popcountll(x)
#define POPCNT32(x) __builtin_popcount(x)
#else
static inline int POPCNT64(uint64_t x) {
    x = x - ((x >> 1) & 0x5555555555555555ULL);
    x = (x & 0x3333333333333333ULL) + ((x >> 2) & 0x3333333333333333ULL);
    x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0FULL;
    return (int)((x * 0x0101010101010101ULL) >> 56);
}
static inline int POPCNT32(uint32_t x) { return POPCNT64(x); }
#endif

static uint64_t rng = 88172645463325252ULL;
static inline uint64_t xs(void) { rng ^= rng << 13; rng ^= rng >> 7; rng ^= rng << 17; return rng; }
static inline uint32_t below(uint32_t n) { return (uint32_t)(((xs() >> 32) * n) >> 32); }

typedef struct { uint64_t w[2]; } two;
typedef struct { uint32_t s[8]; } persuit;

#define NS 6
#define NR 21
#define NP 6

static double now(void) { struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t); return t.tv_sec * 1e9 + t.tv_nsec; }

static double run_two(int deals, uint64_t *check) {
    two suit[NS];
    int s, r, i;
    for (s = 0; s < NS; s++) {
        suit[s].w[0] = suit[s].w[1] = 0;
        for (r = 0; r < NR; r++) { int id = s * NR + r; suit[s].w[id >> 6] |= 1ULL << (id & 63); }
    }
    double t0 = now();
    for (int d = 0; d < deals; d++) {
        two hand[NP];
        uint8_t ids[NS * NR];
        for (i = 0; i < NS * NR; i++) ids[i] = (uint8_t)i;
        for (i = NS * NR - 1; i > 0; i--) { int j = (int)below(i + 1); uint8_t t = ids[i]; ids[i] = ids[j]; ids[j] = t; }
        for (i = 0; i < NP; i++) hand[i].w[0] = hand[i].w[1] = 0;
        for (i = 0; i < NP * NR; i++) hand[i / NR].w[ids[i] >> 6] |= 1ULL << (ids[i] & 63);
        for (int trick = 0; trick < NR; trick++) {
            int led = -1;
            two in_trick = {{0, 0}};
            for (int p = 0; p < NP; p++) {
                two legal = hand[p];
                if (led >= 0) {
                    two f = {{hand[p].w[0] & suit[led].w[0], hand[p].w[1] & suit[led].w[1]}};
                    if (f.w[0] | f.w[1]) legal = f;
                }
                int c0 = POPCNT64(legal.w[0]), c1 = POPCNT64(legal.w[1]);
                int k = (int)below((uint32_t)(c0 + c1)), base = 0, card;
                uint64_t w = legal.w[0];
                if (k >= c0) { w = legal.w[1]; k -= c0; base = 64; }
                for (; k > 0; k--) w &= w - 1;
                card = base + __builtin_ctzll(w);
                hand[p].w[card >> 6] &= ~(1ULL << (card & 63));
                in_trick.w[card >> 6] |= 1ULL << (card & 63);
                if (led < 0) led = card / NR;
            }
            *check += in_trick.w[0] ^ in_trick.w[1];
        }
    }
    return (now() - t0) / ((double)deals * NP * NR);
}

static double run_persuit(int deals, uint64_t *check) {
    int i;
    double t0 = now();
    for (int d = 0; d < deals; d++) {
        persuit hand[NP];
        uint8_t ids[NS * NR];
        for (i = 0; i < NS * NR; i++) ids[i] = (uint8_t)i;
        for (i = NS * NR - 1; i > 0; i--) { int j = (int)below(i + 1); uint8_t t = ids[i]; ids[i] = ids[j]; ids[j] = t; }
        for (i = 0; i < NP; i++) for (int s = 0; s < 8; s++) hand[i].s[s] = 0;
        for (i = 0; i < NP * NR; i++) hand[i / NR].s[ids[i] / NR] |= 1u << (ids[i] % NR);
        for (int trick = 0; trick < NR; trick++) {
            int led = -1;
            persuit in_trick = {{0}};
            for (int p = 0; p < NP; p++) {
                int counts[8], total = 0, s, k, card;
                if (led >= 0 && hand[p].s[led]) {
                    k = (int)below((uint32_t)POPCNT32(hand[p].s[led]));
                    s = led;
                } else {
                    for (s = 0; s < 8; s++) { counts[s] = POPCNT32(hand[p].s[s]); total += counts[s]; }
                    k = (int)below((uint32_t)total);
                    for (s = 0; k >= counts[s]; s++) k -= counts[s];
                }
                uint32_t w = hand[p].s[s];
                for (; k > 0; k--) w &= w - 1;
                card = __builtin_ctz(w);
                hand[p].s[s] &= ~(1u << card);
                in_trick.s[s] |= 1u << card;
                if (led < 0) led = s;
            }
            for (int s = 0; s < 8; s++) *check += in_trick.s[s];
        }
    }
    return (now() - t0) / ((double)deals * NP * NR);
}

int main(void) {
    uint64_t check = 0;
    double a = 1e9, b = 1e9;
    for (int rep = 0; rep < 5; rep++) {
        double x = run_two(20000, &check), y = run_persuit(20000, &check);
        if (x < a) a = x;
        if (y < b) b = y;
    }
    printf("two 64-bit words: %.1f ns per card play\n", a);
    printf("8 x 32-bit per-suit holdings: %.1f ns per card play\n", b);
    printf("ratio per-suit / two words: %.2f (checksum %llu)\n", b / a, (unsigned long long)(check & 0xFFFF));
    return 0;
}
