/* The "sampling" member of profile.json (docs/output.md): the threads' sampled
 * call-path trees merged, their frames resolved to function and file:line. */
#include <stdlib.h>

#include "sampling_json.h"
#include "pomp_json.h"
#include "pomp_symbols.h"

static int compare_frames(const void *a, const void *b)
{
    uintptr_t x = *(const uintptr_t *)a, y = *(const uintptr_t *)b;
    return (x > y) - (x < y);
}

/* The distinct frames of the tree, sorted. */
static uintptr_t *distinct_frames(const struct pomp_sample_tree *t, size_t *n)
{
    uintptr_t *frames = malloc((t->used ? t->used : 1) * sizeof *frames);
    if (!frames)
        return NULL;
    size_t k = 0;
    for (uint32_t i = 1; i < t->used; i++)
        frames[k++] = t->nodes[i].frame;
    qsort(frames, k, sizeof *frames, compare_frames);
    size_t u = 0;
    for (size_t i = 0; i < k; i++)
        if (u == 0 || frames[u - 1] != frames[i])
            frames[u++] = frames[i];
    *n = u;
    return frames;
}

static size_t frame_index(const uintptr_t *frames, size_t n, uintptr_t frame)
{
    const uintptr_t *hit = bsearch(&frame, frames, n, sizeof *frames, compare_frames);
    return hit ? (size_t)(hit - frames) : 0;
}

static int is_pseudo(uintptr_t frame) { return frame < POMP_SAMPLE_PSEUDO_END; }

static const char *pseudo_name(uintptr_t frame)
{
    if (frame == POMP_SAMPLE_TRUNCATED)
        return "<truncated>";
    if (frame == POMP_SAMPLE_RUNTIME_CODE)
        return "<OpenMP runtime>";
    if (frame == POMP_SAMPLE_MEASUREMENT)
        return "<pomp measurement>";
    if (frame == POMP_SAMPLE_LOADER_BUSY)
        return "<dynamic loader busy>";
    return pomp_sample_state_pseudo_frame((enum pomp_sample_state)(frame - POMP_SAMPLE_PSEUDO_BASE));
}

/* "NAME", "file": "FILE", "line": N  (after an opening "function": ) */
static void write_location(FILE *f, const struct pomp_location *at)
{
    pomp_json_string(f, at ? at->function : "");
    fputs(", \"file\": ", f);
    pomp_json_string(f, at ? at->file : "");
    fprintf(f, ", \"line\": %d", at ? at->line : 0);
}

static void write_frames(FILE *f, const uintptr_t *frames, size_t n)
{
    struct pomp_symbol_table syms = {0};
    int resolved = pomp_symbols_resolve(frames, n, &syms, POMP_SYMBOLS_EXACT) == 0;
    fputs("    \"frames\": [", f);
    for (size_t i = 0; i < n; i++) {
        fprintf(f, "%s\n      {\"function\": ", i ? "," : "");
        if (is_pseudo(frames[i])) {
            pomp_json_string(f, pseudo_name(frames[i]));
            fputs(", \"file\": \"\", \"line\": 0, \"module\": \"\", \"offset\": \"0x0\"}", f);
            continue;
        }
        const struct pomp_symbol *s = resolved && syms.syms[i].at ? &syms.syms[i] : NULL;
        write_location(f, s ? &s->at[0] : NULL);
        fputs(", \"module\": ", f);
        pomp_json_string(f, s ? s->module : "");
        fprintf(f, ", \"offset\": \"0x%lx\"", (unsigned long)(s ? s->offset : frames[i]));
        if (s && s->depth > 1) {
            fputs(", \"inlined\": [", f);
            for (size_t k = 1; k < s->depth; k++) {
                fputs(k > 1 ? ", {\"function\": " : "{\"function\": ", f);
                write_location(f, &s->at[k]);
                fputc('}', f);
            }
            fputc(']', f);
        }
        fputc('}', f);
    }
    fputs("\n    ],\n", f);
    pomp_symbols_free(&syms);
}

static void write_path(FILE *f, const struct pomp_sample_tree *t, uint32_t node,
                       const uintptr_t *frames, size_t nframes)
{
    uint32_t chain[2 * POMP_SAMPLE_MAX_FRAMES + 2];
    size_t depth = 0;
    for (uint32_t n = node; n != 0 && depth < sizeof chain / sizeof *chain; n = t->nodes[n].parent)
        chain[depth++] = n;
    fputs("{\"frames\": [", f);
    for (size_t i = depth; i > 0; i--)
        fprintf(f, "%s%zu", i == depth ? "" : ", ",
                frame_index(frames, nframes, t->nodes[chain[i - 1]].frame));
    uint64_t work = 0, wait = 0;
    const uint32_t *samples = t->nodes[node].samples;
    for (int s = 0; s < POMP_SAMPLE_STATES; s++)
        *(s >= POMP_SAMPLE_FIRST_WAIT ? &wait : &work) += samples[s];
    fprintf(f, "], \"work\": %llu, \"wait\": %llu, \"states\": {", (unsigned long long)work,
            (unsigned long long)wait);
    int first = 1;
    for (int s = 0; s < POMP_SAMPLE_STATES; s++) {
        if (!samples[s])
            continue;
        fprintf(f, "%s\"%s\": %u", first ? "" : ", ",
                pomp_sample_state_name((enum pomp_sample_state)s), samples[s]);
        first = 0;
    }
    fputs("}}", f);
}

void pomp_sampling_write_json(FILE *f, const struct pomp_run_sampling *sampling)
{
    const struct pomp_sample_tree *tree = &sampling->tree;
    size_t nframes = 0;
    uintptr_t *frames = tree->nodes ? distinct_frames(tree, &nframes) : NULL;
    fprintf(f,
            "  \"sampling\": {\n    \"period_ns\": %llu,\n    \"timer\": \"%s\",\n"
            "    \"raised_threads\": %u,\n    \"max_period_ns\": %llu,\n"
            "    \"blocked_threads\": %u,\n"
            "    \"samples\": %llu,\n    \"lost\": %llu,\n    \"truncated\": %u,\n"
            "    \"complete\": %s,\n",
            (unsigned long long)sampling->period_ns, sampling->timer, sampling->raised_threads,
            (unsigned long long)sampling->max_period_ns, sampling->blocked_threads,
            (unsigned long long)sampling->taken, (unsigned long long)sampling->lost,
            tree->truncated, sampling->complete && frames ? "true" : "false");
    write_frames(f, frames, frames ? nframes : 0);
    fputs("    \"paths\": [", f);
    int first = 1;
    for (uint32_t i = 1; frames && i < tree->used; i++) {
        uint64_t total = 0;
        for (int s = 0; s < POMP_SAMPLE_STATES; s++)
            total += tree->nodes[i].samples[s];
        if (!total)
            continue;
        fputs(first ? "\n      " : ",\n      ", f);
        write_path(f, tree, i, frames, nframes);
        first = 0;
    }
    fputs("\n    ]\n  },\n", f);
    free(frames);
}
