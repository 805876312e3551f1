/* How each construct is rewritten (docs/instrumentation.md has the resulting code). */
#include "instrument.h"

#include <ctype.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "atomic_operand.h"
#include "constructs.h"
#include "context.h"
#include "ctc.h"
#include "directive.h"
#include "modules.h"
#include "rewrite.h"
#include "rewriter.h"
#include "source_scan.h"

/* Whether text holds word as the start of an identifier. */
static int names_with(const char *text, size_t size, const char *word)
{
    size_t n = strlen(word);
    for (const char *at = text; (at = memmem(at, size - (size_t)(at - text), word, n)) != NULL;
         at += n)
        if (at == text || !(isalnum((unsigned char)at[-1]) || at[-1] == '_'))
            return 1;
    return 0;
}

void local_prefix(char out[16], const char *text, size_t size)
{
    strcpy(out, "pomp_");
    for (unsigned k = 1; k < 1000000 && names_with(text, size, out); k++)
        snprintf(out, 16, "pomp%u_", k);
}

void add_edit(struct rewriter *w, unsigned offset, unsigned remove, int order, char *text)
{
    w->edits = xrealloc(w->edits, (w->nedits + 1) * sizeof *w->edits);
    w->edits[w->nedits] = (struct edit){offset, remove, order, w->nedits, text, offset};
    w->nedits++;
}

void note(const struct rewriter *w, unsigned offset, const char *fmt, const char *arg)
{
    if (!w->o->verbose)
        return;
    unsigned line, col;
    source_position(w->s, offset, &line, &col);
    fprintf(stderr, "%s:%u:%u: note: ", w->s->path, line, col);
    fprintf(stderr, fmt, arg);
    fputc('\n', stderr);
}

/* "\n#line N \"file\"\n": after inserted lines, the next line is line N again
 * (as the user knows it: after their own #line directives and line markers). */
void add_line_directive(struct strbuf *b, const struct rewriter *w, unsigned line)
{
    const char *file;
    unsigned presumed;
    source_spelled_of_line(w->s, line, &file, &presumed);
    sb_printf(b, "\n#line %u \"", presumed);
    sb_add_c_escaped(b, file);
    sb_add(b, "\"\n");
}

/* "\n#line N \"file\"" for the line after pragma p, without its newline: text
 * inserted at the end of a #pragma line lets the pragma's own newline end it. */
void add_line_directive_after_pragma(struct strbuf *b, const struct rewriter *w,
                                     const struct pragma *p)
{
    add_line_directive(b, w, source_line(w->s, p->end) + 1);
    b->len--;
    b->s[b->len] = '\0';
}

/* ---- regions and CTC strings ---- */

/* Registers a region of the given type for pragma p; returns its handle number. */
unsigned new_region(struct rewriter *w, const struct pragma *p, const struct directive *d,
                    const char *type)
{
    struct ctc_builder b;
    ctc_builder_init(&b);
    ctc_builder_add(&b, "type", type);
    ctc_builder_add_file(&b, source_presumed_file(w->s, p->start), w->o->cwd);
    ctc_builder_add_lines(&b, "slines", (int)source_presumed_line(w->s, p->start),
                          (int)source_presumed_line(w->s, p->end));
    /* a stand-alone directive ends where its pragma ends */
    int standalone = construct_type_is_standalone(type);
    unsigned last = p->has_stmt && !standalone ? p->stmt_end - 1 : p->end;
    ctc_builder_add_lines(&b, "elines", (int)source_presumed_line(w->s, last),
                          (int)source_presumed_line(w->s, last));
    construct_ctc_attributes(&b, d, type);
    /* an atomic updated under a lock: its time is a wait (pomp-report: an
     * atomic without it is an event, no wait, even where a trace keeps it
     * from being counted inline) */
    if (strcmp(type, "atomic") == 0 && atomic_operand_locked(p->atomic_size))
        ctc_builder_add(&b, "atomicLocked", "1");
    char *ctc = ctc_builder_finish(&b);
    if (!ctc) {
        fputs("pomp-instrument: fatal: out of memory\n", stderr);
        exit(70);
    }
    w->ctcs = xrealloc(w->ctcs, (w->nregions + 1) * sizeof *w->ctcs);
    w->ctcs[w->nregions] = ctc;
    return w->nregions++;
}

void region_add_attribute(struct rewriter *w, unsigned r, const char *key, const char *value)
{
    struct ctc_builder b;
    if (ctc_builder_init_from(&b, w->ctcs[r]) != 0) {
        fputs("pomp-instrument: fatal: out of memory\n", stderr);
        exit(70);
    }
    ctc_builder_add(&b, key, value);
    rw_region_set_ctc(w, r, rw_ctc_finish(&b));
}

/* ---- where code goes ---- */

/* Before the pragma: on lines of their own for #pragma (which must start a line). */
void insert_before_pragma(struct rewriter *w, const struct pragma *p, const char *code)
{
    struct strbuf b = {0};
    sb_add(&b, code);
    if (p->is_operator) {
        sb_add(&b, " ");
        add_edit(w, p->start, 0, 2 * p->depth, b.s);
    } else {
        add_line_directive(&b, w, source_line(w->s, p->line_start));
        add_edit(w, p->line_start, 0, 2 * p->depth, b.s);
    }
}

const struct pragma *pragma_starting_at(const struct source *s, unsigned offset)
{
    for (size_t i = 0; i < s->npragmas; i++)
        if (s->pragmas[i].start == offset)
            return &s->pragmas[i];
    return NULL;
}

/* At the start of the structured block (which may itself begin with a pragma). */
void insert_at_block_start(struct rewriter *w, const struct pragma *p, const char *code)
{
    struct strbuf b = {0};
    sb_add(&b, code);
    const struct pragma *inner = p->stmt_is_pragma ? pragma_starting_at(w->s, p->stmt_start) : NULL;
    if (inner && !inner->is_operator) {
        add_line_directive(&b, w, source_line(w->s, inner->line_start));
        add_edit(w, inner->line_start, 0, 2 * p->depth, b.s);
    } else {
        sb_add(&b, " ");
        add_edit(w, p->stmt_start, 0, 2 * p->depth, b.s);
    }
}

/* After the structured block. */
void insert_after_block(struct rewriter *w, const struct pragma *p, const char *code)
{
    /* After a statement that ends with ';' (an unbraced loop or if body among
     * them), a null statement first: code on the body's line after it reads
     * as misleading indentation to GCC (-Wall), and a -Werror build fell back
     * to no instrumentation. A macro's (pomplib.h), which clang's
     * -Wextra-semi-stmt leaves alone. So after any statement that is not a
     * block of its own: an unbraced loop whose body ends with '}' (collapse(2)
     * over a braced inner loop) read as misleading to clang (-Wall). */
    const char *text = w->s->text;
    unsigned start = p->stmt_start;
    while (start < p->stmt_end && (text[start] == ' ' || text[start] == '\t' ||
                                   text[start] == '\n' || text[start] == '\r'))
        start++;
    int null_first = p->stmt_end > 0 && (text[p->stmt_end - 1] == ';' ||
                                         (start < p->stmt_end && text[start] != '{'));
    add_edit(w, p->stmt_end, 0, -2 * p->depth - 1,
             xasprintf("%s %s", null_first ? " POMP_NULL_STATEMENT_" : "", code));
}

/* After a stand-alone directive (barrier): on the next line for #pragma. */
void insert_after_pragma(struct rewriter *w, const struct pragma *p, const char *code)
{
    if (p->is_operator) {
        add_edit(w, p->end, 0, -2 * p->depth - 1, xasprintf(" %s", code));
        return;
    }
    struct strbuf b = {0};
    sb_add(&b, "\n");
    sb_add(&b, code);
    add_line_directive_after_pragma(&b, w, p);
    add_edit(w, p->end, 0, -2 * p->depth - 1, b.s);
}

/* Writes a pragma line: "#pragma omp <text>" or _Pragma("omp <text>"). */
void add_pragma_text(struct strbuf *b, const struct pragma *p, const char *text)
{
    if (p->is_operator) {
        sb_add(b, "_Pragma(\"omp ");
        sb_add_c_escaped(b, text);
        sb_add(b, "\")");
    } else {
        sb_printf(b, "#pragma omp %s", text);
    }
}

/* ---- the modules (modules.h), through their table ---- */

static void modules_begin(struct rewriter *w)
{
    w->module_state = xcalloc(pomp_nmodules, sizeof *w->module_state);
    for (size_t i = 0; i < pomp_nmodules; i++)
        w->module_state[i] = pomp_modules[i]->begin(w);
}

/* A #pragma pomp directive goes to the modules that take them. */
static int modules_pomp_pragma(struct rewriter *w, const struct pragma *p,
                               const struct directive *d)
{
    int rc = 0;
    for (size_t i = 0; i < pomp_nmodules; i++)
        if (w->module_state[i] && pomp_modules[i]->pomp_pragma &&
            pomp_modules[i]->pomp_pragma(w->module_state[i], p, d) != 0)
            rc = -1;
    return rc;
}

static void modules_emit_edit(const struct rewriter *w, struct strbuf *out, unsigned anchor,
                              const char *text)
{
    for (size_t i = 0; i < pomp_nmodules; i++)
        if (w->module_state[i] && pomp_modules[i]->emit_edit) {
            pomp_modules[i]->emit_edit(w->module_state[i], out, anchor, text);
            return;
        }
    sb_add(out, text);
}

static void modules_end(struct rewriter *w)
{
    for (size_t i = 0; i < pomp_nmodules; i++)
        if (w->module_state[i])
            pomp_modules[i]->end(w->module_state[i]);
    free(w->module_state);
}

void *rw_module_state(const struct rewriter *w, const struct module *m)
{
    for (size_t i = 0; i < pomp_nmodules; i++)
        if (pomp_modules[i] == m)
            return w->module_state[i];
    return NULL;
}

/* ---- one pragma ---- */

static void report_parse_error(const struct rewriter *w, const struct pragma *p,
                               const struct directive *d, const char *what)
{
    size_t len = strlen(p->text);
    unsigned off = d->error_column >= 0 && (size_t)d->error_column < len
                       ? p->text_offsets[d->error_column]
                       : p->end;
    unsigned line, col;
    source_position(w->s, off, &line, &col);
    fprintf(stderr, "%s:%u:%u: %s\n", w->s->path, line, col, what);
}

/* Takes back what a construct's instrumentation added since edits_before and
 * regions_before: a construct that cannot be instrumented costs only itself. */
static void roll_back(struct rewriter *w, size_t edits_before, unsigned regions_before)
{
    for (size_t i = edits_before; i < w->nedits; i++)
        free(w->edits[i].text);
    w->nedits = edits_before;
    for (unsigned i = regions_before; i < w->nregions; i++)
        free(w->ctcs[i]);
    w->nregions = regions_before;
}

/* A construct left to the runtime's events. */
static void count_left(struct rewriter *w, const struct directive *d)
{
    w->counts.constructs++;
    if (source_text_may_be_mutex(d->name, strlen(d->name)))
        w->counts.mutexes++;
}

/* Whether the construct's edits since edits_before had POMP calls and its
 * compile-time level (#pragma pomp inst) drops them all. */
static int level_drops_all(const struct rewriter *w, size_t edits_before)
{
    for (size_t m = 0; m < pomp_nmodules; m++) /* the module that filters the edits */
        if (w->module_state[m] && pomp_modules[m]->drops_all) {
            int calls = 0;
            for (size_t i = edits_before; i < w->nedits; i++)
                if (!pomp_modules[m]->drops_all(w->module_state[m], w->edits[i].anchor,
                                                w->edits[i].text, &calls))
                    return 0;
            return calls;
        }
    return 0;
}

/* Whether the compile-time level at anchor drops the calls of routine
 * ("Parallel_enter"), asked through the modules' table. */
static int level_drops_routine(const struct rewriter *w, unsigned anchor, const char *routine)
{
    char text[64];
    int calls = 0;
    snprintf(text, sizeof text, "POMP_%s()", routine);
    for (size_t m = 0; m < pomp_nmodules; m++)
        if (w->module_state[m] && pomp_modules[m]->drops_all)
            return pomp_modules[m]->drops_all(w->module_state[m], anchor, text, &calls) && calls;
    return 0;
}

/* Whether each inclusion of the file (a header included more than once with
 * other macros) compiles all of the code a construct's instrumentation
 * inserted within its extent, or none of it: its directive and its
 * statement's end may lie in #if branches the inclusions take differently
 * (alternative directives above one loop, one directive above alternative
 * loops), and then some inclusion would see the closing half of the code
 * alone (the copy did not compile, and every header of the file lost its
 * instrumentation; a probe). Else *line: the line of an edit that disagrees. */
static int whole_in_each_inclusion(const struct rewriter *w, const struct pragma *p,
                                   size_t edits_before, unsigned *line)
{
    if (source_inclusions(w->s) < 2)
        return 1;
    unsigned last = p->has_stmt && p->stmt_end > p->end ? p->stmt_end : p->end;
    for (size_t i = edits_before; i < w->nedits; i++) {
        const struct edit *e = &w->edits[i];
        if (e->offset < p->line_start || e->offset > last)
            continue; /* (a kept macro's #if defined(), whole where it is) */
        /* an insertion between two characters, or the text it replaces */
        unsigned from = e->offset > 0 ? e->offset - 1 : 0;
        unsigned to = e->remove ? e->offset + e->remove - 1 : e->offset;
        if (to >= w->s->size)
            to = w->s->size ? (unsigned)w->s->size - 1 : 0;
        if (!source_inclusions_agree(w->s, p->start, from) ||
            !source_inclusions_agree(w->s, p->start, e->offset < w->s->size ? e->offset : from) ||
            !source_inclusions_agree(w->s, p->start, to)) {
            *line = source_line(w->s, e->offset);
            return 0;
        }
    }
    return 1;
}

/* Whether construct d forks parallel regions with no POMP call in them,
 * which only the runtime's events measure: the object counts them (`inner`),
 * so that the link has the bridges follow them. Unmarked, the bridges
 * followed the instrumentation only and took them for unexpected code:
 * `warning: not measured: N parallel regions that pompcc did not instrument
 * ran`, their loops unmeasured and the whole run not rated, in a file counted
 * wholly instrumented (probes). They are
 * - a host composite `distribute parallel for [simd]` (also the inner leaf of
 *   a split `teams distribute parallel for`), a whole `teams loop` and a loop
 *   construct bound to teams (loop_binds_to_teams), for which GCC forks a
 *   parallel region per team (a stencil solver, 4 such regions);
 * - a combined construct whose parallel leaf's calls its level drops ("inst
 *   parallel none" above a "parallel for" whose loop keeps its calls);
 * - device code (device: a target construct, or d inside a target region): a
 *   parallel region there forks on the host where no device takes the
 *   target region (none there, or GCC built without offloading). */
static int forks_unseen_teams(const struct rewriter *w, const struct pragma *p,
                              const struct directive *d, int device)
{
    if (strstr(d->name, "teams loop") || loop_binds_to_teams(w, p, d))
        return 1;
    return has_leaf(d->name, "parallel") &&
           (device || strstr(d->name, "distribute parallel for") ||
            level_drops_routine(w, p->start, "Parallel_enter"));
}

/* Whether the omp directive of pragma q takes a statement (is no stand-alone
 * or declarative one): -1 for a pragma that is no omp directive. */
static int takes_statement(const struct pragma *q)
{
    struct directive d;
    int takes = directive_parse(q->text, &d) != 0 || strcmp(d.sentinel, "omp") != 0
                    ? -1
                    : directive_needs_statement(&d);
    directive_free(&d); /* (also after a failed parse: what it read so far) */
    return takes;
}

/* A construct's body that is one stand-alone directive, which no compiler
 * takes (GCC: "may only be used in compound statements"; clang: "cannot be an
 * immediate substatement"): `#pragma omp parallel` `#pragma omp barrier`
 * `n += 1;`. Braced by pomp, it compiled, with n += 1 moved into the region:
 * a race the program never had (a probe). Both directives are left to the
 * compiler's error. Whether pragma p is such a body (after: the construct
 * before it), or such a construct (!after: the body after it). */
static int standalone_body(const struct source *s, const struct pragma *p, int after)
{
    const struct pragma *q = NULL;
    for (size_t i = 0; i < s->npragmas; i++) {
        const struct pragma *r = &s->pragmas[i];
        if (after ? r->end <= p->start && (!q || r->end > q->end)
                  : r->start >= p->end && (!q || r->start < q->start))
            q = r;
    }
    if (!q || q->is_operator != p->is_operator ||
        !(after ? text_only_blanks_between(s->text, s->size, q->end, p->start, 1)
               : text_only_blanks_between(s->text, s->size, p->end, q->start, 1)))
        return 0;
    return after ? takes_statement(q) == 1 : takes_statement(q) == 0 && takes_statement(p) == 1;
}

/* Whether a scan directive's loop is a worksharing loop's (for, parallel for,
 * ... for simd): GCC's code for that one calls GOMP_loop_start with a scan
 * reduction, which LLVM libomp's libgomp layer aborts in (runtime_select.c);
 * a simd loop's scan makes no runtime call, and the runtime the user asked
 * for serves it (a probe: such a file was linked to libgomp, said to call
 * GOMP_loop_start). Its loop: the innermost directive whose statement holds
 * it; where none is made out, a worksharing loop's is assumed. */
static int scan_in_worksharing_loop(const struct source *s, const struct pragma *scan)
{
    const struct pragma *loop = NULL;
    for (size_t i = 0; i < s->npragmas && s->pragmas[i].start < scan->start; i++)
        if (pragma_encloses(&s->pragmas[i], scan->start))
            loop = &s->pragmas[i]; /* (in source order: a later one is nested in an earlier one) */
    if (!loop)
        return 1;
    struct parsed x;
    parse_pragma(loop, &x);
    int worksharing = !x.ok || has_leaf(x.d.name, "for");
    unparse_pragma(&x);
    return worksharing;
}

/* One OpenMP directive. A construct whose statement pomp cannot make out, or
 * which it cannot rewrite, is left as written, with one warning: the rest of
 * the file is instrumented, and the runtime's events (OMPT) still see it. */
static void instrument_one_construct(struct rewriter *w, const struct pragma *p,
                                     const struct directive *d, size_t edits_before)
{
    unsigned regions_before = w->nregions;
    w->left_on_purpose = 0;
    w->left_whole = 0;
    if (p->unread_macros) {
        rw_diag(w, p->start, "warning", "'#pragma omp %s' is not instrumented: %s; %s", d->name,
                p->unread_macros, construct_left_measured_by(d, w->o->gcc));
        count_left(w, d);
        return;
    }
    if (p->moved || (p->unplaced && directive_needs_statement(d))) {
        rw_diag(w, p->start, "warning", "'#pragma omp %s' is not instrumented: %s; %s", d->name,
                p->moved ? p->moved : p->unplaced, construct_left_measured_by(d, w->o->gcc));
        count_left(w, d);
        return;
    }
    if (p->has_stmt && p->stmt_is_declaration && !w->o->cplusplus && directive_needs_statement(d)) {
        /* C has no declaration statement: the compiler rejects the directive,
         * and so must the build (wrapped in a block, it compiled) */
        note(w, p->start, "left alone: '%s' is followed by a declaration, not a statement (the "
                          "compiler says so)", d->name);
        count_left(w, d);
        return;
    }
    if ((p->substatement || standalone_body(w->s, p, 1)) && !directive_needs_statement(d)) {
        rw_diag(w, p->start, "warning",
                "'#pragma omp %s' is not instrumented: it stands where one statement is wanted (the "
                "body of an if, else, loop, label or construct), where a stand-alone directive "
                "may not; left to the compiler",
                d->name);
        count_left(w, d);
        return;
    }
    if (standalone_body(w->s, p, 0)) {
        rw_diag(w, p->start, "warning",
                "'#pragma omp %s' is not instrumented: its body is a stand-alone directive, which "
                "a construct may not have as its statement; left to the compiler",
                d->name);
        count_left(w, d);
        return;
    }
    if (instrument_omp_directive(w, p, d) != 0) {
        roll_back(w, edits_before, regions_before);
        count_left(w, d);
        return;
    }
    unsigned line;
    if (!whole_in_each_inclusion(w, p, edits_before, &line)) {
        roll_back(w, edits_before, regions_before);
        rw_diag(w, p->start, "warning",
                "'#pragma omp %s' is not instrumented: this header is included %u times, and its "
                "inclusions take different #if branches at the directive and at line %u, where its "
                "statement's code goes (one copy of the header cannot be right for each); %s",
                d->name, source_inclusions(w->s), line, construct_left_measured_by(d, w->o->gcc));
        count_left(w, d);
        return;
    }
    if (w->left_whole) {
        count_left(w, d);
        return;
    }
    if (w->left_on_purpose) {
        w->counts.constructs++;
        w->counts.on_purpose++;
        if (forks_unseen_teams(w, p, d, 1)) /* device code (left on purpose) */
            w->counts.inner_parallel++;
    } else if (level_drops_all(w, edits_before)) {
        /* "#pragma pomp inst task none": the runtime's events measure it, as
         * code not built with pompcc (instrumentation.md), which the link
         * must then have the bridges follow (counted instrumented, a task's
         * executions read as its barrier's wait, a critical's wait as work,
         * unrated nowhere; a probe) */
        note(w, p->start, "left to the runtime's events: '%s' at a compile-time level that writes "
                          "none of its calls", d->name);
        w->counts.constructs++;
        w->counts.on_purpose++;
        w->counts.by_level++;
        if (source_text_may_be_mutex(d->name, strlen(d->name)))
            w->counts.by_level_mutexes++;
    } else if (w->nregions > regions_before) {
        w->counts.constructs++;
        w->counts.instrumented++;
        note(w, p->start, "instrumented '%s'", d->name);
        if (forks_unseen_teams(w, p, d, strncmp(d->name, "target", 6) == 0))
            w->counts.inner_parallel++;
    }
}

static int handle_pragma(struct rewriter *w, const struct pragma *p)
{
    struct directive d;
    if (directive_parse(p->text, &d) != 0) {
        /* A directive pomp does not know (newer or vendor-specific) is left to the
         * compiler, and so is a malformed omp pragma: the compiler judges it (with
         * OpenMP it rejects it with its own error). A malformed pomp directive
         * stops instrumentation of the file: its user regions cannot be matched. */
        int left = d.unknown_directive || construct_text_is_omp(p->text);
        char *what = d.unknown_directive ? xasprintf("warning: %s; left alone", d.error)
                     : left ? xasprintf("warning: malformed pragma: %s; left to the compiler", d.error)
                            : xasprintf("error: malformed pragma: %s", d.error);
        report_parse_error(w, p, &d, what);
        free(what);
        directive_free(&d);
        /* what the compiler makes of it runs uninstrumented: a construct left
         * to the runtime's events, counted (GCC took a malformed-looking
         * expansion, and the loop was missing from the count) */
        if (left && w->o->openmp)
            w->counts.constructs++;
        return left ? 0 : -1;
    }
    int rc = 0;
    unsigned regions_before = w->nregions;
    size_t edits_before = w->nedits;
    if (strcmp(d.sentinel, "pomp") == 0) {
        rc = modules_pomp_pragma(w, p, &d);
        regions_before = w->nregions; /* the modules say what they did themselves */
    } else if (strcmp(d.sentinel, "omp") != 0) {
        note(w, p->start, "'#pragma %s' is not handled yet; left alone", d.sentinel);
    } else if (!w->o->openmp) {
        note(w, p->start, "'%s' left alone: compiling without OpenMP", d.name);
    } else {
        if (strcmp(d.name, "scan") == 0 && scan_in_worksharing_loop(w->s, p))
            w->counts.scans++;
        instrument_one_construct(w, p, &d, edits_before);
        regions_before = w->nregions; /* said there */
    }
    if (rc == 0 && w->nregions > regions_before)
        note(w, p->start, "instrumented '%s'", d.name);
    /* a construct's code obeys the instrumentation levels in effect at its pragma */
    for (size_t i = edits_before; i < w->nedits; i++)
        w->edits[i].anchor = p->start;
    directive_free(&d);
    return rc;
}

/* ---- output ---- */

/* The thread id from libpomp's thread record (POMP_Thread_num), not
 * omp_get_thread_num(): the inserted code calls the runtime only where the
 * user's code does (libomp 19 crashes there after omp_pause_resource_all). Every include file
 * defines POMP_TID_ with the same text (a header's comes after the file's),
 * which C and C++ allow. */
#define POMP_TID_DEFINITION                                                                        \
    "#if defined(_OPENMP)\n#define POMP_TID_ POMP_THREAD_SELF\n#else\n#define POMP_TID_ 0\n#endif\n"

static int by_offset(const void *a, const void *b)
{
    const struct edit *x = a, *y = b;
    if (x->offset != y->offset)
        return x->offset < y->offset ? -1 : 1;
    if (x->order != y->order)
        return x->order < y->order ? -1 : 1;
    return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* The accessors a header's code calls are its own (pomp_h_<tag>_): the macros
 * pomp_h_ and pomp_c_ name them while the header's text is compiled, and are
 * given back to the including file after it. Function-like, so that the
 * header's own identifier of that name (a struct member pomp_c_, never
 * followed by '(') stays as it is (its copy did not compile: a probe). */
static const char *const accessor_macros[] = {"pomp_h_", "pomp_c_", "pomp_f_"};
#define NACCESSORS (sizeof accessor_macros / sizeof *accessor_macros)

static void emit_source(struct rewriter *w, struct strbuf *out, const char *tag)
{
    sb_add(out, "#include ");
    sb_add_header_name(out, w->o->inc_name); /* (pomp_inc_path: no newline) */
    sb_add(out, "\n");
    for (size_t i = 0; tag && i < NACCESSORS; i++)
        sb_printf(out, "#pragma push_macro(\"%s\")\n#undef %s\n#define %s(i) %s%s_(i)\n",
                  accessor_macros[i], accessor_macros[i], accessor_macros[i], accessor_macros[i],
                  tag);
    sb_add(out, "#line 1 \"");
    sb_add_c_escaped(out, source_spelled_name(w->s));
    sb_add(out, "\"\n");
    if (w->nedits) /* qsort wants a non-NULL array even when it is empty */
        qsort(w->edits, w->nedits, sizeof *w->edits, by_offset);
    /* a UTF-8 byte order mark is only valid at the very start of a file */
    unsigned pos = w->s->size >= 3 && memcmp(w->s->text, "\xEF\xBB\xBF", 3) == 0 ? 3 : 0;
    for (size_t i = 0; i < w->nedits; i++) {
        const struct edit *e = &w->edits[i];
        if (e->offset < pos)
            continue; /* inside text an earlier edit replaced */
        sb_addn(out, w->s->text + pos, e->offset - pos);
        modules_emit_edit(w, out, e->anchor, e->text);
        pos = e->offset + e->remove;
    }
    sb_addn(out, w->s->text + pos, w->s->size - pos);
    if (tag && out->len && out->s[out->len - 1] != '\n')
        sb_add(out, "\n");
    for (size_t i = 0; tag && i < NACCESSORS; i++)
        sb_printf(out, "#pragma pop_macro(\"%s\")\n", accessor_macros[i]);
}

/* A top-level asm statement that adds the lines text to the object's section. */
static void section_asm(struct strbuf *out, const char *section, const char *text)
{
    struct strbuf asm_text = {0};
    sb_printf(&asm_text, ".pushsection %s,\"\",%%progbits\n.ascii \"", section);
    sb_add_c_escaped(&asm_text, text);
    sb_add(&asm_text, "\"\n.popsection");
    sb_add(out, "__asm__(\"");
    sb_add_c_escaped(out, asm_text.s);
    sb_add(out, "\");\n");
    free(asm_text.s);
}

void instrument_counts_asm(struct strbuf *out, const char *file, const struct construct_counts *c)
{
    if (!c->constructs)
        return;
    struct strbuf rec = {0};
    sb_printf(&rec, "%u %u %u %s\n", c->constructs, c->instrumented, c->on_purpose, file);
    /* which of those left may be critical or ordered (none: the link step
     * has the bridges follow no mutex for them; a line missing, an older
     * pompcc's object, reads as all) */
    if (c->instrumented + c->on_purpose < c->constructs)
        sb_printf(&rec, "mutexes %u %s\n", c->mutexes, file);
    /* those a compile-time level left to the runtime: followed, unsaid */
    if (c->by_level)
        sb_printf(&rec, "levels %u %u %s\n", c->by_level, c->by_level_mutexes, file);
    if (c->inner_parallel)
        sb_printf(&rec, "inner %u %s\n", c->inner_parallel, file);
    section_asm(out, POMP_COUNTS_SECTION, rec.s);
    if (c->scans) {
        rec.len = 0;
        sb_printf(&rec, "scan %s\n", file);
        section_asm(out, POMP_NEEDS_SECTION, rec.s);
    }
    free(rec.s);
}

void instrument_left_locks_asm(struct strbuf *out, const char *file, unsigned calls)
{
    struct strbuf rec = {0};
    sb_printf(&rec, "locks %u %s\n", calls, file);
    section_asm(out, POMP_COUNTS_SECTION, rec.s);
    free(rec.s);
}

static void emit_counts_section(const struct rewriter *w, struct strbuf *inc)
{
    instrument_counts_asm(inc, w->s->path, &w->counts);
    for (size_t i = 0; i < w->nleft_locks; i++)
        instrument_left_locks_asm(inc, w->left_locks[i].file, w->left_locks[i].calls);
}

static void emit_ctcs(const struct rewriter *w, struct strbuf *inc, const char *suffix)
{
    sb_printf(inc, "static const char *const pomp_ctcs_%s[%u] = {\n", suffix, w->nregions);
    for (unsigned i = 0; i < w->nregions; i++) {
        sb_add(inc, "    \"");
        sb_add_c_escaped(inc, w->ctcs[i]);
        sb_add(inc, i + 1 < w->nregions ? "\",\n" : "\"\n");
    }
    sb_add(inc, "};\n");
}

/* The inline counters of atomic and critical sites (pomplib.h, POMP_Fast_count):
 * one per site and thread, in the thread-local storage of the program; in
 * libpomp's (POMP_Fast_slot) for code compiled for a shared object (PIC, not
 * PIE): dlclose frees a shared object's thread-local storage, and with it the
 * counters libpomp had registered, which it read and wrote at the end (a
 * plugin closed and loaded again: a crash at exit, counts read from freed
 * memory). */
static void emit_fast_counters(const struct rewriter *w, struct strbuf *inc, const char *suffix)
{
    if (!w->nfast)
        return;
    const char *sep = *suffix ? "_" : "";
    sb_printf(inc, "#if defined(__PIC__) && !defined(__PIE__)\n"
                   "static int pomp_fast_base_%s = -1;\n"
                   "static __inline__ POMP_Fast_count *pomp_f_%s%s(int i) "
                   "{ return POMP_Fast_slot(&pomp_fast_base_%s, %u, i); }\n"
                   "#else\n"
                   "static __thread POMP_Fast_count pomp_fast_%s[%u];\n"
                   "static __inline__ POMP_Fast_count *pomp_f_%s%s(int i) { return &pomp_fast_%s[i]; }\n"
                   "#endif\n",
              suffix, suffix, sep, suffix, w->nfast, suffix, w->nfast, suffix, sep, suffix);
}

/* "void POMP_Init_<id>(void) { ...POMP_Get_handle for each handle... }" */
static void emit_init_function(const struct rewriter *w, struct strbuf *inc, const char *id,
                               const char *suffix)
{
    sb_printf(inc, "void POMP_Init_%s(void)\n{\n    int i;\n    for (i = 0; i < %u; i++)\n"
                   "        POMP_Get_handle(&pomp_handles_%s[i], pomp_ctcs_%s[i]);\n}\n",
              id, w->nregions, suffix, suffix);
}

int instrument_text_may_defer(const char *text, size_t len)
{
    /* the words as the compiler reads them: a splice inside one (det\ at a
     * line's end, ach(ev) on the next) hid a detach clause */
    return source_text_has_spliced(text, len, "detach") ||
           (source_text_has_spliced(text, len, "target") &&
            source_text_has_spliced(text, len, "nowait"));
}

/* Whether the file may create such a task, so that a taskwait in a final task
 * waits (POMP_Final_waits_may_wait; LLVM libomp defers both, and an
 * asynchronous device copy): its directives in the branches compiled, a
 * _Pragma on a line of its text (a macro's definition; the line with the
 * lines its splices join to it: _Pragma("omp target \ on one, nowait") on
 * the next was missed), its calls of the asynchronous copies. A false "yes"
 * costs only the inline counting of those taskwaits. */
static int may_defer_in_final(const struct source *s)
{
    static const char *const async[] = {"omp_target_memcpy_async", "omp_target_memcpy_rect_async",
                                        "omp_target_memset_async", "omp_target_memset_rect_async"};
    for (size_t i = 0; i < s->npragmas; i++)
        if (instrument_text_may_defer(s->pragmas[i].text, strlen(s->pragmas[i].text)))
            return 1;
    for (size_t i = 0; i < s->ast.ncalls; i++)
        for (size_t k = 0; k < sizeof async / sizeof *async; k++)
            if (strcmp(s->ast.calls[i].callee, async[k]) == 0)
                return 1;
    const char *end = s->text + s->size;
    for (const char *line = s->text; line < end;) {
        const char *nl = memchr(line, '\n', (size_t)(end - line));
        while (nl && source_newline_spliced(s->text, (size_t)(nl - s->text)))
            nl = memchr(nl + 1, '\n', (size_t)(end - nl - 1));
        size_t len = nl ? (size_t)(nl - line) : (size_t)(end - line);
        if (source_text_has_spliced(line, len, "_Pragma") && instrument_text_may_defer(line, len))
            return 1;
        line += len + 1;
    }
    return 0;
}

/* The constructor that tells libpomp so, where the file may (name: the
 * include file's own suffix, so that a header's and the file's differ). */
static void emit_final_waits_note(const struct rewriter *w, struct strbuf *inc, const char *name)
{
    if (!w->o->final_waits_may_wait && !may_defer_in_final(w->s))
        return;
    sb_printf(inc, "static void pomp_final_waits_%s(void) __attribute__((__constructor__, __used__));\n"
                   "static void pomp_final_waits_%s(void) { POMP_Final_waits_may_wait(); }\n",
              name, name);
}

/* pomp's generated code is a system header to the compiler: the user's
 * warning flags are for the user's code (clang -Weverything warns of the
 * handle arrays' indexing, gcc -Wlarger-than= of their size; with -Werror
 * the file lost its instrumentation). */
#define POMP_INC_QUIET "#pragma GCC system_header\n"

/* A header's include file: handles defined once per program (a weak array
 * named after the header's path, content and CTC strings: translation units
 * that see other branches of it get other arrays), its own accessors, and a
 * weak POMP_Init_<tag> that pomp-prelink calls once. Without pre-linking (a
 * shared library) libpomp initializes each handle from its first event. */
static void emit_header_inc(const struct rewriter *w, struct strbuf *inc, const char *tag)
{
    sb_printf(inc, "/* Generated by pomp-instrument from the header %s: its POMP handles (one\n"
                   "   weak array per program) and CTC strings. */\n", w->s->path);
    sb_printf(inc, "#ifndef POMP_INC_%s\n#define POMP_INC_%s\n%s#include <pomplib.h>\n", tag, tag,
              POMP_INC_QUIET);
    sb_add(inc, "#ifdef __cplusplus\nextern \"C\" {\n#endif\n");
    sb_add(inc, POMP_TID_DEFINITION);
    sb_printf(inc, "void POMP_Init_%s(void) __attribute__((__weak__));\n", tag);
    /* declared before its definition (clang -Wmissing-variable-declarations) */
    sb_printf(inc, "extern POMP_Handle_t pomp_handles_%s[%u];\n", tag, w->nregions);
    sb_printf(inc, "POMP_Handle_t pomp_handles_%s[%u] __attribute__((__weak__));\n", tag, w->nregions);
    sb_add(inc, "#ifdef __cplusplus\n}\n#endif\n");
    emit_ctcs(w, inc, tag);
    sb_printf(inc, "static __inline__ POMP_Handle_t *pomp_h_%s_(int i) { return &pomp_handles_%s[i]; }\n"
                   "static __inline__ const char *pomp_c_%s_(int i) { return pomp_ctcs_%s[i]; }\n",
              tag, tag, tag, tag);
    emit_fast_counters(w, inc, tag);
    construct_emit_inc(w, inc);
    for (size_t i = 0; i < pomp_nmodules; i++) /* (API call sites' macros) */
        if (w->module_state[i] && pomp_modules[i]->emit_inc)
            pomp_modules[i]->emit_inc(w->module_state[i], inc);
    emit_init_function(w, inc, tag, tag);
    emit_final_waits_note(w, inc, tag);
    emit_counts_section(w, inc);
    sb_add(inc, "#endif\n");
}

static void emit_inc(const struct rewriter *w, struct strbuf *inc)
{
    const char *id = w->o->unique_id;
    sb_printf(inc, "/* Generated by pomp-instrument from %s: POMP handles and CTC strings.\n"
                   "   POMP_Init_%s is called by POMP_Init_Handles (pomp-prelink). */\n",
              w->s->path, id);
    sb_printf(inc, "#ifndef POMP_INC_%s\n#define POMP_INC_%s\n%s#include <pomplib.h>\n", id, id,
              POMP_INC_QUIET);
    sb_add(inc, "#ifdef __cplusplus\nextern \"C\" {\n#endif\n");
    sb_add(inc, POMP_TID_DEFINITION);
    sb_printf(inc, "void POMP_Init_%s(void);\n", id);
    sb_add(inc, "#ifdef __cplusplus\n}\n#endif\n");
    for (size_t i = 0; i < pomp_nmodules; i++)
        if (w->module_state[i] && pomp_modules[i]->emit_inc)
            pomp_modules[i]->emit_inc(w->module_state[i], inc);
    if (w->nregions) {
        sb_printf(inc, "static POMP_Handle_t pomp_handles_[%u];\n", w->nregions);
        emit_ctcs(w, inc, "");
        /* Accessors rather than the arrays themselves: a function call inside a
         * default(none) region needs no data-sharing clause. */
        sb_add(inc, "static __inline__ POMP_Handle_t *pomp_h_(int i) { return &pomp_handles_[i]; }\n"
                    "static __inline__ const char *pomp_c_(int i) { return pomp_ctcs_[i]; }\n");
        emit_fast_counters(w, inc, "");
        construct_emit_inc(w, inc);
        emit_init_function(w, inc, id, "");
    } else {
        sb_printf(inc, "void POMP_Init_%s(void) {}\n", id);
    }
    emit_final_waits_note(w, inc, id);
    emit_counts_section(w, inc);
    sb_add(inc, "#endif\n");
}

/* A header's tag: its key (path and content) and its CTC strings, hashed. */
/* The hash of a CTC string without its "dir" field: a header's handles are
 * shared by translation units compiled in other directories that name it
 * alike (its path and content are in header_key). */
static uint64_t fnv1a_ctc_without_dir(uint64_t h, const char *ctc)
{
    const char *dir = strstr(ctc, "*dir=");
    if (!dir)
        return fnv1a(h, ctc, strlen(ctc) + 1);
    const char *end = dir + 5;
    while (*end && *end != '*')
        end += end[0] == '\\' && end[1] ? 2 : 1;
    h = fnv1a(h, ctc, (size_t)(dir - ctc));
    return fnv1a(h, end, strlen(end) + 1);
}

static char *header_tag(const struct rewriter *w)
{
    uint64_t h = w->o->header_key;
    for (unsigned i = 0; i < w->nregions; i++)
        h = fnv1a_ctc_without_dir(h, w->ctcs[i]);
    return xasprintf("h%016llx", (unsigned long long)h);
}

/* A skipped `#pragma omp` line as the same directive in operator form, after
 * a _Pragma("message ..."), on the same lines: a #line to restore the
 * numbering after an inserted line is not read in a branch GCC skips too,
 * and every line after it was off (a probe). A bare newline of a comment in
 * the directive gets a backslash: the string is one logical line. */
static char *skipped_directive_said(const struct source *s, const struct skipped_directive *d)
{
    struct strbuf b = {0};
    sb_add(&b, "_Pragma(\"message \\\"pomp: this OpenMP directive is not instrumented (pomp's "
               "parser, which reads __GNUC__ as clang's 4.2.1, took its #if branch for skipped): "
               "the runtime's events alone measure it\\\"\") _Pragma(\"");
    for (unsigned i = d->text; i < d->end; i++) {
        char c = s->text[i];
        size_t splice = source_splice_length(s->text, d->end, i);
        if (splice || c == '\n' || c == '\r') { /* a line's end: spliced, as it is or made so */
            sb_addn(&b, "\\", 1);
            if (splice) /* (to its CR or newline: the blanks before are not kept) */
                i += (unsigned)splice - 1 - (s->text[i + splice - 2] == '\r');
            if (s->text[i] == '\r' && i + 1 < d->end && s->text[i + 1] == '\n')
                sb_addn(&b, &s->text[i++], 1);
            sb_addn(&b, &s->text[i], 1);
        } else {
            if (c == '"' || c == '\\')
                sb_addn(&b, "\\", 1);
            sb_addn(&b, &c, 1);
        }
    }
    sb_add(&b, "\")");
    return b.s;
}

int instrument(const struct source *s, const struct instrument_options *o,
               struct instrument_result *out)
{
    struct rewriter w = {.s = s, .o = o, .device_functions = context_device_functions(s)};
    local_prefix(w.local, s->text, s->size);
    modules_begin(&w);
    int rc = 0;
    for (size_t i = 0; i < s->npragmas; i++)
        if (handle_pragma(&w, &s->pragmas[i]) != 0)
            rc = -1;
    /* A directive in a branch the parser skipped: GCC may compile that branch
     * (a #if on the GCC version through a macro, or over two lines: clang's
     * __GNUC__ is 4), and its construct is then measured by the runtime's
     * events alone. GCC says so where it does; in a branch GCC skips too, the
     * message is never read (the construct was lost without a word; a probe). */
    for (size_t i = 0; o->gcc && i < s->nskipped_omp; i++)
        add_edit(&w, s->skipped_omp[i].start, s->skipped_omp[i].end - s->skipped_omp[i].start, 0,
                 skipped_directive_said(s, &s->skipped_omp[i]));
    w.counts.constructs += s->macro_omp_pragmas; /* left alone: expanded from a macro's body */
    w.counts.mutexes += s->macro_mutex_pragmas;
    for (size_t i = 0; i < pomp_nmodules; i++)
        if (w.module_state[i] && pomp_modules[i]->finish &&
            pomp_modules[i]->finish(w.module_state[i]) != 0)
            rc = -1;
    for (size_t i = 0; i < o->nreplacements; i++)
        add_edit(&w, o->replacements[i].start, o->replacements[i].end - o->replacements[i].start, 0,
                 xstrdup(o->replacements[i].text));
    /* main starts the library (a main compiled without OpenMP, with nothing to
     * measure, is left as cc compiles it: its program needs no libpomp, which
     * pompcc links as needed then); the exit handler libpomp registered when it
     * was loaded finalizes, after every exit handler of the program's. A
     * POMP_Finalize() before main's '}' finalized before the handlers of a
     * main that falls off its end, and after a return it was unreachable code
     * (clang -Wunreachable-code). */
    if (rc == 0 && s->has_main && !o->header && (o->openmp || w.nregions))
        add_edit(&w, s->main_body_open, 0, INT_MIN / 2,
                 xstrdup(" POMP_Int32 pomp_init_rc_ __attribute__((__unused__)) = POMP_Init();"));
    if (rc == 0) {
        memset(out, 0, sizeof *out);
        char *tag = o->header ? header_tag(&w) : NULL;
        emit_source(&w, &out->source, tag);
        if (tag)
            emit_header_inc(&w, &out->inc, tag);
        else
            emit_inc(&w, &out->inc);
        free(tag);
        out->nregions = w.nregions;
    }
    out->counts = w.counts; /* also when the file fails: what its copy leaves out */
    if (rc == 0)
        for (size_t i = 0; i < w.nleft_locks; i++)
            instrument_left_locks_asm(&out->left_locks, w.left_locks[i].file, w.left_locks[i].calls);
    for (size_t i = 0; i < w.nedits; i++)
        free(w.edits[i].text);
    free(w.edits);
    free(w.device_functions);
    for (unsigned i = 0; i < w.nregions; i++)
        free(w.ctcs[i]);
    free(w.ctcs);
    for (size_t i = 0; i < w.nleft_locks; i++)
        free(w.left_locks[i].file);
    free(w.left_locks);
    free(w.kept_macros.s);
    modules_end(&w);
    return rc;
}

/* ---- the rewriter's services for the modules (rewriter.h) ---- */

const struct source *rw_source(const struct rewriter *w) { return w->s; }

void rw_count_left_lock_call(struct rewriter *w, const char *file)
{
    for (size_t i = 0; i < w->nleft_locks; i++)
        if (strcmp(w->left_locks[i].file, file) == 0) {
            w->left_locks[i].calls++;
            return;
        }
    w->left_locks = xrealloc(w->left_locks, (w->nleft_locks + 1) * sizeof *w->left_locks);
    w->left_locks[w->nleft_locks++] = (struct left_locks){xstrdup(file), 1};
}
const struct instrument_options *rw_options(const struct rewriter *w) { return w->o; }

const char *rw_local(const struct rewriter *w) { return w->local; }

void rw_edit(struct rewriter *w, unsigned offset, unsigned remove, int order, char *text)
{
    add_edit(w, offset, remove, order, text);
}

void rw_edit_anchored(struct rewriter *w, unsigned anchor, unsigned offset, unsigned remove,
                      int order, char *text)
{
    add_edit(w, offset, remove, order, text);
    w->edits[w->nedits - 1].anchor = anchor;
}

unsigned rw_region(struct rewriter *w, char *ctc)
{
    w->ctcs = xrealloc(w->ctcs, (w->nregions + 1) * sizeof *w->ctcs);
    w->ctcs[w->nregions] = ctc;
    return w->nregions++;
}

unsigned rw_fast_counter(struct rewriter *w) { return w->nfast++; }

char *rw_ctc_finish(struct ctc_builder *b)
{
    char *ctc = ctc_builder_finish(b);
    if (!ctc) {
        fputs("pomp-instrument: fatal: out of memory\n", stderr);
        exit(70);
    }
    return ctc;
}

void rw_region_set_ctc(struct rewriter *w, unsigned region, char *ctc)
{
    free(w->ctcs[region]);
    w->ctcs[region] = ctc;
}

static void vdiag_at(const char *file, unsigned line, unsigned col, const char *kind,
                     const char *fmt, va_list ap)
{
    fprintf(stderr, "%s:%u:%u: %s: ", file, line, col, kind);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
}

static void vdiag(const struct rewriter *w, unsigned offset, const char *kind, const char *fmt,
                  va_list ap)
{
    unsigned line, col;
    source_position(w->s, offset, &line, &col);
    vdiag_at(w->s->path, line, col, kind, fmt, ap);
}

void rw_diag(const struct rewriter *w, unsigned offset, const char *kind, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vdiag(w, offset, kind, fmt, ap);
    va_end(ap);
}

void rw_note(const struct rewriter *w, unsigned offset, const char *fmt, ...)
{
    if (!w->o->verbose)
        return;
    va_list ap;
    va_start(ap, fmt);
    vdiag(w, offset, "note", fmt, ap);
    va_end(ap);
}

void rw_note_at(const struct rewriter *w, const char *file, unsigned line, unsigned col,
                const char *fmt, ...)
{
    if (!w->o->verbose)
        return;
    va_list ap;
    va_start(ap, fmt);
    vdiag_at(file, line, col, "note", fmt, ap);
    va_end(ap);
}

void rw_line_directive(struct strbuf *b, const struct rewriter *w, unsigned line)
{
    add_line_directive(b, w, line);
}
