# The libgomp bridge's entry points of OpenMP 4.5 to 5.0 constructs and of
# old binaries (docs/gomp.md), one GCC program each, built plain (gcc -g -O2
# -fopenmp) and run by pomprun on libgomp, on LLVM libomp where libomp runs
# it, and built with pompcc: parallel with task reductions
# (GOMP_parallel_reductions), sections with task reductions
# (GOMP_sections2_start, GOMP_workshare_task_reduction_unregister), doacross
# loops (GOMP_loop_doacross_*_start, GOMP_loop_ull_doacross_*_start,
# GOMP_doacross_wait/_post and their _ull forms), taskwait with depend
# (GOMP_taskwait_depend), host teams (GOMP_teams_reg), and the OpenMP 2.5
# lock calls (omp_set_lock@OMP_1.0, omp_set_nest_lock@OMP_1.0). Each
# program's output is the plain build's; the plain build calls the entry
# point (so that no assertion holds vacuously); the profile has the regions
# with their exact counts and no nesting errors.
source "$(dirname "$0")/lib.sh"
POMPRUN="$BUILD/bin/pomprun"
[ -n "$E2E_SANITIZE" ] && exit 0 # (a sanitized libpomp cannot be loaded into a plain program)
export POMP_LOOP=Chunks

# build NAME: the plain build of NAME.c and its output, NAME.plain
build() {
    cc -g -O2 -fopenmp "$1.c" -o "$1"
    ./"$1" > "$1.plain"
}
# calls NAME ENTRY...: the plain build calls each entry point
calls() {
    local name=$1 e
    shift
    objdump -d "$name" > "$name.dis"
    for e; do
        grep -qE "call.*<$e@plt>" "$name.dis" || fail "$name: the plain build calls no $e"
    done
}
# run NAME DIR [pomprun's options]: pomprun runs NAME into DIR; its output is the
# plain build's; on libgomp, no nesting errors (libomp reports the begin of
# GCC's single on its executor and never its end: not checked there)
run() {
    local name=$1 dir=$2
    shift 2
    POMP_OUTPUT_DIR=$dir "$POMPRUN" "$@" ./"$name" > "$dir.txt"
    diff -u "$name.plain" "$dir.txt" || fail "$dir: the output differs from the plain build"
    [ $# -gt 0 ] || assert_eq "$(nesting "$dir")" 0 "$dir: nesting errors"
}
nesting() { jq '[.threads[].nesting_errors] | add' "$1/profile.json"; }
# total DIR TYPE FIELD [NAME]: FIELD (visits, begins, incl_ns) summed over the regions of a type (and name)
total() {
    jq --arg t "$2" --arg f "$3" --arg n "${4:-}" '
      ([.regions[] | select(.type == $t and ($n == "" or .name == $n)) | .id]) as $ids
      | [.callpath[] | select(.region as $r | $ids | index($r)) | .per_thread[][$f]] | add // 0' \
      "$1/profile.json"
}
# regions DIR TYPE: how many regions of a type
regions() { jq --arg t "$2" '[.regions[] | select(.type == $t)] | length' "$1/profile.json"; }
# barrier_at DIR LINE: visits of the implementation barriers at a line
barrier_at() {
    jq --argjson l "$2" '
      ([.regions[] | select(.type == "implicit_barrier" and .name == "implementation"
                            and .first_line == $l) | .id]) as $ids
      | [.callpath[] | select(.region as $r | $ids | index($r)) | .per_thread[].visits] | add // 0' \
      "$1/profile.json"
}

# ---- parallel reduction(task, ...): GOMP_parallel_reductions ----
# A team of 4 (its shares, its closing barrier), the in_reduction tasks one
# thread creates; libgomp reads the reduction data's address from the first
# word of the block the bridge hands it (the team record copies the user's).
cat > preduce.c <<'C'
#include <stdio.h>

int main(void)
{
    long x = 0;
    #pragma omp parallel num_threads(4) reduction(task, +: x)
    {
        #pragma omp single nowait
        for (int i = 0; i < 10; i++) {
            #pragma omp task in_reduction(+: x)
            x += i * i;
        }
        x += 1000;
    }
    printf("%ld\n", x);
    return 0;
}
C
build preduce
calls preduce GOMP_parallel_reductions
assert_eq "$(cat preduce.plain)" 4285 "preduce: the plain build's sum"
L=$(line_of preduce.c "#pragma omp parallel num_threads(4)")
L_task=$(line_of preduce.c "#pragma omp task in_reduction")
run preduce preduce_gomp
run preduce preduce_omp --pomp-runtime=omp
assert_eq "$(region_sum preduce_gomp parallel "$L" begins)" 4 "preduce: the team's 4 shares"
assert_eq "$(region_sum preduce_gomp parallel "$L" visits)" 1 "preduce: one parallel region"
assert_eq "$(total preduce_gomp implicit_barrier visits parallel)" 4 "preduce: the closing barrier on 4 threads"
assert_eq "$(region_sum preduce_gomp task_create "$L_task" visits)" 10 "preduce: 10 tasks created"
assert_eq "$(total preduce_gomp task begins)" 10 "preduce: 10 tasks ran"
# (libomp 19 reports GCC's parallel with task reductions without a code address)
assert_eq "$(total preduce_omp parallel begins)" 4 "preduce on libomp: the team's 4 shares"
assert_eq "$(total preduce_omp task begins)" 10 "preduce on libomp: 10 tasks ran"

# ---- sections reduction(task, ...): GOMP_sections2_start ----
# Three sections on a team of 3; the construct's end waits for its
# in_reduction task and the team (GOMP_workshare_task_reduction_unregister:
# an implementation barrier at the construct, as on libomp).
cat > sections.c <<'C'
#include <stdio.h>

int main(void)
{
    long y = 0;
    #pragma omp parallel num_threads(3)
    {
        #pragma omp sections reduction(task, +: y)
        {
            #pragma omp section
            {
                #pragma omp task in_reduction(+: y)
                y += 1;
            }
            #pragma omp section
            y += 10;
            #pragma omp section
            y += 100;
        }
    }
    printf("%ld\n", y);
    return 0;
}
C
build sections
calls sections GOMP_sections2_start GOMP_workshare_task_reduction_unregister
assert_eq "$(cat sections.plain)" 111 "sections: the plain build's sum"
L_par=$(line_of sections.c "#pragma omp parallel")
L=$(line_of sections.c "#pragma omp sections")
run sections sections_gomp
# asked onto libomp, it stays on libgomp, with a warning: GOMP_sections2_start
# is also GCC's call for sections lastprivate(conditional:), where libomp's
# libgomp layer aborts (docs/gomp.md)
run sections sections_omp --pomp-runtime=omp 2> sections_omp.err
assert_contains sections_omp.err "GOMP_sections2_start.*linking GCC's libgomp|GOMP_sections2_start.*libgomp" \
                "sections, --pomp-runtime=omp: kept on libgomp, said"
# (GCC's code address of the sections' start is the parallel's line)
assert_eq "$(region_sum sections_gomp sections "$L_par" visits)" 3 "sections: begun and ended on each of the 3 threads"
assert_eq "$(region_threads sections_gomp sections "$L_par")" 3 "sections: on 3 threads"
assert_eq "$(barrier_at sections_gomp 0)" 3 "sections: its barrier (GOMP_sections_end) on 3 threads"
assert_eq "$(barrier_at sections_gomp "$L")" 3 "sections: the wait for its task reductions on 3 threads"
assert_eq "$(barrier_at sections_omp "$L")" 3 "sections, --pomp-runtime=omp: the wait for its task reductions"
assert_eq "$(total sections_gomp task begins)" 1 "sections: its task ran"

# ---- doacross loops: GOMP_loop_doacross_*_start, GOMP_doacross_wait/_post ----
# ordered(1) static and dynamic,1, ordered(2) (a wavefront) and ordered(5)
# (five arguments per wait), on a team of 4. libomp reports each wait and
# post as the current task's dependences (sink or source); so does the
# bridge: one task_dependences visit each, on libgomp. On libomp the OMPT
# bridge registers no dependences callback (libomp 19 overflows a heap block
# for it at an if(0) task's or a taskwait's mutexinoutset or inoutset
# dependence, docs/ompt.md) and counts a task's dependences at its creation:
# a doacross wait or post creates no task, so none is counted there (before:
# the same count as on libgomp). GCC calls a wait only for a sink
# inside the iteration space: ordered(1) over 63 iterations, 63 posts and
# 62 waits; ordered(2) over 64 x 8, 512 posts, (i-1, j) 63 * 8 and (i, j-1)
# 64 * 7 waits; ordered(5) over 3^5, 243 posts and 2 * 162 waits.
cat > doacross.c <<'C'
#include <stdio.h>

#define N 64
#define M 3
static long a[N], b[N][8], c[M][M][M][M][M];

int main(void)
{
    a[0] = 1;
    #pragma omp parallel num_threads(4)
    {
        #pragma omp for ordered(1) schedule(static)
        for (int i = 1; i < N; i++) {
            #pragma omp ordered depend(sink: i - 1)
            a[i] = a[i - 1] * 3 % 1000003 + i;
            #pragma omp ordered depend(source)
        }
        #pragma omp for ordered(1) schedule(dynamic, 1)
        for (int i = 1; i < N; i++) {
            #pragma omp ordered depend(sink: i - 1)
            a[i] = a[i - 1] * 7 % 1000003 + a[i];
            #pragma omp ordered depend(source)
        }
        #pragma omp for ordered(2) schedule(dynamic, 1)
        for (int i = 0; i < N; i++)
            for (int j = 0; j < 8; j++) {
                #pragma omp ordered depend(sink: i - 1, j) depend(sink: i, j - 1)
                b[i][j] = (i ? b[i - 1][j] : 1) + (j ? b[i][j - 1] : 1);
                #pragma omp ordered depend(source)
            }
        #pragma omp for ordered(5) schedule(dynamic, 1)
        for (int i = 0; i < M; i++)
            for (int j = 0; j < M; j++)
                for (int k = 0; k < M; k++)
                    for (int l = 0; l < M; l++)
                        for (int m = 0; m < M; m++) {
                            #pragma omp ordered depend(sink: i - 1, j, k, l, m) depend(sink: i, j, k, l, m - 1)
                            c[i][j][k][l][m] = 1 + (i ? c[i - 1][j][k][l][m] : 0) + (m ? c[i][j][k][l][m - 1] : 0);
                            #pragma omp ordered depend(source)
                        }
    }
    printf("%ld %ld %ld\n", a[N - 1], b[N - 1][7], c[M - 1][M - 1][M - 1][M - 1][M - 1]);
    return 0;
}
C
build doacross
calls doacross GOMP_loop_doacross_static_start GOMP_loop_doacross_dynamic_start \
    GOMP_doacross_wait GOMP_doacross_post
run doacross doacross_gomp
run doacross doacross_omp --pomp-runtime=omp
for d in doacross_gomp doacross_omp; do
    assert_eq "$(total $d for visits)" 16 "$d: the 4 loops on each of the 4 threads"
    # chunks: one per thread (static), one per iteration of the outer loop (dynamic,1)
    assert_eq "$(total $d for begins)" $((4 + 63 + 64 + 3)) "$d: the loops' chunks"
done
assert_eq "$(total doacross_gomp task_dependences visits)" $((2 * 125 + 512 + 504 + 448 + 243 + 324)) "doacross_gomp: a dependences event per wait and post"
assert_eq "$(total doacross_omp task_dependences visits)" 0 "doacross_omp: no dependences callback on libomp"
assert_eq "$(regions doacross_gomp for)" 4 "doacross: 4 loops"

# Doacross loops libomp 19 does not run (it crashes on GCC's unsigned long
# long doacross loops and on those of a team of one or of no team, without
# pomp too):
# guided, runtime, and the generic start (task reductions), in long and in
# unsigned long long (bounds above LONG_MAX); a loop whose body forks a team
# that runs a doacross loop of its own (the outer loop's waits keep their 2
# arguments); a team of one and no team (nothing waits: no dependences).
cat > doacross2.c <<'C'
#include <stdio.h>

#define N 64
#define U0 ((1ULL << 63) + 5)
static long a[N], u[N], w[4][4][16], z[8];

int main(int argc, char **argv)
{
    unsigned long long lo = U0 + (argc > 5), hi = lo + N; /* not known to GCC */
    long r = 0, s = 0;
    a[0] = 1;
    #pragma omp parallel num_threads(4)
    {
        #pragma omp for ordered(1) schedule(guided)
        for (int i = 1; i < N; i++) {
            #pragma omp ordered depend(sink: i - 1)
            a[i] = a[i - 1] * 3 % 1000003 + i;
            #pragma omp ordered depend(source)
        }
        #pragma omp for ordered(1) schedule(runtime)
        for (int i = 1; i < N; i++) {
            #pragma omp ordered depend(sink: i - 1)
            a[i] = a[i - 1] * 5 % 1000003 + a[i];
            #pragma omp ordered depend(source)
        }
        #pragma omp for ordered(1) schedule(dynamic, 2) reduction(task, +: r)
        for (int i = 1; i < N; i++) {
            #pragma omp ordered depend(sink: i - 1)
            a[i] = a[i - 1] * 7 % 1000003 + a[i];
            r += i;
            #pragma omp ordered depend(source)
        }
        #pragma omp for ordered(1) schedule(static)
        for (unsigned long long v = lo; v < hi; v++) {
            #pragma omp ordered depend(sink: v - 1)
            u[v - lo] = (v > lo ? u[v - lo - 1] : 0) + 1;
            #pragma omp ordered depend(source)
        }
        #pragma omp for ordered(1) schedule(dynamic, 1)
        for (unsigned long long v = lo; v < hi; v++) {
            #pragma omp ordered depend(sink: v - 1)
            u[v - lo] += v > lo ? u[v - lo - 1] : 0;
            #pragma omp ordered depend(source)
        }
        #pragma omp for ordered(1) schedule(guided)
        for (unsigned long long v = lo; v < hi; v++) {
            #pragma omp ordered depend(sink: v - 1)
            u[v - lo] += 1;
            #pragma omp ordered depend(source)
        }
        #pragma omp for ordered(1) schedule(runtime)
        for (unsigned long long v = lo; v < hi; v++) {
            #pragma omp ordered depend(sink: v - 1)
            u[v - lo] += 1;
            #pragma omp ordered depend(source)
        }
        #pragma omp for ordered(1) schedule(dynamic, 2) reduction(task, +: r)
        for (unsigned long long v = lo; v < hi; v++) {
            #pragma omp ordered depend(sink: v - 1)
            u[v - lo] += 1;
            r += 1;
            #pragma omp ordered depend(source)
        }
    }
    #pragma omp parallel num_threads(2) reduction(+: s)
    #pragma omp for ordered(2) schedule(dynamic, 1)
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 4; j++) {
            #pragma omp ordered depend(sink: i - 1, j) depend(sink: i, j - 1)
            #pragma omp parallel num_threads(2)
            #pragma omp for ordered(1) schedule(dynamic, 1)
            for (int x = 1; x < 16; x++) {
                #pragma omp ordered depend(sink: x - 1)
                w[i][j][x] = w[i][j][x - 1] + 1;
                #pragma omp ordered depend(source)
            }
            s += w[i][j][15] * (i + j);
            #pragma omp ordered depend(source)
        }
    #pragma omp parallel num_threads(1)
    #pragma omp for ordered(1)
    for (int i = 1; i < 8; i++) {
        #pragma omp ordered depend(sink: i - 1)
        z[i] = z[i - 1] + i;
        #pragma omp ordered depend(source)
    }
    #pragma omp for ordered(1)
    for (int i = 1; i < 8; i++) {
        #pragma omp ordered depend(sink: i - 1)
        z[i] += z[i - 1];
        #pragma omp ordered depend(source)
    }
    printf("%ld %ld %ld %ld %ld\n", a[N - 1], u[N - 1], r, s, z[7]);
    return 0;
}
C
build doacross2
calls doacross2 GOMP_loop_doacross_guided_start GOMP_loop_doacross_runtime_start \
    GOMP_loop_doacross_start GOMP_loop_ull_doacross_static_start \
    GOMP_loop_ull_doacross_dynamic_start GOMP_loop_ull_doacross_guided_start \
    GOMP_loop_ull_doacross_runtime_start GOMP_loop_ull_doacross_start \
    GOMP_doacross_ull_wait GOMP_doacross_ull_post
export OMP_MAX_ACTIVE_LEVELS=2
run doacross2 doacross2_gomp
# the first team's 8 loops on 4 threads; the nested loop on the 2 threads of
# each of the 16 inner teams, and its outer loop on 2; the team of one's
# loop and the one outside any team
assert_eq "$(total doacross2_gomp for visits)" $((8 * 4 + 16 * 2 + 2 + 1 + 1)) "doacross2: the loops on each thread"
# ordered(1) over 63 iterations: 125 events, over 64: 127; the outer loop of
# the nested ones: 16 posts and 2 * 12 waits; each inner one: 15 posts and
# 14 waits; none in the team of one nor outside a team
assert_eq "$(total doacross2_gomp task_dependences visits)" $((3 * 125 + 5 * 127 + 16 + 24 + 16 * 29)) "doacross2: a dependences event per wait and post"
unset OMP_MAX_ACTIVE_LEVELS

# ---- taskwait depend(...): GOMP_taskwait_depend ----
# The taskwait waits for the task it names (20 ms): a taskwait region at its
# line that lasts as long. libomp 19 reports it as a "taskwait task"
# (task_create with ompt_task_taskwait .. task_schedule ompt_taskwait_complete),
# as it reports an if(0) task's wait for its dependences, which its flags do
# not tell apart: a "wait dependences" there, at the same place, as long
# (docs/ompt.md); before, its wait read as the single's work.
cat > taskwait.c <<'C'
#include <stdio.h>
#include <time.h>

int main(void)
{
    int x = 0, y = 0;
    #pragma omp parallel num_threads(2)
    #pragma omp single
    {
        #pragma omp task depend(out: x) shared(x)
        {
            nanosleep(&(struct timespec){.tv_nsec = 20000000}, NULL);
            x = 42;
        }
        #pragma omp taskwait depend(in: x)
        y = x + 1;
    }
    printf("%d\n", y);
    return 0;
}
C
build taskwait
calls taskwait GOMP_taskwait_depend
run taskwait taskwait_gomp
# (at -O2 GCC's debug information puts the call at the task's line)
assert_eq "$(total taskwait_gomp taskwait visits)" 1 "taskwait: the taskwait, once"
wait_ns=$(total taskwait_gomp taskwait incl_ns)
[ "$wait_ns" -ge 15000000 ] || fail "taskwait: waited $wait_ns ns, not the task's 20 ms"
assert_eq "$(total taskwait_gomp task begins)" 1 "taskwait: its task ran"
run taskwait taskwait_omp --pomp-runtime=omp
assert_eq "$(total taskwait_omp wait visits dependences)" 1 "taskwait, on libomp: its wait, once"
wait_ns=$(total taskwait_omp wait incl_ns dependences)
[ "$wait_ns" -ge 15000000 ] || fail "taskwait, on libomp: waited $wait_ns ns, not the task's 20 ms"

# ---- host teams: GOMP_teams_reg ----
# libgomp runs the 2 teams one after another on the initial thread; each
# forks a team of 3. The league gets no region (as on libomp); the parallel
# regions inside are measured: 2 of 3 threads. (libomp 19 runs this program
# with 1 thread per team: libgomp only.)
cat > teams.c <<'C'
#include <omp.h>
#include <stdio.h>

int main(void)
{
    int t = 0, inner = 0, nteams = 0;
    #pragma omp teams num_teams(2) reduction(+: t, inner)
    {
        t += 1;
        nteams = omp_get_num_teams();
        #pragma omp parallel num_threads(3) reduction(+: inner)
        inner += 1;
    }
    printf("%d %d %d\n", t, inner, nteams);
    return 0;
}
C
build teams
calls teams GOMP_teams_reg
assert_eq "$(cat teams.plain)" "2 6 2" "teams: the plain build's counts"
L=$(line_of teams.c "#pragma omp parallel num_threads(3)")
run teams teams_gomp
assert_eq "$(region_sum teams_gomp parallel "$L" visits)" 2 "teams: a parallel region per team"
assert_eq "$(region_sum teams_gomp parallel "$L" begins)" 6 "teams: 3 shares per team"
assert_eq "$(total teams_gomp implicit_barrier visits parallel)" 6 "teams: the closing barriers"
assert_eq "$(regions teams_gomp parallel)" 1 "teams: no region of the league"

# ---- the OpenMP 2.5 lock calls (OMP_1.0), as a binary built long ago calls them ----
cat > oldlock.c <<'C'
#include <stdio.h>

extern void old_init_lock(void *), old_set_lock(void *), old_unset_lock(void *),
    old_destroy_lock(void *), old_init_nest_lock(void *), old_set_nest_lock(void *),
    old_unset_nest_lock(void *), old_destroy_nest_lock(void *);
__asm__(".symver old_init_lock, omp_init_lock@OMP_1.0");
__asm__(".symver old_set_lock, omp_set_lock@OMP_1.0");
__asm__(".symver old_unset_lock, omp_unset_lock@OMP_1.0");
__asm__(".symver old_destroy_lock, omp_destroy_lock@OMP_1.0");
__asm__(".symver old_init_nest_lock, omp_init_nest_lock@OMP_1.0");
__asm__(".symver old_set_nest_lock, omp_set_nest_lock@OMP_1.0");
__asm__(".symver old_unset_nest_lock, omp_unset_nest_lock@OMP_1.0");
__asm__(".symver old_destroy_nest_lock, omp_destroy_nest_lock@OMP_1.0");

int main(void)
{
    _Alignas(16) char lock[16], nest[16];
    long n = 0, m = 0;
    old_init_lock(lock);
    old_init_nest_lock(nest);
    #pragma omp parallel num_threads(4)
    for (int i = 0; i < 100; i++) {
        old_set_lock(lock);
        n++;
        old_unset_lock(lock);
        old_set_nest_lock(nest); /* N1 */
        old_set_nest_lock(nest); /* N2 */
        m++;
        old_unset_nest_lock(nest);
        old_unset_nest_lock(nest);
    }
    old_destroy_lock(lock);
    old_destroy_nest_lock(nest);
    printf("%ld %ld\n", n, m);
    return 0;
}
C
build oldlock
assert_contains <(objdump -T oldlock) '\(OMP_1\.0\) +omp_set_lock$' "oldlock: binds omp_set_lock@OMP_1.0"
assert_contains <(objdump -T oldlock) '\(OMP_1\.0\) +omp_set_nest_lock$' "oldlock: binds omp_set_nest_lock@OMP_1.0"
assert_eq "$(cat oldlock.plain)" "400 400" "oldlock: the plain build's counts"
L=$(line_of oldlock.c "old_set_lock(lock);")
L1=$(line_of oldlock.c "/* N1 */")
L2=$(line_of oldlock.c "/* N2 */")
run oldlock oldlock_gomp
run oldlock oldlock_omp --pomp-runtime=omp
# (nest locks: a wait also when the owner takes the lock again, on both runtimes)
for d in oldlock_gomp oldlock_omp; do
    assert_eq "$(region_sum $d wait "$L" visits)" 400 "$d: a lock wait per call"
    assert_eq "$(region_threads $d wait "$L")" 4 "$d: lock waits on 4 threads"
    assert_eq "$(region_sum $d wait "$L1" visits)" 400 "$d: a nest lock wait per first call"
    assert_eq "$(region_sum $d wait "$L2" visits)" 400 "$d: a nest lock wait per second call"
done

# ---- loops over unsigned long long bounds above LONG_MAX: GOMP_loop_ull_* ----
# GCC calls the _ull entry points only for bounds that do not fit a long. The
# runtime forms (schedule(runtime), nonmonotonic: and monotonic:), the
# ordered ones (static, dynamic, guided, runtime) and the generic ones
# (reduction(task, ...): GOMP_loop_ull_start, GOMP_loop_ull_ordered_start)
# were not interposed: 8 of these 9 loops were missing under pomprun,
# unsaid, and had no chunks in the pompcc build. 64 iterations each on a team
# of 2, OMP_SCHEDULE=dynamic,4: 16 chunks, but guided,4's 5 (32 16 8 4 4).
cat > ullloops.c <<'C'
#include <stdio.h>

/* Loops over unsigned long long bounds above LONG_MAX: GCC calls the _ull
 * entry points. 64 iterations each, on a team of 2. */
int main(int argc, char **argv)
{
    (void)argv;
    unsigned long long b = (1ULL << 63) + (unsigned)argc - 1, n = 64;
    long s[10] = {0}, r = 0;
    #pragma omp parallel num_threads(2)
    {
        #pragma omp for schedule(runtime) reduction(+: s[0])
        for (unsigned long long i = b; i < b + n; i++) s[0] += (long)(i - b);
        #pragma omp for schedule(nonmonotonic: runtime) reduction(+: s[1])
        for (unsigned long long i = b; i < b + n; i++) s[1] += (long)(i - b);
        #pragma omp for schedule(monotonic: runtime) reduction(+: s[2])
        for (unsigned long long i = b; i < b + n; i++) s[2] += (long)(i - b);
        #pragma omp for ordered schedule(static, 4)
        for (unsigned long long i = b; i < b + n; i++) {
            #pragma omp ordered
            s[3] += (long)(i - b);
        }
        #pragma omp for ordered schedule(dynamic, 4)
        for (unsigned long long i = b; i < b + n; i++) {
            #pragma omp ordered
            s[4] += (long)(i - b);
        }
        #pragma omp for ordered schedule(guided, 4)
        for (unsigned long long i = b; i < b + n; i++) {
            #pragma omp ordered
            s[5] += (long)(i - b);
        }
        #pragma omp for ordered schedule(runtime)
        for (unsigned long long i = b; i < b + n; i++) {
            #pragma omp ordered
            s[6] += (long)(i - b);
        }
        #pragma omp for schedule(dynamic, 4) reduction(task, +: r)
        for (unsigned long long i = b; i < b + n; i++) {
            #pragma omp task in_reduction(+: r)
            r += (long)(i - b);
        }
        #pragma omp for ordered schedule(dynamic, 4) reduction(task, +: r)
        for (unsigned long long i = b; i < b + n; i++) {
            #pragma omp ordered
            s[7] += (long)(i - b);
        }
    }
    printf("%ld %ld %ld %ld %ld %ld %ld %ld %ld\n", s[0], s[1], s[2], s[3], s[4], s[5], s[6], s[7], r);
    return 0;
}
C
build ullloops
calls ullloops GOMP_loop_ull_runtime_start GOMP_loop_ull_nonmonotonic_runtime_start \
      GOMP_loop_ull_maybe_nonmonotonic_runtime_start GOMP_loop_ull_ordered_static_start \
      GOMP_loop_ull_ordered_dynamic_start GOMP_loop_ull_ordered_guided_start \
      GOMP_loop_ull_ordered_runtime_start GOMP_loop_ull_start GOMP_loop_ull_ordered_start
assert_eq "$(cat ullloops.plain)" "2016 2016 2016 2016 2016 2016 2016 2016 2016" "ullloops: the plain build's sums"
OMP_SCHEDULE=dynamic,4 run ullloops ullloops_gomp
assert_eq "$(regions ullloops_gomp for)" 9 "ullloops: 9 loops"
assert_eq "$(total ullloops_gomp for visits)" 18 "ullloops: each loop on both threads"
assert_eq "$(total ullloops_gomp for begins)" 133 "ullloops: the chunks (8 loops of 16, guided's 5)"
assert_eq "$(total ullloops_gomp ordered visits)" 320 "ullloops: 5 ordered loops of 64 iterations"

# ---- the pompcc builds: on libgomp with the bridge, the same output ----
# (the instrumentation reports the constructs; the runtime's reports of the
# waits the instrumentation knows by name are off unless POMP_OMPT=full, as
# for code in libraries not built with pompcc)
for name in preduce sections doacross doacross2 taskwait teams oldlock; do
    "$POMPCC" -g -O2 -fopenmp "$name.c" -o "${name}_pomp"
    POMP_OMPT=full OMP_MAX_ACTIVE_LEVELS=2 POMP_OUTPUT_DIR=${name}_pompcc ./"${name}_pomp" > "${name}_pompcc.txt"
    diff -u "$name.plain" "${name}_pompcc.txt" || fail "${name}_pomp: the output differs from the plain build"
    assert_eq "$(nesting ${name}_pompcc)" 0 "${name}_pomp: nesting errors"
done
assert_contains <(ldd doacross_pomp) 'libpomp-gomp\.so' "pompcc's GCC build has the bridge"
assert_eq "$(total doacross_pompcc task_dependences visits)" "$(total doacross_gomp task_dependences visits)" "doacross_pomp: the dependences"
assert_eq "$(total doacross2_pompcc task_dependences visits)" "$(total doacross2_gomp task_dependences visits)" "doacross2_pomp: the dependences"
assert_eq "$(total oldlock_pompcc wait visits)" 1200 "oldlock_pomp: the lock waits"
assert_eq "$(total teams_pompcc parallel begins)" 6 "teams_pomp: 3 shares per team"
assert_eq "$(total preduce_pompcc parallel begins)" 4 "preduce_pomp: the team's 4 shares"
"$POMPCC" -g -O2 -fopenmp ullloops.c -o ullloops_pomp
OMP_SCHEDULE=dynamic,4 POMP_OUTPUT_DIR=ullloops_pompcc ./ullloops_pomp > ullloops_pompcc.txt
diff -u ullloops.plain ullloops_pompcc.txt || fail "ullloops_pomp: the output differs from the plain build"
assert_eq "$(total ullloops_pompcc for visits)" 18 "ullloops_pomp: each loop on both threads"
assert_eq "$(total ullloops_pompcc for begins)" 133 "ullloops_pomp: the chunks"
