/* POMP_Thread_num: the thread id the instrumented code passes to the POMP
 * routines (POMP_TID_ in the generated .pomp.inc). It comes from libpomp's own
 * thread record, so the inserted code calls into the OpenMP runtime only where
 * the user's code would: libomp 19 crashes in omp_get_thread_num() after
 * omp_pause_resource_all(omp_pause_hard) until the next parallel region, and a
 * call inserted there must not be the one that crashes (issue 18).
 *
 * The thread id only names a thread at its registration (pomp_thread.h:
 * omp_thread_num, "thread_id argument of the thread's first event"), so a
 * recorded thread answers with the number it registered with. A thread
 * without a record asks the runtime once: it is the initial thread (0, no
 * call) or a thread the runtime started to run team code, where the runtime
 * is initialized. Which of the two it is costs no system call: a team's
 * fresh thread comes here at its first event, and under POMP_OMPT=off (no
 * thread-begin from the runtime) its gettid() and getpid() on a machine with
 * more threads than CPUs let libgomp's spinning master take the CPU from the
 * thread it waited for (a nested program's 3,000 fresh threads: 0.5 s
 * against 10 s, a probe). */
#include <pomplib.h>

#include "pomp_record.h"

/* The program's OpenMP runtime's, if it has one (libpomp links none). */
extern int omp_get_thread_num(void) __attribute__((weak));

POMP_Int32 POMP_Thread_num(void)
{
    const struct pomp_thread *t = pomp_tls_thread;
    if (__builtin_expect(t != NULL, 1))
        return t->omp_thread_num;
    if (pomp_own_tid() == pomp_own_pid() || !omp_get_thread_num)
        return 0;
    return omp_get_thread_num();
}
