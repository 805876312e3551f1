/* The "sampling" member of profile.json (docs/output.md, docs/sampling.md). */
#ifndef POMP_SAMPLING_JSON_H
#define POMP_SAMPLING_JSON_H

#include <stdio.h>

#include "pomp_run.h"

/* The merged sampled call paths, their frames resolved to function and file:line. */
void pomp_sampling_write_json(FILE *f, const struct pomp_run_sampling *sampling);

#endif
