/* The #include directives of a translation unit, from libclang's preprocessing
 * record: which file each one is written in, where, and which file it
 * included; and whether a file is a system header. pomp-instrument
 * instruments copies of the program's own headers (headers.c) and points the
 * directives that reach them at the copies. */
#ifndef POMP_SOURCE_INCLUDES_H
#define POMP_SOURCE_INCLUDES_H

#include <stddef.h>

#include "source.h"

struct source_include {
    char *in_file;      /* libclang's name of the file the directive is written in; "" for
                           one given on the command line (-include) */
    unsigned offset;    /* where the directive is in that file */
    char *target;       /* libclang's name of the file it included */
    char *spelled;      /* ... as the compiler spelled it (__FILE__ there) */
    /* the parser found target only by recovering from an error at the
     * directive, as the compiler does not: clang's <angled> name not found
     * on the <angled> search path, then found among the "quoted" directories
     * (-iquote, the includer's own), which GCC never searches for it */
    int found_by_recovery;
};

struct source_includes {
    struct source_include *v;
    size_t n;
};

/* Every #include the preprocessor carried out (in branches it took), also
 * those of a header it skipped again (include guard, #pragma once). */
void source_includes_collect(const struct source_unit *u, struct source_includes *out);
void source_includes_free(struct source_includes *in);

/* Is the file (by libclang's name) a system header: in a system directory or
 * one given with -isystem? */
int source_unit_is_system_file(const struct source_unit *u, const char *name);

#endif
