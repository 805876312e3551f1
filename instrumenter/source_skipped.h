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

#endif
