#include "trace_text.h"

#include <inttypes.h>

void trace_text_write(const struct trace_model *m, FILE *f)
{
    fputs("# thread time_ns event region arg\n", f);
    for (uint32_t t = 0; t < m->nthreads; t++) {
        const struct trace_thread *th = &m->threads[t];
        for (uint64_t i = 0; i < th->count; i++) {
            const struct pomp_event *e = &th->events[i];
            /* a flush is a pair: which end, as every other pair's name says */
            const char *name = e->kind != POMP_EV_TRACE_FLUSH ? pomp_event_name(e->kind)
                               : e->phase == POMP_PHASE_ENTER ? "pomp_flush_enter"
                                                              : "pomp_flush_exit";
            fprintf(f, "%u %.0f %s %u %" PRIu64 "\n", th->index, trace_ns(m, e->time), name,
                    e->region, e->arg);
        }
    }
}
