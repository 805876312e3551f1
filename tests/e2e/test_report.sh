# pomp-report: the text tables, --json and --chrome against a run with known
# waits (thread 0 waits for a critical section thread 1 holds 40 ms, then at a
# barrier while thread 1 works 30 ms more), and the HTML page's content. The
# page itself is opened in Chromium by test_report_html.sh.
HERE=$(cd "$(dirname "$0")" && pwd)
source "$HERE/lib.sh"
# Exact counts of the POMP events this test makes: the OMPT bridge's events
# (implicit barriers, waits, chunks) are tested in test_ompt_*.sh.
export POMP_OMPT=off
cp "$HERE/progs/waits.c" .
"$POMPCC" -fopenmp -O2 waits.c -o waits
POMP_TRACE=both POMP_OUTPUT_DIR=w ./waits > w.out
assert_eq "$(cat w.out)" "entered=2" "program output"
L_par=$(line_of waits.c "#pragma omp parallel")

# ---- text ----
"$REPORT" w > text.txt
nregions=$(jq '.regions | length' w/profile.json)   # the constructs and the omp_get_thread_num call
assert_contains text.txt "^program waits \\(pid [0-9]+\\): [0-9.]+ s, 2 threads, $nregions regions\$" "header"
assert_contains text.txt '^Call paths$' "call-path table"
assert_contains text.txt '^Regions by self time' "flat table"
assert_contains text.txt '^Waits per parallel region and task \(ms summed over threads; from barrier, critical, ordered, lock and taskwait regions\)$' "wait table and its source"
assert_contains text.txt "^parallel +waits.c:$L_par-[0-9]+ +[0-9.]+ +[0-9.]+ +0.000 +0.000 +0.000 +0.000 +[0-9.]+ +[0-9.]+%$" "a wait row per parallel region"
# the flat table is sorted by its last column (self time), largest first
awk '/^Regions by self time/ { on = 1; next } on && /^$/ { exit } on && NR > 0 && $NF ~ /^[0-9.]+$/ { print $NF }' text.txt > self.txt
nflat=$(jq '[.callpath[].region] | unique | length' w/profile.json)
[ "$(wc -l < self.txt)" -eq "$nflat" ] || fail "$nflat regions in the flat table: $(cat self.txt)"
sort -rn self.txt | diff - self.txt > /dev/null || fail "flat table not sorted by self time: $(tr '\n' ' ' < self.txt)"
"$REPORT" --threads w > threads.txt
assert_eq "$(grep -cE '^ +thread [01] ' threads.txt)" "$(jq '[.callpath[].per_thread[]] | length' w/profile.json)" \
    "--threads: one line per thread under each call path"
# Each call path's thread lines add up to its row (a parallel region's row
# counts the team's executions: left out), also where executions are begins (a
# masked block, a task's executions): those showed 0 per thread.
cat > begun.c <<'C'
#include <stdio.h>
int main(void)
{
    int m = 0, n = 0;
#pragma omp parallel num_threads(2)
    {
        for (int k = 0; k < 5; k++) {
#pragma omp masked
            m++;
        }
#pragma omp single
        for (int i = 0; i < 10; i++) {
#pragma omp task shared(n)
            {
#pragma omp atomic
                n++;
            }
        }
    }
    printf("masked=%d tasks=%d\n", m, n);
    return 0;
}
C
POMP_OMPT=on "$POMPCC" -fopenmp begun.c -o begun
POMP_OMPT=on POMP_OUTPUT_DIR=begun.dir ./begun > begun.out
assert_eq "$(cat begun.out)" "masked=5 tasks=10" "begun: program output"
"$REPORT" --threads begun.dir > begun.txt
# the visits column: 8 characters ending under the header's "visits"
sums=$(awk '/^Call paths$/ { on = 1; next } on && /^$/ { exit }
            on && /visits/ && !col { col = index($0, "visits") - 2; next }
            on && col { v = substr($0, col, 8) + 0
                        if ($0 ~ /^ +thread [0-9]+ /) { sum[row] += v }
                        else { row++; want[row] = $1 == "parallel" ? -1 : v } }
            END { for (r = 1; r <= row; r++) if (want[r] >= 0 && want[r] != sum[r]) printf "row %d: %d != %d; ", r, want[r], sum[r] }' begun.txt)
assert_eq "$sums" "" "--threads: the thread lines add up to each row's visits"
assert_eq "$(grep -cE '^ +(masked|task) ' begun.txt)" 2 "begun: the masked and task rows"
# Long locations keep what tells rows apart: a relative path's first
# directory, a runtime region's "in parallel @" (cut from the left, the two
# files read alike and a barrier's row lost its kind; a probe)
for d in one two; do
    mkdir -p "$d/a_really_quite_long_directory_name_for_testing_cuts"
    printf 'void k_%s(void)\n{\n#pragma omp parallel num_threads(2)\n    { }\n}\n' "$d" \
        > "$d/a_really_quite_long_directory_name_for_testing_cuts/kern.c"
done
printf 'void k_one(void);\nvoid k_two(void);\nint main(void)\n{\n    k_one();\n    k_two();\n    return 0;\n}\n' > long_main.c
"$POMPCC" -fopenmp long_main.c one/a_*/kern.c two/a_*/kern.c -o long_paths 2> build.err || { cat build.err; fail "build long_paths"; }
POMP_OMPT=on POMP_OUTPUT_DIR=long.dir ./long_paths
"$REPORT" long.dir > long.txt
for d in one two; do
    assert_contains long.txt "^parallel +$d/\.\.\.[a-z_]+/kern\.c:3-4 " "a long location: its first directory ($d)"
    assert_contains long.txt "^  implicit_barrier parallel +in parallel @ $d/\.\.\.[a-z_]+/kern\.c:3-4 " \
        "a long runtime location: its kind and first directory ($d)"
done

# A task construct's creations and executions are two rows of the flat table
# (one row mixed a 1 us creation and the tasks' executions: min and mean of neither)
L_task=$(line_of begun.c "omp task")
flat_rows=$(sed -n '/^Regions by self time/,/^$/p' begun.txt | grep -E "^task( \(creation\))? +begun.c:$L_task-" | awk '{print $1, $2, $(NF-6)}' | sort | tr '\n' ';')
assert_eq "$flat_rows" "task (creation) 10;task begun.c:$L_task-$((L_task + 4)) 10;" "flat table: the task's creations and executions apart"
"$REPORT" --json begun.dir > begun.json
assert_eq "$(jq -c '[.flat[] | select(.part != "all") | .part] | sort' begun.json)" '["creations","executions"]' \
    "--json: the flat rows' parts"
# A region placed by its call paths in several regions (every parallel
# region's closing barrier is one region) has a flat row per place: one row
# "implicit_barrier parallel -" said neither which region waited nor how long
cat > two_teams.c <<'C'
#include <stdio.h>
#include <unistd.h>
int main(void)
{
    int n = 0;
#pragma omp parallel num_threads(2) reduction(+:n)
    {
        if (n == 0)
            n++;
    }
#pragma omp parallel num_threads(2) reduction(+:n)
    n++;
    printf("%d\n", n);
    return 0;
}
C
"$POMPCC" -fopenmp two_teams.c -o two_teams
POMP_OMPT=on POMP_OUTPUT_DIR=two_teams.dir ./two_teams > two_teams.out
assert_eq "$(cat two_teams.out)" "4" "two_teams: program output"
"$REPORT" two_teams.dir > two_teams.txt
L1=$(line_of two_teams.c "omp parallel") L2=$(grep -n "omp parallel" two_teams.c | sed -n 2p | cut -d: -f1)
placed=$(sed -n '/^Regions by self time/,/^$/p' two_teams.txt | grep '^implicit_barrier parallel' |
         grep -oE 'in parallel @ two_teams.c:[0-9]+' | sort | tr '\n' ';')
assert_eq "$placed" "$(printf 'in parallel @ two_teams.c:%s\n' "$L1" "$L2" | sort | tr '\n' ';')" \
    "flat table: a closing-barrier row per parallel region"
"$REPORT" --check two_teams.dir > /dev/null || fail "two_teams: --check"
# A thread line names pomp's thread index and, where it differs, the OpenMP
# thread number of that thread (index 2 could be OpenMP thread 3, whose
# figures were read as thread 2's)
grep -oE '^ +thread [0-9]+( \(OpenMP [0-9]+\))?' begun.txt | sort -u | while read -r _ index omp; do
    want=$(jq --argjson i "$index" '.threads[] | select(.index == $i) | .omp_thread_num' begun.dir/profile.json)
    got=$(echo "$omp" | tr -dc 0-9)
    assert_eq "${got:-$index}" "$want" "--threads: thread $index's OpenMP number"
done

# Thread lines deep in the tree keep their whole name: the name column was
# sized for the rows' labels alone, and a thread line under an atomic in a
# critical in a loop read "thr...1 (OpenMP 3)" (the digits that say which
# thread could go; a probe). Four threads that start in reverse order, so that
# thread indexes and OpenMP numbers differ.
cat > deep_lines.c <<'C'
#include <stdio.h>
#include <unistd.h>
#include <omp.h>
int main(void)
{
    long s = 0;
#pragma omp parallel num_threads(4)
    {
        usleep(2000 * (4 - omp_get_thread_num())); /* the last first */
#pragma omp for
        for (int i = 0; i < 8; i++) {
#pragma omp critical
            {
#pragma omp atomic
                s += i;
            }
        }
    }
    printf("%ld\n", s);
    return 0;
}
C
"$POMPCC" -O2 -fopenmp deep_lines.c -o deep_lines
POMP_OMPT=off POMP_OUTPUT_DIR=deep_lines.dir ./deep_lines > deep_lines.out
assert_eq "$(cat deep_lines.out)" 28 "deep_lines: program output"
"$REPORT" --threads deep_lines.dir > deep_lines.txt
assert_not_contains deep_lines.txt '^ +thr\.\.\.' "--threads: thread names whole deep in the tree"
assert_eq "$(grep -cE '^ {8}thread [0-9]+( \(OpenMP [0-9]+\))? ' deep_lines.txt)" 4 \
          "--threads: the atomic's four thread lines, indented under it"

# ---- --json: the same figures, checked against profile.json ----
"$REPORT" --json w > r.json
assert_eq "$(jq -r '.format + " " + (.version | tostring)' r.json)" "pomp-report 1" "format"
assert_eq "$(jq -c .sampling r.json)" null "no sampling member without POMP_SAMPLING"
# counts are integers, as in profile.json ("visits": 28656.0 before; a probe)
assert_eq "$(grep -cE '"(visits|untimed_wait_executions|blockless_wait_executions|cpu_wait_unread)": *-?[0-9]+\.[0-9]' r.json)" 0 \
    "--json: counts written as integers"
# waits derived from the regions: critical = (inclusive - body) of the critical nodes, barrier = inclusive
expect_crit=$(jq '([.regions[] | select(.type == "critical") | .id]) as $c
    | [.callpath[] | select(.region as $r | $c | index($r)) | .per_thread[] | select(.visits > 0) | .incl_ns - .body_ns] | add' w/profile.json)
expect_bar=$(jq '([.regions[] | select(.type == "barrier") | .id]) as $b
    | [.callpath[] | select(.region as $r | $b | index($r)) | .per_thread[].incl_ns] | add' w/profile.json)
assert_eq "$(jq '.waits.rows | length' r.json)" 1 "one parallel region"
assert_eq "$(jq '.waits.rows[0].ns.critical' r.json)" "$expect_crit" "critical wait: time outside the critical bodies"
assert_eq "$(jq '.waits.rows[0].ns.barrier' r.json)" "$expect_bar" "barrier wait: time in the barrier"
assert_eq "$(jq '.waits.source' r.json)" '"regions"' "wait source"
# known work: thread 0 waits most of 40 ms and 30 ms (loose bounds: a loaded machine delays thread 0)
jq -e '.waits.rows[0].ns | .critical > 10e6 and .critical < 60e6 and .barrier > 8e6 and .barrier < 50e6' r.json > /dev/null \
    || fail "known waits: $(jq -c '.waits.rows[0].ns' r.json)"
jq -e '[.callpath[] | select(.threads > 1) | (.max_ns - .mean_ns) / .max_ns * 100 - .imbalance_pct | fabs < 1e-6] | all' r.json > /dev/null \
    || fail "imbalance is (max - mean) / max"
jq -e '[.flat[].self_ns] | . == (sort | reverse)' r.json > /dev/null || fail "flat rows by self time"
# a region's executions: its visits, or its begins where it has no enter events (master, user regions)
assert_eq "$(jq '[.flat[].visits] | add' r.json)" \
          "$(jq '[.callpath | group_by(.region)[] | [.[].per_thread[]] | ([.[].visits] | add) as $v
                 | if $v > 0 then $v else ([.[].begins] | add) end] | add' w/profile.json)" "flat visits add up"

# ---- --chrome: the same converter as libpomp's trace.json ----
"$REPORT" w --chrome again.json 2> chrome.err
cmp -s again.json w/trace.json || fail "pomp-report --chrome differs from the trace.json of the run"
assert_contains chrome.err "wrote again.json" "confirmation"
# a run recorded as OTF2 only can still be looked at in Perfetto
POMP_TRACE=otf2 POMP_OUTPUT_DIR=o ./waits > /dev/null
[ ! -e o/trace.json ] || fail "POMP_TRACE=otf2 wrote trace.json"
"$REPORT" o --chrome o.json 2> /dev/null
assert_eq "$(chrome_check o.json)" "$(jq '[.traceEvents[] | select(.ph == "B")] | length' w/trace.json)" "Chrome JSON from an OTF2-only run"
# without a trace: a clear error
POMP_OUTPUT_DIR=p ./waits > /dev/null
if "$REPORT" p --chrome p.json 2> nochrome.err; then fail "--chrome without a trace succeeded"; fi
assert_contains nochrome.err "p has no trace \(trace-raw/defs.json\); record one with POMP_TRACE=otf2, chrome or both" "no-trace message"
# a broken raw file: the byte offset
cp -r w broken && printf 'XXXX' | dd of=broken/trace-raw/thread-1.bin bs=1 seek=80 conv=notrunc 2> /dev/null
if "$REPORT" broken --chrome b.json 2> broken.err; then fail "a broken raw file was accepted"; fi
assert_contains broken.err 'thread-1.bin: byte offset 80: region id that defs.json does not define' "byte offset of the bad field"
if "$REPORT" w --html 2> usage.err; then fail "--html without a file"; fi
assert_contains usage.err "--html needs a file name" "usage error"

# ---- --html: one self-contained file ----
"$REPORT" w --html w.html 2> html.err
assert_contains html.err "wrote w.html" "confirmation"
! grep -qE '(src|href)=|url\(["'"'"']?(https?:|//)|@import' w.html || fail "the page loads something from outside"
! grep -q '@POMP_DATA@' w.html || fail "data marker left in the page"
sed -n 's/.*<script id="pomp-data" type="application\/json">\(.*\)<\/script>.*/\1/p' w.html > data.json
assert_eq "$(jq -r '.format' data.json)" "pomp-report" "embedded data is the --json document"
assert_eq "$(jq '.timeline.threads | length' data.json)" 2 "timeline lanes"
assert_eq "$(jq '.timeline.shown' data.json)" "$(jq '[.traceEvents[] | select(.ph == "B")] | length' w/trace.json)" "every slice of the trace"
assert_eq "$(jq -r '[.timeline.labels[].loc] | map(select(startswith("waits.c:"))) | length > 0' data.json)" true "file:line for tooltips"
"$REPORT" p --html p.html 2> p.err
assert_contains p.err "wrote p.html \(no trace in this run: no timeline\)" "page without a trace"
sed -n 's/.*<script id="pomp-data" type="application\/json">\(.*\)<\/script>.*/\1/p' p.html > pdata.json
assert_eq "$(jq '.timeline' pdata.json)" null "no timeline data without a trace"
# A run without a trace into the directory of one with a trace: the earlier
# run's trace stays beside the new profile, and is not shown as this run's
# (before: the page drew the old run's timeline under the new run's profile)
cp -r w reused
POMP_OUTPUT_DIR=reused ./waits > /dev/null 2>&1
"$REPORT" reused --html reused.html 2> reused.err
assert_contains reused.err "warning: reused/trace-raw is the trace of another run \(pid [0-9]+; the profile's: [0-9]+\): not shown" \
                "another run's trace is said"
assert_contains reused.err "wrote reused.html \(no trace in this run: no timeline\)" "and not drawn"
"$REPORT" --chrome reused.json reused 2> reused_chrome.err
assert_contains reused_chrome.err "warning: reused/trace-raw is the trace of another run \(pid [0-9]+; the profile's: [0-9]+\): converted as it is" \
                "--chrome: another run's trace is said (before: converted without a word)"
"$REPORT" --chrome w.json w 2> w_chrome.err
assert_not_contains w_chrome.err "another run" "--chrome: the run's own trace, no warning"

# ---- where the runtime's regions are: an implicit barrier without a file
# (no -g: only the outlined function's symbol) is placed in its construct, so
# that the flat table tells the barriers of a program apart ----
cat > barriers.c <<'C'
#include <stdio.h>
int main(void)
{
    double a[1000], s = 0;
#pragma omp parallel
    {
#pragma omp for
        for (int i = 0; i < 1000; i++)
            a[i] = i * 0.5;
#pragma omp single
        s = a[999];
#pragma omp for reduction(+ : s)
        for (int i = 0; i < 1000; i++)
            s += a[i];
    }
#pragma omp parallel num_threads(2)
    a[0] = 1;
    printf("%.1f\n", s);
    return 0;
}
C
unset POMP_OMPT
"$POMPCC" -fopenmp -O2 barriers.c -o barriers
POMP_OUTPUT_DIR=b OMP_NUM_THREADS=2 ./barriers > b.out
assert_eq "$(cat b.out)" "250249.5" "program output"
"$REPORT" b > b.txt
L_for1=$(line_of barriers.c "#pragma omp for")
L_single=$(line_of barriers.c "#pragma omp single")
L_for2=$(line_of barriers.c "#pragma omp for reduction")
for where in "for @ barriers.c:$L_for1-" "single @ barriers.c:$L_single-" "for @ barriers.c:$L_for2-"; do
    assert_contains b.txt "^    implicit_barrier .* in $where" "call paths: a barrier placed in $where"
    assert_contains <(sed -n '/^Regions by self time/,/^$/p' b.txt) "^implicit_barrier .* in $where" "flat table: a barrier placed in $where"
done
# the closing barrier of every parallel region is one region: each call path places it
"$REPORT" --json b > b.json
for L in $(grep -n "#pragma omp parallel" barriers.c | cut -d: -f1); do
    assert_contains b.txt "^  implicit_barrier parallel +in parallel @ barriers.c:$L-" "call paths: the closing barrier of the parallel region at line $L"
    assert_eq "$(jq --arg l "in parallel @ barriers.c:$L-" '[.callpath[] | select(.location | startswith($l))] | length' b.json)" 1         "--json: the node's location, line $L"
done
# the timeline's tooltips place them as the tables do: in their construct, never
# in libpomp (only the library's own flush region is libpomp's)
POMP_TRACE=chrome POMP_OUTPUT_DIR=bt OMP_NUM_THREADS=2 ./barriers > /dev/null
"$REPORT" bt --html bt.html 2> /dev/null
sed -n 's/.*<script id="pomp-data" type="application\/json">\(.*\)<\/script>.*/\1/p' bt.html > btdata.json
assert_eq "$(jq '[.timeline.labels[] | select(.loc == "libpomp")] | length' btdata.json)" 0 \
          "timeline: no region of the program placed in libpomp"
assert_eq "$(jq -r --arg l "in single @ barriers.c:$L_single-" \
              '[.timeline.labels[] | select(.type == "implicit_barrier" and (.loc | contains($l)))] | length > 0' btdata.json)" \
          true "timeline: the single's barrier placed in it"

# a library built plainly (no pomp, no -g) with its own parallel region: named
# by its function in the summary and the report, its barrier placed in it
cat > libwork.c <<'C'
double lib_work(int n)
{
    double s = 0;
#pragma omp parallel for reduction(+ : s) num_threads(2)
    for (int i = 0; i < n; i++)
        s += (double)i * 1e-9;
    return s;
}
C
cat > uselib.c <<'C'
#include <stdio.h>
double lib_work(int n);
int main(void)
{
    double s = 0;
    for (int k = 0; k < 20; k++)
        s += lib_work(2000000);
    printf("%.3f\n", s);
    return 0;
}
C
cc -O2 -fopenmp -fPIC -shared libwork.c -o libwork.so
"$POMPCC" -fopenmp -O2 uselib.c -o uselib -L. -lwork -Wl,-rpath,"$PWD"
POMP_SUMMARY=on POMP_OUTPUT_DIR=u ./uselib > u.out 2> u.err
assert_eq "$(cat u.out)" "39999.980" "program output"
assert_contains u.err "^pomp: +[0-9.]+ +20 +2  parallel @ lib_work\(\)$" "summary: a runtime region named by its function"
"$REPORT" u > u.txt
assert_contains u.txt "^parallel +lib_work\(\) +20 " "report: its function"
assert_contains u.txt "^  implicit_barrier parallel +in parallel @ lib_work\(\) +40 " "report: its barrier placed in it"

# A directory with the raw trace of a run that did not end normally (killed,
# or an exec) and no profile.json: said as such (it was "profile.json: No
# such file or directory"; a probe), with and without the trace's definitions
mkdir -p killed/trace-raw && head -c 64 /dev/zero > killed/trace-raw/thread-0.bin
"$REPORT" killed > /dev/null 2> killed.err && fail "a directory without profile.json: exit 1"
assert_contains killed.err "^pomp-report: killed has no profile.json, only the raw trace the run wrote while it ran \(killed/trace-raw/\): the run did not end normally \(a signal killed it, or it called exec\), or POMP_PROFILE=off; its trace definitions \(defs.json\), written at the end, are missing too" \
    "no profile.json beside a raw trace: said what it is"
echo '{}' > killed/trace-raw/defs.json
"$REPORT" killed --check > /dev/null 2> killed2.err && fail "a directory without profile.json, --check: exit 1"
assert_contains killed2.err "pomp-report --chrome FILE converts what was recorded" "no profile.json, defs.json there: --chrome named"
