# The HTML report in a real browser: headless Chromium loads the page (no
# network), runs its script, and we check the DOM it built (timeline slices,
# profile bars, wait segments, the call-path table) and the screenshot's
# pixels (the construct colours of the timeline and charts are there).
# Skipped, with the reason, only where Chromium is not installed.
HERE=$(cd "$(dirname "$0")" && pwd)
source "$HERE/lib.sh"
# Exact counts of the POMP events this test makes: the OMPT bridge's events
# (implicit barriers, waits, chunks) are tested in test_ompt_*.sh.
export POMP_OMPT=off
require_chromium "HTML report"

cp "$HERE/progs/waits.c" .
"$POMPCC" -fopenmp -O2 waits.c -o waits
POMP_TRACE=chrome POMP_OUTPUT_DIR=w ./waits > /dev/null
"$REPORT" w --html w.html 2> /dev/null
"$REPORT" w --json > r.json
browse w.html w.png > dom.html || { cat browser.err; fail "chromium failed"; }
[ -s w.png ] || fail "no screenshot"

# The script ran to the end and drew every part.
assert_contains dom.html '<body data-rendered="efficiency timeline profile waits table"' "every part rendered"
assert_not_contains dom.html '<body[^>]*data-error-' "no script error"
slices=$(jq '.traceEvents | map(select(.ph == "B")) | length' w/trace.json)
assert_eq "$(grep -oE 'class="slice( thin)?"' dom.html | wc -l)" "$((slices))" "one rectangle per slice of the trace (single events are marks)"
assert_contains dom.html "data-slices=\"$slices\"" "the timeline counts them"
assert_eq "$(grep -o 'class="lane-label"' dom.html | wc -l)" 2 "a lane per thread"
assert_contains dom.html '<text[^>]*class="lane-label">thread 0</text>' "lane label"
assert_eq "$(grep -o 'class="bar"' dom.html | wc -l)" "$(jq '[.flat[] | select(.max_ns > 0)] | [length, 25] | min' r.json)" "a profile bar per region that took time (25 at most)"
assert_contains dom.html 'class="seg" data-kind="critical"' "critical wait segment"
assert_contains dom.html 'class="seg" data-kind="barrier"' "barrier wait segment"
assert_contains dom.html '<td class="loc" title="waits.c:[0-9]+-[0-9]+">waits.c:[0-9]+-[0-9]+</td>' "call-path table with locations"
assert_contains dom.html 'id="zoom-range">0 ns – [0-9.]+ ms' "the zoom range shows the whole run"

# The screenshot: the parallel (blue), critical (red) and barrier (orange)
# colours cover real areas, and most of the page is not blank.
python3 "$HERE/../tools/png_colors.py" w.png 3b6fd4 d64545 e08a1e > colors.txt
read -r blue red orange drawn <<< "$(tr "\n" " " < colors.txt)"
[ "$blue" -gt 2000 ] || fail "parallel regions not visible in the screenshot ($blue px)"
[ "$red" -gt 1000 ] || fail "critical regions not visible in the screenshot ($red px)"
[ "$orange" -gt 300 ] || fail "barrier not visible in the screenshot ($orange px)"
[ "$drawn" -gt 100000 ] || fail "the page looks blank ($drawn drawn pixels)"

# The header's wait share: every wait over the parallel regions' thread time;
# the tasks' rows hold time already inside their region's (counted twice, a
# task program's share read 6.6 % for 12.3 %)
cp "$HERE/numbers/taskwait_split.c" "$HERE/numbers/work.h" .
"$POMPCC" -fopenmp -O2 taskwait_split.c -o tsplit
POMP_OMPT=on POMP_OUTPUT_DIR=ts ./tsplit 10 50 > /dev/null
"$REPORT" ts --html ts.html 2> /dev/null
"$REPORT" ts --json > ts.json
browse ts.html > tsdom.html || { cat browser.err; fail "chromium failed (tasks)"; }
got=$(grep -oE '<b>[0-9.]+ %</b><span>wait share' tsdom.html | grep -oE '[0-9.]+' | head -1)
want=$(jq '([.waits.rows[] | select(.region != null) | .total_ns] | add) as $w | ([.waits.rows[] | select(.task_root | not) | .thread_time_ns] | add) as $t
           | 100 * $w / $t * 10 | round / 10' ts.json)
[ "$(jq '[.waits.rows[] | select(.task_root)] | length' ts.json)" -gt 0 ] || fail "the task program has no task rows"
awk -v g="$got" -v w="$want" 'BEGIN { d = g - w; exit !(d < 0.11 && d > -0.11) }' ||
    fail "the header's wait share: $got %, expected $want %"
# A nested region's time on its master is inside the region around it: the wait
# share counts it once. Two outer threads each fork a team of two whose worker
# sleeps 30 ms and whose master 10 ms: the masters wait 2 x 20 ms of the
# threads' 4 x 30 ms, 33 % (read 22 %: the masters' 60 ms counted twice).
cat > nestshare.c <<'C'
#include <omp.h>
#include <stdio.h>
#include <time.h>
static void nap(int ms) { struct timespec t = {0, ms * 1000000L}; nanosleep(&t, NULL); }
int main(void)
{
    omp_set_max_active_levels(2);
    int n = 0;
#pragma omp parallel num_threads(2) reduction(+ : n)
    {
#pragma omp parallel num_threads(2) reduction(+ : n)
        { nap(omp_get_thread_num() ? 30 : 10); n++; }
    }
    printf("%d\n", n);
    return 0;
}
C
"$POMPCC" -fopenmp nestshare.c -o nestshare 2> build.err || { cat build.err; fail "build nestshare.c"; }
OMP_WAIT_POLICY=passive POMP_OMPT=on POMP_OUTPUT_DIR=ns ./nestshare > ns.out
assert_eq "$(cat ns.out)" 4 "nested teams: the program"
"$REPORT" ns --html ns.html 2> /dev/null
"$REPORT" ns --json > ns.json
browse ns.html > nsdom.html || { cat browser.err; fail "chromium failed (nested teams)"; }
got=$(grep -oE '<b>[0-9.]+ %</b><span>wait share' nsdom.html | grep -oE '[0-9.]+' | head -1)
# the waits over the outer region's thread time and the inner workers' shares
# (a late worker lengthens both masters' waits and times: computed, not 33 %)
want=$(python3 - ns.json <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
rows = [r for r in d["waits"]["rows"] if r["node"] is not None]
top = {n["id"] for n in d["callpath"] if n["depth"] == 0}
t = sum(r["thread_time_ns"] for r in rows if r["node"] in top)
t += sum(p.get("share_ns", 0) for n in d["callpath"] if n["id"] in {r["node"] for r in rows} - top
         for p in n["per_thread"])
print(round(100 * sum(r["total_ns"] for r in rows) / t, 1))
PY
)
awk -v g="$got" -v w="$want" 'BEGIN { d = g - w; exit !(d < 0.11 && d > -0.11 && w >= 25 && w <= 45) }' ||
    fail "nested teams: the header's wait share: $got %, expected $want % (about 33: the masters' time in their teams counted once)"
# User values: a row per value under its node, as the text's call-path table
# (the page had none of them)
cat > uvals.c <<'C'
#include <omp.h>
#include <stdio.h>
int main(void)
{
    long n = 1234567;
#pragma omp parallel num_threads(2)
    {
        long big = n + omp_get_thread_num();
#pragma pomp userregion start(big : big)
        big++;
#pragma pomp userregion stop(big : big % 2)
    }
    printf("%ld\n", n);
    return 0;
}
C
"$POMPCC" -fopenmp uvals.c -o uvals 2> build.err || { cat build.err; fail "build uvals.c"; }
POMP_OUTPUT_DIR=uv ./uvals > /dev/null
"$REPORT" uv --html uv.html 2> /dev/null
browse uv.html > uvdom.html || { cat browser.err; fail "chromium failed (user values)"; }
assert_contains uvdom.html '<tr class="values"><td class="name"[^>]*>begin big</td><td colspan="8">count 2   mean 1234567\.5   min 1234567   max 1234568</td></tr>' \
    "user values: the begin value's row"
assert_contains uvdom.html '<tr class="values"><td class="name"[^>]*>end big % 2</td><td colspan="8">count 2   mean 0\.5   min 0   max 1</td></tr>' \
    "user values: the end value's row"
assert_not_contains uvdom.html '<body[^>]*data-error-' "user values: no script error"
# The profile's rows as the text names them: a task construct's creations
# apart from its executions (both read "task"), a runtime region by the
# region it is in (two rows "implicit_barrier parallel -")
assert_contains tsdom.html 'class="row-label">task \(creation\)<' "a task's creations named as the text names them"
assert_contains tsdom.html 'class="row-loc">in parallel @ taskwait_split.c:[0-9]+-[0-9]+<' "a runtime region placed as the text places it"
# The POP metrics of each parallel region, as the text's Efficiency table
"$REPORT" ts > ts.txt
# (the rows, not the notes under them, which are indented)
text_rows=$(sed -n '/^Efficiency/,/^$/p' ts.txt | awk 'NR > 2 && NF >= 7 && !/^  / { print $(NF-3), $(NF-2), $(NF-1), $NF }')
html_rows=$(python3 - tsdom.html <<'PY'
import re, sys
d = open(sys.argv[1]).read()
t = re.search(r'<table id="efficiency".*?</table>', d, re.S).group(0)
for tr in re.findall(r'<tr>(.*?)</tr>', t, re.S)[1:]:
    cells = re.findall(r'<td[^>]*>([^<]*)</td>', tr)
    print(" ".join(cells[-4:]))
PY
)
[ -n "$text_rows" ] || fail "the text has no efficiency rows"
assert_eq "$html_rows" "$text_rows" "the HTML's POP metrics per parallel region, as the text's"

# POMP_PARALLEL=EnterExit records no team member's share: the header says the
# run is not rated, and the page still renders (once it read 'parallel
# efficiency 50 %' for a balanced program)
POMP_PARALLEL=EnterExit POMP_OUTPUT_DIR=ee ./waits > /dev/null
"$REPORT" ee --html ee.html 2> /dev/null
browse ee.html > eedom.html || { cat browser.err; fail "chromium failed (EnterExit)"; }
assert_contains eedom.html '<b>not rated</b><span>parallel efficiency' "EnterExit: the run is not rated in the header"
assert_not_contains eedom.html '<body[^>]*data-error-' "EnterExit: no script error"

# A paused run: the run not rated, its parallel regions rated, as in the text
# and the JSON (the page dropped the whole table)
printf '#include <stdio.h>\nint main(void)\n{\n    int n = 0;\n#pragma pomp inst off\n#pragma omp parallel num_threads(2) reduction(+ : n)\n    n++;\n#pragma pomp inst on\n#pragma omp parallel num_threads(2) reduction(+ : n)\n    n++;\n    printf("%%d\\n", n);\n    return 0;\n}\n' > paused.c
"$POMPCC" -fopenmp paused.c -o paused 2> /dev/null || fail "build paused.c"
POMP_OUTPUT_DIR=paused.d ./paused > /dev/null 2>&1
"$REPORT" paused.d --html paused.html 2> /dev/null
browse paused.html > pauseddom.html || { cat browser.err; fail "chromium failed (paused)"; }
assert_contains pauseddom.html 'data-rendered="efficiency' "a paused run: the efficiency table rendered"
assert_contains pauseddom.html 'not rated: measurement was paused 1 time' "a paused run: the run's row not rated"
assert_contains pauseddom.html '<td class="name">parallel' "a paused run: its parallel region rated"
assert_not_contains pauseddom.html '<body[^>]*data-error-' "a paused run: no script error"

# More parallel regions than the table shows (10): the rest said, as in the
# text (the page dropped them without a word; a probe)
{
    echo '#include <stdio.h>'
    echo 'int main(void)'
    echo '{'
    echo '    int n = 0;'
    for i in $(seq 12); do
        echo '#pragma omp parallel num_threads(2) reduction(+ : n)'
        echo '    n++;'
    done
    echo '    printf("%d\n", n);'
    echo '    return 0;'
    echo '}'
} > twelve.c
"$POMPCC" -fopenmp twelve.c -o twelve 2> build.err || { cat build.err; fail "build twelve.c"; }
POMP_OUTPUT_DIR=twelve.dir ./twelve > twelve.out
assert_eq "$(cat twelve.out)" 24 "twelve regions: the program"
"$REPORT" twelve.dir > twelve.txt
assert_contains twelve.txt '^  \.\.\. 2 more parallel regions in --json$' "twelve regions: the text says the two left out"
"$REPORT" twelve.dir --html twelve.html 2> /dev/null
browse twelve.html > twelvedom.html || { cat browser.err; fail "chromium failed (twelve regions)"; }
assert_contains twelvedom.html '<tr class="note"><td class="name" colspan="8">\.\.\. 2 more parallel regions in pomp-report --json</td></tr>' \
    "twelve regions: the page says the two left out"

# The call-path table's rows read as the text's: a path marked [throttled] where
# its executions went untimed, not by its region (the page read "critical" for
# the text's "critical [throttled]", a critical counted untimed inside a
# throttled region; and "task [throttled]" for a throttled task's timed
# executions, which the text leaves unmarked); the header's regions as the text
# counts them
cp "$HERE/programs/rare_critical.c" rare.c
"$POMPCC" -O2 -fopenmp rare.c -o rare 2> build.err || { cat build.err; fail "build rare.c"; }
assert_eq "$(POMP_OUTPUT_DIR=rare.d ./rare)" 8000 "throttled: the program"
"$REPORT" rare.d > rare.txt
"$REPORT" rare.d --html rare.html 2> /dev/null
browse rare.html > raredom.html || { cat browser.err; fail "chromium failed (throttled)"; }
assert_contains rare.txt "^    critical \[throttled\] " "throttled: the text marks the critical's path"
assert_contains raredom.html '</span>critical \[throttled\]</td>' "throttled: the page marks the critical's path as the text does"
assert_contains raredom.html "<b>$(sed -n '1s/.*, \([0-9]*\) regions\{0,1\}$/\1/p' rare.txt)</b><span>regions</span>" \
    "throttled: the header's regions as the text counts them"

# Without a trace: the timeline says how to get one; the charts still render.
POMP_OUTPUT_DIR=p ./waits > /dev/null
"$REPORT" p --html p.html 2> /dev/null
browse p.html p.png > pdom.html || { cat browser.err; fail "chromium failed"; }
assert_contains pdom.html '<body data-rendered="efficiency profile waits table"' "charts without a timeline"
assert_contains pdom.html 'id="timeline-empty">No trace in this run. Record one with POMP_TRACE=otf2' "empty state of the timeline"
assert_contains pdom.html 'id="flame-empty">No samples in this run. Sample the call paths with POMP_SAMPLING=1ms' "no flame graph without samples"
