/* pomp-report's section for POMP_SAMPLING: OpenMP Work and Wait, and the
 * sampled user-model call paths folded by function (docs/output.md). */
#include "report_sampling.h"
#include "pomp_sample_tree.h"
#include "report_data.h"

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
    json_int_t blocked = json_integer_value(json_object_get(s, "blocked_threads"));
    if (blocked > 0)
        printf("  (!) %lld thread%s held SIGPROF blocked when sampling ended, with samples pending: "
               "none was taken while it stayed blocked, and these figures count only the samples "
               "taken\n",
               (long long)blocked, blocked == 1 ? "" : "s");
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

/* Whether name is a state pomp counts samples in (pomp_sample_tree.h). */
static int known_state(const char *name)
{
#define STATE_NAME(id, text, pseudo) text,
    static const char *const names[] = {POMP_SAMPLE_STATE_LIST(STATE_NAME)};
#undef STATE_NAME
    for (size_t i = 0; i < sizeof names / sizeof *names; i++)
        if (strcmp(name, names[i]) == 0)
            return 1;
    return 0;
}

/* One sampled path: no deeper than a report can walk (20,000 frames
 * overflowed the flame tree's stack; pomp records 128 a sample), each frame
 * one of "frames", its counts whole and its states known (a count of -100
 * read as -89 samples, a state "bogus" as a column of its own; probes'
 * damaged files). */
static int bad_path(const char *path, json_t *root, json_t *e, size_t k, size_t nframes)
{
    enum { MAX_PATH_FRAMES = 4096 };
    json_t *frames = json_object_get(e, "frames"), *v;
    size_t depth = json_array_size(frames), i;
    if (!json_is_array(frames) || depth > MAX_PATH_FRAMES) {
        rp_say_at(path, root, frames ? frames : e, "sampling.paths[%zu] has %s%zu frames%s", k,
                  frames ? "" : "no \"frames\" (", depth,
                  frames ? ", more than a report takes (4096; pomp records at most 128 a sample)"
                         : ")");
        return 1;
    }
    json_array_foreach(frames, i, v)
        if (!json_is_integer(v) || json_integer_value(v) < 0 ||
            (size_t)json_integer_value(v) >= nframes) {
            rp_say_at(path, root, v, "sampling.paths[%zu].frames[%zu] is not an index into "
                                     "sampling.frames (0 to %zu)", k, i, nframes - (nframes > 0));
            return 1;
        }
    if (rp_bad_count(path, root, e, "work", 1, "sampling.paths[%zu]", k) ||
        rp_bad_count(path, root, e, "wait", 1, "sampling.paths[%zu]", k))
        return 1;
    const char *state;
    json_t *states = json_object_get(e, "states");
    json_object_foreach(states, state, v) {
        if (!known_state(state)) {
            rp_say_at(path, root, v, "sampling.paths[%zu].states has a state \"%.40s\" that pomp "
                                     "does not count samples in", k, state);
            return 1;
        }
        if (rp_bad_count(path, root, states, state, 1, "sampling.paths[%zu].states", k))
            return 1;
    }
    return 0;
}

int rp_sampling_check(const char *path, json_t *root)
{
    static const char *const counts[] = {"period_ns", "samples", "lost", "truncated",
                                         "raised_threads", "max_period_ns", "blocked_threads"};
    json_t *s = json_object_get(root, "sampling"), *e;
    if (!s || json_is_null(s))
        return 0;
    if (!json_is_object(s)) {
        rp_say_at(path, root, s, "\"sampling\" is not an object");
        return -1;
    }
    for (size_t i = 0; i < sizeof counts / sizeof *counts; i++)
        if (rp_bad_count(path, root, s, counts[i], 0, "sampling"))
            return -1;
    size_t nframes = json_array_size(json_object_get(s, "frames")), k;
    json_array_foreach(json_object_get(s, "paths"), k, e)
        if (bad_path(path, root, e, k, nframes))
            return -1;
    return 0;
}
