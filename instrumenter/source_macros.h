/* Macro replacement in OpenMP directives. The compilers replace macros in the
 * tokens after `#pragma omp` (GCC and Clang alike), so that with
 * `#define UT untied` the directive `#pragma omp task UT` is an untied task,
 * and `#pragma omp PF` with `#define PF parallel for` a combined construct.
 * libclang parses the file without -fopenmp (source.c says why) and then
 * records no expansion inside a pragma: this file finds the macros by name,
 * takes the definition in force where the pragma stands, and replaces them
 * the way the preprocessor does (C11 6.10.3: arguments, #, ##, rescanning).
 *
 * Only the words outside parentheses are replaced (directive names, clauses,
 * a macro that makes whole clauses): a clause's argument is compiled as
 * written, and the instrumenter reads no macro there. */
#ifndef POMP_SOURCE_MACROS_H
#define POMP_SOURCE_MACROS_H

#include <clang-c/Index.h>
#include <stddef.h>

struct pragma;

/* The unit's macro definitions, each with the place in `file` where it
 * comes into force (a definition in a header: the #include's place). */
struct macro_table {
    CXTranslationUnit tu;
    struct macro_def *defs;
    size_t ndefs;
    struct macro_undef *undefs; /* the file's #undef lines */
    size_t nundefs;
    /* file is a header: where a definition of another file comes into force
     * there is not known (after the header's #include, or inside it), nor
     * which inclusion a copy serves (X-macros): a macro is replaced only
     * where all its definitions in the unit agree */
    int in_header;
};

void macro_table_build(struct macro_table *t, CXTranslationUnit tu, CXFile file, int in_header);
void macro_table_free(struct macro_table *t);

/* Replaces the macros in p's text (an omp directive) that stand outside
 * parentheses, by the definitions in force at p->start. The replaced text's
 * characters take the offset of the macro's name in the file, so that a
 * message about them points at the invocation. Returns the number of
 * invocations replaced, or -1 with *why set when one cannot be made out (too
 * deep, an unbalanced argument list, __VA_OPT__, definitions that disagree in
 * a header): the text is then as read. *why is static text, or (what) a
 * macro's name the caller frees. Where it replaced some, *used holds their
 * definitions, each once (malloc'd; NULL otherwise). */
int pragma_expand_macros(const struct macro_table *t, struct pragma *p, const char **why,
                         char **what, CXCursor **used, size_t *nused);

/* What macro replacement makes of text (len bytes, at offset pos of the
 * file), its tokens joined by spaces; NULL where that cannot be made out. */
char *macro_replace_text(const struct macro_table *t, unsigned pos, const char *text, size_t len);
/* The same, and the definitions of the macros it replaced, each once (*used
 * malloc'd, or NULL where none; untouched where it returns NULL). */
char *macro_replace_text_using(const struct macro_table *t, unsigned pos, const char *text,
                               size_t len, CXCursor **used, size_t *nused);

#endif
