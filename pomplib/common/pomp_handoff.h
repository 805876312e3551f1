/* Per-thread state that an ended OS thread hands on to the next new one
 * (libgomp's nested teams start fresh threads on every execution: 6,000 of
 * them in a nested kernel, each of which would otherwise allocate, clear and
 * keep a state of its own, and fault its pages in).
 *
 * Sets of slots, each put and taken by one compare-and-swap: no lock for a
 * dying thread and a new one to meet on. A state is its taker's once its CAS
 * empties the slot (put back into the same slot meanwhile, it is free again:
 * no ABA hazard). Where every slot is full (more than 64 threads ended at
 * once, none of whose states a new thread took yet: a server with 40
 * requests at a time, each the master of a team of 2), a put chains another
 * set of slots on, allocated once and kept: with the first set alone, the
 * states that found no slot stayed unused, and each round of such ends
 * left its surplus behind, so that memory grew with the threads ever
 * created (6,000 requests, 40 at a time, made 1,018 records and 39 MB
 * against 64 records and 6 MB at 32 at a time). */
#ifndef POMP_HANDOFF_H
#define POMP_HANDOFF_H

#include <stddef.h>
#include <stdlib.h>

#define POMP_HANDOFF_SLOTS 64

struct pomp_handoff {
    void *slot[POMP_HANDOFF_SLOTS];
    struct pomp_handoff *more; /* the next set, chained on when these were full */
};

/* Offers state s; returns 0 where every slot is full and no further set could
 * be allocated (s is not handed on). */
static inline int pomp_handoff_put(struct pomp_handoff *h, void *s)
{
    for (;;) {
        for (size_t i = 0; i < POMP_HANDOFF_SLOTS; i++) {
            void *empty = NULL;
            if (__atomic_load_n(&h->slot[i], __ATOMIC_RELAXED) == NULL &&
                __atomic_compare_exchange_n(&h->slot[i], &empty, s, 0, __ATOMIC_RELEASE,
                                            __ATOMIC_RELAXED))
                return 1;
        }
        struct pomp_handoff *next = __atomic_load_n(&h->more, __ATOMIC_ACQUIRE);
        if (!next) {
            struct pomp_handoff *made = calloc(1, sizeof *made), *none = NULL;
            if (!made)
                return 0;
            if (__atomic_compare_exchange_n(&h->more, &none, made, 0, __ATOMIC_ACQ_REL,
                                            __ATOMIC_ACQUIRE)) {
                next = made;
            } else { /* another thread chained one on first */
                free(made);
                next = none;
            }
        }
        h = next;
    }
}

/* Takes a state that fits(state, arg) accepts (fits NULL: any), or NULL. fits
 * reads the state before it is taken: only what its last owner wrote before
 * putting it, which the put published. */
static inline void *pomp_handoff_take(struct pomp_handoff *h,
                                      int (*fits)(const void *, const void *), const void *arg)
{
    for (; h; h = __atomic_load_n(&h->more, __ATOMIC_ACQUIRE)) {
        for (size_t i = 0; i < POMP_HANDOFF_SLOTS; i++) {
            void *s = __atomic_load_n(&h->slot[i], __ATOMIC_ACQUIRE);
            if (s && (!fits || fits(s, arg)) &&
                __atomic_compare_exchange_n(&h->slot[i], &s, NULL, 0, __ATOMIC_ACQUIRE,
                                            __ATOMIC_RELAXED))
                return s;
        }
    }
    return NULL;
}

#endif
