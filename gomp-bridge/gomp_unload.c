/* dlclose, ahead of libc's where pomprun preloads this library (libpomp, its
 * dependency, comes after libc there, so that its own dlclose was never the
 * program's): forwarded to libpomp's, which lets an unloaded object's call
 * sites go (ompt-bridge/bridge_unload.c), else to libc's. The one call into
 * libpomp that is not OMPT's: OMPT has no word for an object unloaded. */
#include <dlfcn.h>
#include <pthread.h>

static int (*next_dlclose)(void *);
static pthread_once_t next_once = PTHREAD_ONCE_INIT;

static void find_next_dlclose(void)
{
    void *lib = dlopen("libpomp.so", RTLD_NOW | RTLD_NOLOAD);
    if (!lib)
        lib = dlopen("libc.so.6", RTLD_NOW | RTLD_NOLOAD);
    if (lib)
        *(void **)&next_dlclose = dlsym(lib, "dlclose");
}

__attribute__((visibility("default"))) int gomp_dlclose(void *handle)
{
    pthread_once(&next_once, find_next_dlclose);
    return next_dlclose ? next_dlclose(handle) : -1;
}
__asm__(".symver gomp_dlclose, dlclose@@GLIBC_2.34");
__asm__(".symver gomp_dlclose_old, dlclose@GLIBC_2.2.5");
__attribute__((visibility("default"), alias("gomp_dlclose"))) int gomp_dlclose_old(void *handle);
