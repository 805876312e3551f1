#include "source_skipped.h"

#include <stdlib.h>

#include "util.h"

/* libclang's clang_getSkippedRanges(tu, file) gives the skipped branches of
 * one inclusion of the file only (its first), so a header included twice with
 * different macros lost the constructs of the branch its second inclusion
 * compiles. Each inclusion is a file entry of its own, with its own skipped
 * ranges (disjoint within it); an offset is skipped everywhere when as many
 * ranges cover it as the file has entries. A re-inclusion the preprocessor
 * did not enter (#pragma once, an include guard it knows) has no entry. */

struct entries {
    CXFile file;
    unsigned count;
};

static void count_entries(CXFile included, CXSourceLocation *stack, unsigned depth, CXClientData d)
{
    (void)stack;
    (void)depth;
    struct entries *e = d;
    if (clang_File_isEqual(included, e->file))
        e->count++;
}

struct edge {
    unsigned offset;
    int delta; /* +1 a range begins, -1 one ends */
};

static int by_offset(const void *a, const void *b)
{
    const struct edge *x = a, *y = b;
    if (x->offset != y->offset)
        return (x->offset > y->offset) - (x->offset < y->offset);
    return (x->delta > y->delta) - (x->delta < y->delta); /* ends first */
}

int skipped_ranges_of(CXTranslationUnit tu, CXFile file, struct skipped_ranges *r)
{
    *r = (struct skipped_ranges){0};
    struct entries e = {file, 0};
    clang_getInclusions(tu, count_entries, &e);
    CXSourceRangeList *all = clang_getAllSkippedRanges(tu);
    if (!all)
        return 0;
    struct edge *edges = malloc(2 * (size_t)(all->count ? all->count : 1) * sizeof *edges);
    if (!edges) {
        clang_disposeSourceRangeList(all);
        return -1;
    }
    size_t n = 0;
    for (unsigned i = 0; i < all->count; i++) {
        CXFile f;
        unsigned b, end;
        clang_getFileLocation(clang_getRangeStart(all->ranges[i]), &f, NULL, NULL, &b);
        if (!f || !clang_File_isEqual(f, file))
            continue;
        clang_getFileLocation(clang_getRangeEnd(all->ranges[i]), NULL, NULL, NULL, &end);
        if (end <= b)
            continue;
        edges[n++] = (struct edge){b, +1};
        edges[n++] = (struct edge){end, -1};
    }
    clang_disposeSourceRangeList(all);
    /* a file libclang names no entry for (it should not happen): one entry */
    int needed = e.count ? (int)e.count : 1;
    qsort(edges, n, sizeof *edges, by_offset);
    r->begin = malloc((n / 2 + 1) * sizeof *r->begin);
    r->end = malloc((n / 2 + 1) * sizeof *r->end);
    if (!r->begin || !r->end) {
        free(edges);
        skipped_ranges_free(r);
        return -1;
    }
    int cover = 0;
    for (size_t i = 0; i < n; i++) {
        int before = cover;
        cover += edges[i].delta;
        if (before < needed && cover >= needed)
            r->begin[r->n] = edges[i].offset;
        else if (before >= needed && cover < needed && edges[i].offset > r->begin[r->n])
            r->end[r->n++] = edges[i].offset;
    }
    free(edges);
    return 0;
}

int skipped_contains(const struct skipped_ranges *r, unsigned offset)
{
    unsigned lo = 0, hi = r->n;
    while (lo < hi) { /* the first range that ends after offset */
        unsigned mid = lo + (hi - lo) / 2;
        if (r->end[mid] <= offset)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < r->n && r->begin[lo] <= offset;
}

void skipped_ranges_free(struct skipped_ranges *r)
{
    free(r->begin);
    free(r->end);
    *r = (struct skipped_ranges){0};
}

/* ---- one inclusion at a time ---- */

/* libclang names one file, not an inclusion of it; a location's int_data is
 * clang's raw encoding of it (its offset in the unit's whole source space,
 * where each inclusion of a file has a span of its own), so int_data less the
 * file offset is the same for every location of one inclusion and differs
 * between inclusions. Checked for each range (its start and its end give the
 * same inclusion, a file location's top bit is clear); where it does not
 * hold, r is unsure. */
struct inclusion_range {
    unsigned base, begin, end;
};

static int by_base(const void *a, const void *b)
{
    const struct inclusion_range *x = a, *y = b;
    if (x->base != y->base)
        return (x->base > y->base) - (x->base < y->base);
    return (x->begin > y->begin) - (x->begin < y->begin);
}

static void add_range(struct skipped_ranges *r, unsigned begin, unsigned end)
{
    if (r->n && begin <= r->end[r->n - 1]) { /* (only where unsure: the union) */
        if (end > r->end[r->n - 1])
            r->end[r->n - 1] = end;
        return;
    }
    r->begin = xrealloc(r->begin, (r->n + 1) * sizeof *r->begin);
    r->end = xrealloc(r->end, (r->n + 1) * sizeof *r->end);
    r->begin[r->n] = begin;
    r->end[r->n++] = end;
}

void skipped_inclusions_of(CXTranslationUnit tu, CXFile file, struct skipped_inclusions *r)
{
    *r = (struct skipped_inclusions){0};
    struct entries e = {file, 0};
    clang_getInclusions(tu, count_entries, &e);
    r->entries = e.count;
    if (r->entries < 2) /* (one inclusion: nothing to tell apart) */
        return;
    CXSourceRangeList *all = clang_getAllSkippedRanges(tu);
    if (!all)
        return;
    struct inclusion_range *v = xmalloc((all->count ? all->count : 1) * sizeof *v);
    size_t n = 0;
    for (unsigned i = 0; i < all->count; i++) {
        CXFile f;
        unsigned b, end;
        CXSourceLocation from = clang_getRangeStart(all->ranges[i]);
        CXSourceLocation to = clang_getRangeEnd(all->ranges[i]);
        clang_getFileLocation(from, &f, NULL, NULL, &b);
        if (!f || !clang_File_isEqual(f, file))
            continue;
        clang_getFileLocation(to, NULL, NULL, NULL, &end);
        if (end <= b)
            continue;
        if ((from.int_data >> 31) || from.int_data < b || from.int_data - b != to.int_data - end)
            r->unsure = 1;
        v[n++] = (struct inclusion_range){from.int_data - b, b, end};
    }
    clang_disposeSourceRangeList(all);
    qsort(v, n, sizeof *v, by_base);
    size_t groups = 0;
    for (size_t i = 0; i < n; i++) {
        groups += i == 0 || v[i].base != v[i - 1].base;
        if (i > 0 && v[i].base == v[i - 1].base && v[i].begin < v[i - 1].end)
            r->unsure = 1; /* (one inclusion's ranges are disjoint) */
    }
    if (groups > (r->entries ? r->entries : 1))
        r->unsure = 1;
    if (r->unsure) { /* one list: every range of every inclusion, merged */
        for (size_t i = 0; i < n; i++)
            v[i].base = 0;
        qsort(v, n, sizeof *v, by_base);
        groups = n ? 1 : 0;
    }
    r->each = xcalloc(groups ? groups : 1, sizeof *r->each);
    for (size_t i = 0; i < n; i++) {
        if (i == 0 || v[i].base != v[i - 1].base)
            r->n++;
        add_range(&r->each[r->n - 1], v[i].begin, v[i].end);
    }
    free(v);
}

int skipped_inclusions_agree(const struct skipped_inclusions *r, unsigned a, unsigned b)
{
    for (unsigned i = 0; i < r->n; i++) {
        int sa = skipped_contains(&r->each[i], a), sb = skipped_contains(&r->each[i], b);
        if (sa != sb || (r->unsure && sa))
            return 0;
    }
    return 1;
}

/* Whether ranges r has one that meets [from, to). */
static int skipped_meets(const struct skipped_ranges *r, unsigned from, unsigned to)
{
    for (unsigned k = 0; k < r->n; k++)
        if (r->begin[k] < to && from < r->end[k])
            return 1;
    return 0;
}

int skipped_inclusions_whole(const struct skipped_inclusions *r, unsigned at, unsigned from,
                             unsigned to)
{
    for (unsigned i = 0; i < r->n; i++)
        if ((r->unsure || !skipped_contains(&r->each[i], at)) && skipped_meets(&r->each[i], from, to))
            return 0;
    return 1;
}

void skipped_inclusions_free(struct skipped_inclusions *r)
{
    for (unsigned i = 0; r->each && i < r->n; i++)
        skipped_ranges_free(&r->each[i]);
    free(r->each);
    *r = (struct skipped_inclusions){0};
}
