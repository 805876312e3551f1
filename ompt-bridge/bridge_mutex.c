/* Mutual exclusion: the wait between mutex acquire and acquired becomes a
 * "wait" node under whatever region the thread is in (the critical region
 * itself when instrumented, the loop or parallel region that sets a lock).
 * An uninstrumented critical or ordered region gets its own frame from acquire
 * to released: enter at acquire, block from acquired, as POMP would have it.
 * Test locks never wait; nest locks taken again by their owner report
 * nest_lock instead of acquired. */
#include <stddef.h>

#include "bridge_callbacks.h"
#include "bridge_collector.h"
#include "bridge_record.h"

struct wait_kind {
    enum bridge_construct wait;
    enum pomp_group group;
    unsigned levels;
    OMP_COLLECTORAPI_EVENT begin; /* the collector API's wait events; end = begin + 1 */
};

static int wait_kind_of(ompt_mutex_t kind, struct wait_kind *w)
{
    switch (kind) {
    case ompt_mutex_lock:
        *w = (struct wait_kind){BC_WAIT_LOCK, POMP_GROUP_RUNTIME, POMP_LEVEL_ENTEREXIT,
                                OMP_EVENT_THR_BEGIN_LKWT};
        return 1;
    case ompt_mutex_nest_lock:
        *w = (struct wait_kind){BC_WAIT_NEST_LOCK, POMP_GROUP_RUNTIME, POMP_LEVEL_ENTEREXIT,
                                OMP_EVENT_THR_BEGIN_LKWT};
        return 1;
    case ompt_mutex_critical:
        *w = (struct wait_kind){BC_WAIT_CRITICAL, POMP_GROUP_SYNC, BR_ENTER_EXIT,
                                OMP_EVENT_THR_BEGIN_CTWT};
        return 1;
    case ompt_mutex_ordered:
        *w = (struct wait_kind){BC_WAIT_ORDERED, POMP_GROUP_SYNC, BR_ENTER_EXIT,
                                OMP_EVENT_THR_BEGIN_ODWT};
        return 1;
    case ompt_mutex_atomic:
        *w = (struct wait_kind){BC_WAIT_ATOMIC, POMP_GROUP_SYNC, BR_ENTER_EXIT,
                                OMP_EVENT_THR_BEGIN_ATWT};
        return 1;
    default:
        return 0; /* test locks: no wait */
    }
}

/* critical and ordered: the construct itself, for uninstrumented code. */
struct mutex_construct {
    enum bridge_construct construct;
    enum bridge_class pomp_class;
    enum pomp_event_kind enter, begin, end, exit;
};

static int mutex_construct_of(ompt_mutex_t kind, struct mutex_construct *c)
{
    if (kind == ompt_mutex_critical)
        *c = (struct mutex_construct){BC_CRITICAL, BRC_CRITICAL, POMP_EV_CRITICAL_ENTER,
                                      POMP_EV_CRITICAL_BEGIN, POMP_EV_CRITICAL_END,
                                      POMP_EV_CRITICAL_EXIT};
    else if (kind == ompt_mutex_ordered)
        *c = (struct mutex_construct){BC_ORDERED, BRC_ORDERED, POMP_EV_ORDERED_ENTER,
                                      POMP_EV_ORDERED_BEGIN, POMP_EV_ORDERED_END,
                                      POMP_EV_ORDERED_EXIT};
    else
        return 0;
    return 1;
}

/* Whether the measurement follows a mutex of this kind (after the collector
 * API's event, which it always gets). */
static inline int followed(ompt_mutex_t kind)
{
    return kind == ompt_mutex_lock || kind == ompt_mutex_nest_lock ||
           !__atomic_load_n(&bridge_mutex_locks_only, __ATOMIC_RELAXED);
}

/* Whether the lock is taken inside an instrumented lock call counted inline
 * (its inserted code marks it: pomplib.h, POMP_Fast_lock_mark): the call's
 * wait is its own untimed time, and it opened no frame to put a wait node
 * under. Nothing is done for it, from acquire to acquired (or the owner's
 * nest lock), the mark the same in all: one load, where the scope pushed and
 * popped besides took a throttled hot lock loop to 3 times its plain time. */
static inline int counted_lock_call(ompt_mutex_t kind)
{
    return (kind == ompt_mutex_lock || kind == ompt_mutex_nest_lock) && pomp_fast_lock_counted();
}

/* Whether the lock is taken inside an instrumented lock call that its throttle
 * left untimed: the wait is the call's own untimed time, and a wait node
 * under it would only count each call again, at a record's cost on the
 * hottest lock loops (the calls of a set site instrumented before the mark,
 * made through their calls while waits are followed:
 * pomp_fast_lock_waits_followed). */
static inline int throttled_lock_call(struct bridge_thread *b)
{
    struct pomp_frame *f = bridge_top_frame(b);
    return f && f->untimed && f->entered && !f->in_body &&
           bridge_class_of(f->region) == BRC_LOCK_SET;
}

/* ---- lock waits counted inline ----
 * A throttled wait for a lock at a call the runtime reports (one pomprun
 * measures, or a library's not built with pompcc) is counted, not timed; its
 * two callbacks still cost about 420 instructions through the profile (a
 * lock-per-bin histogram ran 2.5 times its plain time under pomprun). Once
 * throttled, such a wait site gets an inline counter of libpomp's, as an
 * instrumented site has (pomplib.h, POMP_Fast_count): a visit on a path it
 * registered on is then one increment, its acquired callback nothing. */
#define WAIT_COUNTERS 64
static int wait_counters_base = -1; /* the bridge's slots among libpomp's (POMP_Fast_assign) */
static uint32_t wait_counters_used;

/* The counter of r's site, on the calling thread, or NULL. */
static inline POMP_Fast_count *wait_counter(struct POMP_Region_s *r)
{
    uint16_t k = __atomic_load_n(&r->bridge_counter, __ATOMIC_ACQUIRE);
    if (__builtin_expect(k == 0 || k == UINT16_MAX, 0))
        return NULL;
    return POMP_Fast_slot(&wait_counters_base, WAIT_COUNTERS, k - 1);
}

/* After r's throttled wait was recorded on b: its counter (given r at the
 * first such wait of any thread) registers on the path it was recorded on. */
static __attribute__((noinline, cold)) void offer_wait_counter(struct bridge_thread *b,
                                                               struct POMP_Region_s *r)
{
    uint16_t k = __atomic_load_n(&r->bridge_counter, __ATOMIC_ACQUIRE);
    if (k == 0) {
        uint32_t slot = __atomic_fetch_add(&wait_counters_used, 1, __ATOMIC_RELAXED);
        uint16_t mine = slot < WAIT_COUNTERS ? (uint16_t)(slot + 1) : UINT16_MAX;
        /* (another thread's first may come first: its slot stands, this one stays unused) */
        k = __atomic_compare_exchange_n(&r->bridge_counter, &k, mine, 0, __ATOMIC_ACQ_REL,
                                        __ATOMIC_ACQUIRE)
                ? mine
                : k;
    }
    POMP_Fast_count *c = wait_counter(r);
    struct pomp_thread *t = bridge_pomp_thread(b);
    if (c && t && pomp_thread_write_begin(t)) {
        pomp_thread_fast_register(t, c, r, 1, POMP_FAST_VISIT);
        pomp_thread_write_end(t);
    }
}

/* The callback that ends a wait begun counted inline (acquired, or the
 * owner's nest lock): nothing more to do. */
static inline int wait_was_counted(ompt_mutex_t kind)
{
    struct bridge_thread *b = bridge_tls;
    if (__builtin_expect(b && b->wait_counted, 0) &&
        (kind == ompt_mutex_lock || kind == ompt_mutex_nest_lock)) {
        b->wait_counted = 0;
        return 1;
    }
    return 0;
}

void bridge_on_mutex_acquire(ompt_mutex_t kind, unsigned int hint, unsigned int impl,
                             ompt_wait_id_t wait_id, const void *codeptr_ra)
{
    (void)hint;
    (void)impl;
    struct wait_kind w;
    struct bridge_thread *b;
    if (!wait_kind_of(kind, &w))
        return;
    bridge_collector_event(w.begin);
    if (counted_lock_call(kind) || !followed(kind) || bridge_measuring() < 0 ||
        !(b = bridge_self()))
        return;
    if (w.group == POMP_GROUP_RUNTIME && throttled_lock_call(b)) {
        bridge_scope_push(b, SCOPE_WAIT); /* (no region: its end records nothing) */
        return;
    }
    if (w.group == POMP_GROUP_RUNTIME) {
        struct POMP_Region_s *r = bridge_region_memo(&b->wait_memo, w.wait, codeptr_ra);
        POMP_Fast_count *c = r ? wait_counter(r) : NULL;
        if (c && POMP_Fast_counted(c)) {
            b->wait_counted = 1;
            return;
        }
    }
    struct mutex_construct c;
    int construct = mutex_construct_of(kind, &c);
    /* the clock as the regions need it (bridge_clock): none for a throttled
     * one's (pomprun's hot critical), nor for what runs inside it */
    uint64_t now = 0;
    if (__builtin_expect(construct && __atomic_load_n(&bridge_mutex_no_release, __ATOMIC_ACQUIRE),
                         0)) { /* no release will come: the wait alone (bridge_tool.c) */
        construct = 0;
        /* a block opened before then, on top: this thread is past it */
        if (b->nscopes && b->scope[b->nscopes - 1].kind == SCOPE_MUTEX)
            bridge_mutex_close_unreleased(b);
        if (!__atomic_load_n(&bridge_mutex_unframed, __ATOMIC_RELAXED))
            __atomic_store_n(&bridge_mutex_unframed, 1, __ATOMIC_RELAXED);
    }
    /* LLVM libomp now and then reports a critical without its address, or
     * with one inside itself (about one run in a hundred of a loop of
     * criticals under pomprun, and half the runs of a branch and bound's
     * tasks: that execution became a region of its own, placed nowhere; a
     * probe); the program's call, found on the stack, is the address it would
     * have given. A stack walk is no hot-path work: a few per thread, then the
     * address-less region, should a runtime never give the address */
    if (__builtin_expect(construct && !bridge_code_is_program(c.construct, codeptr_ra), 0) &&
        b->caller_walks < BRIDGE_CALLER_WALKS) {
        b->caller_walks++;
        codeptr_ra = bridge_program_caller();
    }
    if (construct) {
        struct bridge_scope *m = bridge_scope_push(b, SCOPE_MUTEX);
        if (m && bridge_records(POMP_GROUP_SYNC, BR_ENTER_EXIT) &&
            !bridge_pomp_entered(b, c.pomp_class)) {
            m->region = bridge_region_memo(&b->construct_memo, c.construct, codeptr_ra);
            m->detail = (uint8_t)kind;
            /* a named critical's lock is a symbol of the program: its name (after the run) */
            if (kind == ompt_mutex_critical && m->region && wait_id &&
                !__atomic_load_n(&m->region->object, __ATOMIC_RELAXED))
                __atomic_store_n(&m->region->object, (uintptr_t)wait_id, __ATOMIC_RELAXED);
            now = bridge_clock(b, m->region, BR_ENTER);
            bridge_record(b, BR_ENTER, m->region, now, c.enter);
        }
    }
    struct bridge_scope *s = bridge_scope_push(b, SCOPE_WAIT);
    if (!s || !bridge_records(w.group, w.levels))
        return;
    s->region = bridge_region_memo(&b->wait_memo, w.wait, codeptr_ra);
    if (now == 0 || now == POMP_UNTIMED) /* (the construct's enter, timed: the same instant) */
        now = bridge_clock(b, s->region, BR_ENTER);
    if (now == POMP_UNTIMED) {
        /* counted, not timed (a throttled wait, or one inside a throttled
         * region): one execution on its node, as an instrumented site's
         * untimed call counts, without a frame to open and close; acquired
         * then finds no region and records nothing */
        if (bridge_record(b, BR_EVENT, s->region, now, POMP_EV_OMPT_WAIT_ENTER) &&
            w.group == POMP_GROUP_RUNTIME &&
            __atomic_load_n(&s->region->throttled, __ATOMIC_RELAXED))
            offer_wait_counter(b, s->region);
        s->region = NULL;
        return;
    }
    bridge_record(b, BR_ENTER, s->region, now, POMP_EV_OMPT_WAIT_ENTER);
}

static void end_wait(struct bridge_thread *b, uint64_t now)
{
    struct bridge_scope *s = bridge_scope_pop(b, SCOPE_WAIT);
    if (s && s->region)
        bridge_record(b, BR_EXIT, s->region, now, POMP_EV_OMPT_WAIT_EXIT);
}

void bridge_on_mutex_acquired(ompt_mutex_t kind, ompt_wait_id_t wait_id, const void *codeptr_ra)
{
    (void)wait_id;
    (void)codeptr_ra;
    struct wait_kind w;
    struct bridge_thread *b;
    if (!wait_kind_of(kind, &w))
        return;
    bridge_collector_event(w.begin + 1);
    if (kind == ompt_mutex_ordered)
        bridge_collector_event(OMP_EVENT_THR_BEGIN_ORDERED);
    if (wait_was_counted(kind) || counted_lock_call(kind) || !followed(kind) ||
        bridge_measuring() < 0 || !(b = bridge_self()))
        return;
    /* (no clock read for a wait that records nothing: a throttled lock call's,
     * or one counted at its acquire) */
    struct bridge_scope *s = bridge_scope_pop(b, SCOPE_WAIT);
    uint64_t now = 0;
    /* the acquisition's time, not read before it completed: a trace pairs it
     * with the previous holder's release (pomp_clock_settle) */
    struct pomp_thread *pt = bridge_pomp_thread(b);
    if (pt && pt->log.buf)
        pomp_clock_settle();
    if (s && s->region) {
        uint64_t when = bridge_clock(b, s->region, BR_EXIT);
        bridge_record(b, BR_EXIT, s->region, when, POMP_EV_OMPT_WAIT_EXIT);
        now = when != POMP_UNTIMED ? when : 0;
    }
    struct mutex_construct c;
    struct bridge_scope *m = bridge_scope_top(b);
    if (mutex_construct_of(kind, &c) && m && m->kind == SCOPE_MUTEX && m->region &&
        !__atomic_load_n(&bridge_mutex_no_release, __ATOMIC_ACQUIRE) && /* (not a block of before) */
        bridge_records(POMP_GROUP_SYNC, BR_BEGIN_END)) {
        if (!now)
            now = bridge_clock(b, m->region, BR_BEGIN);
        bridge_record(b, BR_BEGIN, m->region, now, c.begin);
        m->body = 1;
    }
}

void bridge_on_nest_lock(ompt_scope_endpoint_t endpoint, ompt_wait_id_t wait_id,
                         const void *codeptr_ra)
{
    (void)wait_id;
    (void)codeptr_ra;
    struct bridge_thread *b;
    if (endpoint != ompt_scope_begin)
        return;
    bridge_collector_event(OMP_EVENT_THR_END_LKWT);
    if (wait_was_counted(ompt_mutex_nest_lock) || counted_lock_call(ompt_mutex_nest_lock) ||
        bridge_measuring() < 0 || !(b = bridge_self()))
        return;
    end_wait(b, pomp_now()); /* the owner took its nest lock again: its wait ends here */
}

void bridge_on_mutex_released(ompt_mutex_t kind, ompt_wait_id_t wait_id, const void *codeptr_ra)
{
    (void)wait_id;
    (void)codeptr_ra;
    struct mutex_construct c;
    struct bridge_thread *b;
    if (kind == ompt_mutex_ordered)
        bridge_collector_event(OMP_EVENT_THR_END_ORDERED);
    if (!followed(kind) || !mutex_construct_of(kind, &c) || bridge_measuring() < 0 ||
        !(b = bridge_self()))
        return;
    struct bridge_scope *m = bridge_scope_pop(b, SCOPE_MUTEX);
    if (!m || !m->region)
        return;
    uint64_t now = bridge_clock(b, m->region, m->body ? BR_END : BR_EXIT);
    if (m->body)
        bridge_record(b, BR_END, m->region, now, c.end);
    bridge_record(b, BR_EXIT, m->region, now, c.exit);
}

void bridge_mutex_close_unreleased(struct bridge_thread *b)
{
    struct bridge_scope *m = &b->scope[b->nscopes - 1];
    struct mutex_construct c;
    b->nscopes--;
    if (!m->region || !mutex_construct_of((ompt_mutex_t)m->detail, &c))
        return;
    uint64_t now = pomp_now();
    if (m->body)
        bridge_record(b, BR_END, m->region, now, c.end);
    bridge_record(b, BR_EXIT, m->region, now, c.exit);
}
