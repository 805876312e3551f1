# Worksharing and synchronization constructs (constructs/worksharing.c): sections
# with and without the first section's directive, single with copyprivate,
# master, masked, scope, critical, ordered, barrier, every atomic form, flush,
# cancellation point, simd, for simd, loop, and the combined
# forms parallel sections/for simd/loop/masked/master. Built with pompcc, run
# with 1 and 4 threads: output as the plain build's, and every event counted
# per construct (none inside simd or loop bodies).
HERE=$(cd "$(dirname "$0")" && pwd)
source "$HERE/lib.sh"
source "$HERE/lib_constructs.sh"
cp "$HERE"/constructs/worksharing.c .
build_and_compare worksharing.c ws

for T in 1 4; do
expect_events ws.$T worksharing.c $T <<'SPEC'
1 Parallel_enter parallel @par1
T Parallel_begin parallel @par1
T Parallel_end parallel @par1
1 Parallel_exit parallel @par1
T Sections_enter sections @sections
3 Section_begin sections @sections
3 Section_end sections @sections
T Sections_exit sections @sections
T Single_enter single @single
1 Single_begin single @single
1 Single_end single @single
T Single_exit single @single
T Atomic_event atomic @atomic1
1 Master_begin master @master
1 Master_end master @master
1 Masked_begin masked @masked
1 Masked_end masked @masked
T Barrier_enter barrier @barrier
T Barrier_exit barrier @barrier
T Scope_enter scope @scope
T Scope_begin scope @scope
T Scope_end scope @scope
T Scope_exit scope @scope
T Atomic_event atomic @atomic2
T Loop_enter for @for_ordered
T Loop_exit for @for_ordered
64 Ordered_enter ordered @ordered
64 Ordered_begin ordered @ordered
64 Ordered_end ordered @ordered
64 Ordered_exit ordered @ordered
T Critical_enter critical @critical
T Critical_begin critical @critical
T Critical_end critical @critical
T Critical_exit critical @critical
T Flush_event flush @flush
T Cancellation_point_event cancellation_point @cancelpoint
# parallel sections num_threads(2): split into parallel + sections nowait
1 Parallel_enter parallel @parsections
2 Parallel_begin parallel @parsections
2 Parallel_end parallel @parsections
1 Parallel_exit parallel @parsections
2 Sections_enter sections @parsections
2 Section_begin sections @parsections
2 Section_end sections @parsections
2 Sections_exit sections @parsections
# parallel for simd, parallel loop: split; nothing inside the simd/loop bodies
1 Parallel_enter parallel @parforsimd
T Parallel_begin parallel @parforsimd
T Parallel_end parallel @parforsimd
1 Parallel_exit parallel @parforsimd
T Loop_enter for_simd @parforsimd
T Loop_exit for_simd @parforsimd
1 Parallel_enter parallel @parloop
T Parallel_begin parallel @parloop
T Parallel_end parallel @parloop
1 Parallel_exit parallel @parloop
T Loop_construct_enter loop @parloop
T Loop_construct_exit loop @parloop
1 Parallel_enter parallel @par2
T Parallel_begin parallel @par2
T Parallel_end parallel @par2
1 Parallel_exit parallel @par2
T Loop_enter for_simd @forsimd
T Loop_exit for_simd @forsimd
T Loop_enter for @for2
T Loop_exit for @for2
64 Simd_enter simd @simd
64 Simd_exit simd @simd
T Loop_construct_enter loop @loop
T Loop_construct_exit loop @loop
1 Parallel_enter parallel @parmasked
T Parallel_begin parallel @parmasked
T Parallel_end parallel @parmasked
1 Parallel_exit parallel @parmasked
1 Masked_begin masked @parmasked
1 Masked_end masked @parmasked
1 Parallel_enter parallel @parmaster
T Parallel_begin parallel @parmaster
T Parallel_end parallel @parmaster
1 Parallel_exit parallel @parmaster
1 Master_begin master @parmaster
1 Master_end master @parmaster
# num_threads(3), every atomic form
1 Parallel_enter parallel @par3
3 Parallel_begin parallel @par3
3 Parallel_end parallel @par3
1 Parallel_exit parallel @par3
3 Atomic_event atomic @aread
3 Atomic_event atomic @awrite
3 Atomic_event atomic @aupdate
3 Atomic_event atomic @acapture
3 Atomic_event atomic @acompare
3 Atomic_event atomic @acmpcap
SPEC
done

# The order on the one thread of the first parallel region.
seq=$(thread_events ws.1 0)
one_iteration='Ordered_enter:ordered Ordered_begin:ordered Ordered_end:ordered Ordered_exit:ordered '
grep -qE "^Parallel_enter:parallel Parallel_begin:parallel Sections_enter:sections (Section_begin:sections Section_end:sections ){3}Sections_exit:sections Single_enter:single Single_begin:single Single_end:single Single_exit:single Atomic_event:atomic Master_begin:master Master_end:master Masked_begin:masked Masked_end:masked Barrier_enter:barrier Barrier_exit:barrier Scope_enter:scope Scope_begin:scope Atomic_event:atomic Scope_end:scope Scope_exit:scope Loop_enter:for ($one_iteration){64}Loop_exit:for Critical_enter:critical Critical_begin:critical Critical_end:critical Critical_exit:critical Flush_event:flush Cancellation_point_event:cancellation_point Parallel_end:parallel Parallel_exit:parallel " <<< "$seq" \
    || fail "event order in the first parallel region: $seq"
# An atomic with two kind clauses: one atomicKind, in a fixed order (one per
# clause was a malformed CTC string: a region of type unknown, no place)
assert_eq "$(jq -r '[.regions[] | select(.type == "atomic" and (.ctc | contains("atomicKind=compare capture*")))] | length' ws.4/profile.json)" 1 \
    "atomic capture compare: its kind"
# The CTC strings describe each leaf of a split construct with its own clauses.
assert_eq "$(jq -r '[.regions[] | select(.type == "sections" and (.ctc | contains("hasReduction=1")))] | length' ws.4/profile.json)" 1 \
    "parallel sections: the reduction belongs to the sections leaf"
# An atomic whose x is wider than 8 bytes is updated under a lock: enter/exit
# around it (its time is the wait for the lock; it was an event after it, and
# the wait read as the enclosing region's work); every other an event. x made
# out in each form (constructs/atomic_forms.c, annotated @locked / @event),
# and the file still compiles with both compilers.
cp "$HERE"/constructs/atomic_forms.c .
"$BUILD/bin/pomp-instrument" atomic_forms.c af.pomp.c -- -fopenmp 2> af.err || { cat af.err; fail "instrument atomic_forms.c"; }
got=$(awk '/^#line/ { line = $2 - 1; next } { line++ } /POMP_Atomic_exit\(/ { print line - 1 ":locked" } /POMP_Atomic_event_fast\(/ { print line - 1 ":event" }' af.pomp.c | tr '\n' ' ')
want=$(grep -n '#pragma omp atomic' atomic_forms.c | sed 's/^\([0-9]*\):.*@\([a-z]*\).*/\1:\2/' | tr '\n' ' ')
assert_eq "$got" "$want" "atomic forms: locked (enter/exit) or event, by the size of x"
gcc -fopenmp -c -I"$BUILD/include" af.pomp.c -o af_gcc.o || fail "atomic_forms: gcc compiles the instrumented file"
clang-19 -fopenmp -c -I"$BUILD/include" af.pomp.c -o af_clang.o || fail "atomic_forms: clang compiles the instrumented file"

# GCC's sections on LLVM libomp with the runtime's work callbacks on
# (POMP_OMPT=full; so it is too once any construct of the program is left to
# the runtime): libomp's libgomp layer reports the sections as a loop. It is
# POMP's sections, which holds no 'for' (before: a 'for' without a place in
# every instrumented sections).
cat > secomp.c <<'C'
#include <stdio.h>
int main(void)
{
    long a = 0, b = 0;
    for (int rep = 0; rep < 3; rep++) {
#pragma omp parallel sections num_threads(2)
        {
#pragma omp section
            for (long i = 0; i < 300000; i++) a += i % 7;
#pragma omp section
            for (long i = 0; i < 300000; i++) b += i % 5;
        }
    }
    printf("%ld %ld\n", a, b);
    return 0;
}
C
"$POMPCC" --pomp-runtime=omp -O2 -fopenmp secomp.c -o secomp 2> /dev/null || fail "build secomp.c"
POMP_OMPT=full POMP_OUTPUT_DIR=secomp.d ./secomp > secomp.out 2> /dev/null
assert_eq "$(cat secomp.out)" "2699991 1800000" "sections on libomp: the program"
assert_eq "$(jq -r '[.regions[] | select(.type == "for")] | length' secomp.d/profile.json)" 0 \
    "sections on libomp, POMP_OMPT=full: no loop region"
assert_eq "$(region_sum secomp.d sections "$(line_of secomp.c 'parallel sections')" visits)" 6 \
    "sections on libomp, POMP_OMPT=full: 3 executions of 2 threads"

# parallel loop with allocate on a variable its loop privatizes (clang): the
# allocate clause would go to the loop leaf, which takes none, so the
# construct stays whole and is said; the rest of the file is instrumented
# (clang rejected the split, and the whole file went uninstrumented; a probe)
if [ -z "$E2E_SANITIZE" ]; then
    cat > loopalloc.c <<'C'
#include <stdio.h>
int main(void)
{
    int q = 0, r = 0;
#pragma omp parallel loop num_threads(2) reduction(+ : q) allocate(q)
    for (int i = 0; i < 8; i++)
        q += 1;
#pragma omp parallel num_threads(2) reduction(+ : r)
    r += 1;
    printf("%d %d\n", q, r);
    return 0;
}
C
    "$BUILD/bin/pomp-clang" -fopenmp --pomp-verbose loopalloc.c -o loopalloc 2> loopalloc.err ||
        { cat loopalloc.err; fail "build loopalloc.c"; }
    assert_not_contains loopalloc.err "did not compile" "parallel loop allocate: the instrumented file compiles"
    assert_contains loopalloc.err "^loopalloc.c:5:1: note: left alone: 'parallel loop' allocates a variable its loop privatizes" \
        "parallel loop allocate: said"
    POMP_OUTPUT_DIR=loopalloc.d ./loopalloc > loopalloc.out
    assert_eq "$(cat loopalloc.out)" "8 2" "parallel loop allocate: the program"
    assert_eq "$(region_sum loopalloc.d parallel "$(line_of loopalloc.c 'reduction(+ : r)')" visits)" 1 \
        "parallel loop allocate: the file's other region instrumented"
fi

# parallel masked default(none) whose filter calls a function and names a
# variable: hoisted before the team (as one without a variable was, until it
# read 0 for 1 and another thread ran the block; a probe), it would run once,
# outside the team; the construct stays whole, said, and the program's
# answers are GCC's own (clang 19 mis-compiles this combined form itself)
cat > filterexpr.c <<'C'
#include <omp.h>
#include <stdio.h>
static int calls;
static int last(int n) { __atomic_add_fetch(&calls, 1, __ATOMIC_RELAXED); return n - 1; }
int main(void)
{
    int by = -1, by2 = -1, n = 0;
    #pragma omp parallel masked default(none) shared(by) num_threads(2) filter(omp_get_num_threads() - 1)
    by = omp_get_thread_num();
    #pragma omp parallel masked default(none) shared(by2, n) num_threads(2) filter(last(omp_get_num_threads() + n))
    by2 = omp_get_thread_num();
    printf("by %d %d, %d calls\n", by, by2, calls);
    return 0;
}
C
"$POMPCC" -fopenmp --pomp-verbose filterexpr.c -o filterexpr 2> filterexpr.err || { cat filterexpr.err; fail "filterexpr: build"; }
plain_cc filterexpr.c -o filterexpr_plain
assert_eq "$(POMP_OMPT=on POMP_OUTPUT_DIR=filterexpr.d ./filterexpr 2> filterexpr.run.err)" "$(./filterexpr_plain)" "filter under default(none): the program's answers"
assert_eq "$(./filterexpr_plain)" "by 1 1, 2 calls" "filter under default(none): GCC's answers"
assert_contains filterexpr.err "filterexpr.c:$(line_of filterexpr.c 'filter(last'):[0-9]+: note: left alone: an inner construct's filter expression calls something and names something" \
    "filter under default(none): the construct with a variable stays whole, said"
assert_contains filterexpr.err "filterexpr.c: warning: 1 of 2 OpenMP constructs instrumented; 1 left to the runtime's events" \
    "filter under default(none): counted as left to the runtime's events"
# ... whose events then measure it: its parallel region (counted on purpose,
# it ran unmeasured, said as code not built with pompcc; the last review)
assert_eq "$(jq '[.regions[] | select(.type == "parallel")] | length' filterexpr.d/profile.json)" 2 \
    "filter under default(none): the whole construct's parallel region measured"
assert_not_contains filterexpr.run.err "did not instrument" "filter under default(none): not taken for code pompcc did not build"
assert_eq "$(region_sum filterexpr.d masked "$(line_of filterexpr.c 'filter(omp_get')" begins)" 1 \
    "filter under default(none): the one without a variable is split and measured"
