#include "source_scan.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util.h"

static int splice_blank(char c) { return c == ' ' || c == '\t' || c == '\f' || c == '\v'; }

size_t source_splice_length(const char *text, size_t size, size_t i)
{
    if (i >= size || text[i] != '\\')
        return 0;
    size_t k = i + 1;
    while (k < size && splice_blank(text[k]))
        k++;
    if (k < size && text[k] == '\r')
        k++;
    return k < size && text[k] == '\n' ? k + 1 - i : 0;
}

int source_newline_spliced(const char *text, size_t i)
{
    if (i > 0 && text[i - 1] == '\r')
        i--;
    while (i > 0 && splice_blank(text[i - 1]))
        i--;
    return i > 0 && text[i - 1] == '\\';
}

int source_text_has_word(const char *text, size_t size, const char *word)
{
    size_t n = strlen(word);
    for (const char *p = text; (p = memmem(p, size - (size_t)(p - text), word, n)) != NULL; p++) {
        int starts = p == text || !is_ident_char(p[-1]);
        int ends = (size_t)(p - text) + n == size || !is_ident_char(p[n]);
        if (starts && ends)
            return 1;
    }
    return 0;
}

/* Where word ends if it is spelled at p once line splices are taken out
 * (#pra\ at a line's end, gma omp on the next), or NULL. */
static const char *spliced_word_end(const char *p, const char *end, const char *word)
{
    for (; *word; word++, p++) {
        size_t splice;
        while (p < end && (splice = source_splice_length(p, (size_t)(end - p), 0)) != 0)
            p += splice;
        if (p >= end || *p != *word)
            return NULL;
    }
    return p;
}

/* word in [from, end): past its end, or NULL. Line splices inside the word
 * are read as compilers read them. */
static const char *find_spliced(const char *from, const char *end, const char *word)
{
    size_t n = strlen(word);
    if (!memchr(from, '\\', (size_t)(end - from))) {
        const char *p = memmem(from, (size_t)(end - from), word, n);
        return p ? p + n : NULL;
    }
    for (const char *p = from; p < end; p++) {
        const char *past = *p == word[0] ? spliced_word_end(p, end, word) : NULL;
        if (past)
            return past;
    }
    return NULL;
}

/* "ragma" (of #pragma and _Pragma) in text: past its end, or NULL. */
static const char *find_ragma(const char *from, const char *end)
{
    return find_spliced(from, end, "ragma");
}

int source_text_has_spliced(const char *text, size_t size, const char *word)
{
    return find_spliced(text, text + size, word) != NULL;
}

int source_text_may_call_locks(const char *text, size_t size)
{
    static const char *const routines[] = {"omp_set_lock",  "omp_set_nest_lock",
                                           "omp_unset_lock", "omp_unset_nest_lock",
                                           "omp_test_lock", "omp_test_nest_lock"};
    for (size_t i = 0; i < sizeof routines / sizeof *routines; i++)
        if (memmem(text, size, routines[i], strlen(routines[i])))
            return 1;
    return 0;
}

int source_may_need_instrumentation(const char *text, size_t size)
{
    return find_ragma(text, text + size) != NULL || memmem(text, size, "omp_", 4) != NULL ||
           source_text_has_word(text, size, "main");
}

static int is_blank(char c) { return c == ' ' || c == '\t'; }

/* Whether the pragma at p lies in the body of a #define whose macro text
 * never names again (no use, no #undef or #ifdef of it): its construct is
 * made where the macro is expanded, in the file that does. */
static int in_unnamed_macro(const char *text, size_t size, const char *p)
{
    const char *s = p; /* the logical line's start (past spliced lines) */
    while (s > text) {
        if (s[-1] == '\n') {
            const char *b = s - 1;
            if (b > text && b[-1] == '\r')
                b--;
            if (b > text && b[-1] == '\\') {
                s = b - 1;
                continue;
            }
            break;
        }
        s--;
    }
    while (s < p && is_blank(*s))
        s++;
    if (s >= p || *s++ != '#')
        return 0;
    while (s < p && is_blank(*s))
        s++;
    if (p - s < 7 || strncmp(s, "define", 6) != 0 || !is_blank(s[6]))
        return 0;
    for (s += 6; s < p && is_blank(*s); s++)
        ;
    const char *name = s;
    while (s < p && is_ident_char(*s))
        s++;
    if (s == name)
        return 0;
    char word[256];
    size_t n = (size_t)(s - name);
    if (n >= sizeof word)
        return 0;
    memcpy(word, name, n);
    word[n] = '\0';
    /* named once: at its definition only */
    return !source_text_has_word(s, (size_t)(text + size - s), word) &&
           !source_text_has_word(text, (size_t)(name - text), word);
}

/* Whether a pragma of text may start with sentinel (#pragma omp,
 * _Pragma("omp ...")); a false "yes" is possible. With expanded_here, not
 * one in the body of a macro text never names again. */
static int has_directive_where(const char *text, size_t size, const char *sentinel,
                               int expanded_here)
{
    const char *end = text + size;
    for (const char *q = find_ragma(text, end); q; q = find_ragma(q, end)) {
        const char *at = q;
        for (;;) { /* blanks, '(' and '"' (_Pragma("), line splices */
            size_t splice = q < end ? source_splice_length(q, (size_t)(end - q), 0) : 0;
            if (splice)
                q += splice;
            else if (q < end && (is_blank(*q) || *q == '(' || *q == '"'))
                q++;
            else
                break;
        }
        if (spliced_word_end(q, end, sentinel) && !(expanded_here && in_unnamed_macro(text, size, at)))
            return 1;
    }
    return 0;
}

static int has_directive(const char *text, size_t size, const char *sentinel)
{
    return has_directive_where(text, size, sentinel, 0);
}

int source_has_openmp_directive(const char *text, size_t size)
{
    if (memmem(text, size, "omp::", 5) != NULL) /* [[omp::directive(...)]] */
        return 1;
    return has_directive(text, size, "omp");
}

int source_has_openacc_directive(const char *text, size_t size)
{
    return has_directive(text, size, "acc");
}

int include_name_range(const char *text, size_t size, unsigned offset, unsigned *start,
                       unsigned *end)
{
    size_t p = offset < size ? offset : size;
    while (p > 0 && text[p - 1] != '\n')
        p--;
    while (p < size && is_blank(text[p]))
        p++;
    if (p >= size || text[p] != '#')
        return -1;
    for (p++; p < size && is_blank(text[p]); p++)
        ;
    size_t kw = p;
    while (p < size && (text[p] == '_' || (text[p] >= 'a' && text[p] <= 'z')))
        p++;
    if (p == kw || strncmp(text + kw, "include", 7) != 0)
        return -1; /* #include, #include_next (#import is Objective-C) */
    while (p < size && is_blank(text[p]))
        p++;
    size_t e = p;
    if (p < size && (text[p] == '"' || text[p] == '<')) {
        char close = text[p] == '"' ? '"' : '>';
        for (e = p + 1; e < size && text[e] != close && text[e] != '\n'; e++)
            ;
        if (e >= size || text[e] != close)
            return -1;
        e++;
    } else { /* a macro: to the end of the line or a comment */
        while (e < size && text[e] != '\n' && text[e] != '\r' &&
               !(text[e] == '/' && e + 1 < size && (text[e + 1] == '/' || text[e + 1] == '*')))
            e++;
        while (e > p && is_blank(text[e - 1]))
            e--;
        if (e == p)
            return -1;
    }
    *start = (unsigned)p;
    *end = (unsigned)e;
    return 0;
}

/* Files already looked at, so that a header included twice is read once. */
struct visited {
    char **v;
    size_t n;
};

static int visit(struct visited *seen, const char *path)
{
    char real[PATH_MAX];
    const char *key = realpath(path, real) ? real : path;
    for (size_t i = 0; i < seen->n; i++)
        if (strcmp(seen->v[i], key) == 0)
            return 0;
    seen->v = xrealloc(seen->v, (seen->n + 1) * sizeof *seen->v);
    seen->v[seen->n++] = xstrdup(key);
    return 1;
}

/* Where #include NAME finds a header from the file at path: its directory
 * (quoted names), then dirs; NULL when none has it (a system header). */
static char *find_header(const char *path, const char *name, int quoted, const char *const *dirs,
                         size_t ndirs)
{
    if (name[0] == '/')
        return access(name, R_OK) == 0 ? xstrdup(name) : NULL;
    if (quoted) {
        const char *slash = strrchr(path, '/');
        char *p = slash ? xasprintf("%.*s/%s", (int)(slash - path), path, name) : xstrdup(name);
        if (access(p, R_OK) == 0)
            return p;
        free(p);
    }
    for (size_t i = 0; i < ndirs; i++) {
        char *p = xasprintf("%s/%s", dirs[i], name);
        if (access(p, R_OK) == 0)
            return p;
        free(p);
    }
    return NULL;
}

enum { MAX_INCLUDE_DEPTH = 32 };

/* What walk() does with each file it reads: 1 stops the walk. */
typedef int file_visitor(const char *path, const char *text, size_t size, int depth, void *arg);

/* Visits the file at path and, depth first, the headers it includes that
 * are found in its directory or in dirs, each once. -1 if path cannot be
 * read; else 1 if a visit stopped the walk, 0 if none did. A computed
 * #include (a macro's name) stops it where unknown_stops is set: where it
 * leads is not known without the preprocessor, so it may lead to a pragma. */
static int walk(const char *path, const char *const *dirs, size_t ndirs, struct visited *seen,
                int depth, file_visitor *each, void *arg, int unknown_stops)
{
    char *text;
    size_t size;
    if (read_file(path, &text, &size) != 0)
        return -1;
    int stop = each(path, text, size, depth, arg);
    for (size_t at = 0; !stop && depth < MAX_INCLUDE_DEPTH && at < size;) {
        unsigned b, e;
        int named = include_name_range(text, size, (unsigned)at, &b, &e) == 0;
        if (named && e - b > 2 && (text[b] == '"' || text[b] == '<')) {
            char *name = xasprintf("%.*s", (int)(e - b - 2), text + b + 1);
            char *found = find_header(path, name, text[b] == '"', dirs, ndirs);
            if (found && visit(seen, found))
                stop = walk(found, dirs, ndirs, seen, depth + 1, each, arg, unknown_stops) == 1;
            free(found);
            free(name);
        } else if (named && unknown_stops) {
            stop = 1; /* #include SOME_MACRO */
        }
        const char *nl = memchr(text + at, '\n', size - at);
        at = nl ? (size_t)(nl - text) + 1 : size;
    }
    free(text);
    return stop;
}

static int walk_from(const char *path, const char *const *dirs, size_t ndirs, file_visitor *each,
                     void *arg, int unknown_stops)
{
    struct visited seen = {0};
    visit(&seen, path);
    int rc = walk(path, dirs, ndirs, &seen, 0, each, arg, unknown_stops);
    for (size_t i = 0; i < seen.n; i++)
        free(seen.v[i]);
    free(seen.v);
    return rc;
}

/* The file itself by what it may need; a header by any pragma at all, or a
 * lock routine's call. */
static int may_need(const char *path, const char *text, size_t size, int depth, void *arg)
{
    (void)path;
    (void)arg;
    return depth == 0 ? source_may_need_instrumentation(text, size)
                      : memmem(text, size, "pragma", 6) != NULL ||
                            memmem(text, size, "Pragma", 6) != NULL ||
                            source_text_may_call_locks(text, size);
}

int source_file_may_need_instrumentation(const char *path, const char *const *dirs, size_t ndirs)
{
    /* (the file itself unread: pomp-instrument says why it cannot read it) */
    return walk_from(path, dirs, ndirs, may_need, NULL, 1) != 0;
}

struct directive_files {
    void (*each)(const char *path, void *arg);
    void *arg;
    int expanded_here;
};

static int with_directive(const char *path, const char *text, size_t size, int depth, void *arg)
{
    (void)depth;
    const struct directive_files *d = arg;
    if (memmem(text, size, "omp::", 5) != NULL || /* [[omp::directive(...)]] */
        has_directive_where(text, size, "omp", d->expanded_here))
        d->each(path, d->arg);
    return 0;
}

void source_files_with_openmp(const char *path, const char *const *dirs, size_t ndirs,
                              int expanded_here, void (*each)(const char *path, void *arg),
                              void *arg)
{
    struct directive_files d = {each, arg, expanded_here};
    walk_from(path, dirs, ndirs, with_directive, &d, 0);
}

/* The identifier at text[p] (its length), or 0. */
static size_t identifier_at(const char *text, size_t size, size_t p)
{
    size_t q = p;
    while (q < size && (text[q] == '_' || (text[q] >= 'a' && text[q] <= 'z') ||
                        (text[q] >= 'A' && text[q] <= 'Z') || (q > p && text[q] >= '0' && text[q] <= '9')))
        q++;
    return q - p;
}

/* Past blanks, newlines, comments and preprocessing lines from p. */
static size_t past_trivia(const char *text, size_t size, size_t p)
{
    int line_start = 1;
    while (p < size) {
        size_t splice = source_splice_length(text, size, p);
        if (splice) {
            p += splice;
        } else if (text[p] == '\n') {
            line_start = 1;
            p++;
        } else if (is_blank(text[p]) || text[p] == '\r' || text[p] == '\f' || text[p] == '\v') {
            p++;
        } else if (p + 1 < size && text[p] == '/' && text[p + 1] == '/') {
            while (p < size && (text[p] != '\n' || source_newline_spliced(text, p)))
                p++;
        } else if (p + 1 < size && text[p] == '/' && text[p + 1] == '*') {
            const char *end = memmem(text + p + 2, size - p - 2, "*/", 2);
            p = end ? (size_t)(end - text) + 2 : size;
            line_start = 0;
        } else if (line_start && text[p] == '#') { /* a directive, to its line's end */
            while (p < size && (text[p] != '\n' || source_newline_spliced(text, p)))
                p++;
        } else {
            break;
        }
    }
    return p;
}

int source_is_module_unit(const char *text, size_t size)
{
    size_t p = past_trivia(text, size, 0), n = identifier_at(text, size, p);
    if (n == 6 && strncmp(text + p, "export", 6) == 0) {
        p = past_trivia(text, size, p + n);
        n = identifier_at(text, size, p);
    }
    if (n != 6 || strncmp(text + p, "module", 6) != 0)
        return 0;
    p = past_trivia(text, size, p + n); /* "module;", "module name", "module :private" */
    return p < size && (text[p] == ';' || text[p] == ':' || identifier_at(text, size, p) > 0);
}
