#include "pomp_value_stats.h"

#include <stdlib.h>

int pomp_values_merge(struct pomp_value_block **dst, const struct pomp_value_block *src)
{
    for (; src; src = src->next) {
        struct pomp_value_block *b = pomp_value_block_find(*dst, (enum pomp_value_kind)src->kind);
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
                pomp_value_stat_add(b, i, &src->stat[i]);
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
