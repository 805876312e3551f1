# A mini-app in the shape of real OpenMP codes (tests/realcode/solver): kernels
# in a header with an #ifdef around a loop's pragma, a barrier under #if,
# recursive quicksort tasks with an if-clause cutoff (168,215 executions a site:
# the default throttle counts them inline), a recursive task reduction from the
# header, a taskloop in a taskgroup, and 1,000 generated parallel regions in a
# file of their own, compiled separately and linked. Built by GCC, on the
# runtime of the test (libgomp, or libomp: E2E_RUNTIME=omp). The program prints
# what the plain build prints, every construct is instrumented, and the profile
# holds the counts the program's own serial replay gives, exactly, with the
# default throttle and with POMP_THROTTLE=off alike.
REAL="$(cd "$(dirname "$0")/../realcode/solver" && pwd)"
source "$(dirname "$0")/lib.sh"
cp "$REAL"/* .
NREGIONS=1000
sh gen_regions.sh $NREGIONS

for src in solver regions; do
    "$POMPCC" --pomp-verbose -O1 -fopenmp -c $src.c -o $src.o 2> $src.err || { cat $src.err; fail "pompcc -c $src.c"; }
    assert_not_contains $src.err ': (warning|error): |without instrumentation' "$src.c: no fallback, no warning"
    assert_contains $src.err "^$src\\.c: note: ([0-9]+) of \\1 OpenMP constructs instrumented" "$src.c: every construct instrumented"
done
assert_contains regions.err "^regions\\.c: note: $NREGIONS of $NREGIONS OpenMP constructs" "regions.c: its $NREGIONS loops"
"$POMPCC" -fopenmp solver.o regions.o -o solver 2> link.err || { cat link.err; fail "pompcc link"; }
plain_cc -O1 solver.c regions.c -o solver_plain

export OMP_NUM_THREADS=2
./solver_plain > plain.out
POMP_OUTPUT_DIR=counted ./solver > counted.out
POMP_THROTTLE=off POMP_OUTPUT_DIR=timed ./solver > timed.out
diff -u plain.out counted.out || fail "the output differs from the plain build's"
diff -u plain.out timed.out || fail "the output differs from the plain build's (POMP_THROTTLE=off)"
assert_contains plain.out '^sorted 1$' "the program sorts"
read -r qs_tasks tsum_tasks < <(sed -n 's/^expect qs_tasks \([0-9]*\) tsum_tasks \([0-9]*\)$/\1 \2/p' plain.out)
[ "${qs_tasks:-0}" -gt 100000 ] && [ "${tsum_tasks:-0}" -gt 1000 ] || fail "the program's replay counts: $(cat plain.out)"

same_path_counts counted timed "the mini-app"

# exact_counts DIR: every site's executions (begins at its task root), creations
# and taskwaits (visits, on whatever path) as the serial replay counts them
exact_counts() {
    python3 - "$1/profile.json" "$qs_tasks" "$tsum_tasks" "$NREGIONS" \
        "$(line_of solver.c 'firstprivate(lo, j)')" "$(line_of solver.c 'firstprivate(i, hi)')" \
        "$(line_of solver.c 'omp taskwait')" \
        "$(line_of solver_kernels.h 'task shared(l)')" "$(line_of solver_kernels.h 'task shared(r)')" \
        "$(line_of solver_kernels.h 'omp taskwait')" "$(line_of solver.c 'omp taskloop')" \
        "$(line_of solver.c 'omp atomic')" "$(line_of solver_kernels.h 'schedule(dynamic')" <<'PY'
import json, sys
p = json.load(open(sys.argv[1]))
qs, ts, nreg, qs1, qs2, qsw, ts1, ts2, tsw, tl, at, loop = map(int, sys.argv[2:])
regions = {r["id"]: r for r in p["regions"]}
def sums(file, typ, line):
    visits = begins = roots = 0
    for c in p["callpath"]:
        r = regions[c["region"]]
        if r["file"] == file and r["type"] == typ and r["first_line"] == line:
            v = sum(t["visits"] for t in c["per_thread"])
            b = sum(t["begins"] for t in c["per_thread"])
            visits += v
            begins += b
            if c["parent"] == 0:
                roots += b
    return visits, begins, roots
bad = []
def want(what, got, expected):
    if got != expected:
        bad.append(f"{what}: {got}, expected {expected}")
for what, f, line, n in (("quicksort task 1", "solver.c", qs1, qs), ("quicksort task 2", "solver.c", qs2, qs),
                         ("tsum task 1", "solver_kernels.h", ts1, ts), ("tsum task 2", "solver_kernels.h", ts2, ts)):
    v, b, roots = sums(f, "task", line)
    want(what + " creations", v, n)
    want(what + " executions", b, n)
    want(what + " executions at its task root", roots, n)
want("quicksort taskwaits", sums("solver.c", "taskwait", qsw)[0], qs)
want("tsum taskwaits", sums("solver_kernels.h", "taskwait", tsw)[0], ts)
want("taskloop task creations", sums("solver.c", "task_create", tl)[0], 200)
want("taskloop task executions", sums("solver.c", "task", tl)[1], 200)
want("atomics in the taskloop", sums("solver.c", "atomic", at)[0], 200000)
want("the header's orphaned loop, 20 steps x 2 threads", sums("solver_kernels.h", "for", loop)[0], 40)
gen = [r for r in p["regions"] if r["file"] == "regions.c" and r["type"] == "parallel"]
want("generated parallel regions", len(gen), nreg)
ran = {c["region"] for c in p["callpath"] if sum(t["begins"] for t in c["per_thread"]) == 2}
want("generated parallel regions run once by 2 threads", sum(1 for r in gen if r["id"] in ran), nreg)
if bad:
    print("\n".join(bad))
    sys.exit(1)
PY
}
exact_counts counted || fail "throttled run: the counts above differ from the program's"
exact_counts timed || fail "POMP_THROTTLE=off: the counts above differ from the program's"
for d in counted timed; do
    "$REPORT" --check $d > $d.check || { cat $d.check; fail "$d: pomp-report --check"; }
done
"$REPORT" counted > report.txt
assert_not_contains report.txt 'did not fit|<overflow>' "nothing lost"
