/* The parts of a file the preprocessor leaves out wherever the file is
 * included: a branch of #if is skipped only if every inclusion of the file in
 * the translation unit skipped it. */
#ifndef POMP_SOURCE_SKIPPED_H
#define POMP_SOURCE_SKIPPED_H

#include <clang-c/Index.h>

struct skipped_ranges {
    unsigned n;
    unsigned *begin, *end; /* file offsets, [begin, end), sorted, disjoint */
};

/* The ranges of file skipped in every inclusion of it in tu. Returns 0, or
 * -1 when out of memory (r is then empty). */
int skipped_ranges_of(CXTranslationUnit tu, CXFile file, struct skipped_ranges *r);
int skipped_contains(const struct skipped_ranges *r, unsigned offset);
void skipped_ranges_free(struct skipped_ranges *r);

/* The file's inclusions one by one, for a header included more than once
 * with other macros (a generic kernel): where its inclusions take different
 * #if branches around a construct, code inserted at its directive and at
 * its statement must be compiled by the same inclusions, or some inclusion
 * sees half of it. */
struct skipped_inclusions {
    unsigned entries;            /* the file's inclusions the preprocessor entered */
    unsigned n;                  /* of those, the ones that skip something */
    struct skipped_ranges *each; /* their ranges, one inclusion each */
    int unsure;                  /* the ranges could not be told apart by inclusion:
                                    only offsets no inclusion skips agree */
};

void skipped_inclusions_of(CXTranslationUnit tu, CXFile file, struct skipped_inclusions *r);
/* Whether every inclusion compiles both offsets or neither. */
int skipped_inclusions_agree(const struct skipped_inclusions *r, unsigned a, unsigned b);
/* Whether every inclusion that compiles offset at compiles all of [from, to). */
int skipped_inclusions_whole(const struct skipped_inclusions *r, unsigned at, unsigned from,
                             unsigned to);
void skipped_inclusions_free(struct skipped_inclusions *r);

#endif
