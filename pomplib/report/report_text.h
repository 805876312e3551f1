/* pomp-report's text tables: call paths, regions by self time, waits. */
#ifndef POMP_REPORT_TEXT_H
#define POMP_REPORT_TEXT_H

#include "report_data.h"

void report_text(const struct rp_profile *p, int per_thread);

#endif
