#include "source_skipped.h"

#include <stdlib.h>

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
