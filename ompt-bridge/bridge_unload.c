/* dlclose, interposed (libpomp exports it, and the libgomp bridge, which
 * pomprun preloads ahead of libc, forwards its own to it; glibc's internal
 * callers do not come here): once an object is unloaded, the runtime's call
 * sites in its code are let go (bridge_regions_forget). A plugin loaded where
 * an unloaded one had been had its regions measured under the first one's
 * names (pomprun: plugB.c's region counted as plugin.c's; a probe). The call
 * itself is glibc's, unchanged: found in libc itself (RTLD_NEXT from here
 * finds nothing where the loader placed libpomp after libc). */
#include <dlfcn.h>
#include <link.h>
#include <pthread.h>
#include <stdint.h>
#include <string.h>

#include "bridge_regions.h"
#include "bridge_symbols.h"

static int (*real_dlclose)(void *);
static pthread_once_t real_once = PTHREAD_ONCE_INIT;

static void find_real_dlclose(void)
{
    void *libc = dlopen("libc.so.6", RTLD_NOW | RTLD_NOLOAD);
    if (libc)
        *(void **)&real_dlclose = dlsym(libc, "dlclose");
}

/* The address range of the loaded segments of the object at map. */
struct object_range {
    const struct link_map *map;
    uintptr_t lo, hi;
};

static int range_of(struct dl_phdr_info *info, size_t size, void *arg)
{
    (void)size;
    struct object_range *r = arg;
    if (info->dlpi_addr != r->map->l_addr || !info->dlpi_name || !r->map->l_name ||
        strcmp(info->dlpi_name, r->map->l_name) != 0)
        return 0;
    for (ElfW(Half) i = 0; i < info->dlpi_phnum; i++) {
        const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
        if (ph->p_type != PT_LOAD)
            continue;
        uintptr_t lo = info->dlpi_addr + ph->p_vaddr, hi = lo + ph->p_memsz;
        if (!r->lo || lo < r->lo)
            r->lo = lo;
        if (hi > r->hi)
            r->hi = hi;
    }
    return 1;
}

__attribute__((visibility("default"))) int dlclose(void *handle)
{
    pthread_once(&real_once, find_real_dlclose);
    if (!real_dlclose)
        return -1;
    struct object_range r = {0};
    struct link_map *map = NULL;
    /* (glibc declares the handle non-null; a program may pass NULL all the
     * same, which glibc then answers: its check must stay) */
    void *h = handle;
    __asm__("" : "+r"(h));
    if (h && dlinfo(h, RTLD_DI_LINKMAP, &map) == 0 && map && map->l_name &&
        map->l_name[0]) {
        r.map = map;
        dl_iterate_phdr(range_of, &r);
    }
    if (r.hi > r.lo) /* (whether it stays loaded or not: a name found now is right) */
        bridge_symbols_keep_critical_names(r.lo, r.hi);
    int rc = real_dlclose(handle);
    struct dl_find_object found; /* (a reference still held elsewhere: still loaded) */
    if (rc == 0 && r.hi > r.lo && _dl_find_object((void *)r.lo, &found) != 0)
        bridge_regions_forget(r.lo, r.hi);
    return rc;
}
