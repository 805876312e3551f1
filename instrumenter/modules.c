/* The hooks of modules.h: one place where instrument.c meets the modules. */
#include "modules.h"

#include <stdlib.h>
#include <string.h>

#include "directive.h"
#include "inst_levels.h"
#include "pomp_directives.h"
#include "rewriter.h"

struct modules {
    struct rewriter *w;
    struct inst_levels *levels;
    struct pomp_directives *pomp;
};

struct modules *modules_begin(struct rewriter *w)
{
    struct modules *m = xcalloc(1, sizeof *m);
    m->w = w;
    m->levels = inst_levels_new();
    m->pomp = pomp_directives_new(w, m->levels);
    return m;
}

int modules_pomp_pragma(struct modules *m, const struct pragma *p, const struct directive *d)
{
    return pomp_directives_handle(m->pomp, p, d);
}

int modules_finish(struct modules *m)
{
    return pomp_directives_finish(m->pomp);
}

void modules_emit_edit(const struct modules *m, struct strbuf *out, unsigned anchor,
                       const char *text)
{
    inst_levels_filter(m->levels, out, anchor, text);
}

void modules_emit_inc(const struct modules *m, struct strbuf *inc)
{
    (void)m;
    (void)inc;
}

void modules_end(struct modules *m)
{
    if (!m)
        return;
    pomp_directives_free(m->pomp);
    inst_levels_free(m->levels);
    free(m);
}
