/* close, dup2, dup3, close_range and closefrom, ahead of libc's where pomprun
 * preloads this library (libpomp, its dependency, comes after libc there):
 * forwarded to libpomp's (pomplib/sampling/pomp_fdguard.c), which stop
 * sampling before the program closes libunwind's pipe; else to libc's. Under
 * pomprun a GCC program that closed its descriptors from 3 and opened its own
 * files had libunwind read their bytes and write into them (a review). As
 * gomp_signals.c does for the signal calls: libpomp is looked up at load,
 * else at the first call; while it is not found, libc's answer. */
#include <dlfcn.h>
#include <errno.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "gomp_forward.h"

extern int __close(int);
extern int __dup2(int, int);

enum { CLOSE, DUP2, DUP3, CLOSE_RANGE, CLOSEFROM, FORWARDED };
static const char *const names[FORWARDED] = {"close", "dup2", "dup3", "close_range", "closefrom"};
static void *pomp[FORWARDED];
static struct gomp_forward forward = {names, pomp, FORWARDED, 0};

__attribute__((constructor)) static void find_at_load(void) { gomp_forward_ready(&forward, 1); }

/* (no dlopen from a close in a signal handler: only the load's lookup counts
 * there, and a first call from a handler before it finds libc's) */
static int ready(void) { return gomp_forward_ready(&forward, 0); }

#define EXPORT __attribute__((visibility("default")))

EXPORT int gomp_close(int fd) { return ready() ? ((int (*)(int))pomp[CLOSE])(fd) : __close(fd); }
EXPORT int gomp_dup2(int old, int new)
{
    return ready() ? ((int (*)(int, int))pomp[DUP2])(old, new) : __dup2(old, new);
}
EXPORT int gomp_dup3(int old, int new, int flags)
{
    return ready() ? ((int (*)(int, int, int))pomp[DUP3])(old, new, flags)
                   : (int)syscall(SYS_dup3, old, new, flags);
}
EXPORT int gomp_close_range(unsigned lo, unsigned hi, int flags)
{
    return ready() ? ((int (*)(unsigned, unsigned, int))pomp[CLOSE_RANGE])(lo, hi, flags)
                   : (int)syscall(SYS_close_range, lo, hi, flags);
}
EXPORT void gomp_closefrom(int lo)
{
    if (ready()) {
        ((void (*)(int))pomp[CLOSEFROM])(lo);
        return;
    }
    int saved = errno;
    if (syscall(SYS_close_range, (unsigned)(lo < 0 ? 0 : lo), ~0U, 0) != 0) {
        long max = sysconf(_SC_OPEN_MAX);
        for (long fd = lo < 0 ? 0 : lo; fd < (max > 0 ? max : 1024); fd++)
            __close((int)fd);
    }
    errno = saved;
}
__asm__(".symver gomp_close, close@@GLIBC_2.2.5");
__asm__(".symver gomp_dup2, dup2@@GLIBC_2.2.5");
__asm__(".symver gomp_dup3, dup3@@GLIBC_2.9");
__asm__(".symver gomp_close_range, close_range@@GLIBC_2.34");
__asm__(".symver gomp_closefrom, closefrom@@GLIBC_2.34");
