/* The program's own SIGPROF. A program that sets a SIGPROF handler (or
 * SIG_IGN) while pomp samples would get pomp's timer signals in its handler,
 * signals it never asked for, and pomp would take no sample (a program that
 * set its handler in main received 78 of them, unsaid). libpomp's sigaction
 * and signal stand before the C library's: a change of SIGPROF stops pomp's
 * timers first (pomp_sampling_yield_sigprof: the samples so far are kept,
 * said once), then the call goes on as the program made it. Every other
 * call, and every call while pomp does not sample, is the C library's as it
 * is. A program whose handler was there before sampling started keeps it
 * and is not sampled (pomp_sampling.c). */
#include <dlfcn.h>
#include <signal.h>
#include <stddef.h>

#include "pomp_sampling.h"

#define POMP_EXPORT __attribute__((visibility("default")))

typedef int (*sigaction_fn)(int, const struct sigaction *, struct sigaction *);
typedef void (*signal_handler)(int);
typedef signal_handler (*signal_fn)(int, signal_handler);

/* The C library's function (the next definition after libpomp's), looked up
 * once; a race only stores the same value twice. */
static void *next_definition(void **cache, const char *name)
{
    void *fn = __atomic_load_n(cache, __ATOMIC_ACQUIRE);
    if (!fn) {
        fn = dlsym(RTLD_NEXT, name);
        __atomic_store_n(cache, fn, __ATOMIC_RELEASE);
    }
    return fn;
}

POMP_EXPORT int sigaction(int sig, const struct sigaction *act, struct sigaction *old)
{
    static void *real;
    sigaction_fn next = (sigaction_fn)next_definition(&real, "sigaction");
    if (sig == SIGPROF && act)
        pomp_sampling_yield_sigprof();
    return next(sig, act, old);
}

POMP_EXPORT signal_handler signal(int sig, signal_handler handler)
{
    static void *real;
    signal_fn next = (signal_fn)next_definition(&real, "signal");
    if (sig == SIGPROF)
        pomp_sampling_yield_sigprof();
    return next(sig, handler);
}
