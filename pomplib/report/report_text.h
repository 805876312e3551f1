/* pomp-report's text tables: call paths, regions by self time, waits. */
#ifndef POMP_REPORT_TEXT_H
#define POMP_REPORT_TEXT_H

#include "report_data.h"

void report_text(const struct rp_profile *p, int per_thread);

/* What the run lost or left untimed (warnings) and what the report could not
 * tell apart (notes), each line as the text report opens with it: emit gets
 * its level ("warning" or "note") and its text. The HTML report shows them too. */
typedef void (*report_line_fn)(void *ctx, const char *level, const char *text);
void report_losses(const struct rp_profile *p, report_line_fn emit, void *ctx);

/* A location shortened to width characters, by its middle: it keeps its
 * "in parallel @ ", a relative path's first directory, and its end (file and
 * lines). s itself where it fits; else buf. */
const char *report_clip_location(const char *s, int width, char *buf, size_t size);

#endif
