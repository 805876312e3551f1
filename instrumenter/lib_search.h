/* The libraries a link's -l options name, looked up in its -L directories as
 * the linker does. pomp-prelink reads them for their POMP_Init_ functions and
 * construct counts, pompcc's runtime choice for the runtime they call. */
#ifndef POMP_LIB_SEARCH_H
#define POMP_LIB_SEARCH_H

#include <stddef.h>

#include "process.h"

/* The -L directories seen so far, and whether -static or -Bstatic came last. */
struct lib_search {
    char **dirs;
    int ndirs;
    int link_static; /* -static or -Bstatic before the -l: only archives */
};

/* Whether a path names a link input by its suffix (.o, .a, .so, .so.N). */
int lib_search_is_input(const char *path);
/* Whether it is a shared library by its name (lib.so, lib.so.1.2). */
int lib_search_is_shared(const char *path);

/* The archive the linker takes for -l name: libname.a in the first -L
 * directory that has it or libname.so (-l:file names the file itself). NULL
 * where the linker takes a shared library (then *shared is its path, else
 * NULL) or no -L directory has one (a system library). */
char *lib_search_find(const struct lib_search *ls, const char *name, char **shared);

/* Reads args[*i] if it is one of the options above (-L, -l, -static,
 * -Wl,-Bstatic/-Bdynamic; the separate forms "-L dir", "-l name" advance *i
 * over their value) and returns 1; else 0. For -l, *archive or *shared is the
 * library found (lib_search_find; the caller frees it); else both are NULL.
 * ls->dirs has room for every argument. */
int lib_search_option(struct lib_search *ls, char *const *args, size_t n, size_t *i,
                      char **archive, char **shared);

/* Appends to out the archives and shared libraries that the -l options among
 * args[0..n) name, with the -L, -static and -Wl,-Bstatic/-Bdynamic options
 * before each -l (the separate forms "-L dir", "-l name" too). */
void lib_search_libraries(char *const *args, size_t n, struct argv_list *out);

#endif
