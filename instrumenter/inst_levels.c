/* Compile-time instrumentation levels (see inst_levels.h). */
#include "inst_levels.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "directive.h"
#include "modules.h"
#include "rewriter.h"
#include "source.h"

/* Level bits, as libpomp numbers them (pomplib/pomp_levels.h). */
enum {
    EE = 1 << 0, BE = 1 << 1, CH = 1 << 2, IE = 1 << 3, IBE = 1 << 4, EV = 1 << 5,
    ALL_LEVELS = EE | BE | CH | IE | IBE | EV,
};

static const struct {
    const char *name;
    unsigned allowed;         /* level bits the group accepts, as POMP_<GROUP> does */
    const char *allowed_names;
} groups[INST_GROUPS] = {
    [INST_PARALLEL] = {"parallel", EE | BE, "none, EnterExit, BeginEnd"},
    [INST_LOOP] = {"loop", EE | CH | IE | IBE, "none, EnterExit, Chunks, IterEvent, IterBeginEnd"},
    [INST_WORKSHARE] = {"workshare", EE | BE, "none, EnterExit, BeginEnd"},
    [INST_SYNC] = {"sync", EV | EE | BE, "none, Event, EnterExit, BeginEnd"},
    [INST_USER] = {"user", EV | EE | BE, "none, Event, EnterExit, BeginEnd"},
    [INST_RUNTIME] = {"runtime", EV | EE, "none, Event, EnterExit"},
    [INST_TASK] = {"task", EE | BE, "none, EnterExit, BeginEnd"},
    [INST_TARGET] = {"target", EE | BE, "none, EnterExit, BeginEnd"},
};

static const struct {
    const char *name;
    unsigned bit;
} levels[] = {
    {"none", 0}, {"EnterExit", EE}, {"BeginEnd", BE}, {"Chunks", CH},
    {"IterEvent", IE}, {"IterBeginEnd", IBE}, {"Event", EV},
};

/* Every routine's group and the levels it records at: the last column of seed
 * 002 Appendix C, as libpomp implements it (pomplib/pomp_events.c; the tests
 * compare a build limited here with a run limited by POMP_<GROUP>). */
static const struct routine {
    const char *name;
    enum inst_group group;
    unsigned levels;
} routines[] = {
    {"Parallel_enter", INST_PARALLEL, EE | BE}, {"Parallel_exit", INST_PARALLEL, EE | BE},
    {"Parallel_begin", INST_PARALLEL, BE}, {"Parallel_end", INST_PARALLEL, BE},
    {"Loop_enter", INST_LOOP, EE | CH | IE | IBE}, {"Loop_exit", INST_LOOP, EE | CH | IE | IBE},
    {"Loop_chunk_begin", INST_LOOP, CH}, {"Loop_chunk_end", INST_LOOP, CH},
    {"Loop_iter_begin", INST_LOOP, IBE}, {"Loop_iter_end", INST_LOOP, IBE},
    {"Loop_iter_event", INST_LOOP, IE},
    {"Workshare_enter", INST_WORKSHARE, EE | BE}, {"Workshare_exit", INST_WORKSHARE, EE | BE},
    {"Workshare_begin", INST_WORKSHARE, BE}, {"Workshare_end", INST_WORKSHARE, BE},
    {"Sections_enter", INST_WORKSHARE, EE | BE}, {"Sections_exit", INST_WORKSHARE, EE | BE},
    {"Section_begin", INST_WORKSHARE, BE}, {"Section_end", INST_WORKSHARE, BE},
    {"Single_enter", INST_WORKSHARE, EE | BE}, {"Single_exit", INST_WORKSHARE, EE | BE},
    {"Single_begin", INST_WORKSHARE, BE}, {"Single_end", INST_WORKSHARE, BE},
    {"Critical_enter", INST_SYNC, EE | BE}, {"Critical_exit", INST_SYNC, EE | BE},
    {"Critical_begin", INST_SYNC, BE}, {"Critical_end", INST_SYNC, BE},
    {"Ordered_enter", INST_SYNC, EE | BE}, {"Ordered_exit", INST_SYNC, EE | BE},
    {"Ordered_begin", INST_SYNC, BE}, {"Ordered_end", INST_SYNC, BE},
    {"Master_begin", INST_SYNC, BE}, {"Master_end", INST_SYNC, BE},
    {"Barrier_enter", INST_SYNC, EE | BE}, {"Barrier_exit", INST_SYNC, EE | BE},
    {"Implicit_barrier_enter", INST_SYNC, EE | BE}, {"Implicit_barrier_exit", INST_SYNC, EE | BE},
    {"Critical_enter_fast", INST_SYNC, EE | BE}, {"Critical_exit_fast", INST_SYNC, EE | BE},
    {"Critical_begin_fast", INST_SYNC, BE}, {"Critical_end_fast", INST_SYNC, BE},
    {"Flush_event", INST_SYNC, EV | EE | BE}, {"Atomic_event", INST_SYNC, EV | EE | BE},
    {"Atomic_event_fast", INST_SYNC, EV | EE | BE},
    {"Atomic_enter", INST_SYNC, EV | EE | BE}, {"Atomic_exit", INST_SYNC, EV | EE | BE},
    {"Doacross_enter", INST_SYNC, EE | BE}, {"Doacross_exit", INST_SYNC, EE | BE},
    {"Doacross_event", INST_SYNC, EV | EE | BE},
    {"Masked_begin", INST_SYNC, BE}, {"Masked_end", INST_SYNC, BE},
    /* a task's begin with its id, and the forms of a task's execution counted
     * inline (POMP_Task_begin_id_fast, POMP_Task_end_fast): a begin and an end,
     * whatever their names end in (by the name's shape they were enter/exit
     * calls, kept at "inst task EnterExit") */
    {"Task_begin_id", INST_TASK, BE},
    {"Task_begin_id_fast", INST_TASK, BE}, {"Task_end_fast", INST_TASK, BE},
    {"Function_enter", INST_USER, EE | BE}, {"Function_exit", INST_USER, EE | BE},
    {"Function_begin", INST_USER, BE}, {"Function_end", INST_USER, BE},
    {"Function_event", INST_USER, EV},
    {"User_region_begin", INST_USER, BE}, {"User_region_end", INST_USER, BE},
    {"User_region_begin_values", INST_USER, BE}, {"User_region_end_values", INST_USER, BE},
    {"User_event", INST_USER, EV | BE}, {"User_event_values", INST_USER, EV | BE},
    {"Set_lock_enter", INST_RUNTIME, EE}, {"Set_lock_exit", INST_RUNTIME, EE},
    {"Set_nest_lock_enter", INST_RUNTIME, EE}, {"Set_nest_lock_exit", INST_RUNTIME, EE},
    {"Set_lock_event", INST_RUNTIME, EV}, {"Set_nest_lock_event", INST_RUNTIME, EV},
    {"Init_lock_event", INST_RUNTIME, EE | EV}, {"Destroy_lock_event", INST_RUNTIME, EE | EV},
    {"Unset_lock_event", INST_RUNTIME, EE | EV}, {"Test_lock_event", INST_RUNTIME, EE | EV},
    {"Init_nest_lock_event", INST_RUNTIME, EE | EV},
    {"Destroy_nest_lock_event", INST_RUNTIME, EE | EV},
    {"Unset_nest_lock_event", INST_RUNTIME, EE | EV},
    {"Test_nest_lock_event", INST_RUNTIME, EE | EV},
    {"Set_num_threads_event", INST_RUNTIME, EV}, {"Get_num_threads_event", INST_RUNTIME, EV},
    {"Get_max_threads_event", INST_RUNTIME, EV}, {"Get_thread_num_event", INST_RUNTIME, EV},
    {"Get_num_procs_event", INST_RUNTIME, EV}, {"In_parallel_event", INST_RUNTIME, EV},
    {"Set_dynamic_event", INST_RUNTIME, EV}, {"Get_dynamic_event", INST_RUNTIME, EV},
    {"Set_nested_event", INST_RUNTIME, EV}, {"Get_nested_event", INST_RUNTIME, EV},
};

struct range {
    unsigned from, to;   /* source offsets, both included */
    enum inst_group group;
    unsigned mask;       /* levels kept */
};

struct inst_levels {
    struct range *ranges; /* in source order of their directives */
    size_t n;
};

static void *inst_levels_begin(struct rewriter *w)
{
    (void)w;
    return xcalloc(1, sizeof(struct inst_levels));
}

static void inst_levels_free(void *state)
{
    struct inst_levels *l = state;
    if (l)
        free(l->ranges);
    free(l);
}

static void add_range(struct inst_levels *l, unsigned from, unsigned to, enum inst_group g,
                      unsigned mask)
{
    l->ranges = xrealloc(l->ranges, (l->n + 1) * sizeof *l->ranges);
    l->ranges[l->n++] = (struct range){from, to, g, mask};
}

int inst_group_parse(const char *name, enum inst_group *g)
{
    for (int i = 0; i < INST_GROUPS; i++)
        if (strcasecmp(name, groups[i].name) == 0) {
            *g = (enum inst_group)i;
            return 1;
        }
    return 0;
}

/* The routine's group and levels: from the table, or, for the Task and Target
 * routines of constructs newer than the proposal, from the name's shape. */
static int routine_info(const char *name, size_t len, enum inst_group *g, unsigned *lv)
{
    for (size_t i = 0; i < sizeof routines / sizeof *routines; i++)
        if (strlen(routines[i].name) == len && memcmp(routines[i].name, name, len) == 0) {
            *g = routines[i].group;
            *lv = routines[i].levels;
            return 1;
        }
    if (len > 4 && memcmp(name, "Task", 4) == 0)
        *g = INST_TASK;
    else if (len > 6 && memcmp(name, "Target", 6) == 0)
        *g = INST_TARGET;
    else
        return 0;
    size_t n = len;
    int begin_end = (n > 6 && memcmp(name + n - 6, "_begin", 6) == 0) ||
                    (n > 4 && memcmp(name + n - 4, "_end", 4) == 0);
    *lv = begin_end ? BE : EE | BE;
    return 1;
}

static unsigned mask_at(const struct inst_levels *l, unsigned anchor, enum inst_group g)
{
    unsigned mask = ALL_LEVELS;
    unsigned best_from = 0;
    int found = 0;
    for (size_t i = 0; l && i < l->n; i++) {
        const struct range *r = &l->ranges[i];
        if (r->group == g && r->from <= anchor && anchor <= r->to && (!found || r->from >= best_from)) {
            mask = r->mask;
            best_from = r->from;
            found = 1;
        }
    }
    return mask;
}

static int keeps(const struct inst_levels *l, unsigned anchor, const char *name, size_t len)
{
    enum inst_group g;
    unsigned lv;
    if (!routine_info(name, len, &g, &lv))
        return 1;
    return (mask_at(l, anchor, g) & lv) != 0;
}

int inst_levels_keeps(const struct inst_levels *l, unsigned anchor, const char *routine)
{
    return keeps(l, anchor, routine, strlen(routine));
}

/* The next POMP_<routine>( call in text from p, or NULL: *name and *len its
 * routine's name (without POMP_), *end past its name. */
static const char *next_call(const char *text, const char *p, const char **name, size_t *len,
                             const char **end)
{
    for (const char *call = strstr(p, "POMP_"); call; call = strstr(call + 1, "POMP_")) {
        if (call > text && is_ident_char(call[-1]))
            continue;
        const char *e = call + 5;
        while (is_ident_char(*e))
            e++;
        *name = call + 5, *len = (size_t)(e - *name), *end = e;
        return call;
    }
    return NULL;
}

/* Appends text without the POMP_<routine>(...); calls the level at anchor drops. */
static void inst_levels_filter(const void *state, struct strbuf *out, unsigned anchor,
                               const char *text)
{
    const struct inst_levels *l = state;
    if (!l || l->n == 0) {
        sb_add(out, text);
        return;
    }
    const char *p = text, *call, *name, *e;
    size_t len;
    while ((call = next_call(text, p, &name, &len, &e))) {
        if (*e != '(' || keeps(l, anchor, name, len)) {
            sb_addn(out, p, (size_t)(e - p));
            p = e;
            continue;
        }
        sb_addn(out, p, (size_t)(call - p));
        int depth = 0; /* skip the call, its ';' and one blank after it */
        for (; *e; e++) {
            if (*e == '(')
                depth++;
            else if (*e == ')' && --depth == 0) {
                e++;
                break;
            }
        }
        if (*e == ';')
            e++;
        if (*e == ' ')
            e++;
        p = e;
    }
    sb_add(out, p);
}

/* The module's drops_all: whether the level at anchor drops every call of an
 * event group in text (a construct left to the runtime's events, counted so
 * by instrument.c). */
static int inst_levels_drops_all(const void *state, unsigned anchor, const char *text, int *calls)
{
    const struct inst_levels *l = state;
    const char *p = text, *name, *e;
    size_t len;
    int dropped = 1;
    while (next_call(text, p, &name, &len, &e)) {
        enum inst_group g;
        unsigned lv;
        /* (calls of no group, as POMP_Fast_counted's test, stay at every level) */
        if (*e == '(' && routine_info(name, len, &g, &lv)) {
            *calls = 1;
            dropped &= l && !keeps(l, anchor, name, len);
        }
        p = e;
    }
    return dropped;
}

/* ---- the directive ---- */

/* An error at the item's column; msg is taken over. */
static int report(const struct rewriter *w, const struct pragma *p, const struct directive *d,
                  size_t item, char *msg)
{
    unsigned col = item < d->nitems ? (unsigned)d->items[item].column : 0;
    unsigned off = col < strlen(p->text) ? p->text_offsets[col] : p->start;
    rw_diag(w, off, "error", "%s", msg);
    free(msg);
    return -1;
}

static unsigned skip_blanks_and_comments(const struct source *s, unsigned i)
{
    while (i < s->size) {
        char c = s->text[i];
        if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v') {
            i++;
        } else {
            size_t past = i;
            if (!skip_comment(s->text, s->size, &past))
                break;
            i = (unsigned)past;
        }
    }
    return i;
}

/* The function definition that follows offset with nothing but its own
 * declaration in between; -1 if none does. */
static int function_after(const struct source *s, unsigned from)
{
    int best = -1;
    for (size_t i = 0; i < s->ast.nfunctions; i++) {
        const struct source_function *f = &s->ast.functions[i];
        if (f->is_lambda || f->decl_start < from)
            continue;
        if (best < 0 || f->decl_start < s->ast.functions[best].decl_start)
            best = (int)i;
    }
    if (best < 0)
        return -1;
    for (unsigned i = from; i < s->ast.functions[best].decl_start; i++)
        if (s->text[i] == ';' || s->text[i] == '{' || s->text[i] == '}')
            return -1;
    return best;
}

/* The stand-alone OpenMP directive (barrier, taskwait, flush, an ordered
 * with depend or doacross, ...) whose pragma starts at offset, or NULL. Its
 * pragma has no statement of its own: the scanner gives it the statement that
 * follows, a construct of its own (a critical after a barrier), or none at
 * the end of a block. */
static const struct pragma *standalone_at(const struct source *s, unsigned offset)
{
    for (size_t i = 0; i < s->npragmas; i++) {
        const struct pragma *q = &s->pragmas[i];
        if (q->start != offset)
            continue;
        struct directive d;
        int standalone = 0;
        if (directive_parse(q->text, &d) == 0 && d.sentinel && strcmp(d.sentinel, "omp") == 0 &&
            d.name)
            standalone = construct_type_is_standalone(d.name) ||
                         (strcmp(d.name, "ordered") == 0 &&
                          (directive_clause(&d, "depend") || directive_clause(&d, "doacross")));
        directive_free(&d);
        return standalone ? q : NULL;
    }
    return NULL;
}

int inst_levels_directive(struct inst_levels *l, const struct rewriter *w, const struct pragma *p,
                          const struct directive *d)
{
    enum inst_group g;
    if (d->nitems < 3 || !inst_group_parse(d->items[1].word, &g))
        return report(w, p, d, d->nitems < 3 ? d->nitems - 1 : 1,
                      xstrdup("'#pragma pomp inst <group> <level> [file]' needs a group (parallel, "
                              "loop, workshare, sync, user, runtime, task, target) and a level"));
    for (size_t i = 1; i < d->nitems; i++)
        if (d->items[i].arg)
            return report(w, p, d, i, xasprintf("unexpected '(%s)' after '%s'", d->items[i].arg,
                                                d->items[i].word));
    const char *lv = d->items[2].word;
    unsigned bit = 0;
    int known = 0;
    for (size_t i = 0; i < sizeof levels / sizeof *levels; i++)
        if (strcasecmp(lv, levels[i].name) == 0) {
            bit = levels[i].bit;
            known = 1;
        }
    if (!known || (bit && !(groups[g].allowed & bit)))
        return report(w, p, d, 2,
                      xasprintf("level '%s' is not allowed for group '%s' (allowed: %s)", lv,
                                groups[g].name, groups[g].allowed_names));
    const struct source *s = rw_source(w);
    if (d->nitems == 4 && strcasecmp(d->items[3].word, "file") == 0) {
        add_range(l, p->start, (unsigned)s->size, g, bit);
        return 0;
    }
    if (d->nitems > 3)
        return report(w, p, d, 3, xasprintf("unexpected '%s' (only 'file' may follow the level)",
                                            d->items[3].word));
    unsigned next = skip_blanks_and_comments(s, p->end);
    int f = function_after(s, next);
    if (f >= 0 && s->ast.functions[f].decl_start == next) {
        add_range(l, p->start, s->ast.functions[f].body_close, g, bit);
        return 0;
    }
    /* a stand-alone directive: that directive alone (before, the statement
     * after it too, a critical after a barrier; and at the end of a block,
     * with none after it, an error that left the file uninstrumented) */
    const struct pragma *standalone = standalone_at(s, next);
    if (standalone) {
        add_range(l, p->start, standalone->end, g, bit);
        return 0;
    }
    if (p->has_stmt) {
        add_range(l, p->start, p->stmt_end, g, bit);
        return 0;
    }
    if (f >= 0) {
        add_range(l, p->start, s->ast.functions[f].body_close, g, bit);
        return 0;
    }
    return report(w, p, d, 0,
                  xasprintf("'#pragma pomp inst %s %s' must be followed by a construct, a "
                            "statement or a function definition (or end with 'file')",
                            groups[g].name, lv));
}

void inst_levels_switch(struct inst_levels *l, const struct pragma *p, int on, size_t file_size)
{
    for (int g = 0; g < INST_GROUPS; g++)
        add_range(l, p->start, (unsigned)file_size, (enum inst_group)g, on ? ALL_LEVELS : 0);
}

const struct module inst_levels_module = {
    .name = "inst_levels",
    .begin = inst_levels_begin,
    .emit_edit = inst_levels_filter,
    .drops_all = inst_levels_drops_all,
    .end = inst_levels_free,
};
