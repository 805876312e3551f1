/* pomp-report --check DIR: the invariants of a profile (docs/output.md). */
#ifndef POMP_REPORT_CHECK_H
#define POMP_REPORT_CHECK_H

#include "report_data.h"

/* Prints each broken invariant (file, invariant, node, thread, figures) on
 * stderr and returns 1, or prints one line on stdout and returns 0. */
int report_check(const struct rp_profile *p, const char *path);

/* The same without a word: how many invariants are broken, the first one
 * described in first (empty if none). */
size_t report_check_quiet(const struct rp_profile *p, const char *path, char *first, size_t size);

#endif
