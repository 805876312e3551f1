#!/usr/bin/env bash
# An orphaned task with a depend clause as the program's first OpenMP
# construct: the runtime starts inside its creation (libgomp's bridge starts
# pomp's tool at its first call). No task existed before it, so it waited for
# nothing: its "wait dependences" must hold no time (it held the runtime's
# start, 0.06-0.1 ms on libgomp, as synchronisation). On LLVM libomp the tool
# starts at main's first runtime call, before the creation: not checked there.
source "$(dirname "$0")/lib.sh"
cat > first.c <<'C'
#include <stdio.h>
int main(void)
{
    int x = 0;
    #pragma omp task depend(inout: x) shared(x)
    { x++; }
    printf("x %d\n", x);
    return 0;
}
C
"$POMPCC" -O2 -fopenmp first.c -o first 2>first.err || { cat first.err; fail "build first"; }
for i in 1 2 3; do
    POMP_SUMMARY=0 POMP_OUTPUT_DIR=out$i ./first > first$i.txt || fail "run $i"
    assert_eq "$(cat first$i.txt)" "x 1" "run $i: the program's output"
    waited=$(jq '([.regions[] | select(.type == "wait" and .name == "dependences") | .id]) as $w
                 | [.callpath[] | select(.region as $r | $w | index($r)) | .per_thread[].excl_ns] | add // 0' \
             out$i/profile.json)
    if [ "${E2E_RUNTIME:-}" != omp ]; then
        assert_eq "$waited" 0 "run $i: the first task's creation waited for nothing"
    fi
    "$REPORT" --check out$i > /dev/null || fail "run $i: --check"
done
echo "first task with dependences: no wait before the runtime started"
