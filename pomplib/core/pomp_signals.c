/* The program's own SIGPROF. A program that sets a SIGPROF handler (or
 * SIG_IGN) while pomp samples would get pomp's timer signals in its handler,
 * signals it never asked for, and pomp would take no sample (a program that
 * set its handler in main received 78 of them, unsaid). libpomp's sigaction
 * and signal stand before the C library's: a change of SIGPROF stops pomp's
 * timers first (pomp_sampling_yield_sigprof: the samples so far are kept,
 * said once), then the call goes on to the C library's as the program made
 * it. Every other call, and every call while pomp does not sample, is the C
 * library's as it is. A program whose handler was there before sampling started keeps it
 * and is not sampled (pomp_sampling.c). */
#include <signal.h>
#include <stddef.h>

#include "pomp_sampling.h"

#define POMP_EXPORT __attribute__((visibility("default")))

/* The C library's own entry points under their other names (glibc exports
 * both): called directly, not looked up with dlsym(RTLD_NEXT), which a
 * sanitizer runtime intercepts and answers with NULL before it started (its
 * start installs its handlers through this sigaction: a call of address 0). */
extern int __sigaction(int, const struct sigaction *, struct sigaction *);
typedef void (*signal_handler)(int);
extern signal_handler bsd_signal(int, signal_handler);

POMP_EXPORT int sigaction(int sig, const struct sigaction *act, struct sigaction *old)
{
    if (sig == SIGPROF && act)
        pomp_sampling_yield_sigprof();
    return __sigaction(sig, act, old);
}

POMP_EXPORT signal_handler signal(int sig, signal_handler handler)
{
    if (sig == SIGPROF)
        pomp_sampling_yield_sigprof();
    return bsd_signal(sig, handler); /* glibc's signal: BSD semantics, the same function */
}
