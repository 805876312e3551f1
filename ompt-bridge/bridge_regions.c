#include "bridge_regions.h"

#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ctc.h"
#include "pomp_symbols.h"

static const struct {
    const char *type, *name;
} constructs[BC_COUNT] = {
    [BC_PARALLEL] = {"parallel", NULL},
    [BC_FOR] = {"for", NULL},
    [BC_SECTIONS] = {"sections", NULL},
    [BC_SINGLE] = {"single", NULL},
    [BC_WORKSHARE] = {"workshare", NULL},
    [BC_DISTRIBUTE] = {"distribute", NULL},
    [BC_TASKLOOP] = {"taskloop", NULL},
    [BC_SCOPE] = {"scope", NULL},
    [BC_BARRIER] = {"barrier", NULL},
    [BC_IMPLICIT_BARRIER_PARALLEL] = {"implicit_barrier", "parallel"},
    [BC_IMPLICIT_BARRIER_WORKSHARE] = {"implicit_barrier", "workshare"},
    [BC_IMPLICIT_BARRIER] = {"implicit_barrier", NULL},
    [BC_IMPLEMENTATION_BARRIER] = {"implicit_barrier", "implementation"},
    [BC_TEAMS_BARRIER] = {"implicit_barrier", "teams"},
    [BC_TASKWAIT] = {"taskwait", NULL},
    [BC_TASKGROUP] = {"wait", "taskgroup"}, /* the runtime reports the wait at its end */
    [BC_CRITICAL] = {"critical", NULL},
    [BC_ORDERED] = {"ordered", NULL},
    [BC_MASKED] = {"masked", NULL},
    [BC_TASK] = {"task", NULL},
    [BC_TASK_CREATE] = {"task_create", NULL},
    [BC_TASK_DEPENDENCES] = {"task_dependences", NULL},
    [BC_WAIT_LOCK] = {"wait", "lock"},
    [BC_WAIT_NEST_LOCK] = {"wait", "nest_lock"},
    [BC_WAIT_CRITICAL] = {"wait", "critical"},
    [BC_WAIT_ORDERED] = {"wait", "ordered"},
    [BC_WAIT_ATOMIC] = {"wait", "atomic"},
    [BC_WAIT_DEPENDENCES] = {"wait", "dependences"}, /* libpomp's name for the same wait */
    [BC_CANCEL_ACTIVATED] = {"cancel", "activated"},
    [BC_CANCEL_DETECTED] = {"cancel", "detected"},
    [BC_CANCEL_DISCARDED] = {"cancel", "discarded_task"},
    [BC_TARGET] = {"target", NULL},
    [BC_TARGET_ENTER_DATA] = {"target enter data", NULL},
    [BC_TARGET_EXIT_DATA] = {"target exit data", NULL},
    [BC_TARGET_UPDATE] = {"target update", NULL},
    /* device operations: types from pomp_devices.c, which sums them per device */
};

const char *bridge_construct_type(enum bridge_construct c)
{
    return c >= BC_DEVICE_OP ? pomp_device_op_type((enum pomp_device_op)(c - BC_DEVICE_OP))
                             : constructs[c].type;
}

/* The index from (construct, code address) to region: an open-addressing hash
 * table whose slots are claimed with one compare-and-swap and never freed. The
 * region itself is created through a POMP handle in the slot, so racing
 * threads get the same region (pomp_region_get_handle). A full table sends new
 * call sites to a region of their construct without an address, in a slot of
 * its own past the table (past_table), and counts their events: said at the
 * end (before, such a site's events found no region at all: 5,000 parallel
 * regions kept 4,095, silently). */
enum { CODE_REGION_SLOTS = 4096 };
struct code_region {
    uint64_t key;          /* 0: free; else address ^ (construct + 1) << 56 */
    POMP_Handle_t handle;
};
static struct code_region code_regions[CODE_REGION_SLOTS];
static struct code_region past_table[BC_COUNT];
static uint64_t events_past_table;  /* atomic */
static uint32_t longest_probe;      /* the most slots a claim walked (atomic) */
static int table_full;              /* a claim found no free slot (atomic) */

static uint64_t key_of(enum bridge_construct c, const void *codeptr)
{
    /* user-space code addresses leave the top byte free (x86-64, AArch64) */
    return (uint64_t)(uintptr_t)codeptr ^ ((uint64_t)(c + 1) << 56);
}

/* The place of construct `in`, for a region at a code address inside it:
 * `construct_file` and `construct_lines` (its first line, the last line of its
 * end), against which bridge_symbols.c checks the line the debug information
 * gives the address. */
static void add_construct_place(struct ctc_builder *b, const struct POMP_Region_s *in)
{
    if (!in || !in->ctc.file)
        return;
    ctc_builder_add(b, "construct_file", in->ctc.file);
    unsigned last = in->ctc.end_line_last ? in->ctc.end_line_last : in->ctc.start_line_last;
    ctc_builder_add_lines(b, "construct_lines", in->ctc.start_line_first, last);
}

static struct POMP_Region_s *create(struct code_region *slot, enum bridge_construct c,
                                    const void *codeptr, const struct POMP_Region_s *like,
                                    const struct POMP_Region_s *in)
{
    struct ctc_builder b;
    ctc_builder_init(&b);
    ctc_builder_add(&b, "type", bridge_construct_type(c));
    if (constructs[c].name)
        ctc_builder_add(&b, "name", constructs[c].name);
    if (like && !like->ctc.file) { /* at the place of a region the runtime reported: its
                                      code address, named with it after the run */
        static const char *const keys[] = {"codeptr", "module", "offset"};
        for (size_t i = 0; i < sizeof keys / sizeof *keys; i++)
            if (ctc_get(&like->ctc, keys[i]))
                ctc_builder_add(&b, keys[i], ctc_get(&like->ctc, keys[i]));
        /* the address is not this region's own: the profile must not take
         * it for the other region's code loaded again (pomp_merge.c,
         * fold_place), a nested fork folded into the region it ran in */
        ctc_builder_add(&b, "place_of", like->ctc.type ? like->ctc.type : "region");
    } else if (like) { /* at the place of an instrumented construct */
        /* with its directory: named as the construct is, from the run's start */
        ctc_builder_add_file(&b, like->ctc.file, ctc_get(&like->ctc, "dir"));
        ctc_builder_add_lines(&b, "slines", like->ctc.start_line_first, like->ctc.start_line_last);
        ctc_builder_add_lines(&b, "elines", like->ctc.end_line_first, like->ctc.end_line_last);
    } else if (codeptr) {
        char addr[32];
        snprintf(addr, sizeof addr, "%p", codeptr);
        ctc_builder_add(&b, "codeptr", addr);
        add_construct_place(&b, in);
        /* its library, while it is loaded: one unloaded by dlclose before
         * the end is then still named (bridge_symbols.c) */
        char module[PATH_MAX];
        uintptr_t offset;
        if (pomp_symbols_module_of((uintptr_t)codeptr, module, sizeof module, &offset)) {
            snprintf(addr, sizeof addr, "0x%lx", (unsigned long)offset);
            ctc_builder_add(&b, "module", module);
            ctc_builder_add(&b, "offset", addr);
        }
    }
    char *ctc = ctc_builder_finish(&b);
    if (!ctc)
        return NULL;
    pomp_region_get_handle(&slot->handle, ctc, POMP_INIT_OMPT);
    free(ctc);
    return __atomic_load_n(&slot->handle, __ATOMIC_ACQUIRE);
}

static struct POMP_Region_s *region_of(struct code_region *slot, enum bridge_construct c,
                                       const void *codeptr, const struct POMP_Region_s *like,
                                       const struct POMP_Region_s *in)
{
    struct POMP_Region_s *r = __atomic_load_n(&slot->handle, __ATOMIC_ACQUIRE);
    return r ? r : create(slot, c, codeptr, like, in);
}

/* The slot of a key: claimed if new and claim is set; NULL when the table is
 * full, or when the key has none and claim is not set. */
static struct code_region *find_slot(uint64_t key, int claim)
{
    size_t i = (size_t)((key * 0x9E3779B97F4A7C15ull) >> 52) & (CODE_REGION_SLOTS - 1);
    /* once full, a key is within the longest walk of a claim, or not there:
     * a new call site's every event does not walk the whole table */
    size_t walk = __atomic_load_n(&table_full, __ATOMIC_RELAXED)
                      ? (size_t)__atomic_load_n(&longest_probe, __ATOMIC_RELAXED) + 1
                      : CODE_REGION_SLOTS;
    for (size_t n = 0; n < walk; n++, i = (i + 1) & (CODE_REGION_SLOTS - 1)) {
        struct code_region *slot = &code_regions[i];
        uint64_t k = __atomic_load_n(&slot->key, __ATOMIC_ACQUIRE);
        if (k == 0 && !claim)
            return NULL;
        if (k == 0 && __atomic_compare_exchange_n(&slot->key, &k, key, 0, __ATOMIC_ACQ_REL,
                                                  __ATOMIC_ACQUIRE)) {
            uint32_t longest = __atomic_load_n(&longest_probe, __ATOMIC_RELAXED);
            while (n > longest && !__atomic_compare_exchange_n(&longest_probe, &longest, (uint32_t)n,
                                                               1, __ATOMIC_RELAXED,
                                                               __ATOMIC_RELAXED))
                ;
            return slot;
        }
        if (k == key) /* found, or another thread claimed the slot for the same key */
            return slot;
    }
    if (claim && walk == CODE_REGION_SLOTS)
        __atomic_store_n(&table_full, 1, __ATOMIC_RELAXED);
    return NULL;
}

/* A slot let go: its key, marked (bit 63: no construct number reaches it), is
 * no code address's, and probing walks past it. */
#define FORGOTTEN (UINT64_C(1) << 63)

uint32_t bridge_regions_generation;

void bridge_regions_forget(uintptr_t lo, uintptr_t hi)
{
    for (size_t i = 0; i < CODE_REGION_SLOTS; i++) {
        uint64_t k = __atomic_load_n(&code_regions[i].key, __ATOMIC_ACQUIRE);
        uintptr_t code = (uintptr_t)(k & ((UINT64_C(1) << 56) - 1));
        if (k != 0 && !(k & FORGOTTEN) && code >= lo && code < hi)
            __atomic_store_n(&code_regions[i].key, k | FORGOTTEN, __ATOMIC_RELEASE);
    }
    /* after the slots: a region found before is remembered under the old number */
    __atomic_add_fetch(&bridge_regions_generation, 1, __ATOMIC_ACQ_REL);
}

unsigned bridge_region_table_size(void)
{
    return CODE_REGION_SLOTS;
}

uint64_t bridge_region_events_past_table(void)
{
    return __atomic_load_n(&events_past_table, __ATOMIC_RELAXED);
}

/* The slot of (c, codeptr), its region made: a full table sends new call
 * sites to the construct's slot without an address. NULL if none. */
static struct code_region *slot_of(enum bridge_construct c, const void *codeptr,
                                   const struct POMP_Region_s *like,
                                   const struct POMP_Region_s *in)
{
    struct code_region *slot = find_slot(key_of(c, codeptr), 1);
    if (!slot) { /* the table is full */
        __atomic_add_fetch(&events_past_table, 1, __ATOMIC_RELAXED);
        slot = &past_table[c];
        return region_of(slot, c, NULL, NULL, NULL) ? slot : NULL;
    }
    return region_of(slot, c, codeptr, like, in) ? slot : NULL;
}

static struct POMP_Region_s *lookup(enum bridge_construct c, const void *codeptr,
                                    const struct POMP_Region_s *like,
                                    const struct POMP_Region_s *in)
{
    struct code_region *slot = slot_of(c, codeptr, like, in);
    return slot ? __atomic_load_n(&slot->handle, __ATOMIC_ACQUIRE) : NULL;
}

_Static_assert(CODE_REGION_SLOTS + BC_COUNT < 1u << BRIDGE_REGION_NUMBER_BITS,
               "a region number (slot + 1, past the table's after them) fits its bits");

static uint32_t number_of(const struct code_region *slot)
{
    if (slot >= past_table && slot < past_table + BC_COUNT)
        return CODE_REGION_SLOTS + (uint32_t)(slot - past_table) + 1;
    return slot ? (uint32_t)(slot - code_regions) + 1 : 0;
}

uint32_t bridge_region_number(enum bridge_construct c, const void *codeptr)
{
    return number_of(slot_of(c, codeptr, NULL, NULL));
}

uint32_t bridge_region_number_at(enum bridge_construct c, const struct POMP_Region_s *at)
{
    return number_of(slot_of(c, at, at, NULL));
}

/* POMP's own region r under a number (a task construct whose executions the
 * bridge measures, as the instrumentation leaves them without events): a slot
 * keyed by r's address under a construct number no construct has. */
enum { OWN_REGION_KEY = BC_COUNT };
_Static_assert(OWN_REGION_KEY + 1 < 256, "the key's construct byte holds it");

uint32_t bridge_region_number_of(struct POMP_Region_s *r)
{
    struct code_region *slot = find_slot(key_of((enum bridge_construct)OWN_REGION_KEY, r), 1);
    if (!slot)
        return 0;
    POMP_Handle_t none = NULL; /* set once: later calls (a task each) only read it */
    if (!__atomic_load_n(&slot->handle, __ATOMIC_ACQUIRE))
        __atomic_compare_exchange_n(&slot->handle, &none, r, 0, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE);
    return number_of(slot);
}

struct POMP_Region_s *bridge_region_numbered(uint32_t number)
{
    if (number > CODE_REGION_SLOTS && number <= CODE_REGION_SLOTS + BC_COUNT)
        return __atomic_load_n(&past_table[number - CODE_REGION_SLOTS - 1].handle,
                               __ATOMIC_ACQUIRE);
    if (number == 0 || number > CODE_REGION_SLOTS)
        return NULL;
    return __atomic_load_n(&code_regions[number - 1].handle, __ATOMIC_ACQUIRE);
}

const void *bridge_region_numbered_code(uint32_t number, enum bridge_construct c)
{
    if (number == 0 || number > CODE_REGION_SLOTS)
        return NULL;
    uint64_t k = __atomic_load_n(&code_regions[number - 1].key, __ATOMIC_ACQUIRE);
    if (k == 0 || (k & FORGOTTEN) || (k >> 56) != (uint64_t)c + 1)
        return NULL;
    return (const void *)(uintptr_t)(k & ((UINT64_C(1) << 56) - 1));
}

struct POMP_Region_s *bridge_region_keyed(enum bridge_construct c, const void *codeptr)
{
    return lookup(c, codeptr, NULL, NULL);
}

struct POMP_Region_s *bridge_region_made(enum bridge_construct c, const void *codeptr)
{
    struct code_region *slot = find_slot(key_of(c, codeptr), 0);
    return slot ? __atomic_load_n(&slot->handle, __ATOMIC_ACQUIRE) : NULL;
}

struct POMP_Region_s *bridge_region_keyed_in(enum bridge_construct c, const void *codeptr,
                                             const struct POMP_Region_s *in)
{
    return lookup(c, codeptr, NULL, in);
}

struct POMP_Region_s *bridge_region_at(enum bridge_construct c, const struct POMP_Region_s *at)
{
    /* keyed by the region's address, which no code address can equal */
    return lookup(c, at, at, NULL);
}

uintptr_t bridge_runtime_code_lo, bridge_runtime_code_span;
uintptr_t bridge_own_code_lo, bridge_own_code_span;

/* Regions without an address (implicit barriers: workers report none) are
 * asked for on every callback of their kind: one load each, after the first. */
struct POMP_Region_s *bridge_unkeyed_regions[BC_COUNT];

struct POMP_Region_s *bridge_region_unkeyed(enum bridge_construct c)
{
    struct POMP_Region_s *r = bridge_region_keyed(c, NULL);
    if (r)
        __atomic_store_n(&bridge_unkeyed_regions[c], r, __ATOMIC_RELEASE);
    return r;
}

enum bridge_class bridge_classify(struct POMP_Region_s *r)
{
    static const struct {
        const char *type;
        enum bridge_class class;
    } types[] = {
        {"parallel", BRC_PARALLEL}, {"teams", BRC_TEAMS}, {"teams loop", BRC_TEAMS}, {"for", BRC_LOOP}, {"for simd", BRC_LOOP},
        {"loop", BRC_LOOP}, {"do", BRC_LOOP}, {"sections", BRC_SECTIONS},
        {"single", BRC_SINGLE}, {"workshare", BRC_WORKSHARE}, {"distribute", BRC_DISTRIBUTE},
        {"distribute simd", BRC_DISTRIBUTE}, {"distribute parallel for", BRC_DISTRIBUTE},
        {"distribute parallel for simd", BRC_DISTRIBUTE}, {"taskloop", BRC_TASKLOOP},
        {"taskloop simd", BRC_TASKLOOP}, {"scope", BRC_SCOPE}, {"barrier", BRC_BARRIER},
        {"taskwait", BRC_TASKWAIT}, {"taskgroup", BRC_TASKGROUP}, {"critical", BRC_CRITICAL},
        {"ordered", BRC_ORDERED},
        {"task", BRC_TASK}, {"omp_set_lock", BRC_LOCK_SET}, {"omp_set_nest_lock", BRC_LOCK_SET},
    };
    enum bridge_class c = BRC_OTHER;
    if (r->init_kind != POMP_INIT_OMPT && r->ctc.type)
        for (size_t i = 0; i < sizeof types / sizeof *types; i++)
            if (strcmp(r->ctc.type, types[i].type) == 0) {
                c = types[i].class;
                break;
            }
    const char *body_events = ctc_get(&r->ctc, "bodyEvents");
    if (c == BRC_TASK && body_events && strcmp(body_events, "none") == 0)
        c = BRC_TASK_UNTIED_SPLIT;
    /* every thread that asks first computes the same value */
    __atomic_store_n(&r->bridge_class, (uint8_t)c, __ATOMIC_RELAXED);
    return c;
}
