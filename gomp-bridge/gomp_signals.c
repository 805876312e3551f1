/* sigaction, signal, bsd_signal, sysv_signal, __sysv_signal and sigset, ahead
 * of libc's where pomprun preloads this library (libpomp, its dependency,
 * comes after libc there, so that its own were never the program's):
 * forwarded to libpomp's (pomplib/core/pomp_signals.c), which show the program
 * its own dispositions behind pomp's handlers of SIGINT, SIGTERM, SIGHUP and
 * SIGABRT and stop sampling before it sets SIGPROF; else to libc's. A program
 * whose SIGTERM handler chained to the previous one called pomp's, and died
 * in the middle of its clean shutdown. Like dlclose (gomp_unload.c), calls
 * into libpomp that are not OMPT's: OMPT has no word for them. libpomp is
 * looked up at load (no dlopen in a signal handler), else at the first call;
 * while it is not found (a sanitizer's start, before this library's), libc's
 * own entry points under their other names answer. */
#include <dlfcn.h>
#include <errno.h>
#include <signal.h>
#include <stddef.h>

#include "gomp_forward.h"

typedef void (*handler_fn)(int);
typedef handler_fn (*setter_fn)(int, handler_fn);
typedef int (*sigaction_fn)(int, const struct sigaction *, struct sigaction *);

extern int __sigaction(int, const struct sigaction *, struct sigaction *);
extern handler_fn ssignal(int, handler_fn);

enum { SIGACTION, SIGNAL, BSD_SIGNAL, SYSV_SIGNAL, SYSV_SIGNAL2, SIGSET, FORWARDED };
static const char *const names[FORWARDED] = {"sigaction",   "signal",        "bsd_signal",
                                             "sysv_signal", "__sysv_signal", "sigset"};
static void *pomp[FORWARDED];
static struct gomp_forward forward = {names, pomp, FORWARDED, 0};

__attribute__((constructor)) static void find_at_load(void) { gomp_forward_ready(&forward, 1); }

static int ready(void) { return gomp_forward_ready(&forward, 1); }

#define EXPORT __attribute__((visibility("default")))

EXPORT int gomp_sigaction(int sig, const struct sigaction *act, struct sigaction *old)
{
    return ready() ? ((sigaction_fn)pomp[SIGACTION])(sig, act, old) : __sigaction(sig, act, old);
}
EXPORT handler_fn gomp_signal(int sig, handler_fn handler)
{
    return ready() ? ((setter_fn)pomp[SIGNAL])(sig, handler) : ssignal(sig, handler);
}
EXPORT handler_fn gomp_bsd_signal(int sig, handler_fn handler)
{
    return ready() ? ((setter_fn)pomp[BSD_SIGNAL])(sig, handler) : ssignal(sig, handler);
}
/* sysv_signal and sigset have no other name in libc: looked up there */
static handler_fn libc_setter(const char *name, int sig, handler_fn handler)
{
    void *lib = dlopen("libc.so.6", RTLD_NOW | RTLD_NOLOAD);
    setter_fn f = NULL;
    if (lib)
        *(void **)&f = dlsym(lib, name);
    if (!f) {
        errno = ENOSYS;
        return SIG_ERR;
    }
    return f(sig, handler);
}
EXPORT handler_fn gomp_sysv_signal(int sig, handler_fn handler)
{
    return ready() ? ((setter_fn)pomp[SYSV_SIGNAL])(sig, handler) : libc_setter("sysv_signal", sig, handler);
}
EXPORT handler_fn gomp___sysv_signal(int sig, handler_fn handler)
{
    return ready() ? ((setter_fn)pomp[SYSV_SIGNAL2])(sig, handler) : libc_setter("__sysv_signal", sig, handler);
}
EXPORT handler_fn gomp_sigset(int sig, handler_fn handler)
{
    return ready() ? ((setter_fn)pomp[SIGSET])(sig, handler) : libc_setter("sigset", sig, handler);
}
__asm__(".symver gomp_sigaction, sigaction@@GLIBC_2.2.5");
__asm__(".symver gomp_signal, signal@@GLIBC_2.2.5");
__asm__(".symver gomp_bsd_signal, bsd_signal@@GLIBC_2.2.5");
__asm__(".symver gomp_sysv_signal, sysv_signal@@GLIBC_2.2.5");
__asm__(".symver gomp___sysv_signal, __sysv_signal@@GLIBC_2.2.5");
__asm__(".symver gomp_sigset, sigset@@GLIBC_2.2.5");
