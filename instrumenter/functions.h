/* Function regions (opt-in: --pomp-functions): the body of each selected
 * function defined in the file records POMP_Function_begin when it starts and
 * POMP_Function_end on every way out: each return (after its value is
 * computed), and the end of the body. In C++ a guard object's destructor
 * records the end, so returns and exceptions need no rewriting. */
#ifndef POMP_FUNCTIONS_H
#define POMP_FUNCTIONS_H

#include "util.h"

struct rewriter;
struct inst_levels;
struct function_filter;
struct functions;

struct functions *functions_new(struct rewriter *w, const struct inst_levels *levels,
                                const struct function_filter *filter);
void functions_instrument(struct functions *f);
void functions_emit_inc(const struct functions *f, struct strbuf *inc);
void functions_free(struct functions *f);

#endif
