/* Finding pragmas and the statements they apply to, with libclang.
 *
 * The file is parsed WITHOUT -fopenmp (with _OPENMP defined when the user asked
 * for OpenMP, so conditional code reads the same): libclang then shows every
 * statement, while with -fopenmp the bodies of parallel regions hide inside
 * captured statements that its C API does not expose. The pragmas themselves are
 * found in libclang's token stream of the file, skipping #if-excluded blocks. */
#include "source.h"
#include "source_scan.h"
#include "source_macros.h"
#include "source_skipped.h"

#include <clang-c/Index.h>
#include <limits.h>
#include <stdio.h>
#include <unistd.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "atomic_operand.h"
#include "directive.h"
#include "loops.h"
#include "util.h"

struct token {
    unsigned start, end;
    CXTokenKind kind;
    int code;               /* compiled code: not in a skipped #if branch, not a
                               preprocessor line other than #pragma */
};

/* A macro invocation in the file: from its name to just past its ')' (or name). */
struct expansion {
    unsigned start, end;
    char *pragma;   /* the invocation makes _Pragma("<this>") and nothing else, or NULL */
    struct kept_macro *kept; /* for such an invocation: the macros that made it that the
                                file defines */
    size_t nkept;
    /* statements of a block outside it that it makes part of: the first one
     * found and its block; spans: a second statement of that block too */
    CXCursor block, stmt;
    int straddled, spans;
    unsigned stmt_start, stmt_end; /* the first statement's extent */
    int stmt_semicolon, stmt_loop; /* it still needs its ';'; it is a for loop */
};

struct scan {
    struct source *s;
    CXTranslationUnit tu;
    CXFile file;
    struct token *tokens;
    unsigned ntokens;
    /* statement search: for each wanted start offset, the outermost statement */
    unsigned *wanted;       /* sorted, unique */
    size_t nwanted;
    unsigned *found_end;    /* 0 when none found */
    int *found_semicolon;   /* the statement still needs its ';' */
    int *found_decl;        /* the statement is a declaration */
    struct loop_header **found_loop; /* the statement as a for loop */
    CXCursor *found_cursor;          /* the statement (an atomic's x is made out of it) */
    unsigned *found_macro_end;       /* the statement ends with the expansion of the macro
                                        invoked here (offset of its name), or UINT_MAX */
    struct expansion *expansions;    /* in source order */
    struct expansion *by_end;        /* the same, by end */
    unsigned *includes;              /* the #include directives of the file the preprocessor
                                        carried out (offsets, in source order) */
    size_t nincludes;
    struct pragma_macro {
        char *name;
        CXCursor def;
    } *pragma_macros;                /* the macros with a _Pragma in their body */
    size_t npragma_macros;
    int pragma_pass;     /* find_pragma_macros' pass */
    size_t pragma_known; /* the pragma macros found before this pass */
    size_t nexpansions;
    int verbose;
    int main_file; /* the file is the unit's main file, not a header */
    struct macro_table macros; /* the unit's macro definitions (scan_macros) */
    int macros_built;
};

/* The unit's macro definitions, read at the first need. */
static const struct macro_table *scan_macros(struct scan *sc)
{
    if (!sc->macros_built) {
        macro_table_build(&sc->macros, sc->tu, sc->file, !sc->main_file);
        sc->macros_built = 1;
    }
    return &sc->macros;
}

void source_position(const struct source *s, unsigned offset, unsigned *line, unsigned *col)
{
    unsigned lo = 0, hi = s->nlines;
    while (hi - lo > 1) {
        unsigned mid = (lo + hi) / 2;
        if (s->line_offsets[mid] <= offset)
            lo = mid;
        else
            hi = mid;
    }
    *line = lo + 1;
    *col = offset - s->line_offsets[lo] + 1;
}

unsigned source_line(const struct source *s, unsigned offset)
{
    unsigned line, col;
    source_position(s, offset, &line, &col);
    return line;
}

void source_presumed_of_line(const struct source *s, unsigned line, const char **file,
                             unsigned *presumed)
{
    if (s->ast.presumed_line && line >= 1 && line <= s->nlines) {
        *file = s->ast.presumed_file[line - 1];
        *presumed = s->ast.presumed_line[line - 1];
    } else {
        *file = s->path;
        *presumed = line;
    }
}

void source_spelled_of_line(const struct source *s, unsigned line, const char **file,
                            unsigned *presumed)
{
    source_presumed_of_line(s, line, file, presumed);
    if (s->ast.presumed_spelled && line >= 1 && line <= s->nlines)
        *file = s->ast.presumed_spelled[line - 1];
}

const char *source_spelled_name(const struct source *s)
{
    return s->spelled ? s->spelled : s->path;
}

const char *source_presumed_file(const struct source *s, unsigned offset)
{
    const char *file;
    unsigned line;
    source_presumed_of_line(s, source_line(s, offset), &file, &line);
    return file;
}

unsigned source_presumed_line(const struct source *s, unsigned offset)
{
    const char *file;
    unsigned line;
    source_presumed_of_line(s, source_line(s, offset), &file, &line);
    return line;
}

static void report(const struct source *s, unsigned offset, const char *what, const char *msg)
{
    unsigned line, col;
    source_position(s, offset, &line, &col);
    fprintf(stderr, "%s:%u:%u: %s: %s\n", s->path, line, col, what, msg);
}

static int compute_lines(struct source *s)
{
    unsigned n = 1;
    for (size_t i = 0; i < s->size; i++)
        if (s->text[i] == '\n')
            n++;
    s->line_offsets = xmalloc(n * sizeof *s->line_offsets);
    s->nlines = 0;
    s->line_offsets[s->nlines++] = 0;
    for (size_t i = 0; i < s->size; i++)
        if (s->text[i] == '\n')
            s->line_offsets[s->nlines++] = (unsigned)i + 1;
    return 0;
}

/* ---- tokens ---- */

static int tok_is(const struct scan *sc, unsigned i, const char *spelling)
{
    if (i >= sc->ntokens)
        return 0;
    size_t n = strlen(spelling);
    const struct token *t = &sc->tokens[i];
    return t->end - t->start == n && memcmp(sc->s->text + t->start, spelling, n) == 0;
}

/* Whether token i reads as spelling once its line splices are taken out
 * (`#pra\` at a line's end, `gma omp` on the next), or is `%:`, the digraph
 * of `#`: compilers read both as `#pragma` (a pragma spelled so was left to
 * the runtime without a word; a probe). */
static int tok_reads_as(const struct scan *sc, unsigned i, const char *spelling)
{
    if (tok_is(sc, i, spelling))
        return 1;
    if (i >= sc->ntokens)
        return 0;
    const struct token *t = &sc->tokens[i];
    const char *text = sc->s->text;
    if (strcmp(spelling, "#") == 0 && t->end - t->start == 2 &&
        memcmp(text + t->start, "%:", 2) == 0)
        return 1;
    size_t k = 0, n = strlen(spelling);
    for (unsigned o = t->start; o < t->end;) {
        size_t splice = source_splice_length(text, t->end, o);
        if (splice) {
            o += (unsigned)splice;
        } else if (k < n && text[o] == spelling[k]) {
            k++;
            o++;
        } else {
            return 0;
        }
    }
    return k == n;
}

/* First token at or after offset. */
static unsigned token_at_or_after(const struct scan *sc, unsigned offset)
{
    unsigned lo = 0, hi = sc->ntokens;
    while (lo < hi) {
        unsigned mid = (lo + hi) / 2;
        if (sc->tokens[mid].start < offset)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

static void tokenize(struct scan *sc)
{
    CXSourceLocation b = clang_getLocationForOffset(sc->tu, sc->file, 0);
    CXSourceLocation e = clang_getLocationForOffset(sc->tu, sc->file, (unsigned)sc->s->size);
    CXToken *toks = NULL;
    unsigned n = 0;
    clang_tokenize(sc->tu, clang_getRange(b, e), &toks, &n);
    sc->tokens = xmalloc((n ? n : 1) * sizeof *sc->tokens);
    sc->ntokens = 0;
    for (unsigned i = 0; i < n; i++) {
        /* libclang returns the comments that follow a _Pragma(...) as tokens:
         * the statement after a directive starts at the next real token */
        if (clang_getTokenKind(toks[i]) == CXToken_Comment)
            continue;
        CXSourceRange r = clang_getTokenExtent(sc->tu, toks[i]);
        unsigned so, eo;
        clang_getFileLocation(clang_getRangeStart(r), NULL, NULL, NULL, &so);
        clang_getFileLocation(clang_getRangeEnd(r), NULL, NULL, NULL, &eo);
        sc->tokens[sc->ntokens++] = (struct token){so, eo, clang_getTokenKind(toks[i]), 1};
    }
    clang_disposeTokens(sc->tu, toks, n);
}

/* Whether the '#' token i begins a preprocessing directive: between the
 * token before it (or the file's start) and it, a new line outside comments
 * (a comment is one space by then, C11 5.1.1.2: "/\* hot *\/ #pragma omp
 * ..." is a directive, and was skipped). *line_start: where that line
 * begins, before any comment on it (a comment of several lines that ends
 * before the '#' is whole there). */
static int directive_line_start(const struct scan *sc, unsigned i, unsigned *line_start)
{
    const char *text = sc->s->text;
    unsigned from = i > 0 ? sc->tokens[i - 1].end : 0, to = sc->tokens[i].start;
    int found = i == 0;
    unsigned start = 0;
    for (unsigned k = from; k < to; k++) {
        size_t past = k;
        int comment = skip_comment(text, to, &past);
        if (comment < 0)
            return 0;
        if (comment > 0) {
            k = (unsigned)past - 1; /* (a // comment's newline is seen next) */
        } else if (text[k] == '\n' && !source_newline_spliced(text, k)) {
            found = 1;
            start = k + 1;
        }
    }
    *line_start = start;
    return found;
}

/* Marks the tokens the compiler sees as code: not in a branch #if leaves out,
 * not part of a preprocessor line (#if, #else, #endif, #define, ...) other than
 * #pragma. The statement after a pragma is the next such token's. */
static void mark_code(struct scan *sc, const struct skipped_ranges *skipped)
{
    const struct source *s = sc->s;
    unsigned directive_end = 0;
    for (unsigned i = 0; i < sc->ntokens; i++) {
        struct token *t = &sc->tokens[i];
        t->code = !skipped_contains(skipped, t->start);
        if (t->start < directive_end) {
            t->code = 0;
            continue;
        }
        if (tok_reads_as(sc, i, "#") && i + 1 < sc->ntokens && !tok_reads_as(sc, i + 1, "pragma")) {
            unsigned ls;
            if (!directive_line_start(sc, i, &ls))
                continue; /* a '#' inside a line: stringizing in a macro, ... */
            /* to the end of the logical line */
            unsigned e = t->start;
            while (e < s->size && !(s->text[e] == '\n' && !source_newline_spliced(s->text, e)))
                e++;
            directive_end = e;
            t->code = 0;
        }
    }
}

/* First code token at or after offset. */
static unsigned code_token_at_or_after(const struct scan *sc, unsigned offset)
{
    unsigned i = token_at_or_after(sc, offset);
    while (i < sc->ntokens && !sc->tokens[i].code)
        i++;
    return i;
}

/* ---- pragma text ---- */

/* Start of the logical line holding offset (following backslash continuations back). */
static unsigned logical_line_start(const struct source *s, unsigned offset)
{
    unsigned p = offset;
    for (;;) {
        while (p > 0 && s->text[p - 1] != '\n')
            p--;
        if (p < 2 || !source_newline_spliced(s->text, p - 1)) /* (p - 1: the '\n' before) */
            return p;
        p--;
    }
}

static void text_append(struct pragma *p, size_t *len, size_t *cap, char c, unsigned offset)
{
    if (*len + 2 > *cap) {
        *cap = *cap ? *cap * 2 : 128;
        p->text = xrealloc(p->text, *cap);
        p->text_offsets = xrealloc(p->text_offsets, *cap * sizeof *p->text_offsets);
    }
    p->text[*len] = c;
    p->text_offsets[*len] = offset;
    (*len)++;
    p->text[*len] = '\0';
}

/* Reads a #pragma from just after the "pragma" keyword to the end of its logical
 * line: continuations joined, comments turned into blanks. Sets p->end. */
static void read_directive_line(const struct source *s, unsigned from, struct pragma *p)
{
    size_t len = 0, cap = 0;
    unsigned i = from;
    text_append(p, &len, &cap, ' ', from);
    len = 0;
    while (i < s->size) {
        char c = s->text[i];
        size_t splice = source_splice_length(s->text, s->size, i);
        if (splice) {
            i += (unsigned)splice;
            continue;
        }
        if (c == '\n' || (c == '\r' && i + 1 < s->size && s->text[i + 1] == '\n'))
            break;
        if (c == '/' && i + 1 < s->size && s->text[i + 1] == '/') {
            /* to the end of the line, and of the next one while a line ends
             * with a backslash (lines are joined before comments go) */
            for (;;) {
                while (i < s->size && s->text[i] != '\n')
                    i++;
                if (i < s->size && source_newline_spliced(s->text, i)) {
                    i++;
                    continue;
                }
                i = i > 0 && s->text[i - 1] == '\r' ? i - 1 : i;
                break;
            }
            break;
        }
        if (c == '/' && i + 1 < s->size && s->text[i + 1] == '*') {
            unsigned at = i;
            i += 2;
            while (i + 1 < s->size && !(s->text[i] == '*' && s->text[i + 1] == '/'))
                i++;
            i += 2;
            text_append(p, &len, &cap, ' ', at);
            continue;
        }
        if (c == '"' || c == '\'') { /* a literal inside the pragma: copied whole */
            char q = c;
            text_append(p, &len, &cap, c, i++);
            while (i < s->size && s->text[i] != q && s->text[i] != '\n') {
                if (s->text[i] == '\\' && i + 1 < s->size)
                    text_append(p, &len, &cap, s->text[i], i), i++;
                text_append(p, &len, &cap, s->text[i], i), i++;
            }
            if (i < s->size && s->text[i] == q)
                text_append(p, &len, &cap, q, i++);
            continue;
        }
        text_append(p, &len, &cap, c, i++);
    }
    p->end = i > s->size ? (unsigned)s->size : i;
}

/* The text of _Pragma("...") with the string literal's escapes undone. */
static int read_operator_string(const struct source *s, const struct token *lit, struct pragma *p)
{
    size_t len = 0, cap = 0;
    unsigned i = lit->start;
    if (s->text[i] != '"')
        return -1; /* wide or unicode literal: not an OpenMP pragma we rewrite */
    text_append(p, &len, &cap, ' ', i);
    len = 0;
    for (i++; i + 1 < lit->end; i++) {
        size_t splice = source_splice_length(s->text, lit->end, i);
        if (splice) { /* (a continued line: joined before the literal is read) */
            i += (unsigned)splice - 1;
            continue;
        }
        if (s->text[i] == '\\' && (s->text[i + 1] == '"' || s->text[i + 1] == '\\'))
            i++;
        text_append(p, &len, &cap, s->text[i], i);
    }
    return 0;
}

/* What measures an attribute's directive pomp leaves alone (which directive,
 * the scan does not read: GCC's static loops, master and atomic make no
 * runtime call, and nothing measures them there; a probe). */
#define LEFT_ATTRIBUTE                                                                             \
    "only the runtime's events measure it, where they report it (in a GCC build not a static "  \
    "loop, a master or an atomic)"

/* An OpenMP attribute pomp leaves to the compiler (the tokens from i, its
 * "[["): said at its place, and counted as a construct left to the runtime's
 * events, so that the link step says so (it said the file was not built with
 * pompcc; a probe). */
static int attribute_left(const struct scan *sc, unsigned i, const char *why)
{
    struct source *s = sc->s;
    report(s, sc->tokens[i].start, "warning", why);
    unsigned k = i + 2, depth = 0;
    for (; k < sc->ntokens && !(depth == 0 && tok_is(sc, k, "]")); k++)
        depth += tok_is(sc, k, "(") - tok_is(sc, k, ")");
    unsigned end = k < sc->ntokens ? sc->tokens[k].end : (unsigned)s->size;
    s->macro_omp_pragmas++;
    if (source_text_may_be_mutex(s->text + sc->tokens[i].start, end - sc->tokens[i].start))
        s->macro_mutex_pragmas++;
    return -1;
}

/* A directive in C++ attribute syntax, [[omp::directive(...)]] (OpenMP 5.1):
 * a pragma written as an operator, "omp <directive-specification>", from the
 * first '[' to the last ']'. Other attribute forms of OpenMP (omp::sequence,
 * several attributes in one list, [[using omp: ...]]) are left to the
 * compiler with a warning: the runtime's events still measure them. */
static int read_attribute_directive(const struct scan *sc, unsigned i, struct pragma *p)
{
    const struct source *s = sc->s;
    unsigned open = i + 5, depth = 0, close = 0;
    if (tok_is(sc, i + 2, "using"))
        return attribute_left(sc, i,
                              "this C++ attribute form of an OpenMP directive ([[using omp: ...]]) "
                              "is not instrumented (only [[omp::directive(...)]] is); " LEFT_ATTRIBUTE);
    if (!tok_is(sc, i + 4, "directive") || !tok_is(sc, open, "("))
        return attribute_left(sc, i,
                              "this C++ attribute form of an OpenMP directive is not instrumented "
                              "(only [[omp::directive(...)]] is); " LEFT_ATTRIBUTE);
    for (unsigned k = open; k < sc->ntokens && !close; k++)
        if (tok_is(sc, k, "("))
            depth++;
        else if (tok_is(sc, k, ")") && --depth == 0)
            close = k;
    if (!close || !tok_is(sc, close + 1, "]") || !tok_is(sc, close + 2, "]"))
        return attribute_left(sc, i,
                              "an [[omp::directive(...)]] with other attributes beside it is not "
                              "instrumented; " LEFT_ATTRIBUTE);
    size_t len = 0, cap = 0;
    const char *lead = " omp ";
    for (const char *c = lead; *c; c++)
        text_append(p, &len, &cap, *c, sc->tokens[i].start);
    for (unsigned k = sc->tokens[open].end; k < sc->tokens[close].start; k++)
        text_append(p, &len, &cap, s->text[k] == '\n' || s->text[k] == '\r' ? ' ' : s->text[k], k);
    p->start = sc->tokens[i].start;
    p->line_start = p->start;
    /* a stand-alone directive is an attribute of a null statement: the ';'
     * belongs to it, so that code inserted after it does not take it over */
    p->end = sc->tokens[close + (tok_is(sc, close + 3, ";") ? 3 : 2)].end;
    p->is_operator = 1;
    return 0;
}

static int starts_with_word(const char *text, const char *word)
{
    while (*text == ' ' || *text == '\t')
        text++;
    size_t n = strlen(word);
    return strncmp(text, word, n) == 0 &&
           !(text[n] == '_' || (text[n] >= 'a' && text[n] <= 'z') ||
             (text[n] >= 'A' && text[n] <= 'Z') || (text[n] >= '0' && text[n] <= '9'));
}

static void add_pragma(struct source *s, const struct pragma *p)
{
    s->pragmas = xrealloc(s->pragmas, (s->npragmas + 1) * sizeof *s->pragmas);
    s->pragmas[s->npragmas++] = *p;
}

static int by_pragma_start(const void *a, const void *b)
{
    const struct pragma *x = a, *y = b;
    return (x->start > y->start) - (x->start < y->start);
}

static char *macro_name_at(const struct scan *sc, unsigned offset);
static char *unescape_literal(const char *lit);

static unsigned definition_after(struct scan *sc, CXCursor def);

static void kept_macros_free(struct kept_macro *kept, size_t n)
{
    for (size_t i = 0; i < n; i++)
        free(kept[i].name);
    free(kept);
}

/* Adds the macros of defs (n definitions) that the file defines to *kept. */
static void keep_macros(struct scan *sc, const CXCursor *defs, size_t n, struct kept_macro **kept,
                        size_t *nkept)
{
    for (size_t i = 0; i < n; i++) {
        unsigned after = definition_after(sc, defs[i]);
        if (after == UINT_MAX)
            continue;
        CXString name = clang_getCursorSpelling(defs[i]);
        *kept = xrealloc(*kept, (*nkept + 1) * sizeof **kept);
        (*kept)[(*nkept)++] = (struct kept_macro){xstrdup(clang_getCString(name)), after};
        clang_disposeString(name);
    }
}

/* Past the comment that starts at text[*i] (skip_comment), a // comment
 * going on over spliced lines included; 0 where none starts there. */
static int skip_spliced_comment(const char *text, size_t size, size_t *i)
{
    int line = *i + 1 < size && text[*i + 1] == '/';
    int found = skip_comment(text, size, i);
    while (found && line && *i < size && source_newline_spliced(text, *i)) {
        const char *nl = memchr(text + *i + 1, '\n', size - *i - 1);
        *i = nl ? (size_t)(nl - text) : size;
    }
    return found;
}

/* A copy of text (len bytes) with each comment's characters made blanks
 * (newlines kept), string and character literals left as they are. */
static char *blank_comments(const char *text, size_t len)
{
    char *c = xmalloc(len + 1);
    memcpy(c, text, len);
    c[len] = '\0';
    for (size_t i = 0; i < len; i++) {
        size_t past = i;
        if (c[i] == '"' || c[i] == '\'') {
            char q = c[i];
            for (i++; i < len && c[i] != q; i++)
                if (c[i] == '\\')
                    i++;
        } else if (skip_spliced_comment(text, len, &past)) {
            for (; i < past; i++)
                if (c[i] != '\n')
                    c[i] = ' ';
            i--;
        }
    }
    return c;
}

/* Whether lit is one string literal token (a _Pragma's operand). */
static int one_string_literal(const char *lit)
{
    if (lit[0] != '"')
        return 0;
    for (size_t i = 1; lit[i]; i++) {
        if (lit[i] == '\\' && lit[i + 1])
            i++;
        else if (lit[i] == '"')
            return lit[i + 1] == '\0';
    }
    return 0;
}

/* The directive a _Pragma makes whose string comes from macros: the file's
 * text from..to replaced as the compiler replaces it, with the definitions in
 * force at pos. invocation: that text is a macro's invocation, which must
 * make `_Pragma("...")` and nothing else (#define PRAGMA(x) _Pragma(#x),
 * PRAGMA(omp for)); else it is a _Pragma's operand, which must make one
 * string literal. Returns the directive's text, or NULL; *used: the
 * definitions replaced (macro_replace_text_using). */
static char *macro_made_directive(struct scan *sc, unsigned pos, unsigned from, unsigned to,
                                  int invocation, CXCursor **used, size_t *nused)
{
    /* comments are blanks to the preprocessor: a comment among the arguments
     * (PRAGMA(omp for, then a comment, nowait)) */
    char *blanked = blank_comments(sc->s->text + from, to - from);
    char *made = macro_replace_text_using(scan_macros(sc), pos, blanked, to - from, used, nused);
    free(blanked);
    char *lit = made;
    if (made && invocation) {
        static const char head[] = "_Pragma ( ", tail[] = " )";
        size_t n = strlen(made), h = sizeof head - 1, e = sizeof tail - 1;
        if (n > h + e && strncmp(made, head, h) == 0 && strcmp(made + n - e, tail) == 0) {
            made[n - e] = '\0';
            lit = made + h;
        } else {
            lit = NULL;
        }
    }
    char *text = lit && one_string_literal(lit) ? unescape_literal(lit) : NULL;
    free(made);
    return text;
}

static void find_pragmas(struct scan *sc)
{
    struct source *s = sc->s;
    struct skipped_ranges skipped_ranges;
    skipped_ranges_of(sc->tu, sc->file, &skipped_ranges); /* out of memory: none skipped */
    const struct skipped_ranges *skipped = &skipped_ranges;
    struct skipped_inclusions each;
    skipped_inclusions_of(sc->tu, sc->file, &each);
    if (each.entries > 1) {
        s->inclusions = xmalloc(sizeof *s->inclusions);
        *s->inclusions = each;
    } else {
        skipped_inclusions_free(&each);
    }
    mark_code(sc, skipped);
    for (unsigned i = 0; i < sc->ntokens; i++) {
        struct pragma p = {0};
        const struct token *t = &sc->tokens[i];
        if (tok_reads_as(sc, i, "#") && tok_reads_as(sc, i + 1, "pragma")) {
            unsigned ls;
            if (!directive_line_start(sc, i, &ls))
                continue;
            p.start = t->start;
            p.line_start = ls;
            read_directive_line(s, sc->tokens[i + 1].end, &p);
        } else if (tok_is(sc, i, "_Pragma") && tok_is(sc, i + 1, "(") &&
                   i + 3 < sc->ntokens && sc->tokens[i + 2].kind == CXToken_Literal &&
                   tok_is(sc, i + 3, ")")) {
            unsigned ls = logical_line_start(s, t->start);
            unsigned k = ls;
            while (k < t->start && (s->text[k] == ' ' || s->text[k] == '\t'))
                k++;
            if (s->text[k] == '#') { /* inside a #define: expanded elsewhere */
                if (sc->verbose && !skipped_contains(skipped, t->start))
                    report(s, t->start, "note",
                           "_Pragma in a macro definition is left alone here; a macro that is only "
                           "this _Pragma is instrumented where it is invoked");
                continue;
            }
            if (read_operator_string(s, &sc->tokens[i + 2], &p) != 0)
                continue;
            p.start = t->start;
            p.line_start = t->start;
            p.end = sc->tokens[i + 3].end;
            p.is_operator = 1;
        } else if (tok_is(sc, i, "[") && tok_is(sc, i + 1, "[") && t->code &&
                   !skipped_contains(skipped, t->start) &&
                   ((tok_is(sc, i + 2, "omp") && tok_is(sc, i + 3, "::")) ||
                    (tok_is(sc, i + 2, "using") && tok_is(sc, i + 3, "omp") &&
                     tok_is(sc, i + 4, ":")))) {
            if (read_attribute_directive(sc, i, &p) != 0)
                continue;
        } else if (tok_is(sc, i, "_Pragma") && tok_is(sc, i + 1, "(") && t->code &&
                   !skipped_contains(skipped, t->start)) {
            /* _Pragma(STR(omp ...)), _Pragma(PFOR_STR): its string made by
             * macros, read as the compiler makes it (it was left to the
             * runtime's events: the static loops of such a directive in a GCC
             * build were measured by nothing; a probe) */
            unsigned k = i + 2, open = 1;
            for (; k < sc->ntokens && open; k++)
                open += tok_is(sc, k, "(") - tok_is(sc, k, ")");
            CXCursor *used = NULL;
            size_t nused = 0;
            char *text = open ? NULL
                              : macro_made_directive(sc, t->start, sc->tokens[i + 2].start,
                                                     sc->tokens[k - 1].start, 0, &used, &nused);
            if (text) /* (the macros of a directive: not of _Pragma(DIAG(push)) and the like) */
                keep_macros(sc, used, nused, &p.kept, &p.nkept);
            free(used);
            if (!text)
                continue;
            p.start = t->start;
            p.line_start = t->start;
            p.end = sc->tokens[k - 1].end;
            p.is_operator = 1;
            size_t len = 0, cap = 0;
            for (const char *c = text; *c; c++)
                text_append(&p, &len, &cap, *c, t->start);
            free(text);
        } else {
            continue;
        }
        if (!p.is_operator && starts_with_word(p.text, "omp") &&
            skipped_contains(skipped, p.start)) {
            s->skipped_omp = xrealloc(s->skipped_omp, (s->nskipped_omp + 1) * sizeof *s->skipped_omp);
            s->skipped_omp[s->nskipped_omp++] =
                (struct skipped_directive){p.start, sc->tokens[i + 1].end, p.end};
        }
        if ((!starts_with_word(p.text, "omp") && !starts_with_word(p.text, "pomp")) ||
            skipped_contains(skipped, p.start)) {
            free(p.text);
            free(p.text_offsets);
            kept_macros_free(p.kept, p.nkept);
            continue;
        }
        add_pragma(s, &p);
    }
    /* invocations of macros that are a _Pragma: pragmas at the invocation */
    for (size_t i = 0; i < sc->nexpansions; i++) {
        struct expansion *x = &sc->expansions[i];
        if (!x->pragma || skipped_contains(skipped, x->start) ||
            (!starts_with_word(x->pragma, "omp") && !starts_with_word(x->pragma, "pomp")))
            continue;
        /* (the kept macros go to the pragma: sc->by_end's copies never read them) */
        struct pragma p = {.start = x->start, .end = x->end, .line_start = x->start,
                           .is_operator = 1, .macro = macro_name_at(sc, x->start),
                           .kept = x->kept, .nkept = x->nkept};
        x->kept = NULL;
        x->nkept = 0;
        size_t len = 0, cap = 0;
        for (const char *c = x->pragma; *c; c++)
            text_append(&p, &len, &cap, *c, x->start);
        add_pragma(s, &p);
    }
    if (s->npragmas)
        qsort(s->pragmas, s->npragmas, sizeof *s->pragmas, by_pragma_start);
    skipped_ranges_free(&skipped_ranges);
}

/* The macros in the omp directives replaced (source_macros.h): the clauses
 * and directive names they make are read like written ones. */
static void expand_directive_macros(struct scan *sc)
{
    for (size_t i = 0; i < sc->s->npragmas; i++) {
        struct pragma *p = &sc->s->pragmas[i];
        if (!starts_with_word(p->text, "omp"))
            continue;
        const char *why = NULL;
        char *what = NULL;
        CXCursor *used;
        size_t nused;
        int n = pragma_expand_macros(scan_macros(sc), p, &why, &what, &used, &nused);
        /* the directive rewritten from the replaced text no longer uses them:
         * kept used (constructs.c), or -Wunused-macros -Werror failed the
         * instrumented compile of a file that used a macro only there (a probe) */
        keep_macros(sc, used, nused, &p->kept, &p->nkept);
        free(used);
        if (n < 0) {
            p->unread_macros = xasprintf("the macros in it are not replaced (%s%s%s%s)",
                                         what ? "'" : "", what ? what : "", what ? "' " : "", why);
            free(what);
        } else if (n > 0 && sc->verbose) {
            char *msg = xasprintf("its macros replaced, the directive reads '%s'", p->text + strspn(p->text, " \t"));
            report(sc->s, p->start, "note", msg);
            free(msg);
        }
    }
}

/* ---- statements ---- */

static unsigned expansion_offset(struct scan *sc, CXSourceLocation loc, int *in_file)
{
    CXFile f;
    unsigned off;
    clang_getExpansionLocation(loc, &f, NULL, NULL, &off);
    *in_file = f && clang_File_isEqual(f, sc->file);
    return off;
}

/* In v (sorted by start, or by end with at_end), the first invocation that
 * starts (ends) at offset, or NULL. */
static const struct expansion *find_expansion(const struct expansion *v, size_t n, unsigned offset,
                                              int at_end)
{
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if ((at_end ? v[mid].end : v[mid].start) < offset)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < n && (at_end ? v[lo].end : v[lo].start) == offset ? &v[lo] : NULL;
}

/* The macro invocation whose name starts at offset, or NULL. */
static const struct expansion *expansion_at(const struct scan *sc, unsigned offset)
{
    return find_expansion(sc->expansions, sc->nexpansions, offset, 0);
}

/* The outermost macro invocation that ends at offset, or NULL. */
static const struct expansion *expansion_ending_at(const struct scan *sc, unsigned offset)
{
    return find_expansion(sc->by_end, sc->nexpansions, offset, 1);
}

/* Where the compiler reads the code at loc in the file: a token of a macro's
 * argument is where the argument is written, a token of a macro's body is the
 * whole invocation (libclang's extents then start at the macro's name and end
 * past its ')'). */
static unsigned file_offset(struct scan *sc, CXSourceLocation loc, int *in_file)
{
    CXFile f;
    unsigned off;
    clang_getFileLocation(loc, &f, NULL, NULL, &off);
    *in_file = f && clang_File_isEqual(f, sc->file);
    return off;
}

/* The text of "..." (a plain string literal's spelling), escapes undone. */
static char *unescape_literal(const char *lit)
{
    size_t n = strlen(lit);
    if (n < 2 || lit[0] != '"' || lit[n - 1] != '"')
        return NULL; /* wide, unicode or raw literal: not a pragma pomp rewrites */
    char *s = xmalloc(n), *o = s;
    for (size_t i = 1; i + 1 < n; i++) {
        if (lit[i] == '\\' && (lit[i + 1] == '"' || lit[i + 1] == '\\'))
            i++;
        *o++ = lit[i];
    }
    *o = '\0';
    return s;
}

/* Is token t spelled what? */
static int spelled(CXTranslationUnit tu, CXToken t, const char *what)
{
    CXString x = clang_getTokenSpelling(tu, t);
    int same = strcmp(clang_getCString(x), what) == 0;
    clang_disposeString(x);
    return same;
}

/* For an object-like macro whose whole body is _Pragma("..."): the string's
 * text; otherwise NULL. Such a macro's invocation is a pragma like any other. */
static char *macro_pragma(CXTranslationUnit tu, CXCursor expansion)
{
    CXCursor def = clang_getCursorReferenced(expansion);
    if (clang_getCursorKind(def) != CXCursor_MacroDefinition)
        return NULL;
    CXToken *toks = NULL;
    unsigned n = 0;
    clang_tokenize(tu, clang_getCursorExtent(def), &toks, &n);
    /* a function-like one's parameters, which a body of one literal does not
     * use (#define OMP_PF() _Pragma("omp parallel for")): its body starts
     * after their ')' */
    unsigned body = 1;
    if (clang_Cursor_isMacroFunctionLike(def))
        while (body < n && !spelled(tu, toks[body++], ")"))
            ;
    char *text = NULL;
    const char *want[] = {"_Pragma", "(", NULL, ")"};
    int ok = n == body + 4;
    for (unsigned i = 0; ok && i < 4; i++) {
        CXString s = clang_getTokenSpelling(tu, toks[body + i]);
        if (want[i])
            ok = strcmp(clang_getCString(s), want[i]) == 0;
        else
            ok = (text = unescape_literal(clang_getCString(s))) != NULL;
        clang_disposeString(s);
    }
    clang_disposeTokens(tu, toks, n);
    if (!ok) {
        free(text);
        return NULL;
    }
    return text;
}

/* The text of argument k of a function-like macro's invocation inv (its name
 * to its ')'), or NULL. */
static char *invocation_argument(const char *inv, size_t len, unsigned k)
{
    const char *open = memchr(inv, '(', len), *end = inv + len;
    if (!open)
        return NULL;
    const char *arg = open + 1;
    unsigned at = 0;
    int depth = 0;
    for (const char *q = arg; q < end; q++) {
        if (*q == '(') {
            depth++;
        } else if ((*q == ')' && depth-- == 0) || (*q == ',' && depth == 0)) {
            if (at++ == k)
                return xasprintf("%.*s", (int)(q - arg), arg);
            if (*q == ')')
                return NULL;
            arg = q + 1;
        }
    }
    return NULL;
}

/* `_Pragma(#p)` in the body of a function-like macro (tokens toks of its
 * definition, #p at index hash): is the argument the invocation inv gives p
 * an omp directive (1; #define PRAGMA(x) _Pragma(#x), PRAGMA(omp parallel)),
 * a pomp one (2), or neither (0)? */
static int stringized_omp(CXTranslationUnit tu, const CXToken *toks, unsigned n, unsigned hash,
                          const char *inv, size_t inv_len)
{
    if (n < 3 || !spelled(tu, toks[1], "("))
        return 0;
    CXString param = clang_getTokenSpelling(tu, toks[hash + 1]);
    unsigned k = 0;
    int found = 0;
    for (unsigned i = 2; i < n && !spelled(tu, toks[i], ")") && !found; i++) {
        if (spelled(tu, toks[i], ","))
            k++;
        else
            found = spelled(tu, toks[i], clang_getCString(param));
    }
    clang_disposeString(param);
    char *arg = found ? invocation_argument(inv, inv_len, k) : NULL;
    const char *words = arg ? arg + strspn(arg, " \t\r\n") : NULL;
    int kind = !words                           ? 0
               : starts_with_word(words, "omp")  ? 1
               : starts_with_word(words, "pomp") ? 2
                                                 : 0;
    free(arg);
    return kind;
}

/* Counts a directive stringized_omp found: an omp one in *omp, a pomp one in *pomp. */
static void count_stringized(int kind, unsigned *omp, unsigned *pomp)
{
    *omp += kind == 1;
    *pomp += kind == 2;
}

/* The text of macro definition def (name to the end of its body), or NULL. */
static const char *definition_text(CXTranslationUnit tu, CXCursor def, unsigned *from,
                                   unsigned *to)
{
    CXSourceRange r = clang_getCursorExtent(def);
    CXFile f;
    size_t size = 0;
    clang_getSpellingLocation(clang_getRangeStart(r), &f, NULL, NULL, from);
    clang_getSpellingLocation(clang_getRangeEnd(r), NULL, NULL, NULL, to);
    const char *text = f ? clang_getFileContents(tu, f, &size) : NULL;
    return text && *to <= size && *from < *to ? text : NULL;
}

/* The macro defined with a _Pragma in its body under that name, or a null cursor. */
static CXCursor pragma_macro(const struct scan *sc, const char *name)
{
    for (size_t i = 0; i < sc->npragma_macros; i++)
        if (strcmp(sc->pragma_macros[i].name, name) == 0)
            return sc->pragma_macros[i].def;
    return clang_getNullCursor();
}

/* How deep a macro's _Pragma is looked for: PF3 -> OMP(...) -> DO_PRAGMA(omp
 * __VA_ARGS__) -> _Pragma(#x) is three (a pragma two macros away went
 * uncounted, said nowhere). */
#define PRAGMA_MACRO_DEPTH 8

/* How many `_Pragma("omp ...")` the body of macro definition def makes, for
 * the invocation inv (its text, for a pragma made from an argument): its own,
 * and those of the macros it invokes that make one, to PRAGMA_MACRO_DEPTH
 * (#define OMP_FOR PRAGMA(omp for), #define OMP(x) PRAGMA(omp x)). */
static unsigned body_omp_pragmas(const struct scan *sc, CXCursor def, const char *inv,
                                 size_t inv_len, int depth, int *mutex, unsigned *pomp)
{
    CXTranslationUnit tu = sc->tu;
    unsigned from, to;
    /* NULL: a definition in no file (the command line): read by its tokens
     * alone, and taken for one that may make a critical */
    const char *text = definition_text(tu, def, &from, &to);
    if (!text || source_text_may_be_mutex(text + from, to - from) ||
        source_text_may_be_mutex(inv, inv ? inv_len : 0))
        *mutex = 1;
    int direct = !text || memmem(text + from, to - from, "_Pragma", 7) != NULL ||
                 memmem(text + from, to - from, "omp", 3) != NULL,
        indirect = 0;
    for (size_t i = 0; depth < PRAGMA_MACRO_DEPTH && !direct && !indirect && i < sc->npragma_macros; i++)
        indirect = memmem(text + from, to - from, sc->pragma_macros[i].name,
                          strlen(sc->pragma_macros[i].name)) != NULL;
    if (!direct && !indirect)
        return 0;
    CXToken *toks = NULL;
    unsigned n = 0, found = 0;
    clang_tokenize(tu, clang_getCursorExtent(def), &toks, &n);
    for (unsigned i = 1; i < n; i++) { /* toks[0]: the macro's own name */
        CXString name = clang_getTokenSpelling(tu, toks[i]);
        const char *word = clang_getCString(name);
        int call = i + 1 < n && spelled(tu, toks[i + 1], "(");
        if (strcmp(word, "omp") == 0 && i + 2 < n && spelled(tu, toks[i + 1], "::") &&
            (spelled(tu, toks[i + 2], "directive") || spelled(tu, toks[i + 2], "sequence"))) {
            found++; /* [[omp::directive(...)]] from a macro: left alone, counted */
        } else if (strcmp(word, "_Pragma") == 0 && call && i + 2 < n &&
            clang_getTokenKind(toks[i + 2]) == CXToken_Literal) {
            CXString lit = clang_getTokenSpelling(tu, toks[i + 2]);
            char *pragma = unescape_literal(clang_getCString(lit));
            found += pragma && starts_with_word(pragma, "omp");
            *pomp += pragma && starts_with_word(pragma, "pomp");
            free(pragma);
            clang_disposeString(lit);
        } else if (strcmp(word, "_Pragma") == 0 && call && i + 3 < n &&
                   spelled(tu, toks[i + 2], "#") &&
                   clang_getTokenKind(toks[i + 3]) == CXToken_Identifier) {
            count_stringized(inv ? stringized_omp(tu, toks, n, i + 2, inv, inv_len) : 0, &found, pomp);
        } else if (strcmp(word, "_Pragma") == 0 && call && i + 5 < n &&
                   clang_getTokenKind(toks[i + 2]) == CXToken_Identifier &&
                   spelled(tu, toks[i + 3], "(") &&
                   (spelled(tu, toks[i + 4], "omp") || spelled(tu, toks[i + 4], "pomp")) &&
                   !spelled(tu, toks[i + 5], ")")) {
            /* _Pragma(STR(omp x)), #define OMP(x) _Pragma(STR(omp x)): the
             * directive spelled out in the stringizing macro's argument (it
             * went uncounted, a critical so unmeasured; a probe) */
            count_stringized(spelled(tu, toks[i + 4], "omp") ? 1 : 2, &found, pomp);
        } else if (strcmp(word, "_Pragma") == 0 && call && i + 5 < n &&
                   clang_getTokenKind(toks[i + 2]) == CXToken_Identifier &&
                   spelled(tu, toks[i + 3], "(") &&
                   clang_getTokenKind(toks[i + 4]) == CXToken_Identifier &&
                   spelled(tu, toks[i + 5], ")")) {
            /* _Pragma(STR(x)), STR a stringizing macro (#define STR(x) #x): the
             * one way a macro call makes _Pragma's string of a parameter, read
             * as _Pragma(#x) */
            count_stringized(inv ? stringized_omp(tu, toks, n, i + 3, inv, inv_len) : 0, &found, pomp);
        } else if (depth < PRAGMA_MACRO_DEPTH && clang_getTokenKind(toks[i]) == CXToken_Identifier) {
            CXCursor inner = pragma_macro(sc, word);
            if (!clang_Cursor_isNull(inner)) {
                /* the inner invocation's text, in this body: its name to its ')' */
                unsigned b, e = 0;
                clang_getSpellingLocation(clang_getTokenLocation(tu, toks[i]), NULL, NULL, NULL, &b);
                for (unsigned k = i + 1, open = 0; call && k < n; k++) {
                    open += spelled(tu, toks[k], "(");
                    if (spelled(tu, toks[k], ")") && --open == 0) {
                        CXSourceRange r = clang_getTokenExtent(tu, toks[k]);
                        clang_getSpellingLocation(clang_getRangeEnd(r), NULL, NULL, NULL, &e);
                        break;
                    }
                }
                found += body_omp_pragmas(sc, inner, text && e > b ? text + b : NULL,
                                          text && e > b ? e - b : 0, depth + 1, mutex, pomp);
            }
        }
        clang_disposeString(name);
    }
    clang_disposeTokens(tu, toks, n);
    return found;
}

/* How many `_Pragma("omp ...")` the body of the macro an invocation expands
 * makes (a function-like macro, or one with more than the _Pragma): pomp
 * leaves them alone, and counts them where they expand, so that the link step
 * says the file has constructs it did not instrument. The body's text is
 * searched first: most macros hold no _Pragma and are not tokenized. */
static unsigned macro_omp_pragmas(const struct scan *sc, CXCursor expansion, const char *inv,
                                  size_t inv_len, int *mutex, unsigned *pomp)
{
    CXCursor def = clang_getCursorReferenced(expansion);
    if (clang_getCursorKind(def) != CXCursor_MacroDefinition)
        return 0;
    return body_omp_pragmas(sc, def, inv, inv_len, 0, mutex, pomp);
}

/* Whether the definition text names one of the first n pragma macros. */
static int names_pragma_macro(const struct scan *sc, size_t n, const char *text, size_t len)
{
    for (size_t i = 0; i < n; i++)
        if (memmem(text, len, sc->pragma_macros[i].name, strlen(sc->pragma_macros[i].name)))
            return 1;
    return 0;
}

static int is_pragma_macro(const struct scan *sc, const char *name)
{
    for (size_t i = 0; i < sc->npragma_macros; i++)
        if (strcmp(sc->pragma_macros[i].name, name) == 0)
            return 1;
    return 0;
}

/* The macros whose body holds a _Pragma (the candidates of a pragma made one
 * macro further away), and, pass after pass (sc->pragma_pass > 0), those
 * whose body names one already found (a text search: a false match costs a
 * tokenization later). */
/* A definition in no file (given on the command line, -D'PRAGMA(x)=_Pragma(#x)'):
 * whether its tokens hold a _Pragma, or (pass > 0) name a pragma macro found
 * already; the expander reads it by its tokens too (source_macros.c). */
static int command_line_pragma_macro(const struct scan *sc, CXCursor def)
{
    CXToken *toks = NULL;
    unsigned n = 0;
    int has = 0;
    clang_tokenize(sc->tu, clang_getCursorExtent(def), &toks, &n);
    for (unsigned i = 1; !has && i < n; i++) { /* toks[0]: its own name */
        CXString x = clang_getTokenSpelling(sc->tu, toks[i]);
        const char *w = clang_getCString(x);
        has = sc->pragma_pass == 0 ? strcmp(w, "_Pragma") == 0 : is_pragma_macro(sc, w);
        clang_disposeString(x);
    }
    clang_disposeTokens(sc->tu, toks, n);
    return has;
}

static enum CXChildVisitResult pragma_macro_visitor(CXCursor c, CXCursor parent, CXClientData d)
{
    (void)parent;
    struct scan *sc = d;
    unsigned from, to;
    const char *text;
    if (clang_getCursorKind(c) != CXCursor_MacroDefinition)
        return CXChildVisit_Continue;
    if (!(text = definition_text(sc->tu, c, &from, &to))) {
        if (!clang_Cursor_isMacroFunctionLike(c) || !command_line_pragma_macro(sc, c))
            return CXChildVisit_Continue;
    } else if (!(sc->pragma_pass == 0
                     ? memmem(text + from, to - from, "_Pragma", 7) != NULL
                     : names_pragma_macro(sc, sc->pragma_known, text + from, to - from))) {
        return CXChildVisit_Continue;
    }
    CXString name = clang_getCursorSpelling(c);
    if (sc->pragma_pass > 0 && is_pragma_macro(sc, clang_getCString(name))) {
        clang_disposeString(name);
        return CXChildVisit_Continue;
    }
    sc->pragma_macros =
        xrealloc(sc->pragma_macros, (sc->npragma_macros + 1) * sizeof *sc->pragma_macros);
    sc->pragma_macros[sc->npragma_macros++] =
        (struct pragma_macro){xstrdup(clang_getCString(name)), c};
    clang_disposeString(name);
    return CXChildVisit_Continue;
}

/* Just past the last line of macro definition def, where that is in the
 * file (its continuation lines included), else UINT_MAX. */
static unsigned definition_after(struct scan *sc, CXCursor def)
{
    if (clang_getCursorKind(def) != CXCursor_MacroDefinition)
        return UINT_MAX;
    int in_file;
    unsigned e = file_offset(sc, clang_getRangeEnd(clang_getCursorExtent(def)), &in_file);
    const char *t = sc->s->text;
    size_t size = sc->s->size;
    if (!in_file || e > size)
        return UINT_MAX;
    /* to the newline that ends the logical line: a comment after the body
     * may go on over lines (past the first, the #if defined that keeps the
     * macro used stood inside it: an instrumented file that did not
     * compile; a probe) */
    size_t at = e;
    while (at < size && (t[at] != '\n' || source_newline_spliced(t, at)))
        if (!skip_spliced_comment(t, size, &at))
            at++;
    return at < size ? (unsigned)at + 1 : (unsigned)at;
}

/* Whether the macro expansion c invokes has a _Pragma in its body, or names
 * a macro that has (find_pragma_macros). */
static int invokes_pragma_macro(const struct scan *sc, CXCursor c)
{
    CXString name = clang_getCursorSpelling(c);
    int is = is_pragma_macro(sc, clang_getCString(name));
    clang_disposeString(name);
    return is;
}

static enum CXChildVisitResult expansion_visitor(CXCursor c, CXCursor parent, CXClientData d)
{
    (void)parent;
    struct scan *sc = d;
    if (clang_getCursorKind(c) == CXCursor_InclusionDirective) {
        CXFile in;
        unsigned at;
        clang_getFileLocation(clang_getRangeStart(clang_getCursorExtent(c)), &in, NULL, NULL, &at);
        if (in && clang_File_isEqual(in, sc->file)) {
            sc->includes = xrealloc(sc->includes, (sc->nincludes + 1) * sizeof *sc->includes);
            sc->includes[sc->nincludes++] = at;
        }
        return CXChildVisit_Continue;
    }
    if (clang_getCursorKind(c) != CXCursor_MacroExpansion)
        return CXChildVisit_Continue;
    CXSourceRange r = clang_getCursorExtent(c);
    int a, b;
    unsigned start = expansion_offset(sc, clang_getRangeStart(r), &a);
    unsigned end = expansion_offset(sc, clang_getRangeEnd(r), &b);
    if (a && b) {
        char *pragma = macro_pragma(sc->tu, c);
        CXCursor *used = NULL;
        size_t nused = 0;
        int mutex = 0;
        unsigned pomp_left = 0;
        unsigned left = pragma ? 0
                               : macro_omp_pragmas(sc, c, sc->s->text + start, end - start, &mutex,
                                                   &pomp_left);
        if (left == 1 || (!pragma && !left && invokes_pragma_macro(sc, c))) {
            /* an invocation that makes one _Pragma and nothing else, through
             * other macros or of its arguments (#define PRAGMA(x) _Pragma(#x),
             * #define OMP(x) PRAGMA(omp x)): instrumented as one whose body is
             * the _Pragma (left to the runtime's events before: a static loop
             * of a GCC build measured by nothing; a probe); also where the
             * count above does not read it (#define PF _Pragma(PFOR_STR)) */
            pragma = macro_made_directive(sc, start, start, end, 1, &used, &nused);
            /* (a POMP directive too: #define REGION_BEGIN(n) PRAGMA(pomp inst
             * begin(n)) made nothing, unsaid; a probe) */
            if (pragma && (starts_with_word(pragma, "omp") || starts_with_word(pragma, "pomp")))
                left = pomp_left = 0;
            else
                free(pragma), pragma = NULL;
        }
        if (pomp_left) { /* (a TIMED(name, stmt) macro's regions made nothing, unsaid; a probe) */
            CXString name = clang_getCursorSpelling(c);
            char *msg = xasprintf("'%s' makes %u '#pragma pomp' directive%s from a macro's body, "
                                  "which make%s no region: pomp reads a pomp directive written in "
                                  "the file, or made by a macro whose whole body is its _Pragma",
                                  clang_getCString(name), pomp_left, pomp_left == 1 ? "" : "s",
                                  pomp_left == 1 ? "s" : "");
            report(sc->s, start, "warning", msg);
            free(msg);
            clang_disposeString(name);
        }
        sc->s->macro_omp_pragmas += left;
        if (mutex) /* not told apart: each may be one */
            sc->s->macro_mutex_pragmas += left;
        if (left && sc->verbose) { /* the link step counts them; here is where and why */
            CXString name = clang_getCursorSpelling(c);
            char *msg = xasprintf("'%s' makes %u OpenMP directive%s from a macro's body, left "
                                  "to the runtime's events: pomp instruments a #pragma or "
                                  "_Pragma written in the file, or the invocation of a macro "
                                  "whose whole body is one _Pragma(\"omp ...\")",
                                  clang_getCString(name), left, left == 1 ? "" : "s");
            report(sc->s, start, "note", msg);
            free(msg);
            clang_disposeString(name);
        }
        sc->expansions = xrealloc(sc->expansions, (sc->nexpansions + 1) * sizeof *sc->expansions);
        struct expansion *x = &sc->expansions[sc->nexpansions++];
        *x = (struct expansion){.start = start, .end = end, .pragma = pragma};
        CXCursor def = clang_getCursorReferenced(c);
        if (pragma && !used)
            keep_macros(sc, &def, 1, &x->kept, &x->nkept);
        else if (pragma)
            keep_macros(sc, used, nused, &x->kept, &x->nkept);
        free(used);
    }
    return CXChildVisit_Continue;
}

static int by_start(const void *a, const void *b)
{
    const struct expansion *x = a, *y = b;
    return (x->start > y->start) - (x->start < y->start);
}

/* By end, and at one end the outermost (earliest start) first. */
static int by_end(const void *a, const void *b)
{
    const struct expansion *x = a, *y = b;
    if (x->end != y->end)
        return (x->end > y->end) - (x->end < y->end);
    return by_start(a, b);
}

/* The macros that make a _Pragma, to PRAGMA_MACRO_DEPTH macros away. */
static void find_pragma_macros(struct scan *sc)
{
    size_t before = 0;
    for (sc->pragma_pass = 0; sc->pragma_pass < PRAGMA_MACRO_DEPTH; sc->pragma_pass++) {
        sc->pragma_known = sc->npragma_macros;
        clang_visitChildren(clang_getTranslationUnitCursor(sc->tu), pragma_macro_visitor, sc);
        if (sc->npragma_macros == before || !sc->npragma_macros)
            break;
        before = sc->npragma_macros;
    }
}

size_t source_unit_pragma_macros(const struct source_unit *u, char ***names)
{
    struct scan sc = {.tu = u->tu};
    find_pragma_macros(&sc);
    *names = sc.npragma_macros ? xmalloc(sc.npragma_macros * sizeof **names) : NULL;
    for (size_t i = 0; i < sc.npragma_macros; i++)
        (*names)[i] = sc.pragma_macros[i].name;
    free(sc.pragma_macros);
    return sc.npragma_macros;
}

/* The file's macro invocations (the preprocessing record's entities are
 * children of the translation unit). */
static void find_expansions(struct scan *sc)
{
    find_pragma_macros(sc);
    clang_visitChildren(clang_getTranslationUnitCursor(sc->tu), expansion_visitor, sc);
    if (!sc->nexpansions)
        return;
    qsort(sc->expansions, sc->nexpansions, sizeof *sc->expansions, by_start);
    sc->by_end = xmalloc(sc->nexpansions * sizeof *sc->by_end);
    memcpy(sc->by_end, sc->expansions, sc->nexpansions * sizeof *sc->by_end);
    qsort(sc->by_end, sc->nexpansions, sizeof *sc->by_end, by_end);
}

static char *macro_name_at(const struct scan *sc, unsigned offset)
{
    unsigned e = offset;
    const char *x = sc->s->text;
    while (e < sc->s->size && is_ident_char(x[e]))
        e++;
    return xasprintf("%.*s", (int)(e - offset), x + offset);
}

/* The invocation (by start) whose text holds offset (at_end: offset is the
 * end of a range, which the invocation's end may equal), or NULL. Invocations
 * nest only inside another's arguments: a few steps back find the outer one. */
static struct expansion *expansion_around(struct scan *sc, unsigned offset, int at_end)
{
    size_t lo = 0, hi = sc->nexpansions;
    while (lo < hi) { /* the first that starts after offset (at or after, at an end) */
        size_t mid = (lo + hi) / 2;
        if (at_end ? sc->expansions[mid].start < offset : sc->expansions[mid].start <= offset)
            lo = mid + 1;
        else
            hi = mid;
    }
    for (size_t i = lo, steps = 0; i-- > 0 && steps < 16; steps++) {
        struct expansion *x = &sc->expansions[i];
        if (at_end ? offset <= x->end : offset < x->end)
            return x;
    }
    return NULL;
}

/* Statement c of block parent spans [b, e): the invocation its start or end
 * lies in makes part of it. When that invocation makes part of a second
 * statement of the same block (#define TWO(x, y) x += 1; y += 1), no edit in
 * the file can put one of them inside a construct without the other: the
 * invocation spans statements, and a pragma before it is left alone. A block
 * that comes whole from the invocation (#define BODY { a(); b(); }) is one
 * statement and spans nothing. */
static void note_straddle(struct scan *sc, CXCursor c, CXCursor parent, unsigned b, unsigned e)
{
    struct expansion *around[2] = {expansion_around(sc, b, 0), expansion_around(sc, e, 1)};
    if (!around[0] && !around[1])
        return;
    CXSourceRange r = clang_getCursorExtent(parent);
    int in_a, in_b;
    unsigned pb = file_offset(sc, clang_getRangeStart(r), &in_a);
    unsigned pe = file_offset(sc, clang_getRangeEnd(r), &in_b);
    for (int i = 0; i < 2; i++) {
        struct expansion *x = around[i];
        if (!x || (i == 1 && x == around[0]) || (in_a && in_b && x->start <= pb && pe <= x->end))
            continue;
        if (!x->straddled) {
            x->straddled = 1;
            x->block = parent;
            x->stmt = c;
            x->stmt_start = b;
            x->stmt_end = e;
            x->stmt_semicolon = needs_semicolon(c);
            x->stmt_loop = clang_getCursorKind(c) == CXCursor_ForStmt;
        } else if (clang_equalCursors(x->block, parent) && !clang_equalCursors(x->stmt, c)) {
            x->spans = 1;
        }
    }
}

static enum CXChildVisitResult last_child_visitor(CXCursor c, CXCursor parent, CXClientData d)
{
    (void)parent;
    *(CXCursor *)d = c;
    return CXChildVisit_Continue;
}

/* Does the statement end without its ';' in libclang's extent? Expression,
 * return, break, do-while... do; compound statements and declarations do not;
 * if/for/while/switch/labels, C++ range-based for and try end like their last
 * sub-statement. */
int needs_semicolon(CXCursor c)
{
    for (;;) {
        enum CXCursorKind k = clang_getCursorKind(c);
        switch (k) {
        case CXCursor_CompoundStmt:
        case CXCursor_DeclStmt:
        case CXCursor_NullStmt:
            return 0;
        case CXCursor_IfStmt:
        case CXCursor_ForStmt:
        case CXCursor_WhileStmt:
        case CXCursor_SwitchStmt:
        case CXCursor_LabelStmt:
        case CXCursor_CaseStmt:
        case CXCursor_DefaultStmt:
        case CXCursor_CXXForRangeStmt: /* C++: like for, ends with its body */
        case CXCursor_CXXTryStmt:      /* ends with its last handler */
        case CXCursor_CXXCatchStmt: {
            CXCursor last = clang_getNullCursor();
            clang_visitChildren(c, last_child_visitor, &last);
            if (clang_Cursor_isNull(last))
                return 1;
            c = last;
            continue;
        }
        default:
            return 1;
        }
    }
}

static long wanted_index(const struct scan *sc, unsigned offset)
{
    size_t lo = 0, hi = sc->nwanted;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (sc->wanted[mid] < offset)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < sc->nwanted && sc->wanted[lo] == offset ? (long)lo : -1;
}

static void note_main(struct scan *sc, CXCursor c)
{
    CXString name = clang_getCursorSpelling(c);
    int is_main = strcmp(clang_getCString(name), "main") == 0;
    clang_disposeString(name);
    if (!is_main || !clang_isCursorDefinition(c))
        return;
    CXCursor body = clang_getNullCursor();
    clang_visitChildren(c, last_child_visitor, &body);
    if (clang_getCursorKind(body) != CXCursor_CompoundStmt)
        return;
    CXSourceRange r = clang_getCursorExtent(body);
    int a, b;
    unsigned open = expansion_offset(sc, clang_getRangeStart(r), &a);
    unsigned close = expansion_offset(sc, clang_getRangeEnd(r), &b);
    if (a && b && close > open && sc->s->text[open] == '{' && sc->s->text[close - 1] == '}') {
        sc->s->has_main = 1;
        sc->s->main_body_open = open + 1;
    }
}

static enum CXChildVisitResult statement_visitor(CXCursor c, CXCursor parent, CXClientData d)
{
    struct scan *sc = d;
    enum CXCursorKind k = clang_getCursorKind(c);
    if (k == CXCursor_FunctionDecl)
        note_main(sc, c);
    if (k == CXCursor_MacroDefinition) {
        CXString name = clang_getCursorSpelling(c);
        sc->s->macros = xrealloc(sc->s->macros, (sc->s->nmacros + 1) * sizeof *sc->s->macros);
        sc->s->macros[sc->s->nmacros++] = xstrdup(clang_getCString(name));
        clang_disposeString(name);
        return CXChildVisit_Continue;
    }
    if (clang_isStatement(k) || clang_isExpression(k)) {
        CXSourceRange r = clang_getCursorExtent(c);
        int in_a, in_b;
        unsigned b = file_offset(sc, clang_getRangeStart(r), &in_a);
        unsigned e = file_offset(sc, clang_getRangeEnd(r), &in_b);
        if (in_a && in_b && sc->nexpansions && clang_getCursorKind(parent) == CXCursor_CompoundStmt)
            note_straddle(sc, c, parent, b, e);
        long w = in_a && in_b ? wanted_index(sc, b) : -1;
        if (w >= 0 && e > sc->found_end[w]) {
            const struct expansion *x = expansion_ending_at(sc, e);
            sc->found_end[w] = e;
            sc->found_semicolon[w] = needs_semicolon(c);
            sc->found_decl[w] = k == CXCursor_DeclStmt;
            sc->found_macro_end[w] = x ? x->start : UINT_MAX;
            sc->found_cursor[w] = c;
        }
        if (w >= 0 && k == CXCursor_ForStmt && !sc->found_loop[w])
            sc->found_loop[w] = loop_analyze(c, sc->file, sc->s->text, (unsigned)sc->s->size);
    }
    return CXChildVisit_Recurse;
}

static int cmp_string(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

unsigned source_inclusions(const struct source *s)
{
    return s->inclusions ? s->inclusions->entries : 1;
}

int source_inclusions_agree(const struct source *s, unsigned a, unsigned b)
{
    return !s->inclusions || skipped_inclusions_agree(s->inclusions, a, b);
}

/* A loop whose header (the headers of the loops it nests, for collapse) is
 * not the same text in each inclusion that compiles its directive (#pragma
 * omp for above `#if` choosing one of two loop headers, in a header included
 * twice with other macros): the bounds and step of one inclusion's header
 * would be evaluated in the other (where its names may not exist), so pomp
 * reads none of them (its events say "not available"). */
static void forget_bounds_per_inclusion(struct source *s)
{
    for (size_t i = 0; s->inclusions && i < s->npragmas; i++) {
        struct pragma *p = &s->pragmas[i];
        if (!p->loop || !p->has_stmt)
            continue;
        unsigned to = p->stmt_start;
        for (const struct loop_header *l = p->loop; l; l = l->inner)
            if (l->body_start > to)
                to = l->body_start;
        if (skipped_inclusions_whole(s->inclusions, p->start, p->stmt_start, to))
            continue;
        for (struct loop_header *l = p->loop; l; l = l->inner) {
            free(l->init);
            free(l->final);
            free(l->incr);
            l->init = l->final = l->incr = NULL;
        }
    }
}

int source_is_macro(const struct source *s, const char *name)
{
    return s->nmacros && bsearch(&name, s->macros, s->nmacros, sizeof *s->macros, cmp_string);
}

static int cmp_unsigned(const void *a, const void *b)
{
    unsigned x = *(const unsigned *)a, y = *(const unsigned *)b;
    return (x > y) - (x < y);
}

/* The pragma starting exactly at offset, or -1. */
static long pragma_at(const struct source *s, unsigned offset)
{
    for (size_t i = 0; i < s->npragmas; i++)
        if (s->pragmas[i].start == offset)
            return (long)i;
    return -1;
}

/* The last code token before token i that is not part of a pragma, or UINT_MAX. */
static unsigned code_token_before(const struct scan *sc, unsigned i)
{
    while (i-- > 0) {
        const struct token *t = &sc->tokens[i];
        int in_pragma = 0;
        for (size_t k = 0; k < sc->s->npragmas && !in_pragma; k++)
            in_pragma = t->start >= sc->s->pragmas[k].start && t->start < sc->s->pragmas[k].end;
        if (t->code && !in_pragma)
            return i;
    }
    return UINT_MAX;
}

/* Does pragma p stand where one statement is wanted: after `else`, `do`, the
 * ')' of an if, while, for or switch header, or a label (name:, case ...:,
 * default:)? There the compilers reject a stand-alone directive ("may only
 * be used in compound statements"), and braces around its calls would make
 * the program they reject compile, with the next statement no longer the
 * if's: pomp leaves it alone, to the compiler's error. */
static int is_substatement(const struct scan *sc, const struct pragma *p)
{
    unsigned t = code_token_before(sc, token_at_or_after(sc, p->start));
    if (t == UINT_MAX)
        return 0;
    if (tok_is(sc, t, "else") || tok_is(sc, t, "do"))
        return 1;
    if (tok_is(sc, t, ")")) {
        int depth = 0;
        for (unsigned i = t + 1; (i = code_token_before(sc, i)) != UINT_MAX;) {
            depth += tok_is(sc, i, ")") - tok_is(sc, i, "(");
            if (depth == 0) {
                unsigned k = code_token_before(sc, i);
                return tok_is(sc, k, "if") || tok_is(sc, k, "while") || tok_is(sc, k, "for") ||
                       tok_is(sc, k, "switch");
            }
        }
        return 0;
    }
    if (!tok_is(sc, t, ":"))
        return 0;
    unsigned k = code_token_before(sc, t);
    if (tok_is(sc, k, "default"))
        return 1;
    if (k != UINT_MAX && sc->tokens[k].kind == CXToken_Identifier) {
        unsigned before = code_token_before(sc, k);
        if (before == UINT_MAX || tok_is(sc, before, ";") || tok_is(sc, before, "{") ||
            tok_is(sc, before, "}") || tok_is(sc, before, ":"))
            return 1; /* name: */
    }
    for (unsigned i = k, steps = 0; i != UINT_MAX && steps < 64; i = code_token_before(sc, i), steps++) {
        if (tok_is(sc, i, "case"))
            return 1;
        if (tok_is(sc, i, ";") || tok_is(sc, i, "{") || tok_is(sc, i, "}") || tok_is(sc, i, "?"))
            return 0;
    }
    return 0;
}

/* Whether p is an atomic directive ("omp atomic ..."), and whether it has the
 * read clause (*read), from the directive parser (a word "read" elsewhere, in
 * a hint's expression say, is not the clause). */
static int is_atomic(const struct pragma *p, int *read)
{
    struct directive d;
    int atomic = directive_parse(p->text, &d) == 0 && strcmp(d.sentinel, "omp") == 0 &&
                 strcmp(d.name, "atomic") == 0;
    *read = 0;
    if (atomic)
        for (size_t i = 0; i < d.nclauses; i++)
            if (!d.clauses[i].arg && strcmp(d.clauses[i].word, "read") == 0)
                *read = 1;
    directive_free(&d);
    return atomic;
}

/* A parallel construct, not combined (parallel for is one construct whose
 * barrier GCC does not have to drop). */
static int is_plain_parallel(const struct pragma *p)
{
    struct directive d;
    int parallel = directive_parse(p->text, &d) == 0 && strcmp(d.sentinel, "omp") == 0 &&
                   strcmp(d.name, "parallel") == 0;
    directive_free(&d);
    return parallel;
}

/* Whether an #include the preprocessor carried out is written between
 * offsets from and to of the file (comments and directives are all there is
 * between a pragma and its next code token). The compiler takes the included
 * file's first statement as the construct's block: a pragma, then
 * `#include "body.inc"`, then code. pomp rewrites no statement across files,
 * and the code after the #include was taken for the block (a parallel region
 * timed around the serial sleep after it; one left open at exit where that
 * was a return; a probe). */
static int include_between(const struct scan *sc, unsigned from, unsigned to)
{
    for (size_t i = 0; i < sc->nincludes; i++)
        if (sc->includes[i] >= from && sc->includes[i] < to)
            return 1;
    return 0;
}

static int find_statements(struct scan *sc)
{
    struct source *s = sc->s;
    sc->wanted = xmalloc((s->npragmas + 1) * sizeof *sc->wanted);
    unsigned *next_tok = xmalloc((s->npragmas + 1) * sizeof *next_tok);
    for (size_t i = 0; i < s->npragmas; i++) {
        struct pragma *p = &s->pragmas[i];
        const struct expansion *around = p->is_operator ? NULL : expansion_around(sc, p->start, 0);
        if (around) { /* (GCC -pedantic: "embedding a directive within macro arguments is not
                         portable"; libclang: not supported) */
            char *name = macro_name_at(sc, around->start);
            p->moved = xasprintf("it is written inside the arguments of macro '%s', and the "
                                 "compiler moves it before the macro's whole expansion",
                                 name);
            free(name);
        }
        s->pragmas[i].substatement = is_substatement(sc, &s->pragmas[i]);
        next_tok[i] = code_token_at_or_after(sc, s->pragmas[i].end);
        if (next_tok[i] < sc->ntokens)
            sc->wanted[sc->nwanted++] = sc->tokens[next_tok[i]].start;
    }
    qsort(sc->wanted, sc->nwanted, sizeof *sc->wanted, cmp_unsigned);
    size_t u = 0;
    for (size_t i = 0; i < sc->nwanted; i++)
        if (u == 0 || sc->wanted[u - 1] != sc->wanted[i])
            sc->wanted[u++] = sc->wanted[i];
    sc->nwanted = u;
    sc->found_end = xcalloc(u + 1, sizeof *sc->found_end);
    sc->found_semicolon = xcalloc(u + 1, sizeof *sc->found_semicolon);
    sc->found_decl = xcalloc(u + 1, sizeof *sc->found_decl);
    sc->found_loop = xcalloc(u + 1, sizeof *sc->found_loop);
    sc->found_cursor = xcalloc(u + 1, sizeof *sc->found_cursor);
    sc->found_macro_end = xmalloc((u + 1) * sizeof *sc->found_macro_end);
    for (size_t i = 0; i <= u; i++)
        sc->found_macro_end[i] = UINT_MAX;
    clang_visitChildren(clang_getTranslationUnitCursor(sc->tu), statement_visitor, sc);

    /* Back to front, so a pragma followed by a pragma can take over its statement. */
    for (size_t i = s->npragmas; i-- > 0;) {
        struct pragma *p = &s->pragmas[i];
        if (next_tok[i] >= sc->ntokens)
            continue;
        unsigned at = sc->tokens[next_tok[i]].start;
        if (include_between(sc, p->end, at)) {
            p->unplaced = xstrdup("its block is in the file the #include after it brings in, and "
                                  "pomp rewrites no statement across files");
            continue;
        }
        long inner = pragma_at(s, at);
        if (inner >= 0) {
            if (s->pragmas[inner].has_stmt) {
                p->has_stmt = 1;
                p->stmt_is_pragma = 1;
                p->stmt_start = s->pragmas[inner].start;
                p->stmt_end = s->pragmas[inner].stmt_end;
                /* a parallel whose statement is a construct (parallel, then for) */
                long wi = next_tok[inner] < sc->ntokens
                              ? wanted_index(sc, sc->tokens[next_tok[inner]].start)
                              : -1;
                if (wi >= 0 && sc->found_end[wi] && is_plain_parallel(p)) {
                    p->may_address_locals = may_address_locals(sc->found_cursor[wi]);
                    p->locals_known = 1;
                }
            } else if (s->pragmas[inner].unplaced) {
                p->unplaced = xasprintf("the directive after it is not instrumented (%s)",
                                        s->pragmas[inner].unplaced);
            }
            continue;
        }
        long w = wanted_index(sc, at);
        const struct expansion *whole = expansion_at(sc, at);
        if ((w < 0 || sc->found_end[w] == 0) && whole && whole->straddled && !whole->spans &&
            !whole->stmt_loop && whole->stmt_start >= whole->start && whole->stmt_end <= whole->end) {
            /* one statement, all of it from the invocation (#define ADD(a, b) a += b), whose
             * extent starts at an argument: the invocation is the statement */
            unsigned end = whole->end;
            if (whole->stmt_semicolon) {
                unsigned t = code_token_at_or_after(sc, end);
                if (!tok_is(sc, t, ";")) {
                    p->unplaced = xstrdup("pomp cannot find the ';' that ends its statement");
                    continue;
                }
                end = sc->tokens[t].end;
            }
            p->has_stmt = 1;
            p->stmt_start = at;
            p->stmt_end = end;
            continue;
        }
        if (w < 0 || sc->found_end[w] == 0) {
            if (expansion_at(sc, at)) {
                char *name = macro_name_at(sc, at);
                p->unplaced = xasprintf("its statement comes from the expansion of macro '%s', "
                                        "which pomp cannot take apart",
                                        name);
                free(name);
            }
            continue;
        }
        unsigned end = sc->found_end[w];
        /* ends with a macro's expansion, which may hold the ';' */
        const struct expansion *x =
            sc->found_macro_end[w] != UINT_MAX ? expansion_at(sc, sc->found_macro_end[w]) : NULL;
        const struct expansion *first = expansion_around(sc, at, 0);
        const struct expansion *spanning = x && x->spans ? x : first && first->spans ? first : NULL;
        if (spanning) {
            char *name = macro_name_at(sc, spanning->start);
            p->unplaced = xasprintf("the statement after it ends inside the expansion of macro '%s', "
                                    "which goes on past it",
                                    name);
            free(name);
            continue;
        }
        if (sc->found_semicolon[w]) {
            unsigned t = code_token_at_or_after(sc, end);
            if (tok_is(sc, t, ";")) {
                end = sc->tokens[t].end;
            } else if (!x) { /* (a macro may end with the ';' itself) */
                p->unplaced = xstrdup("pomp cannot find the ';' that ends its statement");
                continue;
            }
        }
        p->has_stmt = 1;
        p->stmt_start = at;
        p->stmt_end = end;
        p->stmt_is_declaration = sc->found_decl[w];
        p->loop = sc->found_loop[w];
        sc->found_loop[w] = NULL;
        int read;
        if (is_atomic(p, &read))
            p->atomic_size = atomic_operand_size(sc->found_cursor[w], read);
        if (is_plain_parallel(p)) {
            p->may_address_locals = may_address_locals(sc->found_cursor[w]);
            p->locals_known = 1;
        }
    }
    free(next_tok);

    for (size_t i = 0; i < s->npragmas; i++)
        for (size_t j = 0; j < s->npragmas; j++)
            if (j != i && s->pragmas[j].has_stmt && s->pragmas[j].stmt_start <= s->pragmas[i].start &&
                s->pragmas[i].start < s->pragmas[j].stmt_end)
                s->pragmas[i].depth++;
    return 0;
}

/* ---- loading ---- */

/* Keeps the flags that change how the file parses: include paths, macros,
 * language standard and target. Everything else (optimization, warnings,
 * code generation, linking) is the compiler's business, not the parser's. */
static int keep_flag(const char *a, int *takes_value)
{
    static const char *const with_value[] = {
        "-I", "-D", "-U", "-include", "-isystem", "-iquote", "-idirafter", "-imacros", "-x",
        "--sysroot", "-isysroot", "-target", "-iprefix", "-iwithprefix", "-iwithprefixbefore",
        "-A", "--include", "--imacros", "--include-directory", "--include-directory-after",
        "--define-macro", "--undefine-macro", "--language", "--assert", NULL};
    static const char *const prefixes[] = {"-std=", "-m32", "-m64", "-ansi", "--target=",
                                           "--sysroot=", "-fgnu89-inline", "-funsigned-char",
                                           "-fsigned-char", "-fms-extensions", NULL};
    *takes_value = 0;
    for (const char *const *w = with_value; *w; w++) {
        if (strcmp(a, *w) == 0) {
            *takes_value = 1;
            return 1;
        }
        size_t n = strlen(*w);
        if (n == 2 && strncmp(a, *w, 2) == 0)
            return 1; /* -Ipath, -DX=1 */
    }
    for (const char *const *p = prefixes; *p; p++)
        if (strncmp(a, *p, strlen(*p)) == 0)
            return 1;
    return 0;
}

/* Under --verbose, what the parser could not make out in the file itself (why
 * a statement may not be found). Not the headers': libclang reads clang's own
 * omp.h and system headers, not the compiler's, and what it says of them is
 * no business of the user's build. Said as notes: the compiler judges the code. */
static void show_parse_errors(CXTranslationUnit tu)
{
    for (unsigned i = 0, n = clang_getNumDiagnostics(tu); i < n; i++) {
        CXDiagnostic d = clang_getDiagnostic(tu, i);
        CXFile f;
        clang_getSpellingLocation(clang_getDiagnosticLocation(d), &f, NULL, NULL, NULL);
        if (clang_getDiagnosticSeverity(d) >= CXDiagnostic_Error && f &&
            clang_Location_isFromMainFile(clang_getDiagnosticLocation(d))) {
            CXString text = clang_formatDiagnostic(d, CXDiagnostic_DisplaySourceLocation |
                                                          CXDiagnostic_DisplayColumn);
            fprintf(stderr, "note: the parser pomp uses (libclang) says: %s\n", clang_getCString(text));
            clang_disposeString(text);
        }
        clang_disposeDiagnostic(d);
    }
}

/* The first header the parser could not find, anywhere in the unit, where it
 * was looked for: a compile that finds it (in a directory only the compiler
 * knows) has statements the parser cannot make out, and the warning that a
 * pragma has none said nothing of why (a probe: mpi.h, under POMP_CC=mpicc). */
static void note_missing_header(struct source_unit *u, CXTranslationUnit tu)
{
    for (unsigned i = 0, n = clang_getNumDiagnostics(tu); i < n && !u->missing_header[0]; i++) {
        CXDiagnostic d = clang_getDiagnostic(tu, i);
        CXString text = clang_getDiagnosticSpelling(d);
        const char *t = clang_getCString(text);
        static const char suffix[] = "file not found";
        size_t len = t ? strlen(t) : 0;
        if (clang_getDiagnosticSeverity(d) >= CXDiagnostic_Error && len >= sizeof suffix - 1 &&
            strcmp(t + len - (sizeof suffix - 1), suffix) == 0) {
            CXFile f;
            unsigned line, column;
            clang_getSpellingLocation(clang_getDiagnosticLocation(d), &f, &line, &column, NULL);
            CXString name = clang_getFileName(f);
            const char *file = clang_getCString(name);
            snprintf(u->missing_header, sizeof u->missing_header, "%s:%u:%u: %s",
                     file ? file : u->path, line, column, t);
            clang_disposeString(name);
        }
        clang_disposeString(text);
        clang_disposeDiagnostic(d);
    }
}

int source_unit_open(struct source_unit *u, const char *path, int argc, const char *const *argv,
                     int openmp, int verbose)
{
    memset(u, 0, sizeof *u);
    u->path = path;
    u->verbose = verbose;
    const char **args = xmalloc((size_t)(argc + 8) * sizeof *args);
    int n = 0;
    /* first: a -D_OPENMP among the flags (pompcc passes the compiler's) takes over */
    if (openmp)
        args[n++] = "-D_OPENMP=201811";
    for (int i = 0; i < argc; i++) {
        int takes_value;
        if (keep_flag(argv[i], &takes_value)) {
            args[n++] = argv[i];
            if (takes_value && i + 1 < argc)
                args[n++] = argv[++i];
        }
    }
    args[n++] = "-D_POMP=202611";
    args[n++] = "-Wno-everything";
    /* no stop after 20 errors: GCC's own syntax in preprocessed input (.i, .ii:
     * glibc's __malloc__(fclose, 1), __float80, __integer_pack) counts as
     * errors, and past the limit libclang parsed no more of the file: its
     * constructs were left to the runtime as having no statement */
    args[n++] = "-ferror-limit=0";

    u->index = clang_createIndex(0, 0);
    CXTranslationUnit tu = NULL;
    /* without the preprocessing record, clang_getSkippedRanges knows no #if branch
     * (and clang lists no #include directive) */
    unsigned options = CXTranslationUnit_KeepGoing | CXTranslationUnit_DetailedPreprocessingRecord;
    enum CXErrorCode err = clang_parseTranslationUnit2(u->index, path, args, n, NULL, 0, options, &tu);
    free(args);
    u->tu = tu;
    if (err != CXError_Success || !tu) {
        if (access(path, R_OK) != 0) /* the reason a user can act on, not libclang's code */
            fprintf(stderr, "%s: error: %s\n", path, strerror(errno));
        else
            fprintf(stderr, "%s: error: libclang could not parse the file (code %d)\n", path, err);
        return -1;
    }
    if (verbose)
        show_parse_errors(tu);
    note_missing_header(u, tu);
    return 0;
}

void source_unit_close(struct source_unit *u)
{
    if (u->tu)
        clang_disposeTranslationUnit(u->tu);
    if (u->index)
        clang_disposeIndex(u->index);
    memset(u, 0, sizeof *u);
}

int source_load_file(struct source *s, const struct source_unit *u, const char *path)
{
    return source_load_header(s, u, path, NULL);
}

int source_load_header(struct source *s, const struct source_unit *u, const char *path,
                       const char *spelled)
{
    memset(s, 0, sizeof *s);
    s->path = path;
    s->spelled = spelled;
    s->missing_header = u->missing_header[0] ? u->missing_header : NULL;
    if (read_file(path, &s->text, &s->size) != 0) {
        fprintf(stderr, "%s: error: cannot read the file\n", path);
        return -1;
    }
    /* a lone CR ends a line for the compilers and libclang (an old Mac
     * file): read as LF, byte for byte, so offsets stay libclang's (the file
     * read as one line: none of its pragmas seen, "0 of 0 constructs
     * instrumented" said of 2; a probe) */
    for (size_t i = 0; i < s->size; i++)
        if (s->text[i] == '\r' && (i + 1 == s->size || s->text[i + 1] != '\n'))
            s->text[i] = '\n';
    compute_lines(s);
    struct scan sc = {.s = s, .verbose = u->verbose, .tu = u->tu};
    int rc = -1;
    sc.file = clang_getFile(sc.tu, path);
    CXFile main_file = clang_getFile(sc.tu, u->path);
    sc.main_file = sc.file && main_file && clang_File_isEqual(sc.file, main_file);
    if (!sc.file) {
        fprintf(stderr, "%s: error: libclang lost the file\n", path);
        goto out;
    }
    tokenize(&sc);
    find_expansions(&sc);
    find_pragmas(&sc);
    expand_directive_macros(&sc);
    rc = find_statements(&sc);
    forget_bounds_per_inclusion(s);
    if (s->nmacros)
        qsort(s->macros, s->nmacros, sizeof *s->macros, cmp_string);
    source_ast_collect(s, sc.tu, sc.file);
out:
    free(sc.tokens);
    free(sc.wanted);
    free(sc.found_end);
    free(sc.found_semicolon);
    free(sc.found_decl);
    for (size_t i = 0; sc.found_loop && i < sc.nwanted; i++)
        loop_free(sc.found_loop[i]);
    free(sc.found_loop);
    free(sc.found_cursor);
    free(sc.found_macro_end);
    if (sc.macros_built)
        macro_table_free(&sc.macros);
    for (size_t i = 0; i < sc.nexpansions; i++) {
        free(sc.expansions[i].pragma);
        kept_macros_free(sc.expansions[i].kept, sc.expansions[i].nkept);
    }
    free(sc.expansions);
    free(sc.by_end);
    free(sc.includes);
    for (size_t i = 0; i < sc.npragma_macros; i++)
        free(sc.pragma_macros[i].name);
    free(sc.pragma_macros);
    return rc;
}

int source_load(struct source *s, const char *path, int argc, const char *const *argv, int openmp,
                int verbose)
{
    struct source_unit u;
    memset(s, 0, sizeof *s);
    int rc = source_unit_open(&u, path, argc, argv, openmp, verbose) == 0 &&
                     source_load_file(s, &u, path) == 0
                 ? 0
                 : -1;
    source_unit_close(&u);
    return rc;
}

void source_free(struct source *s)
{
    for (size_t i = 0; i < s->npragmas; i++) {
        free(s->pragmas[i].text);
        free(s->pragmas[i].text_offsets);
        free(s->pragmas[i].macro);
        kept_macros_free(s->pragmas[i].kept, s->pragmas[i].nkept);
        free(s->pragmas[i].unplaced);
        free(s->pragmas[i].unread_macros);
        free(s->pragmas[i].moved);
        loop_free(s->pragmas[i].loop);
    }
    free(s->pragmas);
    free(s->skipped_omp);
    if (s->inclusions)
        skipped_inclusions_free(s->inclusions);
    free(s->inclusions);
    for (size_t i = 0; i < s->nmacros; i++)
        free(s->macros[i]);
    free(s->macros);
    source_ast_free(&s->ast);
    free(s->text);
    free(s->line_offsets);
    memset(s, 0, sizeof *s);
}
