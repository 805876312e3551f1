/* Macro replacement in OpenMP directives (source_macros.h says why). */
#include "source_macros.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "source.h"
#include "util.h"

struct macro_def {
    char *name;
    CXCursor cursor;
    unsigned pos;    /* where in the file it comes into force (in a header: where it is
                        defined, for a definition of the header itself; else 0) */
    int in_force;    /* in a header: defined in the header, or known to come before it */
    size_t order;    /* translation order */
};

struct macro_undef {
    char *name;
    unsigned at;     /* the offset of its #undef in the file */
};

/* ---- the definitions and where each comes into force ---- */

/* Where each file is first included from the main file (the offset of the
 * main file's #include that leads to it; the main file's own: 0). */
struct inclusion {
    CXFile file;
    unsigned main_at;
};

struct inclusions {
    struct inclusion *v;
    size_t n;
};

static void inclusion_visitor(CXFile included, CXSourceLocation *stack, unsigned len,
                              CXClientData d)
{
    struct inclusions *in = d;
    unsigned off = 0;
    if (len)
        clang_getExpansionLocation(stack[len - 1], NULL, NULL, NULL, &off);
    for (size_t i = 0; i < in->n; i++)
        if (clang_File_isEqual(in->v[i].file, included))
            return; /* (its first inclusion) */
    in->v = xrealloc(in->v, (in->n + 1) * sizeof *in->v);
    in->v[in->n++] = (struct inclusion){included, off};
}

/* The main file's offset where f is first included; UINT_MAX if unknown. */
static unsigned main_offset(const struct inclusions *in, CXFile f)
{
    for (size_t i = 0; f && i < in->n; i++)
        if (clang_File_isEqual(in->v[i].file, f))
            return in->v[i].main_at;
    return UINT_MAX;
}

struct build {
    struct macro_table *t;
    CXFile file;
    unsigned at; /* the file's offset of the last preprocessing entity seen in it */
    struct inclusions inclusions; /* (in a header) */
    unsigned file_at;             /* (in a header) the main file's #include of the header */
};

/* In a header: whether a definition at offset off of file f (not the header)
 * comes before the header: on the command line, in the main file before the
 * header's #include, or in a file the main file includes before it (or
 * through the same #include: a configuration header the header includes). */
static int before_header(const struct build *b, CXFile f, unsigned off)
{
    if (!f)
        return 1;
    unsigned at = main_offset(&b->inclusions, f);
    if (at == 0 && !clang_File_isEqual(f, b->file)) /* the main file itself */
        return off < b->file_at;
    return at <= b->file_at;
}

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
    int own = f && clang_File_isEqual(f, b->file);
    struct macro_def m = {xstrdup(clang_getCString(name)), c, b->at, 1, t->ndefs};
    if (t->in_header) {
        m.pos = own ? off : 0;
        m.in_force = own || before_header(b, f, off);
    }
    t->defs[t->ndefs++] = m;
    clang_disposeString(name);
    return CXChildVisit_Continue;
}

static int by_name_then_order(const void *a, const void *b)
{
    const struct macro_def *x = a, *y = b;
    int c = strcmp(x->name, y->name);
    return c ? c : (x->order > y->order) - (x->order < y->order);
}

/* The file's #undef lines (libclang records none): a macro undefined
 * before a directive is no macro there. */
static void find_undefs(struct macro_table *t, CXFile file)
{
    size_t size = 0;
    const char *text = clang_getFileContents(t->tu, file, &size);
    for (size_t i = 0; text && i < size; i++) {
        if (i > 0 && text[i - 1] != '\n')
            continue;
        size_t k = i;
        while (k < size && (text[k] == ' ' || text[k] == '\t'))
            k++;
        if (k >= size || text[k] != '#')
            continue;
        k++;
        while (k < size && (text[k] == ' ' || text[k] == '\t'))
            k++;
        if (size - k < 6 || strncmp(text + k, "undef", 5) != 0 || is_ident_char(text[k + 5]))
            continue;
        k += 5;
        while (k < size && (text[k] == ' ' || text[k] == '\t'))
            k++;
        size_t e = k;
        while (e < size && is_ident_char(text[e]))
            e++;
        if (e == k)
            continue;
        t->undefs = xrealloc(t->undefs, (t->nundefs + 1) * sizeof *t->undefs);
        t->undefs[t->nundefs++] =
            (struct macro_undef){xasprintf("%.*s", (int)(e - k), text + k), (unsigned)i};
    }
}

void macro_table_build(struct macro_table *t, CXTranslationUnit tu, CXFile file, int in_header)
{
    memset(t, 0, sizeof *t);
    t->tu = tu;
    t->in_header = in_header;
    struct build b = {t, file, 0, {NULL, 0}, 0};
    if (in_header) {
        clang_getInclusions(tu, inclusion_visitor, &b.inclusions);
        b.file_at = main_offset(&b.inclusions, file);
    }
    clang_visitChildren(clang_getTranslationUnitCursor(tu), definition_visitor, &b);
    free(b.inclusions.v);
    if (t->ndefs)
        qsort(t->defs, t->ndefs, sizeof *t->defs, by_name_then_order);
    find_undefs(t, file);
}

void macro_table_free(struct macro_table *t)
{
    for (size_t i = 0; i < t->ndefs; i++)
        free(t->defs[i].name);
    free(t->defs);
    for (size_t i = 0; i < t->nundefs; i++)
        free(t->undefs[i].name);
    free(t->undefs);
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
        if (clang_getTokenKind(toks[i]) == CXToken_Comment)
            continue;
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
 * before it, unless the file #undefs it between the two (an #undef in
 * another file is not seen). In a header, the last one where one is known
 * to be in force and all agree; else NULL with *ambiguous set. */
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
    int in_force = 0;
    for (size_t i = lo; i < t->ndefs && strcmp(t->defs[i].name, name) == 0; i++) {
        if (t->defs[i].pos <= pos || t->in_header)
            found = &t->defs[i];
        in_force |= t->defs[i].in_force && t->defs[i].pos <= pos;
    }
    if (found && t->in_header && !in_force)
        return NULL; /* defined only after the header, or where that is not known */
    if (found && t->in_header && !definitions_agree(t, lo, name)) {
        *ambiguous = 1;
        return NULL;
    }
    for (size_t i = 0; found && i < t->nundefs; i++)
        if (t->undefs[i].at > (t->in_header ? 0 : found->pos) && t->undefs[i].at < pos &&
            strcmp(t->undefs[i].name, name) == 0 &&
            !(t->in_header && found->pos > t->undefs[i].at))
            found = NULL;
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
        if (clang_getTokenKind(toks[i]) == CXToken_Comment) /* a comment is a space */
            continue;
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
    CXCursor *used; /* the definitions replaced, each once (where asked for) */
    size_t nused;
    int want_used;
};

static void note_used(struct expander *e, CXCursor def)
{
    if (!e->want_used)
        return;
    for (size_t k = 0; k < e->nused; k++)
        if (clang_equalCursors(e->used[k], def))
            return;
    e->used = xrealloc(e->used, (e->nused + 1) * sizeof *e->used);
    e->used[e->nused++] = def;
}

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
        note_used(e, m->cursor);
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

/* Whether the text made so far ends with the word w (spaces after it aside). */
static int ends_with_word(const struct text *t, const char *w)
{
    size_t n = t->n, k = strlen(w);
    while (n && (t->c[n - 1] == ' ' || t->c[n - 1] == '\t'))
        n--;
    return n >= k && strncmp(t->c + n - k, w, k) == 0 && (n == k || !is_ident_char(t->c[n - k - 1]));
}

int pragma_expand_macros(const struct macro_table *t, struct pragma *p, const char **why,
                         char **what, CXCursor **used, size_t *nused)
{
    const char *x = p->text;
    *used = NULL;
    *nused = 0;
    size_t i = strspn(x, " \t");
    if (strncmp(x + i, "omp", 3) != 0 || is_ident_char(x[i + 3]))
        return 0; /* pomp's own directives are read as written, as the compilers do */
    i += 3;
    struct text out = {0};
    text_add(&out, x, i, p->text_offsets, 0);
    struct expander e = {.t = t, .pos = p->start, .want_used = 1};
    int depth = 0, replaced = 0;
    /* critical(NAME): the name is a word the construct is known by (its
     * lock), not an expression, and it is replaced too */
    int in_critical = 0;
    while (x[i]) {
        size_t j = i + 1;
        if (x[i] == '"' || x[i] == '\'') {
            j = skip_literal(x, i);
        } else if (x[i] == '(' || x[i] == ')') {
            if (x[i] == '(' && depth == 0)
                in_critical = ends_with_word(&out, "critical");
            depth += x[i] == '(' ? 1 : -1;
            if (depth == 0)
                in_critical = 0;
        } else if (x[i] >= '0' && x[i] <= '9') {
            while (is_ident_char(x[j]))
                j++;
        } else if (is_ident_start(x[i])) {
            while (is_ident_char(x[j]))
                j++;
            char *word = xasprintf("%.*s", (int)(j - i), x + i);
            const struct macro_def *m = depth == 0 || (depth == 1 && in_critical) ? find(&e, word) : NULL;
            free(word);
            if (e.why)
                break;
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
                /* a replacement that ends with a function-like macro's name
                 * takes the arguments that follow it (the rescan, C11
                 * 6.10.3.4p1: #define PICK SCHED_FN, then PICK(guided)) */
                for (int more = 0; rc == 0 && more < EXPAND_MAX_DEPTH && res.n; more++) {
                    const char *last = res.v[res.n - 1];
                    size_t open = end + strspn(x + end, " \t"), close;
                    const struct macro_def *f = is_identifier(last) ? find(&e, last) : NULL;
                    if (e.why) {
                        rc = -1;
                        break;
                    }
                    if (!f || !clang_Cursor_isMacroFunctionLike(f->cursor) || x[open] != '(' ||
                        !(close = closing_paren(x, open)))
                        break;
                    struct toks again = {0};
                    push_range(&again, &res, 0, res.n);
                    lex(x + open, close + 1 - open, &again);
                    toks_free(&res);
                    rc = expand(&e, &again, NULL, 0, &res);
                    toks_free(&again);
                    end = close + 1;
                }
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
        free(e.used);
        *why = e.why;
        *what = e.what;
        return e.why ? -1 : 0;
    }
    free(p->text);
    free(p->text_offsets);
    p->text = out.c;
    p->text_offsets = out.at;
    *used = e.used;
    *nused = e.nused;
    return replaced;
}

char *macro_replace_text(const struct macro_table *t, unsigned pos, const char *text, size_t len)
{
    return macro_replace_text_using(t, pos, text, len, NULL, NULL);
}

char *macro_replace_text_using(const struct macro_table *t, unsigned pos, const char *text,
                               size_t len, CXCursor **used, size_t *nused)
{
    struct expander e = {.t = t, .pos = pos, .want_used = used != NULL};
    struct toks in = {0}, res = {0};
    lex(text, len, &in);
    int rc = expand(&e, &in, NULL, 0, &res);
    struct text out = {0};
    for (size_t k = 0; rc == 0 && k < res.n; k++) {
        if (k)
            text_add(&out, " ", 1, NULL, 0);
        text_add(&out, res.v[k], strlen(res.v[k]), NULL, 0);
    }
    toks_free(&in);
    toks_free(&res);
    free(e.what);
    free(out.at);
    if (rc != 0) {
        free(e.used);
        free(out.c);
        return NULL;
    }
    if (used) {
        *used = e.used;
        *nused = e.nused;
    }
    return out.c ? out.c : xstrdup("");
}
