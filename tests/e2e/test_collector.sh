# The example collector of examples/collector (seed 003 §5), preloaded into a
# program built with pompcc: it starts a session through __omp_collector_api,
# records every fork with its region ids and the master's call stack, and
# samples the threads' OpenMP states from a signal handler.
source "$(dirname "$0")/lib.sh"
[ -n "$E2E_SANITIZE" ] && exit 0 # a preloaded library cannot come before ASan's runtime
mkdir -p out
POMP_SUMMARY=off BUILD="$BUILD" POMPCC="$POMPCC" "$EXAMPLES/collector/run_collector.sh" "$PWD/out" > app.txt 2> collector.txt \
    || { cat collector.txt; fail "the example collector's run"; }
assert_eq "$(cat app.txt)" "done 1" "the program's own output"
# 3 outer regions, then one with a nested region on each of its 2 threads
assert_contains collector.txt '^collector: 6 forks \(2 nested, 0 not kept\)$' "every fork, nested ones with a parent region"
assert_contains collector.txt '^collector: fork of region 1 \(parent 0\), master.s call stack:$' "the first region's id"
assert_contains collector.txt '\(main\+0x[0-9a-f]+\)' "the master's call stack reaches main"
assert_contains collector.txt '^collector: +[0-9]+ samples work$' "work samples"
# (whether the waiting thread spins long enough to be sampled in its barrier
# depends on the machine's load: not asserted)
read -r work wait inregion total < <(sed -n 's/^collector: OpenMP Work \([0-9]*\), OpenMP Wait \([0-9]*\), in a parallel region \([0-9]*\), total \([0-9]*\) samples$/\1 \2 \3 \4/p' collector.txt)
[ -n "${total:-}" ] || fail "no Work/Wait line: $(cat collector.txt)"
assert_eq "$((work + wait))" "$total" "Work and Wait add up to every sample"
[ "$inregion" -gt 0 ] || fail "no sample with a region id (CURRENT_PRID from the signal handler)"

# A program without libpomp has no collector API: the collector says so, the program runs.
cat > plain.c <<'C'
#include <stdio.h>
int main(void) { puts("plain"); return 0; }
C
cc plain.c -o plain
assert_eq "$(LD_PRELOAD=$PWD/out/libcollector.so ./plain 2> none.txt)" "plain" "plain program output"
assert_contains none.txt 'has no __omp_collector_api' "no collector API outside pomp"
