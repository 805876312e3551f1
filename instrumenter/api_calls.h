/* Runtime API call sites (seed 002 §3.4, Tables 6-8): each call of an OpenMP
 * lock routine or of a routine of Table 8 in a function body becomes a call of
 * a macro from the generated include file, which evaluates the arguments once,
 * calls the routine, records its Runtime-group events with the call site's
 * handle and CTC, and yields the routine's value. */
#ifndef POMP_API_CALLS_H
#define POMP_API_CALLS_H

#include "util.h"

struct rewriter;
struct inst_levels;
struct api_calls;

struct api_calls *api_calls_new(struct rewriter *w, const struct inst_levels *levels);
/* Rewrites every call the AST index found (source_ast.h). */
void api_calls_instrument(struct api_calls *a);
/* The macros the rewritten calls use. */
void api_calls_emit_inc(const struct api_calls *a, struct strbuf *inc);
void api_calls_free(struct api_calls *a);

#endif
