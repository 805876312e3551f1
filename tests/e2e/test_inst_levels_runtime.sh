#!/usr/bin/env bash
# A construct whose compile-time level writes none of its calls ("#pragma pomp
# inst task none", "inst sync none") is measured by the runtime's events, as
# code not built with pompcc is (docs/instrumentation.md): the link has the
# bridges follow it. Before, it was counted instrumented and nothing measured
# it: 20 tasks of 5 ms run in a single's closing barrier read as its wait
# (parallel efficiency 0.0 %, unmarked), a critical held 2 ms by each thread in
# turn read no wait (synchronisation 98.6 %).
source "$(dirname "$0")/lib.sh"
cat > tasks_none.c <<'C'
#include <stdio.h>
#include <omp.h>
static void spin_ms(double ms) { double t = omp_get_wtime(); while (omp_get_wtime() - t < ms / 1e3) ; }
int main(void)
{
    long sum = 0;
#pragma omp parallel num_threads(2)
#pragma omp single
    for (int r = 0; r < 20; r++) {
#pragma pomp inst task none
#pragma omp task shared(sum)
        {
            spin_ms(5);
#pragma omp atomic
            sum += r;
        }
    }
    printf("%ld\n", sum);
    return 0;
}
C
"$POMPCC" -O2 -fopenmp --pomp-verbose tasks_none.c -o tasks_none 2> tn.build || { cat tn.build; fail "build"; }
assert_contains tn.build "tasks_none.c:[0-9]+:1: note: left to the runtime's events: 'task' at a compile-time level that writes none of its calls" \
                "inst task none: the compile says where the runtime measures"
POMP_OUTPUT_DIR=tn ./tasks_none > tn.txt || fail "tasks_none failed"
assert_eq "$(cat tn.txt)" 190 "inst task none: the program's result"
# the runtime's task region (no line of its own) ran all 20 (a task's
# executions are its begins: docs/output.md)
assert_eq "$(jq '([.regions[] | select(.type == "task") | .id]) as $t
                 | [.callpath[] | select(.region as $r | $t | index($r)) | .per_thread[].begins] | add' tn/profile.json)" \
          20 "inst task none: the tasks' executions, from the runtime"
"$REPORT" --json tn > tn.json
pe=$(jq '.efficiency.parallel_regions[0].parallel_efficiency_pct' tn.json)
# 100 ms of tasks on two threads: about 90 % (0.0 before: read as the barrier's wait)
awk -v p="$pe" 'BEGIN { exit !(p >= 50) }' || fail "inst task none: parallel efficiency $pe %, expected about 90"

# "inst task EnterExit" keeps the creation's calls and drops the execution's:
# the runtime's events do not measure them either (the construct is
# instrumented), so the run is not rated, said why, as POMP_TASK=EnterExit is
# at run time (before: rated, 0.0 % parallel efficiency for about 90)
sed 's/inst task none/inst task EnterExit/' tasks_none.c > tasks_ee.c
"$POMPCC" -O2 -fopenmp tasks_ee.c -o tasks_ee 2> te.build || { cat te.build; fail "build"; }
POMP_OUTPUT_DIR=te ./tasks_ee > te.txt || fail "tasks_ee failed"
assert_eq "$(cat te.txt)" 190 "inst task EnterExit: the program's result"
line=$(line_of tasks_ee.c "omp task shared")
assert_eq "$("$REPORT" --json te | jq -r '.efficiency.run.rated, .efficiency.run.why')" \
          "false
the executions of the tasks of task @ tasks_ee.c:$line were not recorded (a compile-time '#pragma pomp inst task EnterExit' there, docs/instrumentation.md): the tasks run in a barrier or taskwait read as its wait" \
          "inst task EnterExit: not rated, said why"

cat > critical_none.c <<'C'
#include <stdio.h>
#include <omp.h>
static void spin_ms(double ms) { double t = omp_get_wtime(); while (omp_get_wtime() - t < ms / 1e3) ; }
int main(void)
{
    long sum = 0;
#pragma omp parallel num_threads(2) reduction(+ : sum)
    for (int r = 0; r < 50; r++) {
#pragma pomp inst sync none
#pragma omp critical
        {
            spin_ms(2);
            sum += r;
        }
    }
    printf("%ld\n", sum);
    return 0;
}
C
"$POMPCC" -O2 -fopenmp critical_none.c -o critical_none 2> cn.build || { cat cn.build; fail "build"; }
POMP_OUTPUT_DIR=cn ./critical_none > cn.txt || fail "critical_none failed"
assert_eq "$(cat cn.txt)" 2450 "inst sync none: the program's result"
visits() { # DIR TYPE: the visits of the runtime's regions of a type
    jq --arg t "$2" '([.regions[] | select(.type == $t and (.first_line // 0) == 0) | .id]) as $c
                     | [.callpath[] | select(.region as $r | $c | index($r)) | .per_thread[].visits] | add // 0' \
       "$1/profile.json"
}
assert_eq "$(visits cn critical)" 100 "inst sync none: the critical's executions, from the runtime"
assert_eq "$(visits cn wait)" 100 "inst sync none: its waits to enter, from the runtime"
# each thread waits while the other holds it: about half of the 200 ms
waited=$(jq '[.regions[] | select(.type == "wait") | .id] as $w
             | [.callpath[] | select(.region as $r | $w | index($r)) | .per_thread[].incl_ns] | add / 1e6' cn/profile.json)
awk -v w="$waited" 'BEGIN { exit !(w >= 20) }' || fail "inst sync none: $waited ms of waits for the critical, expected about 100"
"$REPORT" cn > cn_report.txt
assert_contains cn_report.txt "^  critical +main\(\), in parallel @ critical_none.c" "inst sync none: the report's row"
# A combined construct whose parallel leaf's calls its level drops, its loop's
# kept ("inst parallel none" above a "parallel for"): the parallel region is
# the runtime's, and the link has the bridges follow it. Before, the run said
# "not measured: a parallel region that pompcc did not instrument ran ... not
# the worksharing" beside the measured loop, and was not rated.
cat > pfor_none.c <<'C'
#include <stdio.h>
int main(void)
{
    long sum = 0;
#pragma pomp inst parallel none
#pragma omp parallel for num_threads(2) reduction(+ : sum)
    for (int i = 0; i < 1000; i++)
        sum += i;
    printf("%ld\n", sum);
    return 0;
}
C
"$POMPCC" -O2 -fopenmp pfor_none.c -o pfor_none 2> pn.build || { cat pn.build; fail "build"; }
POMP_SUMMARY=on POMP_OUTPUT_DIR=pn ./pfor_none > pn.txt 2> pn.err || fail "pfor_none failed"
assert_eq "$(cat pn.txt)" 499500 "inst parallel none: the program's result"
assert_not_contains pn.err "did not instrument" "inst parallel none: no region said uninstrumented"
"$REPORT" pn > pn_report.txt
assert_not_contains pn_report.txt "not measured" "inst parallel none: no region said unmeasured"
assert_eq "$(region_sum pn for "$(line_of pfor_none.c "omp parallel for")" visits)" 2 \
          "inst parallel none: the loop, instrumented, on both threads"
assert_eq "$(visits pn parallel)" 1 "inst parallel none: the parallel region, from the runtime"
assert_eq "$("$REPORT" --json pn | jq '.efficiency.run | (.rated // true) and (.parallel_efficiency_pct != null)')" true \
          "inst parallel none: the run rated"
exit 0
