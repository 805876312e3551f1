/* What each OpenMP directive becomes (docs/instrumentation.md has the code).
 *
 * A construct is instrumented as one or more leaves: a combined construct that
 * can be split ("parallel for") becomes its leaves, each with its own region
 * and events; a composite or device construct stays whole. Each leaf gives up
 * to four pieces of code: before its pragma, at the start of its block, at the
 * end of its block, and after the construct. Code is never put where it could
 * run on a device, nor inside simd-like loops (context.c decides where). */
#include "rewrite.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "combined.h"
#include "constructs.h"
#include "context.h"
#include "loops.h"
#include "rewriter.h"
#include "source_scan.h"

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
    int task_id;               /* a task whose creation hands its id to its execution */
    int guard_in;              /* closing events in its block may be skipped by cancellation */
    const char *tid_out;       /* thread id expression around the leaf (enter, exit) */
    const char *tid_in;        /* and inside its block (begin, end) */
    const char *local;         /* prefix of the variables it declares (rewrite.h, local_prefix) */
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
 * "{ POMP_Handle_t *pomp_<var>_<r> __attribute__((__cleanup__(pomp_guard_<close>_tid))) = (OPEN,
 * pomp_h_(r)); " and "} ". The guard gets the handle's address, not the index,
 * so one set of guards serves the file and the headers instrumented with it. */
static void open_close(struct rewriter *w, struct strbuf *open, struct strbuf *close,
                       const char *open_call, const char *close_routine, const char *var,
                       unsigned r, int guarded, const char *tid)
{
    if (guarded) {
        w->uses_guards = 1;
        sb_printf(open, "{ POMP_Handle_t *%s%s_%u __attribute__((__cleanup__(pomp_guard_%s_%s))) = "
                        "((void)(%s), " H "); ",
                  w->local, var, r, close_routine, strcmp(tid, "0") == 0 ? "0" : "tid", open_call, r);
        sb_add(close, "} ");
    } else {
        sb_printf(open, "{ %s; ", open_call);
        sb_printf(close, "POMP_%s(" V ", %s); } ", close_routine, r, tid);
    }
}

/* Where a clause argument's modifiers end: just after the first top-level
 * colon (not one of "::") when all before it are words ("parallel:",
 * "strict:", "monotonic, simd:"), else 0: an expression's own colon
 * (a ? b : c) is none. */
static size_t modifiers_end(const char *arg)
{
    int depth = 0;
    for (const char *c = arg; *c; c++) {
        if (*c == '(' || *c == '[')
            depth++;
        else if (*c == ')' || *c == ']')
            depth--;
        else if (*c == ':' && depth == 0 && c[1] != ':' && !(c > arg && c[-1] == ':')) {
            size_t n = (size_t)(c - arg);
            if (strspn(arg, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_ \t,") != n ||
                strspn(arg, " \t") == n)
                return 0;
            return n + 1;
        }
    }
    return 0;
}

/* A clause argument split into its leading modifiers ("parallel:") and its
 * expression (sep ':'), or into its kind ("guided,", "monotonic: dynamic,")
 * and the expression after it (sep ','): at the first top-level comma after
 * the modifiers. head keeps the separator (NULL: none). An expression's own
 * colons and commas (a ? b : c; P<1, 2>::v in C++) are no cuts: the last one
 * was, and if(n < 5 ? 1 : 0) became if(0), the region run by one thread, and
 * schedule(guided, P<1, 1>::v)'s chunk " 1>::v", which did not compile
 * (probes). */
static void split_arg(const char *arg, char sep, char **head, char **expr)
{
    size_t from = modifiers_end(arg);
    const char *cut = from ? arg + from - 1 : NULL;
    if (sep == ',') {
        int depth = 0;
        cut = NULL;
        for (const char *c = arg + from; *c && !cut; c++) {
            if (*c == '(' || *c == '[')
                depth++;
            else if (*c == ')' || *c == ']')
                depth--;
            else if (*c == ',' && depth == 0)
                cut = c;
        }
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
        } else if (is_ident_char(*e)) {
            const char *w = e;
            while (is_ident_char(*e))
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

/* An integer literal that an int holds (blanks, parentheses, a sign and
 * suffixes allowed): its value in *v. A num_threads or if clause with one
 * stays as written, so that the compiler's own checks of the clause still see
 * the constant (a probe: num_threads(-2), which GCC warns about and runs with
 * one thread, was copied to a variable and asked libgomp for 4 billion). */
static int int_literal(const char *arg, long long *v)
{
    const char *e = arg;
    size_t open = 0;
    while (*e == ' ' || *e == '\t' || *e == '(')
        open += *e++ == '(';
    int negative = *e == '-';
    if (*e == '-' || *e == '+')
        e++;
    if (*e < '0' || *e > '9')
        return 0;
    char *end;
    errno = 0;
    unsigned long long u = strtoull(e, &end, 0);
    if (errno || u > 2147483648ull || (u == 2147483648ull && !negative))
        return 0;
    end += strspn(end, "uUlL");
    for (; *end; end++)
        if (*end == ')' && open)
            open--;
        else if (*end != ' ' && *end != '\t')
            return 0;
    if (open)
        return 0;
    *v = negative ? -(long long)u : (long long)u;
    return 1;
}

/* The clauses of an inner leaf whose expressions a default clause on an
 * outer leaf has evaluated before the construct (leaf_clauses). */
static const char *const hoisted_clauses[] = {"filter", "grainsize", "num_tasks", "final",
                                              "priority", "if", NULL};

/* The words of a clause expression: whether it calls anything (a name
 * followed by '(': a function, a function-like macro, sizeof) and whether it
 * names anything else (a variable, an object-like macro, a type in a cast).
 * Numbers and literals are neither. */
struct expression_words {
    int calls, names;
};

static struct expression_words expression_words(const char *expr)
{
    struct expression_words w = {0, 0};
    for (const char *e = expr; *e;) {
        if (*e == '"' || *e == '\'') { /* a literal: to its end */
            char q = *e++;
            while (*e && *e != q)
                e += e[0] == '\\' && e[1] ? 2 : 1;
            e += *e != '\0';
            continue;
        }
        if (!is_ident_char(*e)) {
            e++;
            continue;
        }
        const char *word = e;
        while (is_ident_char(*e))
            e++;
        if (*word >= '0' && *word <= '9')
            continue; /* a number (its suffix, exponent) */
        const char *next = e;
        while (*next == ' ' || *next == '\t')
            next++;
        if (*next == '(')
            w.calls = 1;
        else
            w.names = 1;
    }
    return w;
}

/* Whether a leaf outside leaf i has a default clause. */
static int outer_default(const struct chain *ch, size_t i)
{
    for (size_t o = 0; o < i; o++)
        if (directive_clause(ch->leaf[o].d, "default"))
            return 1;
    return 0;
}

/* An inner leaf's expression that a default clause on an outer leaf would
 * have evaluated before the construct, once, where it names something (a
 * variable, which default(none) would want listed) and calls something (a
 * side effect, or a value that depends on the thread): the construct stays
 * whole. Hoisted, filter(omp_get_num_threads() - 1) on a split parallel
 * masked default(none) was evaluated outside the team, and another thread
 * ran the masked block (a probe). Returns the clause's name, or NULL. */
static const char *unhoistable_clause(const struct chain *ch)
{
    for (size_t i = 1; i < ch->n; i++) {
        for (const char *const *h = hoisted_clauses; outer_default(ch, i) && *h; h++) {
            const struct directive_item *c = directive_clause(ch->leaf[i].d, *h);
            if (!c || !c->arg)
                continue;
            char *head, *expr;
            split_arg(c->arg, ':', &head, &expr);
            struct expression_words words = expression_words(expr);
            free(head);
            free(expr);
            if (words.calls && words.names)
                return *h;
        }
    }
    return NULL;
}

/* expr, a clause's expression in #pragma p's text, as the code before the
 * pragma evaluates it: at the line and column it was written at, after a
 * #line, also where a backslash continued the pragma (__LINE__ and assert()
 * in it say the line they were written on, and a warning points at it; it
 * read the pragma's first line, the program printed 6 for 7, and warnings
 * were at column 179 behind the copy's own code; probes). The #line after
 * the code before the pragma restores the numbering. A splice inside a word
 * or literal is kept joined. */
/* Where the argument of clause word is in pragma text: arg, right after
 * "word(" (blanks allowed), not the same text in another clause; or NULL. */
static const char *clause_arg_in(const char *text, const char *word, const char *arg)
{
    size_t n = strlen(word);
    for (const char *at = strstr(text, arg); at; at = strstr(at + 1, arg)) {
        const char *b = at;
        while (b > text && (b[-1] == ' ' || b[-1] == '\t'))
            b--;
        if (b == text || b[-1] != '(')
            continue;
        for (b--; b > text && (b[-1] == ' ' || b[-1] == '\t'); b--)
            ;
        if ((size_t)(b - text) >= n && strncmp(b - n, word, n) == 0 &&
            (b - n == text || !is_ident_char(b[-(ptrdiff_t)n - 1])))
            return at;
    }
    return NULL;
}

static char *placed_expression(const struct source *src, const struct pragma *p, const char *word,
                               const char *arg, const char *expr)
{
    const char *at = p->is_operator || p->macro ? NULL : clause_arg_in(p->text, word, arg);
    if (!at || strlen(expr) > strlen(arg))
        return xstrdup(expr);
    size_t from = (size_t)(at - p->text) + strlen(arg) - strlen(expr), len = strlen(expr);
    size_t lead = strspn(expr, " \t"); /* (the blanks before a continuation) */
    if (lead == len)
        return xstrdup(expr);
    unsigned first = source_line(src, p->text_offsets[from + lead]);
    if (first < source_line(src, p->start) || p->text_offsets[from + len - 1] >= p->end ||
        p->text_offsets[from] < p->start)
        return xstrdup(expr);
    const char *file;
    unsigned presumed;
    source_spelled_of_line(src, first, &file, &presumed);
    struct strbuf b = {0};
    sb_printf(&b, "\n#line %u \"", presumed);
    sb_add_c_escaped(&b, file);
    sb_add(&b, "\"\n");
    /* at its column too: the line's text before it, as blanks */
    for (unsigned o = src->line_offsets[first - 1]; o < p->text_offsets[from + lead]; o++)
        sb_add(&b, src->text[o] == '\t' ? "\t" : " ");
    unsigned line = first;
    char quote = 0;
    for (size_t k = lead; k < len; k++) {
        char c = expr[k];
        unsigned l = source_line(src, p->text_offsets[from + k]);
        int blank = c == ' ' || c == '\t' ||
                    (k > lead && (expr[k - 1] == ' ' || expr[k - 1] == '\t'));
        for (; l > line && !quote && blank; line++)
            sb_add(&b, "\n");
        if (quote && c == '\\' && k + 1 < len)
            sb_addn(&b, &expr[k++], 1);
        else if (c == '"' || c == '\'')
            quote = quote == c ? 0 : quote ? quote : c;
        sb_addn(&b, &expr[k], 1);
    }
    return b.s;
}

/* Declares a temporary holding expr (evaluated once, before the construct);
 * returns its name. truth: the expression's truth value (if, final). */
/* how: 0 the value, 1 its truth, 2 the value converted as the clause
 * converts it, without a word: the runtime takes num_threads(v.size()) or a
 * long as its int silently, so the copy's conversion must not warn either
 * (-Wconversion, -Wsign-conversion, clang's -Wshorten-64-to-32: with -Werror
 * the file fell back to a plain compile). No cast: -Wuseless-cast. */
static char *temporary(const struct source *src, struct chain *ch, struct leaf *lf,
                       const char *ctype, const char *what, const char *arg, const char *expr_text,
                       int how)
{
    char *name = xasprintf("%s%s_%u", lf->local, what, lf->r);
    char *expr = placed_expression(src, ch->p, what, arg, expr_text);
    if (how == 2)
        sb_printf(&ch->prologue,
                  "_Pragma(\"GCC diagnostic push\") "
                  "_Pragma(\"GCC diagnostic ignored \\\"-Wconversion\\\"\") "
                  "_Pragma(\"GCC diagnostic ignored \\\"-Wsign-conversion\\\"\") "
                  "%s %s = (%s); _Pragma(\"GCC diagnostic pop\") ",
                  ctype, name, expr);
    else
        sb_printf(&ch->prologue, how ? "%s %s = (%s) ? 1 : 0; " : "%s %s = (%s); ", ctype, name,
                  expr);
    sb_printf(&lf->temps, "%s%s", lf->temps.len ? ", " : "", name);
    free(expr);
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

/* An int64 argument as the inserted call passes it: a bare integer literal
 * (an int) cast to POMP_Int64, so that -Wtraditional-conversion ("different
 * width due to prototype") finds nothing in the inserted code; any other
 * value the instrumenter writes is an int64 expression already. */
static char *int64_arg(const char *value)
{
    const char *digits = value + (value[0] == '-');
    int literal = *digits != '\0' && strspn(digits, "0123456789") == strlen(digits);
    return literal ? xasprintf("POMP_I64((%s))", value) : xstrdup(value);
}

/* RTC values of the loop-like enter events (seed 002 §3.3): "chunk, init, final, incr",
 * with the proposal's "not available" values (-1, 0, 0, 0) where pomp cannot know them. */
static char *loop_rtc(const struct pragma *p, const char *chunk, const struct directive *d)
{
    const struct loop_header *l = p->loop;
    int range = l && associated_loops(d) == 1; /* a collapsed nest has no single range */
    char *v[4] = {int64_arg(chunk ? chunk : "-1"), int64_arg(range && l->init ? l->init : "0"),
                  int64_arg(range && l->final ? l->final : "0"),
                  int64_arg(range && l->incr ? l->incr : "0")};
    char *r = xasprintf("%s, %s, %s, %s", v[0], v[1], v[2], v[3]);
    for (int i = 0; i < 4; i++)
        free(v[i]);
    return r;
}

/* Does d have a clause that makes variables private (default(private) and
 * default(firstprivate) included)? GCC's private copy of a variable is
 * addressable where the variable is, anywhere in the function or file (a
 * review: a for reduction(+:s) with &s elsewhere in the function kept its
 * barrier in the plain build, and lost it in pomp's). */
static int privatizes(const struct directive *d)
{
    static const char *const privatizing[] = {"private", "firstprivate", "lastprivate", "linear",
                                              "reduction", "in_reduction", "copyin", "allocate"};
    for (size_t c = 0; c < d->nclauses; c++) {
        const char *word = d->clauses[c].word, *arg = d->clauses[c].arg;
        for (size_t k = 0; k < sizeof privatizing / sizeof *privatizing; k++)
            if (strcmp(word, privatizing[k]) == 0)
                return 1;
        if (strcmp(word, "default") == 0 && arg && strstr(arg, "private"))
            return 1;
    }
    return 0;
}

/* Do the loops a for construct is associated with declare their own
 * variables (for (int i = ...))? One declared before is made private, and
 * addressable where the variable is (privatizes). */
static int loops_declare_their_variables(const struct pragma *q, const struct directive *d)
{
    const struct loop_header *l = q->loop;
    for (long k = associated_loops(d); k > 0; k--, l = l->inner)
        if (!l || !l->var || l->var_outside)
            return 0;
    return 1;
}

static int blank_or_comment(const char *text, unsigned from, unsigned to, int pragmas);

/* Does GCC drop the barrier of worksharing construct q (directive d: a for
 * or a single), the last statement of a parallel region, whose own barrier
 * follows? Only where it certainly does (addressable.c); pomp's exit call
 * after q hides from GCC that q ends the region, so q gets the nowait GCC
 * would give it. (A sections construct keeps its barrier: its sections are
 * pragmas inside it, which this does not allow.) */
static int gcc_drops_barrier(const struct rewriter *w, const struct pragma *q,
                             const struct directive *d)
{
    if (!w->o->gcc || w->o->cplusplus || w->o->explicit_barriers || !q->has_stmt ||
        (strcmp(d->name, "for") != 0 && strcmp(d->name, "single") != 0))
        return 0;
    const struct source *s = w->s;
    const struct pragma *par = NULL; /* the innermost statement around q */
    for (size_t i = 0; i < s->npragmas; i++)
        if (&s->pragmas[i] != q && pragma_encloses(&s->pragmas[i], q->start) &&
            (!par || s->pragmas[i].stmt_start >= par->stmt_start))
            par = &s->pragmas[i];
    /* (the statement of an if or a loop inside the region: not the region's last) */
    if (!par || !par->locals_known || par->may_address_locals ||
        (q->substatement && par->stmt_start != q->start))
        return 0;
    /* q is the whole statement, or the last of its braces */
    int last = par->stmt_end == q->stmt_end ||
               (s->text[par->stmt_start] == '{' && s->text[par->stmt_end - 1] == '}' &&
                blank_or_comment(s->text, q->stmt_end, par->stmt_end - 1, 0));
    if (!last)
        return 0;
    /* no other construct inside (a task's shared variable is addressable) */
    for (size_t i = 0; i < s->npragmas; i++)
        if (&s->pragmas[i] != par && &s->pragmas[i] != q &&
            pragma_encloses(par, s->pragmas[i].start))
            return 0;
    if (privatizes(d) || (strcmp(d->name, "for") == 0 && !loops_declare_their_variables(q, d)))
        return 0;
    struct parsed pp;
    parse_pragma(par, &pp);
    int drops = pp.ok && !privatizes(&pp.d);
    unparse_pragma(&pp);
    return drops;
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
        long long literal;
        if ((lf->k.flags & F_PARALLEL_RTC) && strcmp(word, "num_threads") == 0 &&
            !rtc->num_threads && int_literal(arg, &literal)) {
            rtc->num_threads = xasprintf("%lld", literal);
            add_clause_text(&lf->clauses, word, arg);
            continue;
        }
        if ((lf->k.flags & F_PARALLEL_RTC) && strcmp(word, "num_threads") == 0 &&
            !has_top_level(arg, ',') && !has_top_level(arg, ':')) {
            t = rtc->num_threads = temporary(src, ch, lf, "POMP_Int32", "num_threads", arg, arg, 2);
            add_clause_text(&lf->clauses, word, t);
            lf->rewritten = 1;
            continue;
        }
        if ((lf->k.flags & F_PARALLEL_RTC) && strcmp(word, "if") == 0) {
            split_arg(arg, ':', &head, &expr);
            if (!rtc->if_result && int_literal(expr, &literal)) {
                rtc->if_result = xstrdup(literal ? "1" : "0");
                add_clause_text(&lf->clauses, word, arg);
                free(head);
                free(expr);
                continue;
            }
            t = rtc->if_result = temporary(src, ch, lf, "POMP_Int32", "if", arg, expr, 1);
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
            /* (no head: the comma was the modifiers', schedule(monotonic, simd: dynamic)) */
            if (head && no_side_effects(src, expr))
                rtc->chunk = xasprintf("POMP_I64((%s))", expr);
            free(head);
            free(expr);
        }
        /* Inside a split construct with a default clause, an expression of an
         * inner leaf would need a data-sharing attribute on the outer one: it is
         * evaluated before the construct instead, as the combined form does. */
        int hoist = 0;
        for (const char *const *h = hoisted_clauses; *h && outer_default(ch, i); h++)
            hoist |= strcmp(*h, word) == 0;
        if (hoist) {
            split_arg(arg, ':', &head, &expr);
            /* naming nothing: evaluated in its leaf, as unsplit (by the team) */
            if (!expression_words(expr).names) {
                free(head);
                free(expr);
                add_clause_text(&lf->clauses, word, arg);
                continue;
            }
            int truth = strcmp(word, "final") == 0 || strcmp(word, "if") == 0;
            t = temporary(src, ch, lf, truth ? "POMP_Int32" : "POMP_Int64", word, arg, expr, truth);
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

/* A critical, or a task's creation, whose visits can be counted inline once
 * it is throttled: all events in place (no cancellation guard, not split
 * around a task's scheduling point). */
static int fast_site(const struct leaf *lf, const char *stem, int guard_after)
{
    return strcmp(lf->k.stem, stem) == 0 && !lf->no_enter_exit && !lf->migrating &&
           !lf->guard_in && !guard_after && lf->barrier_r == UINT_MAX;
}

/* ---- task ids (docs/api.md, "Task ids") ----
 *
 * A task's creation makes an id that its execution records, so that a trace
 * links the two across threads: the id goes into a variable declared before
 * the task (pomp_task_<r>, 0 until Task_enter_id sets it), which the task gets
 * as firstprivate, and Task_begin_id passes on. An untied task that may resume
 * elsewhere has no execution events, and a task created at a scheduling point
 * of one no creation events: neither gets an id. */
static int gets_task_id(const struct leaf *lf)
{
    return strcmp(lf->k.stem, "Task") == 0 && !lf->migrating && !lf->no_enter_exit;
}

/* The variable before the construct, and the clause that hands it to the task. */
static void declare_task_id(struct chain *ch, struct leaf *lf)
{
    sb_printf(&ch->prologue, "POMP_Task_id %stask_%u = 0; ", lf->local, lf->r);
    sb_printf(&lf->clauses, " firstprivate(%stask_%u)", lf->local, lf->r);
    lf->rewritten = 1;
}

/* The enter and begin calls of a construct with block: a task's with its id. */
static char *enter_call(const struct leaf *lf, const char *tid)
{
    unsigned r = lf->r;
    if (lf->task_id)
        return xasprintf("POMP_Task_enter_id(" H ", %s, &%stask_%u, " C ")", r, tid, lf->local, r,
                         r);
    return xasprintf("POMP_%s_enter(" H ", %s, " C ")", lf->k.stem, r, tid, r);
}

static char *begin_call(const struct leaf *lf, const char *tid)
{
    unsigned r = lf->r;
    if (lf->task_id)
        return xasprintf("POMP_Task_begin_id(" V ", %s, %stask_%u)", r, tid, lf->local, r);
    return xasprintf("POMP_%s_begin(" V ", %s)", lf->k.stem, r, tid);
}

/* A site counted inline (fast_site): before it, its counter's answer for this
 * visit (counted: POMP_Fast_counted, or POMP_Fast_waited for a taskwait) and
 * the enter; after it, the exit that may switch the counter on (pomplib.h,
 * POMP_<stem>_enter_fast / _exit_fast; a task's enter with its id:
 * POMP_Task_enter_id_fast). */
/* Opens the block of a site counted inline: its answer (counted(pomp_f_(k)))
 * in a variable of its own, kept for its later calls. Returns k, the site's
 * counter. */
static unsigned fast_open(struct rewriter *w, const struct leaf *lf, struct strbuf *b,
                          const char *counted)
{
    unsigned k = w->nfast++;
    /* (void): a use, so that a compile-time level that drops the calls
     * ("#pragma pomp inst sync none" above a critical) leaves no unused
     * variable (-Wunused-variable: with -Werror the file fell back to no
     * instrumentation); marked unused instead, clang warns where it is used */
    sb_printf(b, "{ int %sfc_%u = %s(pomp_f_(%u)); (void)%sfc_%u; ", lf->local, lf->r, counted, k,
              lf->local, lf->r);
    return k;
}

static void fast_enter_exit(struct rewriter *w, struct leaf *lf, const char *stem, const char *tid,
                            const char *counted)
{
    unsigned k = fast_open(w, lf, &lf->before, counted), r = lf->r;
    const char *v = lf->local;
    if (lf->task_id)
        sb_printf(&lf->before,
                  "(void)%stask_%u; POMP_Task_enter_id_fast(%sfc_%u, " H ", %s, &%stask_%u, " C "); ",
                  v, r, v, r, r, tid, v, r, r);
    else
        sb_printf(&lf->before, "POMP_%s_enter_fast(%sfc_%u, " H ", %s, " C "); ", stem, v, r, r,
                  tid, r);
    sb_printf(&lf->after, "POMP_%s_exit_fast(%sfc_%u, " V ", %s, pomp_f_(%u)); } ", stem, v, r, r,
              tid, k);
}

/* A task's execution counted inline (pomplib.h, POMP_Task_begin_id_fast):
 * its counter's answer at the begin, kept for the end, with what
 * POMP_Fast_top was before its body (POMP_Fast_task_counted). That is set
 * only where the answer is 1, and read only then; initialized all the same:
 * GCC 12 at -O1 and above lost the pairing across an atomic in the block and
 * warned it may be used uninitialized, and under -Werror the file fell back
 * to an uninstrumented build (a probe). */
static void fast_execution(struct rewriter *w, struct leaf *lf, const char *tid)
{
    unsigned k = w->nfast++, r = lf->r;
    const char *v = lf->local;
    sb_printf(&lf->block_start,
              "{ const void *%sft_%u = POMP_NULL_; int %sfe_%u = POMP_Fast_task_counted(pomp_f_(%u), &%sft_%u); "
              "(void)%sfe_%u; ",
              v, r, v, r, k, v, r, v, r);
    sb_printf(&lf->block_start, "POMP_Task_begin_id_fast(%sfe_%u, " V ", %s, %stask_%u, "
                                "pomp_f_(%u)); ", v, r, r, tid, v, r, k);
    sb_printf(&lf->block_end, "POMP_Task_end_fast(%sfe_%u, pomp_f_(%u), %sft_%u, " V ", %s); } ", v,
              r, k, v, r, r, tid);
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
    int execution_counted = 0; /* a task's execution counted inline, its creation not */
    switch (lf->k.shape) {
    case SHAPE_BLOCK:
        if (fast_site(lf, "Task", guard_after) && lf->task_id) {
            /* the creation (enter/exit) is counted inline once throttled; so is
             * the execution, inside the task, where it runs directly inside
             * an execution of a task (its own counter). Not the creation of a
             * task with dependences: an undeferred one's waits for them and
             * runs other tasks meanwhile, which, counted inline, it opened no
             * wait for: they ran directly inside the creating task, their
             * time its (a review) */
            if (!directive_clause(lf->d, "depend")) {
                fast_enter_exit(w, lf, "Task", tid, "POMP_Fast_counted");
                fast_execution(w, lf, tid_in);
                break;
            }
            execution_counted = 1;
        }
        /* a critical counted inline opens no frame: one whose block holds a
         * construct keeps its calls, so that the construct counts under it
         * (one that calls code with constructs: libpomp keeps it so once
         * those came under it, pomp_profile.c) */
        /* (an ordered block the same: its wait for its turn is a critical's
         * wait to enter) */
        if ((fast_site(lf, "Critical", guard_after) || fast_site(lf, "Ordered", guard_after)) &&
            !pragma_holds_pragmas(w->s, p)) {
            fast_enter_exit(w, lf, stem, tid, "POMP_Fast_counted");
            sb_printf(&lf->block_start, "{ POMP_%s_begin_fast(%sfc_%u, " V ", %s); ", stem,
                      lf->local, r, r, tid_in);
            sb_printf(&lf->block_end, "POMP_%s_end_fast(%sfc_%u, " V ", %s); } ", stem, lf->local,
                      r, r, tid_in);
            break;
        }
        if (!lf->no_enter_exit) {
            if (lf->k.flags & F_PARALLEL_RTC)
                call = xasprintf("POMP_Parallel_enter(" H ", %s, %s, %s, " C ")", r, tid,
                                 rtc->num_threads ? rtc->num_threads : "-1",
                                 rtc->if_result ? rtc->if_result : "1", r);
            else
                call = enter_call(lf, tid);
            close = xasprintf("%s_exit", stem);
            open_close(w, &lf->before, &exit_code, call, close, "gx", r, guard_after, tid);
            free(call);
            free(close);
        }
        if (execution_counted) {
            fast_execution(w, lf, tid_in);
        } else if (!lf->migrating) {
            call = begin_call(lf, tid_in);
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
        /* a master or masked block counted inline once throttled (pomplib.h,
         * POMP_Master_begin_fast); not one that holds a construct, which
         * counts under it (as a critical) */
        if ((fast_site(lf, "Master", guard_after) || fast_site(lf, "Masked", guard_after)) &&
            !pragma_holds_pragmas(w->s, p)) {
            unsigned k = fast_open(w, lf, &lf->block_start, "POMP_Fast_counted");
            sb_printf(&lf->block_start, "POMP_%s_begin_fast(%sfc_%u, " H ", %s, " C "); ", stem,
                      lf->local, r, r, tid_in, r);
            sb_printf(&lf->block_end, "POMP_%s_end_fast(%sfc_%u, " V ", %s, pomp_f_(%u)); } ", stem,
                      lf->local, r, r, tid_in, k);
            break;
        }
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
        /* a simd loop counted inline once throttled (pomplib.h,
         * POMP_Simd_enter_fast); not one that holds a construct (ordered
         * simd), which counts under it */
        if (fast_site(lf, "Simd", guard_after) && !pragma_holds_pragmas(w->s, p)) {
            unsigned k = fast_open(w, lf, &lf->before, "POMP_Fast_counted");
            char *values = loop_rtc(p, rtc->chunk, lf->d);
            sb_printf(&lf->before, "POMP_Simd_enter_fast(%sfc_%u, " H ", %s, %s, " C "); ",
                      lf->local, r, r, tid, values, r);
            sb_printf(&lf->after, "POMP_Simd_exit_fast(%sfc_%u, " V ", %s, pomp_f_(%u)); } ",
                      lf->local, r, r, tid, k);
            free(values);
            break;
        }
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
        /* a taskwait in a final task waits for nothing: counted inline
         * (pomplib.h, POMP_Fast_waited); not one with clauses (depend,
         * nowait: OpenMP 5.1's taskwait nowait is a task of its own) */
        if (fast_site(lf, "Taskwait", guard_after) && lf->d->nclauses == 0) {
            fast_enter_exit(w, lf, "Taskwait", tid, "POMP_Fast_waited");
            break;
        }
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
    case SHAPE_ATOMIC: /* counted inline once throttled (pomplib.h, POMP_Fast_count) */
        sb_add(&lf->before, "{");
        sb_printf(&lf->after, "POMP_%s_event_fast(" H ", %s, " C ", pomp_f_(%u)); }", stem, r, tid,
                  r, w->nfast++);
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

/* Whether [from, to) holds no statement: blanks, comments and, with pragmas,
 * #pragma lines (a pragma before the first '#pragma omp section' is no
 * section: wrapped as one, an ignored metadirective swallowed the section
 * after it, and a file the compiler rejects was built). */
static int blank_or_comment(const char *text, unsigned from, unsigned to, int pragmas)
{
    for (unsigned i = from; i < to; i++) {
        if (text[i] == ' ' || text[i] == '\t' || text[i] == '\n' || text[i] == '\r')
            continue;
        if (pragmas && text[i] == '#') {
            unsigned k = i + 1;
            while (k < to && (text[k] == ' ' || text[k] == '\t'))
                k++;
            if (k + 6 <= to && strncmp(text + k, "pragma", 6) == 0) {
                while (i < to && (text[i] != '\n' || source_newline_spliced(text, i)))
                    i++;
                continue;
            }
        }
        size_t past = i;
        int comment = skip_comment(text, to, &past);
        if (comment <= 0)
            return 0;
        i = (unsigned)past - 1; /* (a // comment's newline is seen next) */
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
        rw_diag(w, p->start, "warning",
                "'#pragma omp %s' is not instrumented: pomp finds no '{' block after it; "
                "the runtime's events still measure it",
                ch->leaf[0].d->name);
        return -1;
    }
    const struct pragma *sections[1024];
    size_t n = 0;
    for (size_t i = 0; i < w->s->npragmas && n < sizeof sections / sizeof *sections; i++) {
        const struct pragma *x = &w->s->pragmas[i];
        if (x == p || !pragma_encloses(p, x->start) || x->depth != p->depth + 1)
            continue;
        struct parsed px;
        parse_pragma(x, &px);
        if (px.ok && strcmp(px.d.name, "section") == 0)
            sections[n++] = x;
        unparse_pragma(&px);
    }
    int number = 1;
    unsigned first_at = n ? (sections[0]->is_operator ? sections[0]->start : sections[0]->line_start)
                          : p->stmt_end - 1;
    if (!blank_or_comment(text, p->stmt_start + 1, first_at, 1)) {
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
    char *iter = l->var_is_integer && l->var ? xasprintf("POMP_I64((%s))", l->var) : int64_arg("0");
    const char *tid = lf->tid_in;
    unsigned r = lf->r;
    /* the run can then tell a POMP_LOOP=Iter* level that nothing feeds it */
    region_add_attribute(w, r, "iterationEvents", "1");
    /* (void): a comma whose left side is not is clang's -Wcomma */
    char *call = xasprintf("(void)POMP_Loop_iter_event(" V ", %s, %s), POMP_Loop_iter_begin(" V ", %s, %s)",
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

/* reduction(task, ...): OpenMP allows no nowait beside it (GCC rejects it). */
static int has_task_reduction(const struct directive *d)
{
    for (size_t i = 0; i < d->nclauses; i++) {
        const char *a = d->clauses[i].arg;
        if (strcmp(d->clauses[i].word, "reduction") != 0 || !a)
            continue;
        while (*a == ' ' || *a == '\t')
            a++;
        if (strncmp(a, "task", 4) == 0 && strchr(" \t,", a[4]) && a[4])
            return 1;
    }
    return 0;
}

/* reduction(inscan, ...): the loop of a scan. */
static int has_inscan_reduction(const struct directive *d)
{
    for (size_t i = 0; i < d->nclauses; i++) {
        const char *a = d->clauses[i].arg;
        if (strcmp(d->clauses[i].word, "reduction") != 0 || !a)
            continue;
        a += strspn(a, " \t");
        if (strncmp(a, "inscan", 6) == 0 && strchr(" \t,", a[6]) && a[6])
            return 1;
    }
    return 0;
}

/* The combined taskloops clang 19 compiles otherwise than their split form:
 * [parallel] masked taskloop [simd] (no code at all: its loop never runs) and
 * parallel master taskloop [simd] (a variable the program leaves implicitly
 * shared is private to the tasks: their writes are lost). */
static int clang_keeps_taskloop_whole(const char *name)
{
    int par = strncmp(name, "parallel ", 9) == 0;
    if (par)
        name += 9;
    return strcmp(name, "masked taskloop") == 0 || strcmp(name, "masked taskloop simd") == 0 ||
           (par && (strcmp(name, "master taskloop") == 0 || strcmp(name, "master taskloop simd") == 0));
}

/* Whether d holds a loop GCC splits among the threads itself (a static
 * schedule, or none), with no call to libgomp for the loop. */
static int gcc_static_loop(const struct directive *d)
{
    if (!has_leaf(d->name, "for") && !has_leaf(d->name, "loop") && !has_leaf(d->name, "distribute"))
        return 0;
    const struct directive_item *sched = directive_clause(d, "schedule");
    const char *kind = sched && sched->arg ? sched->arg : "static";
    const char *colon = strchr(kind, ':'), *comma = strchr(kind, ',');
    if (colon && (!comma || colon < comma)) /* (a modifier: monotonic:static) */
        kind = colon + 1;
    kind += strspn(kind, " \t");
    return strncmp(kind, "static", 6) == 0;
}

const char *construct_left_measured_by(const struct directive *d, int gcc)
{
    if (strcmp(d->name, "atomic") == 0 || strcmp(d->name, "flush") == 0 ||
        strcmp(d->name, "simd") == 0)
        return "no runtime reports it, so it is not measured";
    if (strcmp(d->name, "master") == 0 || strcmp(d->name, "masked") == 0)
        return gcc ? "GCC makes it a test of the thread number, which no runtime reports, so it is "
                     "not measured"
                   : "the runtime's events still measure it";
    if (gcc && gcc_static_loop(d))
        return has_leaf(d->name, "parallel")
                   ? "the runtime's events measure its parallel region, not its loop (GCC splits a "
                     "static loop itself, with no runtime call): the loop's time is the region's own"
                   : "GCC splits a static loop itself, with no runtime call, so it is not measured: its "
                     "time is the enclosing region's own";
    return "the runtime's events still measure it";
}

static int require_block(const struct rewriter *w, const struct pragma *p, const struct directive *d)
{
    if (p->has_stmt)
        return 0;
    if (w->s->missing_header) /* the likely cause, said: not the code's */
        rw_diag(w, p->start, "warning",
                "'#pragma omp %s' is not instrumented: pomp finds no statement after it, "
                "which may use what a header declares that the parser pomp uses did not find "
                "(%s; its directory with -I, or POMP_CC naming the compiler that finds it); %s",
                d->name, w->s->missing_header, construct_left_measured_by(d, w->o->gcc));
    else
        rw_diag(w, p->start, "warning",
                "'#pragma omp %s' is not instrumented: pomp finds no statement after it; %s",
                d->name, construct_left_measured_by(d, w->o->gcc));
    return -1;
}

static int is_standalone_shape(const struct construct *k)
{
    return k->shape == SHAPE_PAIR || k->shape == SHAPE_EVENT_BEFORE ||
           k->shape == SHAPE_EVENT_AFTER;
}

int directive_needs_statement(const struct directive *d)
{
    const char *outer, *inner;
    struct construct k = construct_of(d);
    /* the loop transformations: no events of their own, but a loop after them
     * (a 'for' above a 'tile' was said to have a stand-alone directive for its
     * body, and left alone; a probe) */
    if (strcmp(d->name, "tile") == 0 || strcmp(d->name, "unroll") == 0)
        return 1;
    if (k.shape == SHAPE_NONE)
        return combined_split(d->name, &outer, &inner);
    return !is_standalone_shape(&k);
}

/* The variables of the loops d is associated with that are declared before
 * them (for (i = 0; ...)), comma-separated, or NULL. */
static char *outside_loop_vars(const struct pragma *p, const struct directive *d)
{
    struct strbuf vars = {0};
    long n = associated_loops(d);
    for (const struct loop_header *l = p->loop; l && n > 0; l = l->inner, n--)
        if (l->var && l->var_outside) {
            sb_add(&vars, vars.len ? ", " : "");
            sb_add(&vars, l->var);
        }
    return vars.s;
}

/* Splits d into its leaves, outermost first. */
static void build_chain(struct chain *ch, const struct directive *d)
{
    const struct directive *cur = d;
    const char *outer, *inner;
    char *loop_vars = outside_loop_vars(ch->p, d);
    while (ch->n < MAX_LEAVES - 1 && combined_split(cur->name, &outer, &inner)) {
        struct directive *od = &ch->owned[ch->nowned++], *id = &ch->owned[ch->nowned++];
        combined_distribute(cur, outer, inner, loop_vars, od, id);
        ch->leaf[ch->n++].d = od;
        cur = id;
    }
    free(loop_vars);
    ch->leaf[ch->n++].d = cur;
    for (size_t i = 0; i < ch->n; i++) {
        struct leaf *lf = &ch->leaf[i];
        lf->k = construct_of_pragma(lf->d, ch->p);
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
            /* on the pragma's line again: the compiler names the outlined code and
             * the runtime's calls the pragma makes by it (the inner parallel of a
             * split teams distribute parallel for was named two lines down, at a
             * comment after its loop; a probe) */
            if (p->is_operator)
                sb_add(&b, nl);
            else
                add_line_directive(&b, w, source_line(w->s, p->start));
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

/* The macros that made a _Pragma that the rewriting replaces are no longer
 * expanded there: each the file defines is tested for once right after its
 * #define (#if defined), which counts as a use, so that -Wunused-macros
 * (which looks at the macros the compiled file defines) finds it used as in
 * the plain build. At the file's end, an #undef before it was too late, and
 * a last line ending in a backslash swallowed it. */
static void keep_macro_used(struct rewriter *w, const struct kept_macro *m)
{
    unsigned at = m->after;
    if (at > w->s->size)
        return;
    char *key = xasprintf(" %s ", m->name);
    if (!w->kept_macros.s || !strstr(w->kept_macros.s, key)) {
        sb_add(&w->kept_macros, key);
        struct strbuf b = {0};
        if (at == w->s->size && at > 0 && w->s->text[at - 1] != '\n')
            sb_add(&b, "\n");
        sb_printf(&b, "#if defined(%s) /* (pomp: the macro stays used) */\n#endif", m->name);
        if (at < w->s->size)
            add_line_directive(&b, w, source_line(w->s, at));
        else
            sb_add(&b, "\n");
        add_edit(w, at, 0, INT_MIN, b.s); /* a line of its own: before code inserted there */
    }
    free(key);
}

/* A _Pragma or macro invocation written over several lines (PRAGMA(omp for\n
 * reduction(+:s))) replaced by one line: its newlines follow the replacement,
 * so that the code after it keeps its lines (diagnostics, debug lines and
 * __LINE__ were off by the lines it held; a review). Takes text over. */
static char *operator_lines_kept(const struct rewriter *w, const struct pragma *p, char *text)
{
    if (!p->is_operator)
        return text;
    size_t newlines = 0;
    for (unsigned k = p->start; k < p->end && k < w->s->size; k++)
        newlines += w->s->text[k] == '\n';
    if (!newlines)
        return text;
    size_t len = strlen(text);
    text = xrealloc(text, len + newlines + 1);
    memset(text + len, '\n', newlines);
    text[len + newlines] = '\0';
    return text;
}

/* Whether metadirective d may pick a construct (a variant other than
 * `nothing`): its variant directives are the text after a when clause's
 * context selector (after its first ':' outside brackets) and the default or
 * otherwise clause's argument. Passed through unsaid, the parallel region a
 * variant made ran unmeasured, its worksharing with it, and the run was not
 * rated (a probe): counted as left to the runtime, it has the bridges follow
 * the runtime's events for it. */
static int metadirective_picks_construct(const struct directive *d)
{
    if (strcmp(d->name, "metadirective") != 0)
        return 0;
    for (size_t i = 0; i < d->nclauses; i++) {
        const char *word = d->clauses[i].word, *v = d->clauses[i].arg;
        if (!v)
            continue;
        if (strcmp(word, "when") == 0) {
            int depth = 0;
            while (*v && !(depth == 0 && *v == ':')) {
                depth += *v == '(' || *v == '{' || *v == '[';
                depth -= *v == ')' || *v == '}' || *v == ']';
                v++;
            }
            if (*v)
                v++;
        } else if (strcmp(word, "default") != 0 && strcmp(word, "otherwise") != 0) {
            continue;
        }
        if (v[strspn(v, " \t")] && !text_is_word(v, "nothing"))
            return 1;
    }
    return 0;
}

/* A construct not instrumented on purpose, said with --verbose. Returns 0. */
static int left_on_purpose(struct rewriter *w, const struct pragma *p, const char *why,
                           const char *name)
{
    note(w, p->start, why, name);
    w->left_on_purpose = 1;
    return 0;
}

/* A combined construct kept whole, which only the runtime's events measure:
 * counted as left to the runtime (said at the compile), so that the link has
 * the bridges register the callbacks for it (counted on purpose, it ran
 * unmeasured in a pompcc build: the callbacks followed the instrumentation
 * only; the last review). Returns 0. */
static int left_whole(struct rewriter *w, const struct pragma *p, const char *why, const char *name)
{
    note(w, p->start, why, name);
    w->left_whole = 1;
    return 0;
}

int instrument_omp_directive(struct rewriter *w, const struct pragma *p, const struct directive *d)
{
    const char *outer, *inner;
    struct construct k = construct_of(d);
    int section = strcmp(d->name, "section") == 0;
    if (k.shape == SHAPE_NONE && !section && !combined_split(d->name, &outer, &inner)) {
        if (metadirective_picks_construct(d) && !context_of(w, p).skip)
            return left_whole(w, p,
                              "left alone: '%s' picks its construct at compile time, which pomp "
                              "does not instrument; the runtime's events measure what it makes",
                              d->name);
        note(w, p->start, "'%s' has no events: passed through unchanged", d->name);
        return 0;
    }
    if (k.shape == SHAPE_NONE && has_inscan_reduction(d))
        /* split into parallel + for reduction(inscan...), clang 19 computes a
         * wrong scan (plain clang too, written so by hand); GCC is right */
        return left_whole(w, p,
                          "left alone: '%s' with an inscan reduction stays whole (split, clang "
                          "miscompiles its scan); the runtime's events measure it",
                          d->name);
    if (k.shape == SHAPE_NONE && !w->o->gcc && clang_keeps_taskloop_whole(d->name))
        /* clang 19 compiles no code for a masked taskloop (combined with
         * parallel or not, with any clauses: its loop never runs, a
         * reduction stays 0), and makes a variable that a parallel master
         * taskloop leaves implicitly shared private to its tasks (their
         * increments were lost); split into the leaves, clang runs them as
         * OpenMP says, and the program's output changed (a probe: 100 where
         * the plain build printed 0). GCC runs both forms alike. */
        return left_whole(w, p,
                          "left alone: '%s' stays whole (clang compiles it otherwise than its "
                          "split form: no code for a masked taskloop, private copies of a parallel "
                          "master taskloop's implicitly shared variables; split, the program would "
                          "change); the runtime's events measure what runs",
                          d->name);
    struct context cx = context_of(w, p);
    if (cx.skip && cx.declare_target && !w->said_declare_target) {
        /* said without --pomp-verbose: such a function is usually called on
         * the host too, where its worksharing constructs went unmeasured
         * without a word (libgomp reports no static loop) */
        w->said_declare_target = 1;
        rw_diag(w, p->start, "note",
                "'#pragma omp %s' and the other OpenMP constructs of device code in this file "
                "(declare target blocks and functions, functions called in target regions, device "
                "variants) are left alone; where they run on the host, only the runtime's events "
                "measure them",
                d->name);
    }
    if (cx.skip) {
        note(w, p->start, "left alone: %s", cx.skip);
        w->left_on_purpose = 1;
        return 0;
    }
    if (cx.in_migrating_task && (strcmp(d->name, "taskwait") == 0 || strcmp(d->name, "taskgroup") == 0))
        /* its enter and exit (a taskgroup's begin and end too) may run on
         * two threads, and a region without them read its wait as the task's
         * work (a taskgroup's events straddled two threads on Clang, 2
         * unmatched ends): the runtimes report its wait where it runs, and
         * the bridges follow the taskwaits of a program with such a task
         * (bridge_tool.c) */
        return left_on_purpose(w, p,
                               "left alone: '%s' in an untied task that may resume on another "
                               "thread here (the runtime's events measure it)",
                               d->name);

    if (section) {
        note(w, p->start, "instrumented '%s' with its sections construct", d->name);
        return 0;
    }
    int standalone = is_standalone_shape(&k);
    if (!standalone && require_block(w, p, d))
        return -1;

    struct chain ch = {.p = p, .tid = cx.tid};
    build_chain(&ch, d);
    /* allocate goes where its variable is privatized (combined.c), which may
     * be a loop leaf, and loop takes no allocate clause: clang rejected the
     * split 'parallel loop reduction(+ : q) allocate(q)' and the whole file
     * went uninstrumented (a probe) */
    for (size_t i = 1; i < ch.n; i++)
        if (strcmp(ch.leaf[i].d->name, "loop") == 0 && directive_clause(ch.leaf[i].d, "allocate")) {
            chain_free(&ch);
            return left_whole(w, p,
                              "left alone: '%s' allocates a variable its loop privatizes, and "
                              "a loop construct takes no allocate clause: it stays whole (the "
                              "runtime's events measure it)",
                              d->name);
        }
    /* clang 19 gives a worksharing construct with lastprivate and nowait a
     * barrier before the copy-out, which the combined construct has not:
     * split, each execution waited once more (1000 barriers a thread in 1000
     * regions, ~40 % slower; a probe). GCC adds none. */
    for (size_t i = 1; i < ch.n && !w->o->gcc && !w->o->explicit_barriers; i++)
        if ((ch.leaf[i].k.flags & F_IMPLICIT_BARRIER) && (ch.leaf[i - 1].k.flags & F_PARALLEL_RTC) &&
            directive_clause(ch.leaf[i].d, "lastprivate")) {
            chain_free(&ch);
            return left_whole(w, p,
                              "left alone: '%s' with lastprivate stays whole (split, clang gives "
                              "its worksharing part a barrier the combined construct has not); "
                              "the runtime's events measure it",
                              d->name);
        }
    const char *unhoistable = unhoistable_clause(&ch);
    if (unhoistable) {
        chain_free(&ch);
        return left_whole(w, p,
                          "left alone: an inner construct's %s expression calls something "
                          "and names something (a variable or macro), which a default "
                          "clause of the outer one would have evaluated before the team: it "
                          "stays whole (the runtime's events measure it)",
                          unhoistable);
    }
    struct rtc_names rtc = {0};
    int rewrite = ch.n > 1;
    for (size_t i = 0; i < ch.n; i++) {
        struct leaf *lf = &ch.leaf[i];
        lf->r = new_region(w, p, lf->d, lf->k.type ? lf->k.type : lf->d->name);
        lf->local = w->local;
        /* The combined construct has one barrier, at its end: a split worksharing
         * leaf gets nowait, so the split form has that one barrier too. Not where
         * it is canceled: a canceled region must not be nowait (Clang rejects
         * it); nor with a task reduction (GCC rejects nowait there): the leaf
         * keeps its own barrier, as OpenMP defines the combined form. */
        int may_nowait = (lf->k.flags & F_IMPLICIT_BARRIER) && !directive_clause(lf->d, "nowait") &&
                         !directive_clause(lf->d, "copyprivate") && !canceled_leaf(w, p, lf->d->name) &&
                         !has_task_reduction(lf->d);
        if (i > 0 && may_nowait && ch.leaf[i - 1].k.flags & F_PARALLEL_RTC)
            lf->add_nowait = 1;
        else if (w->o->explicit_barriers && may_nowait)
            lf->add_nowait = 1, lf->barrier_r = UINT_MAX - 1;
        else if (may_nowait && ch.n == 1 && gcc_drops_barrier(w, p, lf->d))
            lf->add_nowait = 1;
        if (w->o->explicit_barriers && (lf->k.flags & F_PARALLEL_RTC))
            lf->barrier_r = UINT_MAX - 1;
        if (lf->barrier_r == UINT_MAX - 1) {
            struct directive none = {.name = "implicit barrier", .error_column = -1};
            lf->barrier_r = new_region(w, p, &none, "implicit barrier");
        }
        if (strcmp(lf->d->name, "task") == 0 && untied_may_migrate(w->s, p, lf->d)) {
            lf->migrating = 1;
            /* the runtime's bridges measure its executions instead (docs/ctc.md) */
            region_add_attribute(w, lf->r, "bodyEvents", "none");
            note(w, p->start, "untied task with a task scheduling point: no begin/end events %s",
                 "(it may resume on another thread); the runtime's events measure its executions");
        }
        if (cx.in_migrating_task && (lf->k.flags & F_SCHEDULING)) {
            lf->no_enter_exit = 1;
            note(w, p->start, "'%s' in an untied task that may resume on another thread here: "
                              "no enter/exit events", lf->d->name);
            /* without its enter no bridge names the tasks of a taskloop, whose
             * work then reads as its taskgroup's wait (0.3 % parallel
             * efficiency for 85, a probe): pomp-report rates no figure */
            if (strncmp(lf->d->name, "taskloop", 8) == 0)
                region_add_attribute(w, lf->r, "tasks", "unmeasured");
            /* a task's creation goes uncounted: said by pomp-report, which
             * showed its executions without a creations row (a probe) */
            else if (strcmp(lf->d->name, "task") == 0)
                region_add_attribute(w, lf->r, "creations", "uncounted");
        }
        leaf_clauses(w->s, &ch, i, &rtc);
        lf->task_id = gets_task_id(lf);
        if (lf->task_id)
            declare_task_id(&ch, lf);
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
        if (rewrite) {
            add_edit(w, p->start, p->end - p->start, 2 * p->depth + 1,
                     operator_lines_kept(w, p, pragma_replacement(w, &ch)));
            for (size_t k = 0; k < p->nkept; k++)
                keep_macro_used(w, &p->kept[k]);
        }
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
    sb_add(inc, "#ifndef POMP_GUARDS_\n#define POMP_GUARDS_\n");
    for (const char *const *c = closers; *c; c++)
        sb_printf(inc,
                  "static __inline__ void pomp_guard_%s_tid(POMP_Handle_t **h) { POMP_%s(**h, POMP_TID_); }\n"
                  "static __inline__ void pomp_guard_%s_0(POMP_Handle_t **h) { POMP_%s(**h, 0); }\n",
                  *c, *c, *c, *c);
    sb_add(inc, "#endif\n");
}
