# Run-time context values (seed 002 §3.3) and iteration events
# (constructs/rtc.c): num_threads and if results are evaluated once into
# temporaries the pragma then uses (a side effect happens once, as in the plain
# build); loop bounds, step and chunk reach Loop_enter when they have no side
# effects, else the "not available" values; sections are numbered; with
# --pomp-iterations every iteration is bracketed, continue and inner breaks
# included. A library linked before libpomp (constructs/rtc_spy.c) sees the values.
HERE=$(cd "$(dirname "$0")" && pwd)
source "$HERE/lib.sh"
source "$HERE/lib_constructs.sh"
cp "$HERE"/constructs/rtc.c "$HERE"/constructs/rtc_spy.c .
cc -Wall -Wextra -Werror -shared -fPIC -I"$BUILD/include" rtc_spy.c -o librtcspy.so -ldl
export RTC_SPY_OUT
"$POMPCC" -fopenmp --pomp-iterations rtc.c librtcspy.so -Wl,-rpath,"$PWD" -o rtc 2> build.err \
    || { cat build.err; fail "pompcc rtc.c"; }
! grep -q "without instrumentation" build.err || { cat build.err; fail "rtc.c was not instrumented"; }
plain_cc rtc.c -o rtc_plain
# The inserted calls pass int64 arguments as int64 (a bare -1, 0 or 1 was an
# int: -Werror -Wtraditional-conversion, "different width due to prototype",
# sent the file to the uninstrumented fallback where gcc builds it cleanly)
for iterations in "" --pomp-iterations; do
    "$POMPCC" -fopenmp $iterations -Werror -Wtraditional-conversion -c rtc.c -o rtc_tc.o 2> tc.err ||
        { cat tc.err; fail "-Wtraditional-conversion $iterations: build"; }
    assert_not_contains tc.err "without instrumentation|did not compile" \
        "-Wtraditional-conversion $iterations: the instrumented file compiles"
done
# POMP_LOOP=IterBeginEnd where no loop was built with iteration events: said
# (nothing fed that level, unsaid); built with them, nothing to say
"$POMPCC" -fopenmp rtc.c -o rtc_noiter 2> noiter.build || { cat noiter.build; fail "rtc.c without iterations"; }
POMP_LOOP=IterBeginEnd POMP_OUTPUT_DIR=noiter ./rtc_noiter > /dev/null 2> noiter.err
assert_contains noiter.err "^pomp: note: POMP_LOOP=IterBeginEnd records loop iterations, but no loop of this program was built with iteration events \(pompcc --pomp-iterations\)" \
                "POMP_LOOP=IterBeginEnd without --pomp-iterations: said"
for T in 1 4; do
    RTC_SPY_OUT=spy$T.txt OMP_NUM_THREADS=$T POMP_LOOP=IterBeginEnd POMP_TRACE=events POMP_OUTPUT_DIR=ib$T ./rtc > out$T.txt 2> err$T.txt
    assert_not_contains err$T.txt "built with iteration events" "POMP_LOOP=IterBeginEnd with --pomp-iterations: nothing said"
    OMP_NUM_THREADS=$T ./rtc_plain > plain$T.txt
    diff -u plain$T.txt out$T.txt || fail "output with $T threads differs from the plain build"
done
# Side effects of clause expressions: num_threads(three()) if(yes()) once; the
# chunk two() of a parallel for as often as the compiler evaluates it.
assert_contains out4.txt '^sum 309, 2 evaluations$' "num_threads and if evaluated once"

L() { line_of rtc.c "$1"; }
grep -v Loop_iter_event spy4.txt | sort -u > values.txt
cat > expected.txt <<EXPECTED
Loop_enter $(L @up_step) chunk=-1 init=2 final=9 incr=3
Loop_enter $(L @down) chunk=4 init=10 final=1 incr=-1
Loop_enter $(L @le_var_chunk) chunk=5 init=0 final=10 incr=1
Loop_enter $(L @decl_minus) chunk=-1 init=9 final=0 incr=-2
Loop_enter $(L @call_bound) chunk=-1 init=0 final=0 incr=1
Loop_enter $(L @volatile_bound) chunk=-1 init=0 final=0 incr=1
Loop_enter $(L @ne_plus) chunk=-1 init=0 final=9 incr=1
Loop_enter $(L @collapse) chunk=-1 init=0 final=0 incr=0
Loop_enter $(L @pointer) chunk=-1 init=0 final=0 incr=0
Loop_enter $(L @pfor_chunk) chunk=-1 init=0 final=99 incr=1
Loop_enter $(L @iterations) chunk=-1 init=0 final=11 incr=1
Parallel_enter $(L @par_effects) num_threads=3 if=1
Parallel_enter $(L @par_if0) num_threads=-1 if=0
Parallel_enter $(L @pfor_chunk) num_threads=-1 if=1
Parallel_enter $(L @iterations) num_threads=-1 if=1
Parallel_enter $(L @par_taskloop) num_threads=-1 if=1
Section_begin 1
Section_begin 2
Section_begin 3
Taskloop_enter $(L @taskloop) chunk=-1 init=1 final=20 incr=1
EXPECTED
sort -o expected.txt expected.txt
diff -u expected.txt values.txt || fail "RTC values"
# Iteration values: each iteration of the 12 of the @iterations loop once.
events ib4 > ev4.txt
L_it=$(L @iterations)
assert_eq "$(awk -v l=$L_it '$2 == "Loop_iter_begin" && $4 == l' ev4.txt | wc -l)" 12 "Loop_iter_begin per iteration (continue included)"
assert_eq "$(awk -v l=$L_it '$2 == "Loop_iter_end" && $4 == l' ev4.txt | wc -l)" 12 "Loop_iter_end per iteration (continue included)"
assert_eq "$(jq '[.threads[].nesting_errors] | add' ib4/profile.json)" 0 "nesting errors with iteration events"
for l in $(seq 0 11); do grep -qx "Loop_iter_event $l" spy4.txt || fail "no iteration event for iteration $l"; done
# The levels choose at run time: IterEvent single events, EnterExit none of them.
OMP_NUM_THREADS=4 POMP_LOOP=IterEvent POMP_TRACE=events POMP_OUTPUT_DIR=ie ./rtc > /dev/null
events ie > ie.txt
assert_eq "$(awk -v l=$L_it '$2 == "Loop_iter_event" && $4 == l' ie.txt | wc -l)" 12 "POMP_LOOP=IterEvent"
assert_eq "$(grep -c 'Loop_iter_begin' ie.txt)" 0 "POMP_LOOP=IterEvent: no begin/end"
# A taskloop's iterations run in its tasks, where the taskloop's frame is not
# on top: each iteration event is a begin of the taskloop, as an iteration's
# begin is, not an execution of it (20 iterations of a taskloop run once read
# as 21 executions; a probe)
L_tl=$(L @taskloop)
for d in ie ib4; do
    assert_eq "$(region_sum $d taskloop $L_tl visits) $(region_sum $d taskloop $L_tl begins)" "1 20" \
        "taskloop iterations ($d): one execution, 20 iterations as begins"
    "$REPORT" --check $d > /dev/null || fail "taskloop iterations ($d): --check"
done
OMP_NUM_THREADS=4 POMP_TRACE=events POMP_OUTPUT_DIR=ee ./rtc > /dev/null
assert_eq "$(grep -c 'Loop_iter' ee/events.log)" 0 "POMP_LOOP=EnterExit (default): no iteration events"
# Without --pomp-iterations, loop bodies are left as they are (vectorization).
"$BUILD/bin/pomp-instrument" rtc.c plain.pomp.c -- -fopenmp
! grep -q "Loop_iter" plain.pomp.c || fail "iteration events without --iterations"

# A break that leaves the loop is an error of the user's: no iteration events
# there (a do-while around the body would hide it), and the compiler says so.
cat > brk.c <<'SRC'
int main(void)
{
    int i, s = 0;
    #pragma omp parallel for
    for (i = 0; i < 10; i++) {
        if (i == 5)
            break;
        s += i;
    }
    return s;
}
SRC
"$BUILD/bin/pomp-instrument" --iterations --verbose brk.c brk.pomp.c -- -fopenmp 2> brk.notes
assert_contains brk.notes "brk.c:4:[0-9]+: note: no iteration events: a break leaves the loop" "note for break"
if "$POMPCC" -fopenmp --pomp-iterations brk.c -o brk 2> brk.err; then fail "pompcc accepted a break out of an OpenMP loop"; fi
assert_contains brk.err "brk.c:7:[0-9]+: error: .*break" "the compiler's error at the user's line"
# A clause expression's own colon or comma is no modifier's: the last
# top-level ':' was taken for one, and if(n < 5 ? 1 : 0) was copied as
# if(0): the region ran on one thread where the plain build ran two (a
# probe). Modifiers, ternaries and both in one clause, each run against
# the plain build.
cat > ternary.c <<'SRC'
#include <omp.h>
#include <stdio.h>
int main(int argc, char **argv)
{
    (void)argv;
    int n = argc, teams = 0, pairs = 0, tasks = 0;
    long s = 0;
#pragma omp parallel if(n < 5 ? 1 : 0) num_threads(2) reduction(+ : pairs)
    pairs += omp_get_num_threads() == 2;
#pragma omp parallel for if(parallel: n < 5 ? 1 : 0) num_threads(2) schedule(monotonic: dynamic, n < 5 ? 2 : 3) reduction(+ : teams, s)
    for (int i = 0; i < 8; i++) {
        teams += omp_get_num_threads() == 2;
        s += i;
    }
#pragma omp parallel num_threads(2)
#pragma omp single
#pragma omp taskloop grainsize(strict: n < 5 ? 2 : 3) if(taskloop: n > 0 ? 1 : 0) reduction(+ : tasks)
    for (int i = 0; i < 8; i++)
        tasks++;
    printf("%d %d %ld %d\n", pairs, teams, s, tasks);
    return 0;
}
SRC
cc -fopenmp ternary.c -o ternary_plain
"$POMPCC" -fopenmp ternary.c -o ternary 2> ternary.err || { cat ternary.err; fail "ternary.c: build"; }
assert_eq "$(./ternary 2> /dev/null)" "$(./ternary_plain)" "a ternary in if(), with and without a modifier, and in a chunk: as the plain build"
assert_eq "$(./ternary_plain)" "2 8 28 8" "ternary.c: the plain build's two threads"
# A num_threads or if clause with an integer literal stays as written, so that
# the compiler's own checks still see it: num_threads(-2) was copied to a
# variable, which GCC does not check and libgomp took as 4 billion threads
# (a probe; GCC warns about the constant and runs one thread).
cat > literal.c <<'SRC'
#include <omp.h>
#include <stdio.h>
int main(void)
{
    int n = 0, m = 0, k = 0;
#pragma omp parallel num_threads(-2) reduction(+ : n)
    n++;
#pragma omp parallel if(0) num_threads(2) reduction(+ : m)
    m += omp_get_num_threads();
#pragma omp parallel for num_threads( (2) ) if (parallel: 1) reduction(+ : k)
    for (int i = 0; i < 10; i++)
        k += omp_get_num_threads();
    printf("%d %d %d\n", n, m, k);
    return 0;
}
SRC
cc -fopenmp literal.c -o literal_plain 2> literal_plain.err
"$POMPCC" -fopenmp literal.c librtcspy.so -Wl,-rpath,"$PWD" -o literal 2> literal.err || { cat literal.err; fail "literal.c: build"; }
assert_contains literal.err "literal.c:6:[0-9]+: warning: .num_threads. value must be positive" \
    "num_threads(-2): the compiler's own warning, at the user's line"
assert_eq "$(RTC_SPY_OUT=literal.spy OMP_NUM_THREADS=2 POMP_OUTPUT_DIR=literal.d ./literal 2> /dev/null)" \
    "$(OMP_NUM_THREADS=2 ./literal_plain)" "literal num_threads and if: as the plain build"
assert_eq "$(OMP_NUM_THREADS=2 ./literal_plain)" "1 1 20" "literal.c: the plain build"
assert_eq "$(grep Parallel_enter literal.spy | sed 's/^Parallel_enter [0-9]* //' | sort | tr '\n' ';')" \
    "num_threads=-2 if=1;num_threads=2 if=0;num_threads=2 if=1;" "literal values reach Parallel_enter"
