/* Target offloading: what the runtime reports about devices (OMPT 5.1 device
 * and EMI target callbacks), on two timelines.
 *
 * - The host thread that encounters a target construct: the construct itself,
 *   as POMP's region when the code is instrumented (counted once), else as a
 *   region of the bridge's at the construct's code address.
 * - A device stream per (host thread, device) (pomp_thread_register_stream):
 *   the construct again as the device sees it, and inside it each data
 *   operation (alloc, transfer to/from device with its bytes, delete) and
 *   kernel launch (with the teams requested). A stream's share of a construct
 *   merges under the host's node of that construct, so the profile shows the
 *   device's column beside the host threads; in the traces a stream is a
 *   location of its own. Only its host thread writes a stream: no lock.
 *
 * Times are the host clock at the begin and end callbacks around each
 * operation (the host waits for a synchronous one). Device-side timestamps
 * need OMPT device tracing (bridge_device_trace.c), where the runtime offers it. */
#include <string.h>

#include "bridge_callbacks.h"
#include "bridge_device.h"
#include "pomp_record.h"
#include "bridge_record.h"

/* The device stream of (this thread, device); NULL beyond BRIDGE_MAX_DEVICES or out of memory. */
static struct pomp_thread *stream_of(struct bridge_thread *b, int device)
{
    if (device < 0 || device >= BRIDGE_MAX_DEVICES)
        return NULL;
    if (__builtin_expect(b->streams[device] == NULL, 0)) {
        struct pomp_thread *host = bridge_pomp_thread(b);
        if (host) /* once per (thread, device), like a thread's registration */
            b->streams[device] = pomp_thread_register_stream(device, host->index);
    }
    return b->streams[device];
}

void bridge_stream_open(struct pomp_thread *s, struct POMP_Region_s *r, const struct pomp_node *fork,
                        uint64_t now, unsigned kind, uint64_t arg)
{
    int off = bridge_measuring() == 0;
    if (!pomp_thread_write_begin(s))
        return;
    int32_t rc = s->profile.depth <= 1 && fork ? pomp_profile_team_begin(&s->profile, r, fork, now, off)
                                               : pomp_profile_enter(&s->profile, r, now, off);
    if (rc != POMP_PROFILE_SKIPPED && s->log.buf)
        pomp_eventlog_put(&s->log, now, r->id, kind, POMP_PHASE_ENTER, POMP_GROUP_TARGET, arg);
    pomp_thread_write_end(s);
}

void bridge_stream_close(struct pomp_thread *s, struct POMP_Region_s *r, uint64_t now, unsigned kind,
                         int value_kind, int64_t value)
{
    struct pomp_profile *p = &s->profile;
    if (!pomp_thread_write_begin(s))
        return;
    if (value_kind >= 0 && p->depth > 1 && !p->too_deep && p->frames[p->depth - 1].region == r &&
        !p->frames[p->depth - 1].skipped)
        pomp_values_add(&p->values, p->frames[p->depth - 1].node, (enum pomp_value_kind)value_kind,
                        1, &value);
    if (pomp_profile_exit(p, r, now) != POMP_PROFILE_SKIPPED && s->log.buf)
        pomp_eventlog_put(&s->log, now, r->id, kind, POMP_PHASE_EXIT, POMP_GROUP_TARGET,
                          value < 0 ? 0 : (uint64_t)value);
    pomp_thread_write_end(s);
}

static enum bridge_construct target_construct(ompt_target_t kind)
{
    switch (kind & 7) { /* the nowait kinds are the plain ones + 8 */
    case ompt_target_enter_data: return BC_TARGET_ENTER_DATA;
    case ompt_target_exit_data: return BC_TARGET_EXIT_DATA;
    case ompt_target_update: return BC_TARGET_UPDATE;
    default: return BC_TARGET;
    }
}

/* POMP's target construct, entered on this thread and not yet ended: the
 * runtime reports the construct the instrumentation has open (target data's
 * mapping at its start and at its end included). */
static struct pomp_frame *pomp_target_open(struct bridge_thread *b)
{
    struct pomp_frame *f = bridge_top_frame(b);
    if (!f || !f->entered || f->in_body || !f->region || f->region->init_kind == POMP_INIT_OMPT ||
        !f->region->ctc.type || strncmp(f->region->ctc.type, "target", 6) != 0)
        return NULL;
    return f;
}

void bridge_on_target_emi(ompt_target_t kind, ompt_scope_endpoint_t endpoint, int device_num,
                          ompt_data_t *task_data, ompt_data_t *target_task_data,
                          ompt_data_t *target_data, const void *codeptr_ra)
{
    (void)task_data;
    (void)target_task_data;
    (void)target_data;
    struct bridge_thread *b;
    if (!bridge_records(POMP_GROUP_TARGET, BR_ENTER_EXIT) || bridge_measuring() < 0 ||
        !(b = bridge_self()))
        return;
    uint64_t now = pomp_now();
    if (endpoint == ompt_scope_end) {
        struct bridge_scope *s = bridge_scope_pop(b, SCOPE_TARGET);
        if (!s)
            return;
        if (s->stream && s->on_stream)
            bridge_stream_close(s->stream, s->on_stream, now, POMP_EV_TARGET_EXIT, -1, 0);
        if (s->region)
            bridge_record(b, BR_EXIT, s->region, now, POMP_EV_TARGET_EXIT);
        return;
    }
    struct bridge_scope *s = bridge_scope_push(b, SCOPE_TARGET);
    if (!s)
        return;
    s->task = codeptr_ra;
    s->device = device_num;
    s->start = now;
    struct pomp_frame *f = pomp_target_open(b);
    struct POMP_Region_s *r = f ? f->region : NULL;
    if (!r) { /* not instrumented: the bridge's region at the construct's address */
        r = s->region = bridge_region(target_construct(kind), codeptr_ra);
        bridge_record(b, BR_ENTER, r, now, POMP_EV_TARGET_ENTER);
        f = bridge_top_frame(b);
    }
    /* the stream's share merges under the host's node of the same region */
    if (!f || !r || f->region != r || !(s->stream = stream_of(b, device_num)))
        return;
    s->on_stream = r;
    bridge_stream_open(s->stream, r, f->node, now, POMP_EV_TARGET_ENTER, (uint64_t)device_num);
}

/* The innermost target construct open on this thread, or NULL. */
static struct bridge_scope *open_target(struct bridge_thread *b)
{
    for (uint32_t i = b->lost_scopes ? 0 : b->nscopes; i-- > 0;)
        if (b->scope[i].kind == SCOPE_TARGET)
            return &b->scope[i];
    return NULL;
}

static void device_op_begin(struct bridge_thread *b, enum pomp_device_op op, int device,
                            const void *codeptr, uint64_t arg)
{
    uint64_t now = pomp_now();
    struct bridge_scope *target = open_target(b);
    struct pomp_thread *stream = target && target->stream ? target->stream : stream_of(b, device);
    if (!codeptr && target)
        codeptr = target->task; /* a kernel launch has no address of its own */
    struct bridge_scope *s = bridge_scope_push(b, SCOPE_DEVICE_OP);
    if (!s || !stream)
        return;
    /* inside an instrumented construct, at its place; else at the code address */
    enum bridge_construct c = (enum bridge_construct)(BC_DEVICE_OP + op);
    const struct POMP_Region_s *pomp = target ? target->on_stream : NULL;
    struct POMP_Region_s *r = pomp && pomp->init_kind != POMP_INIT_OMPT ? bridge_region_at(c, pomp)
                                                                        : bridge_region(c, codeptr);
    if (!r || r->filtered_out)
        return;
    s->stream = stream;
    s->on_stream = r;
    s->detail = (uint8_t)op;
    bridge_stream_open(stream, r, NULL, now, POMP_EV_OMPT_DEVICE_OP_ENTER, arg);
}

static void device_op_end(struct bridge_thread *b, int64_t value)
{
    uint64_t now = pomp_now();
    struct bridge_scope *s = bridge_scope_pop(b, SCOPE_DEVICE_OP);
    if (!s || !s->stream || !s->on_stream)
        return;
    bridge_stream_close(s->stream, s->on_stream, now, POMP_EV_OMPT_DEVICE_OP_EXIT,
                        pomp_device_op_value((enum pomp_device_op)s->detail), value);
}

int bridge_device_data_op(ompt_target_data_op_t optype)
{
    switch (optype & 15) { /* the async kinds are the plain ones + 16 */
    case ompt_target_data_alloc: return POMP_DEVICE_ALLOC;
    case ompt_target_data_transfer_to_device: return POMP_DEVICE_TO;
    case ompt_target_data_transfer_from_device: return POMP_DEVICE_FROM;
    case ompt_target_data_delete: return POMP_DEVICE_DELETE;
    case ompt_target_data_associate: return POMP_DEVICE_ASSOCIATE;
    case ompt_target_data_disassociate: return POMP_DEVICE_DISASSOCIATE;
    default: return -1;
    }
}

void bridge_on_target_data_op_emi(ompt_scope_endpoint_t endpoint, ompt_data_t *target_task_data,
                                  ompt_data_t *target_data, ompt_id_t *host_op_id,
                                  ompt_target_data_op_t optype, void *src_addr, int src_device_num,
                                  void *dest_addr, int dest_device_num, size_t bytes,
                                  const void *codeptr_ra)
{
    (void)target_task_data;
    (void)target_data;
    (void)host_op_id;
    (void)src_addr;
    (void)dest_addr;
    int op = bridge_device_data_op(optype);
    struct bridge_thread *b;
    if (op < 0 || !bridge_records(POMP_GROUP_TARGET, BR_ENTER_EXIT) || bridge_measuring() < 0 ||
        !(b = bridge_self()))
        return;
    if (endpoint == ompt_scope_end) {
        device_op_end(b, (int64_t)bytes);
        return;
    }
    /* the device is the target construct's; without one (omp_target_memcpy
     * and friends) the side that is not the host */
    struct bridge_scope *target = open_target(b);
    int device = target ? target->device
                 : op == POMP_DEVICE_FROM || op == POMP_DEVICE_DELETE ? src_device_num
                                                                      : dest_device_num;
    device_op_begin(b, (enum pomp_device_op)op, device, codeptr_ra, (uint64_t)bytes);
}

void bridge_on_target_submit_emi(ompt_scope_endpoint_t endpoint, ompt_data_t *target_data,
                                 ompt_id_t *host_op_id, unsigned int requested_num_teams)
{
    (void)target_data;
    (void)host_op_id;
    struct bridge_thread *b;
    if (!bridge_records(POMP_GROUP_TARGET, BR_ENTER_EXIT) || bridge_measuring() < 0 ||
        !(b = bridge_self()))
        return;
    if (endpoint == ompt_scope_end) {
        device_op_end(b, (int64_t)requested_num_teams);
        return;
    }
    struct bridge_scope *target = open_target(b);
    device_op_begin(b, POMP_DEVICE_KERNEL, target ? target->device : -1, NULL,
                    requested_num_teams);
}

/* ---- devices ---- */

void bridge_on_device_initialize(int device_num, const char *type, ompt_device_t *device,
                                 ompt_function_lookup_t lookup, const char *documentation)
{
    (void)documentation;
    /* a device: target tasks may be deferred in a final task (bridge_tool.c,
     * final_tasks_may_defer), also where the offloading library came late */
    pomp_fast_final_waits_stop();
    bridge_device_trace_start(device_num, type, device, lookup);
}

void bridge_on_device_finalize(int device_num)
{
    bridge_device_trace_stop(device_num);
    pomp_device_finalized(device_num);
}

void bridge_on_device_load(int device_num, const char *filename, int64_t offset_in_file,
                           void *vma_in_file, size_t bytes, void *host_addr, void *device_addr,
                           uint64_t module_id)
{
    (void)filename;
    (void)offset_in_file;
    (void)vma_in_file;
    (void)bytes;
    (void)host_addr;
    (void)device_addr;
    (void)module_id;
    pomp_device_loaded(device_num);
}
