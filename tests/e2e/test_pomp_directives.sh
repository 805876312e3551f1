# POMP directives (seed 002 §3.6-3.9): user regions with begin/end/altend, user
# regions and events with values, _Pragma, init/finalize/on/off, _POMP, the
# compile-time levels of §3.8 (compared with the same levels chosen at run
# time), and errors with file:line:col that leave the build uninstrumented.
SRC="$(cd "$(dirname "$0")/programs" && pwd)"
source "$(dirname "$0")/lib.sh"
# The instrumenter's own events, in order: the OMPT bridge's (implicit barriers,
# waits) are tested in test_ompt_*.sh.
export POMP_OMPT=off
cp "$SRC"/user_regions.c "$SRC"/levels.c .

"$POMPCC" -fopenmp -Wall user_regions.c -o ur 2> ur.err || { cat ur.err; fail "pompcc user_regions.c"; }
assert_not_contains ur.err 'warning|error' "no warning for the POMP directives pomp handles"
plain_cc -Wno-unknown-pragmas user_regions.c -o ur_plain
for n in 1 4; do
    OMP_NUM_THREADS=$n ./ur_plain > plain$n.txt 2> plain$n.err
    OMP_NUM_THREADS=$n POMP_TRACE=events POMP_OUTPUT_DIR=ur$n ./ur > inst$n.txt 2> inst$n.err
    diff -u plain$n.txt inst$n.txt || fail "output with $n threads differs from the plain build"
done
assert_eq "$(cat inst4.err)" "_POMP=202611" "_POMP is YYYYMM under pompcc"
[ ! -s plain4.err ] || fail "_POMP is not defined in the plain build"

L_work=$(line_of user_regions.c "inst begin(work)")
L_phase=$(line_of user_regions.c "userregion start(phase")
L_tick=$(line_of user_regions.c "event(tick")
L_done=$(line_of user_regions.c "event(done)")
d=ur4
# work(): 4 calls in the region, 1 in main (altend path); the call after
# "inst off" is not recorded. Regions close on every path: no nesting errors.
assert_eq "$(region_sum $d userregion $L_work begins)" 5 "user region begins (4 + the altend path)"
assert_eq "$(jq '[.threads[].nesting_errors] | add' $d/profile.json)" 0 "altend closes the region"
assert_eq "$(region_sum $d userregion $L_phase begins)" 4 "userregion start/stop, once per thread"
assert_eq "$(region_sum $d userevent $L_tick visits)" 4 "userregion event, once per thread"
assert_eq "$(region_sum $d userevent $L_done visits)" 1 "_Pragma(\"pomp userregion event(done)\")"
assert_eq "$(jq -r '.regions[] | select(.name == "work") | "\(.first_line)-\(.last_line)"' $d/profile.json)" \
    "$L_work-$(line_of user_regions.c "inst end(work)")" "lines of the user region: begin to end"
# values: per position over the 4 threads (me = 0..3)
vals() { # KIND POS FIELD REGION-NAME: summed over the threads
    jq --arg k "$1" --argjson p "$2" --arg f "$3" --arg n "$4" '
      ([.regions[] | select(.name == $n) | .id]) as $ids
      | [.callpath[] | select(.region as $r | $ids | index($r)) | .per_thread[] | .values[$k][$p][$f]] | add' $d/profile.json
}
vmin() { jq --arg k "$1" --argjson p "$2" --arg n "$3" '
      ([.regions[] | select(.name == $n) | .id]) as $ids
      | [.callpath[] | select(.region as $r | $ids | index($r)) | .per_thread[] | .values[$k][$p].min] | min' $d/profile.json; }
vmax() { jq --arg k "$1" --argjson p "$2" --arg n "$3" '
      ([.regions[] | select(.name == $n) | .id]) as $ids
      | [.callpath[] | select(.region as $r | $ids | index($r)) | .per_thread[] | .values[$k][$p].max] | max' $d/profile.json; }
assert_eq "$(vals begin 0 count phase) $(vals begin 0 sum phase)" "4 6" "start value me: count, sum"
assert_eq "$(vals begin 1 sum phase) $(vmin begin 1 phase) $(vmax begin 1 phase)" "60 0 30" "start value me * 10"
assert_eq "$(vals end 0 sum phase) $(vmin end 0 phase) $(vmax end 0 phase)" "46 10 13" "stop value 10 + me"
assert_eq "$(vals event 0 count tick) $(vals event 0 sum tick)" "4 6" "event value"
assert_eq "$(jq -c '.regions[] | select(.name == "phase") | .values' $d/profile.json)" \
    '{"begin":["me","me * 10"],"end":["10 + me"]}' "value names from the CTC string"
assert_eq "$(jq .minor_version $d/profile.json)" 5 "profile minor version"
"$REPORT" $d > report.txt
assert_contains report.txt '^ +begin me \* 10 +count 4 +mean 15 +min 0 +max 30$' "pomp-report shows the values"
# A mean in plain digits, as min and max: large values read "mean 1.23457e+06"
# beside "min 1234567" (6 significant digits and an exponent) before 2026-12-02.
cat > bigvals.c <<'C'
#include <omp.h>
#include <stdio.h>
int main(void)
{
    long n = 1234567;
    #pragma omp parallel num_threads(2)
    {
        long big = n + omp_get_thread_num();
        #pragma pomp userregion start(big : big, 3000000000L, big % 2)
        big++;
        #pragma pomp userregion stop(big)
    }
    printf("%ld\n", n);
    return 0;
}
C
"$POMPCC" -fopenmp bigvals.c -o bigvals 2> bigvals.err || { cat bigvals.err; fail "pompcc bigvals.c"; }
POMP_OUTPUT_DIR=bv ./bigvals > /dev/null
"$REPORT" bv > bigvals.txt
assert_contains bigvals.txt '^ +begin big +count 2 +mean 1234567\.5 +min 1234567 +max 1234568$' "a large values' mean in plain digits"
assert_contains bigvals.txt '^ +begin 3000000000L +count 2 +mean 3000000000 +min 3000000000 +max 3000000000$' "a mean of 3e9 in plain digits"
assert_contains bigvals.txt '^ +begin big % 2 +count 2 +mean 0\.5 +min 0 +max 1$' "a mean below 1"
# Event order of the master thread: the region inside work(), and init/finalize
# did not disturb anything.
awk '$1 == 0 { printf "%s ", $3 }' $d/events.log > seq0.txt
grep -qE '^Parallel_enter Parallel_begin User_region_begin User_region_begin User_region_end User_region_end User_event Parallel_end Parallel_exit User_region_begin User_region_end User_event $' seq0.txt \
    || fail "master's event order: $(cat seq0.txt)"

# Without OpenMP: user regions and events work the same (thread id 0).
cat > serial.c <<'C'
#include <stdio.h>
int main(void)
{
    int s = 0;
    #pragma pomp inst begin(main_loop)
    for (int i = 0; i < 4; i++) {
        #pragma pomp userregion event(step : i)
        s += i;
    }
    #pragma pomp inst end(main_loop)
    printf("s = %d\n", s);
    return 0;
}
C
"$POMPCC" -Wall -Wno-unknown-pragmas serial.c -o serial 2> serial.err || { cat serial.err; fail "pompcc without OpenMP"; }
assert_eq "$(POMP_OUTPUT_DIR=se ./serial)" "s = 6" "serial program output"
assert_eq "$(region_sum se userregion $(line_of serial.c 'begin(main_loop)') begins) $(region_sum se userevent $(line_of serial.c 'event(step') visits)" \
    "1 4" "user region and events without OpenMP"
assert_eq "$(jq '[.callpath[].per_thread[].values.event // empty | .[0].sum] | add' se/profile.json)" 6 "event values without OpenMP"

# Compile-time levels: a build limited by directives records what a normal
# build records when the same levels are chosen at run time.
cp "$EXAMPLES"/workshare/*.[ch] .
{ echo '#pragma pomp inst parallel enterexit file'; echo '#pragma pomp inst sync none file'; cat main.c; } > main_lv.c
{ echo '#pragma pomp inst sync none file'; cat work.c; } > work_lv.c
"$POMPCC" -fopenmp main_lv.c work_lv.c -o app_lv
"$POMPCC" -fopenmp main.c work.c -o app
summary() { # DIR [LINES-ADDED-PER-FILE]: "type file line visits begins" per region
    jq -r --argjson add "${2:-{\}}" '(.regions | map({(.id|tostring): .}) | add) as $r
      | [.callpath[] | $r[.region|tostring] as $g
         | {k: "\($g.type) \($g.file | sub("_lv"; "")) \($g.first_line - ($add[$g.file] // 0))",
            v: ([.per_thread[].visits] | add), b: ([.per_thread[].begins] | add)}]
      | group_by(.k)[] | "\(.[0].k) \(map(.v) | add) \(map(.b) | add)"' "$1/profile.json" | sort
}
OMP_NUM_THREADS=3 POMP_OUTPUT_DIR=lv_ct ./app_lv > /dev/null
OMP_NUM_THREADS=3 POMP_PARALLEL=enterexit POMP_SYNC=none POMP_OUTPUT_DIR=lv_rt ./app > /dev/null
summary lv_ct '{"main_lv.c": 2, "work_lv.c": 1}' > ct.txt
summary lv_rt > rt.txt
diff -u rt.txt ct.txt || fail "compile-time levels differ from the same levels at run time"
grep -q '^parallel ' ct.txt && ! grep -q '^critical ' ct.txt || fail "levels took no effect: $(cat ct.txt)"

"$POMPCC" -fopenmp levels.c -o levels 2> lv.err || { cat lv.err; fail "pompcc levels.c"; }
plain_cc -Wno-unknown-pragmas levels.c -o lv_plain
diff <(OMP_NUM_THREADS=2 ./lv_plain) <(OMP_NUM_THREADS=2 POMP_OUTPUT_DIR=lv ./levels) || fail "levels.c output"
L_sum=$(line_of levels.c "reduction(+:s)")
L_main=$(grep -n "reduction(+:s)" levels.c | sed -n 2p | cut -d: -f1)
assert_eq "$(region_sum lv parallel $L_sum visits) $(region_sum lv for $L_sum visits)" "1 0" "loop none before a function"
assert_eq "$(region_sum lv parallel $L_main visits) $(region_sum lv for $L_main visits)" "0 2" "parallel none before a construct"
assert_eq "$(region_sum lv critical $(line_of levels.c "omp critical") visits)" 0 "noinstrument"
assert_eq "$(region_sum lv barrier $(line_of levels.c "omp barrier") visits)" 2 "instrument again"

# Levels that drop the calls of a site counted inline (critical, task,
# taskwait): its counter variables stay used (with -Werror the unused ones sent
# the file to the uninstrumented fallback), and "inst task EnterExit" drops a
# task's execution events, whose inline forms (Task_begin_id_fast,
# Task_end_fast) it kept, as POMP_TASK=EnterExit does at run time. A level
# before a stand-alone directive applies to it alone: before, to the
# statement after it too (the critical after the barrier lost its calls), and
# at the end of a block (the taskwait) it was an error that left the file
# uninstrumented.
cat > levels_fast.c <<'C'
#include <stdio.h>
int main(void)
{
    int n = 0, t = 0;
    #pragma omp parallel
    {
        #pragma pomp inst sync none
        #pragma omp critical
        n++;
        #pragma omp single
        {
            for (int i = 0; i < 4; i++) {
                #pragma pomp inst task EnterExit
                #pragma omp task shared(t)
                {
                    #pragma omp atomic
                    t++;
                }
            }
            #pragma pomp inst task none
            #pragma omp task shared(t)
            {
                #pragma omp atomic
                t++;
            }
            #pragma pomp inst task none
            #pragma omp taskwait
        }
        #pragma pomp inst sync none
        #pragma omp barrier
        #pragma omp critical(kept)
        n++;
    }
    printf("%d %d\n", n > 0, t);
    return 0;
}
C
"$POMPCC" -fopenmp -Wall -Wextra -Werror -Wno-unknown-pragmas levels_fast.c -o levels_fast 2> lf.err ||
    { cat lf.err; fail "pompcc -Werror levels_fast.c"; }
assert_not_contains lf.err 'did not compile|warning' "levels that drop inline-counted calls compile with -Werror"
plain_cc -Wno-unknown-pragmas levels_fast.c -o lf_plain
diff <(OMP_NUM_THREADS=3 ./lf_plain) <(OMP_NUM_THREADS=3 POMP_OUTPUT_DIR=lf ./levels_fast) || fail "levels_fast.c output"
L_t1=$(line_of levels_fast.c "inst task EnterExit")
L_t2=$(grep -n "inst task none" levels_fast.c | head -1 | cut -d: -f1)
assert_eq "$(region_sum lf critical $(line_of levels_fast.c "omp critical") visits)" 0 "inst sync none: no critical"
assert_eq "$(region_sum lf task $((L_t1 + 1)) visits) $(region_sum lf task $((L_t1 + 1)) begins)" "4 0" \
    "inst task EnterExit: the creations, no execution"
assert_eq "$(region_sum lf task $((L_t2 + 1)) visits)" 0 "inst task none: no task"
assert_eq "$(region_sum lf atomic $(line_of levels_fast.c "omp atomic") visits)" 4 "the atomics in the tasks"
assert_eq "$(region_sum lf taskwait $(line_of levels_fast.c "omp taskwait") visits)" 0 "inst task none before a taskwait"
assert_eq "$(region_sum lf barrier $(line_of levels_fast.c "omp barrier") visits)" 0 "inst sync none before a barrier"
assert_eq "$(region_sum lf critical $(line_of levels_fast.c "critical(kept)") visits)" 3 \
    "the critical after that barrier keeps its calls"

# An early exit out of nested regions: a run of altends, innermost first, each
# ending the region around the one before. Before 2026-12-04 only the
# innermost region could take an altend, so the second one of the run was an
# error that left the whole file uninstrumented (a compile warning its only
# trace).
cat > nested_exit.c <<'C'
#include <stdio.h>
#include <omp.h>

struct counts { int search, row, scan, found; };

/* first cell holding want, or -1; a row whose first cell is negative is skipped */
static int find(const int *g, int rows, int cols, int want, struct counts *k)
{
    k->search++;
    #pragma pomp inst begin(search)
    for (int r = 0; r < rows; r++) {
        k->row++;
        #pragma pomp inst begin(row)
        if (g[r * cols] < 0) {
            #pragma pomp inst altend(row)
            continue;
        }
        k->scan++;
        #pragma pomp inst begin(scan)
        for (int c = 0; c < cols; c++) {
            if (g[r * cols + c] == want) {
                k->found++;
                #pragma pomp inst altend(scan)
                #pragma pomp inst altend(row)
                #pragma pomp inst altend(search)
                return r * cols + c;
            }
        }
        #pragma pomp inst end(scan)
        #pragma pomp inst end(row)
    }
    #pragma pomp inst end(search)
    return -1;
}

int main(void)
{
    enum { ROWS = 8, COLS = 8 };
    int g[ROWS * COLS];
    for (int i = 0; i < ROWS * COLS; i++)
        g[i] = i;
    g[2 * COLS] = -1;
    int search = 0, row = 0, scan = 0, found = 0;
    long where = 0;
    #pragma omp parallel for reduction(+ : search, row, scan, found, where) schedule(static, 1)
    for (int w = 0; w < 20; w++) {
        struct counts k = {0, 0, 0, 0};
        where += find(g, ROWS, COLS, w * 5, &k);
        search += k.search; row += k.row; scan += k.scan; found += k.found;
    }
    printf("search=%d row=%d scan=%d found=%d where=%ld\n", search, row, scan, found, where);
    return 0;
}
C
"$POMPCC" -fopenmp -Wall nested_exit.c -o nested_exit 2> ne.err || { cat ne.err; fail "pompcc nested_exit.c"; }
assert_not_contains ne.err 'warning|error' "a run of altends out of three nested regions is accepted"
plain_cc -Wno-unknown-pragmas nested_exit.c -o nested_exit_plain
OMP_NUM_THREADS=3 ./nested_exit_plain > ne_plain.txt
OMP_NUM_THREADS=3 POMP_OUTPUT_DIR=ne ./nested_exit > ne_inst.txt
diff -u ne_plain.txt ne_inst.txt || fail "nested_exit: output differs from the plain build"
# the program's own counts: search=20 row=... scan=... found=12
read -r ne_search ne_row ne_scan ne_found < <(sed -E 's/[a-z]+=//g; s/ [^ ]+$//' ne_plain.txt)
assert_eq "$ne_search $ne_found" "20 12" "nested_exit: 20 searches, 12 found (13 values below 64, one in the skipped row)"
assert_eq "$(region_sum ne userregion $(line_of nested_exit.c 'begin(search)') begins)" "$ne_search" "search regions"
assert_eq "$(region_sum ne userregion $(line_of nested_exit.c 'begin(row)') begins)" "$ne_row" "row regions (the skipped row's altend included)"
assert_eq "$(region_sum ne userregion $(line_of nested_exit.c 'begin(scan)') begins)" "$ne_scan" "scan regions"
assert_eq "$(jq '[.threads[].nesting_errors] | add' ne/profile.json)" 0 "every path out of the nest ends each region once"
# An altend for an outer region while an inner one is still open is said
# where it is, with what to write.
sed 's|^                #pragma pomp inst altend(row)$|/* none */|' nested_exit.c > nested_bad.c
"$POMPCC" -fopenmp nested_bad.c -o nested_bad 2> nb.err || { cat nb.err; fail "a bad altend broke the build"; }
assert_contains nb.err "^nested_bad\.c:$(line_of nested_bad.c 'altend(search)'):[0-9]+: warning: 'inst altend\(search\)' does not go on with the run of altends before it: after region 'scan' the next to end is 'row' \(line $(line_of nested_bad.c 'begin(row)')\), the region around it" \
    "an altend out of order: where, and what is missing"
# the same altend twice in one run (it ended the region twice at run time)
sed 's|^                #pragma pomp inst altend(row)$|&\n                #pragma pomp inst altend(row)|' nested_exit.c > nested_twice.c
"$POMPCC" -fopenmp nested_twice.c -o nested_twice 2> nt.err || { cat nt.err; fail "a doubled altend broke the build"; }
assert_contains nt.err "^nested_twice\\.c:$(($(line_of nested_twice.c 'altend(search)') - 1)):[0-9]+: warning: 'inst altend\\(row\\)' ends region 'row' a second time in this run of altends" \
    "an altend twice in a run: said"
assert_eq "$(grep -c warning: nt.err)" 2 "an altend twice in a run: one error, and the fallback said"
# an altend for an outer region that is not right after the inner one's: the
# inner region is still open there
cat > apart.c <<'C'
int f(int n)
{
#pragma pomp inst begin(outer)
#pragma pomp inst begin(inner)
    if (n > 1) {
#pragma pomp inst altend(inner)
        n--;
#pragma pomp inst altend(outer)
        return n;
    }
#pragma pomp inst end(inner)
#pragma pomp inst end(outer)
    return 0;
}
int main(void) { return f(0); }
C
"$POMPCC" apart.c -o apart 2> apart.err || { cat apart.err; fail "apart altends broke the build"; }
assert_contains apart.err "^apart\.c:8:[0-9]+: warning: 'inst altend\(outer\)' while region 'inner' \(line 4\) is open inside it" \
    "altends apart: the outer one is not part of a run"

# A directive where an if, else, for or while expects its statement (no
# braces): a plain compiler ignores it, so the statement below is the if's;
# pomp's call would take its place and the statement would run always (the
# program changed: 6 -1 became -1 -1; a probe). It is an error that names
# the if; the file is compiled as it is, and computes what the plain build
# does.
cat > unbraced.c <<'C'
#include <stdio.h>
static int f(int x)
{
#pragma pomp inst begin(f)
    if (x < 0)
#pragma pomp inst altend(f)
        return -1;
    else
#pragma pomp userregion event(positive : x)
        x++;
#pragma pomp inst end(f)
    return x * 2;
}
int main(void)
{
    int hits = 0;
    for (int i = 0; i < 4; i++)
#pragma pomp inst begin(body)
    {
        hits++;
#pragma pomp inst end(body)
    }
    printf("%d %d %d\n", f(3), f(-3), hits);
    return 0;
}
C
"$POMPCC" unbraced.c -o unbraced 2> unbraced.err || { cat unbraced.err; fail "an unbraced directive broke the build"; }
assert_contains unbraced.err "^unbraced\.c:6:1: warning: '#pragma pomp inst altend' stands where the 'if' on line 5 expects its statement: as a call it would become that statement" \
                "a directive as an if's statement: said, with the if's line"
assert_contains unbraced.err "^unbraced\.c:9:1: warning: '#pragma pomp userregion event' stands where the 'if' on line 5 expects its statement" \
                "a directive as the else's statement: said"
assert_contains unbraced.err "^unbraced\.c:18:1: warning: '#pragma pomp inst begin' stands where the 'for' on line 17 expects its statement" \
                "a directive before a for's block: said"
assert_eq "$(POMP_OUTPUT_DIR=unbraced.d ./unbraced)" "8 -1 4" "an unbraced directive: the program computes what it computes without pomp"
# with braces, the same program is instrumented and counts each region
sed -e 's|^    if (x < 0)$|    if (x < 0) {|; s|^        return -1;$|        return -1; }|' \
    -e 's|^    else$|    else {|; s|^        x++;$|        x++; }|' \
    -e 's|^    for (int i = 0; i < 4; i++)$|    for (int i = 0; i < 4; i++) {|; s|^    printf|    }\n    printf|' unbraced.c > braced.c
"$POMPCC" braced.c -o braced 2> braced.err || { cat braced.err; fail "pompcc braced.c"; }
assert_not_contains braced.err "warning" "with braces: instrumented"
assert_eq "$(POMP_OUTPUT_DIR=braced.d ./braced)" "8 -1 4" "with braces: the program"
assert_eq "$(region_sum braced.d userregion $(line_of braced.c 'begin(f)') begins) $(region_sum braced.d userregion $(line_of braced.c 'begin(body)') begins)" \
          "2 4" "with braces: each region counted"

# A directive before a switch's first label: no code runs there (the begin
# never ran, each end was unmatched, said only at run time; a probe). One
# after a label is instrumented.
cat > switched.c <<'C'
#include <stdio.h>
int main(int argc, char **argv)
{
    int s = 0;
    (void)argv;
    switch (argc) {
#pragma pomp inst begin(sw)
    case 1:
        s = 1;
        break;
    default:
        s = 2;
    }
#pragma pomp inst end(sw)
    switch (argc) {
    case 1:
#pragma pomp inst begin(in_case)
        s += 10;
#pragma pomp inst end(in_case)
        break;
    }
    printf("s=%d\n", s);
    return 0;
}
C
"$POMPCC" switched.c -o switched 2> switched.err || { cat switched.err; fail "a directive before a switch's first label broke the build"; }
assert_contains switched.err "^switched\.c:7:1: warning: '#pragma pomp inst begin' stands before the first label of a switch, where no code runs" \
    "a directive before a switch's first label: said"
assert_eq "$(POMP_OUTPUT_DIR=switched.d ./switched 2> switched.run)" "s=11" "a directive before a switch's first label: the program"
assert_not_contains switched.run "unmatched" "a directive before a switch's first label: no unmatched events"
sed -i '7d; 14d' switched.c
"$POMPCC" switched.c -o switched 2> switched.err || { cat switched.err; fail "pompcc switched.c"; }
assert_not_contains switched.err "warning" "a directive after a case label: instrumented"
assert_eq "$(POMP_OUTPUT_DIR=switched2.d ./switched)" "s=11" "a directive after a case label: the program"
assert_eq "$(region_sum switched2.d userregion $(line_of switched.c 'begin(in_case)') begins)" 1 "a directive after a case label: counted"

# POMP directives made by function-like macros (the STR/_Pragma idiom, one
# level and two): instrumented as the same macros' omp directives are (they
# made nothing, unsaid, and an end made so left its begin unended: the whole
# file uninstrumented; a probe)
cat > macro_regions.c <<'C'
#include <stdio.h>
#define STR(x) #x
#define PRAGMA(x) _Pragma(STR(x))
#define REGION_BEGIN(n) PRAGMA(pomp inst begin(n))
#define REGION_END(n) PRAGMA(pomp inst end(n))
int main(void)
{
    int s = 0, ran = 0;
    for (int i = 0; i < 4; i++) {
        REGION_BEGIN(body)
        s += i;
        ran++;
        REGION_END(body)
    }
#pragma pomp inst begin(tail)
    s++;
    PRAGMA(pomp inst end(tail))
    printf("s=%d ran=%d\n", s, ran);
    return 0;
}
C
"$POMPCC" -Wall macro_regions.c -o macro_regions 2> macro_regions.err || { cat macro_regions.err; fail "pompcc macro_regions.c"; }
assert_not_contains macro_regions.err "warning" "POMP directives from macros: instrumented"
assert_eq "$(POMP_OUTPUT_DIR=macro_regions.d ./macro_regions)" "s=7 ran=4" "POMP directives from macros: the program"
assert_eq "$(region_sum macro_regions.d userregion $(line_of macro_regions.c 'REGION_BEGIN(body)') begins) $(region_sum macro_regions.d userregion $(line_of macro_regions.c 'begin(tail)') begins)" \
          "4 1" "POMP directives from macros: each region counted"

# POMP directives pomp cannot read make no region: said, with the place (a
# TIMED(name, stmt) macro's, and a .inc file's included inside a function:
# their regions went missing without a word; a probe)
cat > timed_body.inc <<'C'
#pragma pomp inst begin(inner)
    for (int i = 0; i < 10; i++)
        s += i;
#pragma pomp inst end(inner)
C
cat > timed.c <<'C'
#include <stdio.h>
#define TIMED(name, stmt) do { _Pragma("pomp inst begin(timed)") stmt; _Pragma("pomp inst end(timed)") } while (0)
int main(void)
{
    int s = 0;
#include "timed_body.inc"
    TIMED(x, s += 100);
    printf("s=%d\n", s);
    return 0;
}
C
"$POMPCC" timed.c -o timed 2> timed.err || { cat timed.err; fail "pompcc timed.c"; }
assert_contains timed.err "^timed\.c:7:5: warning: 'TIMED' makes 2 '#pragma pomp' directives from a macro's body, which make no region" \
    "POMP directives of a macro with more than the _Pragma: said"
assert_contains timed.err "^timed_body\.inc:1:1: warning: this header's 2 '#pragma pomp' directives make no region: it is included inside a function" \
    "POMP directives of a header left as it is: said"
assert_eq "$(POMP_OUTPUT_DIR=timed.d ./timed 2> /dev/null)" "s=145" "POMP directives left: the program"

# A user region in the body of an untied task that may resume on another
# thread (a taskwait in it): no call, as the block's constructs get none, and
# a note (on libomp each execution made two nesting errors: its parts are
# measured apart; a probe)
cat > untied_region.c <<'C'
#include <stdio.h>
static long body, child;
int main(void)
{
#pragma omp parallel num_threads(2)
#pragma omp single
    for (int t = 0; t < 10; t++) {
#pragma omp task untied
        {
#pragma pomp inst begin(untied_body)
#pragma omp atomic
            body++;
#pragma omp task
            {
#pragma omp atomic
                child++;
            }
#pragma omp taskwait
#pragma pomp inst end(untied_body)
        }
    }
    printf("body=%ld child=%ld\n", body, child);
    return 0;
}
C
for rt in gomp omp; do
    "$POMPCC" --pomp-runtime=$rt -fopenmp untied_region.c -o untied_region_$rt 2> untied_region.err || { cat untied_region.err; fail "pompcc untied_region.c"; }
    assert_contains untied_region.err "^untied_region\.c:10:1: note: '#pragma pomp inst begin' left alone, not measured: in the body of an untied task that may resume on another thread" \
        "a user region in an untied task ($rt): said"
    assert_eq "$(POMP_OUTPUT_DIR=untied_region_$rt.d ./untied_region_$rt)" "body=10 child=10" "a user region in an untied task ($rt): the program"
    assert_eq "$(jq '[.threads[].nesting_errors] | add' untied_region_$rt.d/profile.json)" 0 "a user region in an untied task ($rt): no nesting error"
done

# A region begun at the top of a block, before the block's declarations (C89
# style): in C the begin is a declaration there, so that a -std=c89
# -pedantic-errors or -Werror=declaration-after-statement build stays
# instrumented (it fell back, "please report this"; a probe)
cat > c89.c <<'C'
#include <stdio.h>
static int work(int n)
{
#pragma pomp inst begin(work)
    /* C89: declarations first */
#pragma pomp inst begin(setup)
    int i, s = 0;
#pragma pomp inst end(setup)
    for (i = 0; i < n; i++) {
#pragma pomp inst begin(iter)
        int sq = i * i;
        s += sq;
#pragma pomp inst end(iter)
    }
#pragma pomp inst end(work)
    return s;
}
int main(void)
{
    printf("%d\n", work(10));
    return 0;
}
C
"$POMPCC" -std=c89 -pedantic-errors -Werror=declaration-after-statement c89.c -o c89 2> c89.err || { cat c89.err; fail "pompcc -std=c89"; }
assert_not_contains c89.err "warning|error" "C89 declarations after a region's begin: instrumented, nothing said"
assert_eq "$(POMP_OUTPUT_DIR=c89.d ./c89)" 285 "C89 declarations after a region's begin: the program"
assert_eq "$(region_sum c89.d userregion $(line_of c89.c 'begin(work)') begins) $(region_sum c89.d userregion $(line_of c89.c 'begin(iter)') begins)" \
          "1 10" "C89 declarations after a region's begin: the regions counted"

# Errors: file:line:col, and the file is compiled as it is.
cat > bad.c <<'C'
#include <stdio.h>
int main(void)
{
    int n = 3;
    #pragma pomp inst begin(a)
    #pragma pomp userregion start(b : n, , n)
    #pragma pomp inst loop beginend
    #pragma pomp inst end(b)
    printf("n = %d\n", n);
    return 0;
}
C
"$POMPCC" -fopenmp bad.c -o bad 2> bad.err || { cat bad.err; fail "a bad POMP directive broke the build"; }
assert_contains bad.err '^bad\.c:6:42: warning: .start\(b : n, , n\).: empty value' "empty value"
assert_contains bad.err "^bad\.c:7:28: warning: level 'beginend' is not allowed for group 'loop' \(allowed: none, EnterExit, Chunks, IterEvent, IterBeginEnd\)" "bad level"
assert_contains bad.err "^bad\.c:8:5: warning: 'inst end\(b\)' does not match the open region 'a' \(line 5\)" "mismatched end"
assert_contains bad.err '^bad\.c:5:5: warning: user region .a. is never ended' "unclosed region"
assert_not_contains bad.err "error:" "the build goes on: pomp says warning, not error"
assert_contains bad.err 'bad\.c: cannot be instrumented .*compiling it without instrumentation' "fallback"
assert_eq "$(POMP_OUTPUT_DIR=b ./bad)" "n = 3" "the uninstrumented program runs"
[ ! -e b ] || fail "the uninstrumented program wrote no profile"

# A string as a user value: its address was recorded, unsaid (values are integers)
cat > strval.c <<'C'
int main(void)
{
    int L = 2;
    #pragma pomp userregion start(s : L, L"wide")
    L++;
    #pragma pomp userregion stop(s)
    return L - 3;
}
C
"$POMPCC" strval.c -o strval 2> strval.err || { cat strval.err; fail "a string user value broke the build"; }
assert_contains strval.err "^strval\.c:4:42: warning: .start\(s : L, L\"wide\"\).: L\"wide\" is a string; values are integers \(POMP_Int64\)" \
                "a string as a user value: said, with its column"

# A user region begun before a parallel region and ended inside its block:
# the warning names the region (it said only how many events were unmatched)
cat > crossing.c <<'C'
#include <stdio.h>
int main(void)
{
#pragma pomp inst begin(x)
#pragma omp parallel num_threads(2)
    {
#pragma pomp inst end(x)
    }
    printf("done\n");
    return 0;
}
C
"$POMPCC" -fopenmp crossing.c -o crossing 2> crossing.build
POMP_OUTPUT_DIR=crossing.d ./crossing > crossing.out 2> crossing.err
touch crossing.d/.nesting-errors-expected # (the program's own, on purpose)
assert_eq "$(cat crossing.out)" done "a region across a parallel region: the program"
assert_contains crossing.err "pomp: warning: [0-9]+ unmatched end/exit events, the first of userregion x @ crossing.c:4, which ended with parallel @ crossing.c:5 still open inside it" \
                "a region across a parallel region: the warning names it, and the region it closed"
# An early return without its altend: the enclosing region's end closes the
# region left open, and the warning names that one too (it named only the
# enclosing region, whose end was right)
cat > noaltend.c <<'C'
#include <stdio.h>
static int f(int n)
{
#pragma pomp inst begin(inner)
    if (n > 1)
        return n;
#pragma pomp inst end(inner)
    return 0;
}
int main(void)
{
    int s = 0;
#pragma pomp inst begin(outer)
    s += f(2);
#pragma pomp inst end(outer)
    printf("%d\n", s);
    return 0;
}
C
"$POMPCC" noaltend.c -o noaltend 2> noaltend.build || { cat noaltend.build; fail "pompcc noaltend.c"; }
POMP_OUTPUT_DIR=noaltend.d ./noaltend > noaltend.out 2> noaltend.err
touch noaltend.d/.nesting-errors-expected # (the program's own, on purpose)
assert_eq "$(cat noaltend.out)" 2 "a missing altend: the program"
assert_contains noaltend.err "pomp: warning: 1 unmatched end/exit events, the first of userregion outer @ noaltend.c:13, which ended with userregion inner @ noaltend.c:4 still open inside it \\(that region's end missing, an altend before an early exit\\?" \
                "a missing altend: the region left open named"


# A user region right after a stand-alone directive (barrier, taskwait, flush,
# taskyield), which applies to no statement: instrumented (it was taken for the
# directive's statement, refused, and the whole file went uninstrumented)
for d in barrier taskwait flush taskyield; do
cat > after_$d.c <<C
#include <stdio.h>
int main(void)
{
    int s = 0;
#pragma omp parallel num_threads(2) reduction(+: s)
    {
#pragma omp $d
#pragma pomp inst begin(phase)
        s++;
#pragma pomp inst end(phase)
    }
    printf("%d\n", s);
    return 0;
}
C
"$POMPCC" -fopenmp after_$d.c -o after_$d 2> after_$d.build || { cat after_$d.build; fail "pomp inst begin after $d: build"; }
assert_not_contains after_$d.build "cannot be the statement|without instrumentation" "pomp inst begin after $d: instrumented"
assert_eq "$(POMP_OUTPUT_DIR=after_$d.d ./after_$d 2>/dev/null)" 2 "pomp inst begin after $d: the program"
assert_eq "$(region_sum after_$d.d userregion 8 begins)" 2 "pomp inst begin after $d: the region on both threads"
done
# ... but not after one that applies to a statement, known to pomp or passed
# through (unroll, tile, metadirective): there the POMP directive would become
# that statement (a metadirective's parallel region ran the region's begin,
# and its block ran serially): refused, as before
for d in "unroll partial(2)" "tile sizes(2)" "single" "metadirective when(user={condition(1)}: parallel) default(nothing)"; do
cat > before_stmt.c <<C
int f(int *a)
{
#pragma omp $d
#pragma pomp inst begin(phase)
    for (int i = 0; i < 4; i++)
        a[i] = i;
#pragma pomp inst end(phase)
    return a[3];
}
C
"$BUILD/bin/pomp-instrument" before_stmt.c before_stmt.pomp.c -- -fopenmp 2> before_stmt.err && fail "pomp inst begin after '$d': accepted"
assert_contains before_stmt.err "before_stmt.c:4:1: error: '#pragma pomp inst begin' cannot be the statement of the pragma on line 3" \
                "pomp inst begin after '$d': refused"
done

# A region's own time leaves out the regions recorded inside a skipped one
# (paused by POMP_Off, or filtered out), which attach to it: the outer region
# held 10 ms of its own, a paused region's 10 ms (its own, as documented) and
# a 50 ms region recorded after POMP_On. Its own time read 70 ms of 70, the
# 50 ms counted twice over the thread (a probe). The same with a filter: a
# parallel region's loops left out, their barriers attached to it.
cat > skipped.c <<'C'
#include <time.h>
static void spin_ms(double ms)
{
    struct timespec t0, t;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    do
        clock_gettime(CLOCK_MONOTONIC, &t);
    while ((t.tv_sec - t0.tv_sec) * 1e3 + (t.tv_nsec - t0.tv_nsec) * 1e-6 < ms);
}
int main(void)
{
#pragma pomp inst begin(outer)
    spin_ms(10);
#pragma pomp inst off
#pragma pomp inst begin(paused)
    spin_ms(10);
#pragma pomp inst on
#pragma pomp inst begin(inner)
    spin_ms(50);
#pragma pomp inst end(inner)
#pragma pomp inst end(paused)
#pragma pomp inst end(outer)
#pragma omp parallel num_threads(2)
    {
#pragma omp for schedule(dynamic, 1)
        for (int i = 0; i < 8; i++)
            spin_ms(i % 2 ? 1 : 3);
    }
    return 0;
}
C
"$POMPCC" -fopenmp -O2 skipped.c -o skipped 2> skipped.err || { cat skipped.err; fail "skipped.c: build"; }
POMP_SUMMARY=on POMP_OUTPUT_DIR=skipped_out ./skipped 2> skipped_run.err
# The pause is said (a probe's run read 63 % load balance for 84 %, its
# paused parallel region's time rated as the initial thread's serial work,
# unsaid): the profile's "paused", the summary's note, and the run not rated
# where its parallel regions are.
assert_eq "$(jq -c '[.paused.times, (.paused.ns / 1e6 | . >= 9 and . < 40)]' skipped_out/profile.json)" '[1,true]' \
    "inst off .. inst on: the profile's pause, once, about 10 ms"
assert_contains skipped_run.err "^pomp: note: measurement was paused 1 time \(POMP_Off, #pragma pomp inst off\), [0-9.]+ ms of the run's" \
    "the pause in the exit summary"
"$REPORT" --json skipped_out > skipped.json
assert_eq "$(jq -c '[.efficiency.run.rated, (.efficiency.run.why | test("^measurement was paused 1 time")),
                     (.efficiency.parallel_regions | length), (.efficiency.parallel_regions[0].load_balance_pct > 0)]' skipped.json)" \
    '[false,true,1,true]' "a pause: the run not rated, its parallel region rated"
"$REPORT" skipped_out > skipped.txt
assert_contains skipped.txt "^\(the run\) .* not rated: measurement was paused 1 time \(POMP_Off\)" "a pause: the run's line says why"
own_ms() { # DIR NAME: the user region's own time, ms
    jq --arg n "$2" '([.regions[] | select(.name == $n) | .id]) as $ids
        | [.callpath[] | select(.region as $r | $ids | index($r)) | .per_thread[].excl_ns] | add / 1e6' "$1/profile.json"
}
own=$(own_ms skipped_out outer)
awk -v o="$own" 'BEGIN { exit !(o >= 19 && o < 35) }' || fail "a paused region's recorded child: the outer region's own time $own ms, expected ~20"
# every node: its own time = its inclusive time less its children's, per thread
excl_holds() { # DIR
    python3 - "$1/profile.json" <<'PY'
import json, sys
p = json.load(open(sys.argv[1]))
kids = {}
for c in p["callpath"]:
    kids.setdefault(c["parent"], []).append(c)
bad = 0
for c in p["callpath"]:
    for t in c["per_thread"]:
        inner = sum(k2["incl_ns"] - k2.get("share_ns", 0) for k in kids.get(c["id"], [])
                    for k2 in k["per_thread"] if k2["thread"] == t["thread"])
        if abs(t["incl_ns"] - inner - t["excl_ns"]) > 1e5:
            bad += 1
            print(c["id"], t, inner, file=sys.stderr)
sys.exit(1 if bad else 0)
PY
}
excl_holds skipped_out || fail "a paused region: own times are inclusive less children"
POMP_FILTER_EXCLUDE=type:for POMP_OUTPUT_DIR=filtered_out ./skipped 2> /dev/null
excl_holds filtered_out || fail "a filtered loop: the parallel region's own time leaves out its barriers"
# Measurement paused from before a parallel region to inside it: the
# runtime's region of a loop's implicit barrier is made, with no call path. The exit summary and pomp-report count the same
# regions (14 and 15 before; a probe).
cat > pausedpar.c <<'C'
#include <omp.h>
#include <stdio.h>
static long spin(int n)
{
    volatile long s = 0;
    for (int i = 0; i < n; i++)
        s += i % 2;
    return s;
}
int main(void)
{
    long s = 0;
    for (int r = 0; r < 3; r++) {
        if (r == 1) {
#pragma pomp inst off
        }
#pragma omp parallel reduction(+ : s)
        {
#pragma omp for
            for (int i = 0; i < 100; i++)
                s += spin(5000) > 0;
            if (r == 1 && omp_get_thread_num() == 0) {
#pragma pomp inst on
            }
#pragma omp barrier
#pragma omp single
            s += spin(100000) > 0;
        }
    }
#pragma omp parallel
    {
#pragma omp single
        {
#pragma pomp inst off
        }
#pragma omp critical
        s += 1;
#pragma omp barrier
#pragma omp single
        {
#pragma pomp inst on
        }
    }
    printf("%ld\n", s);
    return 0;
}
C
"$POMPCC" -fopenmp pausedpar.c -o pausedpar 2> /dev/null || fail "build pausedpar.c"
env -u POMP_OMPT OMP_NUM_THREADS=2 POMP_SUMMARY=on POMP_OUTPUT_DIR=pausedpar.d ./pausedpar > pausedpar.txt 2> pausedpar.err
assert_eq "$(cat pausedpar.txt)" 305 "a parallel region while paused: the program"
summary=$(sed -n 's/^pomp: pausedpar: .*, \([0-9]*\) regions\{0,1\}[ ;].*/\1/p' pausedpar.err)
report=$("$REPORT" pausedpar.d | sed -n '1s/.*, \([0-9]*\) regions\{0,1\}$/\1/p')
[ -n "$summary" ] || { cat pausedpar.err; fail "a parallel region while paused: the summary's count"; }
assert_eq "$report" "$summary" "a parallel region while paused: the report counts the summary's regions"
# --json and the HTML page's header give that count too (the page said 15,
# every region listed; a probe)
assert_eq "$("$REPORT" --json pausedpar.d | jq .regions_counted)" "$summary" "a parallel region while paused: --json counts the summary's regions"
"$REPORT" pausedpar.d --html pausedpar.html 2> /dev/null
assert_contains pausedpar.html "\"regions_counted\": *$summary[,}]" "a parallel region while paused: the page's data counts the summary's regions"

# A value that does not compile (the program's own expression, which a plain
# build never evaluates) is said with file:line:col: it read only "the
# instrumented file did not compile ... (please report this)" (a probe).
cat > badval.c <<'C'
int main(void)
{
    int n = 3;
#pragma pomp userregion start(a : n, undefined_var)
    n++;
#pragma pomp userregion stop(a)
    return n - 4;
}
C
"$POMPCC" -fopenmp badval.c -o badval 2> badval.err || { cat badval.err; fail "a bad value broke the build"; }
assert_contains badval.err "^badval\.c:4:[0-9]+: warning: .*undefined_var" "a value that does not compile: where"
assert_contains badval.err "badval\.c: a value of a '#pragma pomp' directive does not compile" "a value that does not compile: said so"
assert_not_contains badval.err "please report this" "a value that does not compile is the program's, not pomp's"
# the same through a macro, whose error GCC places at the macro's definition
# (it read "please report this", no place; a probe)
{ echo '#define LEVEL undefined_level'; sed 's/a : n, undefined_var/a : LEVEL/' badval.c; } > badmacro.c
"$POMPCC" -fopenmp badmacro.c -o badmacro 2> badmacro.err || { cat badmacro.err; fail "a bad value through a macro broke the build"; }
assert_contains badmacro.err "^badmacro\.c:5:[0-9]+: warning: .*undefined_level.* \(in expansion of macro .LEVEL., badmacro\.c:1:[0-9]+\)" \
    "a value through a macro that does not compile: where"
assert_not_contains badmacro.err "please report this" "a value through a macro that does not compile is the program's"
./badval || fail "the uninstrumented program runs"

# --json names the values as the text report does (its per_thread figures had
# no names), and a region whose end never ran is named at exit (only counted).
"$REPORT" --json ur4 > ur4.json
assert_eq "$(jq -c '.regions[] | select(.name == "phase") | .values' ur4.json)" \
    '{"begin":["me","me * 10"],"end":["10 + me"]}' "--json: value names"
cat > openend.c <<'C'
#include <stdlib.h>
int main(void)
{
    volatile int n = 3;
#pragma pomp inst begin(leaky)
    if (n == 3)
        exit(0);
#pragma pomp inst end(leaky)
    return 0;
}
C
"$POMPCC" -fopenmp openend.c -o openend 2> /dev/null || fail "build openend.c"
POMP_SUMMARY=on POMP_OUTPUT_DIR=openend.d ./openend 2> openend.err
assert_contains openend.err "1 region was still open when measurement ended, the first of userregion leaky @ openend\.c:5" \
    "a region open at the end: named"
