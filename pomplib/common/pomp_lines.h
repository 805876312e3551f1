/* Memory that one thread writes often, apart from every other thread's. */
#ifndef POMP_LINES_H
#define POMP_LINES_H

#include <stddef.h>
#include <sys/mman.h>

/* LeakSanitizer scans the C library's memory for pointers, not pages mapped
 * by hand: those it is told of (make sanitize) */
#if defined(__SANITIZE_ADDRESS__)
#define POMP_LSAN_ROOTS 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define POMP_LSAN_ROOTS 1
#endif
#endif
#ifdef POMP_LSAN_ROOTS
#include <sanitizer/lsan_interface.h>
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
    void *p = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED)
        return NULL;
#ifdef POMP_LSAN_ROOTS
    __lsan_register_root_region(p, size); /* what it points to is not leaked */
#endif
    return p;
}

static inline void pomp_free_lines(void *p, size_t size)
{
    if (!p)
        return;
#ifdef POMP_LSAN_ROOTS
    __lsan_unregister_root_region(p, size);
#endif
    munmap(p, size);
}

#endif
