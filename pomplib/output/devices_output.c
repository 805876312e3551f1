/* The figures per device and per target region, summed from the device
 * streams' columns of the merged profile: profile.json's "devices" and the
 * summary's device lines. */
#include "devices_output.h"
#include "pomp_json.h"

#include <stdlib.h>
#include <string.h>

struct op_sum {
    uint64_t count, ticks;
    int64_t bytes, teams_max;
};

/* Figures of one device under one target region (region NULL: the device's
 * total; OUTSIDE: the operations under no target construct). */
struct device_row {
    int device;
    const struct pomp_run_region *region;
    struct op_sum op[POMP_DEVICE_OPS];
};

/* The row of a device's operations outside every target construct
 * (omp_target_memcpy, omp_target_alloc in host code): a region of no one's. */
static const struct pomp_run_region outside_targets;
#define OUTSIDE (&outside_targets)

struct device_sums {
    struct device_row *rows;  /* the totals (one per device that did anything), then per region */
    size_t n, cap;
    uint32_t streams[POMP_MAX_DEVICES];
};

static struct device_row *row_of(struct device_sums *s, int device, const struct pomp_run_region *r)
{
    for (size_t i = 0; i < s->n; i++)
        if (s->rows[i].device == device && s->rows[i].region == r)
            return &s->rows[i];
    if (s->n == s->cap) {
        size_t cap = s->cap ? 2 * s->cap : 16;
        struct device_row *rows = realloc(s->rows, cap * sizeof *rows);
        if (!rows)
            return NULL;
        s->rows = rows;
        s->cap = cap;
    }
    s->rows[s->n] = (struct device_row){.device = device, .region = r};
    return &s->rows[s->n++];
}

static int64_t value_sum(const struct pomp_value_block *b, enum pomp_value_kind kind, int64_t *max)
{
    for (; b; b = b->next)
        if (b->kind == kind && b->npos > 0) {
            if (max)
                *max = b->stat[0].max;
            return b->stat[0].sum;
        }
    return 0;
}

static void add_op(struct op_sum *o, const struct pomp_stat *st)
{
    int64_t teams = 0;
    o->count += st->visits + st->begins;
    o->ticks += st->incl;
    o->bytes += value_sum(st->values, POMP_VALUES_BYTES, NULL);
    value_sum(st->values, POMP_VALUES_TEAMS, &teams);
    if (teams > o->teams_max)
        o->teams_max = teams;
}

/* Sums every device stream's operations per device and per (device, the
 * region the operation ran under). Returns -1 if memory ran out. */
static int sum_devices(const struct pomp_run *run, struct device_sums *s)
{
    const struct pomp_merged *m = &run->profile;
    memset(s, 0, sizeof *s);
    for (uint32_t t = 0; t < m->nthreads; t++)
        if (m->threads[t].device >= 0 && m->threads[t].device < POMP_MAX_DEVICES)
            s->streams[m->threads[t].device]++;
    for (size_t i = 1; i < m->count; i++) {
        const struct pomp_mnode *n = &m->nodes[i];
        int op = n->region ? pomp_device_op_of_type(n->region->ctc.type) : -1;
        if (op < 0)
            continue;
        const struct pomp_run_region *under = m->nodes[n->parent].region;
        for (uint32_t t = 0; t < m->nthreads; t++) {
            const struct pomp_run_thread *th = &m->threads[t];
            const struct pomp_stat *st = pomp_merged_stat(m, i, t);
            if (th->device < 0 || th->device >= POMP_MAX_DEVICES || (!st->visits && !st->begins))
                continue;
            /* a traced device's totals are its own records (device times);
             * per target region, only the host callbacks know the construct */
            int traced = th->host_thread == POMP_STREAM_DEVICE_TRACE;
            if (traced == (run->devices[th->device].timing == POMP_DEVICE_TIMING_DEVICE)) {
                struct device_row *total = row_of(s, th->device, NULL);
                if (!total)
                    return -1;
                add_op(&total->op[op], st);
            }
            /* per target construct (the stream's region open around it),
             * or outside them (the stream's root): a transfer of an
             * omp_target_memcpy in host code was in no row, unsaid */
            if (!traced) {
                struct device_row *per = row_of(s, th->device, under ? under : OUTSIDE);
                if (!per)
                    return -1;
                add_op(&per->op[op], st);
            }
        }
    }
    return 0;
}

static int device_listed(const struct pomp_run *run, const struct device_sums *s, int d)
{
    if (run->devices[d].modules)
        return 1;
    for (size_t i = 0; i < s->n; i++)
        if (s->rows[i].device == d)
            return 1;
    return 0;
}

static void write_ops(FILE *f, const struct op_sum *o, const struct pomp_clock *clk)
{
    int first = 1;
    for (int k = 0; k < POMP_DEVICE_OPS; k++) {
        if (!o[k].count)
            continue;
        fprintf(f, "%s\"%s\": {\"count\": %llu, \"ns\": %.0f", first ? "" : ", ", pomp_device_op_key((enum pomp_device_op)k),
                (unsigned long long)o[k].count, pomp_ticks_to_ns(clk, o[k].ticks));
        int value = pomp_device_op_value((enum pomp_device_op)k);
        if (value == POMP_VALUES_TEAMS)
            fprintf(f, ", \"teams_max\": %lld", (long long)o[k].teams_max);
        else if (value == POMP_VALUES_BYTES)
            fprintf(f, ", \"bytes\": %lld", (long long)o[k].bytes);
        fputc('}', f);
        first = 0;
    }
}

void pomp_devices_write_json(FILE *f, const struct pomp_run *run)
{
    const struct pomp_merged *m = &run->profile;
    const struct pomp_clock *clk = &run->clock;
    struct device_sums s;
    if (sum_devices(run, &s) != 0) {
        free(s.rows);
        return;
    }
    int any = 0;
    for (int d = 0; d < POMP_MAX_DEVICES; d++) {
        if (!device_listed(run, &s, d))
            continue;
        const struct pomp_run_device *info = &run->devices[d];
        fprintf(f, "%s\n    {\"device\": %d, \"type\": ", any ? "," : "  \"devices\": [", d);
        pomp_json_string(f, info->type);
        fprintf(f, ", \"timing\": \"%s\", \"note\": ",
                info->timing == POMP_DEVICE_TIMING_DEVICE ? "device" : "host");
        pomp_json_string(f, info->note);
        fprintf(f, ", \"modules\": %u, \"streams\": [", info->modules);
        int first = 1;
        for (uint32_t t = 0; t < m->nthreads; t++)
            if (m->threads[t].device == d) {
                fprintf(f, "%s%u", first ? "" : ", ", t);
                first = 0;
            }
        fputs("], \"total\": {", f);
        for (size_t i = 0; i < s.n; i++)
            if (s.rows[i].device == d && !s.rows[i].region)
                write_ops(f, s.rows[i].op, clk);
        fputs("}, \"regions\": [", f);
        first = 1;
        for (size_t i = 0; i < s.n; i++) {
            const struct device_row *r = &s.rows[i];
            if (r->device != d || !r->region || r->region == OUTSIDE)
                continue;
            fprintf(f, "%s\n      {\"region\": %u, ", first ? "" : ",", r->region->id);
            write_ops(f, r->op, clk);
            fputc('}', f);
            first = 0;
        }
        fputs(first ? "]" : "\n    ]", f);
        for (size_t i = 0; i < s.n; i++)
            if (s.rows[i].device == d && s.rows[i].region == OUTSIDE) {
                fputs(", \"outside_targets\": {", f);
                write_ops(f, s.rows[i].op, clk);
                fputc('}', f);
            }
        fputc('}', f);
        any = 1;
    }
    if (any)
        fputs("\n  ],\n", f);
    free(s.rows);
}

void pomp_devices_summary(FILE *f, const struct pomp_run *run)
{
    const struct pomp_clock *clk = &run->clock;
    struct device_sums s;
    if (sum_devices(run, &s) != 0) {
        free(s.rows);
        return;
    }
    for (size_t i = 0; i < s.n; i++) {
        const struct device_row *r = &s.rows[i];
        if (r->region)
            continue;
        const struct pomp_run_device *info = &run->devices[r->device];
        fprintf(f, "pomp: device %d%s%s%s:", r->device, *info->type ? " (" : "", info->type,
                *info->type ? ")" : "");
        const struct op_sum *k = &r->op[POMP_DEVICE_KERNEL];
        fprintf(f, " %llu kernel%s %.3f ms", (unsigned long long)k->count, k->count == 1 ? "" : "s",
                pomp_ticks_to_ns(clk, k->ticks) / 1e6);
        for (int op = POMP_DEVICE_TO; op <= POMP_DEVICE_FROM; op++)
            fprintf(f, ", %s %lld bytes in %.3f ms", op == POMP_DEVICE_TO ? "to device" : "from device",
                    (long long)r->op[op].bytes, pomp_ticks_to_ns(clk, r->op[op].ticks) / 1e6);
        fprintf(f, " (%s times)\n", info->timing == POMP_DEVICE_TIMING_DEVICE ? "device" : "host-observed");
    }
    free(s.rows);
}
