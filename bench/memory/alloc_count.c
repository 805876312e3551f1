/* LD_PRELOAD shim of make bench: counts the heap memory that libpomp itself
 * allocates (calls to malloc, calloc, realloc and free made from libpomp's
 * code, told apart by their return address), and at exit writes the peak of
 * the bytes it held at once to $POMP_BENCH_ALLOC_OUT.
 *
 * Sizes are malloc_usable_size, so a block counts the same when it is freed.
 * Allocations libc makes on libpomp's behalf (strdup, fopen) are not counted:
 * they are small and happen once per region or at the output. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <link.h>
#include <malloc.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

extern void *__libc_malloc(size_t);
extern void *__libc_calloc(size_t, size_t);
extern void *__libc_realloc(void *, size_t);
extern void __libc_free(void *);

static uintptr_t pomp_lo, pomp_hi; /* libpomp's code, once found */
static int looked;
static long long live, peak;

static int find_libpomp(struct dl_phdr_info *info, size_t size, void *data)
{
    (void)size;
    (void)data;
    if (!info->dlpi_name || !strstr(info->dlpi_name, "libpomp.so"))
        return 0;
    for (int i = 0; i < info->dlpi_phnum; i++) {
        const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
        if (ph->p_type == PT_LOAD && (ph->p_flags & PF_X)) {
            pomp_lo = info->dlpi_addr + ph->p_vaddr;
            pomp_hi = pomp_lo + ph->p_memsz;
        }
    }
    return 1;
}

static int from_libpomp(void *caller)
{
    if (!looked) {
        looked = 1;
        dl_iterate_phdr(find_libpomp, NULL);
    }
    return (uintptr_t)caller >= pomp_lo && (uintptr_t)caller < pomp_hi;
}

static void account(long long delta)
{
    long long now = __atomic_add_fetch(&live, delta, __ATOMIC_RELAXED);
    long long p = __atomic_load_n(&peak, __ATOMIC_RELAXED);
    while (now > p && !__atomic_compare_exchange_n(&peak, &p, now, 1, __ATOMIC_RELAXED,
                                                   __ATOMIC_RELAXED))
        ;
}

void *malloc(size_t n)
{
    void *p = __libc_malloc(n);
    if (p && from_libpomp(__builtin_return_address(0)))
        account((long long)malloc_usable_size(p));
    return p;
}

void *calloc(size_t n, size_t size)
{
    void *p = __libc_calloc(n, size);
    if (p && from_libpomp(__builtin_return_address(0)))
        account((long long)malloc_usable_size(p));
    return p;
}

void *realloc(void *old, size_t n)
{
    int mine = from_libpomp(__builtin_return_address(0));
    long long before = old && mine ? (long long)malloc_usable_size(old) : 0;
    void *p = __libc_realloc(old, n);
    if (p && mine)
        account((long long)malloc_usable_size(p) - before);
    return p;
}

void free(void *p)
{
    if (p && from_libpomp(__builtin_return_address(0)))
        account(-(long long)malloc_usable_size(p));
    __libc_free(p);
}

/* After libpomp's own exit-time output (destructors run after atexit handlers).
 * Only a process with libpomp in it writes (not, say, the runstat around it). */
__attribute__((destructor)) static void report(void)
{
    const char *path = getenv("POMP_BENCH_ALLOC_OUT");
    from_libpomp(NULL);
    if (!path || pomp_lo == 0)
        return;
    FILE *f = fopen(path, "w");
    if (!f)
        return;
    fprintf(f, "%lld\n", peak);
    fclose(f);
}
