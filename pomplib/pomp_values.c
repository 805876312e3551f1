#include "pomp_values.h"

#include <stdlib.h>
#include <string.h>

#include "pomp_profile.h"

int pomp_value_pool_init(struct pomp_value_pool *vp, uint32_t size)
{
    memset(vp, 0, sizeof *vp);
    vp->blocks = calloc(size ? size : 1, sizeof *vp->blocks);
    if (!vp->blocks)
        return -1;
    vp->size = size;
    return 0;
}

void pomp_value_pool_destroy(struct pomp_value_pool *vp)
{
    free(vp->blocks);
    memset(vp, 0, sizeof *vp);
}

static void stat_add(struct pomp_value_block *b, int pos, const struct pomp_value_stat *add)
{
    struct pomp_value_stat *s = &b->stat[pos];
    if (s->count == 0) {
        s->min = add->min;
        s->max = add->max;
    } else {
        if (add->min < s->min)
            s->min = add->min;
        if (add->max > s->max)
            s->max = add->max;
    }
    s->count += add->count;
    if (__builtin_add_overflow(s->sum, add->sum, &s->sum)) {
        /* saturate in the direction of the addend, and remember it */
        s->sum = add->sum > 0 ? INT64_MAX : INT64_MIN;
        b->sum_saturated |= (uint8_t)(1u << pos);
    }
}

static struct pomp_value_block *find_block(struct pomp_value_block *list, enum pomp_value_kind kind)
{
    for (; list; list = list->next)
        if (list->kind == kind)
            return list;
    return NULL;
}

int pomp_values_add(struct pomp_value_pool *vp, struct pomp_node *node, enum pomp_value_kind kind,
                    int32_t n, const POMP_Int64 *values)
{
    struct pomp_value_block *b = find_block(node->values, kind);
    if (__builtin_expect(b == NULL, 0)) {
        if (vp->used == vp->size) {
            vp->dropped++;
            return -1;
        }
        b = &vp->blocks[vp->used++];
        b->kind = (uint8_t)kind;
        b->next = node->values;
        node->values = b;
    }
    if (n > b->npos)
        b->npos = (uint8_t)n;
    for (int32_t i = 0; i < n; i++) {
        struct pomp_value_stat one = {1, values[i], values[i], values[i]};
        stat_add(b, (int)i, &one);
    }
    return 0;
}

int pomp_values_merge(struct pomp_value_block **dst, const struct pomp_value_block *src)
{
    for (; src; src = src->next) {
        struct pomp_value_block *b = find_block(*dst, (enum pomp_value_kind)src->kind);
        if (!b) {
            b = calloc(1, sizeof *b);
            if (!b)
                return -1;
            b->kind = src->kind;
            b->next = *dst;
            *dst = b;
        }
        if (src->npos > b->npos)
            b->npos = src->npos;
        b->sum_saturated |= src->sum_saturated;
        for (int i = 0; i < src->npos; i++)
            if (src->stat[i].count)
                stat_add(b, i, &src->stat[i]);
    }
    return 0;
}

void pomp_values_free(struct pomp_value_block *list)
{
    while (list) {
        struct pomp_value_block *next = list->next;
        free(list);
        list = next;
    }
}

const char *pomp_value_kind_name(enum pomp_value_kind k)
{
    static const char *const names[POMP_VALUES_KINDS] = {"begin", "end", "event", "bytes", "teams"};
    return (unsigned)k < POMP_VALUES_KINDS ? names[k] : "unknown";
}
