#include "trace_text.h"

#include <inttypes.h>

void trace_text_write(const struct trace_model *m, FILE *f)
{
    fputs("# thread time_ns event region arg\n", f);
    for (uint32_t t = 0; t < m->nthreads; t++) {
        const struct trace_thread *th = &m->threads[t];
        for (uint64_t i = 0; i < th->count; i++) {
            const struct pomp_event *e = &th->events[i];
            fprintf(f, "%u %.0f %s %u %" PRIu64 "\n", th->index, trace_ns(m, e->time),
                    pomp_event_name(e->kind), e->region, e->arg);
        }
    }
}
