/* The parts of the rewriting that live beside instrument.c, behind one set of
 * hooks: #pragma pomp directives (pomp_directives.c), compile-time
 * instrumentation levels (inst_levels.c), runtime API call sites (api_calls.c)
 * and function regions (functions.c). instrument.c calls, for each file:
 * modules_begin, modules_pomp_pragma for each pomp pragma (in source order),
 * modules_finish after the last pragma, modules_emit_edit for every edit's
 * text, modules_emit_inc into the generated include file, modules_end. */
#ifndef POMP_MODULES_H
#define POMP_MODULES_H

#include "util.h"

struct rewriter;
struct pragma;
struct directive;
struct modules;

struct modules *modules_begin(struct rewriter *w);
/* Returns 0, or -1 after printing file:line:col errors (the file is then not
 * instrumented). */
int modules_pomp_pragma(struct modules *m, const struct pragma *p, const struct directive *d);
int modules_finish(struct modules *m);
/* Appends an edit's text, without the POMP calls that the compile-time level in
 * effect at anchor (a source offset) leaves out. */
void modules_emit_edit(const struct modules *m, struct strbuf *out, unsigned anchor,
                       const char *text);
void modules_emit_inc(const struct modules *m, struct strbuf *inc);
void modules_end(struct modules *m);

#endif
