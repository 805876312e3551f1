#!/usr/bin/env bash
# pomp-report --check: passes on a real run's profile, and fails, naming the
# invariant, on copies of it broken by hand, one invariant each.
source "$(dirname "$0")/lib.sh"

cat > work.c <<'C'
#include <stdio.h>
int main(void)
{
    double sum = 0;
#pragma omp parallel num_threads(2) reduction(+:sum)
    {
#pragma omp for schedule(dynamic, 1)
        for (int i = 0; i < 2000; i++)
            for (int k = 0; k < 2000; k++)
                sum += (double)(i % 7) * 0.5 + k * 1e-9;
#pragma omp master
        sum += 1;
    }
    printf("%.3f\n", sum);
    return 0;
}
C
"$POMPCC" -O1 -fopenmp work.c -o work 2>build.err || { cat build.err; fail "build"; }
POMP_OUTPUT_DIR=good ./work > out.txt
"$REPORT" --check good > check.txt || fail "a real run's profile fails --check"
assert_contains check.txt "every invariant holds" "the real profile passes"

# break BROKEN-NAME JQ-FILTER INVARIANT: the check must fail with INVARIANT
break_with() {
    mkdir -p "$1" && touch "$1/.broken-on-purpose"
    jq "$2" good/profile.json > "$1/profile.json"
    if "$REPORT" --check "$1" > "$1.out" 2> "$1.err"; then
        cat "$1.out" >&2
        fail "$1: --check passed on a profile with a broken '$3'"
    fi
    assert_contains "$1.err" "check: $1/profile.json: $3: " "$1 names the invariant"
}
# the node of the for loop and its parent (the parallel region), thread 0's entries
FOR='(.regions[] | select(.type == "for") | .id) as $f | .callpath |= map(if .region == $f'
# A profile pomp-report refuses to read, said with the place (a probe's
# damaged files crashed it: a thread five times in one node's per_thread
# overran the POP arrays; a sampled path 20,000 frames deep the flame tree's
# stack)
refused_with() { # NAME JQ-FILTER MESSAGE
    mkdir -p "$1" && touch "$1/.broken-on-purpose"
    jq "$2" good/profile.json > "$1/profile.json"
    for mode in "" --json --check; do
        rc=0
        "$REPORT" $mode "$1" > "$1.out" 2> "$1.err" || rc=$?
        assert_eq "$rc" 1 "$1 ${mode:-text}: refused (no crash)"
        assert_contains "$1.err" "$3" "$1 ${mode:-text}: said"
    done
}
refused_with dupthread "$FOR then .per_thread += [.per_thread[0], .per_thread[0], .per_thread[0], .per_thread[0]] else . end)" \
    "byte offset [0-9]+: call-path node [0-9]+, per_thread\\[[0-9]+\\]: thread 0 appears twice"
refused_with deepsample '.sampling = {"period_ns": 1000000, "frames": [{"name": "f"}], "paths": [{"frames": [range(20000) | 0], "work": 1, "wait": 0}]}' \
    "sampling.paths\\[0\\] has 20000 frames, more than a report takes"
# at_offset FILE ERR TEXT: the byte offset ERR names in FILE is where TEXT starts
at_offset() {
    local off
    off=$(grep -oE "byte offset [0-9]+" "$2" | head -1 | grep -oE "[0-9]+$") || fail "$2: no byte offset"
    python3 -c 'import sys; t = open(sys.argv[1], "rb").read(); o = int(sys.argv[2]); sys.exit(0 if t[o:o + len(sys.argv[3])] == sys.argv[3].encode() else 1)' \
        "$1" "$off" "$3" || { cat "$2" >&2; fail "$2: byte offset $off of $1 does not hold '$3'"; }
}
# figures outside the call paths, refused where they stand (a probe: paused
# -5 times read as 18446744073709551611; a duration past 2^53, which no double
# holds; sampled counts of -100 and a state "bogus" printed as -89 samples and
# a column; a device's negative time)
refused_at() { # NAME JQ-FILTER MESSAGE TEXT-AT-THE-OFFSET
    refused_with "$1" "$2" "$1/profile.json: byte offset [0-9]+: $3"
    at_offset "$1/profile.json" "$1.err" "$4"
}
refused_at pausedneg  '.paused = {"times": -5, "ns": 100}' "paused.times is -5, not a whole number from 0 to 2\\^53" "-5"
refused_at duration53 '.duration_ns = 9007199254740994' "duration_ns is 9007199254740994, not a whole number" "9007199254740994"
refused_at osthreads  '.threads[1].os_threads = -2' "threads\\[1\\].os_threads is -2" "-2"
# true, false and null are one node each in jansson's tree: a field's true was
# placed at the file's first true; and of a key given twice jansson keeps the
# last value, whose place is named (a review: offsets 108 and 176 for 187 and
# 194)
for how in singleton twice; do
    mkdir -p $how && touch $how/.broken-on-purpose
    python3 - good/profile.json $how/profile.json $how <<'PY'
import re, sys
t = open(sys.argv[1]).read()
bad = "true" if sys.argv[3] == "singleton" else "-1"
t = re.sub(r'"duration_ns": *[0-9]+', '"x_first": true, "duration_ns": 5, "duration_ns": ' + bad, t, count=1)
open(sys.argv[2], "w").write(t)
PY
    "$REPORT" $how > /dev/null 2> $how.err && fail "$how: refused"
    want=$(python3 -c 'import sys; t = open(sys.argv[1]).read(); print(t.rindex(sys.argv[2]))' $how/profile.json \
        "$([ $how = singleton ] && echo '"duration_ns": true' || echo '"duration_ns": -1')")
    want=$((want + 15))
    assert_contains $how.err "byte offset $want: duration_ns is" "$how: the offset of the value jansson kept"
done
SAMPLING='.sampling = {"period_ns": 1000000, "timer": "wall", "samples": 3, "lost": 0, "truncated": 0,
                       "frames": [{"function": "main", "file": "work.c", "line": 3}],
                       "paths": [{"frames": [0], "work": 2, "wait": 1, "states": {"work": 2, "lock": 1}}]}'
refused_at samplelost   "$SAMPLING | .sampling.lost = -4" "sampling.lost is -4" "-4"
refused_at samplework   "$SAMPLING | .sampling.paths[0].work = -100" "sampling.paths\\[0\\].work is -100" "-100"
refused_at samplehuge   "$SAMPLING | .sampling.samples = 1e300" "sampling.samples is 1e\\+300" "1e+300"
refused_at samplestate  "$SAMPLING | .sampling.paths[0].states.bogus = 5" "sampling.paths\\[0\\].states has a state \"bogus\"" "5"
refused_at sampleframe  "$SAMPLING | .sampling.paths[0].frames = [0, 7]" "sampling.paths\\[0\\].frames\\[1\\] is not an index" "7"
DEVICES='.devices = [{"device": 0, "type": "host", "timing": "host", "note": "", "modules": 1, "streams": [],
                      "total": {"kernels": {"count": 2, "ns": 5000, "teams_max": 4},
                                "to_device": {"count": 2, "ns": 30, "bytes": 16}},
                      "regions": [{"region": 1, "kernels": {"count": 2, "ns": 5000, "teams_max": 4},
                                   "to_device": {"count": 1, "ns": 10, "bytes": 8}}],
                      "outside_targets": {"to_device": {"count": 1, "ns": 20, "bytes": 8}}}]'
refused_at devicens     "$DEVICES | .devices[0].total.kernels.ns = -5" "devices\\[0\\].total.kernels.ns is -5" "-5"
refused_at devicebytes  "$DEVICES | .devices[0].regions[0].to_device.bytes = 1e19" "devices\\[0\\].regions\\[0\\].to_device.bytes is 1e\\+19" "1e+19"
refused_at devicecount  "$DEVICES | del(.devices[0].regions[0].to_device.count)" "devices\\[0\\].regions\\[0\\].to_device has no \"count\"" "{"
refused_at deviceregion "$DEVICES | del(.devices[0].regions[0].region)" "devices\\[0\\].regions\\[0\\] has no \"region\"" "{"
refused_at devicenum    "$DEVICES | .devices[0].device = -1" "devices\\[0\\].device is -1" "-1"
refused_at deviceout    "$DEVICES | .devices[0].outside_targets.to_device.ns = -1" "devices\\[0\\].outside_targets.to_device.ns is -1" "-1"
refused_at devicerows   "$DEVICES | del(.devices[0].outside_targets)" "devices\\[0\\]: 2 to_device operations in total, 1 in the rows per target construct and outside them" "{"
# a whole figure section (the profile's own devices, with the sampling): read
mkdir -p figures && touch figures/.broken-on-purpose && jq "$SAMPLING | $DEVICES" good/profile.json > figures/profile.json
"$REPORT" figures > figures.txt 2> figures.err || { cat figures.err >&2; fail "good sampling and devices sections refused"; }
assert_contains figures.txt "^Devices" "the devices section read"
# the runtime's waits of a thread (per_thread[].waits): each within the run
# (9e18 ns read as a wait share of 7,460,306,877,734 %)
break_with waitshuge     "$FOR then .per_thread[0].waits = {\"barrier\": 1234567890123456} else . end)" "no impossible figure"
assert_contains waitshuge.err "byte offset [0-9]+: node [0-9]+ thread 0: waits.barrier is 1234567890123456 ns, more than the run's" "the wait said"
at_offset waitshuge/profile.json waitshuge.err 1234567890123456
break_with waitsneg      "$FOR then .per_thread[0].waits = {\"lock\": -3} else . end)" "no negative figure"
at_offset waitsneg/profile.json waitsneg.err "-3"
break_with negative      "$FOR then .per_thread[0].visits = -1 else . end)" "no negative figure"
# the figure's place in the file (the check named the node and field alone)
assert_contains negative.err "no negative figure: byte offset [0-9]+: node [0-9]+ thread 0: visits is -1" "the offset said"
at_offset negative/profile.json negative.err "-1"
break_with self          "$FOR then .per_thread[0].excl_ns = .per_thread[0].incl_ns + 1e6 else . end)" \
                         "own time within inclusive time"
# own time is what its children did not take: less of it is time lost (a
# region paused by POMP_Off held its inner regions' time twice, its own
# unchanged, and --check passed)
break_with ownless       "$FOR then .per_thread[0].excl_ns = .per_thread[0].excl_ns / 2 - 1e6 else . end)" \
                         "own time is inclusive less children"
break_with cpuwait       '.threads[1].cpu_wait_ns = .duration_ns * 2' "no impossible figure"
# the lives of the OS threads a record stood for: in time order, one per OS thread
LIVES='.threads[1].os_threads = 2 | .threads[1].start_ns as $s | .threads[1].os_thread_lives'
break_with livesorder   "$LIVES = [[\$s + 10, \$s + 20], [\$s + 5, \$s + 6]]" "no impossible figure"
break_with livesback    "$LIVES = [[\$s + 10, \$s + 5], [\$s + 20, \$s + 30]]" "no impossible figure"
break_with livescount   "$LIVES = [[\$s + 10, \$s + 20]]" "structure"
break_with livesshape   "$LIVES = [[\$s + 10, \$s + 20], 7]" "structure"
# a record of OS threads one after another: its waits within the lives read
break_with cpuwaitlife   '.threads[1].cpu_wait_life_ns = 0 | .threads[1].cpu_wait_ns = 5e6' \
                         "no impossible figure"
break_with minmax        "$FOR then .per_thread[0].min_ns = .per_thread[0].max_ns + 1e6 else . end)" "min within max"
break_with onevisit      "$FOR then .per_thread[0].max_ns = .per_thread[0].incl_ns + 1e6 else . end)" \
                         "one visit within all"
break_with body          "$FOR then .per_thread[0].body_ns = .per_thread[0].incl_ns + 1e6 else . end)" \
                         "body within inclusive time"
break_with children      "$FOR then .per_thread |= map(.incl_ns = 1e12 | .max_ns = 1e12 | .excl_ns = 0) else . end)" \
                         "children within their parent"
break_with overlap       "$FOR then .per_thread[0].overlap_ns = .per_thread[0].incl_ns + 1e6 else . end)" \
                         "overlap within inclusive time"
break_with share         "$FOR then .per_thread[0].share_ns = .per_thread[0].incl_ns + 1e6 else . end)" \
                         "shares within inclusive time"
# share_ns leaves out only the time of grafted team shares, not more
break_with shared        "$FOR then .per_thread |= map(.incl_ns = 1e12 | .max_ns = 1e12 | .excl_ns = 0
                                                       | .share_ns = 1e6) else . end)" \
                         "children within their parent"
break_with run           '.duration_ns = 1000' "within the run"
# ... whose efficiency factors then read above 100 % (fork/join of 451 % passed)
break_with popfactor     '.duration_ns = 1000' "efficiency factors within 0..100 %"
# values of the wrong type read as 0 and passed every other check
break_with strvisits     "$FOR then .per_thread[0].visits = \"x\" else . end)" "whole numbers"
break_with fraction      "$FOR then .per_thread[0].visits = 1.7 else . end)" "whole numbers"
# a figure no run can hold is named in a few digits (it was printed as a 301-digit integer)
break_with huge          "$FOR then .per_thread[0].body_ns = 1e300 else . end)" "no impossible figure"
grep -q "body_ns is 1e+300 (above 2^53" huge.err || { cat huge.err >&2; fail "the 1e300 figure is said as 1e+300"; }
! grep -Eq "[0-9]{20}" huge.err || { cat huge.err >&2; fail "no figure of 20 digits and more"; }
break_with strtime       "$FOR then .per_thread[0].excl_ns = \"9\" else . end)" "whole numbers"
break_with noduration    'del(.duration_ns)' "whole numbers"
break_with zeroduration  '.duration_ns = 0' "whole numbers"
# two top-level paths of the for loop, each within a run of 1 s, together past it
TWICE='{"thread": 0, "visits": 1, "begins": 1, "incl_ns": 6e8, "excl_ns": 6e8, "min_ns": 6e8, "max_ns": 6e8, "body_ns": 0}'
break_with flat          "(.regions[] | select(.type == \"for\") | .id) as \$f | .duration_ns = 1e9
                          | .callpath += [{\"id\": 99995, \"parent\": 0, \"region\": \$f, \"per_thread\": [$TWICE]},
                                          {\"id\": 99996, \"parent\": 0, \"region\": \$f, \"per_thread\": [$TWICE]}]" \
                         "a region's time within the run"
break_with parent        '.callpath[0].parent = 99999' "structure"
break_with region        '.callpath[0].region = 99999' "structure"
break_with thread        '.callpath[0].per_thread[0].thread = 77' "structure"
# a task root's team (binding): a node that is not in the file, and the for loop's node
break_with binding       '.callpath[0].binding = 99999' "structure"
break_with bindfor       "(.regions[] | select(.type == \"for\") | .id) as \$f
                          | ([.callpath[] | select(.region == \$f) | .id][0]) as \$fn
                          | .callpath[0].binding = \$fn" "structure"
# waits: the barrier of the for loop's end, made longer than the parallel region itself
break_with waits         '(.regions[] | select(.type == "parallel") | .id) as $p
                          | ([.callpath[] | select(.region == $p) | .id][0]) as $pn
                          | .regions += [{"id": 99998, "type": "barrier", "name": "", "file": "work.c",
                                          "first_line": 9, "last_line": 9, "init": "handle", "ctc": ""}]
                          | .callpath += [{"id": 99997, "parent": $pn, "region": 99998,
                              "per_thread": [{"thread": 0, "visits": 1, "begins": 0, "incl_ns": 1,
                                 "excl_ns": 1e13, "min_ns": 1, "max_ns": 1, "body_ns": 0}]}]' \
                         "waits within region time"
# one place, two runtime regions: the loop's barrier given a place, and a copy of it
break_with place         '.regions |= map(if .init == "ompt" and .name == "implementation"
                                          then .file = "work.c" | .first_line = 13 | .last_line = 13 else . end)
                          | .regions += [.regions[] | select(.init == "ompt" and .name == "implementation")
                                         | .id = 99990]' \
                         "one region per place"
# ids and counters that pomp-report would read as 0 or take twice
break_with noregion      'del(.callpath[1].region)' "structure"
break_with sameid        '.callpath[1].id = .callpath[2].id' "structure"
# two regions of one id: the paths of one were shown as the other's (a probe),
# said at the second one's byte offset
break_with sameregion    '.regions += [.regions[0] | .type = "single" | .file = "other.c"]' "structure"
assert_contains sameregion.err "structure: byte offset [0-9]+: id [0-9]+ names more than one region" \
    "sameregion: the repeated id named, at its place"
break_with lostcounter   '.threads[0].dropped_events = -3' "no silent loss"
break_with nocounter     'del(.threads[0].dropped_paths)' "no silent loss"
break_with samethread    '.threads += [.threads[0]]' "structure"
# a thread's index is its place (an index 7 for 1 passed), and a whole number
# (a string was read as 0: "index 0 names more than one thread"; probes)
break_with indexgap      '.threads[1].index = 7' "structure"
assert_contains indexgap.err "threads\[1\].index is 7, not its place in threads \(1\)" "indexgap: said"
break_with indexstr      '.threads[1].index = "1"' "structure"
assert_contains indexstr.err "byte offset [0-9]+: thread\[1\].index is not a whole number" "indexstr: said at its place"
# a per_thread entry without its thread beside one of thread 0: said so (it
# was read as thread 0, "thread 0 appears twice", of a file without it; a probe)
break_with nothread      "$FOR then .per_thread[1] |= del(.thread) else . end)" "structure"
assert_contains nothread.err "per_thread entry has no \"thread\"" "nothread: said"
break_with clock         '.clock.ticks_per_ns = 0' "no negative figure"
break_with regiontype    '.regions[0].type = 5' "structure"
break_with regionname    '.regions[0].name = null' "structure"   # (passed; a probe)
break_with regionfile    '.regions[0].file = 7' "structure"
# a region's lines: the last before the first, a negative one, one not a number
break_with linesorder    '(.regions | map(.first_line > 0) | index(true)) as $k
                          | .regions[$k].last_line = .regions[$k].first_line - 1' "no impossible figure"
break_with lineneg       '.regions[0].first_line = -2' "no negative figure"
break_with linetext      '.regions[0].last_line = "9"' "whole numbers"
# keys pomp always writes, whose absence read as 0 or as the top (a probe:
# visits 2 for 3, a node's figures dropped, a region moved to the top level),
# and counts no run reaches (2^63 - 1: its sum printed past INT64_MAX; 10^18 here)
break_with novisits      "$FOR then .per_thread[0] |= del(.visits) else . end)" "whole numbers"
break_with noincl        "$FOR then .per_thread[0] |= del(.incl_ns) else . end)" "whole numbers"
break_with nothreadkey   "$FOR then .per_thread[0] |= del(.thread) else . end)" "structure"
break_with entrystring   "$FOR then .per_thread[0] = \"x\" else . end)" "structure"
break_with noperthread   "$FOR then del(.per_thread) else . end)" "structure"
break_with noparent      'del(.callpath[1].parent)' "structure"
break_with noid          'del(.callpath[1].id)' "structure"
break_with hugecount     "$FOR then .per_thread[0].visits = 1000000000000000000 else . end)" "no impossible figure"
# A thread that ran tasks: each task's time is out of the own time of the frame
# it ran in (a task root of its own), so there a node's own time is at most its
# inclusive less its children, and the thread's regions leave out, all
# together, its task roots' inclusive time (before, such threads' own times
# went unchecked: any figure passed)
cat > tasks.c <<'C'
#include <stdio.h>
static double spin(long n)
{
    double s = 0;
    for (long i = 0; i < n; i++)
        s += i * 1e-9;
    return s;
}
static long fib(int n)
{
    long a, b;
    if (n < 15)
        return n < 2 ? n : fib(n - 1) + fib(n - 2);
#pragma omp task shared(a)
    a = fib(n - 1);
#pragma omp task shared(b)
    b = fib(n - 2);
#pragma omp taskwait
    return a + b;
}
int main(void)
{
    long r = 0;
    double s = 0;
#pragma omp parallel num_threads(2) reduction(+ : s)
    {
        s += spin(20000000);
#pragma omp single
        r = fib(30);
    }
    printf("%ld %.3f\n", r, s);
    return 0;
}
C
"$POMPCC" -O1 -fopenmp tasks.c -o tasks 2>build.err || { cat build.err; fail "build tasks.c"; }
POMP_OUTPUT_DIR=good_tasks ./tasks > tasks.txt
assert_contains tasks.txt "^832040 " "tasks: the program's result"
"$REPORT" --check good_tasks > /dev/null || fail "a task program's profile fails --check"
# (the threads that ran tasks, and the parallel region's node)
ran_tasks=$(jq '[.callpath[] | select(.task_root) | .per_thread[].thread] | unique | length' good_tasks/profile.json)
[ "$ran_tasks" -ge 1 ] || fail "tasks: no thread ran a task"
PAR='(.regions[] | select(.type == "parallel") | .id) as $p | .callpath |= map(if .region == $p'
break_task() { # NAME JQ-FILTER MESSAGE: as break_with, on the task program's profile
    mkdir -p "$1" && touch "$1/.broken-on-purpose"
    jq "$2" good_tasks/profile.json > "$1/profile.json"
    if "$REPORT" --check "$1" > "$1.out" 2> "$1.err"; then
        fail "$1: --check passed on a task program's profile with a broken own time"
    fi
    assert_contains "$1.err" "check: $1/profile.json: own time is inclusive less children: $3" "$1 names the invariant"
}
break_task taskown "$PAR then .per_thread |= map(.excl_ns += 1e6) else . end)" "node [0-9]+ thread [0-9]+ \\(which ran tasks\\)"
break_task taskgap "$PAR then .per_thread |= map(.excl_ns -= 1e6) else . end)" "thread [0-9]+: the time its regions' own times leave out"

# without --check, the tables of a broken profile say so (they printed its
# figures, exit 0, without a word)
"$REPORT" novisits > novisits.txt 2> novisits.tables.err
assert_contains novisits.tables.err "warning: novisits/profile.json breaks 1 invariant of a profile \\(the first: whole numbers: .*no visits" \
                "a broken profile: said by the tables"
"$REPORT" --json noparent > /dev/null 2> noparent.json.err
assert_contains noparent.json.err "warning: noparent/profile.json breaks" "a broken profile: said by --json"
# without --check, the tables of a profile whose nodes hang from nothing say so
# (the subtree vanished from every table, exit 0, no word)
"$REPORT" parent > parent.txt 2> parent.tables.err
assert_contains parent.tables.err "warning: parent/profile.json: [0-9]+ of [0-9]+ call-path nodes hang from no node of the profile" \
                "a node whose parent is missing: said by the tables too"
# a run that recorded no event (a trace asked for) is not rated (it read parallel 0 %, load balance 100 %)
cat > noevent.c <<'C'
#include <stdio.h>
int main(void) { puts("done"); return 0; }
C
"$POMPCC" -fopenmp noevent.c -o noevent
POMP_TRACE=events POMP_OUTPUT_DIR=noevent.d ./noevent > /dev/null 2>&1
"$REPORT" noevent.d > noevent.txt
assert_contains noevent.txt "not rated: no thread recorded an event" "a run of no thread: not rated"
# The raw trace (trace-raw/): damaged files refused or said, with the file
# and byte offset (a probe: an all-zero thread file read as events of no
# region, swapped records and a file defs.json does not name taken without a
# word, a clock of 1e-300 ticks a ns put the run 10^300 years long)
POMP_TRACE=otf2 POMP_OUTPUT_DIR=traced ./work > /dev/null
trace_damaged() { # NAME PYTHON (on t, the bytes of thread-1.bin; d, defs.json)
    rm -rf "$1" && cp -r traced "$1" && touch "$1/.broken-on-purpose"
    python3 - "$1/trace-raw" "$2" <<'PY'
import json, sys
raw, code = sys.argv[1], sys.argv[2]
t = bytearray(open(raw + "/thread-1.bin", "rb").read())
d = json.load(open(raw + "/defs.json"))
exec(code)
open(raw + "/thread-1.bin", "wb").write(t)
json.dump(d, open(raw + "/defs.json", "w"), indent=1)
PY
    rc=0
    "$REPORT" --chrome "$1.json" "$1" > "$1.out" 2> "$1.err" || rc=$?
}
trace_damaged zeroed 't[64:] = bytes(len(t) - 64)'
assert_eq "$rc" 1 "an all-zero thread file: refused"
assert_contains zeroed.err "zeroed/trace-raw/thread-1.bin: byte offset 80: region id 0 in an event" "region 0 said with its offset"
trace_damaged swapped 't[64 + 3 * 24:64 + 3 * 24 + 8], t[64 + 4 * 24:64 + 4 * 24 + 8] = t[64 + 4 * 24:64 + 4 * 24 + 8], t[64 + 3 * 24:64 + 3 * 24 + 8]'
assert_eq "$rc" 0 "records out of time order: drawn"
assert_contains swapped.err "warning: swapped/trace-raw/thread-1.bin: byte offset 160: 1 record earlier than a record before it \\(out of time order" "records out of order said"
trace_damaged extra 'open(raw + "/thread-7.bin", "wb").write(t)'
assert_eq "$rc" 0 "an extra thread file: the others drawn"
assert_contains extra.err "warning: extra/trace-raw/thread-7.bin is not in defs.json, which names [0-9]+ threads?: skipped" "an extra thread file said"
for rate in 1e-300 0 -2; do
    trace_damaged "clock$rate" "d['clock']['ticks_per_ns'] = $rate"
    assert_eq "$rc" 1 "ticks_per_ns $rate: refused"
    assert_contains "clock$rate.err" "clock$rate/trace-raw/defs.json: byte offset [0-9]+: clock.ticks_per_ns is $rate, not a clock's rate" "ticks_per_ns $rate said"
    at_offset "clock$rate/trace-raw/defs.json" "clock$rate.err" "$rate"
done
trace_damaged ticksneg "d['clock']['start_ticks'] = -7"
assert_eq "$rc" 1 "negative start_ticks: refused"
assert_contains ticksneg.err "ticksneg/trace-raw/defs.json: byte offset [0-9]+: clock.start_ticks is not a whole number of 0 or more" "negative ticks said"
at_offset ticksneg/trace-raw/defs.json ticksneg.err "-7"
echo "report --check: 35 broken profiles caught, 15 damaged figures refused with their byte offsets; damaged raw traces refused or said, the tables say so; orphan nodes said by the tables; a run of no thread not rated"
