#!/bin/bash
# clang 19 compiles a masked taskloop (masked taskloop [simd], parallel masked
# taskloop [simd], with any clauses) to no code: the plain build never runs its
# loop; and it makes a variable a parallel master taskloop [simd] leaves
# implicitly shared private to the tasks (their writes are lost). pomp split
# them into their leaves, which clang runs as OpenMP says: a probe's program
# printed 4950 where its plain build printed 0. In a clang build they stay
# whole (said with --pomp-verbose, counted as left to the runtime's events), so
# the program does what its plain build does; a GCC build, which runs both
# forms alike, still splits and measures them.
source "$(dirname "$0")/lib.sh"

command -v clang-19 > /dev/null || { echo "SKIP: no clang-19"; exit 0; }
[ -z "$E2E_SANITIZE" ] || { echo "SKIP: clang under sanitizers"; exit 0; }

cat > mtl.c <<'C'
#include <stdio.h>
int main(void)
{
    long s = 0;
    int body = 0, inner = 0;
    #pragma omp parallel masked taskloop reduction(+: s) num_tasks(4)
    for (int i = 0; i < 100; i++) {
        s += i;
        #pragma omp atomic
        body++;
    }
    #pragma omp parallel num_threads(2)
    {
        #pragma omp masked taskloop simd grainsize(10)
        for (int i = 0; i < 40; i++) {
            #pragma omp atomic
            inner++;
        }
    }
    #pragma omp parallel master taskloop num_tasks(2)
    for (int i = 0; i < 10; i++) {
        #pragma omp atomic
        body++;
    }
    printf("%ld %d %d\n", s, body, inner);
    return 0;
}
C

clang-19 -fopenmp mtl.c -o mtl_plain
want=$(OMP_NUM_THREADS=2 ./mtl_plain)
POMP_CC=clang-19 "$POMPCC" --pomp-verbose -fopenmp mtl.c -o mtl_clang 2> mtl_clang.err ||
    { cat mtl_clang.err; fail "clang build"; }
for k in 1 2 3; do
    assert_eq "$(OMP_NUM_THREADS=2 POMP_OUTPUT_DIR=c$k ./mtl_clang 2> /dev/null)" "$want" "clang: output as the plain build's ($k)"
done
assert_contains mtl_clang.err "mtl.c:6:5: note: left alone: 'parallel masked taskloop' stays whole \(clang compiles it otherwise than its split form" "parallel masked taskloop left whole, said"
assert_contains mtl_clang.err "mtl.c:14:9: note: left alone: 'masked taskloop simd' stays whole" "masked taskloop simd left whole, said"
assert_contains mtl_clang.err "^mtl.c: warning: 4 of 7 OpenMP constructs instrumented; 3 left to the runtime's events" "counted as left to the runtime"
assert_contains mtl_clang.err "mtl.c:20:5: note: left alone: 'parallel master taskloop' stays whole" "parallel master taskloop left whole, said"
# the parallel master taskloop, which clang runs (its tasks' increments of
# the implicitly shared body lost), measured by the runtime's events: 2 tasks
assert_eq "$(jq '[.regions[] | select(.type == "taskloop" and .init == "ompt")] | length' c1/profile.json)" 1 "clang: the runtime's taskloop"
assert_eq "$(jq '[.regions[] | select(.type == "task" and .init == "ompt") | .id] as $t | [.callpath[] | select(.region as $r | $t | index($r)) | .per_thread[].begins] | add' c1/profile.json)" 2 "clang: its 2 tasks"

# GCC runs both forms: split and measured, as before
"$POMPCC" -fopenmp mtl.c -o mtl_gcc 2> mtl_gcc.err || { cat mtl_gcc.err; fail "gcc build"; }
assert_not_contains mtl_gcc.err "left|warning" "gcc: every construct instrumented"
assert_eq "$(OMP_NUM_THREADS=2 POMP_OUTPUT_DIR=g ./mtl_gcc 2> /dev/null)" "4950 110 40" "gcc: output"
assert_eq "$(region_sum g taskloop 6 visits)" 1 "gcc: the parallel masked taskloop's taskloop"
assert_eq "$(region_sum g task 6 begins)" 4 "gcc: its 4 tasks"
assert_eq "$(region_sum g masked 14 begins)" 1 "gcc: the masked leaf inside parallel"

# A combined construct with lastprivate: split, clang gives the worksharing
# part (lastprivate, nowait) a barrier before its copy-out that the combined
# construct has not (1000 regions: 2000 extra barrier visits, ~40 % slower;
# a probe). In a clang build it stays whole; GCC adds no barrier and splits.
cat > lp.c <<'C'
#include <stdio.h>
int main(void)
{
    int last = -1, v = 0, w = 0; /* (v: the last section's value) */
    for (int r = 0; r < 200; r++) {
        #pragma omp parallel for lastprivate(last) num_threads(2)
        for (int i = 0; i < 8; i++)
            last = i;
        #pragma omp parallel sections lastprivate(v) num_threads(2)
        {
            #pragma omp section
            v = r;
            #pragma omp section
            v = r + 1;
        }
        w += v;
    }
    printf("%d %d\n", last, w);
    return 0;
}
C
clang-19 -g -fopenmp -O2 lp.c -o lp_plain
POMP_CC=clang-19 "$POMPCC" --pomp-verbose -g -fopenmp -O2 lp.c -o lp_clang 2> lp_clang.err || { cat lp_clang.err; fail "lastprivate: clang build"; }
assert_eq "$(objdump -d lp_clang | grep -c 'call.*__kmpc_barrier')" "$(objdump -d lp_plain | grep -c 'call.*__kmpc_barrier')" \
    "lastprivate, clang: the barrier calls of the plain build"
assert_contains lp_clang.err "lp.c:6:9: note: left alone: 'parallel for' with lastprivate stays whole" "lastprivate, clang: left whole, said"
assert_eq "$(POMP_OUTPUT_DIR=lpc ./lp_clang 2> /dev/null)" "$(./lp_plain)" "lastprivate, clang: output"
barriers() { # DIR: the barrier visits of every kind
    jq '[.regions[] | select(.type == "implicit_barrier") | .id] as $b
        | [.callpath[] | select(.region as $r | $b | index($r)) | .per_thread[].visits] | add // 0' "$1/profile.json"
}
POMP_OUTPUT_DIR=lpp "$BUILD/bin/pomprun" ./lp_plain > /dev/null 2>&1 || fail "lastprivate: the plain build under pomprun"
assert_eq "$(barriers lpc)" "$(barriers lpp)" "lastprivate, clang: the barriers of the plain build (the runtime's count)"
assert_eq "$(region_sum lpc parallel 6 visits)" 200 "lastprivate, clang: the parallel for measured by the runtime's events"
"$POMPCC" -fopenmp -O2 lp.c -o lp_gcc 2> lp_gcc.err || { cat lp_gcc.err; fail "lastprivate: gcc build"; }
assert_not_contains lp_gcc.err "left|warning" "lastprivate, gcc: every construct instrumented"
assert_eq "$(POMP_OUTPUT_DIR=lpg ./lp_gcc 2> /dev/null)" "$(./lp_plain)" "lastprivate, gcc: output"
echo "PASS: test_clang_masked_taskloop"
