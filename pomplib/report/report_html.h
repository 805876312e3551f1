/* pomp-report --html FILE: one self-contained page (report_template.html with
 * the run's figures embedded): timeline per thread when the run has a trace,
 * region profile, wait breakdown, call-path table. */
#ifndef POMP_REPORT_HTML_H
#define POMP_REPORT_HTML_H

#include "report_data.h"
#include "trace_model.h"

/* The timeline shows at most this many slices, the longest. */
#define REPORT_MAX_SLICES 20000
#define REPORT_MAX_MARKS 5000

/* trace may be NULL (no timeline). Returns 0, or -1 after printing why. */
int report_html(const struct rp_profile *p, const struct trace_model *trace, const char *path);

#endif
