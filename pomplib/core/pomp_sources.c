#include "pomp_sources.h"

#include <stdio.h>

/* Written by constructors as the library and its bridges load (one thread),
 * read by the finalizer; the count is published with a release store so a
 * late registration from another thread is seen whole. */
static const struct pomp_source_hooks *sources[POMP_MAX_SOURCES];
static unsigned nsources;

int pomp_source_register(const struct pomp_source_hooks *hooks)
{
    unsigned n = __atomic_load_n(&nsources, __ATOMIC_ACQUIRE);
    if (n == POMP_MAX_SOURCES) {
        fprintf(stderr, "pomp: warning: event source %s not registered: %d sources already are\n",
                hooks->name, POMP_MAX_SOURCES);
        return -1;
    }
    sources[n] = hooks;
    __atomic_store_n(&nsources, n + 1, __ATOMIC_RELEASE);
    return 0;
}

void pomp_sources_flush(void)
{
    unsigned n = __atomic_load_n(&nsources, __ATOMIC_ACQUIRE);
    for (unsigned i = 0; i < n; i++)
        if (sources[i]->flush)
            sources[i]->flush();
}

void pomp_sources_finalize(void)
{
    unsigned n = __atomic_load_n(&nsources, __ATOMIC_ACQUIRE);
    for (unsigned i = 0; i < n; i++)
        if (sources[i]->finalize)
            sources[i]->finalize();
}

void pomp_sources_region_made(struct POMP_Region_s *r)
{
    unsigned n = __atomic_load_n(&nsources, __ATOMIC_ACQUIRE);
    for (unsigned i = 0; i < n; i++)
        if (sources[i]->region_made)
            sources[i]->region_made(r);
}

const char *pomp_sources_declined_by(void)
{
    unsigned n = __atomic_load_n(&nsources, __ATOMIC_ACQUIRE);
    for (unsigned i = 0; i < n; i++) {
        const char *setting = sources[i]->declined_by ? sources[i]->declined_by() : NULL;
        if (setting)
            return setting;
    }
    return NULL;
}

void pomp_sources_unmeasured(void (*say)(void *ctx, const char *what), void *ctx)
{
    unsigned n = __atomic_load_n(&nsources, __ATOMIC_ACQUIRE);
    for (unsigned i = 0; i < n; i++)
        if (sources[i]->unmeasured)
            sources[i]->unmeasured(say, ctx);
}

void pomp_sources_kept_together(void (*say)(void *ctx, const char *what), void *ctx)
{
    unsigned n = __atomic_load_n(&nsources, __ATOMIC_ACQUIRE);
    for (unsigned i = 0; i < n; i++)
        if (sources[i]->kept_together)
            sources[i]->kept_together(say, ctx);
}

int pomp_sources_end_later(void)
{
    unsigned n = __atomic_load_n(&nsources, __ATOMIC_ACQUIRE);
    for (unsigned i = 0; i < n; i++)
        if (sources[i]->ends_later && sources[i]->ends_later())
            return 1;
    return 0;
}
