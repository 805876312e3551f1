/* What pomp does with each OpenMP 5.2 directive (docs/directives.md has the
 * table, docs/instrumentation.md the generated code).
 *
 * A construct is instrumented as one or more leaves: a combined construct that
 * can be split ("parallel for") becomes its leaves, each with its own region
 * and events; a composite or device construct stays whole. Each leaf gives up
 * to four pieces of code: before its pragma, at the start of its block, at the
 * end of its block, and after the construct. Code is never put where it could
 * run on a device, nor inside simd-like loops. */
#include "rewrite.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "combined.h"
#include "loops.h"

enum shape {
    SHAPE_NONE,         /* passed through: no events */
    SHAPE_BLOCK,        /* enter, begin, end, exit */
    SHAPE_BEGIN_END,    /* begin (the first event) and end inside the block: master, masked */
    SHAPE_AROUND,       /* enter before, exit after the whole construct: loops, target regions */
    SHAPE_PAIR,         /* stand-alone: enter before, exit after the pragma */
    SHAPE_EVENT_BEFORE, /* stand-alone: one event before the pragma (cancel) */
    SHAPE_EVENT_AFTER,  /* stand-alone: one event after it (flush, doacross) */
    SHAPE_ATOMIC,       /* one event after the atomic statement */
    SHAPE_SECTIONS,     /* enter/exit, and Section_begin/end around each section */
};

enum {
    F_PARALLEL_RTC = 1 << 0,   /* Parallel_enter's num_threads and if values */
    F_LOOP_RTC = 1 << 1,       /* Loop_enter's chunk, init, final and incr values */
    F_ITERATIONS = 1 << 2,     /* iteration events in the body (--iterations) */
    F_NO_EVENTS_INSIDE = 1 << 3, /* simd-like: nothing in the body is instrumented */
    F_DEVICE = 1 << 4,         /* the body may run on a device: nothing in it is instrumented */
    F_IMPLICIT_BARRIER = 1 << 5, /* ends with a barrier that nowait removes */
    F_SCHEDULING = 1 << 6,     /* a task scheduling point of the encountering task */
};

struct construct {
    const char *name;
    enum shape shape;
    const char *stem;   /* POMP_<stem>_enter, ... */
    const char *type;   /* CTC type */
    unsigned flags;
};

#define LOOP_LIKE (F_LOOP_RTC)
static const struct construct constructs[] = {
    {"parallel", SHAPE_BLOCK, "Parallel", "parallel", F_PARALLEL_RTC},
    {"for", SHAPE_AROUND, "Loop", "for", LOOP_LIKE | F_ITERATIONS | F_IMPLICIT_BARRIER},
    {"for simd", SHAPE_AROUND, "Loop", "for simd", LOOP_LIKE | F_NO_EVENTS_INSIDE | F_IMPLICIT_BARRIER},
    {"simd", SHAPE_AROUND, "Simd", "simd", LOOP_LIKE | F_NO_EVENTS_INSIDE},
    {"loop", SHAPE_AROUND, "Loop_construct", "loop", LOOP_LIKE | F_NO_EVENTS_INSIDE},
    {"distribute", SHAPE_AROUND, "Distribute", "distribute", LOOP_LIKE | F_ITERATIONS},
    {"distribute simd", SHAPE_AROUND, "Distribute", "distribute simd", LOOP_LIKE | F_NO_EVENTS_INSIDE},
    {"distribute parallel for", SHAPE_AROUND, "Distribute", "distribute parallel for",
     LOOP_LIKE | F_NO_EVENTS_INSIDE},
    {"distribute parallel for simd", SHAPE_AROUND, "Distribute", "distribute parallel for simd",
     LOOP_LIKE | F_NO_EVENTS_INSIDE},
    {"taskloop", SHAPE_AROUND, "Taskloop", "taskloop", LOOP_LIKE | F_ITERATIONS | F_SCHEDULING},
    {"taskloop simd", SHAPE_AROUND, "Taskloop", "taskloop simd",
     LOOP_LIKE | F_NO_EVENTS_INSIDE | F_SCHEDULING},
    {"sections", SHAPE_SECTIONS, "Sections", "sections", F_IMPLICIT_BARRIER},
    {"single", SHAPE_BLOCK, "Single", "single", F_IMPLICIT_BARRIER},
    {"scope", SHAPE_BLOCK, "Scope", "scope", F_IMPLICIT_BARRIER},
    {"master", SHAPE_BEGIN_END, "Master", "master", 0},
    {"masked", SHAPE_BEGIN_END, "Masked", "masked", 0},
    {"critical", SHAPE_BLOCK, "Critical", "critical", 0},
    {"ordered", SHAPE_BLOCK, "Ordered", "ordered", 0},
    {"atomic", SHAPE_ATOMIC, "Atomic", "atomic", 0},
    {"flush", SHAPE_EVENT_AFTER, "Flush", "flush", 0},
    {"barrier", SHAPE_PAIR, "Barrier", "barrier", 0},
    {"taskwait", SHAPE_PAIR, "Taskwait", "taskwait", F_SCHEDULING},
    {"taskyield", SHAPE_PAIR, "Taskyield", "taskyield", F_SCHEDULING},
    {"task", SHAPE_BLOCK, "Task", "task", F_SCHEDULING},
    {"taskgroup", SHAPE_BLOCK, "Taskgroup", "taskgroup", F_SCHEDULING},
    {"teams", SHAPE_BLOCK, "Teams", "teams", 0},
    {"target data", SHAPE_BLOCK, "Target_data", "target data", 0},
    {"target enter data", SHAPE_PAIR, "Target", "target enter data", 0},
    {"target exit data", SHAPE_PAIR, "Target", "target exit data", 0},
    {"target update", SHAPE_PAIR, "Target", "target update", 0},
    {"cancel", SHAPE_EVENT_BEFORE, "Cancel", "cancel", 0},
    {"cancellation point", SHAPE_EVENT_BEFORE, "Cancellation_point", "cancellation point", 0},
};

/* The doacross form of ordered (depend(sink|source) or doacross(...)): stand-alone. */
static const struct construct doacross = {"ordered", SHAPE_EVENT_AFTER, "Doacross", "doacross", 0};
/* target and every combined target construct: the region runs on the device. */
static const struct construct target_region = {"target", SHAPE_AROUND, "Target", NULL, F_DEVICE};
static const struct construct passed = {NULL, SHAPE_NONE, NULL, NULL, 0};

static int is_doacross(const struct directive *d)
{
    return strcmp(d->name, "ordered") == 0 &&
           (directive_clause(d, "depend") || directive_clause(d, "doacross"));
}

/* What pomp does with a (leaf, composite or unsplit) directive. */
static struct construct construct_of(const struct directive *d)
{
    if (is_doacross(d))
        return doacross;
    for (size_t i = 0; i < sizeof constructs / sizeof *constructs; i++)
        if (strcmp(constructs[i].name, d->name) == 0)
            return constructs[i];
    if (strcmp(d->name, "target") == 0 || strncmp(d->name, "target ", 7) == 0) {
        struct construct t = target_region;
        t.name = t.type = d->name;
        return t;
    }
    return passed;
}

int construct_type_is_standalone(const char *type)
{
    static const char *const standalone[] = {"barrier", "flush", "taskwait", "taskyield",
                                             "cancel", "cancellation point", "doacross",
                                             "target enter data", "target exit data",
                                             "target update", "implicit barrier", NULL};
    for (const char *const *s = standalone; *s; s++)
        if (strcmp(*s, type) == 0)
            return 1;
    return 0;
}

/* Does the (possibly combined) directive name contain the leaf word? */
static int has_leaf(const char *name, const char *leaf)
{
    size_t n = strlen(leaf);
    for (const char *p = name; (p = strstr(p, leaf)) != NULL; p += n)
        if ((p == name || p[-1] == ' ') && (p[n] == '\0' || p[n] == ' '))
            return 1;
    return 0;
}

/* ---- CTC attributes ---- */

static void add_flag(struct ctc_builder *b, const struct directive *d, const char *clause,
                     const char *key)
{
    if (directive_clause(d, clause))
        ctc_builder_add(b, key, "1");
}

/* The first word of a clause argument: "dynamic" of "dynamic, 4", "sink" of "sink: i-1". */
static void add_first_word(struct ctc_builder *b, const char *key, const char *arg)
{
    char word[64];
    size_t n = 0;
    while (*arg == ' ')
        arg++;
    while (n < sizeof word - 1 && arg[n] && arg[n] != ',' && arg[n] != ':' && arg[n] != ' ')
        n++;
    snprintf(word, sizeof word, "%.*s", (int)n, arg);
    if (n)
        ctc_builder_add(b, key, word);
}

void construct_ctc_attributes(struct ctc_builder *b, const struct directive *d, const char *type)
{
    if (strcmp(type, "critical") == 0 && d->name_arg)
        ctc_builder_add(b, "name", d->name_arg);
    const struct directive_item *c;
    if ((c = directive_clause(d, "schedule")) && c->arg) {
        /* the kind after any modifiers: "monotonic: dynamic, 4" gives dynamic */
        const char *colon = strchr(c->arg, ':');
        add_first_word(b, "scheduleType", colon ? colon + 1 : c->arg);
    }
    if ((c = directive_clause(d, "dist_schedule")) && c->arg)
        add_first_word(b, "scheduleType", c->arg);
    if (strcmp(type, "doacross") == 0) {
        if ((c = directive_clause(d, "depend")) || (c = directive_clause(d, "doacross")))
            if (c->arg)
                add_first_word(b, "dependType", c->arg);
    } else {
        add_flag(b, d, "ordered", "hasOrdered");
    }
    if (strcmp(type, "cancel") == 0 || strcmp(type, "cancellation point") == 0)
        for (size_t i = 0; i < d->nclauses; i++)
            if (!d->clauses[i].arg)
                ctc_builder_add(b, "constructType", d->clauses[i].word);
    if (strcmp(type, "atomic") == 0)
        for (size_t i = 0; i < d->nclauses; i++)
            if (!d->clauses[i].arg && strstr(" read write update capture compare ",
                                            d->clauses[i].word) != NULL)
                ctc_builder_add(b, "atomicKind", d->clauses[i].word);
    add_flag(b, d, "lastprivate", "hasLastprivate");
    add_flag(b, d, "collapse", "hasCollapse");
    if (strcmp(type, "parallel") == 0) {
        add_flag(b, d, "copyin", "hasCopyin");
        add_flag(b, d, "if", "hasIf");
        add_flag(b, d, "num_threads", "hasNumThreads");
    }
    if (strcmp(type, "task") == 0 || strcmp(type, "taskloop") == 0) {
        add_flag(b, d, "untied", "hasUntied");
        add_flag(b, d, "depend", "hasDepend");
        add_flag(b, d, "if", "hasIf");
        add_flag(b, d, "final", "hasFinal");
        add_flag(b, d, "mergeable", "hasMergeable");
    }
    if (strcmp(type, "taskwait") == 0)
        add_flag(b, d, "depend", "hasDepend");
    add_flag(b, d, "firstprivate", "hasFirstprivate");
    add_flag(b, d, "reduction", "hasReduction");
    add_flag(b, d, "nowait", "hasNowait");
    add_flag(b, d, "copyprivate", "hasCopyprivate");
}

/* ---- where a pragma stands ---- */

struct parsed {
    struct directive d;
    int ok;
};

static void parse(const struct pragma *q, struct parsed *out)
{
    out->ok = directive_parse(q->text, &out->d) == 0 && strcmp(out->d.sentinel, "omp") == 0;
}

static void unparse(struct parsed *x)
{
    directive_free(&x->d);
}

/* Does the statement of q contain offset? */
static int encloses(const struct pragma *q, unsigned offset)
{
    return q->has_stmt && q->stmt_start <= offset && offset < q->stmt_end;
}

/* The pragmas whose statement contains offset, innermost first (at most n). */
static size_t enclosing(const struct source *s, unsigned offset, const struct pragma **out,
                        size_t n)
{
    size_t k = 0;
    for (size_t i = 0; i < s->npragmas && k < n; i++)
        if (encloses(&s->pragmas[i], offset))
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
        if (!encloses(q, x->start) || !strstr(x->text, "cancel"))
            continue;
        struct parsed px;
        parse(x, &px);
        int hit = px.ok && cancels(&px.d, kind);
        unparse(&px);
        if (!hit)
            continue;
        /* the innermost construct of that kind around x must be q */
        int mine = 1;
        for (size_t j = 0; j < s->npragmas && mine; j++) {
            const struct pragma *y = &s->pragmas[j];
            if (y == q || !encloses(y, x->start) || !encloses(q, y->start))
                continue;
            struct parsed py;
            parse(y, &py);
            if (py.ok && kind_matches(py.d.name, kind))
                mine = 0;
            unparse(&py);
        }
        if (mine)
            return 1;
    }
    return 0;
}

/* Is this worksharing leaf of q (for, sections) the target of a cancel in q? */
static int canceled_leaf(const struct rewriter *w, const struct pragma *q, const char *leaf)
{
    return (has_leaf(leaf, "for") && contains_cancel(w->s, q, "for")) ||
           (has_leaf(leaf, "sections") && contains_cancel(w->s, q, "sections"));
}

/* Cancellation jumps to the end of the canceled region, past the closing events
 * of every construct in between. Is a closing event inside the given leaves of
 * q (leaf names, innermost last), or around q (nleaves 0), in such a region? */
static int close_may_be_skipped(const struct rewriter *w, const struct pragma *q,
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
        parse(outer[i], &po);
        int skipped = 0, boundary = 0;
        if (po.ok) {
            for (size_t k = 0; k < sizeof kinds / sizeof *kinds && !skipped; k++)
                if (kind_matches(po.d.name, kinds[k]) && contains_cancel(w->s, outer[i], kinds[k]))
                    skipped = 1;
            boundary = is_parallel_like(po.d.name) || is_task_like(po.d.name);
        }
        unparse(&po);
        if (skipped || boundary)
            return skipped;
    }
    return 0;
}

/* An untied task may resume on another thread after a task scheduling point in
 * its own body (Clang splits it into parts there). Does task q have one? */
static int untied_may_migrate(const struct source *s, const struct pragma *q,
                              const struct directive *d)
{
    if (!directive_clause(d, "untied"))
        return 0;
    for (size_t i = 0; i < s->npragmas; i++) {
        const struct pragma *x = &s->pragmas[i];
        if (x == q || !encloses(q, x->start))
            continue;
        struct parsed px;
        parse(x, &px);
        int point = px.ok && (construct_of(&px.d).flags & F_SCHEDULING);
        unparse(&px);
        if (!point)
            continue;
        /* in q's own body, not in a nested task or parallel region */
        int own = 1;
        for (size_t j = 0; j < s->npragmas && own; j++) {
            const struct pragma *y = &s->pragmas[j];
            if (y == q || y == x || !encloses(y, x->start) || !encloses(q, y->start))
                continue;
            struct parsed py;
            parse(y, &py);
            if (py.ok && (is_task_like(py.d.name) || is_parallel_like(py.d.name)))
                own = 0;
            unparse(&py);
        }
        if (own)
            return 1;
    }
    return 0;
}

struct context {
    const char *skip;   /* why nothing is instrumented here, or NULL */
    const char *tid;    /* the thread id expression */
    int in_migrating_task; /* directly in the body of an untied task that may migrate */
};

/* "declare target" without clauses and "begin declare target" open a block of
 * device code up to "end declare target". */
static int in_declare_target(const struct source *s, const struct pragma *p)
{
    int open = 0;
    for (size_t i = 0; i < s->npragmas && s->pragmas[i].start < p->start; i++) {
        if (!strstr(s->pragmas[i].text, "declare"))
            continue;
        struct parsed x;
        parse(&s->pragmas[i], &x);
        if (x.ok) {
            if (strcmp(x.d.name, "begin declare target") == 0 ||
                (strcmp(x.d.name, "declare target") == 0 && x.d.nclauses == 0 && !x.d.name_arg))
                open++;
            else if (strcmp(x.d.name, "end declare target") == 0 && open > 0)
                open--;
        }
        unparse(&x);
    }
    return open > 0;
}

static struct context context_of(const struct rewriter *w, const struct pragma *p)
{
    struct context c = {NULL, "POMP_TID_", 0};
    if (in_declare_target(w->s, p)) {
        c.skip = "in a declare target block (device code)";
        return c;
    }
    const struct pragma *outer[MAX_ENCLOSING];
    size_t n = enclosing(w->s, p->start, outer, MAX_ENCLOSING);
    int team_decided = 0, task_decided = 0;
    for (size_t i = 0; i < n && !c.skip; i++) {
        struct parsed q;
        parse(outer[i], &q);
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
        unparse(&q);
    }
    return c;
}

/* ---- generated code ---- */

#define H "pomp_h_(%u)"       /* the handle's address, for the first event */
#define V "(*pomp_h_(%u))"    /* the handle, for the later events */
#define C "pomp_c_(%u)"       /* the CTC string */

/* One leaf of a (possibly split) construct. */
struct leaf {
    struct construct k;
    const struct directive *d; /* its clauses */
    unsigned r;                /* its region */
    unsigned barrier_r;        /* region of its explicit implicit barrier, UINT_MAX if none */
    struct strbuf clauses;     /* as written into a generated pragma */
    struct strbuf temps;       /* temporaries its clauses use */
    struct strbuf before, block_start, block_end, after;
    int rewritten;             /* its pragma is written anew */
    int add_nowait;
    int migrating;             /* an untied task that may resume elsewhere: no begin/end */
    int no_enter_exit;         /* a scheduling point in such a task: no enter/exit */
    int guard_in;              /* closing events in its block may be skipped by cancellation */
    const char *tid_out;       /* thread id expression around the leaf (enter, exit) */
    const char *tid_in;        /* and inside its block (begin, end) */
};

#define MAX_LEAVES 4

struct chain {
    struct leaf leaf[MAX_LEAVES];
    struct directive owned[2 * MAX_LEAVES]; /* clauses of split leaves */
    size_t n, nowned;
    struct strbuf prologue;   /* temporaries, evaluated once before the outermost pragma */
    const char *tid;
    const struct pragma *p;
};

/* "{ OPEN; " and "POMP_<close>(...); } ", or with a cleanup guard when
 * cancellation may jump past the closing call:
 * "{ int pomp_<var>_<r> __attribute__((cleanup(pomp_guard_<close>_tid))) = (OPEN, r); " and "} ". */
static void open_close(struct rewriter *w, struct strbuf *open, struct strbuf *close,
                       const char *open_call, const char *close_routine, const char *var,
                       unsigned r, int guarded, const char *tid)
{
    if (guarded) {
        w->uses_guards = 1;
        sb_printf(open, "{ int pomp_%s_%u __attribute__((cleanup(pomp_guard_%s_%s))) = (%s, %u); ",
                  var, r, close_routine, strcmp(tid, "0") == 0 ? "0" : "tid", open_call, r);
        sb_add(close, "} ");
    } else {
        sb_printf(open, "{ %s; ", open_call);
        sb_printf(close, "POMP_%s(" V ", %s); } ", close_routine, r, tid);
    }
}

/* A clause argument with a leading "modifier:" or "kind," split off at the
 * last top-level sep; head keeps the separator. */
static void split_arg(const char *arg, char sep, char **head, char **expr)
{
    int depth = 0;
    const char *cut = NULL;
    for (const char *c = arg; *c; c++) {
        if (*c == '(' || *c == '[')
            depth++;
        else if (*c == ')' || *c == ']')
            depth--;
        else if (*c == sep && depth == 0 && !(sep == ':' && (c[1] == ':' || (c > arg && c[-1] == ':'))))
            cut = c;
    }
    if (!cut) {
        *head = NULL;
        *expr = xstrdup(arg);
        return;
    }
    *head = xasprintf("%.*s", (int)(cut - arg + 1), arg);
    *expr = xstrdup(cut + 1);
}

static int has_top_level(const char *arg, char ch)
{
    int depth = 0;
    for (const char *c = arg; *c; c++) {
        if (*c == '(' || *c == '[')
            depth++;
        else if (*c == ')' || *c == ']')
            depth--;
        else if (*c == ch && depth == 0)
            return 1;
    }
    return 0;
}

static int is_word_char(char c)
{
    return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
}

/* Is the clause expression certainly free of side effects, so that the
 * instrumenter may evaluate it once more? Only names, numbers, member access,
 * subscripts and operators without assignment; no call, no comma, no literal
 * string, and no name that is a macro (which could expand to anything). */
static int no_side_effects(const struct source *src, const char *expr)
{
    const char *e = expr;
    int any = 0;
    while (*e) {
        if (*e == ' ' || *e == '\t') {
            e++;
        } else if (is_word_char(*e)) {
            const char *w = e;
            while (is_word_char(*e))
                e++;
            char *word = xasprintf("%.*s", (int)(e - w), w);
            int macro = (*w < '0' || *w > '9') && source_is_macro(src, word);
            free(word);
            const char *next = e;
            while (*next == ' ' || *next == '\t')
                next++;
            if (macro || ((*w < '0' || *w > '9') && *next == '('))
                return 0; /* a macro, or a call */
            any = 1;
        } else if ((e[0] == '+' && e[1] == '+') || (e[0] == '-' && e[1] == '-')) {
            return 0;
        } else if (*e == '=') {
            /* ==, <=, >=, != only; not =, <<=, >>= */
            if (e[1] == '=') {
                e += 2;
                continue;
            }
            int cmp = e > expr && (e[-1] == '!' || ((e[-1] == '<' || e[-1] == '>') &&
                                                    !(e - 1 > expr && e[-2] == e[-1])));
            if (!cmp)
                return 0;
            e++;
        } else if (strchr("+-*/%<>&|^~!?:()[].", *e)) {
            if (*e != '=' && e[1] == '=' && strchr("+-*/%&|^", *e))
                return 0; /* compound assignment */
            e++;
        } else {
            return 0; /* ',', literals, anything else */
        }
    }
    return any;
}

/* Declares a temporary holding expr (evaluated once, before the construct);
 * returns its name. truth: the expression's truth value (if, final). */
static char *temporary(struct chain *ch, struct leaf *lf, const char *ctype, const char *what,
                       const char *expr, int truth)
{
    char *name = xasprintf("pomp_%s_%u", what, lf->r);
    sb_printf(&ch->prologue, truth ? "%s %s = (%s) ? 1 : 0; " : "%s %s = (%s); ", ctype, name,
              expr);
    sb_printf(&lf->temps, "%s%s", lf->temps.len ? ", " : "", name);
    return name;
}

static void add_clause_text(struct strbuf *b, const char *word, const char *arg)
{
    sb_printf(b, " %s", word);
    if (arg)
        sb_printf(b, "(%s)", arg);
}

/* The loops a directive is associated with: collapse(n), or ordered(n) for doacross. */
static long associated_loops(const struct directive *d)
{
    long n = 1;
    const struct directive_item *c;
    if ((c = directive_clause(d, "collapse")) && c->arg)
        n = strtol(c->arg, NULL, 10);
    if ((c = directive_clause(d, "ordered")) && c->arg && strtol(c->arg, NULL, 10) > n)
        n = strtol(c->arg, NULL, 10);
    return n > 0 ? n : 1;
}

/* RTC values of the loop-like enter events (seed 002 §3.3): "chunk, init, final, incr",
 * with the proposal's "not available" values (-1, 0, 0, 0) where pomp cannot know them. */
static char *loop_rtc(const struct pragma *p, const char *chunk, const struct directive *d)
{
    const struct loop_header *l = p->loop;
    if (!l || associated_loops(d) > 1) /* a collapsed nest has no single range */
        return xasprintf("%s, 0, 0, 0", chunk ? chunk : "-1");
    return xasprintf("%s, %s, %s, %s", chunk ? chunk : "-1", l->init ? l->init : "0",
                     l->final ? l->final : "0", l->incr ? l->incr : "0");
}

struct rtc_names {
    char *num_threads, *if_result, *chunk;
};

/* Writes the clauses of leaf i into its pragma text, moving expressions into
 * temporaries where they must be evaluated once (RTC values) or outside the
 * split leaves. */
static void leaf_clauses(const struct source *src, struct chain *ch, size_t i,
                         struct rtc_names *rtc)
{
    struct leaf *lf = &ch->leaf[i];
    const struct directive *d = lf->d;
    for (size_t c = 0; c < d->nclauses; c++) {
        const char *word = d->clauses[c].word, *arg = d->clauses[c].arg;
        char *head = NULL, *expr = NULL, *t = NULL;
        if (!arg) {
            add_clause_text(&lf->clauses, word, arg);
            continue;
        }
        if ((lf->k.flags & F_PARALLEL_RTC) && strcmp(word, "num_threads") == 0 &&
            !has_top_level(arg, ',') && !has_top_level(arg, ':')) {
            t = rtc->num_threads = temporary(ch, lf, "POMP_Int32", "num_threads", arg, 0);
            add_clause_text(&lf->clauses, word, t);
            lf->rewritten = 1;
            continue;
        }
        if ((lf->k.flags & F_PARALLEL_RTC) && strcmp(word, "if") == 0) {
            split_arg(arg, ':', &head, &expr);
            t = rtc->if_result = temporary(ch, lf, "POMP_Int32", "if", expr, 1);
            add_clause_text(&lf->clauses, word, t);
            lf->rewritten = 1;
            free(head);
            free(expr);
            continue;
        }
        if ((lf->k.flags & F_LOOP_RTC) &&
            (strcmp(word, "schedule") == 0 || strcmp(word, "dist_schedule") == 0) &&
            has_top_level(arg, ',')) {
            /* How often the chunk size is evaluated is the compiler's choice (GCC:
             * by each thread, also for parallel for): it is only copied when
             * evaluating it once more changes nothing. */
            split_arg(arg, ',', &head, &expr);
            if (no_side_effects(src, expr))
                rtc->chunk = xasprintf("(POMP_Int64)(%s)", expr);
            free(head);
            free(expr);
        }
        /* Inside a split construct with a default clause, an expression of an
         * inner leaf would need a data-sharing attribute on the outer one: it is
         * evaluated before the construct instead, as the combined form does. */
        static const char *const hoisted[] = {"filter", "grainsize", "num_tasks", "final",
                                              "priority", "if", NULL};
        int hoist = 0;
        for (const char *const *h = hoisted; *h && i > 0; h++)
            if (strcmp(*h, word) == 0)
                for (size_t o = 0; o < i; o++)
                    if (directive_clause(ch->leaf[o].d, "default"))
                        hoist = 1;
        if (hoist) {
            split_arg(arg, ':', &head, &expr);
            int truth = strcmp(word, "final") == 0 || strcmp(word, "if") == 0;
            t = temporary(ch, lf, truth ? "POMP_Int32" : "POMP_Int64", word, expr, truth);
            char *a = xasprintf("%s%s%s", head ? head : "", head ? " " : "", t);
            add_clause_text(&lf->clauses, word, a);
            free(a);
            free(t);
            lf->rewritten = 1;
            free(head);
            free(expr);
            continue;
        }
        add_clause_text(&lf->clauses, word, arg);
    }
}

/* "{ POMP_Implicit_barrier_enter(...); _Pragma("omp barrier") POMP_Implicit_barrier_exit(...); } " */
static void explicit_barrier(struct rewriter *w, struct strbuf *b, unsigned r, const char *tid,
                             int guarded)
{
    char *call = xasprintf("POMP_Implicit_barrier_enter(" H ", %s, " C ")", r, tid, r);
    struct strbuf close = {0};
    open_close(w, b, &close, call, "Implicit_barrier_exit", "gb", r, guarded, tid);
    sb_add(b, "_Pragma(\"omp barrier\") ");
    sb_add(b, close.s);
    free(close.s);
    free(call);
}

/* The code pieces of leaf i. */
static void leaf_code(struct rewriter *w, struct chain *ch, size_t i, const struct rtc_names *rtc)
{
    struct leaf *lf = &ch->leaf[i];
    const struct pragma *p = ch->p;
    const char *tid = lf->tid_out, *tid_in = lf->tid_in;
    unsigned r = lf->r;
    const char *leaves[MAX_LEAVES];
    for (size_t j = 0; j <= i; j++)
        leaves[j] = ch->leaf[j].d->name;
    /* closing events inside this leaf's block, and after it (inside the leaves around it) */
    lf->guard_in = close_may_be_skipped(w, p, leaves, i + 1);
    int guard_after = close_may_be_skipped(w, p, leaves, i);
    const char *stem = lf->k.stem;
    char *call = NULL, *close = NULL;
    struct strbuf exit_code = {0};
    switch (lf->k.shape) {
    case SHAPE_BLOCK:
        if (!lf->no_enter_exit) {
            if (lf->k.flags & F_PARALLEL_RTC)
                call = xasprintf("POMP_Parallel_enter(" H ", %s, %s, %s, " C ")", r, tid,
                                 rtc->num_threads ? rtc->num_threads : "-1",
                                 rtc->if_result ? rtc->if_result : "1", r);
            else
                call = xasprintf("POMP_%s_enter(" H ", %s, " C ")", stem, r, tid, r);
            close = xasprintf("%s_exit", stem);
            open_close(w, &lf->before, &exit_code, call, close, "gx", r, guard_after, tid);
            free(call);
            free(close);
        }
        if (!lf->migrating) {
            call = xasprintf("POMP_%s_begin(" V ", %s)", stem, r, tid_in);
            close = xasprintf("%s_end", stem);
            if (lf->barrier_r != UINT_MAX && (lf->k.flags & F_PARALLEL_RTC))
                explicit_barrier(w, &lf->block_end, lf->barrier_r, tid_in, lf->guard_in);
            open_close(w, &lf->block_start, &lf->block_end, call, close, "ge", r, lf->guard_in,
                       tid_in);
            free(call);
            free(close);
        }
        if (lf->barrier_r != UINT_MAX && !(lf->k.flags & F_PARALLEL_RTC))
            explicit_barrier(w, &lf->after, lf->barrier_r, tid, guard_after);
        if (exit_code.s)
            sb_add(&lf->after, exit_code.s);
        break;
    case SHAPE_BEGIN_END:
        call = xasprintf("POMP_%s_begin(" H ", %s, " C ")", stem, r, tid_in, r);
        close = xasprintf("%s_end", stem);
        open_close(w, &lf->block_start, &lf->block_end, call, close, "ge", r, lf->guard_in, tid_in);
        free(call);
        free(close);
        break;
    case SHAPE_AROUND:
    case SHAPE_SECTIONS:
        if (lf->no_enter_exit)
            break;
        if (lf->k.flags & F_LOOP_RTC) {
            char *values = loop_rtc(p, rtc->chunk, lf->d);
            call = xasprintf("POMP_%s_enter(" H ", %s, %s, " C ")", stem, r, tid, values, r);
            free(values);
        } else {
            call = xasprintf("POMP_%s_enter(" H ", %s, " C ")", stem, r, tid, r);
        }
        close = xasprintf("%s_exit", stem);
        open_close(w, &lf->before, &exit_code, call, close, "gx", r, guard_after, tid);
        free(call);
        free(close);
        if (lf->barrier_r != UINT_MAX)
            explicit_barrier(w, &lf->after, lf->barrier_r, tid, guard_after);
        sb_add(&lf->after, exit_code.s);
        break;
    case SHAPE_PAIR:
        if (lf->no_enter_exit)
            break;
        call = xasprintf("POMP_%s_enter(" H ", %s, " C ")", stem, r, tid, r);
        close = xasprintf("%s_exit", stem);
        open_close(w, &lf->before, &lf->after, call, close, "gx", r, guard_after, tid);
        free(call);
        free(close);
        break;
    case SHAPE_EVENT_BEFORE:
        sb_printf(&lf->before, "POMP_%s_event(" H ", %s, " C ");", stem, r, tid, r);
        break;
    case SHAPE_EVENT_AFTER:
        sb_printf(&lf->after, "POMP_%s_event(" H ", %s, " C ");", stem, r, tid, r);
        break;
    case SHAPE_ATOMIC:
        sb_add(&lf->before, "{");
        sb_printf(&lf->after, "POMP_%s_event(" H ", %s, " C "); }", stem, r, tid, r);
        break;
    case SHAPE_NONE:
        break;
    }
    free(exit_code.s);
}

/* Generated pieces end in a blank; where the user's text or a newline follows, it goes. */
static void trim(struct strbuf *b)
{
    while (b->len && b->s[b->len - 1] == ' ')
        b->s[--b->len] = '\0';
}

/* ---- sections ---- */

static int blank_or_comment(const char *text, unsigned from, unsigned to)
{
    for (unsigned i = from; i < to; i++) {
        if (text[i] == ' ' || text[i] == '\t' || text[i] == '\n' || text[i] == '\r')
            continue;
        if (text[i] == '/' && i + 1 < to && text[i + 1] == '/') {
            while (i < to && text[i] != '\n')
                i++;
            continue;
        }
        if (text[i] == '/' && i + 1 < to && text[i + 1] == '*') {
            const char *e = strstr(text + i + 2, "*/");
            if (!e || (unsigned)(e - text) + 2 > to)
                return 0;
            i = (unsigned)(e - text) + 1;
            continue;
        }
        return 0;
    }
    return 1;
}

/* Section_begin/Section_end around every section of sections p: the first
 * one may be written without its directive (OpenMP 5.2 §11.3). */
static int instrument_sections(struct rewriter *w, const struct chain *ch)
{
    const struct pragma *p = ch->p;
    const struct leaf *lf = &ch->leaf[ch->n - 1];
    const char *text = w->s->text;
    if (!p->has_stmt || text[p->stmt_start] != '{') {
        unsigned line, col;
        source_position(w->s, p->start, &line, &col);
        fprintf(stderr, "%s:%u:%u: error: '#pragma omp %s' must be followed by a '{' block\n",
                w->s->path, line, col, ch->leaf[0].d->name);
        return -1;
    }
    const struct pragma *sections[1024];
    size_t n = 0;
    for (size_t i = 0; i < w->s->npragmas && n < sizeof sections / sizeof *sections; i++) {
        const struct pragma *x = &w->s->pragmas[i];
        if (x == p || !encloses(p, x->start) || x->depth != p->depth + 1)
            continue;
        struct parsed px;
        parse(x, &px);
        if (px.ok && strcmp(px.d.name, "section") == 0)
            sections[n++] = x;
        unparse(&px);
    }
    int number = 1;
    unsigned first_at = n ? (sections[0]->is_operator ? sections[0]->start : sections[0]->line_start)
                          : p->stmt_end - 1;
    if (!blank_or_comment(text, p->stmt_start + 1, first_at)) {
        /* the first section, without its directive */
        struct strbuf open = {0}, close = {0};
        char *call = xasprintf("POMP_Section_begin(" V ", %d, %s)", lf->r, number++, lf->tid_in);
        open_close(w, &open, &close, call, "Section_end", "gs", lf->r, lf->guard_in, lf->tid_in);
        free(call);
        trim(&open);
        trim(&close);
        char *o = xasprintf(" %s", open.s);
        add_edit(w, p->stmt_start + 1, 0, 2 * p->depth + 1, o);
        if (n)
            insert_before_pragma(w, sections[0], close.s);
        else
            add_edit(w, p->stmt_end - 1, 0, 0, xstrdup(close.s));
        free(open.s);
        free(close.s);
    }
    for (size_t i = 0; i < n; i++) {
        if (!sections[i]->has_stmt)
            continue;
        struct strbuf open = {0}, close = {0};
        char *call = xasprintf("POMP_Section_begin(" V ", %d, %s)", lf->r, number++, lf->tid_in);
        open_close(w, &open, &close, call, "Section_end", "gs", lf->r, lf->guard_in, lf->tid_in);
        free(call);
        trim(&open);
        trim(&close);
        insert_at_block_start(w, sections[i], open.s);
        insert_after_block(w, sections[i], close.s);
        free(open.s);
        free(close.s);
    }
    return 0;
}

/* ---- iterations (--iterations) ---- */

/* Loop_iter_event/Loop_iter_begin before each iteration of the innermost
 * associated loop and Loop_iter_end after it. The body runs inside
 * "do BODY while (0);", so a continue still reaches Loop_iter_end. */
static void instrument_iterations(struct rewriter *w, const struct chain *ch)
{
    const struct pragma *p = ch->p;
    const struct leaf *lf = &ch->leaf[ch->n - 1];
    const char *why = NULL;
    const struct loop_header *l = p->loop;
    for (long k = associated_loops(lf->d); l && k > 1; k--)
        l = l->inner;
    const struct directive_item *red = directive_clause(lf->d, "reduction");
    if (!l || !l->body_in_file)
        why = "its loop (nest) is not a plain for loop written in the file";
    else if (l->has_break)
        why = "a break leaves the loop (the compiler rejects that)";
    else if (red && red->arg && strstr(red->arg, "inscan"))
        why = "a scan directive must stay directly in the loop body";
    else if (directive_clause(lf->d, "untied"))
        why = "the untied tasks may resume on another thread";
    for (size_t i = 0; i < w->s->npragmas && !why; i++)
        if (w->s->pragmas[i].has_stmt && w->s->pragmas[i].stmt_start == l->body_start)
            why = "the loop body is a directive's statement";
    if (why) {
        note(w, p->start, "no iteration events: %s", why);
        return;
    }
    char *iter = l->var_is_integer && l->var ? xasprintf("(POMP_Int64)(%s)", l->var) : xstrdup("0");
    const char *tid = lf->tid_in;
    unsigned r = lf->r;
    char *call = xasprintf("POMP_Loop_iter_event(" V ", %s, %s), POMP_Loop_iter_begin(" V ", %s, %s)",
                           r, tid, iter, r, tid, iter);
    struct strbuf open = {0}, close = {0};
    open_close(w, &open, &close, call, "Loop_iter_end", "gi", r, lf->guard_in, tid);
    sb_add(&open, "do ");
    trim(&close);
    add_edit(w, l->body_start, 0, 2 * p->depth + 1, open.s);
    add_edit(w, l->body_end, 0, -2 * p->depth - 2, xasprintf(" while (0); %s", close.s));
    free(close.s);
    free(call);
    free(iter);
}

/* ---- one directive ---- */

static void chain_free(struct chain *ch)
{
    for (size_t i = 0; i < ch->n; i++) {
        struct leaf *lf = &ch->leaf[i];
        free(lf->clauses.s);
        free(lf->temps.s);
        free(lf->before.s);
        free(lf->block_start.s);
        free(lf->block_end.s);
        free(lf->after.s);
    }
    for (size_t i = 0; i < ch->nowned; i++)
        combined_free(&ch->owned[i]);
    free(ch->prologue.s);
}

static int require_block(const struct rewriter *w, const struct pragma *p, const char *name)
{
    if (p->has_stmt)
        return 0;
    unsigned line, col;
    source_position(w->s, p->start, &line, &col);
    fprintf(stderr, "%s:%u:%u: error: no statement follows '#pragma omp %s'\n", w->s->path, line,
            col, name);
    return -1;
}

/* Splits d into its leaves, outermost first. */
static void build_chain(struct chain *ch, const struct directive *d)
{
    const struct directive *cur = d;
    const char *outer, *inner;
    while (ch->n < MAX_LEAVES - 1 && combined_split(cur->name, &outer, &inner)) {
        struct directive *od = &ch->owned[ch->nowned++], *id = &ch->owned[ch->nowned++];
        combined_distribute(cur, outer, inner, od, id);
        ch->leaf[ch->n++].d = od;
        cur = id;
    }
    ch->leaf[ch->n++].d = cur;
    for (size_t i = 0; i < ch->n; i++) {
        struct leaf *lf = &ch->leaf[i];
        lf->k = construct_of(lf->d);
        lf->barrier_r = UINT_MAX;
        /* directly in a teams region only a few OpenMP calls are allowed (GCC
         * checks it): omp_get_thread_num is not, and the thread is 0 there */
        lf->tid_out = i == 0 ? ch->tid : ch->leaf[i - 1].tid_in;
        lf->tid_in = strcmp(lf->d->name, "teams") == 0      ? "0"
                     : strcmp(lf->d->name, "parallel") == 0 ? "POMP_TID_"
                                                            : lf->tid_out;
    }
}

/* The text that replaces the pragma of a split or rewritten construct: every
 * leaf's pragma, with the begin code of the outer leaves and the enter code of
 * the inner ones between them. */
static char *pragma_replacement(const struct rewriter *w, const struct chain *ch)
{
    const struct pragma *p = ch->p;
    const char *nl = p->is_operator ? " " : "\n";
    struct strbuf b = {0};
    for (size_t i = 0; i < ch->n; i++) {
        const struct leaf *lf = &ch->leaf[i];
        if (i > 0) {
            sb_add(&b, nl);
            sb_add(&b, ch->leaf[i - 1].block_start.s ? ch->leaf[i - 1].block_start.s : "");
            sb_add(&b, lf->before.s ? lf->before.s : "");
            trim(&b);
            sb_add(&b, nl);
        }
        struct strbuf text = {0};
        sb_add(&text, lf->d->name);
        sb_add(&text, lf->clauses.s ? lf->clauses.s : "");
        /* temporaries the inner leaves use: shared, where a default clause needs it */
        if (directive_clause(lf->d, "default"))
            for (size_t j = i + 1; j < ch->n; j++)
                if (ch->leaf[j].temps.len)
                    sb_printf(&text, " shared(%s)", ch->leaf[j].temps.s);
        if (lf->add_nowait)
            sb_add(&text, " nowait");
        add_pragma_text(&b, p, text.s);
        free(text.s);
    }
    if (!p->is_operator)
        add_line_directive_after_pragma(&b, w, p);
    return b.s;
}

int instrument_omp_directive(struct rewriter *w, const struct pragma *p, const struct directive *d)
{
    const char *outer, *inner;
    struct construct k = construct_of(d);
    int section = strcmp(d->name, "section") == 0;
    if (k.shape == SHAPE_NONE && !section && !combined_split(d->name, &outer, &inner)) {
        note(w, p->start, "'%s' has no events: passed through unchanged", d->name);
        return 0;
    }
    struct context cx = context_of(w, p);
    if (cx.skip) {
        note(w, p->start, "left alone: %s", cx.skip);
        return 0;
    }
    if (section) {
        note(w, p->start, "instrumented '%s' with its sections construct", d->name);
        return 0;
    }
    int standalone = k.shape == SHAPE_PAIR || k.shape == SHAPE_EVENT_BEFORE ||
                     k.shape == SHAPE_EVENT_AFTER;
    if (!standalone && require_block(w, p, d->name))
        return -1;

    struct chain ch = {.p = p, .tid = cx.tid};
    build_chain(&ch, d);
    struct rtc_names rtc = {0};
    int rewrite = ch.n > 1;
    for (size_t i = 0; i < ch.n; i++) {
        struct leaf *lf = &ch.leaf[i];
        lf->r = new_region(w, p, lf->d, lf->k.type ? lf->k.type : lf->d->name);
        /* The combined construct has one barrier, at its end: a split worksharing
         * leaf gets nowait, so the split form has that one barrier too. Not where
         * it is canceled: a canceled region must not be nowait (Clang rejects
         * it); the leaf keeps its own barrier, as OpenMP defines the combined form. */
        int may_nowait = (lf->k.flags & F_IMPLICIT_BARRIER) && !directive_clause(lf->d, "nowait") &&
                         !directive_clause(lf->d, "copyprivate") && !canceled_leaf(w, p, lf->d->name);
        if (i > 0 && may_nowait && ch.leaf[i - 1].k.flags & F_PARALLEL_RTC)
            lf->add_nowait = 1;
        else if (w->o->explicit_barriers && may_nowait)
            lf->add_nowait = 1, lf->barrier_r = UINT_MAX - 1;
        if (w->o->explicit_barriers && (lf->k.flags & F_PARALLEL_RTC))
            lf->barrier_r = UINT_MAX - 1;
        if (lf->barrier_r == UINT_MAX - 1) {
            struct directive none = {.name = "implicit barrier", .error_column = -1};
            lf->barrier_r = new_region(w, p, &none, "implicit barrier");
        }
        if (strcmp(lf->d->name, "task") == 0 && untied_may_migrate(w->s, p, lf->d)) {
            lf->migrating = 1;
            note(w, p->start, "untied task with a task scheduling point: no begin/end events %s",
                 "(it may resume on another thread)");
        }
        if (cx.in_migrating_task && (lf->k.flags & F_SCHEDULING)) {
            lf->no_enter_exit = 1;
            note(w, p->start, "'%s' in an untied task that may resume on another thread here: "
                              "no enter/exit events", lf->d->name);
        }
        leaf_clauses(w->s, &ch, i, &rtc);
        if (lf->rewritten || lf->add_nowait)
            rewrite = 1;
    }
    for (size_t i = 0; i < ch.n; i++)
        leaf_code(w, &ch, i, &rtc);

    /* The prologue goes first, inside the brace the outermost leaf opens. */
    struct leaf *first = &ch.leaf[0], *last = &ch.leaf[ch.n - 1];
    struct strbuf before = {0}, after = {0};
    if (ch.prologue.len) {
        if (first->before.len && first->before.s[0] == '{') {
            sb_add(&before, "{ ");
            sb_add(&before, ch.prologue.s);
            sb_add(&before, first->before.s + 1);
        } else {
            sb_add(&before, "{ ");
            sb_add(&before, ch.prologue.s);
            sb_add(&before, first->before.s ? first->before.s : "");
        }
    } else if (first->before.len) {
        sb_add(&before, first->before.s);
    }
    for (size_t i = ch.n; i-- > 0;) {
        sb_add(&after, ch.leaf[i].block_end.s ? ch.leaf[i].block_end.s : "");
        sb_add(&after, ch.leaf[i].after.s ? ch.leaf[i].after.s : "");
    }
    if (ch.prologue.len && !(first->before.len && first->before.s[0] == '{'))
        sb_add(&after, "} ");

    trim(&before);
    trim(&after);
    trim(&last->block_start);
    int rc = 0;
    if (standalone) {
        if (before.len)
            insert_before_pragma(w, p, before.s);
        if (after.len)
            insert_after_pragma(w, p, after.s);
    } else {
        if (before.len)
            insert_before_pragma(w, p, before.s);
        if (rewrite)
            add_edit(w, p->start, p->end - p->start, 2 * p->depth + 1, pragma_replacement(w, &ch));
        if (last->block_start.len)
            insert_at_block_start(w, p, last->block_start.s);
        if (after.len)
            insert_after_block(w, p, after.s);
        if (last->k.shape == SHAPE_SECTIONS)
            rc = instrument_sections(w, &ch);
        if (rc == 0 && (last->k.flags & F_ITERATIONS) && w->o->iterations && !cx.in_migrating_task)
            instrument_iterations(w, &ch);
    }
    free(before.s);
    free(after.s);
    free(rtc.num_threads);
    free(rtc.if_result);
    free(rtc.chunk);
    chain_free(&ch);
    return rc;
}

/* ---- the generated include file ---- */

void construct_emit_inc(const struct rewriter *w, struct strbuf *inc)
{
    if (!w->uses_guards)
        return;
    /* Closing events run by __attribute__((cleanup)) where cancellation may jump
     * to the end of a region past them (gcc and clang run cleanups on that path). */
    static const char *const closers[] = {
        "Parallel_end", "Parallel_exit", "Loop_exit", "Loop_iter_end", "Sections_exit",
        "Section_end", "Single_end", "Single_exit", "Scope_end", "Scope_exit", "Master_end",
        "Masked_end", "Critical_end", "Critical_exit", "Ordered_end", "Ordered_exit",
        "Barrier_exit", "Implicit_barrier_exit", "Task_end", "Task_exit", "Taskloop_exit",
        "Taskwait_exit", "Taskgroup_end", "Taskgroup_exit", "Taskyield_exit", "Simd_exit",
        "Loop_construct_exit", "Distribute_exit", "Teams_end", "Teams_exit", "Target_exit",
        "Target_data_end", "Target_data_exit", NULL};
    for (const char *const *c = closers; *c; c++)
        sb_printf(inc,
                  "static __inline__ void pomp_guard_%s_tid(int *r) { POMP_%s(*pomp_h_(*r), POMP_TID_); }\n"
                  "static __inline__ void pomp_guard_%s_0(int *r) { POMP_%s(*pomp_h_(*r), 0); }\n",
                  *c, *c, *c, *c);
}
