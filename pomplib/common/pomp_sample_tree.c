#include "pomp_sample_tree.h"

#include <stdlib.h>
#include <string.h>

static const char *const state_names[] = {
#define POMP_SAMPLE_STATE_NAME(id, name, pseudo) name,
    POMP_SAMPLE_STATE_LIST(POMP_SAMPLE_STATE_NAME)
#undef POMP_SAMPLE_STATE_NAME
};
static const char *const state_pseudo_frames[] = {
#define POMP_SAMPLE_STATE_PSEUDO(id, name, pseudo) pseudo,
    POMP_SAMPLE_STATE_LIST(POMP_SAMPLE_STATE_PSEUDO)
#undef POMP_SAMPLE_STATE_PSEUDO
};

const char *pomp_sample_state_name(enum pomp_sample_state s)
{
    return (unsigned)s < POMP_SAMPLE_STATES ? state_names[s] : "?";
}

const char *pomp_sample_state_pseudo_frame(enum pomp_sample_state s)
{
    return (unsigned)s < POMP_SAMPLE_STATES ? state_pseudo_frames[s] : "";
}

int pomp_sample_tree_init(struct pomp_sample_tree *t, uint32_t capacity)
{
    memset(t, 0, sizeof *t);
    if (capacity < 2)
        capacity = 2;
    t->nodes = calloc(capacity, sizeof *t->nodes);
    if (!t->nodes)
        return -1;
    t->capacity = capacity;
    t->used = 1; /* the root */
    return 0;
}

void pomp_sample_tree_destroy(struct pomp_sample_tree *t)
{
    free(t->nodes);
    memset(t, 0, sizeof *t);
}

/* The child of parent for frame, created if there is room; 0 if there is not. */
static uint32_t child_of(struct pomp_sample_tree *t, uint32_t parent, uintptr_t frame)
{
    uint32_t c;
    for (c = t->nodes[parent].first_child; c; c = t->nodes[c].next_sibling)
        if (t->nodes[c].frame == frame)
            return c;
    if (t->used == t->capacity)
        return 0;
    c = t->used++;
    struct pomp_sample_node *n = &t->nodes[c];
    n->frame = frame;
    n->parent = parent;
    n->next_sibling = t->nodes[parent].first_child;
    t->nodes[parent].first_child = c;
    return c;
}

/* The node of the path, or the deepest existing one with its <truncated> child. */
static uint32_t node_of_path(struct pomp_sample_tree *t, const uintptr_t *frames, size_t n)
{
    uint32_t node = 0;
    for (size_t i = 0; i < n; i++) {
        uint32_t c = child_of(t, node, frames[i]);
        if (c == 0) {
            t->truncated++;
            c = child_of(t, node, POMP_SAMPLE_TRUNCATED);
            return c ? c : node;
        }
        node = c;
    }
    return node;
}

void pomp_sample_tree_add(struct pomp_sample_tree *t, const uintptr_t *frames, size_t n,
                          enum pomp_sample_state state, uint32_t weight)
{
    if (!t->nodes || (unsigned)state >= POMP_SAMPLE_STATES)
        return;
    t->nodes[node_of_path(t, frames, n)].samples[state] += weight;
}

/* Merging runs after the measurement: dst may grow. */
static int reserve(struct pomp_sample_tree *t, uint32_t more)
{
    if (t->used + more <= t->capacity)
        return 0;
    uint32_t cap = t->capacity;
    while (cap < t->used + more)
        cap = cap > UINT32_MAX / 2 ? UINT32_MAX : cap * 2;
    struct pomp_sample_node *nodes = realloc(t->nodes, (size_t)cap * sizeof *nodes);
    if (!nodes)
        return -1;
    memset(nodes + t->capacity, 0, (size_t)(cap - t->capacity) * sizeof *nodes);
    t->nodes = nodes;
    t->capacity = cap;
    return 0;
}

int pomp_sample_tree_merge(struct pomp_sample_tree *dst, const struct pomp_sample_tree *src)
{
    int rc = reserve(dst, src->used);
    /* src's nodes are numbered parents first, so each node's image in dst is
     * known before its children are visited. */
    uint32_t *image = malloc((size_t)src->used * sizeof *image);
    if (!image)
        return -1;
    image[0] = 0;
    for (uint32_t i = 1; i < src->used; i++) {
        const struct pomp_sample_node *s = &src->nodes[i];
        uint32_t d = child_of(dst, image[s->parent], s->frame);
        if (d == 0) {
            rc = -1;
            d = image[s->parent];
        }
        image[i] = d;
        for (int k = 0; k < POMP_SAMPLE_STATES; k++)
            dst->nodes[d].samples[k] += s->samples[k];
    }
    dst->truncated += src->truncated;
    free(image);
    return rc;
}
