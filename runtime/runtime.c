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

int pomp_runtime_is_libgomp(const char *a)
{
    /* (a linker word of its own: -Wl,-lgomp, -Wl,/path/libgomp.so.1) */
    if (strncmp(a, "-Wl,", 4) == 0 && !strchr(a + 4, ','))
        a += 4;
    if (strcmp(a, "-lgomp") == 0 || strncmp(a, "-l:libgomp.so", 13) == 0 ||
        pomp_runtime_is_libgomp_archive(a))
        return 1;
    const char *base = strrchr(a, '/');
    base = base ? base + 1 : a;
    return a[0] != '-' && (strcmp(base, "libgomp.so") == 0 || strncmp(base, "libgomp.so.", 11) == 0);
}

int pomp_runtime_drop_at_link(enum pomp_runtime rt, const char *a, int offload)
{
    /* an offloading link needs the driver's -fopenmp: it runs the linker
     * wrapper that embeds the device images and adds libomptarget */
    /* the user's libgomp (-lgomp, its path: CMake's OpenMP::OpenMP_C given
     * OpenMP_gomp_LIBRARY, -Wl,-lgomp): the driver's, which the link arguments
     * put after the libgomp bridge (pompcc adds them wherever libgomp is; before
     * it, libgomp's entry points were found first: nothing measured of the
     * runtime, a probe) */
    if (rt == POMP_RUNTIME_GOMP)
        return pomp_runtime_is_libgomp(a);
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
