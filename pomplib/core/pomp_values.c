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

int pomp_values_add(struct pomp_value_pool *vp, struct pomp_node *node, enum pomp_value_kind kind,
                    int32_t n, const POMP_Int64 *values)
{
    struct pomp_value_block *b = pomp_value_block_find(node->values, kind);
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
        pomp_value_stat_add(b, (int)i, &one);
    }
    return 0;
}
