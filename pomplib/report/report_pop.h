/* The POP efficiency metrics (parallel efficiency, load balance,
 * synchronisation and fork/join management efficiency) of the run and of each
 * parallel region, and the load balance of every call path (docs/output.md). */
#ifndef POMP_REPORT_POP_H
#define POMP_REPORT_POP_H

#include "report_data.h"

/* Fills p->pop_run, p->pop_regions and each node's s.load_balance, after the
 * waits are gathered. Returns 0, or -1 when out of memory. */
int rp_pop_compute(struct rp_profile *p);

#endif
