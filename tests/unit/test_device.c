/* Device events without a runtime: the bridge's device and EMI target
 * callbacks called in the order libomptarget calls them, and OMPT device
 * tracing through a fake device whose entry points the test provides
 * (LLVM 19 offers none, so no real runtime can exercise that path here). */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <pomplib.h>

#include "bridge_callbacks.h"
#include "bridge_thread.h"
#include "pomp_clock.h"
#include "devices_output.h"
#include "pomp_devices.h"
#include "pomp_merge.h"
#include "pomp_region.h"
#include "pomp_thread.h"

static void setup(void)
{
    setenv("POMP_OUTPUT_DIR", "/tmp/pomp-unit-test-output", 1);
    setenv("POMP_SUMMARY", "off", 1);
    POMP_Init();
}

TestSuite(device, .init = setup);

/* profile.json's "devices" array as the library would write it now. */
static char *devices_json(void)
{
    struct pomp_run run = {.clock = {.ticks_per_ns = 1.0, .source = "test"}};
    cr_assert_eq(pomp_merge(&run.profile), 0);
    pomp_devices_snapshot(run.devices);
    char *text = NULL;
    size_t size = 0;
    FILE *f = open_memstream(&text, &size);
    pomp_devices_write_json(f, &run);
    fclose(f);
    pomp_merged_free(&run.profile);
    return text;
}

static struct pomp_thread *stream_of(int device, uint32_t host)
{
    uint32_t n;
    for (struct pomp_thread *t = pomp_thread_list(&n); t; t = t->next)
        if (t->device == device && t->host_thread == host)
            return t;
    return NULL;
}

static const char target_site[1], data_site[1];

/* target data + one kernel, as libomptarget 19 reports them on the encountering thread */
Test(device, emi_target_ops_on_the_device_stream)
{
    bridge_on_device_initialize(1, "generic-64bit", NULL, NULL, NULL);
    bridge_on_device_load(1, "app", 0, NULL, 0, NULL, NULL, 1);
    ompt_data_t task = {0}, target_task = {0}, target = {0};
    ompt_id_t op = 0;
    bridge_on_target_emi(ompt_target, ompt_scope_begin, 1, &task, &target_task, &target, target_site);
    bridge_on_target_data_op_emi(ompt_scope_begin, &target_task, &target, &op,
                                 ompt_target_data_transfer_to_device, NULL, 4, NULL, 1, 4096, data_site);
    bridge_on_target_data_op_emi(ompt_scope_end, &target_task, &target, &op,
                                 ompt_target_data_transfer_to_device, NULL, 4, NULL, 1, 4096, data_site);
    bridge_on_target_submit_emi(ompt_scope_begin, &target, &op, 3);
    bridge_on_target_submit_emi(ompt_scope_end, &target, &op, 3);
    bridge_on_target_data_op_emi(ompt_scope_begin, &target_task, &target, &op,
                                 ompt_target_data_transfer_from_device, NULL, 1, NULL, 4, 512, data_site);
    bridge_on_target_data_op_emi(ompt_scope_end, &target_task, &target, &op,
                                 ompt_target_data_transfer_from_device, NULL, 1, NULL, 4, 512, data_site);
    bridge_on_target_emi(ompt_target, ompt_scope_end, 1, &task, &target_task, &target, target_site);

    struct pomp_thread *host = pomp_tls_thread;
    cr_assert_not_null(host);
    struct pomp_thread *s = stream_of(1, host->index);
    cr_assert_not_null(s, "a device stream for (this thread, device 1)");
    cr_assert_eq(s->profile.depth, 1, "everything closed on the stream");
    cr_assert_eq(s->profile.nesting_errors, 0);
    /* the stream's share of the target region, with three operations in it */
    struct pomp_node *share = s->profile.root.first_child;
    cr_assert_not_null(share);
    cr_assert_str_eq(share->region->ctc.type, "target");
    cr_assert_eq(share->fork, host->profile.root.first_child, "merges under the host's target node");
    int ops = 0;
    for (struct pomp_node *n = share->first_child; n; n = n->next_sibling)
        ops++;
    cr_assert_eq(ops, 3);

    char *json = devices_json();
    cr_assert_not_null(strstr(json, "\"device\": 1, \"type\": \"generic-64bit\", \"timing\": \"host\""), "%s", json);
    cr_assert_not_null(strstr(json, "\"to_device\": {\"count\": 1"), "%s", json);
    cr_assert_not_null(strstr(json, "\"bytes\": 4096"), "%s", json);
    cr_assert_not_null(strstr(json, "\"bytes\": 512"), "%s", json);
    cr_assert_not_null(strstr(json, "\"teams_max\": 3"), "%s", json);
    cr_assert_not_null(strstr(json, "returned NULL for ompt_set_trace_ompt"), "the note: %s", json);
    free(json);
}

/* ---- a fake device that traces itself ---- */

static ompt_callback_buffer_request_t fake_request;
static ompt_callback_buffer_complete_t fake_complete;
static ompt_device_time_t fake_now = 5000000; /* device ns */
static int fake_started, fake_flushed;

static ompt_set_result_t fake_set_trace(ompt_device_t *d, unsigned int enable, unsigned int etype)
{
    (void)d;
    (void)enable;
    (void)etype;
    return ompt_set_always;
}
static int fake_start(ompt_device_t *d, ompt_callback_buffer_request_t req, ompt_callback_buffer_complete_t done)
{
    (void)d;
    fake_request = req;
    fake_complete = done;
    fake_started = 1;
    return 1;
}
static int fake_stop(ompt_device_t *d) { (void)d; return 1; }
static int fake_flush(ompt_device_t *d) { (void)d; fake_flushed++; return 1; }
static ompt_record_ompt_t *fake_record(ompt_buffer_t *b, ompt_buffer_cursor_t cur)
{
    return (ompt_record_ompt_t *)b + cur;
}
static int fake_advance(ompt_device_t *d, ompt_buffer_t *b, size_t size, ompt_buffer_cursor_t cur,
                        ompt_buffer_cursor_t *next)
{
    (void)d;
    (void)b;
    *next = cur + 1;
    return *next < size / sizeof(ompt_record_ompt_t);
}
static ompt_device_time_t fake_time(ompt_device_t *d) { (void)d; return fake_now; }
/* device ns to host seconds: the device clock runs at the host's rate, offset by 1 s */
static double fake_translate(ompt_device_t *d, ompt_device_time_t t) { (void)d; return 1.0 + (double)t * 1e-9; }

static ompt_interface_fn_t fake_lookup(const char *name)
{
    static const struct { const char *name; ompt_interface_fn_t fn; } fns[] = {
        {"ompt_set_trace_ompt", (ompt_interface_fn_t)fake_set_trace},
        {"ompt_start_trace", (ompt_interface_fn_t)fake_start},
        {"ompt_stop_trace", (ompt_interface_fn_t)fake_stop},
        {"ompt_flush_trace", (ompt_interface_fn_t)fake_flush},
        {"ompt_get_record_ompt", (ompt_interface_fn_t)fake_record},
        {"ompt_advance_buffer_cursor", (ompt_interface_fn_t)fake_advance},
        {"ompt_get_device_time", (ompt_interface_fn_t)fake_time},
        {"ompt_translate_time", (ompt_interface_fn_t)fake_translate},
    };
    for (size_t i = 0; i < sizeof fns / sizeof *fns; i++)
        if (strcmp(name, fns[i].name) == 0)
            return fns[i].fn;
    return NULL;
}

Test(device, device_tracing_records_with_device_times)
{
    static char fake_device;
    bridge_on_device_initialize(2, "fake-gpu", (ompt_device_t *)&fake_device, fake_lookup, NULL);
    cr_assert(fake_started, "tracing started when every entry point is offered");
    struct pomp_thread *s = stream_of(2, POMP_STREAM_DEVICE_TRACE);
    cr_assert_not_null(s, "the device's trace stream");
    /* the host clock's rate comes from the time since tracing started */
    struct timespec pause = {0, 3000000};
    nanosleep(&pause, NULL);

    ompt_buffer_t *buffer;
    size_t bytes;
    fake_request(2, &buffer, &bytes);
    cr_assert_not_null(buffer);
    cr_assert_geq(bytes, 2 * sizeof(ompt_record_ompt_t));
    ompt_record_ompt_t *rec = (ompt_record_ompt_t *)buffer;
    memset(rec, 0, 2 * sizeof *rec);
    rec[0].type = ompt_callback_target_data_op;
    rec[0].time = fake_now - 300000; /* 300 us ago, lasting 100 us */
    rec[0].record.target_data_op.optype = ompt_target_data_transfer_to_device;
    rec[0].record.target_data_op.bytes = 65536;
    rec[0].record.target_data_op.end_time = fake_now - 200000;
    rec[0].record.target_data_op.codeptr_ra = data_site;
    rec[1].type = ompt_callback_target_submit;
    rec[1].time = fake_now - 150000; /* 100 us */
    rec[1].record.target_kernel.granted_num_teams = 80;
    rec[1].record.target_kernel.end_time = fake_now - 50000;
    fake_complete(2, buffer, 2 * sizeof *rec, 0, 1);

    cr_assert_eq(s->profile.depth, 1);
    struct pomp_node *transfer = NULL, *kernel = NULL;
    for (struct pomp_node *n = s->profile.root.first_child; n; n = n->next_sibling) {
        if (strcmp(n->region->ctc.type, "transfer to device") == 0)
            transfer = n;
        if (strcmp(n->region->ctc.type, "kernel") == 0)
            kernel = n;
    }
    cr_assert_not_null(transfer);
    cr_assert_not_null(kernel);
    cr_assert_eq(transfer->visits, 1);
    cr_assert_eq(transfer->values->stat[0].sum, 65536);
    cr_assert_eq(kernel->values->stat[0].sum, 80, "granted teams");
    /* durations from the device's clock: 100 us each, in host ticks */
    struct pomp_clock clk;
    pomp_clock_init(&clk);
    pomp_clock_calibrate(&clk);
    double us = pomp_ticks_to_ns(&clk, transfer->incl) / 1000;
    cr_assert(us > 80 && us < 120, "transfer took %.1f us of device time", us);
    us = pomp_ticks_to_ns(&clk, kernel->incl) / 1000;
    cr_assert(us > 80 && us < 120, "kernel took %.1f us of device time", us);

    bridge_on_device_load(2, "app", 0, NULL, 0, NULL, NULL, 1);
    char *json = devices_json();
    cr_assert_not_null(strstr(json, "\"device\": 2, \"type\": \"fake-gpu\", \"timing\": \"device\""), "%s", json);
    cr_assert_not_null(strstr(json, "\"bytes\": 65536"), "%s", json);
    free(json);
    bridge_on_device_finalize(2);
    cr_assert_eq(fake_flushed, 1, "the last buffers are flushed at device finalize");
}
