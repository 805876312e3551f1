/* The hooks of modules.h: one place where instrument.c meets the modules. */
#include "modules.h"

#include <stdlib.h>
#include <string.h>

#include "api_calls.h"
#include "directive.h"
#include "functions.h"
#include "inst_levels.h"
#include "pomp_directives.h"
#include "rewriter.h"

struct modules {
    struct rewriter *w;
    struct inst_levels *levels;
    struct pomp_directives *pomp;
    struct api_calls *api;
    struct functions *functions; /* NULL without --functions */
};

struct modules *modules_begin(struct rewriter *w)
{
    struct modules *m = xcalloc(1, sizeof *m);
    m->w = w;
    m->levels = inst_levels_new();
    m->pomp = pomp_directives_new(w, m->levels);
    m->api = api_calls_new(w, m->levels);
    if (rw_options(w)->functions)
        m->functions = functions_new(w, m->levels, rw_options(w)->functions);
    return m;
}

int modules_pomp_pragma(struct modules *m, const struct pragma *p, const struct directive *d)
{
    return pomp_directives_handle(m->pomp, p, d);
}

int modules_finish(struct modules *m)
{
    if (pomp_directives_finish(m->pomp) != 0)
        return -1;
    api_calls_instrument(m->api);
    if (m->functions)
        functions_instrument(m->functions);
    return 0;
}

void modules_emit_edit(const struct modules *m, struct strbuf *out, unsigned anchor,
                       const char *text)
{
    inst_levels_filter(m->levels, out, anchor, text);
}

void modules_emit_inc(const struct modules *m, struct strbuf *inc)
{
    api_calls_emit_inc(m->api, inc);
    if (m->functions)
        functions_emit_inc(m->functions, inc);
}

void modules_end(struct modules *m)
{
    if (!m)
        return;
    pomp_directives_free(m->pomp);
    api_calls_free(m->api);
    functions_free(m->functions);
    inst_levels_free(m->levels);
    free(m);
}
