/* libpomp's sigaction, signal, bsd_signal, sysv_signal (__sysv_signal, what
 * signal is under strict XPG) and sigset: they stand before the C library's,
 * for two reasons.
 *
 * SIGINT, SIGTERM, SIGHUP, SIGPIPE and SIGABRT: pomp installs its handlers where the
 * program left the default action (pomp_control.c), so that a run killed by
 * them still writes its profile. A program must see the dispositions it would
 * see without pomp: one whose handler chains to the previous one (sigaction
 * with an old action, calling it unless it is SIG_DFL or SIG_IGN, as many
 * libraries and runtimes do) got pomp's handler as the previous one, and
 * calling it wrote the output and killed the program (143) in the middle of
 * its clean shutdown. Here pomp's handler is answered as the disposition it
 * stands for (the default action, as the C library answered it when pomp
 * found it), a program's handler (or SIG_IGN) replaces pomp's, and where the
 * program sets the default action back (restoring the "previous" handler it
 * was told of), pomp's handler stands again, answered as that default
 * action: a kill then writes the profile and ends the program as the default
 * action would have.
 *
 * SIGPROF: a program that sets a SIGPROF handler (or SIG_IGN) while pomp
 * samples would get pomp's timer signals in its handler, signals it never
 * asked for, and pomp would take no sample (a program that set its handler in
 * main received 78 of them, unsaid). A change of SIGPROF stops pomp's timers
 * first (pomp_sampling_yield_sigprof: the samples so far are kept, said
 * once), then the call goes on to the C library's as the program made it. A
 * program whose handler was there before sampling started keeps it and is not
 * sampled (pomp_sampling.c).
 *
 * Every other call, and every call before pomp started (or with pomp off), is
 * the C library's as it is: same arguments, result and errno. */
#include "pomp_signals.h"

#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stddef.h>
#include <unistd.h>

#include "pomp_sampling.h"

#define POMP_EXPORT __attribute__((visibility("default")))

typedef void (*signal_handler)(int);

/* The C library's own entry points under their other names (glibc exports
 * both): called directly, not looked up with dlsym(RTLD_NEXT), which a
 * sanitizer runtime intercepts and answers with NULL before it started (its
 * start installs its handlers through this sigaction: a call of address 0).
 * glibc's signal, bsd_signal and ssignal are one function (BSD semantics). */
extern int __sigaction(int, const struct sigaction *, struct sigaction *);
extern signal_handler ssignal(int, signal_handler);
/* sysv_signal and sigset have no other name that libpomp leaves alone: looked
 * up in libc itself (where the libgomp bridge is preloaded, libpomp comes
 * after libc, and dlsym(RTLD_NEXT) found none) when libpomp is loaded (no
 * dlopen in a signal handler), else at the first call. */
static signal_handler (*real_sysv_signal)(int, signal_handler);
static signal_handler (*real_sigset)(int, signal_handler);

__attribute__((constructor)) static void find_real_functions(void)
{
    if (__atomic_load_n(&real_sysv_signal, __ATOMIC_ACQUIRE) && __atomic_load_n(&real_sigset, __ATOMIC_ACQUIRE))
        return;
    void *libc = dlopen("libc.so.6", RTLD_NOW | RTLD_NOLOAD);
    if (!libc)
        return;
    __atomic_store_n(&real_sysv_signal, (signal_handler(*)(int, signal_handler))dlsym(libc, "__sysv_signal"),
                     __ATOMIC_RELEASE);
    __atomic_store_n(&real_sigset, (signal_handler(*)(int, signal_handler))dlsym(libc, "sigset"),
                     __ATOMIC_RELEASE);
}

int pomp_real_sigaction(int sig, const struct sigaction *act, struct sigaction *old)
{
    return __sigaction(sig, act, old);
}

/* The signals pomp takes: its handler, and the disposition the program is
 * shown while it stands (the default action, as the C library answered it).
 * Only SIGHUP, SIGINT, SIGABRT, SIGPIPE and SIGTERM (1, 2, 6, 13, 15) are ever taken. */
enum { TAKEN_MAX = 16 };
static struct {
    signal_handler handler; /* NULL: not taken */
    struct sigaction shown;
} taken[TAKEN_MAX];

/* One lock for all of them, held with every signal blocked on the thread (a
 * handler that calls sigaction on the thread holding it would wait forever).
 * It holds the holder's pid: one left held by a thread of the parent before
 * a fork() is taken over in the child. */
static pid_t lock_pid;

static void lock(sigset_t *saved)
{
    sigset_t all;
    sigfillset(&all);
    pthread_sigmask(SIG_BLOCK, &all, saved);
    pid_t self = getpid();
    for (;;) {
        pid_t held = 0;
        if (__atomic_compare_exchange_n(&lock_pid, &held, self, 0, __ATOMIC_ACQUIRE, __ATOMIC_RELAXED))
            return;
        if (held != self && /* the parent's, before fork */
            __atomic_compare_exchange_n(&lock_pid, &held, self, 0, __ATOMIC_ACQUIRE, __ATOMIC_RELAXED))
            return;
        sched_yield();
    }
}

static void unlock(const sigset_t *saved)
{
    __atomic_store_n(&lock_pid, 0, __ATOMIC_RELEASE);
    pthread_sigmask(SIG_SETMASK, saved, NULL);
}

static signal_handler taker(int sig)
{
    if (sig <= 0 || sig >= TAKEN_MAX)
        return NULL;
    return __atomic_load_n(&taken[sig].handler, __ATOMIC_ACQUIRE);
}

static void install(int sig, signal_handler handler)
{
    struct sigaction sa = {0};
    sa.sa_handler = handler;
    sigemptyset(&sa.sa_mask);
    __sigaction(sig, &sa, NULL);
}

/* After the disposition of a taken SIG changed (lock held): where it is the
 * default action now, pomp's handler stands, and the program is shown that
 * default action as the C library answers it. */
static void stand_where_default(int sig)
{
    struct sigaction now;
    if (__sigaction(sig, NULL, &now) != 0 || now.sa_handler != SIG_DFL)
        return;
    taken[sig].shown = now;
    install(sig, taken[sig].handler);
}

void pomp_signal_take(int sig, signal_handler handler)
{
    if (sig <= 0 || sig >= TAKEN_MAX)
        return;
    sigset_t saved;
    lock(&saved);
    __atomic_store_n(&taken[sig].handler, handler, __ATOMIC_RELEASE);
    stand_where_default(sig);
    unlock(&saved);
}

void pomp_signal_release(int sig)
{
    signal_handler handler = taker(sig);
    if (!handler)
        return;
    sigset_t saved;
    lock(&saved);
    struct sigaction now;
    if (__sigaction(sig, NULL, &now) == 0 && now.sa_handler == handler)
        __sigaction(sig, &taken[sig].shown, NULL);
    __atomic_store_n(&taken[sig].handler, NULL, __ATOMIC_RELEASE);
    unlock(&saved);
}

void pomp_signal_default(int sig)
{
    struct sigaction sa = {0};
    sa.sa_handler = SIG_DFL;
    sigemptyset(&sa.sa_mask);
    __sigaction(sig, &sa, NULL);
}

POMP_EXPORT int sigaction(int sig, const struct sigaction *act, struct sigaction *old)
{
    if (sig == SIGPROF && act)
        pomp_sampling_yield_sigprof();
    signal_handler handler = taker(sig);
    if (!handler) {
        int result = __sigaction(sig, act, old);
        if (sig == SIGPROF && result == 0)
            pomp_sampling_sigprof_shown(old);
        return result;
    }
    sigset_t saved;
    lock(&saved);
    struct sigaction shown = taken[sig].shown, previous;
    int result = __sigaction(sig, act, &previous);
    int error = errno;
    if (result == 0) {
        if (old)
            *old = previous.sa_handler == handler ? shown : previous;
        if (act)
            stand_where_default(sig);
    }
    unlock(&saved);
    errno = error;
    return result;
}

/* signal and its kin on a taken SIG: the C library's, then pomp's handler
 * answered as what it stands for, and put back where the program set the
 * default action */
static signal_handler set_taken(int sig, signal_handler handler, signal_handler taker_handler,
                                signal_handler (*real)(int, signal_handler))
{
    sigset_t saved;
    lock(&saved);
    signal_handler shown = taken[sig].shown.sa_handler;
    signal_handler previous = real(sig, handler);
    int error = errno;
    if (previous != SIG_ERR) {
        if (previous == taker_handler)
            previous = shown;
        stand_where_default(sig);
    }
    unlock(&saved);
    errno = error;
    return previous;
}

static signal_handler set(int sig, signal_handler handler, signal_handler (*real)(int, signal_handler))
{
    if (!real) { /* (no C library's sysv_signal or sigset: not glibc) */
        errno = ENOSYS;
        return SIG_ERR;
    }
    if (sig == SIGPROF) {
        pomp_sampling_yield_sigprof();
        signal_handler previous = real(sig, handler);
        return previous == SIG_ERR ? previous : pomp_sampling_sigprof_handler_shown(previous);
    }
    signal_handler taker_handler = taker(sig);
    if (!taker_handler)
        return real(sig, handler);
    return set_taken(sig, handler, taker_handler, real);
}

POMP_EXPORT signal_handler signal(int sig, signal_handler handler)
{
    return set(sig, handler, ssignal);
}

POMP_EXPORT signal_handler bsd_signal(int sig, signal_handler handler)
{
    return set(sig, handler, ssignal);
}

static signal_handler sysv(int sig, signal_handler handler)
{
    if (!__atomic_load_n(&real_sysv_signal, __ATOMIC_ACQUIRE))
        find_real_functions();
    return set(sig, handler, __atomic_load_n(&real_sysv_signal, __ATOMIC_ACQUIRE));
}

POMP_EXPORT signal_handler sysv_signal(int sig, signal_handler handler) { return sysv(sig, handler); }
POMP_EXPORT signal_handler __sysv_signal(int sig, signal_handler handler) { return sysv(sig, handler); }

/* sigset changes the thread's signal mask too, and answers SIG_HOLD where SIG
 * was blocked: on a taken SIG, glibc's sigset (sysdeps/posix/sigset.c) made
 * of libpomp's sigaction (which blocks every signal while it works) */
static signal_handler sigset_taken(int sig, signal_handler disp)
{
    sigset_t set, oset;
    sigemptyset(&set);
    sigaddset(&set, sig);
    struct sigaction act, oact;
    if (disp == SIG_HOLD) {
        if (sigprocmask(SIG_BLOCK, &set, &oset) < 0)
            return SIG_ERR;
        if (sigismember(&oset, sig))
            return SIG_HOLD;
        if (sigaction(sig, NULL, &oact) < 0)
            return SIG_ERR;
        return oact.sa_handler;
    }
    act.sa_handler = disp;
    sigemptyset(&act.sa_mask);
    act.sa_flags = 0;
    if (sigaction(sig, &act, &oact) < 0)
        return SIG_ERR;
    if (sigprocmask(SIG_UNBLOCK, &set, &oset) < 0)
        return SIG_ERR;
    return sigismember(&oset, sig) ? SIG_HOLD : oact.sa_handler;
}

POMP_EXPORT signal_handler sigset(int sig, signal_handler handler)
{
    /* (SIG_HOLD blocks the signal on the thread, as sigprocmask does: the
     * disposition stays pomp's, and so does sampling; a review) */
    if (sig == SIGPROF && handler != SIG_HOLD)
        pomp_sampling_yield_sigprof();
    if (taker(sig))
        return sigset_taken(sig, handler);
    if (!__atomic_load_n(&real_sigset, __ATOMIC_ACQUIRE))
        find_real_functions();
    signal_handler (*real)(int, signal_handler) = __atomic_load_n(&real_sigset, __ATOMIC_ACQUIRE);
    if (!real) { /* (no C library's sigset: not glibc) */
        errno = ENOSYS;
        return SIG_ERR;
    }
    return real(sig, handler);
}

/* The same entry points under names of their own, which the libgomp bridge
 * calls where pomprun puts it before the C library (gomp-bridge/
 * gomp_signals.c): it is linked against libpomp, so that nothing is looked up
 * at run time (its dlopen of libpomp, from a sanitizer's start, ran other
 * libraries' constructors inside that start, which aborted; a CI run). */
POMP_EXPORT int pomp_forward_sigaction(int, const struct sigaction *, struct sigaction *)
    __attribute__((alias("sigaction"), nothrow, leaf));
POMP_EXPORT signal_handler pomp_forward_signal(int, signal_handler) __attribute__((alias("signal"), nothrow, leaf));
POMP_EXPORT signal_handler pomp_forward_bsd_signal(int, signal_handler)
    __attribute__((alias("bsd_signal"), nothrow, leaf));
POMP_EXPORT signal_handler pomp_forward_sysv_signal(int, signal_handler)
    __attribute__((alias("sysv_signal"), nothrow, leaf));
POMP_EXPORT signal_handler pomp_forward___sysv_signal(int, signal_handler)
    __attribute__((alias("__sysv_signal"), nothrow, leaf));
POMP_EXPORT signal_handler pomp_forward_sigset(int, signal_handler) __attribute__((alias("sigset"), nothrow, leaf));
