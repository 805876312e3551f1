#include "runtime.h"

#include <string.h>

#ifndef POMP_LIBOMP_DIR
#define POMP_LIBOMP_DIR "/usr/lib/llvm-19/lib"
#endif

int pomp_runtime_parse(const char *name, enum pomp_runtime *out)
{
    if (strcmp(name, "omp") == 0 || strcmp(name, "libomp") == 0 || strcmp(name, "llvm") == 0)
        *out = POMP_RUNTIME_LIBOMP;
    else if (strcmp(name, "gomp") == 0 || strcmp(name, "libgomp") == 0)
        *out = POMP_RUNTIME_GOMP;
    else
        return -1;
    return 0;
}

int pomp_runtime_is_openmp_flag(const char *a)
{
    /* --openmp: GCC's other spelling of -fopenmp (it was left unmeasured) */
    return strcmp(a, "-fopenmp") == 0 || strcmp(a, "--openmp") == 0 ||
           strncmp(a, "-fopenmp=", 9) == 0 || strcmp(a, "-fiopenmp") == 0 || strcmp(a, "-qopenmp") == 0;
}

int pomp_runtime_openmp_after(int openmp, const char *a)
{
    return pomp_runtime_is_openmp_flag(a) ? 1 : strcmp(a, "-fno-openmp") == 0 ? 0 : openmp;
}

int pomp_runtime_is_offload_flag(const char *a)
{
    return strncmp(a, "-fopenmp-targets=", 17) == 0 || strncmp(a, "--offload-arch=", 15) == 0 ||
           strcmp(a, "-fopenmp-offload-mandatory") == 0 || strncmp(a, "-Xopenmp-target", 15) == 0;
}

int pomp_runtime_is_libgomp_archive(const char *a)
{
    size_t n = strlen(a);
    return strcmp(a, "-l:libgomp.a") == 0 ||
           (n >= 9 && strcmp(a + n - 9, "libgomp.a") == 0 && (n == 9 || a[n - 10] == '/'));
}

int pomp_runtime_drop_at_link(enum pomp_runtime rt, const char *a, int offload)
{
    /* an offloading link needs the driver's -fopenmp: it runs the linker
     * wrapper that embeds the device images and adds libomptarget */
    /* the user's -lgomp: the driver's, which the link arguments put after the
     * libgomp bridge (pompcc adds them wherever -lgomp is) */
    if (rt == POMP_RUNTIME_GOMP)
        return strcmp(a, "-lgomp") == 0 || pomp_runtime_is_libgomp_archive(a);
    return !offload && pomp_runtime_is_openmp_flag(a);
}

const char *const *pomp_runtime_link_args(enum pomp_runtime rt)
{
    static const char *const libomp[] = {"-L" POMP_LIBOMP_DIR, "-Wl,-rpath," POMP_LIBOMP_DIR,
                                         "-lomp", "-pthread", NULL};
    /* the libgomp bridge before libgomp (the driver adds libgomp after it),
     * kept when the program's own objects need none of its definitions: the
     * libraries it loads may call libgomp */
    static const char *const gomp[] = {"-Wl,--push-state,--no-as-needed", "-lpomp-gomp",
                                       "-Wl,--pop-state", "-fopenmp", NULL};
    return rt == POMP_RUNTIME_LIBOMP ? libomp : gomp;
}
