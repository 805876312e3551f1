#!/usr/bin/env bash
# The load balance of a nested parallel region whose thread records hold
# shares of different teams (docs/output.md, "Efficiency"): two outer threads
# each fork an inner team of two three times; outer thread 0's teams work
# 15 ms (master) and 25 ms (worker) a share, outer thread 1's 35 and 45 ms.
# The four places' work is 45, 75, 105 and 135 ms: load balance and parallel
# efficiency 66.7 %. A worker record may hold more shares than a master
# forked (LLVM libomp's pool hands a worker from one master's team to the
# other's; libgomp's fresh threads hand one record on): a record of 4 shares
# (three of 25 ms, one of 45) and one of 2 (both 45 ms) is what LLVM libomp
# made of this program. Such records were the member of the most, the
# masters scaled up to 4 shares each and the 2-share record cut to the
# masters' mean team (142.6 ms): 80.3 % load balance for 66.7 (a probe).
NUMBERS="$(cd "$(dirname "$0")" && pwd)/numbers"
source "$(dirname "$0")/lib.sh"

within1() { # GOT EXPECTED WHAT (percentages)
    awk -v g="$1" -v e="$2" 'BEGIN { d = g - e; if (d < 0) d = -d; exit !(d <= 1) }' ||
        fail "$3: $1 %, expected $2 % (within 1 point)"
}

# The profile LLVM libomp's run made, in round numbers (ms)
mkdir pooled
python3 - pooled/profile.json <<'PY'
import json, sys
ms = lambda x: int(round(x * 1e6))
def entry(th, visits, begins, incl, excl, lo, hi, body=None, share=False):
    e = {"thread": th, "visits": visits, "begins": begins, "incl_ns": ms(incl), "excl_ns": ms(excl),
         "min_ns": ms(lo), "max_ns": ms(hi), "body_ns": ms(incl if body is None else body)}
    if share:
        e["share_ns"] = ms(incl)
    return e
regions = [
    {"id": 1, "type": "parallel", "name": "", "file": "nest.c", "first_line": 8, "last_line": 18, "init": "handle"},
    {"id": 2, "type": "parallel", "name": "", "file": "nest.c", "first_line": 11, "last_line": 16, "init": "handle"},
    {"id": 3, "type": "barrier", "name": "", "file": "nest.c", "first_line": 14, "last_line": 14, "init": "handle"},
    {"id": 4, "type": "implicit_barrier", "name": "parallel", "file": "", "first_line": 0, "last_line": 0, "init": "ompt"},
]
threads = [{"index": i, "omp_thread_num": int(i > 0), "os_tid": 100 + i, "start_ns": ms(0.1 * i),
            "end_ns": ms(136), "nesting_errors": 0, "dropped_paths": 0, "dropped_events": 0,
            "dropped_values": 0, "deep_events": 0, "untimed_events": 0, "open_at_end": 0,
            "max_nodes": 1048576} for i in range(4)]
callpath = [
    {"id": 1, "parent": 0, "region": 1, "per_thread": [
        entry(0, 1, 1, 135.2, 0.2, 135.2, 135.2, body=135.0),
        entry(1, 0, 1, 135.0, 0.0, 135.0, 135.0, share=True)]},
    {"id": 2, "parent": 1, "region": 4, "per_thread": [
        entry(0, 1, 0, 60, 60, 60, 60, body=0), entry(1, 1, 0, 0, 0, 0, 0, body=0)]},
    {"id": 3, "parent": 1, "region": 2, "per_thread": [
        entry(0, 3, 3, 75, 45, 25, 25), entry(1, 3, 3, 135, 105, 45, 45),
        entry(2, 0, 4, 120, 120, 25, 45, share=True), entry(3, 0, 2, 90, 90, 45, 45, share=True)]},
    {"id": 4, "parent": 3, "region": 3, "per_thread": [
        entry(0, 3, 0, 30, 30, 10, 10, body=0), entry(1, 3, 0, 30, 30, 10, 10, body=0),
        entry(2, 4, 0, 0, 0, 0, 0, body=0), entry(3, 2, 0, 0, 0, 0, 0, body=0)]},
]
json.dump({"format": "pomp-profile", "version": 1, "minor_version": 5, "program": "nest", "pid": 100,
           "clock": {"source": "clock_gettime", "ticks_per_ns": 1.0}, "duration_ns": ms(136),
           "levels": {"parallel": "BeginEnd", "loop": "EnterExit", "workshare": "BeginEnd",
                      "sync": "BeginEnd", "user": "BeginEnd", "runtime": "EnterExit",
                      "task": "BeginEnd", "target": "BeginEnd"},
           "regions": regions, "threads": threads, "callpath": callpath}, open(sys.argv[1], "w"))
PY
"$REPORT" --check pooled > check.txt || { cat check.txt; fail "the pooled workers' profile: --check"; }
"$REPORT" --json pooled > pooled.json
inner=$(jq '[.efficiency.parallel_regions[] | select(.location == "nest.c:11-16")][0]' pooled.json)
within1 "$(jq '.load_balance_pct' <<<"$inner")" 66.7 "pooled workers: the inner region's load balance"
within1 "$(jq '.parallel_efficiency_pct' <<<"$inner")" 66.7 "pooled workers: the inner region's parallel efficiency"
within1 "$(jq '.synchronisation_efficiency_pct' <<<"$inner")" 100 "pooled workers: the critical place never waits"
outer=$(jq '[.efficiency.parallel_regions[] | select(.location == "nest.c:8-18")][0]' pooled.json)
# the outer threads' useful time: 75 - 30 and 135 - 30 ms
within1 "$(jq '.load_balance_pct' <<<"$outer")" 71.4 "pooled workers: the outer region's load balance"

# The program itself, on the test's runtime: whatever records the runtime's
# threads make, each is compared by its work per share, the 15, 25, 35 or
# 45 ms of its teams, against a member of the masters' 3 shares
cat > nest.c <<'C'
#include <omp.h>
#include <stdio.h>
#include "work.h" /* tests/e2e/numbers: sleep_ms */
int main(void)
{
    omp_set_max_active_levels(2);
#pragma omp parallel num_threads(2)
    {
        int o = omp_get_thread_num();
        for (int rep = 0; rep < 3; rep++) {
#pragma omp parallel num_threads(2)
            {
                sleep_ms(10 * (1 + omp_get_thread_num()) + 20 * o);
#pragma omp barrier
                sleep_ms(5);
            }
        }
    }
    printf("done\n");
    return 0;
}
C
"$POMPCC" -O2 -fopenmp -I"$NUMBERS" nest.c -o nest 2>build.err || { cat build.err; fail "build nest.c"; }
OMP_WAIT_POLICY=passive POMP_OUTPUT_DIR=live ./nest > run.txt
assert_contains run.txt "^done$" "nest: the program ran"
"$REPORT" --check live > check.txt || { cat check.txt; fail "nest: --check"; }
line=$(grep -n 'parallel num_threads(2)$' nest.c | tail -1 | cut -d: -f1)
lb=$("$REPORT" --json live | jq --arg l "$line" '[.efficiency.parallel_regions[] | select(.location | test(":" + $l + "-"))][0].load_balance_pct')
# per share: the mean is 30 ms; the most, 45 (a record of outer thread 1's
# workers only) down to 35.x (outer thread 1, the master): 66.7 to 85.7 %
python3 - live/profile.json "$lb" "$line" <<'PY' || fail "nest: the inner region's load balance $lb %, against its records' work per share"
import json, sys
p = json.load(open(sys.argv[1]))
types = {r["id"]: r for r in p["regions"]}
inner = [n for n in p["callpath"] if types[n["region"]]["type"] == "parallel" and types[n["region"]]["first_line"] == int(sys.argv[3])][0]
waits = {}
for n in p["callpath"]:
    if n["parent"] == inner["id"] and types[n["region"]]["type"] in ("barrier", "implicit_barrier"):
        for t in n["per_thread"]:
            waits[t["thread"]] = waits.get(t["thread"], 0) + t["excl_ns"]
rates, total, shares = [], 0, 0
for t in inner["per_thread"]:
    s = max(t["visits"], t["begins"])
    body = t["body_ns"] if t["visits"] else t["incl_ns"]  # a master's share: its block
    u = body - waits.get(t["thread"], 0)
    rates.append(u / s); total += u; shares += s
expected = 100 * total / shares / max(rates)
got = float(sys.argv[2])
print(f"inner load balance {got} %, per share {expected:.1f} %")
sys.exit(abs(got - expected) > 2)
PY
echo "PASS: test_nested_shares"
