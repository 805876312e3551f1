#include "headers.h"

#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "constructs.h"
#include "source_includes.h"
#include "source_scan.h"
#include "util.h"

struct header {
    char *name;      /* libclang's name, normalized (its regions' file) */
    char *spelled;   /* as the compiler spells it (the copy's #line: __FILE__) */
    char *copy;      /* absolute path of its copy, or NULL when it is not copied */
    int has_pragmas; /* an omp or pomp pragma in a branch the unit compiles */
    int has_lock_calls; /* its text names a lock routine (source_text_may_call_locks) */
    /* OpenMP directives its invocations of macros make, which pomp leaves to
     * the runtime (source.macro_omp_pragmas): a header without a pragma of
     * its own gets a copy all the same, whose only change is their count for
     * the link step's warning (nothing left out is left unsaid) */
    unsigned macro_directives;
    unsigned macro_mutex_directives; /* of those, ones that may be critical or ordered */
    /* The header read and scanned once (load_header): a second load would say
     * its notes (a _Pragma in a #define) again. */
    struct source *src;
    int src_rc;
    /* why a copy elsewhere would read differently (NULL: it would not):
     * #include_next and __has_include resolve from the file's own directory
     * and place in the search path (a wrapper <stdlib.h> whose copy never
     * reached the real one: the program computed another result) */
    const char *stays;
};

struct headers {
    const struct source_unit *u;
    struct source_includes inc;
    struct header *v;
    size_t n;
};

static struct header *find_header(struct headers *h, const char *name)
{
    for (size_t i = 0; i < h->n; i++)
        if (strcmp(h->v[i].name, name) == 0)
            return &h->v[i];
    return NULL;
}

/* The header's source, loaded at the first call; 0 if it could be. */
static int load_header(const struct headers *h, struct header *x)
{
    if (!x->src) {
        x->src = xmalloc(sizeof *x->src);
        x->src_rc = source_load_header(x->src, h->u, x->name, x->spelled);
    }
    return x->src_rc;
}

/* The unit's project headers (not the main file, not system headers). */
static void list_headers(struct headers *h)
{
    for (size_t i = 0; i < h->inc.n; i++) {
        const char *t = h->inc.v[i].target;
        if (strcmp(t, h->u->path) == 0 || find_header(h, t) || source_unit_is_system_file(h->u, t))
            continue;
        h->v = xrealloc(h->v, (h->n + 1) * sizeof *h->v);
        h->v[h->n++] = (struct header){.name = xstrdup(t), .spelled = xstrdup(h->inc.v[i].spelled)};
    }
}

/* Whether the header may make OpenMP directives: its text has a pragma, or
 * names one of the unit's macros that hold a _Pragma (a false hit costs a scan). */
static int text_may_make_directives(const char *path, char *const *macros, size_t nmacros)
{
    char *text;
    size_t size;
    if (read_file(path, &text, &size) != 0)
        return 0;
    int has = memmem(text, size, "pragma", 6) != NULL || memmem(text, size, "Pragma", 6) != NULL;
    for (size_t i = 0; !has && i < nmacros; i++)
        has = memmem(text, size, macros[i], strlen(macros[i])) != NULL;
    free(text);
    return has;
}

/* What test says of the text of the file at path (0 if it cannot be read):
 * whether it names a lock routine (source_text_may_call_locks: its calls are
 * rewritten in its copy, which a C++ lock guard header holds without a
 * pragma), or a detach clause, a target and nowait (instrument_text_may_defer:
 * a header without a copy, for which the main file speaks). */
static int file_text_says(const char *path, int (*test)(const char *text, size_t size))
{
    char *text;
    size_t size;
    if (read_file(path, &text, &size) != 0)
        return 0;
    int says = test(text, size);
    free(text);
    return says;
}

/* Why the header at path must stay where it is, or NULL. */
static const char *must_stay(const char *path)
{
    char *text;
    size_t size;
    if (read_file(path, &text, &size) != 0)
        return NULL;
    const char *why = memmem(text, size, "include_next", 12)
                          ? "it uses #include_next"
                      : memmem(text, size, "__has_include", 13)
                          ? "it tests __has_include"
                          : NULL;
    free(text);
    return why;
}

/* The depth of braces at offset in text: code outside comments, string and
 * character literals and preprocessor lines. */
static int brace_depth_at(const char *t, size_t size, size_t offset)
{
    int depth = 0, line_start = 1;
    for (size_t i = 0; i < offset && i < size; i++) {
        char c = t[i];
        if (c == '\n') {
            line_start = 1;
            continue;
        }
        if (c == ' ' || c == '\t' || c == '\r')
            continue;
        if (line_start && c == '#') { /* a directive, with its continuation lines */
            while (i + 1 < offset && (t[i + 1] != '\n' || source_newline_spliced(t, i + 1)))
                i++;
            continue;
        }
        line_start = 0;
        size_t past = i;
        if (skip_comment(t, size, &past)) {
            i = past - 1; /* (a // comment's newline is seen next) */
        } else if (c == '"' || c == '\'') {
            for (i++; i < size && t[i] != c && t[i] != '\n'; i++)
                if (t[i] == '\\')
                    i++;
        } else if (c == '{') {
            depth++;
        } else if (c == '}' && depth > 0) {
            depth--;
        }
    }
    return depth;
}

/* Whether header is included inside braces somewhere (a function's body, a
 * class's, a namespace's): its copy would bring its include file there, whose
 * declarations and static functions cannot stand in a function (the copy did
 * not compile, and every header of the file lost its instrumentation). */
static const char *included_inside_braces(const struct headers *h, const char *header)
{
    for (size_t i = 0; i < h->inc.n; i++) {
        const struct source_include *d = &h->inc.v[i];
        if (strcmp(d->target, header) != 0)
            continue;
        char *text;
        size_t size;
        if (read_file(d->in_file, &text, &size) != 0)
            continue;
        int inside = brace_depth_at(text, size, d->offset) > 0;
        free(text);
        if (inside)
            return "it is included inside a function, class or namespace body";
    }
    return NULL;
}

static const char *stays_why(const struct headers *h, const char *header)
{
    const char *why = must_stay(header);
    return why ? why : included_inside_braces(h, header);
}

/* Whether include directive d can be pointed at its target's copy: written in
 * the main file (main: its name as directives name it) or in a header that
 * has a copy, as an #include (or #include_next) whose name pomp can rewrite,
 * and one the compiler resolves to that header: not one the parser found
 * only by recovering from an error (found_by_recovery), which the copy's
 * absolute path would have made compile. */
static int include_redirected(struct headers *h, const struct source_include *d,
                              const char *main)
{
    const struct header *from = find_header(h, d->in_file);
    if (d->found_by_recovery || (strcmp(d->in_file, main) != 0 && !(from && from->copy)))
        return 0;
    char *text;
    size_t size;
    if (read_file(d->in_file, &text, &size) != 0)
        return 0;
    unsigned b, e;
    int ok = include_name_range(text, size, d->offset, &b, &e) == 0;
    free(text);
    return ok;
}

/* A copy is compiled only where every inclusion of its header leads to it:
 * one reached also through an #include pomp cannot point at the copy (from a
 * header that stays as it is, a file given with -include, an #import, a
 * digraph %:include) or through none (-include itself) would be compiled
 * twice (#pragma once: the build fell back) or not at all (an include guard:
 * its lock calls, taken for the copy's, went unmeasured, said nowhere; a
 * probe). Such a header stays as it is, and so, in turn, may those it
 * includes. */
static void prune_unreached_copies(struct headers *h)
{
    /* one file under two names (a symlinked directory, another spelling):
     * two copies of it, compiled both (#pragma once: the build fell back; a
     * review); it stays as it is under either */
    char **real = xcalloc(h->n ? h->n : 1, sizeof *real); /* each resolved once */
    for (size_t i = 0; i < h->n; i++)
        real[i] = realpath(h->v[i].name, NULL);
    for (size_t i = 0; i < h->n; i++) {
        if (!h->v[i].copy || !real[i])
            continue;
        for (size_t k = 0; k < h->n; k++)
            if (k != i && real[k] && strcmp(real[i], real[k]) == 0) {
                free(h->v[i].copy);
                h->v[i].copy = NULL;
                h->v[i].stays = "it is reached under two names (a symbolic link, another "
                                "spelling), each of which would get a copy of its own";
                break;
            }
    }
    for (size_t i = 0; i < h->n; i++)
        free(real[i]);
    free(real);
    char *main = region_file_name(h->u->path);
    for (int changed = 1; changed;) {
        changed = 0;
        for (size_t i = 0; i < h->n; i++) {
            struct header *x = &h->v[i];
            if (!x->copy)
                continue;
            size_t reached = 0, redirected = 0;
            for (size_t k = 0; k < h->inc.n; k++)
                if (strcmp(h->inc.v[k].target, x->name) == 0) {
                    reached++;
                    redirected += include_redirected(h, &h->inc.v[k], main);
                }
            if (reached && redirected == reached)
                continue;
            free(x->copy);
            x->copy = NULL;
            x->stays = reached ? "it is also included where pomp cannot point the #include at its "
                                 "copy (a header that stays as it is, a file given with -include, "
                                 "#import, %:include, an #include <...> the compiler does not "
                                 "resolve to it)"
                               : "it is included by no #include directive (given with -include)";
            changed = 1;
        }
    }
    free(main);
}

/* Which headers get a copy: those with pragmas or macro-made directives, and
 * the project headers that include one that gets a copy; none that must stay
 * where it is (must_stay). */
static void choose_copies(struct headers *h, const char *out)
{
    char **macros = NULL;
    size_t nmacros = h->n ? source_unit_pragma_macros(h->u, &macros) : 0;
    for (size_t i = 0; i < h->n; i++) {
        struct header *x = &h->v[i];
        if (text_may_make_directives(x->name, macros, nmacros) && load_header(h, x) == 0) {
            x->has_pragmas = x->src->npragmas > 0;
            x->macro_directives = x->src->macro_omp_pragmas;
            x->macro_mutex_directives = x->src->macro_mutex_pragmas;
        }
        x->has_lock_calls =
            file_text_says(x->name, source_text_may_call_locks) && load_header(h, x) == 0;
    }
    for (size_t i = 0; i < nmacros; i++)
        free(macros[i]);
    free(macros);
    int changed = 1;
    for (size_t i = 0; i < h->n; i++) {
        struct header *x = &h->v[i];
        int wanted = x->has_pragmas || x->macro_directives || x->has_lock_calls;
        x->stays = wanted ? stays_why(h, x->name) : NULL;
        x->copy = wanted && !x->stays ? xstrdup("") : NULL;
    }
    while (changed) {
        changed = 0;
        for (size_t i = 0; i < h->inc.n; i++) {
            struct header *from = find_header(h, h->inc.v[i].in_file);
            struct header *to = find_header(h, h->inc.v[i].target);
            if (from && !from->copy && !from->stays && to && to->copy) {
                from->stays = stays_why(h, from->name);
                from->copy = from->stays ? NULL : xstrdup("");
                changed = 1;
            }
        }
    }
    prune_unreached_copies(h);
    char dir_buf[PATH_MAX], *out_copy = xstrdup(out), *out_copy2 = xstrdup(out);
    const char *dir = realpath(dirname(out_copy), dir_buf) ? dir_buf : ".";
    const char *out_base = name_for_include(basename(out_copy2));
    unsigned k = 0;
    for (size_t i = 0; i < h->n; i++) {
        if (!h->v[i].copy)
            continue;
        char *name = xstrdup(h->v[i].name);
        free(h->v[i].copy);
        h->v[i].copy = xasprintf("%s/%s.h%u.%s", dir, out_base, k++, name_for_include(basename(name)));
        free(name);
    }
    free(out_copy);
    free(out_copy2);
}

static int by_start(const void *a, const void *b)
{
    const struct text_replacement *x = a, *y = b;
    return (x->start > y->start) - (x->start < y->start);
}

/* Whether a quoted include in the copy of file, written name (len chars),
 * found real (a real path), is found as written from the copy too: file and
 * real both in the source's directory, named by their base name. The copy's
 * compile searches that directory first after the copy's own (pompcc's
 * -iquote), and there the compiler names the header as the plain build does:
 * its __FILE__ was the absolute path (found by a C++ probe). */
static int found_beside_source(const struct headers *h, const char *file, const char *real,
                               const char *name, size_t len)
{
    char src_buf[PATH_MAX], file_buf[PATH_MAX];
    char *src = xstrdup(h->u->path), *from = xstrdup(file), *to = xstrdup(real);
    const char *src_dir = realpath(dirname(src), src_buf);
    const char *file_dir = realpath(dirname(from), file_buf);
    const char *base = strrchr(real, '/');
    int beside = src_dir && file_dir && strcmp(src_dir, file_dir) == 0 &&
                 strcmp(dirname(to), src_dir) == 0 && base && strlen(base + 1) == len &&
                 strncmp(base + 1, name, len) == 0;
    free(src), free(from), free(to);
    return beside;
}

/* The edits of the #include directives in file (text): to a copy where the
 * header has one; in a copy (is_copy), quoted includes of other project
 * headers to the absolute path they found (but where the copy finds them as
 * written: found_beside_source). */
static size_t replacements_for(struct headers *h, const char *file, const char *text, size_t size,
                               int is_copy, struct text_replacement **out)
{
    size_t n = 0;
    *out = NULL;
    for (size_t i = 0; i < h->inc.n; i++) {
        const struct source_include *d = &h->inc.v[i];
        unsigned b, e;
        if (strcmp(d->in_file, file) != 0 || include_name_range(text, size, d->offset, &b, &e) != 0)
            continue;
        struct header *to = find_header(h, d->target);
        char *path = NULL;
        char real[PATH_MAX];
        if (to && to->copy)
            path = to->copy;
        else if (is_copy && to && text[b] == '"' && realpath(d->target, real) &&
                 !found_beside_source(h, file, real, text + b + 1, e - b - 2))
            path = real;
        if (!path)
            continue;
        struct strbuf q = {0};
        if (sb_add_header_name(&q, path) != 0)
            continue; /* (a newline in the path: the include stays as written) */
        *out = xrealloc(*out, (n + 1) * sizeof **out);
        (*out)[n++] = (struct text_replacement){b, e, q.s};
    }
    if (n)
        qsort(*out, n, sizeof **out, by_start);
    return n;
}

static void free_replacements(struct text_replacement *r, size_t n)
{
    for (size_t i = 0; i < n; i++)
        free((char *)r[i].text);
    free(r);
}

/* A copy without instrumentation: the header's text with its includes edited. */
static int write_plain_copy(const struct header *x, const char *text, size_t size,
                            const struct text_replacement *r, size_t n,
                            const struct construct_counts *left, const struct strbuf *left_locks)
{
    struct strbuf b = {0};
    sb_add(&b, "#line 1 \"");
    sb_add_c_escaped(&b, x->spelled);
    sb_add(&b, "\"\n");
    size_t pos = 0;
    for (size_t i = 0; i < n; i++) {
        sb_addn(&b, text + pos, r[i].start - pos);
        sb_add(&b, r[i].text);
        pos = r[i].end;
    }
    sb_addn(&b, text + pos, size - pos);
    if (left->constructs || (left_locks && left_locks->len)) {
        /* the link step says what this header left to the runtime */
        if (b.len && b.s[b.len - 1] != '\n')
            sb_add(&b, "\n");
        instrument_counts_asm(&b, x->name, left);
        if (left_locks && left_locks->len)
            sb_add(&b, left_locks->s);
    }
    int rc = write_file(x->copy, b.s ? b.s : "", b.len);
    copy_mtime(x->name, x->copy);
    free(b.s);
    return rc;
}

static void add_path(struct header_copies *hc, char *path)
{
    hc->paths = xrealloc(hc->paths, (hc->npaths + 1) * sizeof *hc->paths);
    hc->paths[hc->npaths++] = path;
}

static void print_counts(const char *file, const struct construct_counts *c)
{
    print_construct_counts(stderr, file, c->instrumented, c->constructs, c->on_purpose);
}

/* What a header without instrumentation leaves to the runtime: its omp
 * pragmas (not its pomp directives, which no runtime measures) and the
 * directives its macros make, and of those the ones that may be critical or
 * ordered. */
static struct construct_counts left_counts_of(const struct header *x)
{
    struct construct_counts left = {0};
    left.constructs = x->macro_directives;
    left.mutexes = x->macro_mutex_directives;
    /* its constructs as an instrumented copy counts them: not its
     * pass-through directives nor its sections' section lines (declare
     * reduction and declare simd were 2 of 3 left; a probe), nor pomp's own */
    for (size_t i = 0; x->src && i < x->src->npragmas; i++) {
        const char *text = x->src->pragmas[i].text;
        if (!construct_pragma_counts(text))
            continue;
        left.constructs++;
        left.mutexes += source_text_may_be_mutex(text, strlen(text));
    }
    return left;
}

static int named_as_is(const struct instrument_options *base, const struct header *x)
{
    /* (pompcc names it as the copy's #line and the compiler's messages do:
     * its spelled name) */
    for (size_t i = 0; i < base->nheaders_as_is; i++)
        if (strcmp(base->headers_as_is[i], x->name) == 0 ||
            strcmp(base->headers_as_is[i], x->spelled) == 0)
            return 1;
    return 0;
}

/* Instruments one header into its copy; a plain copy where it has no
 * pragmas, pomp cannot instrument it, or pompcc asks for it as it is (its
 * instrumented copy did not compile). */
static int copy_header(struct headers *h, struct header *x, const struct instrument_options *base,
                       struct header_copies *hc)
{
    if (load_header(h, x) != 0)
        return -1;
    struct source *s = x->src;
    struct text_replacement *r;
    size_t n = replacements_for(h, x->name, s->text, s->size, 1, &r);
    int rc = -1;
    struct instrument_result res = {0};
    struct instrument_options o = *base;
    char *inc = pomp_inc_path(x->copy);
    char real[PATH_MAX];
    const char *id = realpath(x->name, real) ? real : x->name;
    o.header = 1;
    o.header_key = fnv1a(fnv1a(FNV1A_START, id, strlen(id) + 1), s->text, s->size);
    o.inc_name = inc;
    o.replacements = r;
    o.nreplacements = n;
    o.functions = NULL;
    struct construct_counts left = {0};
    int as_is = named_as_is(base, x);
    int rewritten = x->has_pragmas || x->has_lock_calls;
    /* its calls are the copy's: rewritten, or left alone and counted there
     * (all of them dropped by the level: no region, and not the runtime's
     * either) */
    int settled = rewritten && !as_is && instrument(s, &o, &res) == 0;
    if (settled) {
        hc->instrumented = xrealloc(hc->instrumented, (hc->ninstrumented + 1) * sizeof *hc->instrumented);
        hc->instrumented[hc->ninstrumented++] = xstrdup(x->name);
    }
    if (settled && res.nregions > 0) {
        rc = write_file(inc, res.inc.s, res.inc.len) == 0 &&
                     write_file(x->copy, res.source.s, res.source.len) == 0
                 ? 0
                 : -1;
        copy_mtime(x->name, x->copy);
        add_path(hc, xstrdup(inc));
        if (base->verbose)
            print_counts(x->name, &res.counts);
        goto done;
    }
    if (settled) { /* nothing rewritten: what it leaves, counted */
        left = res.counts;
    } else if (as_is) { /* (pompcc says why) */
        left = left_counts_of(x);
    } else if (rewritten) {
        left = res.counts;
        left.instrumented = 0;
        fprintf(stderr, "%s: warning: the OpenMP %s of this header are not instrumented (see "
                        "above); the runtime's events still measure them\n",
                x->name, !x->has_pragmas      ? "lock calls"
                         : x->has_lock_calls ? "constructs and lock calls"
                                             : "constructs");
    } else { /* the directives its macros make, if any */
        left.constructs = x->macro_directives, left.mutexes = x->macro_mutex_directives;
    }
    if (base->verbose && left.constructs && (settled || as_is || !rewritten))
        print_counts(x->name, &left);
    rc = write_plain_copy(x, s->text, s->size, r, n, &left, settled ? &res.left_locks : NULL);
done:
    if (rc != 0)
        perror(x->copy);
    add_path(hc, xstrdup(x->copy));
    free(res.source.s);
    free(res.inc.s);
    free(res.left_locks.s);
    free(inc);
    free_replacements(r, n);
    return rc;
}

/* A header with directives that stays as it is: its constructs are the
 * runtime's to measure, said now and counted for the link step (in the main
 * file's copy, hc->left_counts). */
static void leave_header(struct header *x, struct header_copies *hc, int verbose)
{
    /* pomp's own directives make no region in a header left as it is (the
     * compiler ignores them): said always (a .inc file included inside a
     * function lost its user regions without a word; a probe) */
    unsigned pomp = 0, line = 0, col = 0;
    for (size_t i = 0; x->src && i < x->src->npragmas; i++) {
        const char *text = x->src->pragmas[i].text;
        text += strspn(text, " \t");
        if (strncmp(text, "pomp", 4) == 0 && (text[4] == ' ' || text[4] == '\t') && !pomp++)
            source_position(x->src, x->src->pragmas[i].start, &line, &col);
    }
    if (pomp)
        fprintf(stderr, "%s:%u:%u: warning: this header's %u '#pragma pomp' directive%s no region: %s\n",
                x->name, line, col, pomp, pomp == 1 ? " makes" : "s make", x->stays);
    struct construct_counts left = left_counts_of(x);
    if (!left.constructs)
        return;
    if (verbose) /* the link step warns of them; this says why */
        fprintf(stderr, "%s: note: its %u OpenMP construct%s left to the runtime's events: %s, "
                        "which an instrumented copy of it elsewhere would resolve differently\n",
                x->name, left.constructs, left.constructs == 1 ? " is" : "s are", x->stays);
    instrument_counts_asm(&hc->left_counts, x->name, &left);
}

int headers_instrument(const struct source_unit *u, const struct instrument_options *base,
                       const char *out, struct header_copies *hc)
{
    memset(hc, 0, sizeof *hc);
    struct headers h = {.u = u};
    source_includes_collect(u, &h.inc);
    list_headers(&h);
    choose_copies(&h, out);
    int rc = 0;
    for (size_t i = 0; i < h.n && rc == 0; i++)
        if (h.v[i].copy)
            rc = copy_header(&h, &h.v[i], base, hc);
        else if (h.v[i].stays && (h.v[i].has_pragmas || h.v[i].macro_directives))
            leave_header(&h.v[i], hc, base->verbose);
    for (size_t i = 0; i < h.n && rc == 0; i++)
        if (!h.v[i].copy && !hc->final_waits_may_wait)
            hc->final_waits_may_wait = file_text_says(h.v[i].name, instrument_text_may_defer);
    if (rc == 0) {
        char *text;
        size_t size;
        if (read_file(u->path, &text, &size) == 0) {
            /* the includes name the file as their regions do (region_file_name:
             * "./x.c" and an absolute path below the working directory read
             * "x.c"), not as the command line spelled it */
            char *main_name = region_file_name(u->path);
            hc->nmain_replacements =
                replacements_for(&h, main_name, text, size, 0, &hc->main_replacements);
            free(main_name);
            free(text);
        }
    }
    source_includes_free(&h.inc);
    for (size_t i = 0; i < h.n; i++) {
        free(h.v[i].name);
        free(h.v[i].spelled);
        free(h.v[i].copy);
        if (h.v[i].src)
            source_free(h.v[i].src);
        free(h.v[i].src);
    }
    free(h.v);
    return rc;
}

void header_copies_free(struct header_copies *hc)
{
    free_replacements(hc->main_replacements, hc->nmain_replacements);
    for (size_t i = 0; i < hc->npaths; i++)
        free(hc->paths[i]);
    free(hc->paths);
    free(hc->left_counts.s);
    for (size_t i = 0; i < hc->ninstrumented; i++)
        free(hc->instrumented[i]);
    free(hc->instrumented);
    memset(hc, 0, sizeof *hc);
}
