/* The flame graph's tree: every sampled user-model call path of the profile
 * folded by function (the walk of report_sampling.c: from main on, inlined
 * functions as levels of their own) into one tree whose nodes count the
 * samples of their paths inclusive of their callees. The HTML report draws
 * it; --json carries it (docs/output.md). */
#include "report_flame.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "report_sampling.h"

struct flame_node {
    const char *function, *file;   /* the profile's strings */
    int first_line, last_line;     /* of the node's frames; 0: unknown */
    double samples, wait;          /* inclusive: the node's paths and their callees */
    uint32_t first_child, next_sibling;
};

struct flame {
    struct flame_node *nodes;      /* nodes[0] stands for all samples */
    uint32_t n, cap;
    uint32_t at;                   /* the node the walk of a path has reached */
    double samples, wait;          /* of the path being added */
};

/* parent's child for the function, made if new; 0 when out of memory. */
static uint32_t child_of(struct flame *t, uint32_t parent, const struct rp_sample_function *f)
{
    for (uint32_t c = t->nodes[parent].first_child; c; c = t->nodes[c].next_sibling)
        if (strcmp(t->nodes[c].function, f->function) == 0 && strcmp(t->nodes[c].file, f->file) == 0)
            return c;
    if (t->n == t->cap) {
        uint32_t cap = t->cap * 2;
        struct flame_node *bigger = realloc(t->nodes, cap * sizeof *bigger);
        if (!bigger)
            return 0;
        t->nodes = bigger;
        t->cap = cap;
    }
    uint32_t c = t->n++;
    t->nodes[c] = (struct flame_node){f->function, f->file, f->line, f->line, 0, 0, 0,
                                      t->nodes[parent].first_child};
    t->nodes[parent].first_child = c;
    return c;
}

static int descend(void *ctx, const struct rp_sample_function *f)
{
    struct flame *t = ctx;
    uint32_t c = child_of(t, t->at, f);
    if (!c)
        return -1;
    struct flame_node *node = &t->nodes[c];
    if (f->line > 0 && (node->first_line == 0 || f->line < node->first_line))
        node->first_line = f->line;
    if (f->line > node->last_line)
        node->last_line = f->line;
    node->samples += t->samples;
    node->wait += t->wait;
    t->at = c;
    return 0;
}

struct ranked {
    double samples;
    uint32_t node;
};

static int by_samples_desc(const void *a, const void *b)
{
    const struct ranked *x = a, *y = b;
    if (x->samples != y->samples)
        return (x->samples < y->samples) - (x->samples > y->samples);
    return (x->node > y->node) - (x->node < y->node);
}

/* The node and its subtree, the most sampled child first; NULL when out of memory. */
static json_t *node_json(const struct flame *t, uint32_t i)
{
    const struct flame_node *node = &t->nodes[i];
    json_t *o = json_pack("{ss ss si si sf sf}", "name", node->function, "file", node->file, "line",
                          node->first_line, "line_last", node->last_line, "samples", node->samples,
                          "wait", node->wait);
    size_t nchildren = 0;
    for (uint32_t c = node->first_child; c; c = t->nodes[c].next_sibling)
        nchildren++;
    if (!o || nchildren == 0)
        return o;
    struct ranked *order = malloc(nchildren * sizeof *order);
    json_t *children = json_array();
    if (!order || !children || json_object_set_new(o, "children", children) != 0)
        goto oom;
    size_t k = 0;
    for (uint32_t c = node->first_child; c; c = t->nodes[c].next_sibling)
        order[k++] = (struct ranked){t->nodes[c].samples, c};
    qsort(order, nchildren, sizeof *order, by_samples_desc);
    for (k = 0; k < nchildren; k++)
        if (json_array_append_new(children, node_json(t, order[k].node)) != 0)
            goto oom;
    free(order);
    return o;
oom:
    free(order);
    json_decref(o);
    return NULL;
}

json_t *report_flame_json(json_t *profile_root)
{
    json_t *s = json_object_get(profile_root, "sampling");
    if (!json_is_object(s))
        return json_null();
    json_t *frames = json_object_get(s, "frames"), *paths = json_object_get(s, "paths");
    struct flame t = {.cap = 256};
    t.nodes = malloc(t.cap * sizeof *t.nodes);
    if (!t.nodes)
        return NULL;
    t.nodes[0] = (struct flame_node){"all", "", 0, 0, 0, 0, 0, 0};
    t.n = 1;
    size_t i;
    json_t *p;
    json_array_foreach(paths, i, p) {
        double work = json_number_value(json_object_get(p, "work"));
        t.wait = json_number_value(json_object_get(p, "wait"));
        t.samples = work + t.wait;
        t.at = 0;
        t.nodes[0].samples += t.samples;
        t.nodes[0].wait += t.wait;
        if (rp_sample_path_walk(json_object_get(p, "frames"), frames, descend, &t) != 0) {
            free(t.nodes);
            return NULL;
        }
    }
    json_t *tree = node_json(&t, 0);
    double all = t.nodes[0].samples, wait = t.nodes[0].wait;
    free(t.nodes);
    if (!tree)
        return NULL;
    return json_pack("{sO? sO? sO? sO? sO? sf sf so}", "period_ns", json_object_get(s, "period_ns"),
                     "timer", json_object_get(s, "timer"), "samples", json_object_get(s, "samples"),
                     "lost", json_object_get(s, "lost"), "blocked_threads",
                     json_object_get(s, "blocked_threads"), "work", all - wait, "wait", wait, "flame",
                     tree);
}
