/* c_loops.h - the timed C loops (bench/c_loops.c).  Each returns the loop's nanoseconds; the
 * results of its work (tricks per seat, or a sum of its results) keep it from being optimised
 * away.  bench/c_loops.py hands this file to cffi as its declarations, so it holds declarations
 * only (no #include, no include guard): include <stdint.h> before it. */
int64_t loop_floor(int deals, uint64_t seed, uint32_t *tricks_out);
int64_t loop_core_reference(int deals, uint64_t seed, uint32_t *tricks_out);
int64_t loop_core_legal(int calls, uint64_t seed, uint64_t *result);
int64_t loop_core_resolve(int tricks, uint64_t seed, uint64_t *result);
