/* The short summary printed on stderr at exit (POMP_SUMMARY). */
#ifndef POMP_SUMMARY_H
#define POMP_SUMMARY_H

#include <stdio.h>

#include "pomp_run.h"

/* profile_written: profile.json is there (else the summary names no file
 * it would find). */
void pomp_summary_print(FILE *f, const struct pomp_run *run, int profile_written);

/* One warning per kind of loss (unmatched events, call paths beyond
 * POMP_PROFILE_NODES, events nested too deep, value lists): printed with or
 * without the summary. */
void pomp_summary_warn_losses(FILE *f, const struct pomp_run *run, int profile_written);

#endif
