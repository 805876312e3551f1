#!/usr/bin/env bash
# A throttled region whose executions grow long later (a phase change): an
# adaptive mesh's critical is tiny for 60,000 updates, throttled (10,000
# under 1 us; here 1,000 under 10 us), then holds a 5 ms refinement 40 times on two threads. Counted,
# not timed since the throttle, those 200 ms of holding and the other
# thread's ~200 ms of waits read as the enclosing loop's own work. The report
# said only "their time since is their enclosing region's own", unsized: the
# critical read 0.000 ms for its 40 long executions, the loop 400 ms of own
# work, parallel efficiency 98.8 % for 49.6, the '!' note counting executions
# only (a probe). Now the note per throttled region and the '!' note give the
# own time that holds them, and the path with the longest executions.
source "$(dirname "$0")/lib.sh"
cat > phase.c <<'C'
#include <stdio.h>
#include <time.h>
static long counter, refined;
__attribute__((noinline)) static void update(long step)
{
#pragma omp critical(mesh)
    {
        if (step < 60000) counter++;
        else { struct timespec t = {0, 5000000}; refined++; nanosleep(&t, NULL); }
    }
}
int main(void)
{
#pragma omp parallel num_threads(2)
    {
#pragma omp for schedule(static)
        for (long i = 0; i < 60000; i++) update(i);
#pragma omp for schedule(static)
        for (long i = 60000; i < 60040; i++) update(i);
    }
    printf("%ld %ld\n", counter, refined);
    return 0;
}
C
"$POMPCC" -O2 -fopenmp phase.c -o phase 2>build.err || { cat build.err; fail "build"; }
L_crit=$(line_of phase.c "omp critical")
L_long=$(( $(line_of phase.c "i = 60000; i < 60040") - 1 )) # its pragma

# (a throttle that holds on a loaded machine: a contended tiny critical may
# take more than 1 us)
POMP_THROTTLE=10000,100us OMP_WAIT_POLICY=passive POMP_OUTPUT_DIR=ph timeout 60 ./phase > out.txt 2> err.txt || fail "run"
assert_contains out.txt "^60000 40$" "phase: the program computes the same"
jq -e '[.regions[] | select(.type == "critical" and .throttled)] | length == 1' ph/profile.json > /dev/null ||
    fail "phase: the critical is throttled in its tiny phase"
"$REPORT" ph > rep.txt
# the critical's long phase: its time (200 ms) and the waits for it, untimed,
# are in the second loop's own time, which the note sizes
assert_contains rep.txt "^note: critical mesh @ phase.c:$L_crit-[0-9]+, throttled at [0-9.]+ s: [0-9]+ executions since counted untimed; their time, waits included, is in the own time of the regions they ran in: [0-9.]+ ms on those threads" \
                "phase: the throttled region's untimed executions and the own time holding them said"
assert_contains rep.txt "in for @ phase.c:$L_long-[0-9]+: ([2-9][0-9][0-9]|[0-9]{4,})\.[0-9] ms for 40 (of them )?\(up to [0-9.]+ ms each\)" \
                "phase: the loop holding the long executions named, with its own time (at least 200 ms) and their number"
assert_contains rep.txt "^  ! waits not measured: [0-9]+ executions .* the own time of the regions they ran in, ([2-9][0-9][0-9]|[0-9]{4,})\.[0-9] ms, holds their time and waits" \
                "phase: the POP note sizes what the untimed waits are in"
jq -e '.efficiency.run.untimed_wait_enclosing_own_ns >= 200e6 and
       .efficiency.parallel_regions[0].untimed_wait_enclosing_own_ns >= 200e6' \
    <("$REPORT" --json ph) > /dev/null || fail "phase: --json untimed_wait_enclosing_own_ns: $("$REPORT" --json ph | jq -c .efficiency.run)"
"$REPORT" --check ph > /dev/null || fail "phase: --check"
# with every execution timed, the critical holds that time, and nothing is said
POMP_THROTTLE=off OMP_WAIT_POLICY=passive POMP_OUTPUT_DIR=off timeout 60 ./phase > /dev/null 2>&1 || fail "run off"
"$REPORT" off > rep-off.txt
assert_not_contains rep-off.txt "executions since counted untimed|waits not measured" "phase: POMP_THROTTLE=off: nothing untimed said"

# A throttled user region at the top of its thread, outside every region,
# tiny 60,000 times, then 5 ms 40 times: its 200 ms since the throttle are in
# the thread's time outside regions, which the note sizes (it said nothing:
# no enclosing region's own time held them; a probe); and the same loop in a
# user region: 4 us of its own time an untimed execution, under the note's
# old 10 us, said now that it is 20 times what a timed execution took
for wrap in 0 1; do
    cat > top$wrap.c <<C
#include <stdio.h>
#include <time.h>
int main(void)
{
    long n = 0;
#if $wrap
#pragma pomp inst begin(loop)
#endif
    for (int i = 0; i < 60040; i++) {
#pragma pomp inst begin(step)
        n++;
        if (i >= 60000) { struct timespec t = {0, 5000000}; nanosleep(&t, NULL); }
#pragma pomp inst end(step)
    }
#if $wrap
#pragma pomp inst end(loop)
#endif
    printf("%ld\\n", n);
    return 0;
}
C
    "$POMPCC" -O2 -fopenmp top$wrap.c -o top$wrap 2>build.err || { cat build.err; fail "build top$wrap"; }
    POMP_OUTPUT_DIR=top$wrap.d ./top$wrap > out.txt 2> /dev/null
    assert_contains out.txt "^60040$" "top$wrap: the program's result"
    jq -e '[.regions[] | select(.name == "step" and .throttled)] | length == 1' top$wrap.d/profile.json > /dev/null ||
        fail "top$wrap: step throttled in its tiny phase"
    "$REPORT" top$wrap.d > top$wrap.txt
    assert_contains top$wrap.txt "^note: userregion step @ top$wrap.c:[0-9-]+, throttled at [0-9.]+ s: [0-9]+ executions since counted untimed; their time, waits included, is in the own time of the regions they ran in: ([2-9][0-9][0-9]|[0-9]{4,})\\.[0-9] ms" \
        "top$wrap: the untimed executions' 200 ms sized"
    "$REPORT" --check top$wrap.d > /dev/null || fail "top$wrap: --check"
done
assert_contains top0.txt "outside every region: ([2-9][0-9][0-9]|[0-9]{4,})\\.[0-9] ms of their threads' time outside regions holds theirs" \
    "top0: at the top of the thread, outside every region"
echo "throttle phase: a throttled critical whose executions grew long: the own time holding them sized and its path named"
