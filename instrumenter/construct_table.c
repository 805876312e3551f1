/* The table of OpenMP 5.2 directives pomp instruments, with the shape of their
 * events and the POMP routines they use, and the construct-specific CTC
 * attributes (docs/directives.md, docs/ctc.md). */
#include "rewrite.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "atomic_operand.h"
#include "combined.h"
#include "constructs.h"
#include "directive.h"
#include "source.h"

static const struct construct constructs[] = {
    {"parallel", SHAPE_BLOCK, "Parallel", "parallel", F_PARALLEL_RTC},
    {"for", SHAPE_AROUND, "Loop", "for", F_LOOP_RTC | F_ITERATIONS | F_IMPLICIT_BARRIER},
    {"for simd", SHAPE_AROUND, "Loop", "for simd", F_LOOP_RTC | F_NO_EVENTS_INSIDE | F_IMPLICIT_BARRIER},
    {"simd", SHAPE_AROUND, "Simd", "simd", F_LOOP_RTC | F_NO_EVENTS_INSIDE},
    {"loop", SHAPE_AROUND, "Loop_construct", "loop", F_LOOP_RTC | F_NO_EVENTS_INSIDE},
    {"distribute", SHAPE_AROUND, "Distribute", "distribute", F_LOOP_RTC | F_ITERATIONS},
    {"distribute simd", SHAPE_AROUND, "Distribute", "distribute simd", F_LOOP_RTC | F_NO_EVENTS_INSIDE},
    {"distribute parallel for", SHAPE_AROUND, "Distribute", "distribute parallel for",
     F_LOOP_RTC | F_NO_EVENTS_INSIDE},
    {"distribute parallel for simd", SHAPE_AROUND, "Distribute", "distribute parallel for simd",
     F_LOOP_RTC | F_NO_EVENTS_INSIDE},
    {"taskloop", SHAPE_AROUND, "Taskloop", "taskloop", F_LOOP_RTC | F_ITERATIONS | F_SCHEDULING},
    {"taskloop simd", SHAPE_AROUND, "Taskloop", "taskloop simd",
     F_LOOP_RTC | F_NO_EVENTS_INSIDE | F_SCHEDULING},
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
    /* not split: the loop leaf would need the reduction (its threads share the
     * team's copy), and Clang rejects a reduction on a loop bound to teams */
    {"teams loop", SHAPE_AROUND, "Teams", "teams loop", F_NO_EVENTS_INSIDE},
    {"target data", SHAPE_BLOCK, "Target_data", "target data", 0},
    {"target enter data", SHAPE_PAIR, "Target", "target enter data", 0},
    {"target exit data", SHAPE_PAIR, "Target", "target exit data", 0},
    {"target update", SHAPE_PAIR, "Target", "target update", 0},
    {"cancel", SHAPE_EVENT_BEFORE, "Cancel", "cancel", 0},
    {"cancellation point", SHAPE_EVENT_BEFORE, "Cancellation_point", "cancellation point", 0},
};

/* The doacross form of ordered (depend(sink|source) or doacross(...)): stand-alone;
 * a sink waits for the iterations it names (enter/exit around it: the wait was
 * the loop's work), a source is an event. */
static const struct construct doacross = {"ordered", SHAPE_EVENT_AFTER, "Doacross", "doacross", 0};
static const struct construct doacross_wait = {"ordered", SHAPE_PAIR, "Doacross", "doacross", 0};
/* target and every combined target construct: the region runs on the device. */
static const struct construct target_region = {"target", SHAPE_AROUND, "Target", NULL, F_DEVICE};
static const struct construct passed = {NULL, SHAPE_NONE, NULL, NULL, 0};

static int is_doacross(const struct directive *d)
{
    return strcmp(d->name, "ordered") == 0 &&
           (directive_clause(d, "depend") || directive_clause(d, "doacross"));
}

/* A doacross sink: its clause's argument begins with the word sink. */
static int is_doacross_sink(const struct directive *d)
{
    const struct directive_item *c = directive_clause(d, "depend");
    if (!c)
        c = directive_clause(d, "doacross");
    const char *a = c ? c->arg : NULL;
    while (a && *a == ' ')
        a++;
    return a && strncmp(a, "sink", 4) == 0 && (a[4] == ':' || a[4] == ' ');
}

/* An atomic whose x no instruction updates (atomic_operand.h: long double, a
 * complex double, __int128): the compilers take a lock for it, and the time
 * to get it is a wait, timed as a critical's (enter/exit around it); other
 * atomics are an event after the statement, counted inline once throttled. */
static const struct construct locked_atomic = {"atomic", SHAPE_PAIR, "Atomic", "atomic", 0};

struct construct construct_of_pragma(const struct directive *d, const struct pragma *p)
{
    struct construct k = construct_of(d);
    if (k.shape == SHAPE_ATOMIC && atomic_operand_locked(p->atomic_size))
        return locked_atomic;
    return k;
}

int construct_text_is_omp(const char *text)
{
    const char *x = text + strspn(text, " \t");
    return strncmp(x, "omp", 3) == 0 && !(x[3] == '_' || isalnum((unsigned char)x[3]));
}

int construct_pragma_counts(const char *text)
{
    struct directive d;
    if (directive_parse(text, &d) != 0) { /* one pomp does not know: the compiler's (handle_pragma) */
        int omp = d.unknown_directive || construct_text_is_omp(text);
        directive_free(&d);
        return omp;
    }
    const char *outer, *inner;
    int counts = strcmp(d.sentinel, "omp") == 0 && strcmp(d.name, "section") != 0 &&
                 (construct_of(&d).shape != SHAPE_NONE || combined_split(d.name, &outer, &inner));
    directive_free(&d);
    return counts;
}

struct construct construct_of(const struct directive *d)
{
    if (is_doacross(d))
        return is_doacross_sink(d) ? doacross_wait : doacross;
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

/* ---- CTC attributes ---- */

/* An atomic's kind: its kind clauses in one value, in a fixed order
 * ("compare capture" for `compare capture` and `capture compare` alike),
 * since a CTC key is given once (one atomicKind per clause was a malformed
 * string, and the region lost its type and place). */
static void add_atomic_kind(struct ctc_builder *b, const struct directive *d)
{
    static const char *const kinds[] = {"read", "write", "update", "compare", "capture"};
    char value[64] = "";
    for (size_t k = 0; k < sizeof kinds / sizeof *kinds; k++)
        for (size_t i = 0; i < d->nclauses; i++)
            if (!d->clauses[i].arg && strcmp(d->clauses[i].word, kinds[k]) == 0) {
                if (value[0])
                    strcat(value, " ");
                strcat(value, kinds[k]);
                break;
            }
    if (value[0])
        ctc_builder_add(b, "atomicKind", value);
}

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

/* Target constructs: the device clause as written, and every map (or, for
 * target update, motion) clause as "<map-type>: <list>", joined by ";". A map
 * without a map-type is tofrom (OpenMP 5.2 §5.8.3). The OMPT bridge reports
 * the device number and the bytes moved at run time; these keys say what the
 * source asked for. */
static void add_target_clauses(struct ctc_builder *b, const struct directive *d)
{
    const struct directive_item *c = directive_clause(d, "device");
    if (c && c->arg)
        ctc_builder_add(b, "device", c->arg);
    char maps[1024];
    size_t n = 0;
    maps[0] = '\0';
    for (size_t i = 0; i < d->nclauses; i++) {
        const struct directive_item *m = &d->clauses[i];
        int is_map = strcmp(m->word, "map") == 0;
        if (!m->arg || (!is_map && strcmp(m->word, "to") != 0 && strcmp(m->word, "from") != 0))
            continue;
        const char *list = m->arg, *colon = is_map ? strchr(m->arg, ':') : NULL;
        if (colon && colon[1] != ':') /* "to: a" but not "ns::a" */
            list = colon + 1;
        else
            colon = NULL;
        while (*list == ' ')
            list++;
        /* the map-type is the last word before the colon ("always, to: a" gives to) */
        char kind[32] = "tofrom";
        if (!is_map)
            snprintf(kind, sizeof kind, "%s", m->word);
        else if (colon) {
            const char *end = colon, *start;
            while (end > m->arg && end[-1] == ' ')
                end--;
            for (start = end; start > m->arg && start[-1] != ' ' && start[-1] != ','; start--)
                ;
            snprintf(kind, sizeof kind, "%.*s", (int)(end - start), start);
        }
        int w = snprintf(maps + n, sizeof maps - n, "%s%s: %s", n ? ";" : "", kind, list);
        if (w < 0 || (size_t)w >= sizeof maps - n)
            break; /* the rest does not fit: the CTC keeps the clauses that do */
        n += (size_t)w;
    }
    if (n)
        ctc_builder_add(b, "map", maps);
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
        add_atomic_kind(b, d);
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
        add_flag(b, d, "detach", "hasDetach");
    }
    if (strcmp(type, "taskwait") == 0)
        add_flag(b, d, "depend", "hasDepend");
    if (strncmp(type, "target", 6) == 0) {
        add_target_clauses(b, d);
        add_flag(b, d, "if", "hasIf");
        add_flag(b, d, "depend", "hasDepend");
    }
    add_flag(b, d, "firstprivate", "hasFirstprivate");
    add_flag(b, d, "private", "hasPrivate");
    add_flag(b, d, "reduction", "hasReduction");
    add_flag(b, d, "nowait", "hasNowait");
    add_flag(b, d, "copyprivate", "hasCopyprivate");
}
