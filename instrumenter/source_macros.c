/* Macro replacement in OpenMP directives (source_macros.h says why). */
#include "source_macros.h"

#include <stdlib.h>
#include <string.h>

#include "source.h"
#include "util.h"

struct macro_def {
    char *name;
    CXCursor cursor;
    unsigned pos;   /* where in the file it comes into force */
    size_t order;   /* translation order */
};

/* ---- the definitions and where each comes into force ---- */

struct build {
    struct macro_table *t;
    CXFile file;
    unsigned at; /* the file's offset of the last preprocessing entity seen in it */
};

static enum CXChildVisitResult definition_visitor(CXCursor c, CXCursor parent, CXClientData d)
{
    (void)parent;
    struct build *b = d;
    enum CXCursorKind k = clang_getCursorKind(c);
    if (k != CXCursor_MacroDefinition && k != CXCursor_MacroExpansion &&
        k != CXCursor_InclusionDirective)
        return CXChildVisit_Continue;
    CXFile f;
    unsigned off;
    clang_getExpansionLocation(clang_getRangeStart(clang_getCursorExtent(c)), &f, NULL, NULL,
                               &off);
    /* the record is in translation order: an entity of another file that
     * comes after the file's #include at offset I is in force from I on */
    if (f && clang_File_isEqual(f, b->file))
        b->at = off;
    if (k != CXCursor_MacroDefinition)
        return CXChildVisit_Continue;
    struct macro_table *t = b->t;
    CXString name = clang_getCursorSpelling(c);
    t->defs = xrealloc(t->defs, (t->ndefs + 1) * sizeof *t->defs);
    t->defs[t->ndefs] = (struct macro_def){xstrdup(clang_getCString(name)), c, b->at, t->ndefs};
    t->ndefs++;
    clang_disposeString(name);
    return CXChildVisit_Continue;
}

static int by_name_then_order(const void *a, const void *b)
{
    const struct macro_def *x = a, *y = b;
    int c = strcmp(x->name, y->name);
    return c ? c : (x->order > y->order) - (x->order < y->order);
}

void macro_table_build(struct macro_table *t, CXTranslationUnit tu, CXFile file, int in_header)
{
    memset(t, 0, sizeof *t);
    t->tu = tu;
    t->in_header = in_header;
    struct build b = {t, file, 0};
    clang_visitChildren(clang_getTranslationUnitCursor(tu), definition_visitor, &b);
    if (t->ndefs)
        qsort(t->defs, t->ndefs, sizeof *t->defs, by_name_then_order);
}

void macro_table_free(struct macro_table *t)
{
    for (size_t i = 0; i < t->ndefs; i++)
        free(t->defs[i].name);
    free(t->defs);
    memset(t, 0, sizeof *t);
}

/* A definition's tokens, spelled and joined (its parameters too). */
static char *definition_spelling(CXTranslationUnit tu, CXCursor def)
{
    CXToken *toks = NULL;
    unsigned n = 0;
    clang_tokenize(tu, clang_getCursorExtent(def), &toks, &n);
    size_t len = 0, cap = 64;
    char *s = xmalloc(cap);
    s[0] = '\0';
    for (unsigned i = 0; i < n; i++) {
        CXString x = clang_getTokenSpelling(tu, toks[i]);
        const char *c = clang_getCString(x);
        size_t k = strlen(c);
        if (len + k + 2 > cap)
            s = xrealloc(s, cap = 2 * (len + k + 2));
        memcpy(s + len, c, k);
        len += k;
        s[len++] = ' ';
        s[len] = '\0';
        clang_disposeString(x);
    }
    clang_disposeTokens(tu, toks, n);
    return s;
}

/* In a header (t->in_header): whether the definitions of name, defs[lo..]
 * (sorted by name), are all alike. */
static int definitions_agree(const struct macro_table *t, size_t lo, const char *name)
{
    char *first = NULL;
    int agree = 1;
    for (size_t i = lo; agree && i < t->ndefs && strcmp(t->defs[i].name, name) == 0; i++) {
        char *s = definition_spelling(t->tu, t->defs[i].cursor);
        if (!first)
            first = s;
        else {
            agree = strcmp(first, s) == 0;
            free(s);
        }
    }
    free(first);
    return agree;
}

/* The definition of name in force at offset pos, or NULL: the last one made
 * before it (an #undef is not in libclang's record: a macro undefined before
 * the directive still counts as defined). In a header, the last one, where
 * all agree; else NULL with *ambiguous set. */
static const struct macro_def *lookup(const struct macro_table *t, const char *name, unsigned pos,
                                      int *ambiguous)
{
    size_t lo = 0, hi = t->ndefs;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (strcmp(t->defs[mid].name, name) < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    const struct macro_def *found = NULL;
    for (size_t i = lo; i < t->ndefs && strcmp(t->defs[i].name, name) == 0; i++)
        if (t->defs[i].pos <= pos || t->in_header)
            found = &t->defs[i];
    if (found && t->in_header && !definitions_agree(t, lo, name)) {
        *ambiguous = 1;
        return NULL;
    }
    return found;
}

/* ---- tokens ---- */

struct toks {
    char **v;
    unsigned char *paste; /* v[i] is a ## operator of a macro body */
    size_t n, cap;
};

static void push(struct toks *t, char *s, int paste)
{
    if (t->n == t->cap) {
        t->cap = t->cap ? 2 * t->cap : 16;
        t->v = xrealloc(t->v, t->cap * sizeof *t->v);
        t->paste = xrealloc(t->paste, t->cap);
    }
    t->paste[t->n] = (unsigned char)paste;
    t->v[t->n++] = s;
}

static void push_range(struct toks *t, const struct toks *from, size_t a, size_t b)
{
    for (size_t i = a; i < b; i++)
        push(t, xstrdup(from->v[i]), 0);
}

static void toks_free(struct toks *t)
{
    for (size_t i = 0; i < t->n; i++)
        free(t->v[i]);
    free(t->v);
    free(t->paste);
    memset(t, 0, sizeof *t);
}

static int is_ident_start(char c)
{
    return is_ident_char(c) && !(c >= '0' && c <= '9');
}

static int is_identifier(const char *s)
{
    return is_ident_start(*s);
}

/* The length of the punctuator at s (the ones whose splitting would change
 * the text: && is not & &). */
static size_t punctuator_length(const char *s)
{
    static const char *const longer[] = {"<<=", ">>=", "...", "##", "->", "++", "--", "<<",
                                         ">>",  "<=",  ">=",  "==", "!=", "&&", "||", "*=",
                                         "/=",  "%=",  "+=",  "-=", "&=", "^=", "|=", "::"};
    for (size_t i = 0; i < sizeof longer / sizeof *longer; i++)
        if (strncmp(s, longer[i], strlen(longer[i])) == 0)
            return strlen(longer[i]);
    return 1;
}

/* Splits text into preprocessing tokens (whitespace dropped). */
static void lex(const char *s, size_t len, struct toks *out)
{
    size_t i = 0;
    while (i < len) {
        char c = s[i];
        size_t j = i + 1;
        if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v') {
            i++;
            continue;
        }
        if (is_ident_start(c)) {
            while (j < len && is_ident_char(s[j]))
                j++;
        } else if ((c >= '0' && c <= '9') || (c == '.' && j < len && s[j] >= '0' && s[j] <= '9')) {
            while (j < len && (is_ident_char(s[j]) || s[j] == '.' ||
                               ((s[j] == '+' || s[j] == '-') && strchr("eEpP", s[j - 1]))))
                j++;
        } else if (c == '"' || c == '\'') {
            while (j < len && s[j] != c)
                j += s[j] == '\\' && j + 1 < len ? 2 : 1;
            j = j < len ? j + 1 : len;
        } else {
            j = i + punctuator_length(s + i);
            if (j > len)
                j = len;
        }
        push(out, xasprintf("%.*s", (int)(j - i), s + i), 0);
        i = j;
    }
}

/* ---- replacement (C11 6.10.3) ---- */

struct definition {
    int function_like, variadic;
    struct toks params, body;
};

static void definition_load(CXTranslationUnit tu, CXCursor def, struct definition *d)
{
    memset(d, 0, sizeof *d);
    CXToken *toks = NULL;
    unsigned n = 0;
    clang_tokenize(tu, clang_getCursorExtent(def), &toks, &n);
    struct toks all = {0};
    for (unsigned i = 0; i < n; i++) {
        CXString s = clang_getTokenSpelling(tu, toks[i]);
        push(&all, xstrdup(clang_getCString(s)), 0);
        clang_disposeString(s);
    }
    clang_disposeTokens(tu, toks, n);
    size_t body = 1;
    d->function_like = clang_Cursor_isMacroFunctionLike(def);
    if (d->function_like) {
        for (body = 2; body < all.n && strcmp(all.v[body], ")") != 0; body++) {
            if (strcmp(all.v[body], "...") == 0) {
                d->variadic = 1;
                if (!d->params.n || strcmp(all.v[body - 1], ",") == 0)
                    push(&d->params, xstrdup("__VA_ARGS__"), 0);
            } else if (strcmp(all.v[body], ",") != 0) {
                push(&d->params, xstrdup(all.v[body]), 0);
            }
        }
        body++;
    }
    for (size_t i = body; i < all.n; i++)
        push(&d->body, xstrdup(all.v[i]), strcmp(all.v[i], "##") == 0);
    toks_free(&all);
}

static void definition_free(struct definition *d)
{
    toks_free(&d->params);
    toks_free(&d->body);
}

/* The names being replaced (a macro is not replaced inside its own
 * replacement, 6.10.3.4p2). */
struct hidden {
    const char *name;
    const struct hidden *up;
};

static int is_hidden(const struct hidden *h, const char *name)
{
    for (; h; h = h->up)
        if (strcmp(h->name, name) == 0)
            return 1;
    return 0;
}

struct expander {
    const struct macro_table *t;
    unsigned pos;
    const char *why;
    char *what;  /* the macro why names, or NULL */
    size_t made; /* tokens made, against a replacement that never ends */
};

/* lookup, a definition that differs in a header said in e */
static const struct macro_def *find(struct expander *e, const char *name)
{
    int ambiguous = 0;
    const struct macro_def *m = lookup(e->t, name, e->pos, &ambiguous);
    if (ambiguous && !e->why) {
        e->why = "defined differently in this unit, and in a header the definition in force is not "
                 "known";
        e->what = xstrdup(name);
    }
    return m;
}

#define EXPAND_MAX_DEPTH 64
#define EXPAND_MAX_TOKENS 100000

static int expand(struct expander *e, const struct toks *in, const struct hidden *h, int depth,
                  struct toks *out);

/* The arguments of the invocation whose '(' is in->v[open]: each a range
 * [arg[2k], arg[2k+1]) of in. Returns the index of its ')', or 0 if none. */
static size_t split_arguments(const struct toks *in, size_t open, size_t **ranges, size_t *nargs)
{
    int depth = 0;
    size_t from = open + 1;
    *nargs = 0;
    *ranges = NULL;
    for (size_t i = open + 1; i < in->n; i++) {
        const char *s = in->v[i];
        if (strcmp(s, "(") == 0) {
            depth++;
        } else if ((strcmp(s, ")") == 0 && depth-- == 0) || (strcmp(s, ",") == 0 && depth == 0)) {
            *ranges = xrealloc(*ranges, (*nargs + 1) * 2 * sizeof **ranges);
            (*ranges)[2 * *nargs] = from;
            (*ranges)[2 * *nargs + 1] = i;
            (*nargs)++;
            from = i + 1;
            if (*s == ')')
                return i;
        }
    }
    free(*ranges);
    *ranges = NULL;
    return 0;
}

/* "#param": the argument's spelling as a string literal. */
static char *stringize(const struct toks *in, size_t a, size_t b)
{
    struct toks q = {0};
    push(&q, xstrdup("\""), 0);
    for (size_t i = a; i < b; i++) {
        if (i > a)
            push(&q, xstrdup(" "), 0);
        for (const char *c = in->v[i]; *c; c++)
            push(&q, *c == '"' || *c == '\\' ? xasprintf("\\%c", *c) : xasprintf("%c", *c), 0);
    }
    push(&q, xstrdup("\""), 0);
    size_t len = 0;
    for (size_t i = 0; i < q.n; i++)
        len += strlen(q.v[i]);
    char *s = xmalloc(len + 1);
    s[0] = '\0';
    for (size_t i = 0; i < q.n; i++)
        strcat(s, q.v[i]);
    toks_free(&q);
    return s;
}

static long param_index(const struct definition *d, const char *name)
{
    for (size_t i = 0; i < d->params.n; i++)
        if (strcmp(d->params.v[i], name) == 0)
            return (long)i;
    return -1;
}

/* Argument k's tokens: the variadic parameter takes the rest, commas included. */
static void argument_bounds(const struct definition *d, const size_t *ranges, size_t nargs,
                            size_t k, size_t *a, size_t *b)
{
    if (k >= nargs) {
        *a = *b = 0;
        return;
    }
    *a = ranges[2 * k];
    *b = d->variadic && k + 1 == d->params.n ? ranges[2 * nargs - 1] : ranges[2 * k + 1];
}

/* The body with the arguments in place and the ## operators applied. */
static int substitute(struct expander *e, const struct definition *d, const struct toks *in,
                      const size_t *ranges, size_t nargs, const struct hidden *h, int depth,
                      struct toks *out)
{
    struct toks r = {0};
    const struct toks *body = &d->body;
    for (size_t i = 0; i < body->n; i++) {
        const char *s = body->v[i];
        long k;
        size_t a, b;
        if (d->function_like && strcmp(s, "__VA_OPT__") == 0) {
            e->why = "__VA_OPT__ is not read";
            toks_free(&r);
            return -1;
        }
        /* GNU: `, ## __VA_ARGS__` drops the comma when there are no variable
         * arguments (GCC and Clang alike) */
        if (d->variadic && strcmp(s, ",") == 0 && i + 2 < body->n && body->paste[i + 1] &&
            strcmp(body->v[i + 2], d->params.v[d->params.n - 1]) == 0) {
            argument_bounds(d, ranges, nargs, d->params.n - 1, &a, &b);
            if (a < b) {
                push(&r, xstrdup(","), 0);
                push_range(&r, in, a, b);
            }
            i += 2;
            continue;
        }
        if (d->function_like && strcmp(s, "#") == 0 && i + 1 < body->n &&
            (k = param_index(d, body->v[i + 1])) >= 0) {
            argument_bounds(d, ranges, nargs, (size_t)k, &a, &b);
            push(&r, stringize(in, a, b), 0);
            i++;
        } else if (d->function_like && (k = param_index(d, s)) >= 0) {
            argument_bounds(d, ranges, nargs, (size_t)k, &a, &b);
            int pasted = (i > 0 && body->paste[i - 1]) || (i + 1 < body->n && body->paste[i + 1]);
            if (pasted) {
                push_range(&r, in, a, b);
                if (a == b) /* a placemarker (6.10.3.3p2) */
                    push(&r, xstrdup(""), 0);
            } else {
                struct toks arg = {0}, done = {0};
                push_range(&arg, in, a, b);
                int rc = expand(e, &arg, h, depth + 1, &done);
                push_range(&r, &done, 0, done.n);
                toks_free(&arg);
                toks_free(&done);
                if (rc != 0) {
                    toks_free(&r);
                    return -1;
                }
            }
        } else {
            push(&r, xstrdup(s), body->paste[i]);
        }
    }
    for (size_t i = 0; i < r.n; i++) {
        if (r.paste[i] && out->n && i + 1 < r.n) {
            char *left = out->v[--out->n];
            push(out, xasprintf("%s%s", left, r.v[i + 1]), 0);
            free(left);
            i++;
        } else if (!r.paste[i]) {
            push(out, xstrdup(r.v[i]), 0);
        }
    }
    toks_free(&r);
    /* placemarkers left after pasting are nothing */
    size_t w = 0;
    for (size_t i = 0; i < out->n; i++) {
        if (*out->v[i])
            out->v[w++] = out->v[i];
        else
            free(out->v[i]);
    }
    out->n = w;
    return 0;
}

static int expand(struct expander *e, const struct toks *in, const struct hidden *h, int depth,
                  struct toks *out)
{
    if (depth > EXPAND_MAX_DEPTH) {
        e->why = "macros nested too deep";
        return -1;
    }
    for (size_t i = 0; i < in->n; i++) {
        const char *s = in->v[i];
        const struct macro_def *m = is_identifier(s) && !is_hidden(h, s) ? find(e, s) : NULL;
        if (e->why)
            return -1;
        if (!m) {
            push(out, xstrdup(s), 0);
            continue;
        }
        struct definition d;
        definition_load(e->t->tu, m->cursor, &d);
        size_t *ranges = NULL, nargs = 0, close = i;
        if (d.function_like) {
            if (i + 1 >= in->n || strcmp(in->v[i + 1], "(") != 0) { /* the name alone */
                definition_free(&d);
                push(out, xstrdup(s), 0);
                continue;
            }
            close = split_arguments(in, i + 1, &ranges, &nargs);
            if (!close) {
                definition_free(&d);
                e->why = "a macro's arguments do not end";
                return -1;
            }
            if (nargs == 1 && ranges[0] == ranges[1] && d.params.n == 0)
                nargs = 0; /* M() of a macro without parameters */
        }
        struct hidden self = {s, h};
        struct toks replaced = {0};
        int rc = substitute(e, &d, in, ranges, nargs, h, depth, &replaced);
        free(ranges);
        definition_free(&d);
        if (rc == 0 && (e->made += replaced.n) > EXPAND_MAX_TOKENS) {
            e->why = "a macro's replacement is too long";
            rc = -1;
        }
        if (rc == 0)
            rc = expand(e, &replaced, &self, depth + 1, out);
        toks_free(&replaced);
        if (rc != 0)
            return -1;
        i = close;
    }
    return 0;
}

/* ---- the directive's text ---- */

struct text {
    char *c;
    unsigned *at;
    size_t n, cap;
};

static void text_add(struct text *t, const char *s, size_t len, const unsigned *at, unsigned one)
{
    if (t->n + len + 1 > t->cap) {
        t->cap = 2 * (t->n + len + 1);
        t->c = xrealloc(t->c, t->cap);
        t->at = xrealloc(t->at, t->cap * sizeof *t->at);
    }
    for (size_t i = 0; i < len; i++) {
        t->c[t->n] = s[i];
        t->at[t->n++] = at ? at[i] : one;
    }
    t->c[t->n] = '\0';
    t->at[t->n] = t->n ? t->at[t->n - 1] : one;
}

/* Past the literal starting at text[i]. */
static size_t skip_literal(const char *text, size_t i)
{
    char q = text[i++];
    while (text[i] && text[i] != q)
        i += text[i] == '\\' && text[i + 1] ? 2 : 1;
    return text[i] ? i + 1 : i;
}

/* The ')' that closes the '(' at text[i], or 0. */
static size_t closing_paren(const char *text, size_t i)
{
    int depth = 0;
    for (; text[i]; i++) {
        if (text[i] == '"' || text[i] == '\'')
            i = skip_literal(text, i) - 1;
        else if (text[i] == '(')
            depth++;
        else if (text[i] == ')' && --depth == 0)
            return i;
    }
    return 0;
}

int pragma_expand_macros(const struct macro_table *t, struct pragma *p, const char **why,
                         char **what)
{
    const char *x = p->text;
    size_t i = strspn(x, " \t");
    if (strncmp(x + i, "omp", 3) != 0 || is_ident_char(x[i + 3]))
        return 0; /* pomp's own directives are read as written, as the compilers do */
    i += 3;
    struct text out = {0};
    text_add(&out, x, i, p->text_offsets, 0);
    struct expander e = {t, p->start, NULL, NULL, 0};
    int depth = 0, replaced = 0;
    /* critical(NAME): the name is a word the construct is known by (its
     * lock), not an expression, and it is replaced too */
    size_t critical_open = (size_t)-1, last_word = 0, last_word_end = 0;
    while (x[i]) {
        size_t j = i + 1;
        if (x[i] == '"' || x[i] == '\'') {
            j = skip_literal(x, i);
        } else if (x[i] == '(' || x[i] == ')') {
            if (x[i] == '(' && depth == 0 && last_word_end &&
                strspn(x + last_word_end, " \t") == i - last_word_end &&
                strncmp(x + last_word, "critical", 8) == 0 && last_word_end - last_word == 8)
                critical_open = i;
            depth += x[i] == '(' ? 1 : -1;
            if (depth == 0)
                critical_open = (size_t)-1;
        } else if (x[i] >= '0' && x[i] <= '9') {
            while (is_ident_char(x[j]))
                j++;
        } else if (is_ident_start(x[i])) {
            while (is_ident_char(x[j]))
                j++;
            char *word = xasprintf("%.*s", (int)(j - i), x + i);
            const struct macro_def *m =
                depth == 0 || (depth == 1 && critical_open != (size_t)-1) ? find(&e, word) : NULL;
            free(word);
            if (e.why)
                break;
            if (depth == 0)
                last_word = i, last_word_end = j;
            size_t end = j;
            if (m && clang_Cursor_isMacroFunctionLike(m->cursor)) {
                size_t open = j + strspn(x + j, " \t");
                end = x[open] == '(' ? closing_paren(x, open) + 1 : 0;
                if (end == 1) {
                    e.why = "a macro's arguments do not end";
                    break;
                }
                if (!end) /* a function-like macro's name alone is not an invocation */
                    m = NULL, end = j;
            }
            if (m) {
                struct toks in = {0}, res = {0};
                lex(x + i, end - i, &in);
                int rc = expand(&e, &in, NULL, 0, &res);
                unsigned at = p->text_offsets[i];
                /* spaces only where a word would run into the next one: a
                 * critical's name is read as its text (critical(LOCK)) */
                if (out.n && is_ident_char(out.c[out.n - 1]))
                    text_add(&out, " ", 1, NULL, at);
                for (size_t k = 0; rc == 0 && k < res.n; k++) {
                    if (k)
                        text_add(&out, " ", 1, NULL, at);
                    text_add(&out, res.v[k], strlen(res.v[k]), NULL, at);
                }
                if (is_ident_char(x[end]))
                    text_add(&out, " ", 1, NULL, at);
                toks_free(&in);
                toks_free(&res);
                if (rc != 0)
                    break;
                replaced++;
                i = end;
                continue;
            }
        }
        text_add(&out, x + i, j - i, p->text_offsets + i, 0);
        i = j;
    }
    if (e.why || !replaced) {
        free(out.c);
        free(out.at);
        *why = e.why;
        *what = e.what;
        return e.why ? -1 : 0;
    }
    free(p->text);
    free(p->text_offsets);
    p->text = out.c;
    p->text_offsets = out.at;
    return replaced;
}
