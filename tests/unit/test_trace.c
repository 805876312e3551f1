/* The trace converters on a hand-made trace: tasks created on one thread and
 * run on another (OTF2 task identities), a critical's lock, records that do
 * not nest (an end with no begin, a loop never exited), a gap of lost events,
 * and a thread outside the team. The OTF2 archive is read back by otf2-print. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pomp_config.h"
#include "pomp_eventlog.h"
#include "trace_chrome.h"
#include "trace_otf2.h"
#include "trace_walk.h"

enum { PAR = 1, TASK, CRIT, LOOP, SINGLE, FUNC, NREGIONS = FUNC };
enum { P_ENTER = POMP_PHASE_ENTER, P_BEGIN = POMP_PHASE_BEGIN, P_END = POMP_PHASE_END,
       P_EXIT = POMP_PHASE_EXIT, P_EVENT = POMP_PHASE_EVENT };

#define EV(t_, region_, kind_, phase_, arg_)                                                     \
    {.time = (t_), .arg = (arg_), .region = (region_), .kind = (kind_), .phase = (phase_), .group = 0}

static const struct pomp_event master[] = {
    EV(10, PAR, POMP_EV_PARALLEL_ENTER, P_ENTER, 2),
    EV(11, PAR, POMP_EV_PARALLEL_BEGIN, P_BEGIN, 0),
    EV(12, TASK, 0, P_ENTER, 100), EV(13, TASK, 0, P_EXIT, 100),  /* creates task 100 */
    EV(14, TASK, 0, P_ENTER, 101), EV(15, TASK, 0, P_EXIT, 101),  /* creates task 101 */
    EV(16, TASK, 0, P_BEGIN, 100), EV(17, TASK, 0, P_END, 100),   /* runs task 100 */
    EV(30, PAR, POMP_EV_PARALLEL_END, P_END, 0),
    EV(31, PAR, POMP_EV_PARALLEL_EXIT, P_EXIT, 0),
};
static const struct pomp_event worker[] = {
    EV(12, PAR, POMP_EV_PARALLEL_BEGIN, P_BEGIN, 0),
    EV(18, TASK, 0, P_BEGIN, 101),                                /* runs task 101 */
    EV(19, CRIT, POMP_EV_CRITICAL_ENTER, P_ENTER, 0),
    EV(20, CRIT, POMP_EV_CRITICAL_BEGIN, P_BEGIN, 0),
    EV(21, CRIT, POMP_EV_CRITICAL_END, P_END, 0),
    EV(22, CRIT, POMP_EV_CRITICAL_EXIT, P_EXIT, 0),
    EV(23, TASK, 0, P_END, 101),
    EV(24, LOOP, POMP_EV_LOOP_ENTER, P_ENTER, 0),                 /* never exited */
    EV(25, SINGLE, POMP_EV_SINGLE_END, P_END, 0),                 /* ends nothing */
    EV(29, PAR, POMP_EV_PARALLEL_END, P_END, 0),
};
static const struct pomp_event outsider[] = {
    EV(5, FUNC, POMP_EV_FUNCTION_BEGIN, P_BEGIN, 0),
    EV(6, 0, POMP_EV_TRACE_GAP, P_EVENT, 42),                     /* 42 records lost here */
    EV(7, FUNC, POMP_EV_FUNCTION_END, P_END, 0),                  /* its begin may be lost */
};

static struct trace_region regions[NREGIONS] = {
    {PAR, "parallel", "", "t.c", 1, 9},   {TASK, "task", "", "t.c", 2, 3},
    {CRIT, "critical", "x", "t.c", 4, 5}, {LOOP, "for", "", "t.c", 6, 7},
    {SINGLE, "single", "", "t.c", 8, 8},  {FUNC, "function", "f", "u.c", 10, 20},
};
static struct trace_thread threads[] = {
    {.index = 0, .omp_thread_num = 0, .os_tid = 100, .events = master,
     .count = sizeof master / sizeof *master},
    {.index = 1, .omp_thread_num = 1, .os_tid = 101, .events = worker,
     .count = sizeof worker / sizeof *worker},
    {.index = 2, .omp_thread_num = 0, .os_tid = 102, .events = outsider,
     .count = sizeof outsider / sizeof *outsider},
};
static char group_name[] = "PARALLEL";
static char *groups[] = {group_name};
static const struct trace_model model = {
    .program = "t", .hostname = "h", .pid = 7, .clock_source = "tsc", .ticks_per_ns = 1.0,
    .start_ticks = 0, .end_ticks = 40, .regions = regions, .nregions = NREGIONS,
    .threads = threads, .nthreads = 3, .groups = groups, .ngroups = 1};

/* otf2-print lines of event `event` (at location loc and time t, unless -1)
 * whose text contains `needle` (unless NULL). */
static int count_events(const char *text, const char *event, long loc, long long t,
                        const char *needle)
{
    int n = 0;
    for (const char *line = text; line && *line;) {
        const char *end = strchr(line, '\n');
        size_t len = end ? (size_t)(end - line) : strlen(line);
        char buf[1024], name[64];
        long l;
        long long time;
        snprintf(buf, sizeof buf, "%.*s", (int)(len < sizeof buf ? len : sizeof buf - 1), line);
        if (sscanf(buf, "%63s %ld %lld", name, &l, &time) == 3 && strcmp(name, event) == 0 &&
            (loc < 0 || l == loc) && (t < 0 || time == t) && (!needle || strstr(buf, needle)))
            n++;
        line = end ? end + 1 : NULL;
    }
    return n;
}

/* Definition lines that start with `kind` and contain `needle`. */
static int count_defs(const char *text, const char *kind, const char *needle)
{
    int n = 0;
    for (const char *line = text; line && *line;) {
        const char *end = strchr(line, '\n');
        size_t len = end ? (size_t)(end - line) : strlen(line);
        if (len > strlen(kind) && strncmp(line, kind, strlen(kind)) == 0 && line[strlen(kind)] == ' ') {
            char buf[1024];
            snprintf(buf, sizeof buf, "%.*s", (int)(len < sizeof buf ? len : sizeof buf - 1), line);
            n += strstr(buf, needle) != NULL;
        }
        line = end ? end + 1 : NULL;
    }
    return n;
}

/* Lines of Chrome JSON that start with `first` and contain `needle`. */
static int count_lines(const char *text, const char *first, const char *needle)
{
    int n = 0;
    for (const char *line = text; line && *line;) {
        const char *end = strchr(line, '\n');
        size_t len = end ? (size_t)(end - line) : strlen(line);
        char buf[1024];
        snprintf(buf, sizeof buf, "%.*s", (int)(len < sizeof buf ? len : sizeof buf - 1), line);
        if (strncmp(buf, first, strlen(first)) == 0 && (!needle || strstr(buf, needle)))
            n++;
        line = end ? end + 1 : NULL;
    }
    return n;
}

static char *run(const char *command)
{
    FILE *p = popen(command, "r");
    cr_assert_not_null(p);
    size_t size = 0;
    char *text = NULL;
    FILE *out = open_memstream(&text, &size);
    char buf[4096];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, p)) > 0)
        fwrite(buf, 1, n, out);
    fclose(out);
    cr_assert_eq(pclose(p), 0, "%s failed", command);
    return text;
}

/* The events of model's OTF2 trace, written into dir (a mkdtemp template). */
static char *otf2_events_of(const struct trace_model *m, char *dir)
{
    char err[512], cmd[256];
    cr_assert_not_null(mkdtemp(dir));
    cr_assert_eq(trace_otf2_write(m, dir, err, sizeof err), 0, "%s", err);
    snprintf(cmd, sizeof cmd, "otf2-print %s/traces.otf2 2>&1", dir);
    return run(cmd);
}

Test(trace, otf2_tasks_locks_and_repairs)
{
    char dir[] = "/tmp/pomp-unit-trace-XXXXXX", cmd[256];
    char *ev = otf2_events_of(&model, dir);
    cr_expect_eq(count_events(ev, "THREAD_TASK_CREATE", 0, 12, "Generation Number: 1"), 1, "%s", ev);
    cr_expect_eq(count_events(ev, "THREAD_TASK_CREATE", 0, 14, "Generation Number: 2"), 1);
    cr_expect_eq(count_events(ev, "THREAD_TASK_CREATE", -1, -1, NULL), 2);
    /* task 100 (the first created) runs on location 0, task 101 on location 1 */
    cr_expect_eq(count_events(ev, "THREAD_TASK_SWITCH", 0, 16, "Generation Number: 1"), 1);
    cr_expect_eq(count_events(ev, "THREAD_TASK_SWITCH", 1, 18, "Generation Number: 2"), 1);
    cr_expect_eq(count_events(ev, "THREAD_TASK_COMPLETE", 0, 17, "Generation Number: 1"), 1);
    cr_expect_eq(count_events(ev, "THREAD_TASK_COMPLETE", 1, 23, "Generation Number: 2"), 1);
    cr_expect_eq(count_events(ev, "THREAD_TASK_SWITCH", -1, -1, "Creating Thread: 0 ("), 2,
                 "the creator's rank in its team");
    cr_expect_eq(count_events(ev, "THREAD_ACQUIRE_LOCK", 1, 20, "Acquisition Order: 1"), 1);
    cr_expect_eq(count_events(ev, "THREAD_RELEASE_LOCK", 1, 21, "Acquisition Order: 1"), 1);
    cr_expect_eq(count_events(ev, "THREAD_FORK", 0, 10, "# Requested Threads: 2"), 1);
    cr_expect_eq(count_events(ev, "THREAD_JOIN", 0, 31, NULL), 1);
    cr_expect_eq(count_events(ev, "THREAD_TEAM_BEGIN", -1, -1, NULL), 2);
    cr_expect_eq(count_events(ev, "THREAD_TEAM_BEGIN", 2, -1, NULL), 0, "thread 2 is in no team");
    cr_expect_eq(count_events(ev, "MEASUREMENT_ON_OFF", 2, 6, NULL), 2,
                 "a gap is measurement off and on again");
    /* the loop left open closes at the thread's last record; the stray end is dropped */
    cr_expect_eq(count_events(ev, "LEAVE", 1, 29, "for @ t.c:6"), 1);
    cr_expect_eq(count_events(ev, "ENTER", -1, -1, "single"), 0);
    cr_expect_eq(count_events(ev, "ENTER", -1, -1, NULL), count_events(ev, "LEAVE", -1, -1, NULL));
    /* the function on thread 2 closes at the gap; its end after the gap matches nothing */
    cr_expect_eq(count_events(ev, "LEAVE", 2, 6, "function f @ u.c:10"), 1);
    cr_expect_eq(count_events(ev, "LEAVE", 2, -1, NULL), 1);

    snprintf(cmd, sizeof cmd, "otf2-print -G %s/traces.otf2 2>&1", dir);
    char *defs = run(cmd);
    cr_expect_eq(count_defs(defs, "REGION", "\"task create @ t.c:2\" <"), 1, "%s", defs);
    cr_expect_eq(count_defs(defs, "REGION", "Role: TASK_CREATE"), 1);
    cr_expect_eq(count_defs(defs, "REGION", "\"task @ t.c:2\" <"), 1);
    cr_expect_eq(count_defs(defs, "REGION", "Role: TASK,"), 1);
    cr_expect_eq(count_defs(defs, "REGION", "Role: CRITICAL_SBLOCK"), 1);
    cr_expect_eq(count_defs(defs, "COMM", "2 threads, master thread 0"), 1);
    cr_expect_eq(count_defs(defs, "LOCATION", "CPU_THREAD"), 3);
    free(ev);
    free(defs);
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    cr_expect_eq(system(cmd), 0);
}

static void count_enter(void *ctx, const struct trace_frame *f, uint32_t depth)
{
    (void)f, (void)depth;
    ++*(int *)ctx;
}
static void count_leave(void *ctx, const struct trace_frame *f, uint64_t t,
                        const struct pomp_event *close, uint32_t depth)
{
    (void)f, (void)t, (void)close, (void)depth;
    --*(int *)ctx;
}
static void ignore_single(void *ctx, const struct pomp_event *e, uint64_t t, uint32_t depth)
{
    (void)ctx, (void)e, (void)t, (void)depth;
}

Test(trace, walker_repairs_nesting)
{
    static const struct trace_walk_ops ops = {count_enter, count_leave, ignore_single, NULL};
    int open = 0;
    struct trace_walk_stats st;
    cr_assert_eq(trace_walk(&threads[1], 0, &ops, &open, &st), 0);
    cr_expect_eq(open, 0, "every enter left");
    cr_expect_eq(st.unmatched, 1, "the single's end that matched nothing");
    cr_expect_eq(st.closed_by_walker, 1, "the loop left open");
    cr_expect_eq(st.max_depth, 4, "parallel > task > critical > its body");
}

Test(trace, chrome_marks_repairs_and_gaps)
{
    char *text = NULL;
    size_t size = 0;
    FILE *f = open_memstream(&text, &size);
    cr_assert_eq(trace_chrome_write(&model, f), 0);
    fclose(f);
    cr_expect_eq(count_lines(text, "{\"ph\":\"B\"", NULL), count_lines(text, "{\"ph\":\"E\"", NULL));
    cr_expect_eq(count_lines(text, "{\"ph\":\"E\"", "closed_by"), 2, "the loop and the function: %s", text);
    cr_expect_eq(count_lines(text, "{\"ph\":\"i\"", "pomp: 42 events lost"), 1);
    cr_expect_eq(count_lines(text, "{\"ph\":\"B\"", "\"name\":\"parallel fork/join @ t.c:1\""), 1);
    cr_expect_eq(count_lines(text, "{\"ph\":\"B\"", "\"name\":\"parallel @ t.c:1\""), 2,
                 "the master's body and the worker's share have the region's name");
    cr_expect_eq(count_lines(text, "{\"ph\":\"M\",\"name\":\"thread_name\"", NULL), 3);
    free(text);
}

Test(trace, parse_trace_formats)
{
    unsigned bits = 99;
    cr_expect(pomp_parse_trace("otf2", &bits) && bits == POMP_TRACE_OTF2);
    cr_expect(pomp_parse_trace("Chrome", &bits) && bits == POMP_TRACE_CHROME);
    cr_expect(pomp_parse_trace("both", &bits) && bits == (POMP_TRACE_OTF2 | POMP_TRACE_CHROME));
    cr_expect(pomp_parse_trace("events,OTF2", &bits) && bits == (POMP_TRACE_EVENTS | POMP_TRACE_OTF2));
    cr_expect(pomp_parse_trace("none", &bits) && bits == POMP_TRACE_NONE);
    cr_expect(!pomp_parse_trace("", &bits));
    cr_expect(!pomp_parse_trace("otf2,", &bits));
    cr_expect(!pomp_parse_trace("otf", &bits));
    cr_expect(!pomp_parse_trace(",otf2", &bits));
}

/* The runtime's tasks (the OMPT bridge's records): a creation is a single
 * event of a task_create region; task 200 is untied and was resumed on the
 * other thread, so it has a frame on each (a switch on each, one complete, at
 * the end of the last); task 999's creation is not in the trace (a plain
 * region). Chrome links each creation to its executions with flow events. */
enum { R_PAR = 1, R_CREATE, R_TASK, R_NREGIONS = R_TASK };
static const struct pomp_event rt_master[] = {
    EV(10, R_PAR, POMP_EV_PARALLEL_ENTER, P_ENTER, 2),
    EV(11, R_PAR, POMP_EV_PARALLEL_BEGIN, P_BEGIN, 0),
    EV(12, R_CREATE, POMP_EV_OMPT_TASK_CREATE, P_EVENT, 200),
    EV(13, R_CREATE, POMP_EV_OMPT_TASK_CREATE, P_EVENT, 201),
    EV(14, R_TASK, POMP_EV_OMPT_TASK_BEGIN, P_BEGIN, 200),       /* suspended here... */
    EV(20, R_TASK, POMP_EV_OMPT_TASK_END, P_END, 200),
    EV(30, R_PAR, POMP_EV_PARALLEL_END, P_END, 0),
    EV(31, R_PAR, POMP_EV_PARALLEL_EXIT, P_EXIT, 0),
};
static const struct pomp_event rt_worker[] = {
    EV(12, R_PAR, POMP_EV_PARALLEL_BEGIN, P_BEGIN, 0),
    EV(15, R_TASK, POMP_EV_OMPT_TASK_BEGIN, P_BEGIN, 200),       /* ...resumed here */
    EV(16, R_TASK, POMP_EV_OMPT_TASK_END, P_END, 200),
    EV(21, R_TASK, POMP_EV_OMPT_TASK_BEGIN, P_BEGIN, 201),
    EV(22, R_TASK, POMP_EV_OMPT_TASK_END, P_END, 201),
    EV(23, R_TASK, POMP_EV_OMPT_TASK_BEGIN, P_BEGIN, 999),
    EV(24, R_TASK, POMP_EV_OMPT_TASK_END, P_END, 999),
    EV(29, R_PAR, POMP_EV_PARALLEL_END, P_END, 0),
};
static struct trace_region rt_regions[R_NREGIONS] = {
    {R_PAR, "parallel", "", "t.c", 1, 9},
    {R_CREATE, "task_create", "", "", 0, 0},
    {R_TASK, "task", "", "", 0, 0},
};
static struct trace_thread rt_threads[] = {
    {.index = 0, .omp_thread_num = 0, .os_tid = 100, .events = rt_master,
     .count = sizeof rt_master / sizeof *rt_master},
    {.index = 1, .omp_thread_num = 1, .os_tid = 101, .events = rt_worker,
     .count = sizeof rt_worker / sizeof *rt_worker},
};
static const struct trace_model rt_model = {
    .program = "t", .hostname = "h", .pid = 7, .clock_source = "tsc", .ticks_per_ns = 1.0,
    .start_ticks = 0, .end_ticks = 40, .regions = rt_regions, .nregions = R_NREGIONS,
    .threads = rt_threads, .nthreads = 2, .groups = groups, .ngroups = 1};

Test(trace, otf2_runtime_tasks)
{
    char dir[] = "/tmp/pomp-unit-trace-XXXXXX", cmd[256];
    char *ev = otf2_events_of(&rt_model, dir);
    cr_expect_eq(count_events(ev, "THREAD_TASK_CREATE", 0, 12, "Generation Number: 1"), 1, "%s", ev);
    cr_expect_eq(count_events(ev, "THREAD_TASK_CREATE", 0, 13, "Generation Number: 2"), 1);
    cr_expect_eq(count_events(ev, "THREAD_TASK_CREATE", -1, -1, NULL), 2);
    cr_expect_eq(count_events(ev, "THREAD_TASK_SWITCH", 0, 14, "Generation Number: 1"), 1);
    cr_expect_eq(count_events(ev, "THREAD_TASK_SWITCH", 1, 15, "Generation Number: 1"), 1);
    cr_expect_eq(count_events(ev, "THREAD_TASK_SWITCH", 1, 21, "Generation Number: 2"), 1);
    cr_expect_eq(count_events(ev, "THREAD_TASK_SWITCH", -1, -1, NULL), 3, "none for task 999");
    cr_expect_eq(count_events(ev, "THREAD_TASK_COMPLETE", 0, 20, "Generation Number: 1"), 1,
                 "the untied task completes once, at its last frame's end");
    cr_expect_eq(count_events(ev, "THREAD_TASK_COMPLETE", 1, 22, "Generation Number: 2"), 1);
    cr_expect_eq(count_events(ev, "THREAD_TASK_COMPLETE", -1, -1, NULL), 2);
    cr_expect_eq(count_events(ev, "ENTER", 1, 23, "Region: \"task"), 1, "task 999 is a plain region");
    free(ev);
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    cr_expect_eq(system(cmd), 0);
}

Test(trace, chrome_task_flows)
{
    char *text = NULL;
    size_t size = 0;
    FILE *f = open_memstream(&text, &size);
    cr_assert_eq(trace_chrome_write(&rt_model, f), 0);
    fclose(f);
    cr_expect_eq(count_lines(text, "{\"ph\":\"s\"", NULL), 2, "%s", text);
    cr_expect_eq(count_lines(text, "{\"ph\":\"s\",\"pid\":7,\"tid\":0,\"ts\":0.012", "\"id\":\"0xc8\""), 1);
    cr_expect_eq(count_lines(text, "{\"ph\":\"f\"", "\"id\":\"0xc8\",\"bp\":\"e\""), 2,
                 "a flow to each frame of task 200");
    cr_expect_eq(count_lines(text, "{\"ph\":\"f\",\"pid\":7,\"tid\":1,\"ts\":0.021", "\"id\":\"0xc9\""), 1);
    free(text);
}
