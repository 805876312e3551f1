/* The finalizer of MurmurHash3 (64-bit): mixes every bit of a key into the
 * low ones, which pick a slot in the hash tables of the call-path store and
 * of the merge. */
#ifndef POMP_HASH_H
#define POMP_HASH_H

#include <stdint.h>

static inline uint64_t pomp_hash_mix(uint64_t h)
{
    h ^= h >> 33;
    h *= UINT64_C(0xFF51AFD7ED558CCD);
    h ^= h >> 33;
    return h;
}

#endif
