/* The program's closes of libunwind's pipe. libunwind checks an address it
 * is not sure of through a pipe of its own, kept open (pomp_sampling.c,
 * unwind_pipe_note); a program that closes its descriptors (a closefrom, a
 * loop of close from 3, a dup2 onto one) and opens its files had libunwind
 * read their bytes and write bytes of the stack into them (a probe: a
 * 5-byte file grew, reads came up short). libpomp's close, dup2, dup3,
 * close_range and closefrom stand before the C library's: one that closes or
 * replaces the pipe stops sampling first (the samples so far kept, said at
 * the end), then does what the program asked. Every other call is the C
 * library's as it is, at the cost of one compare. A close by a direct system
 * call is not seen. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "pomp_sampling.h"

#define POMP_EXPORT __attribute__((visibility("default")))

#ifndef CLOSE_RANGE_CLOEXEC
#define CLOSE_RANGE_CLOEXEC (1U << 2)
#endif

/* The C library's own entry points under their other names (glibc exports
 * both): not looked up with dlsym(RTLD_NEXT) (core/pomp_signals.c says why). */
extern int __close(int);
extern int __dup2(int, int);

POMP_EXPORT int close(int fd)
{
    if (fd >= 0)
        pomp_sampling_fds_closing((unsigned)fd, (unsigned)fd);
    return __close(fd);
}

/* (a dup2 or dup3 from a descriptor that is not open closes nothing) */
POMP_EXPORT int dup2(int old, int new)
{
    if (new >= 0 && old != new && fcntl(old, F_GETFD) != -1)
        pomp_sampling_fds_closing((unsigned)new, (unsigned)new);
    return __dup2(old, new);
}

POMP_EXPORT int dup3(int old, int new, int flags)
{
    if (new >= 0 && old != new && fcntl(old, F_GETFD) != -1)
        pomp_sampling_fds_closing((unsigned)new, (unsigned)new);
    return (int)syscall(SYS_dup3, old, new, flags);
}

POMP_EXPORT int close_range(unsigned lo, unsigned hi, int flags)
{
    if (!(flags & CLOSE_RANGE_CLOEXEC) && lo <= hi)
        pomp_sampling_fds_closing(lo, hi);
    return (int)syscall(SYS_close_range, lo, hi, flags);
}

POMP_EXPORT void closefrom(int lo)
{
    if (lo < 0)
        lo = 0;
    pomp_sampling_fds_closing((unsigned)lo, UINT_MAX);
    int saved = errno;
    if (syscall(SYS_close_range, (unsigned)lo, ~0U, 0) != 0) { /* (a kernel before 5.9) */
        long max = sysconf(_SC_OPEN_MAX);
        for (long fd = lo; fd < (max > 0 ? max : 1024); fd++)
            __close((int)fd);
    }
    errno = saved;
}

/* The same under names of their own, for the libgomp bridge (as
 * core/pomp_signals.c's pomp_forward_*: gomp-bridge/gomp_fds.c). */
POMP_EXPORT int pomp_forward_close(int) __attribute__((alias("close")));
POMP_EXPORT int pomp_forward_dup2(int, int) __attribute__((alias("dup2"), nothrow, leaf));
POMP_EXPORT int pomp_forward_dup3(int, int, int) __attribute__((alias("dup3"), nothrow, leaf));
POMP_EXPORT int pomp_forward_close_range(unsigned, unsigned, int) __attribute__((alias("close_range"), nothrow, leaf));
POMP_EXPORT void pomp_forward_closefrom(int) __attribute__((alias("closefrom"), nothrow, leaf));
