/* floor.h - the benchmark floor loop (bench/floor.c). */
#ifndef TRICKCORE_FLOOR_H
#define TRICKCORE_FLOOR_H
#include <stdint.h>
/* Play n_deals random deals of the reference game; adds tricks per seat into
 * tricks[4]; returns a checksum so the loop cannot be optimised away. */
uint64_t floor_playouts(int n_deals, uint64_t seed, uint32_t *tricks);
#endif
