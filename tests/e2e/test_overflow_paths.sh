#!/usr/bin/env bash
# Past POMP_PROFILE_NODES, a team forked on a path that did not fit and the
# waits inside it (found by a scale probe: 40 generated files, 70,000 paths,
# POMP_PROFILE_NODES=10000, where pomp-report --check failed on pomp's own
# profile):
# - a worker's task roots in such a team named the <overflow> node as their
#   binding ("binding 65 is no parallel region's node");
# - a wait inside a frame on the <overflow> node (the master's implicit
#   barrier) added its time to the node again: the master's <overflow> read
#   376 ms in a run of 200 ("within the run").
source "$(dirname "$0")/lib.sh"
cat > ovf.c <<'C'
#include <omp.h>
#include <stdio.h>
static long ran;
static void spin(double ms)
{
    double t = omp_get_wtime();
    while (omp_get_wtime() - t < ms / 1e3)
        ;
}
static int rec(int d)
{
    int r;
#pragma pomp inst begin(rec)
    r = d == 0 ? 0 : rec(d - 1) + 1;
#pragma pomp inst end(rec)
    return r;
}
int main(void)
{
    int depth = rec(100); /* fills the master's 64 nodes: what follows is <overflow> */
    for (int i = 0; i < 10; i++) {
#pragma omp parallel num_threads(2)
        {
            if (omp_get_thread_num() == 0) {
                for (int k = 0; k < 8; k++) {
#pragma omp task
                    {
                        spin(1);
#pragma omp atomic
                        ran++;
                    }
                }
            } else {
                spin(2);
            }
        }
    }
    printf("depth %d tasks %ld\n", depth, ran);
    return 0;
}
C
"$POMPCC" -O1 -fopenmp ovf.c -o ovf 2>build.err || { cat build.err; fail "build ovf"; }
POMP_PROFILE_NODES=64 POMP_OUTPUT_DIR=ovf.out ./ovf > ovf.txt 2> ovf.err
assert_contains ovf.txt "^depth 100 tasks 80$" "program output"
assert_contains ovf.err "entries into call paths that did not fit the profile \(POMP_PROFILE_NODES=64 per thread" \
                "the cap is said"
"$REPORT" --check ovf.out > ovf.check || { cat ovf.check; fail "past POMP_PROFILE_NODES: --check"; }
# every task root's binding is a parallel region's node
assert_eq "$(jq '([.callpath[] | select(.region != 0) | {key: (.id | tostring), value: .region}] | from_entries) as $reg
                 | ([.regions[] | select(.type == "parallel") | .id]) as $par
                 | [.callpath[] | select(.binding) | $reg[.binding | tostring] as $r | ($par | index($r)) != null] | all' \
               ovf.out/profile.json)" true "a task root's binding is a parallel region's node, never <overflow>"
# the <overflow> node's time on a thread, less what frames that fit hold of it, is within the run
assert_eq "$(jq '.duration_ns as $d | [.callpath[] | select(.region == 0) | .per_thread[]
                 | (.incl_ns - (.overlap_ns // 0)) <= $d * 1.01 + 1e6] | all' ovf.out/profile.json)" true \
          "<overflow>'s time within the run"
# the recursion's levels that fit, and the rest in <overflow>
fit=$(jq '[.regions[] | select(.type == "userregion") | .id] as $u
          | [.callpath[] | select(.region as $r | $u | index($r) != null) | .per_thread[] | .begins] | add' ovf.out/profile.json)
ovf=$(jq '[.callpath[] | select(.region == 0) | .per_thread[] | .visits + .begins] | add' ovf.out/profile.json)
[ "$fit" -ge 60 ] && [ "$fit" -le 101 ] && [ "$ovf" -ge $((101 - fit)) ] ||
    fail "the recursion's levels: $fit on nodes, $ovf in <overflow>"
echo "PASS test_overflow_paths"
