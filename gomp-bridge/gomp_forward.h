/* The lookup of libpomp's entry points that the bridge forwards to
 * (gomp_forward.c). */
#ifndef POMP_GOMP_FORWARD_H
#define POMP_GOMP_FORWARD_H

#include <stddef.h>

/* The n functions names[] of libpomp, in fns[] once found. */
struct gomp_forward {
    const char *const *names;
    void **fns;
    size_t n;
    int found;
};

/* Whether f's functions were found; look: if not yet, look them up in
 * libpomp, if it is loaded (never from a signal handler: dlopen). */
int gomp_forward_ready(struct gomp_forward *f, int look);

#endif
