/* OMPT device tracing: where the runtime offers ompt_set_trace_ompt,
 * ompt_start_trace and the buffer routines for a device, the device records
 * its kernels and data operations itself, with device timestamps, into
 * buffers the tool hands out (buffer request) and gets back full (buffer
 * complete). pomp reads each record once, translates its times to the host's
 * clock (ompt_translate_time), and puts it on the device's trace stream: one
 * more column of the profile and location of the traces (docs/devices.md).
 *
 * Where the entry points are missing (LLVM libomptarget 19 offers none, on
 * any plugin), the device's times stay those of the host callbacks around
 * each operation (bridge_device.c), and the output says so. */
#include "bridge_device.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bridge_record.h"
#include "pomp_record.h"

enum { TRACE_BUFFER_BYTES = 1 << 20 };

struct traced_device {
    int on;
    ompt_device_t *device;
    ompt_get_device_time_t get_time;
    ompt_translate_time_t translate;
    ompt_get_record_ompt_t get_record;
    ompt_advance_buffer_cursor_t advance;
    ompt_flush_trace_t flush;
    ompt_stop_trace_t stop;
    /* buffers may complete on any thread: the device's stream is written under the lock */
    pthread_mutex_t lock;
    struct pomp_thread *stream;
    uint64_t anchor_ticks, anchor_mono_ns; /* host clock pair at the start: the tick rate */
    uint64_t last_ticks;                   /* end of the latest record: a stream's time never goes back */
};
static struct traced_device traced[POMP_MAX_DEVICES];

static void on_buffer_request(int device_num, ompt_buffer_t **buffer, size_t *bytes)
{
    /* the runtime asks outside the application's events: an allocation is fine here */
    *buffer = malloc(TRACE_BUFFER_BYTES);
    *bytes = *buffer ? TRACE_BUFFER_BYTES : 0;
    (void)device_num;
}

/* A device time in host ticks: the host clock pair taken now against the
 * device's time now, both in seconds of the host's time base. */
struct time_map {
    uint64_t ticks;
    double seconds, ticks_per_s;
};

static uint64_t host_ticks(const struct traced_device *t, const struct time_map *map,
                           ompt_device_time_t time)
{
    double ago = (map->seconds - t->translate(t->device, time)) * map->ticks_per_s;
    return ago <= 0 ? map->ticks : ago >= (double)map->ticks ? 0 : map->ticks - (uint64_t)ago;
}

static void trace_op(struct traced_device *t, enum pomp_device_op op, const void *codeptr,
                     uint64_t start, uint64_t end, int64_t value)
{
    struct POMP_Region_s *r = bridge_region((enum bridge_construct)(BC_DEVICE_OP + op), codeptr);
    if (!r || r->filtered_out)
        return;
    if (start < t->last_ticks) /* overlapping operations: a location's time runs forward */
        start = t->last_ticks;
    if (end < start)
        end = start;
    t->last_ticks = end;
    bridge_stream_open(t->stream, r, NULL, start, POMP_EV_OMPT_DEVICE_OP_ENTER, (uint64_t)value);
    bridge_stream_close(t->stream, r, end, POMP_EV_OMPT_DEVICE_OP_EXIT, pomp_device_op_value(op), value);
}

static void on_buffer_complete(int device_num, ompt_buffer_t *buffer, size_t bytes,
                               ompt_buffer_cursor_t begin, int buffer_owned)
{
    struct traced_device *t =
        device_num >= 0 && device_num < POMP_MAX_DEVICES && traced[device_num].on ? &traced[device_num]
                                                                                 : NULL;
    if (t && bytes && bridge_measuring() >= 0) {
        pthread_mutex_lock(&t->lock);
        struct time_map map = {.ticks = pomp_now(), .seconds = t->translate(t->device, t->get_time(t->device))};
        uint64_t mono = pomp_monotonic_ns();
        map.ticks_per_s = mono > t->anchor_mono_ns + 1000000
                              ? (double)(map.ticks - t->anchor_ticks) / ((double)(mono - t->anchor_mono_ns) * 1e-9)
                              : 0;
        ompt_buffer_cursor_t cur = begin, next;
        for (int more = 1; more && map.ticks_per_s > 0; cur = next) {
            ompt_record_ompt_t *rec = t->get_record(buffer, cur);
            if (rec && rec->type == ompt_callback_target_data_op) {
                const ompt_record_target_data_op_t *d = &rec->record.target_data_op;
                int op = bridge_device_data_op(d->optype);
                if (op >= 0)
                    trace_op(t, (enum pomp_device_op)op, d->codeptr_ra, host_ticks(t, &map, rec->time),
                             host_ticks(t, &map, d->end_time), (int64_t)d->bytes);
            } else if (rec && rec->type == ompt_callback_target_submit) {
                const ompt_record_target_kernel_t *k = &rec->record.target_kernel;
                trace_op(t, POMP_DEVICE_KERNEL, NULL, host_ticks(t, &map, rec->time),
                         host_ticks(t, &map, k->end_time), (int64_t)k->granted_num_teams);
            }
            more = t->advance(t->device, buffer, bytes, cur, &next) != 0 && next != cur;
        }
        pthread_mutex_unlock(&t->lock);
    }
    if (buffer_owned)
        free(buffer);
}

void bridge_device_trace_start(int device_num, const char *type, ompt_device_t *device,
                               ompt_function_lookup_t lookup)
{
    if (device_num < 0 || device_num >= POMP_MAX_DEVICES)
        return;
    static const char *const needed[] = {"ompt_set_trace_ompt", "ompt_start_trace",
                                         "ompt_stop_trace", "ompt_flush_trace",
                                         "ompt_get_record_ompt", "ompt_advance_buffer_cursor",
                                         "ompt_get_device_time", "ompt_translate_time"};
    enum { N = sizeof needed / sizeof *needed };
    ompt_interface_fn_t fn[N];
    char missing[256] = "";
    for (size_t i = 0; i < N; i++) {
        fn[i] = lookup ? lookup(needed[i]) : NULL;
        if (!fn[i]) {
            size_t n = strlen(missing);
            snprintf(missing + n, sizeof missing - n, "%s%s", n ? ", " : "", needed[i]);
        }
    }
    char note[512];
    if (*missing) {
        snprintf(note, sizeof note,
                 "no OMPT device tracing: the runtime returned NULL for %s; times are the host's "
                 "at the callbacks around each operation", missing);
        pomp_device_initialized(device_num, type, POMP_DEVICE_TIMING_HOST, note);
        return;
    }
    if (!pomp_config()->device_tracing) {
        pomp_device_initialized(device_num, type, POMP_DEVICE_TIMING_HOST,
                                "OMPT device tracing is offered, but POMP_DEVICE_TRACING=off: times "
                                "are the host's at the callbacks around each operation");
        return;
    }
    struct traced_device *t = &traced[device_num];
    *t = (struct traced_device){
        .device = device,
        .get_time = (ompt_get_device_time_t)fn[6],
        .translate = (ompt_translate_time_t)fn[7],
        .get_record = (ompt_get_record_ompt_t)fn[4],
        .advance = (ompt_advance_buffer_cursor_t)fn[5],
        .flush = (ompt_flush_trace_t)fn[3],
        .stop = (ompt_stop_trace_t)fn[2],
        .anchor_ticks = pomp_now(),
        .anchor_mono_ns = pomp_monotonic_ns(),
    };
    pthread_mutex_init(&t->lock, NULL);
    ompt_set_trace_ompt_t set_trace = (ompt_set_trace_ompt_t)fn[0];
    ompt_start_trace_t start = (ompt_start_trace_t)fn[1];
    t->stream = pomp_thread_register_stream(device_num, POMP_STREAM_DEVICE_TRACE);
    if (t->stream && set_trace(device, 1, ompt_callback_target_data_op) != ompt_set_error &&
        set_trace(device, 1, ompt_callback_target_submit) != ompt_set_error) {
        t->on = 1;
        if (start(device, on_buffer_request, on_buffer_complete)) {
            pomp_device_initialized(device_num, type, POMP_DEVICE_TIMING_DEVICE,
                                    "device times from OMPT device tracing, translated to the "
                                    "host clock");
            return;
        }
        t->on = 0;
    }
    pomp_device_initialized(device_num, type, POMP_DEVICE_TIMING_HOST,
                            "OMPT device tracing could not be started; times are the host's at "
                            "the callbacks around each operation");
}

void bridge_device_trace_flush_all(void)
{
    for (int d = 0; d < POMP_MAX_DEVICES; d++)
        if (traced[d].on)
            traced[d].flush(traced[d].device);
}

void bridge_device_trace_stop(int device_num)
{
    if (device_num < 0 || device_num >= POMP_MAX_DEVICES || !traced[device_num].on)
        return;
    struct traced_device *t = &traced[device_num];
    t->flush(t->device); /* the last buffers complete now */
    t->stop(t->device);
    t->on = 0;
}
