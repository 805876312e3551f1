/* The libraries a link's -l options name, looked up in its -L directories as
 * the linker does. pomp-prelink reads them for their POMP_Init_ functions and
 * construct counts, pompcc's runtime choice for the runtime they call. */
#ifndef POMP_LIB_SEARCH_H
#define POMP_LIB_SEARCH_H

#include <stddef.h>

#include "process.h"

/* A link's search: every directory the linker searches for -l, and whether
 * it takes archives only at the option being read. */
struct lib_search {
    struct argv_list dirs; /* every -L of the link, wherever it stands (as ld reads them:
                              `-lw -Llib` finds lib/libw.a), then LIBRARY_PATH's (as gcc
                              adds them) */
    int all_static;        /* gcc's -static: the whole link takes archives only */
    int link_static;       /* -Bstatic (-dn, -non_shared) last, not -Bdynamic (-dy, -call_shared) */
};

/* Whether a path names a link input: by its suffix (.o, .a, .so, .so.N), or
 * by its contents where its suffix is none a compiler reads (an ELF
 * relocatable object or shared library, an archive, LLVM bitcode: SCons's
 * .os, .obj, .lo). */
int lib_search_is_input(const char *path);
/* Whether it is a shared library by its name (lib.so, lib.so.1.2). */
int lib_search_is_shared(const char *path);

/* Appends the items of a -Wl, list (a) to words and returns 1; 0 (nothing
 * appended) for any other argument. */
int lib_search_wl_words(const char *a, struct argv_list *words);
/* Whether a linker word makes the -l after it take archives only (1:
 * -Bstatic, -dn, -non_shared, -static), shared libraries again (-1:
 * -Bdynamic, -dy, -call_shared), or neither (0). */
int lib_search_static_word(const char *w);

/* The search of the link whose gcc arguments are args[0..n): their -L
 * directories in every spelling (-L dir, -Ldir, and inside -Wl, lists and
 * -Xlinker: -L,dir, --library-path=dir) and LIBRARY_PATH's. */
void lib_search_init(struct lib_search *ls, char *const *args, size_t n);
void lib_search_free(struct lib_search *ls);

/* The archive the linker takes for -l name: libname.a in the first directory
 * that has it or libname.so (-l:file names the file itself). NULL where the
 * linker takes a shared library (then *shared is its path, else NULL) or no
 * directory has one (a system library). */
char *lib_search_find(const struct lib_search *ls, const char *name, char **shared);

/* Reads args[*i] if it is a search option (-L, -l, -static, -Wl, lists and
 * -Xlinker words that hold -L, -l, --library=, -Bstatic, -Bdynamic, ...; the
 * separate forms "-L dir", "-l name", "-Xlinker word" advance *i over their
 * value) and returns 1; else 0. The archives its -l options name are
 * appended to archives, the shared libraries to shared. */
int lib_search_option(struct lib_search *ls, char *const *args, size_t n, size_t *i,
                      struct argv_list *archives, struct argv_list *shared);

/* Appends to out the archives and shared libraries that the -l options among
 * args[0..n) name (lib_search_option on each). */
void lib_search_libraries(char *const *args, size_t n, struct argv_list *out);

#endif
