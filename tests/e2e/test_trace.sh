# Traces (POMP_TRACE): OTF2 read back with otf2-print for every construct
# group (event counts, region names and roles, nesting, teams, locks), Chrome
# JSON accepted by jq with B/E well nested per thread, an instrumented program,
# and the buffer overflow: a tiny buffer loses nothing, and a flush that cannot
# write counts and reports what was lost.
HERE=$(cd "$(dirname "$0")" && pwd)
source "$HERE/lib.sh"
# Exact counts of the POMP events this test makes: the OMPT bridge's events
# (implicit barriers, waits, chunks) are tested in test_ompt_*.sh.
export POMP_OMPT=off

# ---- every group, through the POMP API in a real team of 4 threads ----
cc -fopenmp -O2 -I"$BUILD/include" "$HERE/progs/all_groups.c" -L"$BUILD/lib" -Wl,-rpath,"$BUILD/lib" \
   -lpomp $E2E_SANITIZE -o all_groups
expected='sum=6016 ordered=123 atomics=4 locked=4 singles=1 masters=1'
OMP_NUM_THREADS=4 POMP_LOOP=Chunks POMP_TRACE=both,events POMP_OUTPUT_DIR=ag ./all_groups > ag.out
assert_eq "$(cat ag.out)" "$expected" "program output while tracing"
[ -f ag/traces.otf2 ] && [ -f ag/trace.json ] && [ -f ag/events.log ] || fail "POMP_TRACE=both,events: all three files"
A=ag/traces.otf2
enters=$(otf2_nesting $A) || fail "OTF2 nesting: $enters"
assert_eq "$(otf2_count $A LEAVE)" "$enters" "as many LEAVE as ENTER"
assert_eq "$(otf2-print -G $A | grep -c '^LOCATION ')" 4 "one location per thread"
assert_eq "$(otf2_count $A THREAD_FORK)" 1 "fork"
assert_eq "$(otf2_count $A THREAD_JOIN)" 1 "join"
assert_eq "$(otf2_count $A THREAD_FORK '# Requested Threads: 4')" 1 "fork asks for 4 threads"
assert_eq "$(otf2_count $A THREAD_TEAM_BEGIN)" 4 "every thread begins the team"
assert_eq "$(otf2_count $A THREAD_TEAM_END)" 4 "every thread ends the team"
assert_eq "$(otf2-print -G $A | grep -c '^COMM ')" 1 "one thread team"
assert_contains <(otf2-print -G $A) '^GROUP .*Type: COMM_GROUP.*4 Members' "the team has 4 members"
# critical c1 (4 times) and the omp lock (4 times): acquire and release in pairs
assert_eq "$(otf2_count $A THREAD_ACQUIRE_LOCK)" 8 "lock acquisitions"
assert_eq "$(otf2_count $A THREAD_RELEASE_LOCK)" 8 "lock releases"
assert_eq "$(otf2-print $A | awk '$1 == "THREAD_ACQUIRE_LOCK" { sub(/.*Acquisition Order: /, ""); print }' | sort -n | uniq | tr '\n' ' ')" \
    "1 2 3 4 " "acquisition orders of each lock are 1..4"
check_region() { # NAME ROLE ENTERS
    assert_eq "$(otf2_role $A "$1")" "$2" "role of $1"
    assert_eq "$(otf2_count $A ENTER "Region: \"$1\"")" "$3" "ENTER events of $1"
}
check_region "parallel @ all_groups.c:10" PARALLEL 4
check_region "function work @ all_groups.c:11" FUNCTION 4
check_region "for @ all_groups.c:12" LOOP 4
check_region "for body @ all_groups.c:12" LOOP 64
check_region "implicit_barrier @ all_groups.c:20" IMPLICIT_BARRIER 4
check_region "sections @ all_groups.c:21" SECTIONS 4
check_region "sections body @ all_groups.c:21" SECTION 2
check_region "single @ all_groups.c:31" SINGLE 4
check_region "single body @ all_groups.c:31" SINGLE_SBLOCK 1
check_region "master @ all_groups.c:34" MASTER 1
check_region "critical c1 @ all_groups.c:37" CRITICAL 4
check_region "critical c1 body @ all_groups.c:37" CRITICAL_SBLOCK 4
check_region "atomic @ all_groups.c:40" ATOMIC 4
check_region "flush @ all_groups.c:41" FLUSH 4
check_region "omp_set_lock @ all_groups.c:42" WRAPPER 4
check_region "barrier @ all_groups.c:45" BARRIER 4
check_region "ordered @ all_groups.c:48" ORDERED 4
check_region "ordered body @ all_groups.c:48" ORDERED_SBLOCK 4
check_region "workshare @ all_groups.c:53" WORKSHARE 4
check_region "region phase @ all_groups.c:55" CODE 4
assert_contains <(otf2-print -G $A) 'REGION .*"critical c1 @ all_groups.c:37".*File: "all_groups.c" <[0-9]+>, Begin: 37, End: 39' \
    "source file and lines of a region"
assert_contains <(otf2-print -G $A) '^CLOCK_PROPERTIES +Ticks per Seconds: [1-9][0-9]{6,}' "clock resolution from the calibration"
# The region nesting: the chunks inside their loop, on every thread.
assert_eq "$(otf2-print $A | awk '$1 == "ENTER" { r = $0; sub(/.*Region: /, "", r)
    if (index(r, "\"for body @")) ok += (prev[$2] ~ /"for @ all_groups.c:12"|"for body @/) ; n++ }
    $1 == "ENTER" { prev[$2] = r } END { print ok }')" 64 "each chunk follows its loop's enter or the previous chunk"

# Chrome JSON of the same run.
# OTF2 writes single events as ENTER+LEAVE, Chrome as instants; Chrome adds
# the master's fork/join span, which OTF2 marks with THREAD_FORK/JOIN instead.
instants=$(jq '[.traceEvents[] | select(.ph == "i")] | length' ag/trace.json)
assert_eq "$instants" 16 "atomic, flush, unset lock and user event on 4 threads as instants"
assert_eq "$(chrome_check ag/trace.json)" "$((enters - instants + 1))" "Chrome B events"
assert_eq "$(jq '[.traceEvents[] | select(.ph == "M" and .name == "thread_name")] | length' ag/trace.json)" 4 "a named track per thread"
assert_eq "$(jq -r '[.traceEvents[] | select(.ph == "B") | .cat] | unique | join(",")' ag/trace.json)" \
    "loop,parallel,runtime,sync,user,workshare" "event groups as categories"
assert_eq "$(jq -r '[.traceEvents[] | select(.ph == "B" and (.name | startswith("critical c1 @"))) | .args.location] | unique | join(",")' ag/trace.json)" \
    "all_groups.c:37" "file:line in args"
# events.log: every record of the raw files, none lost
assert_eq "$(grep -vc '^#' ag/events.log)" "$(jq '[.threads[].events] | add' ag/trace-raw/defs.json)" "events.log has every record"
assert_eq "$(jq '[.threads[].dropped] | add' ag/trace-raw/defs.json)" 0 "nothing dropped"

# ---- region filters, decided at record time ----
OMP_NUM_THREADS=4 POMP_LOOP=Chunks POMP_TRACE=otf2 POMP_FILTER_EXCLUDE='type:atomic,flush,name:c1' \
    POMP_OUTPUT_DIR=filtered ./all_groups > filtered.out
assert_eq "$(cat filtered.out)" "$expected" "program output with filters"
F=filtered/traces.otf2
otf2_nesting $F > /dev/null || fail "OTF2 nesting with filters"
for r in "atomic @" "flush @" "critical c1"; do
    assert_eq "$(otf2_count $F ENTER "Region: \"$r")" 0 "no events of the filtered $r"
done
assert_eq "$(otf2_count $F THREAD_ACQUIRE_LOCK)" 4 "only the omp lock's acquisitions remain"
assert_eq "$(otf2_count $F ENTER 'Region: "single body @')" 1 "other regions unchanged"
assert_eq "$(jq -r '[.regions[] | select(.filtered) | .type] | sort | join(",")' filtered/profile.json)" \
    "atomic,critical,flush" "filtered regions marked in the profile"
assert_eq "$(jq '([.regions[] | select(.filtered) | .id]) as $f | [.callpath[] | select(.region as $r | $f | index($r))] | length' filtered/profile.json)" \
    0 "no profile nodes for filtered regions"
OMP_NUM_THREADS=2 POMP_FILTER_INCLUDE='file:all_groups.c,name:phase' POMP_FILTER_EXCLUDE='region:x' \
    POMP_OUTPUT_DIR=badfilter ./all_groups > badfilter.out 2> badfilter.err
assert_contains badfilter.err "POMP_FILTER_EXCLUDE='region:x' is not valid \(allowed: a comma-separated list of \[type:\|name:\|file:\]<glob>, e.g. type:atomic,file:\*.h \(a glob's '\[' needs its '\]', and a ',' ends the rule\)\); using no exclusion" "bad filter message"
OMP_NUM_THREADS=2 POMP_FILTER_INCLUDE='name:[a,b]' POMP_OUTPUT_DIR=badglob ./all_groups > /dev/null 2> badglob.err
assert_contains badglob.err "POMP_FILTER_INCLUDE='name:\[a,b\]' is not valid .*; using every region" "a broken glob is said, not taken for a literal"
OMP_NUM_THREADS=2 POMP_FILTER_INCLUDE='name:phase' POMP_OUTPUT_DIR=only ./all_groups > /dev/null
assert_eq "$(jq -r '([.regions[] | select(.filtered | not) | .id]) as $k | [.callpath[] | select(.region as $r | $k | index($r))] | length' only/profile.json)" \
    1 "POMP_FILTER_INCLUDE=name:phase records only the user region"

# A filtered instrumented construct that the runtime reports too stays
# filtered: the runtime's report finds POMP's construct (a frame that records
# nothing) and makes no region of its own (it made a parallel region "ompt"
# at the same place); the waits inside stay measured (this test runs without
# the bridge, POMP_OMPT=off, but here)
cat > filt.h <<'C'
static inline double work(int n)
{
    double s = 0;
    #pragma omp parallel for reduction(+ : s)
    for (int i = 0; i < n; i++)
        s += i * 0.5;
    return s;
}
C
cat > filt.c <<'C'
#include <stdio.h>
#include "filt.h"
int main(void)
{
    double t = 0;
    for (int k = 0; k < 20; k++)
        t += work(1000);
    #pragma omp parallel
    {
        #pragma omp barrier
    }
    printf("%.1f\n", t);
    return 0;
}
C
"$POMPCC" -fopenmp -O2 filt.c -o filt 2> filt.err || { cat filt.err; fail "build filt.c"; }
assert_eq "$(POMP_OMPT=on POMP_FILTER_EXCLUDE='file:*.h,type:barrier' POMP_OUTPUT_DIR=filt_out ./filt)" 4995000.0 \
    "filtered constructs: output"
# (the runtime's twin of the header's parallel region: a parallel region whose
# file is known only after the run; of the explicit barrier: GCC's barrier call)
assert_eq "$(jq -c '[.regions[] | select(.filtered | not) | select(.type == "parallel" and .init == "ompt"
                     or .type == "implicit_barrier" and .name == "implementation") | .type]' filt_out/profile.json)" "[]" \
    "filtered constructs: no region of the runtime's in their place"
assert_eq "$(jq '[.regions[] | select(.type == "implicit_barrier" and .name == "parallel")] | length' filt_out/profile.json)" 1 \
    "filtered constructs: the waits inside still measured"
"$REPORT" --check filt_out > filt.check || { cat filt.check; fail "filtered constructs: --check"; }

# ---- an instrumented program (pompcc), OTF2 and Chrome ----
cp "$EXAMPLES"/workshare/*.[ch] .
"$POMPCC" -fopenmp -O2 main.c work.c -o wsapp
OMP_NUM_THREADS=3 POMP_TRACE=both POMP_OUTPUT_DIR=ws ./wsapp > ws.out
plain_cc main.c work.c -o ws_plain
OMP_NUM_THREADS=3 ./ws_plain > ws_plain.out
diff -u ws_plain.out ws.out || fail "instrumented output differs while tracing"
ws_enters=$(otf2_nesting ws/traces.otf2) || fail "instrumented OTF2 nesting: $ws_enters"
assert_eq "$(otf2_count ws/traces.otf2 THREAD_FORK)" 4 "4 parallel regions forked"
assert_eq "$(otf2_count ws/traces.otf2 THREAD_TEAM_BEGIN)" 12 "3 threads join each"
assert_eq "$(chrome_check ws/trace.json)" "$((ws_enters + 4))" "Chrome B events: OTF2 ENTER plus the master's fork/join spans"

# ---- buffer overflow: a 4 KiB buffer (170 records) and ~24000 events ----
cat > many.c <<'C'
#include <stdio.h>
int main(void)
{
    long s = 0;
    #pragma omp parallel num_threads(2) reduction(+:s)
    {
        for (int r = 0; r < 2000; r++) {
            #pragma omp for
            for (int i = 0; i < 100; i++)
                s += i;
            #pragma omp critical
            s++;
        }
    }
    printf("%ld\n", s);
    return 0;
}
C
"$POMPCC" -fopenmp -O2 many.c -o many
# Many teams with a tiny buffer: a libgomp worker's closing barrier ends at
# its next team, with its master's join time, and that end's record may set
# off a flush; the flush is the share's child, and the share ends after it
# (it ended at the join time: children over their parent, own time wrapped
# below 0, 5 runs of 5; a probe)
cat > teams.c <<'C'
#include <stdio.h>
#include <omp.h>
int main(void)
{
    double s = 0;
    for (int r = 0; r < 2000; r++) {
        #pragma omp parallel num_threads(3) reduction(+:s)
        s += omp_get_thread_num() + 1;
        if (r % 100 == 0) {
            #pragma omp parallel for num_threads(3) reduction(+:s) schedule(static)
            for (int i = 0; i < 100; i++)
                s += i;
        }
    }
    printf("%.0f\n", s);
    return 0;
}
C
"$POMPCC" -fopenmp -O2 teams.c -o teams
for k in 1 2 3; do
    POMP_OMPT=on POMP_TRACE=otf2 POMP_BUFFER_SIZE=4k POMP_OUTPUT_DIR=teams$k ./teams > teams.out 2> /dev/null
    assert_eq "$(cat teams.out)" 111000 "many teams, tiny buffer: the program's output"
    "$REPORT" --check teams$k > teams.check 2>&1 || { cat teams.check; fail "many teams, tiny buffer: --check (run $k)"; }
done
POMP_TRACE=otf2,chrome,events POMP_BUFFER_SIZE=4k POMP_SUMMARY=on POMP_OUTPUT_DIR=small ./many > small.out 2> small.err
assert_eq "$(cat small.out)" 9904000 "program output with a tiny buffer"
defs=small/trace-raw/defs.json
flushes=$(jq '[.threads[].flushes] | add' $defs)
[ "$flushes" -gt 100 ] || fail "a tiny buffer flushes often (got $flushes)"
assert_eq "$(jq '[.threads[].dropped] | add' $defs)" 0 "nothing dropped"
# per thread: parallel begin/end, 2000 x (loop enter/exit, critical enter/begin/end/exit),
# the master's parallel enter/exit, and two records per flush
assert_eq "$(jq '[.threads[] | .events - 2 * .flushes] | sort | join(",")' $defs)" '"12002,12004"' \
    "every event recorded, with the flushes"
for t in 0 1; do
    n=$(jq ".threads[$t].events" $defs)
    assert_eq "$(stat -c %s small/trace-raw/thread-$t.bin)" "$((64 + 24 * n))" "raw file of thread $t holds all its records"
done
small_enters=$(otf2_nesting small/traces.otf2) || fail "OTF2 nesting with flushes: $small_enters"
assert_eq "$(otf2_role small/traces.otf2 "pomp flush")" ARTIFICIAL "the flush region's role"
assert_eq "$(otf2_count small/traces.otf2 ENTER 'Region: "pomp flush"')" "$flushes" "each flush is a region"
assert_eq "$(chrome_check small/trace.json)" "$((small_enters + 1))" "Chrome nesting with flushes"
assert_eq "$(jq '[.traceEvents[] | select(.ph == "B" and .cat == "pomp")] | length' small/trace.json)" "$flushes" "flushes in the Chrome trace"
assert_eq "$(jq --slurpfile p small/profile.json -n '($p[0].regions[] | select(.type == "pomp") | .id) as $id
    | [$p[0].callpath[] | select(.region == $id) | .per_thread[].visits] | add')" "$flushes" "flushes in the profile"
assert_contains small.err "pomp: trace: [0-9]+ events of 2 threads, $flushes flushes; events.log, traces.otf2, trace.json in small/" "summary line"
assert_not_contains small.err "lost" "no loss reported"

# Flushes at parallel regions' ends: a worker's closing barrier starts where
# its block ended, unless the end's own record set off a flush; then after
# the flush. Every thread's records stay in time order (events.log).
cat > regions.c <<'C'
#include <stdio.h>
int main(void)
{
    long s = 0;
    for (int r = 0; r < 3000; r++) {
        #pragma omp parallel num_threads(2) reduction(+:s)
        s += r;
    }
    printf("%ld\n", s);
    return 0;
}
C
"$POMPCC" -fopenmp -O2 regions.c -o regions
POMP_TRACE=events POMP_BUFFER_SIZE=4k POMP_OUTPUT_DIR=regions.d ./regions > regions.out
assert_eq "$(cat regions.out)" 8997000 "program output, many regions, a tiny buffer"
assert_eq "$(awk '!/^#/ { if (($1 in t) && $2 < t[$1]) n++; t[$1] = $2 } END { print n + 0 }' regions.d/events.log)" 0 \
    "every thread's records in time order across flushes at region ends"

# A flush set off by the first of two records of one instant (the libgomp
# bridge records an uninstrumented critical's enter and its wait's with one
# clock read: pomprun on a plain build): the second record is not placed
# before the flush's end. Before, it reached back into the flush: --check
# failed (a critical's own time 8.8e18 ns) and events.log went back in time
# hundreds of times. (pomprun cannot load a sanitized libpomp into a plain program.)
[ -n "$E2E_SANITIZE" ] || {
cat > crit.c <<'C'
#include <stdio.h>
int main(void)
{
    long c = 0;
#pragma omp parallel num_threads(2)
    for (int i = 0; i < 20000; i++) {
#pragma omp critical
        c++;
    }
    printf("%ld\n", c);
    return 0;
}
C
cc -O2 -fopenmp crit.c -o crit_plain
POMP_OMPT=on POMP_THROTTLE=off POMP_TRACE=events POMP_BUFFER_SIZE=4k POMP_OUTPUT_DIR=pair.d "$BUILD/bin/pomprun" ./crit_plain > pair.out
assert_eq "$(cat pair.out)" 40000 "program output, a tiny buffer, pomprun"
[ "$(jq '[.threads[].flushes] | add' pair.d/trace-raw/defs.json)" -gt 50 ] || fail "pair: the buffer flushed"
"$REPORT" --check pair.d > pair.check || { cat pair.check; fail "--check with flushes between a pair of records"; }
assert_eq "$(awk '!/^#/ { if (($1 in t) && $2 < t[$1]) n++; t[$1] = $2 } END { print n + 0 }' pair.d/events.log)" 0 \
    "every thread's records in time order across flushes inside a record pair"
}

# ---- a directory where the OTF2 anchor file goes: said, not reported as written ----
mkdir -p blocked/traces.otf2
POMP_TRACE=otf2,chrome POMP_SUMMARY=on POMP_OUTPUT_DIR=blocked ./many > blocked.out 2> blocked.err
assert_eq "$(cat blocked.out)" 9904000 "program output when the OTF2 anchor is blocked"
assert_contains blocked.err "pomp: error: cannot write the OTF2 archive: blocked/traces.otf2 is in the way" \
    "a directory named traces.otf2: said"
assert_contains blocked.err "pomp: trace: [0-9]+ events of 2 threads, [0-9]+ flush(es)?; trace.json in blocked/" \
    "the summary names only the files written"
[ ! -e blocked/traces ] || fail "no OTF2 event files without their anchor"
POMP_TRACE=otf2 POMP_SUMMARY=on POMP_OUTPUT_DIR=blocked ./many > /dev/null 2> blocked2.err
assert_contains blocked2.err "pomp: trace: [0-9]+ events of 2 threads, [0-9]+ flush(es)?; no trace files \(the raw records are in blocked/trace-raw/\)" \
    "no trace files: the raw records named"

# ---- a flush that cannot write: counted and reported, the program unharmed ----
mkdir fails && touch fails/trace-raw   # a file where the raw directory should be
POMP_TRACE=otf2 POMP_BUFFER_SIZE=4k POMP_OUTPUT_DIR=fails ./many > fails.out 2> fails.err
assert_eq "$(cat fails.out)" 9904000 "program output when the trace cannot be written"
assert_contains fails.err "pomp: error: cannot write the trace of thread [01] to fails/trace-raw: Not a directory; its events are dropped and counted, as are those of any other thread that cannot write" "the failure, once"
assert_eq "$(grep -c 'cannot write the trace of thread' fails.err)" 1 "reported once, not per flush"
dropped=$(jq '[.threads[].dropped_events] | add' fails/profile.json)
[ "$dropped" -ge 24006 ] || fail "every event counted as dropped (got $dropped)"
assert_contains fails.err "pomp: warning: $dropped trace events were lost" "the loss in the summary"
# one failed write per thread (the first): later full buffers are emptied as
# a gap, no flush (they were counted as flushes: ~140 visits of "pomp flush")
nthreads=$(jq '.threads | length' fails/profile.json)
tried=$(jq '[.regions[] | select(.type == "pomp") | .id] as $f
            | [.callpath[] | select(.region as $r | $f | index($r)) | .per_thread[].visits] | add // 0' fails/profile.json)
[ "$tried" -ge 1 ] && [ "$tried" -le "$nthreads" ] ||
    fail "a trace that cannot be written: one flush per thread tried ($nthreads threads), got $tried"
# A raw trace file missing or cut at a record's end reads as a trace, but not
# the one recorded: pomp-report says so (before: converted without a word)
cp -r ag ag_missing && rm ag_missing/trace-raw/thread-1.bin
"$REPORT" --chrome ag_missing.json ag_missing 2> ag_missing.err || fail "a missing raw file: the conversion failed"
assert_contains ag_missing.err "warning: ag_missing/trace-raw/thread-1.bin holds 0 events, defs.json says [0-9]+ were written" \
    "a missing raw file: said"
# ... or empty (a run killed before its first write): read as missing, the
# other threads' timelines kept (the whole conversion failed; a probe)
cp -r ag ag_empty && : > ag_empty/trace-raw/thread-1.bin
"$REPORT" --chrome ag_empty.json ag_empty 2> ag_empty.err || { cat ag_empty.err; fail "an empty raw file: the conversion failed"; }
assert_contains ag_empty.err "warning: ag_empty/trace-raw/thread-1.bin holds 0 events, defs.json says [0-9]+ were written" \
    "an empty raw file: said"
[ "$(jq '[.traceEvents[] | select(.tid == 0 and .ph == "B")] | length' ag_empty.json)" -gt 0 ] ||
    fail "an empty raw file: the other thread's timeline kept"
# defs.json naming fewer threads than there are raw files: the one left out
# is said (its events were in no timeline, without a word)
cp -r ag ag_fewer && jq '.threads |= .[:-1]' ag/trace-raw/defs.json > ag_fewer/trace-raw/defs.json
last=$(( $(jq '.threads | length' ag/trace-raw/defs.json) - 1 ))
"$REPORT" --chrome ag_fewer.json ag_fewer 2> ag_fewer.err || fail "defs.json without a thread: the conversion failed"
assert_contains ag_fewer.err "warning: ag_fewer/trace-raw/thread-$last.bin is not in defs.json" \
    "a raw file defs.json does not name: said"
# impossible times: a record's time of 2^64 - 1 (drawn 280 years into the
# trace), a clock span that ends before it starts (every event at 0): said
cp -r ag ag_time && printf '\377\377\377\377\377\377\377\377' |
    dd of=ag_time/trace-raw/thread-0.bin bs=1 seek=$((64 + 24)) conv=notrunc status=none
"$REPORT" --chrome ag_time.json ag_time 2> ag_time.err || fail "a damaged record time: the conversion failed"
assert_contains ag_time.err "warning: ag_time/trace-raw/thread-0.bin: byte offset 88: 1 record with a time far outside the run's" \
    "a record time far outside the run: said, with its offset"
cp -r ag ag_clock && jq '.clock.end_ticks = .clock.start_ticks - 1' ag/trace-raw/defs.json > ag_clock/trace-raw/defs.json
"$REPORT" --chrome ag_clock.json ag_clock 2> ag_clock.err && fail "a clock span that ends before it starts: converted"
assert_contains ag_clock.err "clock.end_ticks .* is not after start_ticks" "an inverted clock span: said"
cp -r ag ag_cut && truncate -s 88 ag_cut/trace-raw/thread-0.bin
"$REPORT" --chrome ag_cut.json ag_cut 2> ag_cut.err || fail "a cut raw file: the conversion failed"
assert_contains ag_cut.err "warning: ag_cut/trace-raw/thread-0.bin holds 1 events" "a raw file cut at a record's end: said"
"$REPORT" --chrome ag_whole.json ag 2> ag_whole.err
assert_not_contains ag_whole.err warning "the whole trace: no warning"
# an output that is one of the run's files: refused, the files kept (the
# profile was replaced by the page; a raw file truncated while mapped: SIGBUS)
# (and the run's other outputs, which pomp-report cannot write again: the
# page replaced traces.otf2 and events.log, unsaid; a probe)
cp ag/profile.json ag_profile.keep && cp ag/trace-raw/thread-0.bin ag_raw0.keep
cp ag/traces.otf2 ag_otf2.keep && cp ag/events.log ag_events.keep && cp ag/trace.json ag_chrome.keep
for target in ag/profile.json ag/trace-raw/thread-0.bin ag/traces.otf2 ag/traces.def ag/events.log ag/trace.json \
    ag/traces/0.evt; do
    for option in --html --chrome; do
        status=0
        "$REPORT" $option $target ag 2> over.err || status=$?
        assert_eq "$status" 2 "$option $target: refused"
        assert_contains over.err "pomp-report: $option $target would write over the run's own files" "$option $target: said"
    done
done
cmp -s ag/profile.json ag_profile.keep && cmp -s ag/trace-raw/thread-0.bin ag_raw0.keep &&
    cmp -s ag/traces.otf2 ag_otf2.keep && cmp -s ag/events.log ag_events.keep && cmp -s ag/trace.json ag_chrome.keep ||
    fail "an output naming the run's own files: they are kept"
rm ag_profile.keep ag_raw0.keep ag_otf2.keep ag_events.keep ag_chrome.keep
# both outputs in one file: one of them was lost, "wrote" said twice
status=0
"$REPORT" --html both.out --chrome both.out ag 2> both.err || status=$?
assert_eq "$status" 2 "--html and --chrome naming one file: refused"
assert_contains both.err "--html and --chrome name one file" "--html and --chrome naming one file: said"
# cut inside a record (a write cut short: a full disk): the whole records
# before it are read, and where it was cut is said (the whole thread was
# dropped, and pomp-report failed on the directory)
cp -r ag ag_torn && truncate -s 100 ag_torn/trace-raw/thread-0.bin
"$REPORT" --chrome ag_torn.json ag_torn 2> ag_torn.err || { cat ag_torn.err; fail "a raw file cut inside a record: the conversion failed"; }
assert_contains ag_torn.err "warning: ag_torn/trace-raw/thread-0.bin: byte offset 88: the file ends inside a record: its 1 whole records are read" \
                "a raw file cut inside a record: said, its whole record read"
# a record whose event kind or group pomp does not define: refused with its
# byte offset (written as "unknown" before)
cp -r ag ag_kind && printf '\xff\x7f' | dd of=ag_kind/trace-raw/thread-0.bin bs=1 seek=$((64 + 20)) conv=notrunc 2> /dev/null
if "$REPORT" --chrome ag_kind.json ag_kind 2> ag_kind.err; then fail "a record of an undefined event kind: converted"; fi
assert_contains ag_kind.err "thread-0.bin: byte offset 84: event kind that pomp does not define" "an undefined event kind: said where"
cp -r ag ag_group && printf '\x77' | dd of=ag_group/trace-raw/thread-0.bin bs=1 seek=$((64 + 23)) conv=notrunc 2> /dev/null
if "$REPORT" --chrome ag_group.json ag_group 2> ag_group.err; then fail "a record of an undefined group: converted"; fi
assert_contains ag_group.err "thread-0.bin: byte offset 87: group that defs.json does not define" "an undefined group: said where"
# a raw file another process wrote (two runs writing one directory at once:
# the later one replaced the files, the earlier wrote on into them, and its
# trace held the other's records and zeroed ones without a word; a probe):
# the header's pid is not defs.json's, said with its byte offset
cp -r ag ag_pid && printf '\x01\x00\x00\x00' | dd of=ag_pid/trace-raw/thread-0.bin bs=1 seek=24 conv=notrunc 2> /dev/null
if "$REPORT" --chrome ag_pid.json ag_pid 2> ag_pid.err; then fail "a raw file of another process: converted"; fi
assert_contains ag_pid.err "thread-0.bin: byte offset 24: written by another process than defs.json's" \
                "a raw file of another process: said where"
# a raw file that is no file (a FIFO): refused at once (the read waited for a writer forever)
cp -r ag ag_fifo && rm ag_fifo/trace-raw/thread-0.bin && mkfifo ag_fifo/trace-raw/thread-0.bin
if timeout 20 "$REPORT" --chrome ag_fifo.json ag_fifo 2> ag_fifo.err; then fail "a FIFO for a raw file: converted"; fi
assert_contains ag_fifo.err "ag_fifo/trace-raw/thread-0.bin: not a regular file" "a FIFO for a raw file: said, no wait"
rm -r ag_missing ag_cut ag_torn ag_kind ag_group ag_fifo # (the checks at the end read every profile.json: these are copies)

# A nest lock taken twice by each thread: each release names the acquisition
# it ends, the inner one first (one latest acquisition per lock gave both
# releases the inner one's number, and the outer acquisition was never released)
cat > nestl.c <<'C'
#include <omp.h>
#include <stdio.h>
int main(void)
{
    omp_nest_lock_t l;
    omp_init_nest_lock(&l);
    int n = 0;
#pragma omp parallel num_threads(2)
    {
        omp_set_nest_lock(&l);
        omp_set_nest_lock(&l);
        n++;
        omp_unset_nest_lock(&l);
        omp_unset_nest_lock(&l);
    }
    omp_destroy_nest_lock(&l);
    printf("%d\n", n);
    return 0;
}
C
"$POMPCC" -fopenmp nestl.c -o nestl 2> nestl.err || { cat nestl.err; fail "nest lock build"; }
assert_eq "$(POMP_TRACE=otf2 POMP_OUTPUT_DIR=nestl.d ./nestl 2> /dev/null)" 2 "nest lock: the program"
# per thread and lock: each release ends the latest acquisition not yet released
bad=$(otf2-print nestl.d/traces.otf2 | awk '
    $1 == "THREAD_ACQUIRE_LOCK" || $1 == "THREAD_RELEASE_LOCK" {
        o = $0; sub(/.*Acquisition Order: /, "", o); k = $2
        if ($1 == "THREAD_ACQUIRE_LOCK") { s[k, ++d[k]] = o; next }
        if (d[k] < 1 || s[k, d[k]] != o) bad++
        d[k]--
    }
    END { for (k in d) if (d[k]) bad++; print bad + 0 }')
assert_eq "$bad" 0 "nest lock: every release names the acquisition it ends"

# exit() inside a parallel region while the other thread waits in a barrier:
# the regions left open close at the end of measurement, in the trace as in
# the profile (they closed at the thread's last record: the worker's barrier
# of 40 ms lasted 0 us in the trace)
cat > exitmid.c <<'C'
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include "numbers/work.h"
int main(void)
{
    int arriving = 0; /* the worker is about to enter the barrier: the 40 ms count from
                         there (a sanitized run's worker, late, waited 24 ms) */
#pragma omp parallel num_threads(2) shared(arriving)
    {
        if (omp_get_thread_num() == 0) {
            while (!__atomic_load_n(&arriving, __ATOMIC_ACQUIRE))
                ;
            spin_ms(40);
            printf("leaving\n");
            fflush(stdout);
            exit(0);
        }
        __atomic_store_n(&arriving, 1, __ATOMIC_RELEASE);
#pragma omp barrier
    }
    return 1;
}
C
"$POMPCC" -fopenmp -O2 -I"$HERE" exitmid.c -o exitmid 2> exitmid.err || { cat exitmid.err; fail "exit() in a region: build"; }
assert_eq "$(POMP_TRACE=both POMP_OUTPUT_DIR=exitmid.d ./exitmid 2> exitmid.err)" leaving "exit() in a region: the program"
# the worker's barrier, from its begin to the walker's close, in microseconds
barrier_us=$(jq '[.traceEvents[] | select(.ph == "B" or .ph == "E")] | group_by(.tid)[]
                 | select(any(.name? // "" | startswith("barrier @")))
                 | (map(select(.ph == "E")) | last.ts) - (map(select(.name? // "" | startswith("barrier @"))) | first.ts)' \
            exitmid.d/trace.json)
awk -v d="$barrier_us" 'BEGIN { exit !(d >= 30000) }' ||
    fail "exit() in a region: the waiting worker's barrier closes at the end of measurement (got $barrier_us us)"
profile_us=$(jq '[.regions[] | select(.type == "barrier") | .id] as $b
                 | [.callpath[] | select(.region as $r | $b | index($r)) | .per_thread[].incl_ns] | add / 1000' \
             exitmid.d/profile.json)
awk -v t="$barrier_us" -v p="$profile_us" 'BEGIN { d = t - p; exit !(d < 0.01 * p && -d < 0.01 * p) }' ||
    fail "exit() in a region: the barrier lasts as long in the trace ($barrier_us us) as in the profile ($profile_us us)"
"$REPORT" --check exitmid.d > exitmid.check || { cat exitmid.check; fail "exit() in a region: --check"; }

# Nested teams in OTF2: each of two outer threads forks the same inner region
# 20 times, at the same time as the other. A worker's team was taken as the
# latest fork of the region whose span held its begin: teams of 1 and 3
# threads in every run, on both runtimes (libgomp gives each inner team
# threads of its own). The bridges now name the team instance in each
# thread's Parallel_begin record, and every inner team has its master and
# one worker.
cat > nestteams.c <<'C'
#include <omp.h>
#include <stdio.h>
static long n = 0;
static void inner(void)
{
#pragma omp parallel num_threads(2)
    {
#pragma omp atomic
        n++;
    }
}
int main(void)
{
    omp_set_max_active_levels(2);
#pragma omp parallel num_threads(2)
    for (int r = 0; r < 20; r++)
        inner();
    printf("n=%ld\n", n);
    return 0;
}
C
for rt in gomp omp; do
    flags=; [ $rt = omp ] && flags=--pomp-runtime=omp
    "$POMPCC" $flags -fopenmp -O2 nestteams.c -o nestteams_$rt 2> /dev/null || fail "build nestteams.c ($rt)"
    env -u POMP_OMPT POMP_TRACE=otf2,events POMP_OUTPUT_DIR=nt_$rt ./nestteams_$rt > nt_$rt.out
    assert_eq "$(cat nt_$rt.out)" "n=80" "nested teams ($rt): the program"
    N=nt_$rt/traces.otf2
    sizes=$(otf2-print -G $N | grep '^GROUP .*Type: COMM_GROUP' | grep -o '[0-9]* Members' | sort | uniq -c | awk '{print $1 "x" $2}' | tr '\n' ' ')
    assert_eq "$(otf2-print -G $N | grep '^GROUP .*Type: COMM_GROUP' | grep -vc ' 2 Members')" 0 \
        "nested teams ($rt): every team of 2 threads (teams: $sizes)"
    # each worker's begin names an instance a master's begin named
    assert_eq "$(awk '$3 == "Parallel_begin" { n[$5]++ } END { bad = 0; for (i in n) if (n[i] != 2 || i == 0) bad++; print bad }' nt_$rt/events.log)" 0 \
        "nested teams ($rt): every instance begun by exactly 2 threads"
    enters=$(otf2_nesting $N) || fail "nested teams ($rt): OTF2 nesting: $enters"
done

# A user region (#pragma pomp inst, CTC type userregion) is the user's code in
# OTF2: paradigm USER, as docs/output.md says (it was OPENMP: the writer knew
# only the older type names).
cat > userreg.c <<'C'
#include <stdio.h>
int main(void)
{
    double s = 0;
#pragma pomp inst begin(phase)
#pragma omp parallel for reduction(+ : s)
    for (int i = 0; i < 1000; i++)
        s += i;
#pragma pomp inst end(phase)
    printf("%g\n", s);
    return 0;
}
C
"$POMPCC" -fopenmp -O2 userreg.c -o userreg 2> /dev/null || fail "build userreg.c"
POMP_TRACE=otf2 POMP_OUTPUT_DIR=ur.d ./userreg > /dev/null
assert_contains <(otf2-print -G ur.d/traces.otf2) '^REGION .*"userregion phase @ userreg.c:5".*Role: CODE, Paradigm: USER' \
    "a user region's paradigm is USER"

# A filter that takes out one side of the lock calls (omp_set_lock or
# omp_unset_lock): the OTF2 trace held releases of nothing (order 0), or
# acquisitions never released (two threads holding one lock). Such records
# are left out, and said.
cat > lockfilt.c <<'C'
#include <omp.h>
#include <stdio.h>
static omp_lock_t lk;
static long s = 0;
int main(void)
{
    omp_init_lock(&lk);
#pragma omp parallel num_threads(2)
    for (int i = 0; i < 5; i++) {
        omp_set_lock(&lk);
        s++;
        omp_unset_lock(&lk);
    }
    omp_destroy_lock(&lk);
    printf("%ld\n", s);
    return 0;
}
C
"$POMPCC" -fopenmp -O2 lockfilt.c -o lockfilt 2> /dev/null || fail "build lockfilt.c"
for side in omp_set_lock omp_unset_lock; do
    env -u POMP_OMPT POMP_FILTER_EXCLUDE=type:$side POMP_TRACE=otf2 POMP_OUTPUT_DIR=lf_$side ./lockfilt > lf_$side.out 2> lf_$side.err
    assert_eq "$(cat lf_$side.out)" 10 "lock filter ($side): the program"
    L=lf_$side/traces.otf2
    assert_eq "$(otf2_count $L THREAD_ACQUIRE_LOCK) $(otf2_count $L THREAD_RELEASE_LOCK)" "0 0" \
        "lock filter ($side): no lock record without its other side"
    assert_contains lf_$side.err '^pomp: note: traces.otf2: 10 lock acquisitions or releases left out' \
        "lock filter ($side): said"
done
env -u POMP_OMPT POMP_TRACE=otf2 POMP_OUTPUT_DIR=lf_none ./lockfilt > /dev/null 2> lf_none.err
assert_eq "$(otf2_count lf_none/traces.otf2 THREAD_ACQUIRE_LOCK) $(otf2_count lf_none/traces.otf2 THREAD_RELEASE_LOCK)" "10 10" \
    "lock filter (none): every acquisition and release"
assert_not_contains lf_none.err 'left out' "lock filter (none): nothing said"
# A run that recorded no event (an OpenMP call, no construct): no OTF2 archive,
# said; it had no location, which OTF2's readers refuse (otf2-print: "Find
# location definitions in global definition file"; a probe). The other
# formats are valid and empty.
printf '#include <omp.h>\n#include <stdio.h>\nint main(void)\n{\n    printf("%%d\\n", omp_get_max_threads() > 0);\n    return 0;\n}\n' > noregion.c
"$POMPCC" -fopenmp noregion.c -o noregion 2> /dev/null || fail "build noregion.c"
POMP_TRACE=otf2,chrome,events POMP_OUTPUT_DIR=noregion.d ./noregion > noregion.txt 2> noregion.err
assert_eq "$(cat noregion.txt)" 1 "no construct: the program"
assert_contains noregion.err "no thread recorded an event: no OTF2 archive written" "no construct: no OTF2 archive, said"
[ ! -e noregion.d/traces.otf2 ] || fail "no construct: an OTF2 archive without a location written"
jq -e '.traceEvents | type == "array"' noregion.d/trace.json > /dev/null || fail "no construct: trace.json is valid"
# A lock acquisition whose release was not recorded (here under POMP_Off; in
# the probe's runs lost with a full buffer's events), the lock then taken by
# another thread: the trace had two threads holding it at once. Left out, said.
cat > offlock.c <<'C'
#include <omp.h>
#include <stdio.h>
int main(void)
{
    omp_lock_t lk;
    omp_init_lock(&lk);
    int turn = 0;
#pragma omp parallel num_threads(2)
    {
        if (omp_get_thread_num() == 0) {
            omp_set_lock(&lk);
#pragma pomp inst off
            omp_unset_lock(&lk);
#pragma pomp inst on
            __atomic_store_n(&turn, 1, __ATOMIC_RELEASE);
            while (__atomic_load_n(&turn, __ATOMIC_ACQUIRE) != 2)
                ;
            omp_set_lock(&lk); /* the last acquirer: its first acquisition is still the one left out */
            omp_unset_lock(&lk);
        } else {
            while (!__atomic_load_n(&turn, __ATOMIC_ACQUIRE))
                ;
            omp_set_lock(&lk);
            omp_unset_lock(&lk);
            __atomic_store_n(&turn, 2, __ATOMIC_RELEASE);
        }
    }
    omp_destroy_lock(&lk);
    printf("done\n");
    return 0;
}
C
"$POMPCC" -fopenmp offlock.c -o offlock 2> /dev/null || fail "build offlock.c"
POMP_TRACE=otf2 POMP_OUTPUT_DIR=offlock.d ./offlock > offlock.txt 2> offlock.err
assert_eq "$(cat offlock.txt)" done "unrecorded release: the program"
assert_eq "$(otf2_count offlock.d/traces.otf2 THREAD_ACQUIRE_LOCK) $(otf2_count offlock.d/traces.otf2 THREAD_RELEASE_LOCK)" "2 2" \
    "unrecorded release: the acquisition without one left out, the pairs after it kept"
assert_contains offlock.err "^pomp: note: traces.otf2: 1 lock acquisitions or releases left out: .*a release was not recorded" \
    "unrecorded release: said"

# libpomp's trace flushes under a critical's node (made by its enter event,
# outside its block) are not waits to enter it: one thread, nothing to wait
# for, a 4 KiB buffer flushed hundreds of times. Its critical waits read 53 %
# of the thread's time (the flushes'), 10 times the real wait (a probe).
cat > flushcrit.c <<'C'
#include <omp.h>
#include <stdio.h>
int main(void)
{
    long a = 0, b = 0;
    omp_lock_t lock;
    omp_init_lock(&lock);
#pragma omp parallel num_threads(1)
    {
        for (int i = 0; i < 20000; i++) {
#pragma omp critical(c)
            { a++; }
        }
        for (int i = 0; i < 20000; i++) {
            omp_set_lock(&lock);
            b++;
            omp_unset_lock(&lock);
        }
    }
    printf("a=%ld b=%ld\n", a, b);
    return 0;
}
C
"$POMPCC" -O2 -fopenmp flushcrit.c -o flushcrit 2> /dev/null || fail "flushcrit: build"
POMP_THROTTLE=off POMP_TRACE=events POMP_BUFFER_SIZE=4k POMP_OUTPUT_DIR=flushcrit.d ./flushcrit > flushcrit.out 2> /dev/null
assert_eq "$(cat flushcrit.out)" "a=20000 b=20000" "flushcrit: the program"
flush_ms=$(jq '([.regions[] | select(.type == "pomp" and .name == "flush") | .id]) as $f
               | ([.regions[] | select(.type == "critical") | .id]) as $c
               | ([.callpath[] | select(.region as $r | $c | index($r)) | .id]) as $cn
               | [.callpath[] | select((.region as $r | $f | index($r)) and (.parent as $p | $cn | index($p)))
                  | .per_thread[].incl_ns] | add // 0 | . / 1e6' flushcrit.d/profile.json)
crit_ms=$("$REPORT" --json flushcrit.d | jq '[.waits.rows[].ns.critical] | add / 1e6')
# (no flush under the critical's node: nothing to tell apart in this run)
awk -v f="$flush_ms" -v c="$crit_ms" 'BEGIN { exit !(f == 0 || c < f / 2) }' ||
    fail "flushcrit: critical waits $crit_ms ms against $flush_ms ms of flushes under the critical (the flushes read as waits)"
# the report's call paths carry each thread's entry as the profile has it (the
# flushes' time was added to the critical's entries as "pomp_flush_ns")
assert_eq "$("$REPORT" --json flushcrit.d | jq -c '[.callpath[].per_thread[]] | map(keys) | add | unique')" \
    "$(jq -c '[.callpath[].per_thread[]] | map(keys) | add | unique' flushcrit.d/profile.json)" \
    "flushcrit: --json's per-thread entries are the profile's"

# POMP_LOOP=IterEvent: each iteration event is a begin of the loop's body,
# as with IterBeginEnd and Chunks; the loop is entered once, as the profile's
# visits say (the trace showed it run 6 times, nested in itself; a probe)
printf '#include <stdio.h>\nint main(void)\n{\n    long s = 0;\n#pragma omp parallel for num_threads(1) reduction(+ : s)\n    for (int i = 0; i < 5; i++)\n        s += i;\n    printf("s=%%ld\\n", s);\n    return 0;\n}\n' > iters.c
"$POMPCC" --pomp-iterations -fopenmp iters.c -o iters 2> /dev/null || fail "iters: build"
POMP_LOOP=IterEvent POMP_TRACE=otf2,chrome POMP_OUTPUT_DIR=iters.d ./iters > iters.out 2> /dev/null
assert_eq "$(cat iters.out)" "s=10" "IterEvent: the program"
assert_eq "$(otf2-print iters.d/traces.otf2 | grep -c '^ENTER .*"for @ iters.c:5"')" 1 "IterEvent, OTF2: the loop entered once"
assert_eq "$(otf2-print iters.d/traces.otf2 | grep -c '^ENTER .*"for body @ iters.c:5"')" 5 "IterEvent, OTF2: five iterations in its body"
assert_eq "$(jq '[.traceEvents[] | select(.ph == "i" and .name == "for body @ iters.c:5")] | length' iters.d/trace.json)" 5 \
    "IterEvent, Chrome: five iterations in its body"
