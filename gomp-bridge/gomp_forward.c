/* libpomp's entry points that stand before the C library's (signal calls,
 * descriptor closes), found for the bridge's own, which come first where
 * pomprun preloads this library (gomp_signals.c, gomp_fds.c). */
#include "gomp_forward.h"

#include <dlfcn.h>

int gomp_forward_ready(struct gomp_forward *f, int look)
{
    if (__atomic_load_n(&f->found, __ATOMIC_ACQUIRE) || !look)
        return __atomic_load_n(&f->found, __ATOMIC_ACQUIRE);
    void *lib = dlopen("libpomp.so", RTLD_NOW | RTLD_NOLOAD);
    if (!lib)
        return 0;
    int all = 1;
    for (size_t i = 0; i < f->n; i++)
        all &= (f->fns[i] = dlsym(lib, f->names[i])) != NULL;
    __atomic_store_n(&f->found, all, __ATOMIC_RELEASE);
    return all;
}
