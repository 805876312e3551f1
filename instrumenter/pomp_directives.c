/* #pragma pomp directives (seed 002 §3.6-3.9, OPARI2's C syntax):
 *   inst begin(name) / inst end(name) / inst altend(name)   user region
 *   inst init / inst finalize / inst on / inst off           POMP_Init, ... (§3.6)
 *   inst <group> <level> [file]                              instrumentation levels (§3.8)
 *   userregion start(name [: values]) / stop(...) / event(...) user regions and
 *                                                            events with values (§3.9)
 *   noinstrument / instrument                                OPARI2's switch
 * Each is replaced by its POMP calls on the pragma's own line.
 * (docs/instrumentation.md.) */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <pomplib.h>

#include "context.h"
#include "ctc.h"
#include "directive.h"
#include "inst_levels.h"
#include "modules.h"
#include "rewriter.h"
#include "source.h"

/* A user region opened by inst begin / userregion start, waiting for its end. */
struct open_region {
    char *name;
    unsigned region;          /* handle number */
    const struct pragma *begin;
    int function;             /* the body it was opened in */
    int emitted;              /* its calls are written (the user group's level allows them) */
    char *begin_values;       /* names for the CTC ("n,i+1"), or NULL */
};

struct pomp_directives {
    struct rewriter *w;
    struct inst_levels *levels;
    struct open_region *open;
    size_t nopen;
    /* How deep the last directive's altend ended (1 = the outermost open
     * region), 0 after any other directive, and where that altend's text
     * ends: an early exit out of nested regions is a run of altends, one
     * right after the other (only blanks and comments between them),
     * innermost first, each ending the region around the one before. */
    size_t altend_depth;
    unsigned altend_end;
};

/* "name : v1, v2" split up; value texts are copied verbatim into the code. */
struct name_values {
    char *name;
    char *values[POMP_MAX_VALUES];
    size_t n;
    char *joined;             /* "v1,v2" for the CTC, or NULL without values */
};

static void *pomp_directives_begin(struct rewriter *w)
{
    struct pomp_directives *pd = xcalloc(1, sizeof *pd);
    pd->w = w;
    pd->levels = rw_module_state(w, &inst_levels_module);
    return pd;
}

static void open_region_free(struct open_region *r)
{
    free(r->name);
    free(r->begin_values);
}

static void pomp_directives_free(void *state)
{
    struct pomp_directives *pd = state;
    if (!pd)
        return;
    for (size_t i = 0; i < pd->nopen; i++)
        open_region_free(&pd->open[i]);
    free(pd->open);
    free(pd);
}

static void name_values_free(struct name_values *nv)
{
    free(nv->name);
    for (size_t i = 0; i < nv->n; i++)
        free(nv->values[i]);
    free(nv->joined);
}

/* ---- messages ---- */

/* Source offset of column col of the pragma text; AT_PRAGMA: the pragma's start. */
#define AT_PRAGMA ((size_t)-1)
static unsigned text_offset(const struct pragma *p, size_t col)
{
    return col < strlen(p->text) ? p->text_offsets[col] : p->start;
}

static int error_at(const struct pomp_directives *pd, const struct pragma *p, size_t col,
                    char *msg)
{
    rw_diag(pd->w, text_offset(p, col), "error", "%s", msg);
    free(msg);
    return -1;
}

static int item_error(const struct pomp_directives *pd, const struct pragma *p,
                      const struct directive *d, size_t item, char *msg)
{
    size_t col = item < d->nitems ? (size_t)d->items[item].column : 0;
    return error_at(pd, p, col, msg);
}

/* ---- the directive's argument: name [: value, value ...] ---- */

static int is_ident(const char *s, size_t n)
{
    if (n == 0 || (s[0] >= '0' && s[0] <= '9'))
        return 0;
    for (size_t i = 0; i < n; i++)
        if (!(s[i] == '_' || (s[i] >= 'a' && s[i] <= 'z') || (s[i] >= 'A' && s[i] <= 'Z') ||
              (s[i] >= '0' && s[i] <= '9')))
            return 0;
    return 1;
}

static void trim(const char *s, size_t *from, size_t *to)
{
    while (*from < *to && (s[*from] == ' ' || s[*from] == '\t'))
        (*from)++;
    while (*to > *from && (s[*to - 1] == ' ' || s[*to - 1] == '\t'))
        (*to)--;
}

/* Parses the argument of item (the text between its parentheses); col is the
 * argument's column in the pragma text, for messages. */
static int parse_name_values(const struct pomp_directives *pd, const struct pragma *p,
                             const struct directive *d, size_t item, int values_allowed,
                             struct name_values *out)
{
    memset(out, 0, sizeof *out);
    const char *word = d->items[item].word, *arg = d->items[item].arg;
    const char *open = strchr(p->text + d->items[item].column, '(');
    size_t col = open ? (size_t)(open - p->text) + 1 : (size_t)d->items[item].column;
    if (!arg)
        return item_error(pd, p, d, item, xasprintf("'%s' needs a region name: %s(name)", word, word));
    size_t len = strlen(arg), colon = strcspn(arg, ":");
    size_t a = 0, b = colon;
    trim(arg, &a, &b);
    if (!is_ident(arg + a, b - a))
        return error_at(pd, p, col + a,
                        xasprintf("'%s(%s)': the region name must be an identifier", word, arg));
    out->name = xasprintf("%.*s", (int)(b - a), arg + a);
    if (colon == len)
        return 0;
    if (!values_allowed)
        return error_at(pd, p, col + colon, xasprintf("'%s' takes no values", word));
    struct strbuf joined = {0};
    size_t start = colon + 1;
    int depth = 0;
    char quote = 0;
    for (size_t i = colon + 1; i <= len; i++) {
        char c = arg[i];
        if (quote) {
            if (c == '\\' && i + 1 < len)
                i++;
            else if (c == quote)
                quote = 0;
            continue;
        }
        if (c == '"' || c == '\'')
            quote = c;
        else if (c == '(' || c == '[' || c == '{')
            depth++;
        else if (c == ')' || c == ']' || c == '}')
            depth--;
        if (i < len && (c != ',' || depth != 0))
            continue;
        size_t x = start, y = i;
        trim(arg, &x, &y);
        if (x == y) {
            free(joined.s);
            return error_at(pd, p, col + i, xasprintf("'%s(%s)': empty value", word, arg));
        }
        /* a string's address is no value a user meant to record (values are
         * integers; the cast took the literal's address, unsaid) */
        size_t q = x;
        while (q < y && q < x + 2 && (arg[q] == 'L' || arg[q] == 'u' || arg[q] == 'U' || arg[q] == '8'))
            q++;
        if (q < y && arg[q] == '"') {
            free(joined.s);
            return error_at(pd, p, col + x,
                            xasprintf("'%s(%s)': %.*s is a string; values are integers (POMP_Int64)",
                                      word, arg, (int)(y - x), arg + x));
        }
        if (out->n == POMP_MAX_VALUES) {
            free(joined.s);
            return error_at(pd, p, col + x,
                            xasprintf("'%s(%s)': more than %d values", word, arg, POMP_MAX_VALUES));
        }
        out->values[out->n++] = xasprintf("%.*s", (int)(y - x), arg + x);
        sb_printf(&joined, "%s%.*s", joined.len ? "," : "", (int)(y - x), arg + x);
        start = i + 1;
    }
    out->joined = joined.s;
    return 0;
}

/* ---- code ---- */

static char *user_ctc(const struct pomp_directives *pd, const char *type, const struct pragma *begin,
                      const struct pragma *end, const char *name, const char *begin_values,
                      const char *end_values, const char *event_values)
{
    const struct source *s = rw_source(pd->w);
    struct ctc_builder b;
    ctc_builder_init(&b);
    ctc_builder_add(&b, "type", type);
    ctc_builder_add_file(&b, source_presumed_file(s, begin->start), rw_options(pd->w)->cwd);
    ctc_builder_add_lines(&b, "slines", (int)source_presumed_line(s, begin->start),
                          (int)source_presumed_line(s, begin->end));
    ctc_builder_add_lines(&b, "elines", (int)source_presumed_line(s, end->start),
                          (int)source_presumed_line(s, end->end));
    ctc_builder_add(&b, "name", name);
    if (begin_values)
        ctc_builder_add(&b, "beginValues", begin_values);
    if (end_values)
        ctc_builder_add(&b, "endValues", end_values);
    if (event_values)
        ctc_builder_add(&b, "eventValues", event_values);
    return rw_ctc_finish(&b);
}

/* "{ POMP_Int64 pomp_v_[2]; pomp_v_[0] = POMP_I64(a); ... <call> }": each
 * value is evaluated once, in order, by an assignment (valid C89 and C++);
 * the array's name has the file's prefix v (rw_local): a value naming the
 * program's own pomp_v_ read the array's address. */
static char *values_then(const struct name_values *nv, const char *call, const char *v)
{
    if (nv->n == 0)
        return xstrdup(call);
    struct strbuf b = {0};
    sb_printf(&b, "{ POMP_Int64 %sv_[%zu];", v, nv->n);
    for (size_t i = 0; i < nv->n; i++)
        sb_printf(&b, " %sv_[%zu] = POMP_I64((%s));", v, i, nv->values[i]);
    sb_printf(&b, " %s }", call);
    return b.s;
}

/* The pragma gives way to code on its own line(s); a pragma continued over
 * several lines is followed by #line so the lines after it keep their numbers. */
static void replace_pragma_anchored(struct pomp_directives *pd, const struct pragma *p, char *code,
                                    unsigned anchor)
{
    const struct source *s = rw_source(pd->w);
    struct strbuf b = {0};
    sb_add(&b, code);
    free(code);
    unsigned first = source_line(s, p->start), last = source_line(s, p->end);
    if (!p->is_operator && last != first) {
        rw_line_directive(&b, pd->w, last + 1);
        b.s[--b.len] = '\0'; /* the pragma's own newline ends the #line */
    }
    rw_edit_anchored(pd->w, anchor, p->start, p->end - p->start, 2 * p->depth + 1, b.s);
}

static void replace_pragma(struct pomp_directives *pd, const struct pragma *p, char *code)
{
    replace_pragma_anchored(pd, p, code, p->start);
}

static int pragma_is_omp(const struct pragma *q)
{
    const char *t = q->text;
    while (*t == ' ' || *t == '\t')
        t++;
    return strncmp(t, "omp", 3) == 0 && !(t[3] == '_' || (t[3] >= 'a' && t[3] <= 'z') ||
                                           (t[3] >= 'A' && t[3] <= 'Z') || (t[3] >= '0' && t[3] <= '9'));
}

/* An OpenMP directive that applies to the statement after it: any but the
 * stand-alone ones (barrier, taskwait, flush, ...), after which a POMP
 * directive is the next statement, not the directive's. Named one by one:
 * a directive pomp passes through (metadirective, unroll, tile, dispatch)
 * takes a statement too, and a POMP call as its statement changed the
 * program (a metadirective's parallel region ran the call, its block ran
 * serially after). */
static int omp_takes_statement(const struct pragma *q)
{
    static const char *const standalone[] = {
        "barrier", "taskwait", "taskyield", "flush", "cancel", "cancellation point",
        "target update", "target enter data", "target exit data", "depobj", "error",
        "nothing", "interop", "scan", NULL};
    if (!pragma_is_omp(q))
        return 0;
    struct parsed px;
    parse_pragma(q, &px);
    int takes = 1;
    for (const char *const *n = standalone; px.ok && *n; n++)
        takes &= strcmp(px.d.name, *n) != 0;
    /* the doacross form of ordered is stand-alone too */
    if (px.ok && strcmp(px.d.name, "ordered") == 0 &&
        (directive_clause(&px.d, "depend") || directive_clause(&px.d, "doacross")))
        takes = 0;
    unparse_pragma(&px);
    return takes;
}

static int opens_block(const struct source *s, const struct pragma *p);

/* Whether the code after p, past blanks, comments and directive lines, is a
 * case or default label. */
static int before_label(const struct source *s, const struct pragma *p)
{
    const char *t = s->text;
    size_t i = p->end;
    while (i < s->size) {
        if (strchr(" \t\n\r\f\v", t[i]))
            i++;
        else if (t[i] == '\\' && i + 1 < s->size && t[i + 1] == '\n')
            i += 2;
        else if (t[i] == '#')
            while (i < s->size && !(t[i] == '\n' && t[i - 1] != '\\'))
                i++;
        else if (skip_comment(t, s->size, &i) != 1)
            break;
    }
    size_t n = strspn(t + i, "abcdefghijklmnopqrstuvwxyz_0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ");
    return (n == 4 && strncmp(t + i, "case", 4) == 0) || (n == 7 && strncmp(t + i, "default", 7) == 0);
}

/* Directives that become statements must stand where statements do: in a
 * function body, and not as the statement an OpenMP directive applies to. */
static int check_placement(const struct pomp_directives *pd, const struct pragma *p,
                           const char *what)
{
    const struct source *s = rw_source(pd->w);
    if (source_ast_function_at(&s->ast, p->start) < 0)
        return error_at(pd, p, AT_PRAGMA, xasprintf("'#pragma pomp %s' must be inside a function body", what));
    /* a plain compiler ignores the directive: the statement below it is the
     * if's (the call pomp wrote took its place, and the program changed: a
     * return guarded by the if ran always; a probe) */
    const struct source_substatement *sub = source_ast_substatement_at(&s->ast, p->start);
    if (sub)
        return error_at(pd, p, AT_PRAGMA,
                        xasprintf("'#pragma pomp %s' stands where the '%s' on line %u expects its "
                                  "statement: as a call it would become that statement, and the "
                                  "one below it would no longer be the '%s''s; put braces around "
                                  "the directive and that statement",
                                  what, sub->keyword, source_line(s, sub->owner_start),
                                  sub->keyword));
    /* between a switch's '{' and its first label: a call there never runs
     * (an inst begin so left every end unmatched, said only at run time) */
    if (opens_block(s, p) && before_label(s, p))
        return error_at(pd, p, AT_PRAGMA,
                        xasprintf("'#pragma pomp %s' stands before the first label of a switch, "
                                  "where no code runs; put it before the switch or after the label",
                                  what));
    for (size_t i = 0; i < s->npragmas; i++) {
        const struct pragma *q = &s->pragmas[i];
        if (q != p && q->has_stmt && q->stmt_is_pragma && q->stmt_start == p->start &&
            omp_takes_statement(q))
            return error_at(pd, p, AT_PRAGMA,
                            xasprintf("'#pragma pomp %s' cannot be the statement of the pragma on "
                                      "line %u; put it inside a block",
                                      what, source_line(s, q->start)));
    }
    return 0;
}

/* Whether p's line comes right after a block's '{', past blanks, comments
 * and other directive lines: a declaration may stand there in every C, also
 * before the block's own declarations. (A '{' in a comment between them
 * makes it no: a statement, as elsewhere.) */
static int opens_block(const struct source *s, const struct pragma *p)
{
    const char *brace = memrchr(s->text, '{', p->line_start);
    return brace && text_only_blanks_between(s->text, s->size, (size_t)(brace - s->text) + 1, p->line_start, 1);
}

/* ---- user regions ---- */

/* Why a directive at p gets no call (device code, a simd-like loop's body:
 * code that may run on a device, or where a call is not allowed), said once
 * per directive; NULL: it gets its call. A user region in a target region
 * broke the offloading build (its calls' handles undefined in the device
 * link; a probe). */
static const char *no_call_reason(const struct pomp_directives *pd, const struct pragma *p)
{
    struct context cx = context_of(pd->w, p);
    if (cx.skip)
        return cx.skip;
    /* its parts may run on two threads, each measured apart by the runtime's
     * events, as its block's constructs are (a region in it made two nesting
     * errors per execution on libomp; a probe) */
    if (cx.in_migrating_task)
        return "in the body of an untied task that may resume on another thread, whose parts the "
               "runtime's events measure";
    return NULL;
}

static const char *no_call_here(struct pomp_directives *pd, const struct pragma *p,
                                const char *what)
{
    const char *why = no_call_reason(pd, p);
    if (why)
        rw_diag(pd->w, p->start, "note", "'#pragma pomp %s' left alone, not measured: %s", what,
                why);
    return why;
}

static int region_begin(struct pomp_directives *pd, const struct pragma *p,
                        const struct directive *d, int with_values)
{
    struct name_values nv;
    char *what = xasprintf("%s %s", d->items[0].word, d->items[1].word);
    int rc = check_placement(pd, p, what);
    if (rc != 0 || parse_name_values(pd, p, d, 1, with_values, &nv) != 0) {
        free(what);
        return -1;
    }
    const struct source *s = rw_source(pd->w);
    struct open_region r = {.name = nv.name, .begin = p,
                            .function = source_ast_function_at(&s->ast, p->start)};
    nv.name = NULL;
    r.begin_values = nv.joined ? xstrdup(nv.joined) : NULL;
    r.region = rw_region(pd->w, user_ctc(pd, "userregion", p, p, r.name, r.begin_values, NULL, NULL));
    r.emitted = !no_call_here(pd, p, what) &&
                inst_levels_keeps(pd->levels, p->start,
                                  nv.n ? "User_region_begin_values" : "User_region_begin");
    const char *v = rw_local(pd->w);
    /* right after a block's '{' in C, a declaration: the block's own
     * declarations after it are not ones after a statement
     * (-Wdeclaration-after-statement warned, and with -Werror or -std=c89
     * -pedantic-errors the file fell back uninstrumented; a probe) */
    int declaration = !nv.n && !rw_options(pd->w)->cplusplus && opens_block(s, p);
    char *call = nv.n ? xasprintf("POMP_User_region_begin_values(pomp_h_(%u), POMP_TID_, %zu, "
                                  "%sv_, pomp_c_(%u));",
                                  r.region, nv.n, v, r.region)
                 : declaration
                     ? xasprintf("POMP_Int32 pomp_ub%u_ __attribute__((__unused__)) = "
                                 "POMP_User_region_begin(pomp_h_(%u), POMP_TID_, pomp_c_(%u));",
                                 r.region, r.region, r.region)
                     : xasprintf("POMP_User_region_begin(pomp_h_(%u), POMP_TID_, pomp_c_(%u));",
                                 r.region, r.region);
    replace_pragma(pd, p, r.emitted ? values_then(&nv, call, v) : xstrdup(""));
    free(call);
    free(what);
    name_values_free(&nv);
    pd->open = xrealloc(pd->open, (pd->nopen + 1) * sizeof *pd->open);
    pd->open[pd->nopen++] = r;
    rw_note(pd->w, p->start, "user region '%s' begins (handle %u)", r.name, r.region);
    return 0;
}

/* The region an end or altend names: the innermost open one, or, for an
 * altend right after another altend, the region around the one that ended.
 * NULL after an error said at p. */
static struct open_region *region_to_end(struct pomp_directives *pd, const struct pragma *p,
                                         const char *what, const char *name, size_t chained)
{
    if (pd->nopen == 0) {
        error_at(pd, p, AT_PRAGMA, xasprintf("'%s(%s)' without a region '%s' open", what, name, name));
        return NULL;
    }
    const struct source *s = rw_source(pd->w);
    char *msg = NULL;
    if (chained) { /* right after an altend: the region around the one it ended */
        struct open_region *around = chained > 1 ? &pd->open[chained - 2] : NULL;
        if (around && strcmp(around->name, name) == 0)
            return around; /* (the same function: the run's first was checked) */
        int again = 0;
        for (size_t i = chained - 1; i < pd->nopen; i++)
            again |= strcmp(pd->open[i].name, name) == 0;
        if (again)
            msg = xasprintf("'%s(%s)' ends region '%s' a second time in this run of altends", what,
                            name, name);
        else if (around)
            msg = xasprintf("'%s(%s)' does not go on with the run of altends before it: after "
                            "region '%s' the next to end is '%s' (line %u), the region around it",
                            what, name, pd->open[chained - 1].name, around->name,
                            source_line(s, around->begin->start));
        else
            msg = xasprintf("'%s(%s)' after the run of altends before it ended the outermost open "
                            "region '%s'",
                            what, name, pd->open[0].name);
        error_at(pd, p, AT_PRAGMA, msg);
        /* the run goes on as if without it: one error, not one per altend after it */
        pd->altend_depth = chained;
        pd->altend_end = p->end;
        return NULL;
    }
    struct open_region *top = &pd->open[pd->nopen - 1];
    if (top->function != source_ast_function_at(&s->ast, p->start)) {
        msg = xasprintf("'%s(%s)' is not in the function where region '%s' began (line %u)", what,
                        name, top->name, source_line(s, top->begin->start));
    } else if (strcmp(top->name, name) != 0) {
        int names_outer = 0;
        for (size_t i = 0; i + 1 < pd->nopen; i++)
            names_outer |= strcmp(pd->open[i].name, name) == 0;
        if (names_outer && strcmp(what, "inst altend") == 0)
            msg = xasprintf("'%s(%s)' while region '%s' (line %u) is open inside it; an early exit "
                            "out of nested regions ends each, innermost first: put 'inst "
                            "altend(%s)' right before this one",
                            what, name, top->name, source_line(s, top->begin->start), top->name);
        else
            msg = xasprintf("'%s(%s)' does not match the open region '%s' (line %u); user "
                            "regions nest and end in reverse order",
                            what, name, top->name, source_line(s, top->begin->start));
    }
    if (msg) {
        error_at(pd, p, AT_PRAGMA, msg);
        return NULL;
    }
    return top;
}

/* inst end / userregion stop (closing) and inst altend (an early exit: the
 * region stays open for the directives that follow). */
static int region_end(struct pomp_directives *pd, const struct pragma *p, const struct directive *d,
                      int with_values, int closes, size_t chained)
{
    struct name_values nv;
    char *what = xasprintf("%s %s", d->items[0].word, d->items[1].word);
    int rc = check_placement(pd, p, what);
    struct open_region *top = NULL;
    if (rc == 0 && parse_name_values(pd, p, d, 1, with_values, &nv) == 0) {
        top = region_to_end(pd, p, what, nv.name, closes ? 0 : chained);
        if (!top)
            name_values_free(&nv);
    }
    const char *no_call = top && top->emitted ? no_call_reason(pd, p) : NULL;
    if (no_call) {
        error_at(pd, p, AT_PRAGMA,
                 xasprintf("'%s(%s)' gets no call where it stands (%s), where its region began "
                           "outside (line %u): regions end where they begin",
                           what, top->name, no_call,
                           source_line(rw_source(pd->w), top->begin->start)));
        name_values_free(&nv);
        top = NULL;
    }
    free(what);
    if (!top)
        return -1;
    const char *v = rw_local(pd->w);
    char *call = nv.n ? xasprintf("POMP_User_region_end_values((*pomp_h_(%u)), POMP_TID_, %zu, "
                                  "%sv_);",
                                  top->region, nv.n, v)
                      : xasprintf("POMP_User_region_end((*pomp_h_(%u)), POMP_TID_);", top->region);
    /* the level at the region's begin decides about its end too */
    replace_pragma_anchored(pd, p, top->emitted ? values_then(&nv, call, v) : xstrdup(""),
                            top->begin->start);
    free(call);
    if (closes) {
        rw_region_set_ctc(pd->w, top->region,
                          user_ctc(pd, "userregion", top->begin, p, top->name, top->begin_values,
                                   nv.joined, NULL));
        open_region_free(top);
        pd->nopen--;
    } else {
        pd->altend_depth = (size_t)(top - pd->open) + 1;
        pd->altend_end = p->end;
    }
    name_values_free(&nv);
    return 0;
}

static int user_event(struct pomp_directives *pd, const struct pragma *p, const struct directive *d)
{
    struct name_values nv;
    if (check_placement(pd, p, "userregion event") != 0 ||
        parse_name_values(pd, p, d, 1, 1, &nv) != 0)
        return -1;
    unsigned r = rw_region(pd->w, user_ctc(pd, "userevent", p, p, nv.name, NULL, NULL, nv.joined));
    const char *routine = nv.n ? "User_event_values" : "User_event";
    const char *v = rw_local(pd->w);
    char *call = nv.n ? xasprintf("POMP_User_event_values(pomp_h_(%u), POMP_TID_, %zu, %sv_, "
                                  "pomp_c_(%u));",
                                  r, nv.n, v, r)
                      : xasprintf("POMP_User_event(pomp_h_(%u), POMP_TID_, pomp_c_(%u));", r, r);
    replace_pragma(pd, p,
                   !no_call_here(pd, p, "userregion event") &&
                           inst_levels_keeps(pd->levels, p->start, routine)
                       ? values_then(&nv, call, v)
                       : xstrdup(""));
    free(call);
    name_values_free(&nv);
    return 0;
}

/* ---- library control (§3.6) ---- */

static int control(struct pomp_directives *pd, const struct pragma *p, const char *what,
                   const char *routine)
{
    char *where = xasprintf("inst %s", what);
    int rc = check_placement(pd, p, where);
    const char *skip = rc == 0 ? no_call_here(pd, p, where) : NULL;
    free(where);
    if (rc != 0)
        return -1;
    replace_pragma(pd, p, skip ? xstrdup("") : xasprintf("(void)POMP_%s();", routine));
    return 0;
}

/* ---- dispatch ---- */

static int word_is(const struct directive *d, size_t i, const char *w)
{
    return i < d->nitems && strcasecmp(d->items[i].word, w) == 0;
}

static int only_words(struct pomp_directives *pd, const struct pragma *p, const struct directive *d,
                      size_t n)
{
    for (size_t i = 0; i < d->nitems; i++) {
        if (i >= n)
            return item_error(pd, p, d, i, xasprintf("unexpected '%s'", d->items[i].word));
        if (d->items[i].arg)
            return item_error(pd, p, d, i,
                              xasprintf("'%s' takes no argument", d->items[i].word));
    }
    return 0;
}

static int inst_directive(struct pomp_directives *pd, const struct pragma *p,
                          const struct directive *d, size_t chained)
{
    static const struct {
        const char *word, *routine;
    } controls[] = {{"init", "Init"}, {"finalize", "Finalize"}, {"on", "On"}, {"off", "Off"}};
    enum inst_group g;
    if (d->nitems < 2)
        return item_error(pd, p, d, 0,
                          xstrdup("'#pragma pomp inst' needs begin(name), end(name), altend(name), "
                                  "init, finalize, on, off, or '<group> <level> [file]'"));
    for (size_t i = 0; i < sizeof controls / sizeof *controls; i++)
        if (word_is(d, 1, controls[i].word))
            return only_words(pd, p, d, 2) ? -1 : control(pd, p, d->items[1].word, controls[i].routine);
    if (word_is(d, 1, "begin") || word_is(d, 1, "end") || word_is(d, 1, "altend")) {
        if (d->nitems > 2)
            return item_error(pd, p, d, 2, xasprintf("unexpected '%s'", d->items[2].word));
        if (word_is(d, 1, "begin"))
            return region_begin(pd, p, d, 0);
        return region_end(pd, p, d, 0, word_is(d, 1, "end"), chained);
    }
    if (inst_group_parse(d->items[1].word, &g)) {
        if (inst_levels_directive(pd->levels, pd->w, p, d) != 0)
            return -1;
        replace_pragma(pd, p, xstrdup(""));
        return 0;
    }
    return item_error(pd, p, d, 1,
                      xasprintf("unknown '#pragma pomp inst %s' (expected begin, end, altend, init, "
                                "finalize, on, off, or a group: parallel, loop, workshare, sync, "
                                "user, runtime, task, target)",
                                d->items[1].word));
}

static int userregion_directive(struct pomp_directives *pd, const struct pragma *p,
                                const struct directive *d)
{
    if (d->nitems != 2 || !(word_is(d, 1, "start") || word_is(d, 1, "stop") ||
                            word_is(d, 1, "event")))
        return item_error(pd, p, d, d->nitems > 2 ? 2 : d->nitems - 1,
                          xstrdup("'#pragma pomp userregion' needs start(name [: values]), "
                                  "stop(name [: values]) or event(name [: values])"));
    if (word_is(d, 1, "start"))
        return region_begin(pd, p, d, 1);
    if (word_is(d, 1, "stop"))
        return region_end(pd, p, d, 1, 1, 0);
    return user_event(pd, p, d);
}

/* Returns 0, or -1 after printing a file:line:col error. */
static int pomp_directives_handle(void *state, const struct pragma *p, const struct directive *d)
{
    struct pomp_directives *pd = state;
    size_t chained = pd->altend_depth &&
                             text_only_blanks_between(rw_source(pd->w)->text, rw_source(pd->w)->size, pd->altend_end, p->start, 0)
                         ? pd->altend_depth
                         : 0;
    pd->altend_depth = 0;
    if (word_is(d, 0, "inst"))
        return inst_directive(pd, p, d, chained);
    if (word_is(d, 0, "userregion"))
        return userregion_directive(pd, p, d);
    if (word_is(d, 0, "noinstrument") || word_is(d, 0, "instrument")) {
        if (only_words(pd, p, d, 1) != 0)
            return -1;
        inst_levels_switch(pd->levels, p, word_is(d, 0, "instrument"), rw_source(pd->w)->size);
        replace_pragma(pd, p, xstrdup(""));
        return 0;
    }
    /* like an unknown omp directive: the compiler ignores it, so do we */
    rw_diag(pd->w, text_offset(p, d->nitems ? (size_t)d->items[0].column : 0), "warning",
            "unknown POMP directive '%s'; left alone", d->nitems ? d->items[0].word : "");
    return 0;
}

/* After the last pragma: user regions left open are errors. */
static int pomp_directives_finish(void *state)
{
    const struct pomp_directives *pd = state;
    int rc = 0;
    for (size_t i = 0; i < pd->nopen; i++)
        rc = error_at(pd, pd->open[i].begin, AT_PRAGMA,
                      xasprintf("user region '%s' is never ended (no 'inst end(%s)' or "
                                "'userregion stop(%s)' follows)",
                                pd->open[i].name, pd->open[i].name, pd->open[i].name));
    return rc;
}

const struct module pomp_directives_module = {
    .name = "pomp_directives",
    .begin = pomp_directives_begin,
    .pomp_pragma = pomp_directives_handle,
    .finish = pomp_directives_finish,
    .end = pomp_directives_free,
};
