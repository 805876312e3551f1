/* sigaction, signal, bsd_signal, sysv_signal, __sysv_signal and sigset, ahead
 * of libc's where pomprun preloads this library (libpomp, its dependency,
 * comes after libc there, so that its own were never the program's):
 * forwarded to libpomp's (pomplib/core/pomp_signals.c), which show the program
 * its own dispositions behind pomp's handlers of SIGINT, SIGTERM, SIGHUP and
 * SIGABRT and stop sampling before it sets SIGPROF. A program whose SIGTERM
 * handler chained to the previous one called pomp's, and died in the middle
 * of its clean shutdown. Like dlclose (gomp_unload.c), calls into libpomp
 * that are not OMPT's: OMPT has no word for them. libpomp's are called by
 * names of their own, which this library's link resolves: nothing is looked
 * up at run time (a dlopen of libpomp from within a sanitizer's start, whose
 * deadly-signal handlers come through here, ran other libraries' constructors
 * inside that start, which aborted; a CI run). */
#include <signal.h>

typedef void (*handler_fn)(int);

/* libpomp's, under their own names */
int pomp_forward_sigaction(int, const struct sigaction *, struct sigaction *);
handler_fn pomp_forward_signal(int, handler_fn);
handler_fn pomp_forward_bsd_signal(int, handler_fn);
handler_fn pomp_forward_sysv_signal(int, handler_fn);
handler_fn pomp_forward___sysv_signal(int, handler_fn);
handler_fn pomp_forward_sigset(int, handler_fn);

#define EXPORT __attribute__((visibility("default")))

EXPORT int gomp_sigaction(int sig, const struct sigaction *act, struct sigaction *old)
{
    return pomp_forward_sigaction(sig, act, old);
}
EXPORT handler_fn gomp_signal(int sig, handler_fn handler) { return pomp_forward_signal(sig, handler); }
EXPORT handler_fn gomp_bsd_signal(int sig, handler_fn handler)
{
    return pomp_forward_bsd_signal(sig, handler);
}
EXPORT handler_fn gomp_sysv_signal(int sig, handler_fn handler)
{
    return pomp_forward_sysv_signal(sig, handler);
}
EXPORT handler_fn gomp___sysv_signal(int sig, handler_fn handler)
{
    return pomp_forward___sysv_signal(sig, handler);
}
EXPORT handler_fn gomp_sigset(int sig, handler_fn handler) { return pomp_forward_sigset(sig, handler); }
__asm__(".symver gomp_sigaction, sigaction@@GLIBC_2.2.5");
__asm__(".symver gomp_signal, signal@@GLIBC_2.2.5");
__asm__(".symver gomp_bsd_signal, bsd_signal@@GLIBC_2.2.5");
__asm__(".symver gomp_sysv_signal, sysv_signal@@GLIBC_2.2.5");
__asm__(".symver gomp___sysv_signal, __sysv_signal@@GLIBC_2.2.5");
__asm__(".symver gomp_sigset, sigset@@GLIBC_2.2.5");
