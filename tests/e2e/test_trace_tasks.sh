# Tasks in traces (docs/output.md, "OTF2"): a task's creation and its
# execution, on whichever thread, linked through the task id. A program of
# known shape (a recursive fib with a cutoff and taskwait, tasks that every
# thread creates and the barrier runs, an undeferred task) traced to OTF2 and
# Chrome JSON: exactly one ThreadTaskCreate, ThreadTaskSwitch and
# ThreadTaskComplete per task, with one identity, and one flow arrow per task
# in Chrome. Built with pompcc (the instrumentation's ids), then the same
# program uninstrumented under pomprun (the runtime's tasks, the bridges' ids).
# Run on both runtimes (run_all.sh, BOTH_RUNTIMES).
source "$(dirname "$0")/lib.sh"
export OMP_NUM_THREADS=3
cat > ttasks.c <<'C'
#include <stdio.h>
#include <stdlib.h>

static long fib(int n)
{
    long x, y;
    if (n < 6)
        return n < 2 ? n : fib(n - 1) + fib(n - 2);
    #pragma omp task shared(x)
    x = fib(n - 1);
    #pragma omp task shared(y)
    y = fib(n - 2);
    #pragma omp taskwait
    return x + y;
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 12;
    long r = 0, done = 0;
    #pragma omp parallel
    {
        #pragma omp single nowait
        r = fib(n);
        for (int i = 0; i < 5; i++) {
            #pragma omp task shared(done)
            {
                #pragma omp atomic
                done++;
            }
        }
        #pragma omp barrier
        #pragma omp single
        {
            #pragma omp task if(0) shared(done)
            done += 100;
        }
    }
    printf("fib=%ld done=%ld\n", r, done);
    return 0;
}
C
# fib(12) with the cutoff at 6: T(n) = 2 + T(n-1) + T(n-2) tasks, 0 below it;
# 5 tasks per thread run in the barrier, and the undeferred one
fib_tasks=$(awk 'BEGIN { for (i = 0; i <= 12; i++) t[i] = i < 6 ? 0 : 2 + t[i-1] + t[i-2]; print t[12] }')
tasks=$((fib_tasks + 5 * OMP_NUM_THREADS + 1))
expected="fib=144 done=$((5 * OMP_NUM_THREADS + 100))"

# otf2_tasks FILE.otf2: "CREATES SWITCHES COMPLETES TASKS LINKED", where a
# task is an OTF2 task identity (team, creating thread, generation) and a
# linked one has exactly one create, one switch and one complete, the switch
# and complete on one location (tied tasks), the create not after the switch.
otf2_tasks() {
    otf2-print "$1" | awk '
      $1 ~ /^THREAD_TASK_(CREATE|SWITCH|COMPLETE)$/ {
        id = $0; sub(/.*Thread Team: "[^"]*" /, "", id)
        sub(/ \(".*\), Generation Number: /, "/", id); sub(/, Creating Thread: /, "/", id)
        n[$1]++; c[id, $1]++; loc[id, $1] = $2; t[id, $1] = $3; ids[id] = 1 }
      END { for (i in ids) {
              k++
              if (c[i, "THREAD_TASK_CREATE"] == 1 && c[i, "THREAD_TASK_SWITCH"] == 1 &&
                  c[i, "THREAD_TASK_COMPLETE"] == 1 &&
                  loc[i, "THREAD_TASK_SWITCH"] == loc[i, "THREAD_TASK_COMPLETE"] &&
                  t[i, "THREAD_TASK_CREATE"] <= t[i, "THREAD_TASK_SWITCH"]) linked++ }
            print n["THREAD_TASK_CREATE"] + 0, n["THREAD_TASK_SWITCH"] + 0,
                  n["THREAD_TASK_COMPLETE"] + 0, k + 0, linked + 0 }'
}
# chrome_task_flows FILE.json: the number of flow ids with one "s" and one "f"
chrome_task_flows() {
    jq '[.traceEvents[] | select(.ph == "s" or .ph == "f")] | group_by(.id)
        | map(select(([.[].ph] | sort) == ["f", "s"])) | length' "$1"
}
check_tasks() { # DIR WHAT
    local all="$tasks $tasks $tasks $tasks $tasks"
    otf2_nesting "$1/traces.otf2" > /dev/null || fail "$2: OTF2 nesting"
    assert_eq "$(otf2_tasks "$1/traces.otf2")" "$all" \
        "$2: ThreadTaskCreate, ThreadTaskSwitch, ThreadTaskComplete, tasks, tasks linked"
    chrome_check "$1/trace.json" > /dev/null || fail "$2: Chrome B/E nesting"
    assert_eq "$(chrome_task_flows "$1/trace.json")" "$tasks" "$2: a Chrome flow arrow per task"
}

# ---- instrumented: the creation's id goes to the task (firstprivate) ----
"$POMPCC" -fopenmp -O2 ttasks.c -o ttasks 2> ttasks.err || { cat ttasks.err; fail "build ttasks"; }
assert_eq "$(POMP_TRACE=otf2,chrome POMP_OUTPUT_DIR=inst ./ttasks)" "$expected" "instrumented: output"
check_tasks inst "instrumented"
# the creations are POMP's task regions, none is the runtime's
assert_eq "$(otf2_count inst/traces.otf2 ENTER 'Region: "task_create')" 0 "instrumented: no runtime task regions"
# POMP_TASK=EnterExit records creations only: they get no id, and trace.json
# no flow arrow (each creation's went to nowhere: a start without its end; a probe)
POMP_TASK=EnterExit POMP_TRACE=chrome POMP_OUTPUT_DIR=enterexit ./ttasks > /dev/null
assert_eq "$(jq '[.traceEvents[] | select(.ph == "s" or .ph == "f")] | length' enterexit/trace.json)" 0 \
    "POMP_TASK=EnterExit: no flow arrow without its task's execution"
# a profile-only run records no id and the same profile figures
POMP_OUTPUT_DIR=prof ./ttasks > /dev/null
assert_eq "$(jq '[.regions[] | select(.type == "task") | .id] as $t
                 | [.callpath[] | select(.region as $r | $t | index($r)) | .per_thread[].begins] | add' prof/profile.json)" \
    "$tasks" "profile: every task execution"

# ---- tasks run in a parallel region's closing barrier ----
# A thread's team lasts until it leaves the closing barrier, where it still
# runs the team's tasks: every task event lies between its location's
# ThreadTeamBegin and ThreadTeamEnd, and no team other than the region's is
# made up for tasks run there (it was: ThreadTeamEnd came at the end of the
# thread's block, and the converter gave the tasks one-thread teams).
cat > closing.c <<'C'
#include <stdio.h>
static volatile double sink;
static int leaves;
static void tree(int depth)
{
    if (depth == 0) {
        for (int i = 0; i < 20000; i++)
            sink += i;
#pragma omp atomic
        leaves++;
        return;
    }
#pragma omp task
    tree(depth - 1);
#pragma omp task
    tree(depth - 1);
#pragma omp taskwait
}
int main(void)
{
#pragma omp parallel
    {
#pragma omp single nowait
        tree(7);
    }
    printf("%d\n", leaves);
    return 0;
}
C
# outside_teams FILE.otf2: task events outside their location's team, and teams of another size
outside_teams() {
    otf2-print "$1" | awk -v n="$OMP_NUM_THREADS" '
      $1 == "THREAD_TEAM_BEGIN" { open[$2]++ }
      $1 == "THREAD_TEAM_END" { open[$2]-- }
      $1 ~ /^THREAD_TASK_/ && !open[$2] { outside++ }
      END { print outside + 0 }'
    otf2-print -G "$1" | grep '^COMM ' | grep -vc "($OMP_NUM_THREADS threads," || true
}
"$POMPCC" -fopenmp -O2 closing.c -o closing 2> closing.err || { cat closing.err; fail "build closing"; }
assert_eq "$(POMP_TRACE=otf2 POMP_OUTPUT_DIR=closing.out ./closing)" 128 "closing barrier: output"
otf2_nesting closing.out/traces.otf2 > /dev/null || fail "closing barrier: OTF2 nesting"
assert_eq "$(otf2_count closing.out/traces.otf2 THREAD_TASK_SWITCH)" 254 "closing barrier: every task's switch"
assert_eq "$(outside_teams closing.out/traces.otf2 | tr '\n' ' ')" "0 0 " \
          "closing barrier: task events inside their team, no made-up team"

# ---- uninstrumented, under pomprun: the runtime's tasks, ids from the bridge ----
[ -n "$E2E_SANITIZE" ] && exit 0 # a preloaded sanitized libpomp cannot come before ASan's runtime
plain_cc -O2 ttasks.c -o ttasks_plain
assert_eq "$(POMP_TRACE=otf2,chrome POMP_OUTPUT_DIR=rt "$BUILD/bin/pomprun" \
             ${E2E_RUNTIME:+--pomp-runtime=$E2E_RUNTIME} ./ttasks_plain)" "$expected" "pomprun: output"
check_tasks rt "pomprun${E2E_RUNTIME:+ on $E2E_RUNTIME}"
assert_eq "$(otf2_count rt/traces.otf2 THREAD_TASK_CREATE)" \
    "$(otf2_count rt/traces.otf2 ENTER 'Region: "task_create')" "pomprun: each create at a runtime task_create event"
assert_eq "$(otf2-print -G rt/traces.otf2 | awk '$1 == "REGION" && /Name: "task_create/ && !/Role: TASK_CREATE,/' | wc -l)" 0 \
    "pomprun: the runtime's task_create regions have the role TASK_CREATE"
