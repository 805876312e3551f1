#include "report_devices.h"

#include <stdio.h>

/* The operations of a "total" or region object, in the order printed. */
static const char *const op_keys[] = {"kernels", "to_device", "from_device", "alloc", "delete",
                                      "associate", "disassociate"};
enum { NOPS = sizeof op_keys / sizeof *op_keys };

static double num(json_t *o, const char *key) { return json_number_value(json_object_get(o, key)); }

static const struct rp_region *region_by_id(const struct rp_profile *p, json_int_t id)
{
    for (size_t i = 0; i < p->nregions; i++)
        if (p->regions[i].id == (unsigned)id)
            return &p->regions[i];
    return NULL;
}

/* "count  bytes  ms" columns of the kernels, to_device and from_device objects, then the rest. */
static void print_ops(json_t *ops)
{
    json_t *k = json_object_get(ops, "kernels"), *to = json_object_get(ops, "to_device"),
           *from = json_object_get(ops, "from_device");
    printf(" %7.0f %10.3f %6.0f %12.0f %10.3f %6.0f %12.0f %10.3f", num(k, "count"), num(k, "ns") / 1e6,
           num(to, "count"), num(to, "bytes"), num(to, "ns") / 1e6, num(from, "count"),
           num(from, "bytes"), num(from, "ns") / 1e6);
    for (size_t i = 3; i < NOPS; i++) {
        json_t *o = json_object_get(ops, op_keys[i]);
        if (!o)
            continue;
        printf("  %s %.0f", op_keys[i], num(o, "count"));
        if (json_object_get(o, "bytes"))
            printf(" (%.0f bytes)", num(o, "bytes"));
    }
    putchar('\n');
}

static void header(const char *first)
{
    printf("%-44s %7s %10s %6s %12s %10s %6s %12s %10s\n", first, "kernels", "ms", "to dev",
           "bytes", "ms", "from", "bytes", "ms");
}

void report_devices(const struct rp_profile *p)
{
    json_t *devices = json_object_get(p->root, "devices");
    if (!json_array_size(devices))
        return;
    size_t i;
    json_t *d;
    printf("\nDevices (kernels, transfers to and from the device; times as each device's note says)\n");
    header("device");
    json_array_foreach(devices, i, d) {
        char name[128];
        snprintf(name, sizeof name, "device %lld (%s)", (long long)json_integer_value(json_object_get(d, "device")),
                 json_string_value(json_object_get(d, "type")) ? json_string_value(json_object_get(d, "type")) : "?");
        printf("%-44s", name);
        print_ops(json_object_get(d, "total"));
    }
    printf("\nDevice operations per target region\n");
    header("region");
    json_array_foreach(devices, i, d) {
        size_t j;
        json_t *r;
        json_array_foreach(json_object_get(d, "regions"), j, r) {
            const struct rp_region *reg = region_by_id(p, json_integer_value(json_object_get(r, "region")));
            char label[160], where[160], name[200];
            if (reg) {
                rp_region_label(reg, label, sizeof label);
                rp_region_location(reg, where, sizeof where);
            } else {
                snprintf(label, sizeof label, "(no target region)");
                snprintf(where, sizeof where, "-");
            }
            snprintf(name, sizeof name, "%.24s %.14s dev %lld", label, where,
                     (long long)json_integer_value(json_object_get(d, "device")));
            printf("%-44s", name);
            print_ops(r);
        }
    }
    json_array_foreach(devices, i, d)
        printf("device %lld: %s timing; %s\n", (long long)json_integer_value(json_object_get(d, "device")),
               json_string_value(json_object_get(d, "timing")) ? json_string_value(json_object_get(d, "timing")) : "?",
               json_string_value(json_object_get(d, "note")) ? json_string_value(json_object_get(d, "note")) : "");
}
