#!/usr/bin/env bash
# Throttling (POMP_THROTTLE): a million tiny critical updates per thread are
# throttled after 10,000 executions under 1 us each (100,000 under 10 us): counted exactly, not
# timed from then on, marked and said; off times them all. An atomic is an
# event without duration: without a trace it is counted inline from its first
# execution (not throttled: nothing of it was timed); with a trace (whose
# records need timestamps) it is throttled like the critical.
PROGRAMS=$(cd "$(dirname "$0")/programs" && pwd)
source "$(dirname "$0")/lib.sh"
cat > tiny.c <<'C'
#include <stdio.h>
int main(void)
{
    long s = 0, a = 0;
#pragma omp parallel num_threads(2) reduction(+:s)
    for (int i = 0; i < 1000000; i++) {
#pragma omp critical
        s += i & 7;
#pragma omp atomic
        a += 1;
    }
    printf("%ld %ld\n", s, a);
    return 0;
}
C
"$POMPCC" -O2 -fopenmp tiny.c -o tiny 2>build.err || { cat build.err; fail "build"; }
L_crit=$(line_of tiny.c "omp critical")

POMP_SUMMARY=on POMP_OUTPUT_DIR=dflt ./tiny > out.txt 2> err.txt
assert_contains out.txt "^7000000 2000000$" "the program computes the same"
assert_contains err.txt "^pomp: note: the waits of throttled critical, ordered or lock sites .* are not timed from then on" \
                "throttled waits: said at the end"
assert_contains err.txt "note: 1 region throttled \(more than 100000 executions on a path under 10 us each, or 10000 under 1 us\): counted, not timed, from then on: critical @ tiny.c:$L_crit \(from [0-9.]+ s\); their time since is their enclosing region.s own; POMP_THROTTLE=off times them all" \
                "the summary says which regions, from when, and the setting"
# executions under 10,240: the early rule applies at the first check (1,024),
# and the note names it (it named the rule alone: 9,000 under 1 us throttled a
# region run 5,000 times; a probe); at 1,000 the first check is past the rule
POMP_THROTTLE=9000,1us POMP_SUMMARY=on POMP_OUTPUT_DIR=t9000 ./tiny > /dev/null 2> err9000.txt
assert_contains err9000.txt "note: 1 region throttled \(more than 9000 executions on a path under 1 us each, or 900 under 100 ns\)" \
                "9000,1us: the early rule said"
POMP_THROTTLE=1000,1us POMP_SUMMARY=on POMP_OUTPUT_DIR=t1000 ./tiny > /dev/null 2> err1000.txt
assert_contains err1000.txt "note: 1 region throttled \(more than 1000 executions on a path under 1 us each\)" \
                "1000,1us: the rule alone"
# ... and marks its row, as pomp-report does (a region run inside a throttled
# one was not marked, its time a part; a probe)
assert_contains err.txt "^pomp: +[0-9.]+ +[0-9]+ +[0-9]+  critical \[throttled\] @ tiny.c:$L_crit\$" "the summary's row of a throttled region marked"
# the atomic, counted inline from the start: every execution, none throttled or untimed
assert_eq "$(jq '([.regions[] | select(.type == "atomic") | .id]) as $ids
               | [.callpath[] | select(.region as $r | $ids | index($r)) | .per_thread[] | [.visits, .untimed // 0]]
               | [(map(.[0]) | add), (map(.[1]) | add)] | @text' -r dflt/profile.json)" "[2000000,0]" \
          "atomic without a trace: every execution counted, none untimed"
assert_eq "$(jq '[.regions[] | select(.type == "atomic") | .throttled] | map(select(. != null)) | length' dflt/profile.json)" 0 \
          "atomic without a trace: not throttled"
POMP_TRACE=events POMP_BUFFER_SIZE=64k POMP_SUMMARY=on POMP_OUTPUT_DIR=traced ./tiny > out.txt 2> err.txt
assert_contains err.txt "note: 2 regions throttled \(more than 100000 executions on a path under 10 us each, or 10000 under 1 us\): counted, not timed, from then on: .*critical @ tiny.c:$L_crit \(from [0-9.]+ s\).*; their time since is their enclosing region.s own; POMP_THROTTLE=off times them all" \
                "with a trace: the atomic is throttled too"
for t in critical atomic; do
    d=$([ $t = critical ] && echo dflt || echo traced)
    assert_eq "$(jq --arg t $t '([.regions[] | select(.type == $t) | .id]) as $ids
                   | [.callpath[] | select(.region as $r | $ids | index($r)) | .per_thread[].visits] | add' $d/profile.json)" \
              2000000 "$t: every execution counted"
    jq -e --arg t $t '[.regions[] | select(.type == $t) | .throttled.since_ns > 0 and .throttled.after >= 10000] | all' \
        $d/profile.json > /dev/null || fail "$t: marked throttled in profile.json"
    untimed=$(jq --arg t $t '([.regions[] | select(.type == $t) | .id]) as $ids
                 | [.callpath[] | select(.region as $r | $ids | index($r)) | .per_thread[].untimed // 0] | add' $d/profile.json)
    [ "$untimed" -gt 1000000 ] && [ "$untimed" -lt 2000000 ] || fail "$t: $untimed untimed executions"
done
"$REPORT" dflt > report.txt
assert_contains report.txt "critical \[throttled\]" "the report marks the region"
# ... and gives its rows no load balance: their times cover the executions
# before the throttle, which one thread reached long before another (a probe's
# balanced region read 50 %)
throttled_ids=$(jq -c '[.regions[] | select(.throttled) | .id]' dflt/profile.json)
assert_eq "$("$REPORT" --json dflt | jq --argjson t "$throttled_ids" '[.callpath[] | select(.region as $r | $t | index($r)) | .load_balance_pct] | map(select(. != null)) | length')" 0 \
          "throttled rows: no load balance"
assert_contains report.txt "^note: [0-9]+ events of throttled regions, counted but not timed \(POMP_THROTTLE\)$" \
                "the report says how many events were not timed"

# The early rule: a region ten times shorter than the mean is throttled after
# a tenth of the executions. 50,000 executions on one thread: the tiny
# critical (tens of ns) is throttled, one of ~3 us is not (it needs 100,000).
cat > early.c <<'C'
#include <stdio.h>
static volatile double sink;
static void work_us(int us) /* ~us microseconds of dependent arithmetic */
{
    double x = 1;
    for (int i = 0; i < us * 300; i++)
        x = x * 1.0000001 + 1e-9;
    sink = x;
}
int main(void)
{
    long tiny = 0, slow = 0;
    for (int i = 0; i < 50000; i++) {
#pragma omp critical (tiny)
        tiny += i & 3;
#pragma omp critical (slow)
        {
            work_us(3);
            slow++;
        }
    }
    printf("%ld %ld\n", tiny, slow);
    return 0;
}
C
"$POMPCC" -O2 -fopenmp early.c -o early 2>build.err || { cat build.err; fail "build early"; }
POMP_SUMMARY=on POMP_OUTPUT_DIR=early_out ./early > out.txt 2> err.txt
assert_contains out.txt "^75000 50000$" "early: the program computes the same"
assert_contains err.txt "note: 1 region throttled \(.*\): counted, not timed, from then on: critical tiny @ early.c:[0-9]+ \(from [0-9.]+ s\); their time since .*; POMP_THROTTLE=off" \
                "early: the tiny critical is throttled, the 3 us one is not"
jq -e '[.regions[] | select(.type == "critical" and .name == "tiny") | .throttled.after | . >= 10000 and . < 50000] == [true]' \
    early_out/profile.json > /dev/null || fail "early: the tiny critical throttled after 10,000 to 50,000 executions: $(jq -c '[.regions[] | select(.type == "critical") | [.name, .throttled]]' early_out/profile.json)"
for n in tiny slow; do
    assert_eq "$(jq --arg n $n '([.regions[] | select(.type == "critical" and .name == $n) | .id]) as $ids
                   | [.callpath[] | select(.region as $r | $ids | index($r)) | .per_thread[].visits] | add' early_out/profile.json)" \
              50000 "early: every execution of critical $n counted"
done

# pomprun: the runtime reports the critical (the libgomp bridge's wrappers, or
# OMPT on libomp); once throttled, its executions are counted, not timed and
# not traced, as the instrumentation's are (the trace once held all 12 million
# events, and untimed_events stayed 0).
# (under make sanitize: the gcc binary built with the same sanitizer, as in
# test_pomprun; a clang binary cannot take gcc's ASan runtime)
[ -n "$E2E_SANITIZE" ] && export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0"
cc -O2 -fopenmp $E2E_SANITIZE tiny.c -o tiny_gcc
[ -n "$E2E_SANITIZE" ] || clang-19 -O2 -fopenmp tiny.c -o tiny_clang
for prog in tiny_gcc $([ -n "$E2E_SANITIZE" ] || echo tiny_clang); do
    POMP_TRACE=events POMP_BUFFER_SIZE=64k POMP_SUMMARY=on POMP_OUTPUT_DIR=run_$prog \
        "$BUILD/bin/pomprun" ./$prog > out.txt 2> err.txt
    assert_contains out.txt "^7000000 2000000$" "$prog under pomprun: the program computes the same"
    assert_contains err.txt "note: 1 region throttled .*: counted, not timed, from then on: critical" \
                    "$prog under pomprun: the critical is throttled"
    assert_eq "$(jq '([.regions[] | select(.type == "critical") | .id]) as $ids
                   | [.callpath[] | select(.region as $r | $ids | index($r)) | .per_thread[].visits] | add' run_$prog/profile.json)" \
              2000000 "$prog under pomprun: every execution counted"
    untimed=$(jq '[.threads[].untimed_events] | add' run_$prog/profile.json)
    [ "$untimed" -gt 2000000 ] || fail "$prog under pomprun: $untimed events counted untimed"
    events=$(sed -nE 's/^pomp: trace: ([0-9]+) events.*/\1/p' err.txt)
    # at most the first 100,352 executions per thread timed (the early rule
    # takes 10,240 where the contended critical's mean stays under 1 us; a
    # loaded machine can stretch it over): 6 records each, 2 threads
    [ -n "$events" ] && [ "$events" -lt 1500000 ] || fail "$prog under pomprun: $events events in the trace"
done

# The setting's own units in the note (once "1000000 us" for 1s); no early
# rule below the 1024 executions between checks
POMP_THROTTLE=1000,1s POMP_SUMMARY=on POMP_OUTPUT_DIR=1s ./tiny > out.txt 2> err.txt
assert_contains err.txt "note: 1 region throttled \(more than 1000 executions on a path under 1 s each\): counted" \
                "1000,1s: said in the setting's units"

POMP_THROTTLE=off POMP_SUMMARY=on POMP_OUTPUT_DIR=off ./tiny > out.txt 2> err.txt
assert_not_contains err.txt "throttled" "off: nothing throttled"
assert_eq "$(jq '[.regions[] | select(.throttled)] | length' off/profile.json)" 0 "off: no region throttled"
assert_eq "$(jq '[.callpath[].per_thread[].untimed // 0] | add' off/profile.json)" 0 "off: every execution timed"

# Lock call sites are never throttled while a trace is written: the trace takes
# a lock's acquisitions (a set, a successful test) and releases from the calls'
# events, and a throttled test whose unset is not would release a lock that was
# never acquired. Thread 1 polls omp_test_lock while thread 0 holds the lock
# until it failed 3000 times (far past 1000 executions under 1 s each), then
# the same test takes it and thread 1 releases it.
cat > poll.c <<'C'
#include <omp.h>
#include <stdio.h>
int main(void)
{
    omp_lock_t l;
    long polls = 0;
    omp_init_lock(&l);
#pragma omp parallel num_threads(2)
    {
        int me = omp_get_thread_num();
        if (me == 0)
            omp_set_lock(&l);
#pragma omp barrier
        if (me == 0) {
            while (__atomic_load_n(&polls, __ATOMIC_ACQUIRE) < 3000)
                ;
            omp_unset_lock(&l);
        } else {
            while (!omp_test_lock(&l))
                __atomic_add_fetch(&polls, 1, __ATOMIC_RELEASE);
            omp_unset_lock(&l);
        }
    }
    omp_destroy_lock(&l);
    printf("%s\n", polls >= 3000 ? "polled" : "not polled");
    fprintf(stderr, "polls: %ld\n", polls);
    return 0;
}
C
"$POMPCC" -O2 -fopenmp poll.c -o poll 2>build.err || { cat build.err; fail "build"; }
POMP_THROTTLE=1000,1s POMP_TRACE=otf2 POMP_OUTPUT_DIR=polled ./poll > out.txt 2> polled.err
assert_contains out.txt "^polled$" "the lock was held while polled, then taken"
acquired=$(otf2-print polled/traces.otf2 | awk '$1 == "THREAD_ACQUIRE_LOCK"' | wc -l)
released=$(otf2-print polled/traces.otf2 | awk '$1 == "THREAD_RELEASE_LOCK"' | wc -l)
assert_eq "$acquired $released" "2 2" "with a trace, every acquisition and release of the lock (a set, a successful test)"
assert_eq "$(jq '[.regions[] | select(.type == "omp_test_lock" and .throttled)] | length' polled/profile.json)" 0 \
          "with a trace, the polled test is not throttled"
# Without a trace a test site is counted inline from its first call (a test
# never waits: an event without duration, as an atomic is), every poll counted
POMP_THROTTLE=1000,1s POMP_OUTPUT_DIR=poll-nt ./poll > /dev/null 2> poll-nt.err
polls=$(sed -n 's/^polls: //p' poll-nt.err)
assert_eq "$(region_sum poll-nt omp_test_lock "$(line_of poll.c "while (!omp_test_lock(&l))")" visits)" "$((polls + 1))" \
          "without a trace, every poll of the test counted (its failures and the one that took the lock)"
assert_eq "$(region_sum polled omp_test_lock "$(line_of poll.c "while (!omp_test_lock(&l))")" visits)" \
          "$(($(sed -n 's/^polls: //p' polled.err) + 1))" "with a trace, every poll of the test counted"

# The throttled critical's wait to enter (its time outside the block) is not
# timed once throttled: that wait then reads as work. The POP figures say so
# ('!' and a note; --json untimed_wait_executions); with every execution
# timed they do not.
"$REPORT" dflt > pop.txt
assert_contains pop.txt "^\(the run\) ! " "throttled waits: the run's POP row marked"
assert_contains pop.txt "^  ! waits not measured: [0-9]+ executions of throttled regions that wait" \
                "throttled waits: said under the POP table"
jq -e '.efficiency.run.untimed_wait_executions > 0 and .efficiency.parallel_regions[0].untimed_wait_executions > 0' \
    <("$REPORT" --json dflt) > /dev/null || fail "throttled waits: --json untimed_wait_executions"
POMP_THROTTLE=off POMP_OUTPUT_DIR=all ./tiny > /dev/null 2>&1
"$REPORT" all > pop-off.txt
assert_not_contains pop-off.txt "waits not measured|^\(the run\) !" "POMP_THROTTLE=off: every wait measured, nothing marked"

# A construct whose executions hold a wait (a loop's implicit barrier) is never
# throttled: throttled, its barrier went untimed too and read as the parallel
# region's work (2 us iterations on one thread: load balance 90 % for 52 %);
# nor one that holds such a construct (-DSTEP: a user region around the loop,
# throttled while only its children were looked at: the loop and its barrier
# went untimed with it, 24 ms of 475 ms of waits, load balance 97.6 % for 50 %;
# a probe)
cat > hotfor.c <<'C'
#include <stdio.h>
int main(void)
{
    long n = 0;
#pragma omp parallel num_threads(2) reduction(+ : n)
    for (int it = 0; it < 20000; it++) {
#ifdef STEP
#pragma pomp inst begin(step)
#endif
#pragma omp for schedule(static)
        for (int i = 0; i < 2; i++)
            n += i;
#ifdef STEP
#pragma pomp inst end(step)
#endif
    }
    printf("%ld\n", n);
    return 0;
}
C
for prog in hotfor stepfor; do
    "$POMPCC" -O2 -fopenmp $([ $prog = stepfor ] && echo -DSTEP) hotfor.c -o $prog 2>build.err ||
        { cat build.err; fail "build $prog"; }
    POMP_THROTTLE=1000,1s POMP_OUTPUT_DIR=${prog}_out ./$prog > out.txt 2> /dev/null
    assert_contains out.txt "^20000$" "$prog: the program's result"
    assert_eq "$(jq '[.regions[] | .throttled // false] | any' ${prog}_out/profile.json)" false \
              "$prog: a loop with an implicit barrier, and a region around it, not throttled"
    assert_eq "$(jq '[.callpath[] | .per_thread[] | .untimed // 0] | add' ${prog}_out/profile.json)" 0 \
              "$prog: the loop's barrier timed"
done

POMP_THROTTLE=fast POMP_OUTPUT_DIR=bad ./tiny > /dev/null 2> bad.txt
assert_contains bad.txt "POMP_THROTTLE='fast' is not valid \(allowed: off, or EXECUTIONS,MEAN such as 100000,10us" "a bad value is said"
# a negative count (strtoull took it as 2^64 - 1000: throttling off, silently)
POMP_THROTTLE=-1000,10us POMP_OUTPUT_DIR=neg ./tiny > /dev/null 2> neg.txt
assert_contains neg.txt "POMP_THROTTLE='-1000,10us' is not valid" "a negative count is said"
echo "throttle: critical throttled, atomic counted inline (throttled with a trace), counted exactly, said; off times all; lock calls timed while tracing"

# A throttled task construct: its creations are counted, its deferred
# executions stay timed. Its tree of executions read "task [throttled]"
# without a load balance, every execution timed (a probe): only the
# creations' row is marked. (A taskwait every 50 creations keeps libgomp's
# queue under its 64 tasks a thread: past that it runs a task at once in its
# creation, an execution counted inline in its creator's frame, which marks
# the executions' row too; test_fast_count's undeferred tasks. Without it a
# loaded machine, the other thread waiting for a CPU, ran all 30,000 so.)
cat > tasks.c <<'C'
#include <stdio.h>
int main(void)
{
    long s = 0;
#pragma omp parallel num_threads(2)
#pragma omp single
    for (int i = 0; i < 30000; i++) {
#pragma omp task shared(s)
        __atomic_add_fetch(&s, i, __ATOMIC_RELAXED);
        if (i % 50 == 49) {
#pragma omp taskwait
        }
    }
    printf("%ld\n", s);
    return 0;
}
C
"$POMPCC" -O2 -fopenmp tasks.c -o tasks 2> tasks.err || { cat tasks.err; fail "build tasks.c"; }
assert_eq "$(POMP_OUTPUT_DIR=tasks.d ./tasks 2> /dev/null)" 449985000 "throttled tasks: the program"
jq -e '[.regions[] | select(.type == "task") | .throttled] | any' tasks.d/profile.json > /dev/null ||
    fail "throttled tasks: the task construct is throttled"
"$REPORT" tasks.d > tasks.txt
assert_contains tasks.txt "^ +task \[throttled\] " "throttled tasks: the creations' row is marked"
assert_contains tasks.txt "^task +tasks\.c:" "throttled tasks: the executions' tree, every one timed, is not"
# One mark in every table: the flat table's rows, the wait table's and --json's
# call paths (the page's) mark a row by its paths, as the call-path table does
# (the flat table read "task [throttled]" for the timed executions, the page's
# call paths too; a probe)
sed -n '/^Regions by self time/,/^$/p' tasks.txt > tasks.flat
assert_contains tasks.flat "^task +tasks\.c:[0-9-]+ +30000 " "throttled tasks: the executions' flat row is not marked"
assert_contains tasks.flat "^task \[throttled\] \(creation\) +tasks\.c:" "throttled tasks: the creations' flat row is"
assert_not_contains tasks.txt "^task \[throttled\] \(executions\)" "throttled tasks: the executions' wait row is not marked"
"$REPORT" --json tasks.d > tasks.json
assert_eq "$(jq -r '[.callpath[] | select(.task_root) | .label] | join(",")' tasks.json)" task \
    "throttled tasks: --json's executions' call path as the text labels it"
assert_eq "$(jq -r '[.callpath[] | select(.task_root | not) | .label | select(startswith("task "))] | join(",")' tasks.json)" \
    "task [throttled]" "throttled tasks: --json's creations' call path as the text labels it"
"$REPORT" --check tasks.d > tasks.check || { cat tasks.check; fail "throttled tasks: --check"; }

# A critical reached in one of 50 executions of a throttled user region is
# counted untimed with it (after ~10,000 of the region's executions, ~200 of
# its own) though it is not throttled itself: its row is marked, without a
# load balance from its timed prefix (it read "critical" with LB 72 %, under
# a note about waits "marked [throttled] below"; a probe).
cp "$PROGRAMS/rare_critical.c" rare.c
"$POMPCC" -O2 -fopenmp rare.c -o rare 2> rare.err || { cat rare.err; fail "build rare.c"; }
assert_eq "$(POMP_OUTPUT_DIR=rare.d ./rare 2> /dev/null)" 8000 "rare critical: the program"
jq -e '[.regions[] | select(.type == "critical") | .throttled] | all(. == null)' rare.d/profile.json > /dev/null ||
    fail "rare critical: not throttled itself"
"$REPORT" rare.d > rare.txt
assert_contains rare.txt "^    critical \[throttled\] +rare\.c:[0-9-]+ +8000 +2 +[0-9.]+ +[0-9.]+ +[0-9.]+ +- " \
    "rare critical: its call path, counted untimed inside the throttled region, is marked, without a load balance"
sed -n '/^Regions by self time/,/^$/p' rare.txt > rare.flat
assert_contains rare.flat "^critical \[throttled\] +rare\.c:[0-9-]+ +8000 +2 " \
    "rare critical: its flat row is marked as its call path (it read 'critical')"
"$REPORT" --json rare.d > rare.json
assert_eq "$(jq -r '[.callpath[] | select(.region != null) | .label | select(startswith("critical"))] | join(",")' rare.json)" \
    "critical [throttled]" "rare critical: --json's call path as the text labels it (the page read 'critical')"
"$REPORT" --check rare.d > rare.check || { cat rare.check; fail "rare critical: --check"; }

# A critical throttled by another thread while this one waits to enter it:
# entered timed, its block's begin is timed too, so that its trace records
# pair (its end was traced without its begin, 1 run in 3; a probe)
cat > crit_race.c <<'C'
#include <stdio.h>
int main(void)
{
    long c = 0, u = 0;
    #pragma omp parallel num_threads(3) reduction(+:u)
    for (int i = 0; i < 30000; i++) {
        u += i & 3;
        #pragma omp critical
        c++;
    }
    printf("%ld %ld\n", c, u);
    return 0;
}
C
"$POMPCC" -fopenmp -O2 crit_race.c -o crit_race
for k in 1 2 3; do
    POMP_TRACE=events POMP_THROTTLE=1000,1ms POMP_OUTPUT_DIR=crit_race$k ./crit_race > crit_race.out
    assert_eq "$(cat crit_race.out)" "90000 135000" "critical throttled while waited for: the program's output"
    unpaired=$(awk '$3 == "Critical_begin" { b[$1]++ } $3 == "Critical_end" { e[$1]++ }
                    END { for (t in e) if (e[t] != b[t]) n++; for (t in b) if (!(t in e)) n++; print n + 0 }' \
               crit_race$k/events.log)
    assert_eq "$unpaired" 0 "critical throttled while waited for: each thread's block begins and ends pair in the trace (run $k)"
done

# An atomic's event has no time: throttled under a trace, its untimed
# executions hid no wait, and pomp-report says none (123,094 were said to hide
# waits, the run marked '!'; a probe). One updated under a lock (long double:
# Atomic_enter/exit, CTC atomicLocked) waits for it: throttled, said.
cat > atomics.c <<'C'
#include <stdio.h>
int main(int argc, char **argv)
{
    (void)argv;
    long n = 0;
    long double s = 0;
#pragma omp parallel for num_threads(2)
    for (int i = 0; i < 100000; i++) {
        if (argc > 1) {
#pragma omp atomic
            s += 1.0L;
        } else {
#pragma omp atomic
            n += 1;
        }
    }
    printf("%ld %.0Lf\n", n, s);
    return 0;
}
C
"$POMPCC" -O2 -fopenmp atomics.c -o atomics 2>build.err || { cat build.err; fail "build atomics"; }
assert_eq "$(POMP_TRACE=events POMP_OUTPUT_DIR=at_event ./atomics 2> /dev/null)" "100000 0" "atomics: the event's result"
assert_eq "$(POMP_TRACE=events POMP_OUTPUT_DIR=at_locked ./atomics locked 2> /dev/null)" "0 100000" "atomics: the locked one's result"
assert_eq "$(jq '[.regions[] | select(.type == "atomic" and .throttled)] | length' at_event/profile.json)" 1 \
          "atomics: the event throttled under the trace"
assert_eq "$("$REPORT" --json at_event | jq '.efficiency.run.untimed_wait_executions')" 0 \
          "atomics: an event's untimed executions hid no wait"
"$REPORT" at_event > at_event.txt
assert_not_contains at_event.txt "waits not measured|^\(the run\) !" "atomics: the event's run not marked"
assert_contains at_locked/profile.json '\*atomicLocked=1\*' "atomics: the locked one's CTC says so"
jq -e '.efficiency.run.untimed_wait_executions > 0' <("$REPORT" --json at_locked) > /dev/null ||
    fail "atomics: the locked one's untimed executions hid their waits: said"

# A lock call the instrumentation leaves to the runtime (in a macro's
# expansion) is measured by the runtime's report of its wait, throttled by the
# same rule as an instrumented lock call: each of a hot loop's acquisitions was
# timed, 8 times the program's time on one thread, and that time read as 61 %
# lock waits of a thread that never waited. Both runtimes (a GCC build on
# libgomp, on libomp); one thread, so that no acquisition waits at all.
cat > maclock.c <<'C'
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#define NB 16
#define GRAB(i) omp_set_lock(&locks[(i) % NB])
#define DROP(i) omp_unset_lock(&locks[(i) % NB])
static omp_lock_t locks[NB];
static long hist[NB];
int main(int argc, char **argv)
{
    long n = argc > 1 ? atol(argv[1]) : 400000, sum = 0;
    for (int i = 0; i < NB; i++)
        omp_init_lock(&locks[i]);
#pragma omp parallel for
    for (long k = 0; k < n; k++) {
        unsigned b = (unsigned)(k * 2654435761u) >> 20;
        GRAB(b);
        hist[b % NB]++;
        DROP(b);
    }
    for (int i = 0; i < NB; i++)
        sum += hist[i];
    printf("%ld\n", sum);
    return 0;
}
C
L_for=$(line_of maclock.c "omp parallel for")
for rt in gomp omp; do
    "$BUILD/bin/pompcc" --pomp-runtime=$rt -O2 -fopenmp maclock.c -o maclock_$rt 2>build.err ||
        { cat build.err; fail "maclock $rt: build"; }
    nm maclock_$rt | grep POMP_Locks_left_to_runtime > /dev/null || fail "maclock $rt: the macro's lock calls are the runtime's"
    assert_eq "$(OMP_NUM_THREADS=1 POMP_OUTPUT_DIR=ml_$rt ./maclock_$rt 400000 2>/dev/null)" 400000 \
              "maclock $rt: the program's result"
    read -r visits untimed wait_ns < <(jq -r '([.regions[] | select(.type == "wait" and .name == "lock") | .id]) as $ids
        | [.callpath[] | select(.region as $r | $ids | index($r)) | .per_thread[]]
        | "\(map(.visits) | add) \(map(.untimed // 0) | add) \(map(.incl_ns) | add)"' ml_$rt/profile.json)
    assert_eq "$visits" 400000 "maclock $rt: every acquisition counted"
    [ "$untimed" -gt 300000 ] || fail "maclock $rt: the wait throttled, its acquisitions counted without time ($untimed untimed)"
    assert_eq "$(jq '[.regions[] | select(.type == "wait" and .name == "lock" and .throttled)] | length' ml_$rt/profile.json)" 1 \
              "maclock $rt: the wait marked throttled"
    loop_ns=$(jq -r --argjson l "$L_for" '([.regions[] | select(.type == "for" and .first_line == $l) | .id]) as $ids
        | [.callpath[] | select(.region as $r | $ids | index($r)) | .per_thread[].incl_ns] | add' ml_$rt/profile.json)
    # (under 25 %: it read 61 % before; under the sanitizers the timed
    # acquisitions before the throttle are 10 % of the loop at times)
    awk -v w="$wait_ns" -v l="$loop_ns" 'BEGIN { exit !(l > 0 && w < 0.25 * l) }' ||
        fail "maclock $rt: a thread that never waits reads no lock waits ($wait_ns of the loop's $loop_ns ns)"
    jq -e '.efficiency.run.untimed_wait_executions > 0' <("$REPORT" --json ml_$rt) > /dev/null ||
        fail "maclock $rt: the waits the untimed acquisitions hide are said"
done

# An instrumented hot lock loop in a program that also has a lock call left to
# the runtime (a macro's): the bridge follows the runtime's lock waits, and the
# set site, throttled, made all its calls and the bridge its callbacks' work at
# each acquisition (a histogram took 5 to 10 times its plain time, counted
# inline elsewhere). The set's counted calls are marked for the bridge now
# (POMP_Fast_lock_mark): counted inline, the bridge leaves their acquisitions
# alone, no wait goes beside the call, and the waits their untimed executions
# hide are counted (4.4 M were said as 1). POMP_Set_lock_enter's calls are
# counted by a wrapper linked in (--wrap).
cat > hotlock.c <<'C'
#include <omp.h>
#include <stdio.h>
#define TOUCH(l) do { omp_set_lock(l); omp_unset_lock(l); } while (0)
static omp_lock_t locks[16];
static long hist[16];
int main(void)
{
    long sum = 0;
    for (int i = 0; i < 16; i++)
        omp_init_lock(&locks[i]);
#pragma omp parallel for num_threads(2) schedule(static)
    for (long k = 0; k < 400000; k++) {
        omp_set_lock(&locks[(k >> 6) & 15]);
        hist[(k >> 6) & 15]++;
        omp_unset_lock(&locks[(k >> 6) & 15]);
    }
    TOUCH(&locks[0]);
    for (int i = 0; i < 16; i++)
        sum += hist[i];
    printf("%ld\n", sum);
    return 0;
}
C
cat > enter_calls.c <<'C'
#include <stdio.h>
int __real_POMP_Set_lock_enter(void *handle, int tid, const void *lock, const char *ctc);
static long calls;
int __wrap_POMP_Set_lock_enter(void *handle, int tid, const void *lock, const char *ctc)
{
    __atomic_add_fetch(&calls, 1, __ATOMIC_RELAXED);
    return __real_POMP_Set_lock_enter(handle, tid, lock, ctc);
}
__attribute__((destructor)) static void said(void) { fprintf(stderr, "enter calls: %ld\n", calls); }
C
L_set=$(line_of hotlock.c "omp_set_lock(&locks[(k")
for rt in gomp omp; do
    cc -O2 $E2E_SANITIZE -c enter_calls.c -o enter_calls.o
    "$BUILD/bin/pompcc" --pomp-runtime=$rt -O2 -fopenmp hotlock.c enter_calls.o \
        -Wl,--wrap=POMP_Set_lock_enter -o hotlock_$rt 2>build.err || { cat build.err; fail "hotlock $rt: build"; }
    nm hotlock_$rt | grep POMP_Locks_left_to_runtime > /dev/null || fail "hotlock $rt: the macro's lock calls are the runtime's"
    # (a throttle after 1,000 executions under 1 ms: the default's 10,000 under
    # 1 us or 100,000 under 10 us, on a contended lock under the sanitizers,
    # engaged only at 100,000 a thread: 190,673 calls made, fixed or not)
    POMP_THROTTLE=1000,1ms POMP_OUTPUT_DIR=hl_$rt ./hotlock_$rt > out.txt 2> err.txt
    assert_contains out.txt "^400000$" "hotlock $rt: the program's result"
    calls=$(sed -n 's/^enter calls: //p' err.txt)
    [ -n "$calls" ] && [ "$calls" -lt 100000 ] ||
        fail "hotlock $rt: the throttled set site counted inline while the waits are followed ($calls of 400,000 calls made)"
    assert_eq "$(jq -r --argjson l "$L_set" '([.regions[] | select(.type == "omp_set_lock" and .first_line == $l) | .id]) as $ids
        | [.callpath[] | select(.region as $r | $ids | index($r)) | .per_thread[].visits] | add' hl_$rt/profile.json)" 400000 \
        "hotlock $rt: every set counted"
    # the bridge's waits: under the set call, or (the macro's one) beside it
    beside=$(jq -r '([.regions[] | select(.type == "wait" and .name == "lock") | .id]) as $w
        | ([.regions[] | select(.type == "omp_set_lock") | .id]) as $s
        | (.callpath | map({key: (.id | tostring), value: .region}) | from_entries) as $reg
        | [.callpath[] | select((.region as $r | $w | index($r)) and ($reg[.parent | tostring] as $p | ($s | index($p)) == null))
           | .per_thread[].visits] | add' hl_$rt/profile.json)
    assert_eq "$beside" 1 "hotlock $rt: no acquisition of the set call's counted beside it (the macro's one only)"
    jq -e '.efficiency.run.untimed_wait_executions > 300000' <("$REPORT" --json hl_$rt) > /dev/null ||
        fail "hotlock $rt: the waits of the untimed set calls are counted: $("$REPORT" --json hl_$rt | jq -c .efficiency.run)"
    "$REPORT" --check hl_$rt > /dev/null || fail "hotlock $rt: --check"
done
echo "throttle: a lock call left to the runtime: its wait throttled, every acquisition counted, said; a hot instrumented lock loop beside it counted inline"

# A critical in a recursion of undeferred tasks (if(0)), all throttled: the
# criticals counted inline below the two task roots ran in the roots' timed
# executions or, counted inline too, in the single that created the first
# ones. The own time that the report says holds their waits is those three
# paths' own time on that thread, each once: it named none before (0.0 ms for
# 110,596 executions; the two roots also hold each other's executions, and
# counted per root the single's own time came twice). And where the single
# calls the recursion 2,000 times, its own criticals untimed too, met before
# those below the roots: the single's own time alone was said (4.9 ms, the
# roots holding 300 more; a probe).
cat > recwait.c <<'C'
#include <stdio.h>
static long n;
static void rec(int d)
{
#pragma omp critical(c)
    n++;
    if (!d)
        return;
#pragma omp task if(0)
    rec(d - 1);
#pragma omp task if(0)
    rec(d - 1);
}
int main(void)
{
#pragma omp parallel num_threads(2)
#pragma omp single
    for (int r = 0; r < REPS; r++)
        rec(DEPTH);
    printf("%ld\n", n);
    return 0;
}
C
for shape in "1 16 131071" "2000 6 254000"; do
read -r reps depth result <<< "$shape"
"$POMPCC" -O2 -fopenmp -DREPS=$reps -DDEPTH=$depth recwait.c -o recwait 2>build.err ||
    { cat build.err; fail "recwait: build"; }
# (throttled after 1,000 executions under 1 ms: so under the sanitizers too)
rm -rf rw
POMP_THROTTLE=1000,1ms POMP_SUMMARY=off POMP_OUTPUT_DIR=rw ./recwait > out.txt
assert_eq "$(cat out.txt)" $result "recwait $reps x $depth: the program's result"
"$REPORT" --check rw > /dev/null || fail "recwait $reps x $depth: --check"
held=$("$REPORT" --json rw | jq '.efficiency.run.untimed_wait_enclosing_own_ns')
# the oracle: the own (exclusive) time of the task roots and of the single,
# on the thread whose criticals went untimed
want=$(jq '(.regions | map({key: (.id | tostring), value: .type}) | from_entries) as $type
    | ([.callpath[] | select($type[.region | tostring] == "critical") | .per_thread[] | select((.untimed // 0) > 0) | .thread] | unique) as $th
    | [.callpath[] | select(.task_root or $type[.region | tostring] == "single") | .per_thread[]
       | select(.thread as $t | $th | index($t)) | .excl_ns] | add' rw/profile.json)
awk -v h="$held" -v w="$want" 'BEGIN { exit !(w > 0 && h > 0.99 * w && h < 1.01 * w) }' ||
    fail "recwait $reps x $depth: the untimed criticals' waits said held by $held ns of own time, the roots' and the single's being $want ns"
done
echo "throttle: a critical in a throttled recursion of undeferred tasks: its untimed waits held by the task roots' and the creating single's own time, each once"
