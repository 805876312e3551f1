/* Splitting combined constructs (see combined.h). The rules follow OpenMP 5.2
 * §17.2 for the leaves pomp splits off: parallel, teams, masked and master. */
#include "combined.h"

#include <stdlib.h>
#include <string.h>

#include "constructs.h"

static const struct {
    const char *name, *outer, *inner;
} splits[] = {
    {"parallel for", "parallel", "for"},
    {"parallel for simd", "parallel", "for simd"},
    {"parallel loop", "parallel", "loop"},
    {"parallel sections", "parallel", "sections"},
    {"parallel masked", "parallel", "masked"},
    {"parallel master", "parallel", "master"},
    {"parallel masked taskloop", "parallel", "masked taskloop"},
    {"parallel masked taskloop simd", "parallel", "masked taskloop simd"},
    {"parallel master taskloop", "parallel", "master taskloop"},
    {"parallel master taskloop simd", "parallel", "master taskloop simd"},
    {"masked taskloop", "masked", "taskloop"},
    {"masked taskloop simd", "masked", "taskloop simd"},
    {"master taskloop", "master", "taskloop"},
    {"master taskloop simd", "master", "taskloop simd"},
    {"teams distribute", "teams", "distribute"},
    {"teams distribute simd", "teams", "distribute simd"},
    {"teams distribute parallel for", "teams", "distribute parallel for"},
    {"teams distribute parallel for simd", "teams", "distribute parallel for simd"},
};

int combined_split(const char *name, const char **outer, const char **inner)
{
    for (size_t i = 0; i < sizeof splits / sizeof *splits; i++)
        if (strcmp(splits[i].name, name) == 0) {
            *outer = splits[i].outer;
            *inner = splits[i].inner;
            return 1;
        }
    return 0;
}

static int is_one_of(const char *word, const char *const *list)
{
    for (; *list; list++)
        if (strcmp(*list, word) == 0)
            return 1;
    return 0;
}

int combined_is_list_clause(const char *word)
{
    static const char *const lists[] = {"private", "firstprivate", "lastprivate", "shared",
                                        "reduction", "in_reduction", "task_reduction", "linear",
                                        "aligned", "nontemporal", "allocate", "copyin",
                                        "copyprivate", NULL};
    return is_one_of(word, lists);
}

void combined_list_vars(struct strbuf *vars, const struct directive_item *c)
{
    const char *list = c->arg ? c->arg : "";
    size_t len = strlen(list);
    int depth = 0;
    size_t colon = (size_t)-1;
    for (size_t i = 0; i < len; i++) {
        if (list[i] == '(' || list[i] == '[')
            depth++;
        else if (list[i] == ')' || list[i] == ']')
            depth--;
        else if (list[i] == ':' && depth == 0 && (colon == (size_t)-1 ||
                                                  strcmp(c->word, "linear") != 0))
            colon = i; /* linear, aligned: the first ':'; the others: the last */
    }
    size_t from = 0, to = len;
    if (colon != (size_t)-1) {
        if (strcmp(c->word, "linear") == 0 || strcmp(c->word, "aligned") == 0)
            to = colon;
        else
            from = colon + 1;
    }
    depth = 0;
    size_t start = from;
    for (size_t i = from; i <= to; i++) {
        if (i < to && (list[i] == '(' || list[i] == '['))
            depth++;
        else if (i < to && (list[i] == ')' || list[i] == ']'))
            depth--;
        if (i == to || (list[i] == ',' && depth == 0)) {
            size_t a = start;
            while (a < i && (list[a] == ' ' || list[a] == '\t'))
                a++;
            size_t b = a;
            while (b < i && (list[b] == '_' || (list[b] >= 'a' && list[b] <= 'z') ||
                             (list[b] >= 'A' && list[b] <= 'Z') || (list[b] >= '0' && list[b] <= '9')))
                b++;
            if (b > a) {
                sb_add(vars, vars->len ? ", " : "");
                sb_addn(vars, list + a, b - a);
            }
            start = i + 1;
        }
    }
}

void combined_add_clause(struct directive *d, const char *word, const char *arg)
{
    if (d->nclauses == DIRECTIVE_MAX_ITEMS)
        return; /* the original had at most as many */
    d->clauses[d->nclauses++] = (struct directive_item){
        .word = xstrdup(word), .arg = arg ? xstrdup(arg) : NULL, .column = -1};
}

/* The directive-name modifier of an if clause ("parallel: c" gives parallel), or NULL. */
static char *if_modifier(const char *arg)
{
    const char *colon = strchr(arg, ':');
    if (!colon || colon[1] == ':')
        return NULL;
    size_t a = 0, b = (size_t)(colon - arg);
    while (a < b && arg[a] == ' ')
        a++;
    while (b > a && arg[b - 1] == ' ')
        b--;
    for (size_t i = a; i < b; i++)
        if (!(arg[i] == ' ' || arg[i] == '_' || (arg[i] >= 'a' && arg[i] <= 'z')))
            return NULL;
    char *m = xasprintf("%.*s", (int)(b - a), arg + a);
    return m;
}

/* Which leaves accept a clause that both could take. */
static int accepts_privatization(const char *inner)
{
    return !(strcmp(inner, "masked") == 0 || strcmp(inner, "master") == 0);
}
static int accepts_firstprivate(const char *inner)
{
    return has_leaf(inner, "for") || has_leaf(inner, "sections") || has_leaf(inner, "taskloop") ||
           has_leaf(inner, "distribute");
}
static int accepts_reduction(const char *inner)
{
    return has_leaf(inner, "for") || has_leaf(inner, "sections") || has_leaf(inner, "loop") ||
           has_leaf(inner, "taskloop") || has_leaf(inner, "simd") || has_leaf(inner, "parallel");
}

enum { TO_OUTER = 1, TO_INNER = 2 };

static int destination(const struct directive_item *c, const char *outer, const char *inner)
{
    const char *w = c->word;
    if (strcmp(outer, "masked") == 0 || strcmp(outer, "master") == 0)
        return strcmp(w, "filter") == 0 ? TO_OUTER : TO_INNER;
    int teams = strcmp(outer, "teams") == 0;
    static const char *const parallel_only[] = {"num_threads", "default", "shared", "copyin",
                                                "proc_bind", NULL};
    static const char *const teams_only[] = {"num_teams", "thread_limit", "default", "shared",
                                             NULL};
    if (is_one_of(w, teams ? teams_only : parallel_only))
        return TO_OUTER;
    if (strcmp(w, "if") == 0) {
        char *m = c->arg ? if_modifier(c->arg) : NULL;
        int to;
        if (m)
            to = strcmp(m, outer) == 0 ? TO_OUTER : TO_INNER;
        else /* no modifier: every leaf that takes an if clause */
            to = TO_OUTER | (has_leaf(inner, "taskloop") || has_leaf(inner, "simd") ||
                                     has_leaf(inner, "parallel")
                                 ? TO_INNER
                                 : 0);
        free(m);
        return to;
    }
    if (strcmp(w, "private") == 0)
        return accepts_privatization(inner) ? TO_INNER : TO_OUTER;
    if (strcmp(w, "firstprivate") == 0)
        return accepts_firstprivate(inner) ? TO_INNER : TO_OUTER;
    if (strcmp(w, "reduction") == 0) {
        if (!accepts_reduction(inner))
            return TO_OUTER;
        /* parallel with for/sections/loop/taskloop: the inner leaf only;
         * otherwise every leaf that takes it */
        if (!teams)
            return TO_INNER;
        return TO_OUTER | TO_INNER;
    }
    return TO_INNER; /* clauses only the inner leaf knows, and unknown ones */
}

/* Whether list ("a, b, c", or NULL) names var. */
static int in_list(const char *list, const char *var)
{
    size_t n = strlen(var);
    for (const char *p = list; p && *p;) {
        size_t len = strcspn(p, ",");
        while (len > 0 && p[len - 1] == ' ')
            len--;
        if (len == n && strncmp(p, var, n) == 0)
            return 1;
        p += strcspn(p, ",");
        p += strspn(p, ", ");
    }
    return 0;
}

/* Whether one of d's list clauses (allocate aside) names var. */
static int lists_var(const struct directive *d, const char *var)
{
    for (size_t i = 0; i < d->nclauses; i++) {
        const struct directive_item *c = &d->clauses[i];
        if (!c->arg || !combined_is_list_clause(c->word) || strcmp(c->word, "allocate") == 0)
            continue;
        struct strbuf vars = {0};
        combined_list_vars(&vars, c);
        int found = in_list(vars.s, var);
        free(vars.s);
        if (found)
            return 1;
    }
    return 0;
}

/* allocate(list) goes where its variables are privatized (§6.6: a data-sharing
 * clause that privatizes the item must be on the same directive). */
static void distribute_allocate(const struct directive_item *c, struct directive *od,
                                struct directive *id)
{
    struct strbuf vars = {0};
    combined_list_vars(&vars, c);
    int to_outer = 0, to_inner = 0;
    char *save = NULL;
    for (char *tok = vars.s ? strtok_r(vars.s, ", ", &save) : NULL; tok;
         tok = strtok_r(NULL, ", ", &save)) {
        if (lists_var(id, tok))
            to_inner = 1;
        else
            to_outer = 1;
    }
    free(vars.s);
    if (to_outer)
        combined_add_clause(od, c->word, c->arg);
    if (to_inner || !to_outer)
        combined_add_clause(id, c->word, c->arg);
}

/* default(none)? */
static int default_none(const struct directive *d)
{
    const struct directive_item *c = directive_clause(d, "default");
    if (!c || !c->arg)
        return 0;
    const char *a = c->arg;
    while (*a == ' ' || *a == '\t')
        a++;
    return strncmp(a, "none", 4) == 0 && strspn(a + 4, " \t") == strlen(a + 4);
}

static int loop_associated(const char *inner)
{
    return has_leaf(inner, "for") || has_leaf(inner, "simd") || has_leaf(inner, "loop") ||
           has_leaf(inner, "distribute") || has_leaf(inner, "taskloop");
}

/* The associated loops' variables declared before them have no data-sharing
 * attribute the outer leaf knows of once split: GCC rejects a simd or loop
 * leaf's variable under default(none) ("not specified in enclosing
 * 'parallel'"), and the whole file went uninstrumented. */
static void privatize_loop_vars(struct directive *od, const char *inner, const char *loop_vars)
{
    if (!loop_vars || !default_none(od) || !loop_associated(inner))
        return;
    struct strbuf priv = {0};
    char *vars = xstrdup(loop_vars), *save = NULL;
    for (char *tok = strtok_r(vars, ", ", &save); tok; tok = strtok_r(NULL, ", ", &save))
        if (!lists_var(od, tok)) {
            sb_add(&priv, priv.len ? ", " : "");
            sb_add(&priv, tok);
        }
    free(vars);
    if (priv.len)
        combined_add_clause(od, "private", priv.s);
    free(priv.s);
}

void combined_distribute(const struct directive *d, const char *outer, const char *inner,
                         const char *loop_vars, struct directive *od, struct directive *id)
{
    memset(od, 0, sizeof *od);
    memset(id, 0, sizeof *id);
    od->name = xstrdup(outer);
    id->name = xstrdup(inner);
    od->error_column = id->error_column = -1;
    for (size_t i = 0; i < d->nclauses; i++) {
        const struct directive_item *c = &d->clauses[i];
        if (strcmp(c->word, "allocate") == 0)
            continue;
        int to = destination(c, outer, inner);
        if (to & TO_OUTER)
            combined_add_clause(od, c->word, c->arg);
        if (to & TO_INNER)
            combined_add_clause(id, c->word, c->arg);
    }
    for (size_t i = 0; i < d->nclauses; i++)
        if (strcmp(d->clauses[i].word, "allocate") == 0 && d->clauses[i].arg)
            distribute_allocate(&d->clauses[i], od, id);

    /* With a default clause, what the inner leaf lists must have a data-sharing
     * attribute on the outer one too: shared, as in the combined construct. */
    if (!directive_clause(od, "default"))
        return;
    struct strbuf shared = {0};
    for (size_t i = 0; i < id->nclauses; i++) {
        const struct directive_item *c = &id->clauses[i];
        if (!c->arg || !combined_is_list_clause(c->word) || strcmp(c->word, "allocate") == 0)
            continue;
        struct strbuf vars = {0};
        combined_list_vars(&vars, c);
        char *save = NULL;
        for (char *tok = vars.s ? strtok_r(vars.s, ", ", &save) : NULL; tok;
             tok = strtok_r(NULL, ", ", &save)) {
            if (lists_var(od, tok) || in_list(shared.s, tok))
                continue; /* the outer leaf has its own clause for it, or it is listed: a
                             variable both firstprivate and lastprivate (shared(v, v): GCC
                             rejected the file, which then went uninstrumented) */
            sb_add(&shared, shared.len ? ", " : "");
            sb_add(&shared, tok);
        }
        free(vars.s);
    }
    if (shared.len)
        combined_add_clause(od, "shared", shared.s);
    free(shared.s);
    privatize_loop_vars(od, inner, loop_vars);
}

void combined_free(struct directive *d)
{
    directive_free(d);
}
