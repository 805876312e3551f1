#include "report_devices.h"

#include "report_text.h"


#include <stdio.h>
#include <string.h>

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

static void header_width(const char *first, int width)
{
    printf("%-*s %7s %10s %6s %12s %10s %6s %12s %10s\n", width, first, "kernels", "ms", "to dev",
           "bytes", "ms", "from", "bytes", "ms");
}

static void header(const char *first) { header_width(first, 44); }

enum { MAX_REGION_NAME = 100 };

/* A target region's row name on device d: its label, its location (cut by
 * its middle where the whole passes MAX_REGION_NAME, as the other tables cut
 * theirs: report_clip_location), the device. */
static void region_row_name(const struct rp_profile *p, json_t *d, json_t *r, char *name,
                            size_t size)
{
    const struct rp_region *reg = region_by_id(p, json_integer_value(json_object_get(r, "region")));
    char label[160], where[160], clipped[160], dev[32];
    if (reg) {
        rp_region_label(reg, label, sizeof label);
        rp_region_location(reg, where, sizeof where);
    } else {
        snprintf(label, sizeof label, "(no target region)");
        snprintf(where, sizeof where, "-");
    }
    snprintf(dev, sizeof dev, " dev %lld", (long long)json_integer_value(json_object_get(d, "device")));
    int room = MAX_REGION_NAME - (int)strlen(label) - 1 - (int)strlen(dev);
    if (room < 16)
        room = 16;
    snprintf(name, size, "%s %s%s", label, report_clip_location(where, room, clipped, sizeof clipped),
             dev);
}

/* One row of the per-region table: pass 0 widens the name column to hold
 * name, pass 1 prints the row. */
static void ops_row(int pass, int *width, const char *name, json_t *ops)
{
    int len = (int)strlen(name);
    if (pass == 0 && len > *width)
        *width = len;
    if (pass == 1) {
        printf("%-*s", *width, name);
        print_ops(ops);
    }
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
    printf("\nDevice operations per target region (and outside them)\n");
    /* each row's name whole, the column as wide as the longest (to
     * MAX_REGION_NAME, past which a location is cut by its middle): cut to 14
     * characters, 22-22 read 22-2 and three constructs of one long file
     * name were one row (a probe) */
    int width = 44;
    for (int pass = 0; pass < 2; pass++) {
        if (pass == 1)
            header_width("region", width);
        json_array_foreach(devices, i, d) {
            size_t j;
            json_t *r;
            json_array_foreach(json_object_get(d, "regions"), j, r) {
                char name[400];
                region_row_name(p, d, r, name, sizeof name);
                ops_row(pass, &width, name, r);
            }
            /* what host code had the device do (omp_target_memcpy, ...) */
            json_t *outside = json_object_get(d, "outside_targets");
            if (outside) {
                char name[64];
                snprintf(name, sizeof name, "(outside target constructs) dev %lld",
                         (long long)json_integer_value(json_object_get(d, "device")));
                ops_row(pass, &width, name, outside);
            }
        }
    }
    json_array_foreach(devices, i, d)
        printf("device %lld: %s timing; %s\n", (long long)json_integer_value(json_object_get(d, "device")),
               json_string_value(json_object_get(d, "timing")) ? json_string_value(json_object_get(d, "timing")) : "?",
               json_string_value(json_object_get(d, "note")) ? json_string_value(json_object_get(d, "note")) : "");
}

/* The operations of a "total" or region object (name: its place), each with
 * a whole count and time, and bytes or teams where there. */
static int bad_ops(const char *path, json_t *root, json_t *ops, const char *name)
{
    if (!json_is_object(ops)) {
        rp_say_at(path, root, ops ? ops : root, "%s is missing or not an object", name);
        return 1;
    }
    for (size_t i = 0; i < NOPS; i++) {
        json_t *o = json_object_get(ops, op_keys[i]);
        if (o && (rp_bad_count(path, root, o, "count", 1, "%s.%s", name, op_keys[i]) ||
                  rp_bad_count(path, root, o, "ns", 1, "%s.%s", name, op_keys[i]) ||
                  rp_bad_count(path, root, o, "bytes", 0, "%s.%s", name, op_keys[i]) ||
                  rp_bad_count(path, root, o, "teams_max", 0, "%s.%s", name, op_keys[i])))
            return 1;
    }
    return 0;
}

int rp_devices_check(const char *path, json_t *root)
{
    json_t *devices = json_object_get(root, "devices"), *d, *r;
    size_t i, j;
    char name[64];
    if (devices && !json_is_array(devices)) {
        rp_say_at(path, root, devices, "\"devices\" is not an array");
        return -1;
    }
    json_array_foreach(devices, i, d) {
        snprintf(name, sizeof name, "devices[%zu]", i);
        json_t *regions = json_object_get(d, "regions");
        if (rp_bad_count(path, root, d, "device", 1, "%s", name) ||
            rp_bad_count(path, root, d, "modules", 0, "%s", name))
            return -1;
        snprintf(name, sizeof name, "devices[%zu].total", i);
        if (bad_ops(path, root, json_object_get(d, "total"), name))
            return -1;
        if (regions && !json_is_array(regions)) {
            rp_say_at(path, root, regions, "devices[%zu].regions is not an array", i);
            return -1;
        }
        json_array_foreach(regions, j, r) {
            snprintf(name, sizeof name, "devices[%zu].regions[%zu]", i, j);
            if (rp_bad_count(path, root, r, "region", 1, "%s", name) ||
                bad_ops(path, root, r, name))
                return -1;
        }
        json_t *outside = json_object_get(d, "outside_targets");
        snprintf(name, sizeof name, "devices[%zu].outside_targets", i);
        if (outside && bad_ops(path, root, outside, name))
            return -1;
        /* host timing: every operation is in one row, the target construct's
         * or the one outside them (a traced device's total is its records') */
        const char *timing = json_string_value(json_object_get(d, "timing"));
        for (size_t k = 0; timing && strcmp(timing, "host") == 0 && k < NOPS; k++) {
            double rows = num(json_object_get(outside, op_keys[k]), "count");
            json_array_foreach(regions, j, r)
                rows += num(json_object_get(r, op_keys[k]), "count");
            double total = num(json_object_get(json_object_get(d, "total"), op_keys[k]), "count");
            if (rows != total) {
                rp_say_at(path, root, d,
                          "devices[%zu]: %.0f %s operations in total, %.0f in the rows per target "
                          "construct and outside them",
                          i, total, op_keys[k], rows);
                return -1;
            }
        }
    }
    return 0;
}
