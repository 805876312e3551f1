#include "pomp_region.h"

#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "pomp_config.h"
#include "pomp_control.h"
#include "pomp_filter.h"
#include "pomp_hash.h"
#include "pomp_sources.h"

/* The registry: every region ever created. Written only under registry_lock
 * (handle initialization is rare: once per region), read after the run. */
static pthread_mutex_t registry_lock = PTHREAD_MUTEX_INITIALIZER;
/* A region whose time is a wait the program asked for: throttling it would
 * move its time into the enclosing region's work. Not the runtime's waits
 * for a lock or for an atomic under a lock (wait lock, nest_lock, atomic):
 * each is one acquisition outside any construct's frame, throttled by the same
 * rule as an instrumented omp_set_lock call, whose wait is its own time
 * (pomp-report marks the waits that such untimed executions hide). A lock
 * call the instrumentation left to the runtime (one in a macro's expansion)
 * in a hot loop was timed at each of its 4 M acquisitions: 8 times the
 * program's time on one thread, and that time read as 61 % lock waits of a
 * thread that never waited. The runtime's critical and ordered waits lie in
 * their construct's frame, which is throttled as a whole (holds_wait,
 * pomp_profile.c). */
static int is_mutex_wait(const struct ctc *ctc)
{
    static const char *const mutexes[] = {"lock", "nest_lock", "atomic", NULL};
    if (!ctc->type || strcmp(ctc->type, "wait") != 0 || !ctc->name)
        return 0;
    for (const char *const *m = mutexes; *m; m++)
        if (strcmp(ctc->name, *m) == 0)
            return 1;
    return 0;
}

static int is_wait_type(const struct ctc *ctc)
{
    static const char *const waits[] = {"barrier", "implicit_barrier", "taskwait", "taskgroup",
                                        "wait", "doacross", NULL};
    for (const char *const *w = waits; ctc->type && *w; w++)
        if (strcmp(ctc->type, *w) == 0)
            return !is_mutex_wait(ctc);
    return 0;
}

/* A lock call site: the trace takes its acquisitions (a set, a successful test)
 * and releases from these sites' events, each site throttled or not on its
 * own; a throttled set or test whose unset is not (or the other way round)
 * would leave a lock released that was never acquired. */
static int is_lock_call_type(const char *type)
{
    static const char *const calls[] = {"omp_set_lock",   "omp_set_nest_lock",  "omp_unset_lock",
                                        "omp_unset_nest_lock", "omp_test_lock", "omp_test_nest_lock",
                                        NULL};
    for (const char *const *c = calls; *c; c++)
        if (strcmp(type, *c) == 0)
            return 1;
    return 0;
}

/* A construct the runtime reports too (its bridge would make a region of its
 * own where POMP's has no frame): filtered, it keeps a frame that records
 * nothing, so that the bridge still finds POMP's construct and counts it once
 * (as not recorded). Not the short, frequent ones a filter is for (atomic,
 * critical, ordered, task), which the bridges report only under
 * POMP_OMPT=full. */
static int is_runtime_reported_type(const char *type)
{
    static const char *const types[] = {"parallel", "for", "for simd", "loop", "sections",
                                        "single", "workshare", "scope", "barrier", "taskwait",
                                        NULL};
    for (const char *const *t = types; *t; t++)
        if (strcmp(type, *t) == 0)
            return 1;
    return strncmp(type, "distribute", 10) == 0 || strncmp(type, "taskloop", 8) == 0;
}

static struct POMP_Region_s *registry_head;
static uint32_t registry_count;

/* FNV-1a over a string and a separator after it. */
static uint64_t hash_text(uint64_t h, const char *text)
{
    for (const char *c = text; *c; c++)
        h = (h ^ (unsigned char)*c) * UINT64_C(1099511628211);
    return (h ^ '*') * UINT64_C(1099511628211);
}

/* Two of 64 bits (a Bloom filter's: one or two set) for a region's type,
 * name and lines (where its CTC has them: an instrumented construct; a
 * runtime region's are known after the run): two regions the output may fold
 * into one have the same (pomp_region_maybe_twins), and a task's two
 * creations at two lines most often not (a twin looked for at each). With
 * one bit, one pair in 64 shared it: fib's two task constructs, lines 50 and
 * 52 of bench/real/tasks.c, did, and each of their timed creations and
 * executions looked for a twin in vain, about 140 instructions; with two, one
 * pair in about 2,000. Not the file: one header named two ways by two
 * compile directories is one region. */
static uint64_t kind_bit(const struct ctc *c, const char *type)
{
    uint64_t h = hash_text(hash_text(UINT64_C(14695981039346656037), type), c->name ? c->name : "");
    h ^= (uint64_t)(uint32_t)c->start_line_first << 32 | (uint32_t)c->end_line_last;
    uint64_t m = pomp_hash_mix(h);
    return UINT64_C(1) << (m & 63) | UINT64_C(1) << ((m >> 32) & 63);
}

int pomp_region_maybe_twins(const struct POMP_Region_s *a, const struct POMP_Region_s *b)
{
    return a != b && a->kind_bit == b->kind_bit &&
           a->ctc.start_line_first == b->ctc.start_line_first &&
           a->ctc.end_line_last == b->ctc.end_line_last &&
           strcmp(pomp_region_type(a), pomp_region_type(b)) == 0 &&
           strcmp(a->ctc.name ? a->ctc.name : "", b->ctc.name ? b->ctc.name : "") == 0;
}

static struct POMP_Region_s *region_create(const char *ctc, enum pomp_region_init kind)
{
    struct POMP_Region_s *r = calloc(1, sizeof *r);
    if (!r)
        return NULL;
    r->ctc_text = strdup(ctc);
    if (!r->ctc_text) {
        free(r);
        return NULL;
    }
    r->init_kind = (uint8_t)kind;
    r->ctc_error = ctc_parse(ctc, &r->ctc, &r->ctc_error_offset);
    if (r->ctc_error != CTC_OK)
        fprintf(stderr, "pomp: warning: malformed CTC string at byte %zu (%s): \"%s\"\n",
                r->ctc_error_offset, ctc_error_string(r->ctc_error), ctc);
    /* POMP_FILTER_*: decided once here, a flag the events test (the library's own regions stay) */
    const struct pomp_config *cfg = pomp_config();
    r->filtered_out = (uint8_t)(strcmp(pomp_region_type(r), "pomp") != 0 &&
                                !pomp_filter_records(&cfg->filter_include, &cfg->filter_exclude,
                                                     &r->ctc));
    r->filtered_frame = (uint8_t)(r->filtered_out && is_runtime_reported_type(pomp_region_type(r)));
    r->task_root = (uint8_t)(strcmp(pomp_region_type(r), "task") == 0);
    r->kind_bit = kind_bit(&r->ctc, pomp_region_type(r));
    r->team_region = (uint8_t)(strcmp(pomp_region_type(r), "parallel") == 0);
    r->has_depend = (uint8_t)(r->task_root && ctc_get(&r->ctc, "hasDepend"));
    /* an untied task may resume on another thread, whose flag of deferred
     * children is not its own (POMP_Fast_children_done) */
    if (r->task_root && ctc_get(&r->ctc, "hasUntied"))
        pomp_fast_done_waits_stop();
    r->block_setup = (uint8_t)(r->team_region && (ctc_get(&r->ctc, "hasFirstprivate") ||
                                                  ctc_get(&r->ctc, "hasPrivate") ||
                                                  ctc_get(&r->ctc, "hasReduction")));
    r->a_wait = (uint8_t)is_wait_type(&r->ctc);
    /* (a trace keeps every wait for a lock, as every lock call: each is an
     * acquisition in it) */
    r->traced_lock = (uint8_t)(cfg->trace && (is_lock_call_type(pomp_region_type(r)) ||
                                              is_mutex_wait(&r->ctc)));
    r->id = ++registry_count;
    r->next = registry_head;
    registry_head = r;
    return r;
}

/* Creates the region for *handle unless another thread did it first. */
static struct POMP_Region_s *init_handle(POMP_Handle_t *handle, const char *ctc,
                                         enum pomp_region_init kind, int32_t *rc)
{
    pthread_mutex_lock(&registry_lock);
    struct POMP_Region_s *r = __atomic_load_n(handle, __ATOMIC_ACQUIRE);
    if (!r) {
        r = region_create(ctc, kind);
        if (r) {
            if (kind != POMP_INIT_OMPT) /* the bridges' own regions are theirs already */
                pomp_sources_region_made(r);
            __atomic_store_n(handle, r, __ATOMIC_RELEASE);
        }
    }
    pthread_mutex_unlock(&registry_lock);
    if (!r)
        *rc = POMP_ERR_NO_MEMORY;
    else if (r->ctc_error != CTC_OK)
        *rc = POMP_ERR_BAD_CTC;
    return r;
}

struct POMP_Region_s *pomp_region_lazy_init(POMP_Handle_t *handle, const char *ctc, int32_t *rc)
{
    if (!handle) {
        *rc = POMP_ERR_NULL_ARGUMENT;
        return NULL;
    }
    if (!ctc) {
        *rc = POMP_ERR_NO_CONTEXT;
        return NULL;
    }
    pomp_ensure_initialized();
    return init_handle(handle, ctc, POMP_INIT_LAZY, rc);
}

int32_t pomp_region_get_handle(POMP_Handle_t *handle, const char *ctc, enum pomp_region_init kind)
{
    if (!handle || !ctc)
        return POMP_ERR_NULL_ARGUMENT;
    int32_t rc = POMP_SUCCESS;
    init_handle(handle, ctc, kind, &rc);
    return rc;
}

struct POMP_Region_s *pomp_region_list(void)
{
    pthread_mutex_lock(&registry_lock);
    struct POMP_Region_s *r = registry_head;
    pthread_mutex_unlock(&registry_lock);
    return r;
}

uint32_t pomp_region_count(void)
{
    pthread_mutex_lock(&registry_lock);
    uint32_t n = registry_count;
    pthread_mutex_unlock(&registry_lock);
    return n;
}

const char *pomp_region_type(const struct POMP_Region_s *r)
{
    return r->ctc.type ? r->ctc.type : "unknown";
}

struct POMP_Region_s *pomp_region_dependences_wait(struct POMP_Region_s *task)
{
    struct POMP_Region_s *w = __atomic_load_n(&task->dependences_wait, __ATOMIC_ACQUIRE);
    if (w)
        return w;
    struct ctc_builder b;
    ctc_builder_init(&b);
    ctc_builder_add(&b, "type", "wait");
    ctc_builder_add(&b, "name", "dependences");
    if (task->ctc.file)
        ctc_builder_add_file(&b, task->ctc.file, ctc_get(&task->ctc, "dir"));
    if (task->ctc.start_line_first > 0)
        ctc_builder_add_lines(&b, "slines", task->ctc.start_line_first, task->ctc.start_line_last);
    if (task->ctc.end_line_first > 0)
        ctc_builder_add_lines(&b, "elines", task->ctc.end_line_first, task->ctc.end_line_last);
    char *ctc = ctc_builder_finish(&b);
    if (ctc)
        pomp_region_get_handle(&task->dependences_wait, ctc, POMP_INIT_HANDLE);
    free(ctc);
    return __atomic_load_n(&task->dependences_wait, __ATOMIC_ACQUIRE);
}

const char *pomp_region_init_name(const struct POMP_Region_s *r)
{
    switch (r->init_kind) {
    case POMP_INIT_HANDLE: return "handle";
    case POMP_INIT_LAZY: return "lazy";
    default: return "ompt";
    }
}

int pomp_region_relabel(struct POMP_Region_s *r, const char *ctc)
{
    char *text = strdup(ctc);
    struct ctc parsed;
    size_t offset;
    if (!text || ctc_parse(ctc, &parsed, &offset) != CTC_OK) {
        free(text);
        return -1;
    }
    ctc_free(&r->ctc);
    free(r->ctc_text);
    r->ctc_text = text;
    r->ctc = parsed;
    r->ctc_error = CTC_OK;
    return 0;
}

/* The region's CTC string with its file as seen from cwd (no "dir" then). */
static char *ctc_with_file(const struct ctc *c, const char *file)
{
    struct ctc_builder b;
    ctc_builder_init(&b);
    for (size_t i = 0; i < c->nattrs; i++) {
        const char *k = c->attrs[i].key;
        if (strcmp(k, "dir") != 0)
            ctc_builder_add(&b, k, strcmp(k, "file") == 0 ? file : c->attrs[i].value);
    }
    return ctc_builder_finish(&b);
}

/* One file named two ways: a header reached through a symbolic link
 * ("src/inc/k.h", "alias/k.h") and as itself ("real/k.h") was a region per
 * name, its visits split among them (a probe). */
struct file_name {
    char *name;       /* as the regions have it (a copy: relabelling frees theirs) */
    dev_t dev;
    ino_t ino;
    int found;        /* stat() found it */
    size_t one;       /* the name every name of the file becomes (an index into the names) */
};

static const struct file_name *file_name_of(const struct file_name *v, size_t n, const char *name)
{
    for (size_t i = 0; i < n; i++)
        if (strcmp(v[i].name, name) == 0)
            return &v[i];
    return NULL;
}

/* Names every file its regions name two ways the same way: the shortest name
 * (then the first in byte order) of those that stat() finds to be one file.
 * Names relative to cwd, the run's start. */
static void unify_file_names(const char *cwd)
{
    size_t n = 0, cap = 0;
    struct file_name *v = NULL;
    for (struct POMP_Region_s *r = pomp_region_list(); r; r = r->next) {
        const char *f = r->ctc_error == CTC_OK ? r->ctc.file : NULL;
        if (!f || !*f || file_name_of(v, n, f))
            continue;
        if (n == cap) {
            struct file_name *more = realloc(v, (cap = cap ? 2 * cap : 16) * sizeof *v);
            if (!more)
                break; /* (out of memory: the names so far only) */
            v = more;
        }
        char path[PATH_MAX * 2];
        int len = snprintf(path, sizeof path, "%s%s%s", f[0] == '/' ? "" : cwd,
                           f[0] == '/' ? "" : "/", f);
        struct stat st;
        v[n] = (struct file_name){.name = strdup(f), .one = n,
                                  .found = len > 0 && (size_t)len < sizeof path &&
                                           stat(path, &st) == 0};
        if (!v[n].name)
            break;
        if (v[n].found) {
            v[n].dev = st.st_dev;
            v[n].ino = st.st_ino;
        }
        n++;
    }
    int renamed = 0;
    for (size_t i = 0; i < n; i++)
        for (size_t k = 0; k < n && v[i].found; k++) {
            const char *a = v[v[i].one].name, *b = v[k].name;
            if (v[k].found && v[k].dev == v[i].dev && v[k].ino == v[i].ino &&
                (strlen(b) < strlen(a) || (strlen(b) == strlen(a) && strcmp(b, a) < 0))) {
                v[i].one = k;
                renamed = 1;
            }
        }
    for (struct POMP_Region_s *r = pomp_region_list(); r && renamed; r = r->next) {
        const struct file_name *fn =
            r->ctc_error == CTC_OK && r->ctc.file ? file_name_of(v, n, r->ctc.file) : NULL;
        if (!fn || fn->one == (size_t)(fn - v))
            continue;
        char *ctc = ctc_with_file(&r->ctc, v[fn->one].name);
        if (ctc)
            pomp_region_relabel(r, ctc);
        free(ctc);
    }
    for (size_t i = 0; i < n; i++)
        free(v[i].name);
    free(v);
}

/* A filter rule of type or name that no region of the run matched: a typo
 * ("type:critical;type:task", "type:Critical", "type: critical" each made a
 * glob that matched nothing, and nothing was excluded, unsaid; a probe).
 * Said whatever POMP_SUMMARY says: it is about the user's input. File rules
 * are left alone (a file's name may be the runtime's, or changed after). */
static void note_unmatched_rules(const char *var, const struct pomp_filter *f)
{
    for (size_t i = 0; i < f->count; i++) {
        if (f->rules[i].key == POMP_FILTER_FILE)
            continue;
        const struct pomp_filter one = {.rules = &f->rules[i], .count = 1};
        int hit = 0;
        for (const struct POMP_Region_s *r = pomp_region_list(); r && !hit; r = r->next)
            hit = r->ctc_error == CTC_OK && strcmp(pomp_region_type(r), "pomp") != 0 &&
                  pomp_filter_matches(&one, &r->ctc);
        char shown[POMP_CONFIG_SHOWN];
        if (!hit)
            fprintf(stderr,
                    "pomp: warning: %s: the rule '%s%s' matched no region of this run (rules are "
                    "separated by ',' and match a region's type, as profile.json names it, or its "
                    "name; docs/environment.md)\n",
                    var, pomp_filter_key_prefix(f->rules[i].key),
                    pomp_config_shown(f->rules[i].glob, shown, sizeof shown));
    }
}

void pomp_regions_note_unmatched_filters(void)
{
    const struct pomp_config *cfg = pomp_config();
    note_unmatched_rules("POMP_FILTER_INCLUDE", &cfg->filter_include);
    note_unmatched_rules("POMP_FILTER_EXCLUDE", &cfg->filter_exclude);
}

void pomp_regions_place_files(void)
{
    char buf[PATH_MAX];
    /* as the run's start saw them (a chdir in the program moved the
     * current directory; the output directory is placed from there too) */
    const char *cwd = pomp_config_start_dir(pomp_config(), buf, sizeof buf);
    if (!cwd)
        return;
    /* the last region's file, dir and name seen from cwd: a translation
     * unit's regions are neighbours in the list, and each name was made anew
     * (two paths normalized: 27 M instructions at the exit of a run with
     * 3,000 regions, 2026-12-04) */
    char *last_file = NULL, *last_dir = NULL, *last_seen = NULL;
    for (struct POMP_Region_s *r = pomp_region_list(); r; r = r->next) {
        if (r->ctc_error != CTC_OK || !r->ctc.file)
            continue;
        const char *dir = ctc_get(&r->ctc, "dir");
        if (!last_file || strcmp(last_file, r->ctc.file) != 0 || !last_dir != !dir ||
            (dir && strcmp(last_dir, dir) != 0)) {
            free(last_file), free(last_dir), free(last_seen);
            last_file = strdup(r->ctc.file);
            last_dir = dir ? strdup(dir) : NULL;
            last_seen = ctc_file_seen_from(&r->ctc, cwd);
            if (!last_file || (dir && !last_dir)) { /* out of memory: made again next time */
                free(last_file), free(last_dir), free(last_seen);
                last_file = last_dir = last_seen = NULL;
                continue;
            }
        }
        char *ctc = last_seen ? ctc_with_file(&r->ctc, last_seen) : NULL;
        if (ctc)
            pomp_region_relabel(r, ctc);
        free(ctc);
    }
    free(last_file), free(last_dir), free(last_seen);
    unify_file_names(cwd);
}

/* master is masked with filter 0: one construct for counting */
static const char *construct_of(const struct POMP_Region_s *r)
{
    const char *t = pomp_region_type(r);
    return strcmp(t, "master") == 0 ? "masked" : t;
}

int pomp_region_same_construct(const struct POMP_Region_s *a, const struct POMP_Region_s *b)
{
    return strcmp(construct_of(a), construct_of(b)) == 0;
}
