/* Twins: runtime regions without a file that only their code address tells
 * apart, the same type, name and function in one module (GCC -O2 copies a
 * call to the runtime onto two code paths: one critical of a plain build
 * showed under pomprun as two identical rows, each thread's wait in one; or
 * two constructs of one function). Both are labelled with their offset in the
 * module (objdump's address). Shared by the summary at exit and pomp-report,
 * so that the two tell the same regions apart. */
#ifndef POMP_TWIN_H
#define POMP_TWIN_H

#include <stddef.h>
#include <string.h>

/* What a region without a file (and with an offset) is known by. */
struct pomp_twin_key {
    const char *type, *name, *function; /* "" where none */
    const char *module;                 /* NULL where none; not NUL-terminated */
    size_t module_len;
};

/* An order of keys in which twins are neighbours (pomp-report sorts by it:
 * a pair of loops over the regions was quadratic in a profile of thousands
 * of runtime regions). */
static inline int pomp_twin_key_cmp(const struct pomp_twin_key *a, const struct pomp_twin_key *b)
{
    int c = strcmp(a->type, b->type);
    if (!c)
        c = strcmp(a->name, b->name);
    if (!c)
        c = strcmp(a->function, b->function);
    if (!c && (!a->module || !b->module))
        c = (a->module != NULL) - (b->module != NULL);
    else if (!c) {
        size_t la = a->module_len, lb = b->module_len;
        c = strncmp(a->module, b->module, la < lb ? la : lb);
        if (!c)
            c = (la > lb) - (la < lb);
    }
    return c;
}

/* Whether two regions are twins: the same key, in a module both name. */
static inline int pomp_twins(const struct pomp_twin_key *a, const struct pomp_twin_key *b)
{
    return a->module && b->module && pomp_twin_key_cmp(a, b) == 0;
}

/* A twin's module as its label shows it: the file name, after the last '/'. */
static inline const char *pomp_twin_module_base(const char *module, size_t *len)
{
    const char *base = module;
    for (size_t k = 0; module && k < *len; k++)
        if (module[k] == '/')
            base = module + k + 1;
    *len = module ? *len - (size_t)(base - module) : 0;
    return module ? base : "";
}

#endif
