/* Memory that one thread writes often, apart from every other thread's. */
#ifndef POMP_LINES_H
#define POMP_LINES_H

#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

/* Under AddressSanitizer (make sanitize), the C library's memory:
 * LeakSanitizer finds pointers only there (pages mapped by hand, registered
 * as its root regions, made its stop-the-world tracer crash at exit in three
 * sampling tests of one run: not reproduced alone, not understood). */
#if defined(__SANITIZE_ADDRESS__)
#define POMP_LINES_FROM_HEAP 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define POMP_LINES_FROM_HEAP 1
#endif
#endif

/* Two cache lines: the pair the adjacent-line prefetcher fetches together. */
#define POMP_LINES_ALIGN 128

/* A zeroed block of size bytes that shares no cache line (nor such a pair of
 * lines) with any other block: per-thread records allocated one after another
 * would otherwise sit side by side, the tail of one thread's record in the
 * line of the head of the next, and each thread's writes would take the line
 * from the other at every event (false sharing: +60 ns per parallel region
 * measured). Pages of its own, from the kernel: zero already, and a page the
 * thread never touches costs nothing, where the C library's memory had to be
 * cleared whole in the new thread's arena (libgomp's nested teams start
 * fresh threads: 600 of them spent a third of a run clearing and faulting in
 * their records). NULL if memory ran out; pomp_free_lines releases it. */
static inline void *pomp_alloc_lines(size_t size)
{
#ifdef POMP_LINES_FROM_HEAP
    size_t whole = (size + POMP_LINES_ALIGN - 1) & ~(size_t)(POMP_LINES_ALIGN - 1);
    void *p = aligned_alloc(POMP_LINES_ALIGN, whole);
    if (p)
        memset(p, 0, whole);
    return p;
#else
    void *p = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    return p == MAP_FAILED ? NULL : p;
#endif
}

static inline void pomp_free_lines(void *p, size_t size)
{
#ifdef POMP_LINES_FROM_HEAP
    (void)size;
    free(p);
#else
    if (p)
        munmap(p, size);
#endif
}

#endif
