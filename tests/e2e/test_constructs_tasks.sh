# Tasking constructs (constructs/tasks.c): recursive tasks with taskwait, task
# dependences, taskwait depend, taskgroup, taskyield, master taskloop, taskloop
# simd, parallel masked taskloop, untied tasks, and a deferred task that runs
# inside a barrier. Task creation is recorded on the creating thread
# (Task_enter/exit), the body on the thread that runs it (Task_begin/end),
# nested under whatever region that thread has open (docs/api.md).
HERE=$(cd "$(dirname "$0")" && pwd)
source "$HERE/lib.sh"
source "$HERE/lib_constructs.sh"
cp "$HERE"/constructs/tasks.c .
build_and_compare tasks.c tk

for T in 1 4; do
expect_events tk.$T tasks.c $T <<'SPEC'
# fib(10): 88 calls with n >= 2, each creating two tasks and waiting for them
88 Task_enter task @task_fib1
88 Task_begin task @task_fib1
88 Task_end task @task_fib1
88 Task_exit task @task_fib1
88 Task_enter task @task_fib2
88 Task_begin task @task_fib2
88 Task_end task @task_fib2
88 Task_exit task @task_fib2
88 Taskwait_enter taskwait @taskwait_fib
88 Taskwait_exit taskwait @taskwait_fib
1 Parallel_enter parallel @par1
T Parallel_begin parallel @par1
T Parallel_end parallel @par1
1 Parallel_exit parallel @par1
T Single_enter single @single1
1 Single_begin single @single1
1 Single_end single @single1
T Single_exit single @single1
1 Parallel_enter parallel @par2
T Parallel_begin parallel @par2
T Parallel_end parallel @par2
1 Parallel_exit parallel @par2
T Single_enter single @single2
1 Single_begin single @single2
1 Single_end single @single2
T Single_exit single @single2
1 Task_enter task @t_out
1 Task_begin task @t_out
1 Task_end task @t_out
1 Task_exit task @t_out
1 Task_enter task @t_in
1 Task_begin task @t_in
1 Task_end task @t_in
1 Task_exit task @t_in
1 Taskwait_enter taskwait @tw_dep
1 Taskwait_exit taskwait @tw_dep
1 Taskgroup_enter taskgroup @tg
1 Taskgroup_begin taskgroup @tg
1 Taskgroup_end taskgroup @tg
1 Taskgroup_exit taskgroup @tg
8 Task_enter task @t_loop
8 Task_begin task @t_loop
8 Task_end task @t_loop
8 Task_exit task @t_loop
8 Atomic_event atomic @t_atomic
1 Taskyield_enter taskyield @ty
1 Taskyield_exit taskyield @ty
1 Parallel_enter parallel @par3
T Parallel_begin parallel @par3
T Parallel_end parallel @par3
1 Parallel_exit parallel @par3
# master taskloop: split into master + taskloop; the iterations run in tasks
1 Master_begin master @mtl
1 Master_end master @mtl
1 Taskloop_enter taskloop @mtl
1 Taskloop_exit taskloop @mtl
32 Atomic_event atomic @tl_atomic
T Single_enter single @single3
1 Single_begin single @single3
1 Single_end single @single3
T Single_exit single @single3
1 Taskloop_enter taskloop_simd @tls
1 Taskloop_exit taskloop_simd @tls
# parallel masked taskloop: parallel + masked + taskloop
1 Parallel_enter parallel @pmtl
T Parallel_begin parallel @pmtl
T Parallel_end parallel @pmtl
1 Parallel_exit parallel @pmtl
1 Masked_begin masked @pmtl
1 Masked_end masked @pmtl
1 Taskloop_enter taskloop @pmtl
1 Taskloop_exit taskloop @pmtl
16 Atomic_event atomic @pmtl_atomic
1 Parallel_enter parallel @par4
T Parallel_begin parallel @par4
T Parallel_end parallel @par4
1 Parallel_exit parallel @par4
T Single_enter single @single4
1 Single_begin single @single4
1 Single_end single @single4
T Single_exit single @single4
# an untied task without a task scheduling point in its body cannot move
1 Task_enter task @untied_plain
1 Task_begin task @untied_plain
1 Task_end task @untied_plain
1 Task_exit task @untied_plain
# one with such points may resume on another thread: creation only, and no
# enter/exit around the points in its own body; the inner task's body is recorded
1 Task_enter task @untied_parts
1 Task_exit task @untied_parts
1 Task_begin task @inner
1 Task_end task @inner
1 Parallel_enter parallel @par5
2 Parallel_begin parallel @par5
2 Parallel_end parallel @par5
1 Parallel_exit parallel @par5
1 Masked_begin masked @masked5
1 Masked_end masked @masked5
1 Task_enter task @t_deferred
1 Task_begin task @t_deferred
1 Task_end task @t_deferred
1 Task_exit task @t_deferred
2 Barrier_enter barrier @barrier5
2 Barrier_exit barrier @barrier5
SPEC
done

# Each task body is bracketed on the thread that ran it: the deferred task ran
# either at once (inside its creation on the masked thread: the body of the
# creation's node) or later, in the barrier, as a task root (the tree of the
# task construct's executions, docs/output.md): never under the barrier.
L_task=$(line_of tasks.c @t_deferred)
parents=$(jq -r --argjson l "$L_task" '
    (.regions | map({(.id | tostring): .}) | add) as $r
    | (.callpath | map({(.id | tostring): .}) | add) as $n
    | .callpath[] | select($r[.region | tostring].type == "task" and $r[.region | tostring].first_line == $l)
    | select(([.per_thread[].begins] | add) > 0)
    | if .parent == 0 then (if .task_root then "task root" else "root" end)
      else $r[$n[.parent | tostring].region | tostring].type end' tk.4/profile.json)
grep -qvE '^(masked|task root)$' <<< "$parents" && fail "deferred task body under: $parents"
[ -n "$parents" ] || fail "the deferred task body was not recorded"
# POMP_TASK selects the task events at run time.
OMP_NUM_THREADS=2 POMP_TASK=none POMP_TRACE=events POMP_OUTPUT_DIR=none ./tk > /dev/null
events none > none.txt
assert_eq "$(grep -cE ' (Task|Taskwait|Taskgroup|Taskyield|Taskloop)_' none.txt)" 0 "POMP_TASK=none: no task events"
OMP_NUM_THREADS=2 POMP_TASK=EnterExit POMP_TRACE=events POMP_OUTPUT_DIR=ee ./tk > /dev/null
events ee > ee.txt
assert_eq "$(grep -cE ' Task_(begin|end) ' ee.txt)" 0 "POMP_TASK=EnterExit: no task begin/end"
assert_eq "$(grep -cE ' Task_enter task ' ee.txt)" 189 "POMP_TASK=EnterExit: task creation recorded"

# A taskloop's tasks, regions the runtime reports at the taskloop's place,
# are named as the taskloop is: built in src/, run from run/, every region's
# file is src/tl.c's absolute path (the tasks' regions were a bare "tl.c")
mkdir -p tlpath/src tlpath/run
cat > tlpath/src/tl.c <<'C'
#include <stdio.h>
long n = 0;
int main(void)
{
#pragma omp parallel num_threads(2)
#pragma omp single
    {
#pragma omp taskloop grainsize(10)
        for (int i = 0; i < 100; i++) {
#pragma omp atomic
            n++;
        }
    }
    printf("%ld\n", n);
    return 0;
}
C
(cd tlpath/src && "$POMPCC" -fopenmp -O2 -g tl.c -o ../run/tl) || fail "taskloop path: build"
(cd tlpath/run && POMP_OMPT=on POMP_OUTPUT_DIR=d ./tl > out.txt 2> /dev/null) # (lib_constructs.sh turns the runtime off)
assert_eq "$(cat tlpath/run/out.txt)" 100 "taskloop path: the program"
want=$(cd tlpath/src && pwd)/tl.c
assert_eq "$(jq -r --arg w "$want" '[.regions[] | select(.file != "" and .file != $w) | "\(.type) \(.file)"] | join(", ")' tlpath/run/d/profile.json)" "" \
          "taskloop path: every region named by the same absolute path"
