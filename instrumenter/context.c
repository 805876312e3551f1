/* Where a pragma stands (context.h). Each question is answered from the nesting
 * of the pragmas' statements, parsing the enclosing directives again: a file has
 * tens of pragmas, rarely thousands. */
#include "context.h"

#include <stdlib.h>
#include <string.h>

#include "constructs.h"
#include "source_scan.h"
#include "util.h"

void parse_pragma(const struct pragma *q, struct parsed *out)
{
    out->ok = directive_parse(q->text, &out->d) == 0 && strcmp(out->d.sentinel, "omp") == 0;
}

void unparse_pragma(struct parsed *x)
{
    directive_free(&x->d);
}

int pragma_encloses(const struct pragma *q, unsigned offset)
{
    return q->has_stmt && q->stmt_start <= offset && offset < q->stmt_end;
}

int pragma_holds_pragmas(const struct source *s, const struct pragma *q)
{
    for (size_t i = 0; i < s->npragmas; i++)
        if (&s->pragmas[i] != q && pragma_encloses(q, s->pragmas[i].start))
            return 1;
    return 0;
}

/* The pragmas whose statement contains offset, innermost first (at most n). */
static size_t enclosing(const struct source *s, unsigned offset, const struct pragma **out,
                        size_t n)
{
    size_t k = 0;
    for (size_t i = 0; i < s->npragmas && k < n; i++)
        if (pragma_encloses(&s->pragmas[i], offset))
            out[k++] = &s->pragmas[i];
    /* the innermost has the most enclosing pragmas itself */
    for (size_t i = 1; i < k; i++)
        for (size_t j = i; j > 0 && out[j]->depth > out[j - 1]->depth; j--) {
            const struct pragma *t = out[j];
            out[j] = out[j - 1];
            out[j - 1] = t;
        }
    return k;
}

#define MAX_ENCLOSING 64

static int is_task_like(const char *name)
{
    return strcmp(name, "task") == 0 || has_leaf(name, "taskloop");
}
static int is_parallel_like(const char *name)
{
    return has_leaf(name, "parallel") || has_leaf(name, "teams");
}

/* Does loop construct d at p bind to a teams region: bind(teams), or no bind
 * clause and closely nested in a teams construct (OpenMP 5.2 §11.7)? GCC
 * makes such a loop a distribute parallel for: a parallel region per team
 * with no POMP call in it, as a whole `teams loop` (a probe: a `loop` in a
 * host teams region left two parallel regions unmeasured, the run unrated). */
int loop_binds_to_teams(const struct rewriter *w, const struct pragma *p,
                        const struct directive *d)
{
    if (strcmp(d->name, "loop") != 0)
        return 0;
    const struct directive_item *bind = directive_clause(d, "bind");
    if (bind)
        return bind->arg && text_is_word(bind->arg, "teams");
    const struct pragma *outer[MAX_ENCLOSING];
    size_t n = enclosing(w->s, p->start, outer, MAX_ENCLOSING);
    for (size_t i = 0; i < n; i++) { /* the innermost OpenMP construct around it */
        struct parsed q;
        parse_pragma(outer[i], &q);
        int omp = q.ok && strcmp(q.d.sentinel, "omp") == 0;
        int teams = omp && last_leaf_is(q.d.name, "teams");
        unparse_pragma(&q);
        if (omp)
            return teams;
    }
    return 0;
}

/* Is the cancel (or cancellation point) x for this kind ("parallel", "for",
 * "sections", "taskgroup")? */
static int cancels(const struct directive *x, const char *kind)
{
    if (strcmp(x->name, "cancel") != 0 && strcmp(x->name, "cancellation point") != 0)
        return 0;
    for (size_t i = 0; i < x->nclauses; i++)
        if (!x->clauses[i].arg && strcmp(x->clauses[i].word, kind) == 0)
            return 1;
    return 0;
}

/* Which leaf of a directive name a cancel of this kind refers to. */
static int kind_matches(const char *name, const char *kind)
{
    if (strcmp(kind, "taskgroup") == 0)
        return is_task_like(name);
    return has_leaf(name, kind);
}

/* Does q's body hold a cancel or cancellation point of this kind that binds to q? */
static int contains_cancel(const struct source *s, const struct pragma *q, const char *kind)
{
    for (size_t i = 0; i < s->npragmas; i++) {
        const struct pragma *x = &s->pragmas[i];
        if (!pragma_encloses(q, x->start) || !strstr(x->text, "cancel"))
            continue;
        struct parsed px;
        parse_pragma(x, &px);
        int hit = px.ok && cancels(&px.d, kind);
        unparse_pragma(&px);
        if (!hit)
            continue;
        /* the innermost construct of that kind around x must be q */
        int mine = 1;
        for (size_t j = 0; j < s->npragmas && mine; j++) {
            const struct pragma *y = &s->pragmas[j];
            if (y == q || !pragma_encloses(y, x->start) || !pragma_encloses(q, y->start))
                continue;
            struct parsed py;
            parse_pragma(y, &py);
            if (py.ok && kind_matches(py.d.name, kind))
                mine = 0;
            unparse_pragma(&py);
        }
        if (mine)
            return 1;
    }
    return 0;
}

/* Is this worksharing leaf of q (for, sections) the target of a cancel in q? */
int canceled_leaf(const struct rewriter *w, const struct pragma *q, const char *leaf)
{
    return (has_leaf(leaf, "for") && contains_cancel(w->s, q, "for")) ||
           (has_leaf(leaf, "sections") && contains_cancel(w->s, q, "sections"));
}

/* Cancellation jumps to the end of the canceled region, past the closing events
 * of every construct in between. Is a closing event inside the given leaves of
 * q (leaf names, innermost last), or around q (nleaves 0), in such a region? */
int close_may_be_skipped(const struct rewriter *w, const struct pragma *q,
                                const char *const *leaves, size_t nleaves)
{
    static const char *const kinds[] = {"for", "sections", "taskgroup", "parallel"};
    for (size_t i = nleaves; i-- > 0;) {
        for (size_t k = 0; k < sizeof kinds / sizeof *kinds; k++)
            if (kind_matches(leaves[i], kinds[k]) && contains_cancel(w->s, q, kinds[k]))
                return 1;
        if (is_parallel_like(leaves[i]) || is_task_like(leaves[i]))
            return 0; /* cancellation does not leave a parallel region or a task */
    }
    const struct pragma *outer[MAX_ENCLOSING];
    size_t n = enclosing(w->s, q->start, outer, MAX_ENCLOSING);
    for (size_t i = 0; i < n; i++) {
        struct parsed po;
        parse_pragma(outer[i], &po);
        int skipped = 0, boundary = 0;
        if (po.ok) {
            for (size_t k = 0; k < sizeof kinds / sizeof *kinds && !skipped; k++)
                if (kind_matches(po.d.name, kinds[k]) && contains_cancel(w->s, outer[i], kinds[k]))
                    skipped = 1;
            boundary = is_parallel_like(po.d.name) || is_task_like(po.d.name);
        }
        unparse_pragma(&po);
        if (skipped || boundary)
            return skipped;
    }
    return 0;
}

/* An untied task may resume on another thread after a task scheduling point in
 * its own body (Clang splits it into parts there). Does task q have one? */
int untied_may_migrate(const struct source *s, const struct pragma *q,
                              const struct directive *d)
{
    if (!directive_clause(d, "untied"))
        return 0;
    for (size_t i = 0; i < s->npragmas; i++) {
        const struct pragma *x = &s->pragmas[i];
        if (x == q || !pragma_encloses(q, x->start))
            continue;
        struct parsed px;
        parse_pragma(x, &px);
        int point = px.ok && (construct_of(&px.d).flags & F_SCHEDULING);
        unparse_pragma(&px);
        if (!point)
            continue;
        /* in q's own body, not in a nested task or parallel region */
        int own = 1;
        for (size_t j = 0; j < s->npragmas && own; j++) {
            const struct pragma *y = &s->pragmas[j];
            if (y == q || y == x || !pragma_encloses(y, x->start) || !pragma_encloses(q, y->start))
                continue;
            struct parsed py;
            parse_pragma(y, &py);
            if (py.ok && (is_task_like(py.d.name) || is_parallel_like(py.d.name)))
                own = 0;
            unparse_pragma(&py);
        }
        if (own)
            return 1;
    }
    return 0;
}


/* Whether the selector of a "begin declare variant" names a device other than
 * the host: its block is device code (it was instrumented, and the device
 * link failed on the handles, which device code has none of; a probe). */
static int variant_for_device(const struct directive *d)
{
    const struct directive_item *m = directive_clause(d, "match");
    const char *dev = m && m->arg ? strstr(m->arg, "device") : NULL;
    return dev && (strstr(dev, "nohost") || strstr(dev, "gpu") || strstr(dev, "nvptx") ||
                   strstr(dev, "amdgcn"));
}

/* "declare target" without clauses and "begin declare target" open a block of
 * device code up to "end declare target"; so does a "begin declare variant"
 * for a device (variant_for_device), up to its "end declare variant". */
static int in_declare_target(const struct source *s, unsigned offset)
{
    int open = 0;
    unsigned variants = 0, device_variants = 0; /* the open variant blocks; bit i: the
                                                   i-th from the outside is for a device */
    for (size_t i = 0; i < s->npragmas && s->pragmas[i].start < offset; i++) {
        if (!strstr(s->pragmas[i].text, "declare"))
            continue;
        struct parsed x;
        parse_pragma(&s->pragmas[i], &x);
        if (x.ok) {
            if (strcmp(x.d.name, "begin declare target") == 0 ||
                (strcmp(x.d.name, "declare target") == 0 && x.d.nclauses == 0 && !x.d.name_arg))
                open++;
            else if (strcmp(x.d.name, "end declare target") == 0 && open > 0)
                open--;
            else if (strcmp(x.d.name, "begin declare variant") == 0) {
                if (variants < 32 && variant_for_device(&x.d))
                    device_variants |= 1u << variants;
                variants++;
            } else if (strcmp(x.d.name, "end declare variant") == 0 && variants > 0) {
                variants--;
                if (variants < 32)
                    device_variants &= ~(1u << variants);
            }
        }
        unparse_pragma(&x);
    }
    return open > 0 || device_variants != 0;
}

/* Whether function f is listed by a "declare target" of the file (to, enter,
 * or the list as its argument; lists: the lists' texts, "\n"-separated). */
static int listed(const struct source *s, int f, const char *lists)
{
    const char *name = s->ast.functions[f].name, *last = strrchr(name, ':');
    name = last ? last + 1 : name; /* Matrix::mul is listed as mul in its class */
    return lists && source_text_has_word(lists, strlen(lists), name);
}

/* The lists of the file's "declare target" directives that are not for the
 * host alone (device_type(host)), "\n"-separated, or NULL. */
static char *declare_target_lists(const struct source *s)
{
    struct strbuf b = {0};
    for (size_t i = 0; i < s->npragmas; i++) {
        if (!strstr(s->pragmas[i].text, "declare") || !strstr(s->pragmas[i].text, "target"))
            continue;
        struct parsed x;
        parse_pragma(&s->pragmas[i], &x);
        if (x.ok && strcmp(x.d.name, "declare target") == 0) {
            const struct directive_item *type = directive_clause(&x.d, "device_type");
            int host_only = type && type->arg && strstr(type->arg, "host") && !strstr(type->arg, "nohost");
            if (!host_only && x.d.name_arg)
                sb_printf(&b, "%s\n", x.d.name_arg);
            for (size_t c = 0; !host_only && c < x.d.nclauses; c++)
                if ((strcmp(x.d.clauses[c].word, "to") == 0 || strcmp(x.d.clauses[c].word, "enter") == 0) &&
                    x.d.clauses[c].arg)
                    sb_printf(&b, "%s\n", x.d.clauses[c].arg);
        }
        unparse_pragma(&x);
    }
    return b.s;
}

/* The function defined at decl_start, or -1. */
static int function_defined_at(const struct source_ast *a, unsigned decl_start)
{
    for (size_t i = 0; i < a->nfunctions; i++)
        if (a->functions[i].decl_start == decl_start && !a->functions[i].is_lambda)
            return (int)i;
    return -1;
}

unsigned char *context_device_functions(const struct source *s)
{
    const struct source_ast *a = &s->ast;
    char *lists = declare_target_lists(s);
    int any_target = 0;
    for (size_t i = 0; i < s->npragmas && !any_target; i++)
        any_target = strstr(s->pragmas[i].text, "target") && !strstr(s->pragmas[i].text, "declare");
    if (!a->nfunctions || (!lists && !any_target)) {
        free(lists);
        return NULL;
    }
    unsigned char *device = xcalloc(a->nfunctions, 1);
    for (size_t i = 0; i < a->nfunctions; i++)
        device[i] = !a->functions[i].is_lambda && listed(s, (int)i, lists);
    free(lists);
    if (!any_target || !a->nlocal_calls)
        return device;
    const struct pragma **targets = xmalloc(s->npragmas * sizeof *targets);
    size_t ntargets = 0;
    for (size_t i = 0; i < s->npragmas; i++) {
        struct parsed q;
        parse_pragma(&s->pragmas[i], &q);
        if (q.ok && (construct_of(&q.d).flags & F_DEVICE) && s->pragmas[i].has_stmt)
            targets[ntargets++] = &s->pragmas[i];
        unparse_pragma(&q);
    }
    /* the callers in declare target blocks make device code too */
    for (size_t i = 0; i < a->nfunctions; i++)
        device[i] |= !a->functions[i].is_lambda && in_declare_target(s, a->functions[i].body_open);
    for (int changed = 1; changed;) {
        changed = 0;
        for (size_t i = 0; i < a->nlocal_calls; i++) {
            const struct source_local_call *c = &a->local_calls[i];
            int callee = function_defined_at(a, c->callee_decl);
            if (callee < 0 || device[callee])
                continue;
            int caller = source_ast_function_at(a, c->start), on_device = caller >= 0 && device[caller];
            for (size_t t = 0; t < ntargets && !on_device; t++)
                on_device = pragma_encloses(targets[t], c->start);
            if (on_device)
                device[callee] = 1, changed = 1;
        }
    }
    free(targets);
    return device;
}

/* Whether p is in the body of a function that is device code without being
 * in a declare target block (w->device_functions). */
static int in_device_function(const struct rewriter *w, const struct pragma *p)
{
    int f = w->device_functions ? source_ast_function_at(&w->s->ast, p->start) : -1;
    return f >= 0 && w->device_functions[f];
}

struct context context_of(const struct rewriter *w, const struct pragma *p)
{
    struct context c = {NULL, "POMP_TID_", 0, 0};
    if (in_declare_target(w->s, p->start) || in_device_function(w, p)) {
        c.skip = "in device code (a declare target block or function, a function called in a "
                 "target region, or a device variant)";
        c.declare_target = 1;
        return c;
    }
    const struct pragma *outer[MAX_ENCLOSING];
    size_t n = enclosing(w->s, p->start, outer, MAX_ENCLOSING);
    int team_decided = 0, task_decided = 0;
    for (size_t i = 0; i < n && !c.skip; i++) {
        struct parsed q;
        parse_pragma(outer[i], &q);
        if (q.ok) {
            struct construct k = construct_of(&q.d);
            if (k.flags & F_DEVICE)
                c.skip = "inside a target region (device code)";
            else if (k.flags & F_NO_EVENTS_INSIDE)
                c.skip = "inside a simd or loop construct (no events in its body)";
            if (!team_decided && is_parallel_like(q.d.name)) {
                /* directly in a teams region only a few OpenMP calls are allowed:
                 * omp_get_thread_num is not, and the team's thread is 0 anyway */
                team_decided = 1;
                if (has_leaf(q.d.name, "teams") && !has_leaf(q.d.name, "parallel"))
                    c.tid = "0";
            }
            if (!task_decided && (is_task_like(q.d.name) || is_parallel_like(q.d.name))) {
                task_decided = 1;
                c.in_migrating_task = is_task_like(q.d.name) && untied_may_migrate(w->s, outer[i], &q.d);
            }
        }
        unparse_pragma(&q);
    }
    return c;
}
