#!/bin/bash
# A metadirective picks its construct at compile time; pompcc passes it
# through. One that picks a construct (here a parallel for with a reduction)
# is counted as left to the runtime's events, said at the compile, so that the
# link has the bridges follow the runtime's events for what it makes. Before
# (a probe), it was passed through unsaid: its parallel region ran
# unmeasured ("not measured: 1 parallel region that pompcc did not instrument
# ran"), its loop with it, and the run was not rated. One that picks nothing
# stays passed through, uncounted. gcc 12 rejects metadirective: clang only.
source "$(dirname "$0")/lib.sh"

command -v clang-19 > /dev/null || { echo "SKIP: no clang-19"; exit 0; }
[ -z "$E2E_SANITIZE" ] || { echo "SKIP: clang under sanitizers"; exit 0; }

cat > meta.c <<'C'
#include <stdio.h>
#define N 100000
static int v[N];
int main(void)
{
    long m = 0;
    for (int i = 0; i < N; i++)
        v[i] = i % 97;
    #pragma omp metadirective when(user={condition(N > 100)}: parallel for reduction(+:m) num_threads(2)) default(for)
    for (int i = 0; i < N; i++)
        m += v[i];
    #pragma omp metadirective when(user={condition(N < 0 ? 1 : 0)}: nothing) default(nothing)
    m += 1;
    printf("m=%ld\n", m);
    return 0;
}
C

clang-19 -fopenmp -O2 meta.c -o meta_plain
want=$(OMP_NUM_THREADS=2 ./meta_plain)
POMP_CC=clang-19 "$POMPCC" --pomp-verbose -fopenmp -O2 meta.c -o meta 2> meta.err ||
    { cat meta.err; fail "clang build"; }
assert_contains meta.err "meta.c:9:5: note: left alone: 'metadirective' picks its construct at compile time" \
    "the metadirective that picks a parallel for: left to the runtime, said"
assert_contains meta.err "meta.c:12:5: note: 'metadirective' has no events: passed through unchanged" \
    "the metadirective that picks nothing: passed through"
assert_contains meta.err "^meta.c: warning: 0 of 1 OpenMP constructs instrumented; 1 left to the runtime's events" \
    "counted as left to the runtime"
OMP_NUM_THREADS=2 POMP_OUTPUT_DIR=meta.out ./meta > meta.txt 2> meta.run.err
assert_eq "$(cat meta.txt)" "$want" "output as the plain build's"
assert_not_contains meta.run.err "not measured|did not instrument" "nothing said unmeasured"
assert_eq "$(jq '.unmeasured // [] | length' meta.out/profile.json)" 0 "no part of the run unmeasured"
assert_eq "$(jq '[.regions[] | select(.type == "parallel") | .id] as $p
    | [.callpath[] | select(.region as $r | $p | index($r)) | .per_thread[].begins] | add' meta.out/profile.json)" 2 \
    "its parallel region measured, begun on both threads"
assert_eq "$(jq '[.regions[] | select(.type == "for") | .id] as $p
    | [.callpath[] | select(.region as $r | $p | index($r)) | .per_thread[].visits] | add' meta.out/profile.json)" 2 \
    "its loop measured, on both threads"
"$REPORT" --check meta.out > /dev/null || fail "--check"
"$REPORT" --json meta.out > meta.json
assert_eq "$(jq '.efficiency.run.rated' meta.json)" null "the run is rated"
echo "PASS: test_clang_metadirective"
