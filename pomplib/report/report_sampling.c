/* pomp-report's section for POMP_SAMPLING: OpenMP Work and Wait, and the
 * sampled user-model call paths folded by function (docs/output.md). */
#include "report_sampling.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct folded_path {
    char *key;     /* "main > foo > <OMP-lock_wait>" */
    double work, wait;
};

static int by_samples(const void *a, const void *b)
{
    const struct folded_path *x = a, *y = b;
    double sx = x->work + x->wait, sy = y->work + y->wait;
    return (sx < sy) - (sx > sy);
}

struct key {
    char *text;
    size_t len, cap;
};

static int key_add(struct key *k, const char *fn)
{
    size_t need = k->len + strlen(fn) + 4;
    if (need > k->cap) {
        size_t cap = k->cap ? k->cap : 64;
        while (cap < need)
            cap *= 2;
        char *bigger = realloc(k->text, cap);
        if (!bigger)
            return -1;
        k->text = bigger;
        k->cap = cap;
    }
    k->len += (size_t)sprintf(k->text + k->len, "%s%s", k->len ? " > " : "", fn);
    return 0;
}

/* A frame's (or an inlined function's) function; its code address when it has no name. */
static struct rp_sample_function function_of(json_t *frame, json_t *outer)
{
    struct rp_sample_function f = {
        json_string_value(json_object_get(frame, "function")),
        json_string_value(json_object_get(frame, "file")),
        (int)json_integer_value(json_object_get(frame, "line"))};
    if (!f.function || !*f.function)
        f.function = json_string_value(json_object_get(outer, "offset"));
    if (!f.function)
        f.function = "?";
    if (!f.file)
        f.file = "";
    return f;
}

int rp_sample_path_walk(json_t *path_frames, json_t *frames,
                        int (*visit)(void *ctx, const struct rp_sample_function *f), void *ctx)
{
    size_t start = 0, i;
    json_t *idx;
    json_array_foreach(path_frames, i, idx) {
        json_t *fr = json_array_get(frames, (size_t)json_integer_value(idx));
        if (strcmp(function_of(fr, fr).function, "main") == 0) {
            start = i;
            break;
        }
    }
    json_array_foreach(path_frames, i, idx) {
        if (i < start)
            continue;
        json_t *fr = json_array_get(frames, (size_t)json_integer_value(idx));
        struct rp_sample_function f = function_of(fr, fr);
        int rc = visit(ctx, &f);
        size_t j;
        json_t *in;
        json_array_foreach(json_object_get(fr, "inlined"), j, in) {
            if (rc)
                break;
            f = function_of(in, fr);
            rc = visit(ctx, &f);
        }
        if (rc)
            return rc;
    }
    return 0;
}

static int add_to_key(void *ctx, const struct rp_sample_function *f)
{
    return key_add(ctx, f->function);
}

/* "main > foo > <OMP-lock_wait>" */
static char *fold_key(json_t *frames_of_path, json_t *frames)
{
    struct key k = {0};
    if (rp_sample_path_walk(frames_of_path, frames, add_to_key, &k) != 0) {
        free(k.text);
        return NULL;
    }
    return k.text ? k.text : strdup(""); /* an empty path is "" */
}

static void print_states(json_t *paths, double total)
{
    json_t *sums = json_object();
    size_t i;
    json_t *p;
    json_array_foreach(paths, i, p) {
        const char *state;
        json_t *v;
        json_object_foreach(json_object_get(p, "states"), state, v) {
            double prev = json_number_value(json_object_get(sums, state));
            json_object_set_new(sums, state, json_real(prev + json_number_value(v)));
        }
    }
    printf("  by state:");
    const char *state;
    json_t *v;
    json_object_foreach(sums, state, v)
        printf(" %s %.1f %%", state, total > 0 ? 100.0 * json_number_value(v) / total : 0.0);
    printf("\n");
    json_decref(sums);
}

void report_sampling(json_t *root, int max_paths)
{
    json_t *s = json_object_get(root, "sampling");
    if (!json_is_object(s))
        return;
    json_t *frames = json_object_get(s, "frames"), *paths = json_object_get(s, "paths");
    size_t npaths = json_array_size(paths), nfolded = 0, i;
    struct folded_path *folded = calloc(npaths ? npaths : 1, sizeof *folded);
    if (!folded)
        return;
    double work = 0, wait = 0;
    json_t *p;
    json_array_foreach(paths, i, p) {
        double w = json_number_value(json_object_get(p, "work"));
        double t = json_number_value(json_object_get(p, "wait"));
        work += w;
        wait += t;
        char *key = fold_key(json_object_get(p, "frames"), frames);
        if (!key)
            continue;
        size_t k;
        for (k = 0; k < nfolded && strcmp(folded[k].key, key) != 0; k++)
            ;
        if (k == nfolded)
            folded[nfolded++].key = key;
        else
            free(key);
        folded[k].work += w;
        folded[k].wait += t;
    }
    double total = work + wait;
    printf("\nsampling: every %.3f ms (%s clock), %.0f samples, %lld lost; "
           "OpenMP Work %.1f %%, OpenMP Wait %.1f %%\n",
           json_number_value(json_object_get(s, "period_ns")) / 1e6,
           json_string_value(json_object_get(s, "timer")) ?: "?", total,
           (long long)json_integer_value(json_object_get(s, "lost")),
           total > 0 ? 100.0 * work / total : 0.0, total > 0 ? 100.0 * wait / total : 0.0);
    print_states(paths, total);
    qsort(folded, nfolded, sizeof *folded, by_samples);
    printf("\n%8s %7s %7s  %s\n", "samples", "work %", "wait %", "user-model call path");
    for (i = 0; i < nfolded; i++) {
        double n = folded[i].work + folded[i].wait;
        if ((int)i < max_paths)
            printf("%8.0f %7.1f %7.1f  %s\n", n, total > 0 ? 100.0 * folded[i].work / total : 0.0,
                   total > 0 ? 100.0 * folded[i].wait / total : 0.0, folded[i].key);
        free(folded[i].key);
    }
    if ((int)nfolded > max_paths)
        printf("%8s  (%zu more paths)\n", "...", nfolded - (size_t)max_paths);
    free(folded);
}
