# A Barnes-Hut style octree in the shape of real C++ OpenMP codes
# (tests/realcode/octree): the task kernels are templates in a header
# (instantiated for double and float), a recursive build with an if() cutoff
# (120,103 task executions: the default throttle counts them inline), a
# centre-of-mass pass with a final() cutoff, a traversal in a taskgroup whose
# tasks call a lambda, per-level reductions chained by depend clauses, a
# named critical, an atomic, taskwaits at each level, and a parallel loop over
# the leaves whose schedule an #ifdef picks. Built by g++ through pompc++, on
# the runtime of the test (libgomp, or libomp: E2E_RUNTIME=omp). The program
# prints what the plain build prints, every construct is instrumented, and the
# profile holds the counts the program's own serial replay gives, exactly,
# with the default throttle and with POMP_THROTTLE=off alike, path by path.
REAL="$(cd "$(dirname "$0")/../realcode/octree" && pwd)"
source "$(dirname "$0")/lib.sh"
cp "$REAL"/* .
POMPCXX=("$BUILD/bin/pompc++" ${E2E_RUNTIME:+--pomp-runtime=$E2E_RUNTIME})

"${POMPCXX[@]}" --pomp-verbose -std=c++17 -O2 -fopenmp octree.cpp -o octree 2> octree.err || { cat octree.err; fail "pompc++ octree.cpp"; }
assert_not_contains octree.err ': (warning|error): |warning:|without instrumentation|did not compile' "no fallback, no warning"
for f in octree.cpp octree_tasks.hpp; do
    assert_contains octree.err "^$f: note: ([0-9]+) of \\1 OpenMP constructs instrumented" "$f: every construct instrumented"
done
assert_contains octree.err '^octree_tasks\.hpp: note: 11 of 11 OpenMP' "the header's 11 constructs"
assert_contains octree.err '^octree\.cpp: note: 3 of 3 OpenMP' "the driver's 3 constructs"
if [ "${E2E_RUNTIME:-}" = omp ]; then
    ldd octree | grep 'libomp\.so' > /dev/null || fail "--pomp-runtime=omp: not linked with LLVM libomp: $(ldd octree | grep -i omp)"
fi
g++ -std=c++17 -O2 -fopenmp octree.cpp -o octree_plain

export OMP_NUM_THREADS=2
./octree_plain > plain.out
POMP_OUTPUT_DIR=counted ./octree > counted.out || fail "the instrumented program failed"
POMP_THROTTLE=off POMP_OUTPUT_DIR=timed ./octree > timed.out || fail "the instrumented program failed (POMP_THROTTLE=off)"
diff -u plain.out counted.out || fail "the output differs from the plain build's"
diff -u plain.out timed.out || fail "the output differs from the plain build's (POMP_THROTTLE=off)"
cnt() { sed -n "s/^count $1 \\([0-9]*\\)\$/\\1/p" plain.out; }
[ "$(cnt task_build)" -gt 100000 ] && [ "$(cnt task_traverse)" -gt 100000 ] && [ "$(cnt critical_leaf)" -gt 100000 ] ||
    fail "the program's replay counts: $(cat plain.out)"

for d in counted timed; do
    "$REPORT" --check $d > $d.check 2>&1 || { cat $d.check; fail "$d: pomp-report --check"; }
done
same_path_counts counted timed "the octree"

# exact_counts DIR: every site's creations (visits) and executions (begins, at
# its task root), taskwaits, the critical, the atomic, as the replay counts them
H=octree_tasks.hpp
exact_counts() {
    python3 - "$1/profile.json" \
        "build:task:$(line_of $H 'if(c->hi - c->lo > kIfCutoff)'):$(cnt task_build)" \
        "mass:task:$(line_of $H 'final(n->depth >= kFinalDepth)'):$(cnt task_mass)" \
        "traverse:task:$(line_of $H 'firstprivate(c, visit)'):$(cnt task_traverse)" \
        "prefix:task:$(line_of $H 'depend(out: prefix[l + 1])'):$(cnt task_prefix)" \
        "wsum:task:$(line_of $H 'depend(inout: wsum)'):$(cnt task_wsum)" \
        "build taskwait:taskwait:$(sed -n '/^void build(/,/^}/{/omp taskwait/=}' $H):$(cnt taskwait_build)" \
        "mass taskwait:taskwait:$(sed -n '/^void mass(/,/^}/{/omp taskwait/=}' $H):$(cnt taskwait_mass)" \
        "chain taskwait:taskwait:$(sed -n '/^long level_chain(/,/^}/{/omp taskwait/=}' $H):$(cnt taskwait_chain)" \
        "critical leaf_list:critical:$(line_of $H 'critical(leaf_list)'):$(cnt critical_leaf)" \
        "atomic:atomic:$(line_of $H 'omp atomic'):$(cnt atomic_level)" \
        "leaf loop, 2 threads:for:$(line_of $H 'schedule(dynamic, 16)'):$(($(cnt leaf_loop) * 2))" \
        "taskgroup:taskgroup:$(line_of octree.cpp 'omp taskgroup'):$(cnt taskgroup)" \
        "single:single:$(line_of octree.cpp 'omp single'):$(cnt single)" \
        "parallel:parallel:$(line_of octree.cpp 'omp parallel'):$(cnt parallel)" <<'PY'
import json, sys
p = json.load(open(sys.argv[1]))
regions = {r["id"]: r for r in p["regions"]}
def sums(typ, line):
    visits = begins = roots = 0
    for c in p["callpath"]:
        r = regions[c["region"]]
        if r["type"] == typ and r["first_line"] == line and r.get("init") != "ompt":
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
for arg in sys.argv[2:]:
    what, typ, line, n = arg.split(":")
    line, n = int(line), int(n)
    v, b, roots = sums(typ, line)
    if typ == "task":
        want(what + " task creations", v, n)
        want(what + " task executions", b, n)
        want(what + " task executions at its task root", roots, n)
    elif typ == "critical":
        want(what + " enters", v, n)
        want(what + " blocks", b, n)
    elif typ in ("taskwait", "atomic", "taskgroup", "for"):
        want(what + " visits", v, n)
    elif typ == "single":
        want(what + " visits (2 threads)", v, 2 * n)
        want(what + " blocks", b, n)
    elif typ == "parallel":
        want(what + " forks", v, n)
        want(what + " shares (2 threads)", b, 2 * n)
if bad:
    print("\n".join(bad))
    sys.exit(1)
PY
}
exact_counts counted || fail "throttled run: the counts above differ from the program's replay"
exact_counts timed || fail "POMP_THROTTLE=off: the counts above differ from the program's replay"

# the report: nothing lost, no negative time, no share above 100 %, and where
# it says that throttled waits went untimed, the own time it names as holding
# them (an upper bound of their time, docs/output.md) is not nil
for d in counted timed; do
    "$REPORT" $d > $d.report
    assert_not_contains $d.report 'did not fit|<overflow>' "$d: nothing lost"
    assert_not_contains $d.report '(^| )-[0-9]+\.[0-9]' "$d: no negative number"
    over=$(grep -oE '[0-9]+\.[0-9]+ ?%' $d.report | tr -d ' %' | awk '$1 > 100.05' | head -1)
    [ -z "$over" ] || fail "$d: a share of $over %: $(grep -F "$over" $d.report | head -3)"
    "$REPORT" --json $d > $d.report.json
    read -r ue uo < <(jq -r '.efficiency.run | "\(.untimed_wait_executions // 0) \(.untimed_wait_enclosing_own_ns // 0)"' $d.report.json)
    if [ "${ue:-0}" -gt 0 ] && [ "${uo%.*}" -le 0 ]; then
        grep 'waits not measured' $d.report >&2
        fail "$d: $ue untimed critical executions, yet the own time said to hold them is $uo ns (pomp-report: a throttled critical in a throttled task root)"
    fi
    # ... and no more than the threads' whole time (own times counted once)
    most=$(jq '.duration_ns * (.threads | length)' $d/profile.json)
    awk -v u="${uo:-0}" -v m="$most" 'BEGIN { exit !(u <= m) }' ||
        fail "$d: the own time said to hold the untimed waits, $uo ns, is more than the threads' $most ns"
done
assert_eq "$(cnt parallel)" 2 "two runs of the driver"
