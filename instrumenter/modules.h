/* The parts of the rewriting that live beside instrument.c: #pragma pomp
 * directives (pomp_directives.c), compile-time instrumentation levels
 * (inst_levels.c), runtime API call sites (api_calls.c) and function regions
 * (functions.c). Each describes itself with one struct module; instrument.c
 * knows them only through the table pomp_modules[] (modules.c) and calls, for
 * each file and each module in table order: begin, pomp_pragma for each pomp
 * pragma (in source order), finish after the last pragma, emit_edit for every
 * edit's text, emit_inc into the generated include file, end. The modules reach
 * the rewriter through rewriter.h only, and each other through
 * rw_module_state (a module started earlier in the table). */
#ifndef POMP_MODULES_H
#define POMP_MODULES_H

#include "util.h"

struct rewriter;
struct pragma;
struct directive;

struct module {
    const char *name;
    /* The module's state for this file, or NULL when it has nothing to do
     * (its other hooks are then not called). */
    void *(*begin)(struct rewriter *w);
    /* A #pragma pomp directive. Returns 0, or -1 after printing file:line:col
     * errors (the file is then not instrumented). NULL: not this module's. */
    int (*pomp_pragma)(void *state, const struct pragma *p, const struct directive *d);
    /* After the last pragma: the module's own edits. Returns 0 or -1 as above. */
    int (*finish)(void *state);
    /* Appends an edit's text, filtered (the compile-time level in effect at
     * anchor, a source offset, drops some POMP calls). The first module with
     * this hook writes every edit; without one the text goes out as it is. */
    void (*emit_edit)(const void *state, struct strbuf *out, unsigned anchor, const char *text);
    /* Whether emit_edit drops every POMP call of an event group in text (true
     * where it has none); *calls set to 1 where it has one. NULL: it drops none. */
    int (*drops_all)(const void *state, unsigned anchor, const char *text, int *calls);
    /* Definitions the module's edits use, into the generated include file. */
    void (*emit_inc)(const void *state, struct strbuf *inc);
    void (*end)(void *state);
};

extern const struct module inst_levels_module, pomp_directives_module, api_calls_module,
    functions_module;

/* Every module, in the order they start: one that uses another's state comes
 * after it. */
extern const struct module *const pomp_modules[];
extern const size_t pomp_nmodules;

#endif
