/* What the OpenMP runtime tells a program: team sizes, ICVs, schedules,
 * teams, affinity, tasks, locks, pause. Every line it prints is
 * deterministic for a given runtime and environment, so a measured run
 * (pompcc, pomprun, sampling, tracing) must print exactly what the plain
 * build prints (test_runtime_answers.sh). Per-thread answers are gathered
 * into arrays indexed by thread number and printed by one thread.
 * Build with -DWITH_AFFINITY=0 for GCC objects on libomp, whose GOMP layer
 * cannot serve the affinity-format calls (docs/gomp.md). */
#include <omp.h>
#include <stdio.h>
#include <string.h>

#ifndef WITH_AFFINITY
#define WITH_AFFINITY 1
#endif

/* libgomp has no omp_control_tool (GCC 12's omp.h does not declare it):
 * a weak reference is null there, as in the plain build. */
int omp_control_tool(int command, int modifier, void *arg) __attribute__((weak));

/* Declared by GCC 12's omp.h, but its libgomp does not define them: weak
 * references, null there (the plain build links as the measured ones). */
#pragma weak omp_init_lock_with_hint
#pragma weak omp_init_nest_lock_with_hint

#define MAXT 16

static void init_lock(omp_lock_t *l, omp_sync_hint_t hint)
{
    if (omp_init_lock_with_hint)
        omp_init_lock_with_hint(l, hint);
    else
        omp_init_lock(l);
}

static const char *kind_name(omp_sched_t k)
{
    switch ((int)k & ~(int)omp_sched_monotonic) {
    case omp_sched_static: return "static";
    case omp_sched_dynamic: return "dynamic";
    case omp_sched_guided: return "guided";
    case omp_sched_auto: return "auto";
    default: return "other";
    }
}

static void print_schedule(const char *what)
{
    omp_sched_t k;
    int chunk;
    omp_get_schedule(&k, &chunk);
    printf("%s: schedule %s%s,%d\n", what, (k & omp_sched_monotonic) ? "monotonic:" : "",
           kind_name(k), chunk);
}

static void icvs(void)
{
    printf("icv: max_threads %d dynamic %d thread_limit %d max_active_levels %d"
           " supported_active_levels %d cancellation %d max_task_priority %d\n",
           omp_get_max_threads(), omp_get_dynamic(), omp_get_thread_limit(),
           omp_get_max_active_levels(), omp_get_supported_active_levels(),
           omp_get_cancellation(), omp_get_max_task_priority());
    printf("icv: num_procs %d proc_bind %d num_places %d in_parallel %d level %d"
           " num_devices %d initial_device %d is_initial %d\n",
           omp_get_num_procs(), (int)omp_get_proc_bind(), omp_get_num_places(),
           omp_in_parallel(), omp_get_level(), omp_get_num_devices(),
           omp_get_initial_device(), omp_is_initial_device());
    print_schedule("icv");
    printf("icv: wtick %g\n", omp_get_wtick());
}

/* The size of a team, its max_threads inside, from thread 0 */
static void team(const char *what, int req)
{
    int size = -1, inner_max = -1, act = -1;
    if (req > 0) {
#pragma omp parallel num_threads(req)
        {
#pragma omp master
            { size = omp_get_num_threads(); inner_max = omp_get_max_threads(); act = omp_get_active_level(); }
        }
    } else {
#pragma omp parallel
        {
#pragma omp master
            { size = omp_get_num_threads(); inner_max = omp_get_max_threads(); act = omp_get_active_level(); }
        }
    }
    if (omp_get_dynamic()) /* the runtimes' dynamic adjustment follows the load */
        printf("%s: team within 1..%d %d\n", what, req > 0 ? req : omp_get_max_threads(),
               size >= 1 && size <= (req > 0 ? req : omp_get_max_threads()));
    else
        printf("%s: team %d inner_max_threads %d active_level %d\n", what, size, inner_max, act);
}

static void teams_sizes(void)
{
    team("default", 0);
    team("num_threads(3)", 3);
    team("num_threads(1)", 1);
    int size = -1;
#pragma omp parallel if(0)
    size = omp_get_num_threads() * 100 + omp_get_level() * 10 + omp_get_active_level();
    printf("if(0): size*100+level*10+active %d\n", size);
    int saved = omp_get_max_threads();
    omp_set_num_threads(3);
    team("omp_set_num_threads(3)", 0);
    omp_set_num_threads(saved);
}

/* Nested teams: each inner thread's view, printed in order */
static void nested(const char *what)
{
    int rec[MAXT][MAXT][6];
    int sizes[MAXT];
    memset(rec, -1, sizeof rec);
    memset(sizes, -1, sizeof sizes);
    int outer = 0;
#pragma omp parallel num_threads(2)
    {
        int o = omp_get_thread_num();
#pragma omp master
        outer = omp_get_num_threads();
#pragma omp parallel num_threads(2)
        {
            int i = omp_get_thread_num();
            if (o < MAXT && i < MAXT) {
                int *r = rec[o][i];
                r[0] = omp_get_level();
                r[1] = omp_get_active_level();
                r[2] = omp_get_ancestor_thread_num(1);
                r[3] = omp_get_team_size(1);
                r[4] = omp_get_team_size(2);
                r[5] = omp_get_max_threads();
            }
            if (i == 0 && o < MAXT)
                sizes[o] = omp_get_num_threads();
        }
    }
    printf("%s: outer %d\n", what, outer);
    if (omp_get_thread_limit() < 2 * outer) {
        /* which outer thread gets the threads left under the limit, and whether
         * the other's inner team has ended by then, is a race: only bounds */
        int ok = 1;
        for (int o = 0; o < outer && o < MAXT; o++)
            ok &= sizes[o] >= 1 && sizes[o] <= 2;
        printf("%s: inner teams within 1..2 under the thread limit %d\n", what, ok);
        return;
    }
    for (int o = 0; o < outer && o < MAXT; o++) {
        printf("%s: outer thread %d inner team %d:", what, o, sizes[o]);
        for (int i = 0; i < sizes[o] && i < MAXT; i++)
            printf(" [%d %d %d %d %d %d]", rec[o][i][0], rec[o][i][1], rec[o][i][2], rec[o][i][3],
                   rec[o][i][4], rec[o][i][5]);
        printf("\n");
    }
}

static void nesting(void)
{
    nested("nested");
    int saved = omp_get_max_active_levels();
    omp_set_max_active_levels(1);
    printf("set_max_active_levels(1): %d\n", omp_get_max_active_levels());
    nested("nested, 1 level");
    omp_set_max_active_levels(3);
    nested("nested, 3 levels");
    omp_set_max_active_levels(saved);
}

#define N 13
static void owners(const char *what, int *own)
{
    printf("%s:", what);
    for (int i = 0; i < N; i++)
        printf(" %d", own[i]);
    printf("\n");
}

static void schedules(void)
{
    int own[N];
#pragma omp parallel
    {
#pragma omp for schedule(static)
        for (int i = 0; i < N; i++) own[i] = omp_get_thread_num();
    }
    owners("static", own);
#pragma omp parallel
    {
#pragma omp for schedule(static, 2)
        for (int i = 0; i < N; i++) own[i] = omp_get_thread_num();
    }
    owners("static,2", own);
#pragma omp parallel for schedule(static, 3)
    for (int i = 0; i < N; i++) own[i] = omp_get_thread_num();
    owners("parallel for static,3", own);
    omp_sched_t k;
    int c;
    omp_get_schedule(&k, &c);
    if (((int)k & ~(int)omp_sched_monotonic) == omp_sched_static) {
        /* OMP_SCHEDULE=static[,n]: the runtime schedule is deterministic */
#pragma omp parallel for schedule(runtime)
        for (int i = 0; i < N; i++) own[i] = omp_get_thread_num();
        owners("runtime (static)", own);
    }
    omp_set_schedule(omp_sched_dynamic, 3);
    print_schedule("set_schedule(dynamic,3)");
    omp_set_schedule(omp_sched_static, 2);
    print_schedule("set_schedule(static,2)");
#pragma omp parallel for schedule(runtime)
    for (int i = 0; i < N; i++) own[i] = omp_get_thread_num();
    owners("runtime after set_schedule(static,2)", own);
    omp_set_schedule(omp_sched_guided, 0);
    print_schedule("set_schedule(guided,0)");
    omp_set_schedule(k, c);
    int sum = 0;
#pragma omp parallel for schedule(runtime) reduction(+:sum)
    for (int i = 0; i < 100; i++) sum += i;
    print_schedule("restored");
    printf("runtime sum %d\n", sum);
}

static void host_teams(void)
{
    int nt[4] = {-1, -1, -1, -1}, tn[4] = {-1, -1, -1, -1}, lvl[4] = {-1, -1, -1, -1};
#pragma omp teams num_teams(2)
    {
        int t = omp_get_team_num();
        if (t < 4) {
            nt[t] = omp_get_num_teams();
            tn[t] = t;
#pragma omp parallel num_threads(2)
#pragma omp master
            lvl[t] = omp_get_level() * 10 + omp_get_num_threads();
        }
    }
    for (int t = 0; t < 2; t++)
        printf("teams: team %d of %d inner parallel level*10+threads %d\n", tn[t], nt[t], lvl[t]);
    printf("teams: outside num_teams %d team_num %d\n", omp_get_num_teams(), omp_get_team_num());
}

static void affinity(void)
{
    int bind[MAXT], place[MAXT], nplaces[MAXT], n = 0;
    memset(bind, -1, sizeof bind);
#pragma omp parallel num_threads(2)
    {
        int i = omp_get_thread_num();
        if (i < MAXT) {
            bind[i] = (int)omp_get_proc_bind();
            place[i] = omp_get_place_num();
            nplaces[i] = omp_get_partition_num_places();
        }
#pragma omp master
        n = omp_get_num_threads();
    }
    for (int i = 0; i < n && i < MAXT; i++)
        printf("affinity: thread %d proc_bind %d place %d partition_places %d\n", i, bind[i],
               place[i], nplaces[i]);
    for (int p = 0; p < omp_get_num_places(); p++)
        printf("affinity: place %d procs %d\n", p, omp_get_place_num_procs(p));
#if WITH_AFFINITY
    char buf[MAXT][128], fmt[128];
    omp_get_affinity_format(fmt, sizeof fmt);
    printf("affinity format: %s\n", fmt);
    size_t len[MAXT];
#pragma omp parallel num_threads(2)
    {
        int i = omp_get_thread_num();
        if (i < MAXT)
            len[i] = omp_capture_affinity(buf[i], sizeof buf[i], "L%L n%n N%N a%a");
    }
    for (int i = 0; i < n && i < MAXT; i++)
        printf("capture: %s (%zu)\n", buf[i], len[i]);
    fflush(stdout);
    omp_display_affinity("display L%L n%n N%N");
    fflush(stdout);
#endif
}

static void tasks(void)
{
    int final_in = -1, child_in = -1, merge_in = -1, prio = omp_get_max_task_priority();
#pragma omp parallel num_threads(1)
#pragma omp single
    {
#pragma omp task final(1)
        {
            final_in = omp_in_final();
#pragma omp task
            child_in = omp_in_final();
#pragma omp taskwait
        }
#pragma omp task mergeable
        merge_in = omp_in_final();
#pragma omp taskwait
    }
    printf("tasks: final %d child %d mergeable %d max_priority %d\n", final_in, child_in,
           merge_in, prio);
    int who[8], order[8], next = 0;
#pragma omp parallel num_threads(1)
#pragma omp single
    for (int t = 0; t < 8; t++) {
#pragma omp task priority(t) firstprivate(t) shared(who, order, next)
        {
            who[t] = omp_get_thread_num();
            order[t] = next++;
        }
    }
    printf("tasks (team of 1): thread");
    for (int t = 0; t < 8; t++) printf(" %d", who[t]);
    printf("\n");
    int ran = 0, cancelled = 0;
#pragma omp parallel num_threads(1)
#pragma omp single
#pragma omp taskgroup
    for (int t = 0; t < 6; t++) {
#pragma omp task shared(ran, cancelled) firstprivate(t)
        {
            ran++;
            if (t == 0) {
#pragma omp cancel taskgroup
                cancelled = 1;
            }
        }
    }
    printf("taskgroup cancel: ran %d cancelled %d\n", ran, cancelled);
    (void)order;
}

static void locks(void)
{
    omp_lock_t l;
    omp_nest_lock_t nl;
    init_lock(&l, omp_sync_hint_contended);
    omp_set_lock(&l);
    int busy = omp_test_lock(&l);
    omp_unset_lock(&l);
    int free_ = omp_test_lock(&l);
    omp_unset_lock(&l);
    omp_destroy_lock(&l);
    if (omp_init_nest_lock_with_hint)
        omp_init_nest_lock_with_hint(&nl, omp_sync_hint_speculative);
    else
        omp_init_nest_lock(&nl);
    printf("locks: with_hint %s\n", omp_init_lock_with_hint ? "in this runtime" : "not in this runtime");
    int c1 = omp_test_nest_lock(&nl);
    int c2 = omp_test_nest_lock(&nl);
    omp_set_nest_lock(&nl);
    int c4 = omp_test_nest_lock(&nl);
    int other = -1;
#pragma omp parallel num_threads(2)
    {
        if (omp_get_thread_num() == 1) other = omp_test_nest_lock(&nl);
    }
    for (int i = 0; i < 4; i++) omp_unset_nest_lock(&nl);
    int again = omp_test_nest_lock(&nl);
    omp_unset_nest_lock(&nl);
    omp_destroy_nest_lock(&nl);
    printf("locks: busy %d free %d nest %d %d %d other %d again %d\n", busy, free_, c1, c2, c4,
           other, again);
    int sum = 0;
    init_lock(&l, omp_sync_hint_uncontended);
#pragma omp parallel for
    for (int i = 1; i <= 50; i++) {
        omp_set_lock(&l);
        sum += i;
        omp_unset_lock(&l);
    }
    omp_destroy_lock(&l);
    printf("locks: sum %d\n", sum);
}

static void control_and_pause(void)
{
    if (omp_control_tool) {
        int flush = omp_control_tool(3 /* flush */, 0, NULL);
        int pause = omp_control_tool(2 /* pause */, 0, NULL);
        int start = omp_control_tool(1 /* start */, 0, NULL);
        int other = omp_control_tool(64, 0, NULL);
        printf("control_tool: flush %d pause %d start %d 64 %d\n", flush, pause, start, other);
    } else {
        printf("control_tool: not in this runtime\n");
    }
    int rc = omp_pause_resource_all(omp_pause_soft);
    int n = 0;
#pragma omp parallel
#pragma omp master
    n = omp_get_num_threads();
    printf("pause soft: rc %d then team %d max_threads %d\n", rc, n, omp_get_max_threads());
    rc = omp_pause_resource_all(omp_pause_hard);
    n = 0;
#pragma omp parallel
#pragma omp master
    n = omp_get_num_threads();
    printf("pause hard: rc %d then team %d max_threads %d\n", rc, n, omp_get_max_threads());
}

/* Whether part name is in the comma-separated list (default: all) */
static int part(const char *list, const char *name)
{
    size_t n = strlen(name);
    for (const char *p = list; p && *p; p = strchr(p, ',') ? strchr(p, ',') + 1 : NULL)
        if (!strncmp(p, "all", 3) || (!strncmp(p, name, n) && (p[n] == ',' || p[n] == 0)))
            return 1;
    return 0;
}

/* argv[1]: the parts to run, comma-separated (OMP_DYNAMIC=true: team sizes
 * follow the load, so only parts that print no team-dependent answers) */
int main(int argc, char **argv)
{
    const char *only = argc > 1 ? argv[1] : "all";
#define PART(name) part(only, name)
    if (PART("icv")) icvs();
    if (PART("teams")) teams_sizes();
    if (PART("nested")) nesting();
    if (PART("schedule")) schedules();
    if (PART("host-teams")) host_teams();
    if (PART("affinity")) affinity();
    if (PART("tasks")) tasks();
    if (PART("locks")) locks();
    if (PART("control")) control_and_pause();
    return 0;
}
