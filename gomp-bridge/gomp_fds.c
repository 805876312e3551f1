/* close, dup2, dup3, close_range and closefrom, ahead of libc's where pomprun
 * preloads this library (libpomp, its dependency, comes after libc there):
 * forwarded to libpomp's (pomplib/sampling/pomp_fdguard.c), which stop
 * sampling before the program closes libunwind's pipe. Under pomprun a GCC
 * program that closed its descriptors from 3 and opened its own files had
 * libunwind read their bytes and write into them (a review). Called by their
 * own names, which this library's link resolves: nothing is looked up at run
 * time (as gomp_signals.c). */
/* libpomp's (pomplib/sampling/pomp_fdguard.c), under their own names */
int pomp_forward_close(int);
int pomp_forward_dup2(int, int);
int pomp_forward_dup3(int, int, int);
int pomp_forward_close_range(unsigned, unsigned, int);
void pomp_forward_closefrom(int);

#define EXPORT __attribute__((visibility("default")))

EXPORT int gomp_close(int fd) { return pomp_forward_close(fd); }
EXPORT int gomp_dup2(int old, int new) { return pomp_forward_dup2(old, new); }
EXPORT int gomp_dup3(int old, int new, int flags) { return pomp_forward_dup3(old, new, flags); }
EXPORT int gomp_close_range(unsigned lo, unsigned hi, int flags)
{
    return pomp_forward_close_range(lo, hi, flags);
}
EXPORT void gomp_closefrom(int lo) { pomp_forward_closefrom(lo); }
__asm__(".symver gomp_close, close@@GLIBC_2.2.5");
__asm__(".symver gomp_dup2, dup2@@GLIBC_2.2.5");
__asm__(".symver gomp_dup3, dup3@@GLIBC_2.9");
__asm__(".symver gomp_close_range, close_range@@GLIBC_2.34");
__asm__(".symver gomp_closefrom, closefrom@@GLIBC_2.34");
