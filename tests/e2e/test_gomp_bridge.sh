# The libgomp bridge (docs/gomp.md) on a GCC task program in the style of a
# real application (recursive tasks with a cutoff, an imbalanced
# schedule(dynamic) loop, critical, a lock, nested teams), run by pomprun on
# libgomp and on LLVM libomp (--pomp-runtime=omp): the program computes what
# the plain build computes, and the two profiles describe the same run: the
# same regions at the same lines, the same counts of tasks, chunks, critical
# entries and lock waits, every team member's share. Also: tasks whose
# argument block the bridge extends keep their data, alignment and semantics
# (firstprivate arrays, aligned data, a copy constructor in C++ terms: GCC's
# cpyfn for a VLA, if(0), depend, priority, final, untied, mergeable); so do
# taskloops' tasks (GOMP_taskloop and GOMP_taskloop_ull), measured one by one.
NUMBERS="$(cd "$(dirname "$0")" && pwd)/numbers"
source "$(dirname "$0")/lib.sh"
POMPRUN="$BUILD/bin/pomprun"
[ -n "$E2E_SANITIZE" ] && exit 0 # (a sanitized libpomp cannot be loaded into a plain program)

cat > app.c <<'C'
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

static long fib_serial(int n) { return n < 2 ? n : fib_serial(n - 1) + fib_serial(n - 2); }

static long fib(int n)
{
    if (n < 14) /* the cutoff */
        return fib_serial(n);
    long a, b;
    #pragma omp task shared(a) firstprivate(n)
    a = fib(n - 1);
    #pragma omp task shared(b) firstprivate(n)
    b = fib(n - 2);
    #pragma omp taskwait
    return a + b;
}

static double work(int i)
{
    double x = 0;
    for (int k = 0; k < (i % 7 + 1) * 20000; k++)
        x += 1.0 / (k + 1);
    return x;
}

int main(void)
{
    omp_lock_t lock;
    omp_init_lock(&lock);
    long f = 0, crit = 0, locked = 0;
    double sum = 0;
    #pragma omp parallel num_threads(4)
    {
        #pragma omp for schedule(dynamic, 1) reduction(+: sum)
        for (int i = 0; i < 40; i++)
            sum += work(i);
        #pragma omp critical
        crit++;
        omp_set_lock(&lock);
        locked++;
        omp_unset_lock(&lock);
        #pragma omp single
        f = fib(20);
    }
    int inner = 0;
    #pragma omp parallel num_threads(2) reduction(+: inner)
    {
        #pragma omp parallel num_threads(2) reduction(+: inner)
        inner++;
    }
    printf("%ld %ld %ld %.6f %d\n", f, crit, locked, sum, inner);
    return 0;
}
C
L_par=$(line_of app.c "#pragma omp parallel num_threads(4)")
L_task=$(line_of app.c "a = fib(n - 1);")
L_for=$(line_of app.c "#pragma omp for schedule(dynamic, 1)")

export OMP_MAX_ACTIVE_LEVELS=2 POMP_LOOP=Chunks
cc -g -O2 -fopenmp app.c -o app
./app > plain.txt
POMP_OUTPUT_DIR=gomp "$POMPRUN" ./app > gomp.txt
POMP_OUTPUT_DIR=omp "$POMPRUN" --pomp-runtime=omp ./app > omp.txt
diff -u plain.txt gomp.txt || fail "output on libgomp differs from the plain build"
diff -u plain.txt omp.txt || fail "output on libomp differs from the plain build"

# count DIR TYPE [NAME]: begins + visits over the regions of a type (and name)
count() {
    jq --arg t "$2" --arg n "${3:-}" '
      ([.regions[] | select(.type == $t and ($n == "" or .name == $n)) | .id]) as $ids
      | [.callpath[] | select(.region as $r | $ids | index($r)) | .per_thread[] | .visits + .begins] | add // 0' \
      "$1/profile.json"
}
# places DIR: the regions as "type name line", sorted (implicit barriers have
# no line; libomp reports some lock waits without a code address: left out)
places() {
    jq -r '.regions[] | select(.init == "ompt" and (.first_line > 0 or .type == "implicit_barrier"))
           | "\(.type) \(.name) \(.first_line)"' "$1/profile.json" | sort -u
}
for d in gomp omp; do
    [ -f $d/profile.json ] || fail "$d: no profile"
    # (libomp reports the begin of GCC's single on its executor and never its
    # end: the OMPT bridge's frame is left open there, one nesting error)
    [ $d = omp ] || assert_eq "$(jq '[.threads[].nesting_errors] | add' $d/profile.json)" 0 "$d: nesting errors"
    assert_eq "$(region_sum $d parallel $L_par begins)" 4 "$d: the team's 4 shares"
    # (GCC's code address of a loop's start is the parallel's line, on both runtimes)
    assert_eq "$(count $d for)" 44 "$d: the loop on each of the 4 threads, one begin per chunk of 40"
    # fib(22) with tasks above the cutoff: tasks created = tasks run
    created=$(count $d task_create) ran=$(region_sum $d task $L_task begins)
    [ "$created" -gt 20 ] || fail "$d: only $created tasks created"
    assert_eq "$(count $d task)" "$created" "$d: every task created ran"
    assert_eq "$(count $d critical)" 8 "$d: critical, entered and begun once per thread"
    assert_eq "$(count $d wait lock)" 4 "$d: lock waits, once per thread"
    assert_eq "$(jq '[.regions[] | select(.type == "parallel")] | length' $d/profile.json)" 3 "$d: three parallel regions"
done
diff -u <(places omp) <(places gomp) || fail "the regions differ between libomp and libgomp"
assert_eq "$(count gomp task_create)" "$(count omp task_create)" "tasks created on both runtimes"
assert_eq "$(count gomp implicit_barrier parallel)" "$(count omp implicit_barrier parallel)" "closing barriers on both runtimes"

# Semantics of the tasks the bridge wraps: their data, alignment and clauses.
cat > tasks.c <<'C'
#include <omp.h>
#include <stdalign.h>
#include <stdint.h>
#include <stdio.h>

struct big { double v[40]; };

int main(void)
{
    int n = 5, misaligned = 0, deps = 0, order[3] = {0, 0, 0}, pos = 0;
    long sum = 0;
    struct big b;
    for (int i = 0; i < 40; i++)
        b.v[i] = i;
    #pragma omp parallel num_threads(3)
    #pragma omp single
    {
        alignas(64) double aligned[8] = {1, 2, 3, 4, 5, 6, 7, 8};
        int vla[n];
        for (int i = 0; i < n; i++)
            vla[i] = i * i;
        for (int t = 0; t < 8; t++) {
            #pragma omp task firstprivate(b, aligned, vla, t) shared(sum, misaligned)
            {
                if ((uintptr_t)aligned % 64)
                    __atomic_add_fetch(&misaligned, 1, __ATOMIC_RELAXED);
                long s = t;
                for (int i = 0; i < 40; i++)
                    s += (long)b.v[i];
                for (int i = 0; i < 8; i++)
                    s += (long)aligned[i];
                for (int i = 0; i < n; i++)
                    s += vla[i];
                __atomic_add_fetch(&sum, s, __ATOMIC_RELAXED);
            }
            b.v[0] += 1000; /* the task's copy was taken before */
        }
        #pragma omp taskwait
        int x = 0;
        #pragma omp task shared(x, order, pos) depend(out: x)
        { x = 1; order[pos++] = 1; }
        #pragma omp task shared(x, order, pos) depend(inout: x) priority(3) untied
        { x *= 10; order[pos++] = 2; }
        #pragma omp task shared(x, deps, order, pos) depend(in: x) final(1) mergeable
        { deps = x; order[pos++] = 3; }
        #pragma omp task if(0) shared(sum)
        sum += 1;
        #pragma omp taskwait
    }
    printf("%ld %d %d %d%d%d\n", sum, misaligned, deps, order[0], order[1], order[2]);
    return 0;
}
C
cc -O2 -fopenmp tasks.c -o tasks
./tasks > tasks_plain.txt
POMP_OUTPUT_DIR=tasks_gomp "$POMPRUN" ./tasks > tasks_gomp.txt
diff -u tasks_plain.txt tasks_gomp.txt || fail "tasks: output on libgomp differs from the plain build"
assert_contains tasks_gomp.txt ' 0 10 123$' "no misaligned copy, dependences in order"
assert_eq "$(count tasks_gomp task)" 12 "tasks: every task measured (8 + 3 + the if(0) one)"

# Taskloops: libgomp writes each task's iterations into the first two words of
# its copy of the argument block; the bridge's head keeps those two words
# first (docs/gomp.md). Every kind of block GCC passes: only pointers and the
# range (no copy function), firstprivate data (GCC's copy function) aligned to
# 32, a VLA, a reduction (libgomp reads the block's third word), lastprivate;
# GOMP_taskloop_ull (bounds above LONG_MAX) up and down; undeferred tasks
# (outside any team, if(0)), final, nogroup.
cat > taskloop.c <<'C'
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#define N 100
#define U0 ((1ULL << 63) + 5) /* not a long: GCC calls GOMP_taskloop_ull */

static long res[N], first[N], down[40], outside[8], vres[40], nogroup[16], many[1000];
static unsigned long long ures[50];
static long red, last = -1;
static int misaligned;

int main(int argc, char **argv)
{
    /* argv[1]: "many" adds a taskloop of 1000 tasks; "up" leaves out the
     * downward unsigned one (LLVM libomp 19 crashes on it, without pomp too) */
    int n = 6, with_many = argc > 1 && strcmp(argv[1], "many") == 0;
    int with_down = !(argc > 1 && strcmp(argv[1], "up") == 0);
    #pragma omp taskloop num_tasks(2) /* T0 */
    for (int i = 0; i < 8; i++)
        outside[i] = i + 1;
    #pragma omp parallel num_threads(4)
    #pragma omp single
    {
        _Alignas(32) double w[4] = {1, 2, 3, 4};
        int vla[n];
        for (int k = 0; k < n; k++)
            vla[k] = k * k;
        #pragma omp taskloop grainsize(7) firstprivate(w) /* T1 */
        for (int i = 0; i < N; i++) {
            if ((uintptr_t)w % 32)
                __atomic_add_fetch(&misaligned, 1, __ATOMIC_RELAXED);
            res[i] += i * (long)(w[0] + w[1] + w[2] + w[3]);
            first[i] = (long)w[0]; /* 1 at the first iteration of each task */
            w[0] += 1;             /* the task's own copy */
        }
        #pragma omp taskloop num_tasks(5) /* T2 */
        for (unsigned long long u = U0; u < U0 + 50; u++)
            ures[u - U0] = u * 3;
        if (with_down) {
            #pragma omp taskloop num_tasks(4) /* T3 */
            for (unsigned long long u = U0 + 120; u > U0; u -= 3)
                down[(u - U0) / 3 - 1] = (long)(u - U0);
        }
        #pragma omp taskloop num_tasks(3) if(0) firstprivate(w) /* T4 */
        for (int i = 0; i < 30; i++) /* (a misaligned copy changes res) */
            res[i] += 1000 * (long)w[3] + (long)((uintptr_t)w % 32) * 1000000;
        #pragma omp taskloop grainsize(10) firstprivate(vla) final(1) /* T5 */
        for (int i = 0; i < 40; i++)
            vres[i] = vla[i % n] + i;
        #pragma omp taskloop reduction(+: red) num_tasks(6) /* T6 */
        for (int i = 0; i < 60; i++)
            red += i;
        double scale[3] = {0.5, 2, 3};
        #pragma omp taskloop lastprivate(last) firstprivate(scale) num_tasks(4) /* T7 */
        for (int i = 0; i < 40; i++)
            last = (long)(i * scale[1] * scale[0] * scale[2]);
        #pragma omp taskloop nogroup num_tasks(4) /* T8 */
        for (int i = 0; i < 16; i++)
            nogroup[i] = i * i;
        #pragma omp taskwait
        if (with_many) {
            #pragma omp taskloop grainsize(1) /* T9 */
            for (int i = 0; i < 1000; i++)
                many[i] = i;
        }
    }
    long s_res = 0, s_out = 0, s_down = 0, s_v = 0, s_ng = 0, s_many = 0, tasks1 = 0;
    unsigned long long s_u = 0;
    for (int i = 0; i < N; i++) {
        s_res += res[i] * (i + 1);
        tasks1 += first[i] == 1;
    }
    for (int i = 0; i < 8; i++)
        s_out += outside[i];
    for (int i = 0; i < 40; i++)
        s_down += down[i] * (i + 1), s_v += vres[i];
    for (int i = 0; i < 50; i++)
        s_u += ures[i] ^ (unsigned long long)i;
    for (int i = 0; i < 16; i++)
        s_ng += nogroup[i];
    for (int i = 0; i < 1000; i++)
        s_many += many[i];
    printf("res %ld tasks %ld misaligned %d\n", s_res, tasks1, misaligned);
    printf("ull %llu down %ld outside %ld vla %ld\n", s_u, s_down, s_out, s_v);
    printf("reduction %ld lastprivate %ld nogroup %ld many %ld\n", red, last, s_ng, s_many);
    return 0;
}
C
# count_at DIR TYPE LINE: begins + visits of the regions of a type at a line
count_at() {
    jq --arg t "$2" --argjson l "$3" '
      ([.regions[] | select(.type == $t and .first_line == $l) | .id]) as $ids
      | [.callpath[] | select(.region as $r | $ids | index($r)) | .per_thread[] | .visits + .begins] | add // 0' \
      "$1/profile.json"
}
cc -g -O2 -fopenmp taskloop.c -o taskloop
for arg in all up many; do ./taskloop $arg > tl_plain_$arg.txt; done
POMP_OUTPUT_DIR=tl_gomp "$POMPRUN" ./taskloop > tl_gomp.txt 2> tl_gomp.err
diff -u tl_plain_all.txt tl_gomp.txt || fail "taskloop: output on libgomp differs from the plain build"
assert_contains tl_gomp.txt '^res [0-9]+ tasks 14 misaligned 0$' "taskloop: 14 tasks of grainsize(7), no misaligned copy"
assert_contains tl_gomp.txt '^reduction 1770 lastprivate 117 nogroup 1240 ' "taskloop: reduction, lastprivate, nogroup"
assert_not_contains tl_gomp.err 'taskloop' "taskloop: every taskloop's tasks measured (no note)"
assert_eq "$(jq '[.threads[].nesting_errors] | add' tl_gomp/profile.json)" 0 "taskloop: nesting errors"
# The tasks libgomp makes (as the OpenMP spec says; libomp makes as many):
# num_tasks(k) over n >= k iterations: k tasks; grainsize(g) over n >= g:
# n / g tasks (the first n % g of them get one iteration more): T1 100 / 7 =
# 14 (the program counts them too: "tasks 14"), T5 40 / 10 = 4. A taskloop's
# region and its tasks are named by the task function's entry, which GCC puts
# at the pragma's line or, at -O2, at a line of the loop it hoisted code from
# (T4): the regions at the lines from each pragma to the next.
tl_regions() { # DIR: the lines of the taskloop regions, ascending
    jq -r '[.regions[] | select(.type == "taskloop") | .first_line] | unique | .[]' "$1/profile.json"
}
mapfile -t L_tl < <(tl_regions tl_gomp)
assert_eq "${#L_tl[@]}" 9 "taskloop: the 9 constructs"
i=0
for t in T0:2 T1:14 T2:5 T3:4 T4:3 T5:4 T6:6 T7:4 T8:4; do
    L=${L_tl[$i]} n=${t#*:} from=$(line_of taskloop.c "/* ${t%:*} */") i=$((i + 1))
    to=$(line_of taskloop.c "/* T$i */")
    [ "$L" -ge "$from" ] && [ "$L" -lt "$to" ] || fail "taskloop ${t%:*}: region at line $L, not in $from..$to"
    assert_eq "$(count_at tl_gomp task "$L")" "$n" "taskloop ${t%:*}: tasks run"
    assert_eq "$(count_at tl_gomp task_create "$L")" "$n" "taskloop ${t%:*}: tasks created"
    assert_eq "$(count_at tl_gomp taskloop "$L")" 1 "taskloop ${t%:*}: the construct"
done
assert_eq "$(count tl_gomp task)" 46 "taskloop: no other tasks"
# The same binary on libomp (without T3): the same output and as many tasks
# (libomp gives GCC's taskloop tasks no code address: counted in all).
POMP_OUTPUT_DIR=tl_gomp_up "$POMPRUN" ./taskloop up > tl_gomp_up.txt
POMP_OUTPUT_DIR=tl_omp_up "$POMPRUN" --pomp-runtime=omp ./taskloop up > tl_omp_up.txt 2> tl_omp_up.err
diff -u tl_plain_up.txt tl_gomp_up.txt || fail "taskloop up: output on libgomp differs from the plain build"
diff -u tl_plain_up.txt tl_omp_up.txt || fail "taskloop up: output on libomp differs from the plain build"
assert_eq "$(count tl_gomp_up task)" 42 "taskloop up: tasks on libgomp (46 without T3's 4)"
assert_eq "$(count tl_omp_up task)" 42 "taskloop up: tasks on libomp"
assert_eq "$(count tl_omp_up task_create)" 42 "taskloop up: tasks created on libomp"
assert_eq "$(count tl_gomp_up taskloop)" "$(count tl_omp_up taskloop)" "taskloop up: the constructs on both runtimes"
# A taskloop of more tasks than the bridge wraps (1000 > 256, no copy
# function: libgomp would copy every block onto its stack) runs unwrapped,
# counted in the exit note; its region is measured.
POMP_OUTPUT_DIR=tl_many "$POMPRUN" ./taskloop many > tl_many.txt 2> tl_many.err
diff -u tl_plain_many.txt tl_many.txt || fail "taskloop many: output on libgomp differs from the plain build"
assert_contains tl_many.err '^pomp: note: 1 taskloop construct of more tasks or larger data than the bridge wraps ran on libgomp with its tasks unmeasured' "taskloop many: the note"
L9=$(tl_regions tl_many | tail -1)
[ "$L9" -ge "$(line_of taskloop.c "/* T9 */")" ] || fail "taskloop many: no region of T9"
assert_eq "$(count_at tl_many task "$L9")" 0 "taskloop many: its tasks unmeasured"
assert_eq "$(count_at tl_many taskloop "$L9")" 1 "taskloop many: its region measured"
assert_eq "$(count tl_many task)" 46 "taskloop many: the others measured"
# OMP_CANCELLATION: a copy function makes libgomp run queued tasks of a
# cancelled taskgroup; taskloops without one of GCC's run unwrapped.
POMP_OUTPUT_DIR=tl_cancel OMP_CANCELLATION=true "$POMPRUN" ./taskloop > tl_cancel.txt 2> tl_cancel.err
diff -u tl_plain_all.txt tl_cancel.txt || fail "taskloop cancellation: output differs from the plain build"
assert_contains tl_cancel.err 'taskloop constructs? under OMP_CANCELLATION without a copy function ran' "taskloop cancellation: the note"
assert_eq "$(count_at tl_cancel task "${L_tl[1]}")" 14 "taskloop cancellation: T1 (GCC's copy function) measured"
assert_eq "$(count_at tl_cancel task "${L_tl[0]}")" 0 "taskloop cancellation: T0 (no copy function) unmeasured"

# Built with pompcc: the default build stays on libgomp and measures the same.
"$POMPCC" -g -O2 -fopenmp app.c -o app_pomp
assert_contains <(ldd app_pomp) 'libpomp-gomp\.so' "pompcc's GCC build has the bridge"
POMP_OUTPUT_DIR=pomp ./app_pomp > pomp.txt
diff -u plain.txt pomp.txt || fail "output of the pompcc build differs from the plain build"
assert_eq "$(region_sum pomp for $L_for begins)" 40 "pompcc build: chunks from the bridge"
assert_eq "$(count pomp implicit_barrier parallel)" "$(count gomp implicit_barrier parallel)" "pompcc build: closing barriers"

# OMP_CANCELLATION=true: libgomp discards a cancelled taskgroup's queued tasks
# only when they have no copy function. The bridge must not give them one
# (its wrapper would): the tasks stay unwrapped, counted and said. Thread 1
# stays away from the tasks until the taskgroup is over, so thread 0 runs the
# first task, which cancels the group, and the other nine are discarded.
cat > cancel.c <<'C'
#include <omp.h>
#include <stdio.h>
int main(void)
{
    int ran = 0, cancelled = 0, released = 0;
    #pragma omp parallel num_threads(2) shared(ran, cancelled, released)
    {
        if (omp_get_thread_num() == 1) {
            while (!__atomic_load_n(&released, __ATOMIC_ACQUIRE)) /* no scheduling point */
                ;
        } else {
            #pragma omp taskgroup
            {
                for (int i = 0; i < 10; i++) {
                    #pragma omp task shared(ran, cancelled)
                    {
                        if (!cancelled) {
                            cancelled = 1;
                            #pragma omp cancel taskgroup
                        }
                        ran++;
                    }
                }
            }
            __atomic_store_n(&released, 1, __ATOMIC_RELEASE);
        }
    }
    printf("tasks run: %d\n", ran);
    return 0;
}
C
cc -O2 -fopenmp $E2E_SANITIZE cancel.c -o cancel
assert_eq "$(OMP_CANCELLATION=true ./cancel)" "tasks run: 0" "cancellation: the plain program"
assert_eq "$(OMP_CANCELLATION=true POMP_SUMMARY=off POMP_OUTPUT_DIR=cancel_out "$BUILD/bin/pomprun" ./cancel 2> cancel.err)" \
          "tasks run: 0" "cancellation: the same tasks discarded under pomprun"
assert_contains cancel.err "note: 10 tasks created on libgomp went unmeasured, and so did their runs: under OMP_CANCELLATION" "cancellation: the unwrapped tasks are said"
# ... in the profile too, which pomp-report says and rates nothing by (their
# time read as the barrier's wait)
assert_contains <(jq -r '.unmeasured[]' cancel_out/profile.json) "^10 tasks created on libgomp went unmeasured" "cancellation: the profile says it"
"$BUILD/bin/pomp-report" cancel_out > cancel_report.txt
assert_contains cancel_report.txt "^warning: not measured: 10 tasks created on libgomp went unmeasured" "cancellation: pomp-report says it"
assert_contains cancel_report.txt "not rated: part of the run went unmeasured" "cancellation: not rated"

# ... and in a pompcc build: an untied task with a scheduling point in its body
# is measured by the bridge's wrapper, which OMP_CANCELLATION leaves off. Its
# run is not in the profile; the note on its construct said it "never ran",
# beside the warning that it ran unmeasured (a probe)
cat > untied_cancel.c <<'C'
#include <stdio.h>
int main(void)
{
    long produced = 0;
    #pragma omp parallel num_threads(2)
    #pragma omp single
    {
        #pragma omp task untied shared(produced)
        {
            for (int b = 0; b < 10; b++) {
                #pragma omp task firstprivate(b) shared(produced)
                {
                    #pragma omp atomic
                    produced += b;
                }
                #pragma omp taskyield
            }
            #pragma omp taskwait
        }
    }
    printf("produced=%ld\n", produced);
    return 0;
}
C
"$POMPCC" -O2 -fopenmp untied_cancel.c -o untied_cancel 2> uc.err || { cat uc.err; fail "build untied_cancel.c"; }
assert_eq "$(OMP_CANCELLATION=true POMP_SUMMARY=off POMP_OUTPUT_DIR=uc_out ./untied_cancel 2> /dev/null)" "produced=45" \
    "untied task under cancellation: the program's result"
"$BUILD/bin/pomp-report" uc_out > uc_report.txt
assert_contains uc_report.txt "^warning: not measured: 1 task created on libgomp went unmeasured, and so did its run" \
    "untied task under cancellation: its run said unmeasured"
assert_contains uc_report.txt "^note: task @ [^ ]*untied_cancel.c:[0-9-]*: 1 created, 0 ran measured; 1 not seen to run \\(run unmeasured, as the warning above says" \
    "untied task under cancellation: the note does not say it never ran"
assert_not_contains uc_report.txt "never ran" "untied task under cancellation: nothing said never to have run"
assert_eq "$("$BUILD/bin/pomp-report" --json uc_out | jq -c '[.tasks_not_run[] | [.created, .ran, .runs_unmeasured]]')" "[[1,0,true]]" \
    "untied task under cancellation: the JSON report says the runs went unmeasured"
"$BUILD/bin/pomp-report" --check uc_out > /dev/null || fail "untied task under cancellation: --check"

# single copyprivate in a GCC binary under pomprun (GOMP_single_copy_start,
# GOMP_single_copy_end): the single is a region, its executor's blocks timed
# to their hand-over (there was no single at all, only the barriers), and the
# others' waits are barrier waits, as with GOMP_single_start
cc -O2 -g -fopenmp -I"$NUMBERS" "$NUMBERS/single_copy.c" -o single_copy_plain
POMP_OUTPUT_DIR=sc_out "$POMPRUN" ./single_copy_plain > sc.txt 2> sc.err
assert_eq "$(cat sc.txt)" done "single copyprivate under pomprun: the program"
single=$(jq '[.regions[] | select(.type == "single") | .id] as $s
             | [.callpath[] | select(.region as $r | $s | index($r)) | .per_thread[]]
             | [(map(.visits) | add), (map(.begins) | add), (map(.body_ns) | add / 1e6 | floor)] | @tsv' -r sc_out/profile.json)
read -r visits begins body_ms <<< "$single"
assert_eq "$visits $begins" "6 3" "single copyprivate under pomprun: 3 executions of 2 threads, 3 blocks"
[ "$body_ms" -ge 85 ] && [ "$body_ms" -le 150 ] || fail "single copyprivate under pomprun: the blocks took $body_ms ms, the program slept 90"
"$BUILD/bin/pomp-report" --check sc_out > /dev/null 2>&1 || fail "single copyprivate under pomprun: --check"

# Nested teams on libgomp: each inner team's worker is a thread of its own,
# which libgomp ends after the team; it waits at the closing barrier for its
# master's 1 ms. Its barrier ended at finalization, when the master's record
# of the instance had long been reused: most such waits read 0 (13 ms of the
# 25 ms the program measured itself). It now ends when the thread does.
cat > nestwait.c <<'C'
#include <omp.h>
#include <stdio.h>
static void spin(double s)
{
    double t = omp_get_wtime();
    while (omp_get_wtime() - t < s)
        ;
}
int main(void)
{
    omp_set_max_active_levels(2);
    double wait[2] = {0, 0};
#pragma omp parallel num_threads(2)
    for (int r = 0; r < 80; r++) {
        double tw = 0, tm = 0;
#pragma omp parallel num_threads(2)
        {
            if (omp_get_thread_num() == 0) {
                spin(0.001);
                tm = omp_get_wtime();
            } else {
                tw = omp_get_wtime();
            }
        }
        if (tm > tw)
            wait[omp_get_thread_num()] += tm - tw;
    }
    fprintf(stderr, "%.3f\n", (wait[0] + wait[1]) * 1e3);
    return 0;
}
C
"$POMPCC" -fopenmp -O2 nestwait.c -o nestwait 2> /dev/null || fail "build nestwait.c"
POMP_OUTPUT_DIR=nestwait.d ./nestwait 2> nestwait.err
truth=$(head -1 nestwait.err)
got=$(jq '([.regions[] | select(.type == "parallel") | .id] | max) as $inner
          | ([.callpath[] | select(.region == $inner) | .id]) as $in
          | [.callpath[] | select(.parent as $p | $in | index($p)) | .per_thread[] | select(.thread >= 2) | .incl_ns]
          | add / 1e6' nestwait.d/profile.json)
awk -v t="$truth" -v g="$got" 'BEGIN { exit !(t > 5 && g >= 0.7 * t && g <= 3 * t + 20) }' ||
    fail "nested teams' own threads: $got ms of barrier waits, the program measured $truth ms"
"$REPORT" --check nestwait.d > /dev/null || fail "nested teams' own threads: --check"
echo "nested teams' own threads: barrier waits $got ms, the program measured $truth ms"

# Parallel regions nested deeper than the bridge tracks (8), on a worker: a
# recursion of teams of one. Each begin of those teams was reported and no
# end: the worker's count of its teams went up by one per level beyond 8, and
# at the end its closing barrier stayed open, blamed on "exit() or a signal",
# with fork/join above 100 % (a probe: 451 % for a recursion of tasks 20 deep).
cat > nested_deep.c <<'C'
#include <omp.h>
#include <stdio.h>
static long rec(int d)
{
    long r = 1;
    if (d == 0)
        return 1;
#pragma omp parallel num_threads(1) reduction(+ : r)
    r += rec(d - 1);
    return r;
}
int main(void)
{
    long total = 0;
#pragma omp parallel num_threads(2) reduction(+ : total)
    if (omp_get_thread_num() == 1)
        total += rec(12);
    printf("%ld\n", total);
    return 0;
}
C
"$POMPCC" -fopenmp -O2 nested_deep.c -o nested_deep 2> /dev/null || fail "build nested_deep.c"
assert_eq "$(POMP_OUTPUT_DIR=nested_deep.d ./nested_deep 2> nested_deep.err)" 13 "deep nesting: the program"
assert_not_contains nested_deep.err "still open" "deep nesting: no region left open"
assert_eq "$(jq '[.threads[].open_at_end] | add' nested_deep.d/profile.json)" 0 "deep nesting: open_at_end"
"$REPORT" --check nested_deep.d > /dev/null || fail "deep nesting: --check"

# An orphaned loop and single in a function the program calls serially before
# any parallel region, then in one: the serial call is the program's first
# OpenMP call, where the bridge starts the tool. Its loop and chunks are
# measured as the parallel call's are (before: pomprun showed no serial loop
# at all, only its barrier; a pompcc build's serial loop had none of its 16
# chunks; the serial single was missing under pomprun; a probe).
cat > first_call.c <<'C'
#include <stdio.h>
static int relax(double *u, int n)
{
    static int once;
#pragma omp for schedule(dynamic, 4)
    for (int i = 0; i < n; i++)
        u[i] += 1.0;
#pragma omp single
    once++;
    return once;
}
int main(void)
{
    double u[64] = {0};
    int s = relax(u, 64); /* serial: 16 chunks of 4 */
#pragma omp parallel num_threads(2)
    relax(u, 64);
    printf("%.0f %d %d\n", u[0] + u[63], s, relax(u, 0));
    return 0;
}
C
cc -fopenmp -O2 -g first_call.c -o first_call_plain || fail "build first_call.c"
"$POMPCC" -fopenmp -O2 first_call.c -o first_call 2> /dev/null || fail "build first_call.c with pompcc"
for run in "pompcc:./first_call" "pomprun:$POMPRUN ./first_call_plain"; do
    what=${run%%:*}
    assert_eq "$(POMP_LOOP=Chunks POMP_OUTPUT_DIR=fc.$what ${run#*:})" "4 1 3" "first call ($what): the program"
    # top-level nodes (parent 0) of the serial calls: the loop and the single
    top() { jq --arg t "$1" --arg f "$2" '([.regions[] | select(.type == $t) | .id]) as $ids
        | [.callpath[] | select(.parent == 0 and (.region as $r | $ids | index($r))) | .per_thread[][$f]] | add // 0' \
        "fc.$what/profile.json"; }
    assert_eq "$(top for visits)" 2 "first call ($what): both serial loops"
    assert_eq "$(top for begins)" 16 "first call ($what): the serial loop's 16 chunks"
    assert_eq "$(top single begins)" 2 "first call ($what): both serial singles executed"
    inner=$(jq '([.regions[] | select(.type == "for") | .id]) as $ids
        | [.callpath[] | select(.parent != 0 and (.region as $r | $ids | index($r))) | .per_thread[].begins] | add' \
        "fc.$what/profile.json")
    assert_eq "$inner" 16 "first call ($what): the parallel loop's 16 chunks"
done
