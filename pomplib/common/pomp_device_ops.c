#include "pomp_device_ops.h"

#include <string.h>

#include "pomp_value_stats.h"

static const struct {
    const char *type, *key;
} ops[POMP_DEVICE_OPS] = {
    [POMP_DEVICE_KERNEL] = {"kernel", "kernels"},
    [POMP_DEVICE_TO] = {"transfer to device", "to_device"},
    [POMP_DEVICE_FROM] = {"transfer from device", "from_device"},
    [POMP_DEVICE_ALLOC] = {"device alloc", "alloc"},
    [POMP_DEVICE_DELETE] = {"device delete", "delete"},
    [POMP_DEVICE_ASSOCIATE] = {"device associate", "associate"},
    [POMP_DEVICE_DISASSOCIATE] = {"device disassociate", "disassociate"},
};

const char *pomp_device_op_type(enum pomp_device_op op) { return ops[op].type; }
const char *pomp_device_op_key(enum pomp_device_op op) { return ops[op].key; }

int pomp_device_op_value(enum pomp_device_op op)
{
    return op == POMP_DEVICE_KERNEL                                  ? POMP_VALUES_TEAMS
           : op == POMP_DEVICE_DELETE || op == POMP_DEVICE_DISASSOCIATE ? -1
                                                                     : POMP_VALUES_BYTES;
}

int pomp_device_op_of_type(const char *type)
{
    for (int op = 0; type && op < POMP_DEVICE_OPS; op++)
        if (strcmp(type, ops[op].type) == 0)
            return op;
    return -1;
}
