/* Finding pragmas and the statements they apply to, with libclang.
 *
 * The file is parsed WITHOUT -fopenmp (with _OPENMP defined when the user asked
 * for OpenMP, so conditional code reads the same): libclang then shows every
 * statement, while with -fopenmp the bodies of parallel regions hide inside
 * captured statements that its C API does not expose. The pragmas themselves are
 * found in libclang's token stream of the file, skipping #if-excluded blocks. */
#include "source.h"

#include <clang-c/Index.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "loops.h"
#include "util.h"

struct token {
    unsigned start, end;
    CXTokenKind kind;
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
    struct loop_header **found_loop; /* the statement as a for loop */
    int verbose;
};

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
        sc->tokens[sc->ntokens++] = (struct token){so, eo, clang_getTokenKind(toks[i])};
    }
    clang_disposeTokens(sc->tu, toks, n);
}

/* ---- pragma text ---- */

/* Start of the logical line holding offset (following backslash continuations back). */
static unsigned logical_line_start(const struct source *s, unsigned offset)
{
    unsigned p = offset;
    for (;;) {
        while (p > 0 && s->text[p - 1] != '\n')
            p--;
        if (p < 2)
            return p;
        unsigned q = p - 1; /* the '\n' ending the previous line */
        if (q > 0 && s->text[q - 1] == '\r')
            q--;
        if (q > 0 && s->text[q - 1] == '\\')
            p = q - 1;
        else
            return p;
    }
}

static int only_blanks(const struct source *s, unsigned from, unsigned to)
{
    for (unsigned i = from; i < to; i++)
        if (s->text[i] != ' ' && s->text[i] != '\t')
            return 0;
    return 1;
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
        if (c == '\\' && i + 1 < s->size && (s->text[i + 1] == '\n' || s->text[i + 1] == '\r')) {
            i += s->text[i + 1] == '\r' ? 3 : 2;
            continue;
        }
        if (c == '\n' || (c == '\r' && i + 1 < s->size && s->text[i + 1] == '\n'))
            break;
        if (c == '/' && i + 1 < s->size && s->text[i + 1] == '/') {
            while (i < s->size && s->text[i] != '\n')
                i++;
            if (i > 0 && s->text[i - 1] == '\r')
                i--;
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
        if (s->text[i] == '\\' && (s->text[i + 1] == '"' || s->text[i + 1] == '\\'))
            i++;
        text_append(p, &len, &cap, s->text[i], i);
    }
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

static int in_skipped_range(CXSourceRangeList *skipped, unsigned offset)
{
    for (unsigned i = 0; skipped && i < skipped->count; i++) {
        unsigned b, e;
        clang_getFileLocation(clang_getRangeStart(skipped->ranges[i]), NULL, NULL, NULL, &b);
        clang_getFileLocation(clang_getRangeEnd(skipped->ranges[i]), NULL, NULL, NULL, &e);
        if (offset >= b && offset < e)
            return 1;
    }
    return 0;
}

static void add_pragma(struct source *s, const struct pragma *p)
{
    s->pragmas = xrealloc(s->pragmas, (s->npragmas + 1) * sizeof *s->pragmas);
    s->pragmas[s->npragmas++] = *p;
}

static void find_pragmas(struct scan *sc)
{
    struct source *s = sc->s;
    CXSourceRangeList *skipped = clang_getSkippedRanges(sc->tu, sc->file);
    for (unsigned i = 0; i < sc->ntokens; i++) {
        struct pragma p = {0};
        const struct token *t = &sc->tokens[i];
        if (tok_is(sc, i, "#") && tok_is(sc, i + 1, "pragma")) {
            unsigned ls = logical_line_start(s, t->start);
            if (!only_blanks(s, ls, t->start))
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
                if (sc->verbose && !in_skipped_range(skipped, t->start))
                    report(s, t->start, "note", "_Pragma in a macro definition is left alone");
                continue;
            }
            if (read_operator_string(s, &sc->tokens[i + 2], &p) != 0)
                continue;
            p.start = t->start;
            p.line_start = t->start;
            p.end = sc->tokens[i + 3].end;
            p.is_operator = 1;
        } else {
            continue;
        }
        if ((!starts_with_word(p.text, "omp") && !starts_with_word(p.text, "pomp")) ||
            in_skipped_range(skipped, p.start)) {
            free(p.text);
            free(p.text_offsets);
            continue;
        }
        add_pragma(s, &p);
    }
    clang_disposeSourceRangeList(skipped);
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
        sc->s->main_body_close = close - 1;
    }
}

static enum CXChildVisitResult statement_visitor(CXCursor c, CXCursor parent, CXClientData d)
{
    (void)parent;
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
        unsigned b = expansion_offset(sc, clang_getRangeStart(r), &in_a);
        unsigned e = expansion_offset(sc, clang_getRangeEnd(r), &in_b);
        long w = in_a && in_b ? wanted_index(sc, b) : -1;
        if (w >= 0 && e > sc->found_end[w]) {
            sc->found_end[w] = e;
            sc->found_semicolon[w] = needs_semicolon(c);
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

static int find_statements(struct scan *sc)
{
    struct source *s = sc->s;
    sc->wanted = xmalloc((s->npragmas + 1) * sizeof *sc->wanted);
    unsigned *next_tok = xmalloc((s->npragmas + 1) * sizeof *next_tok);
    for (size_t i = 0; i < s->npragmas; i++) {
        next_tok[i] = token_at_or_after(sc, s->pragmas[i].end);
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
    sc->found_loop = xcalloc(u + 1, sizeof *sc->found_loop);
    clang_visitChildren(clang_getTranslationUnitCursor(sc->tu), statement_visitor, sc);

    /* Back to front, so a pragma followed by a pragma can take over its statement. */
    for (size_t i = s->npragmas; i-- > 0;) {
        struct pragma *p = &s->pragmas[i];
        if (next_tok[i] >= sc->ntokens)
            continue;
        unsigned at = sc->tokens[next_tok[i]].start;
        long inner = pragma_at(s, at);
        if (inner >= 0) {
            if (s->pragmas[inner].has_stmt) {
                p->has_stmt = 1;
                p->stmt_is_pragma = 1;
                p->stmt_start = s->pragmas[inner].start;
                p->stmt_end = s->pragmas[inner].stmt_end;
            }
            continue;
        }
        long w = wanted_index(sc, at);
        if (w < 0 || sc->found_end[w] == 0)
            continue;
        unsigned end = sc->found_end[w];
        if (sc->found_semicolon[w]) {
            unsigned t = token_at_or_after(sc, end);
            if (!tok_is(sc, t, ";")) {
                report(s, end, "error", "cannot find the ';' that ends this statement");
                free(next_tok);
                return -1;
            }
            end = sc->tokens[t].end;
        }
        p->has_stmt = 1;
        p->stmt_start = at;
        p->stmt_end = end;
        p->loop = sc->found_loop[w];
        sc->found_loop[w] = NULL;
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
    static const char *const with_value[] = {"-I", "-D", "-U", "-include", "-isystem", "-iquote",
                                             "-idirafter", "-imacros", "-x", "--sysroot",
                                             "-isysroot", "-target", NULL};
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

int source_load(struct source *s, const char *path, int argc, const char *const *argv, int openmp,
                int verbose)
{
    memset(s, 0, sizeof *s);
    s->path = path;
    if (read_file(path, &s->text, &s->size) != 0) {
        fprintf(stderr, "%s: error: cannot read the file\n", path);
        return -1;
    }
    compute_lines(s);

    const char **args = xmalloc((size_t)(argc + 8) * sizeof *args);
    int n = 0;
    for (int i = 0; i < argc; i++) {
        int takes_value;
        if (keep_flag(argv[i], &takes_value)) {
            args[n++] = argv[i];
            if (takes_value && i + 1 < argc)
                args[n++] = argv[++i];
        }
    }
    if (openmp)
        args[n++] = "-D_OPENMP=201811";
    args[n++] = "-D_POMP=202611";
    args[n++] = "-Wno-everything";

    CXIndex index = clang_createIndex(0, verbose ? 1 : 0);
    struct scan sc = {.s = s, .verbose = verbose};
    /* without the preprocessing record, clang_getSkippedRanges knows no #if branch */
    unsigned options = CXTranslationUnit_KeepGoing | CXTranslationUnit_DetailedPreprocessingRecord;
    enum CXErrorCode err = clang_parseTranslationUnit2(index, path, args, n, NULL, 0, options, &sc.tu);
    free(args);
    int rc = -1;
    if (err != CXError_Success || !sc.tu) {
        fprintf(stderr, "%s: error: libclang could not parse the file (code %d)\n", path, err);
        goto out;
    }
    sc.file = clang_getFile(sc.tu, path);
    if (!sc.file) {
        fprintf(stderr, "%s: error: libclang lost the file\n", path);
        goto out;
    }
    tokenize(&sc);
    find_pragmas(&sc);
    rc = find_statements(&sc);
    if (s->nmacros)
        qsort(s->macros, s->nmacros, sizeof *s->macros, cmp_string);
    source_ast_collect(s, sc.tu, sc.file);
out:
    free(sc.tokens);
    free(sc.wanted);
    free(sc.found_end);
    free(sc.found_semicolon);
    for (size_t i = 0; sc.found_loop && i < sc.nwanted; i++)
        loop_free(sc.found_loop[i]);
    free(sc.found_loop);
    if (sc.tu)
        clang_disposeTranslationUnit(sc.tu);
    clang_disposeIndex(index);
    return rc;
}

void source_free(struct source *s)
{
    for (size_t i = 0; i < s->npragmas; i++) {
        free(s->pragmas[i].text);
        free(s->pragmas[i].text_offsets);
        loop_free(s->pragmas[i].loop);
    }
    free(s->pragmas);
    for (size_t i = 0; i < s->nmacros; i++)
        free(s->macros[i]);
    free(s->macros);
    source_ast_free(&s->ast);
    free(s->text);
    free(s->line_offsets);
    memset(s, 0, sizeof *s);
}
