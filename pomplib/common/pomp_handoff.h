/* Per-thread state that an ended OS thread hands on to the next new one
 * (libgomp's nested teams start fresh threads on every execution: 6,000 of
 * them in a nested kernel, each of which would otherwise allocate, clear and
 * keep a state of its own, and fault its pages in).
 *
 * A fixed set of slots, each put and taken by one compare-and-swap: no lock
 * for a dying thread and a new one to meet on. A state is its taker's once
 * its CAS empties the slot (put back into the same slot meanwhile, it is
 * free again: no ABA hazard). All slots full: the state stays its own
 * thread's, unused, as it would without handing on. */
#ifndef POMP_HANDOFF_H
#define POMP_HANDOFF_H

#include <stddef.h>

#define POMP_HANDOFF_SLOTS 64

struct pomp_handoff {
    void *slot[POMP_HANDOFF_SLOTS];
};

/* Offers state s; returns 0 where every slot is full (s is not handed on). */
static inline int pomp_handoff_put(struct pomp_handoff *h, void *s)
{
    for (size_t i = 0; i < POMP_HANDOFF_SLOTS; i++) {
        void *empty = NULL;
        if (__atomic_load_n(&h->slot[i], __ATOMIC_RELAXED) == NULL &&
            __atomic_compare_exchange_n(&h->slot[i], &empty, s, 0, __ATOMIC_RELEASE,
                                        __ATOMIC_RELAXED))
            return 1;
    }
    return 0;
}

/* Takes a state that fits(state, arg) accepts (fits NULL: any), or NULL. fits
 * reads the state before it is taken: only what its last owner wrote before
 * putting it, which the put published. */
static inline void *pomp_handoff_take(struct pomp_handoff *h, int (*fits)(const void *, long),
                                      long arg)
{
    for (size_t i = 0; i < POMP_HANDOFF_SLOTS; i++) {
        void *s = __atomic_load_n(&h->slot[i], __ATOMIC_ACQUIRE);
        if (s && (!fits || fits(s, arg)) &&
            __atomic_compare_exchange_n(&h->slot[i], &s, NULL, 0, __ATOMIC_ACQUIRE,
                                        __ATOMIC_RELAXED))
            return s;
    }
    return NULL;
}

#endif
