/* The short summary printed on stderr at exit (POMP_SUMMARY). */
#ifndef POMP_SUMMARY_H
#define POMP_SUMMARY_H

#include <stdio.h>

#include "pomp_clock.h"
#include "pomp_merge.h"

void pomp_summary_print(FILE *f, const struct pomp_merged *m, const struct pomp_clock *clock,
                        double duration_ns, const char *dir);

#endif
