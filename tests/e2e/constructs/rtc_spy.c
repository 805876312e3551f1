/* A test library linked before libpomp (tests/e2e/test_rtc.sh): it sees the
 * run-time context values the instrumented code passes, writes them to
 * $RTC_SPY_OUT, and forwards every call to libpomp. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <pomplib.h>

/* One line per call, written with one write(2): lines of threads do not mix. */
static void say(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void say(const char *fmt, ...)
{
    static int fd = -2;
    if (fd == -2) {
        const char *path = getenv("RTC_SPY_OUT");
        fd = path ? open(path, O_WRONLY | O_CREAT | O_APPEND, 0644) : -1;
    }
    if (fd < 0)
        return;
    char line[256];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    if (n > 0 && write(fd, line, (size_t)n) != n)
        abort();
}

/* The first line of the region, from its CTC string ("slines=12,12"). */
static int line_of(const char ctc[])
{
    const char *s = ctc ? strstr(ctc, "slines=") : NULL;
    return s ? atoi(s + 7) : 0;
}

#define NEXT(name) ((__typeof__(&POMP_##name))dlsym(RTLD_NEXT, "POMP_" #name))

POMP_Int32 POMP_Parallel_enter(POMP_Handle_t *h, POMP_Int32 tid, POMP_Int32 nt, POMP_Int32 ifr,
                               const char ctc[])
{
    say("Parallel_enter %d num_threads=%d if=%d\n", line_of(ctc), nt, ifr);
    return NEXT(Parallel_enter)(h, tid, nt, ifr, ctc);
}

#define LOOP_LIKE(name)                                                                          \
    POMP_Int32 POMP_##name(POMP_Handle_t *h, POMP_Int32 tid, POMP_Int64 chunk, POMP_Int64 init,  \
                           POMP_Int64 final, POMP_Int64 incr, const char ctc[])                  \
    {                                                                                            \
        say(#name " %d chunk=%lld init=%lld final=%lld incr=%lld\n", line_of(ctc),               \
            (long long)chunk, (long long)init, (long long)final, (long long)incr);               \
        return NEXT(name)(h, tid, chunk, init, final, incr, ctc);                                \
    }
LOOP_LIKE(Loop_enter)
LOOP_LIKE(Distribute_enter)
LOOP_LIKE(Taskloop_enter)
LOOP_LIKE(Simd_enter)

POMP_Int32 POMP_Section_begin(POMP_Handle_t h, POMP_Int32 num, POMP_Int32 tid)
{
    say("Section_begin %d\n", num);
    return NEXT(Section_begin)(h, num, tid);
}

POMP_Int32 POMP_Loop_iter_event(POMP_Handle_t h, POMP_Int32 tid, POMP_Int64 iter)
{
    say("Loop_iter_event %lld\n", (long long)iter);
    return NEXT(Loop_iter_event)(h, tid, iter);
}
