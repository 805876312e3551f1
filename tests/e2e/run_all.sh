#!/usr/bin/env bash
# Runs every tests/e2e/test_*.sh; prints one line per test and the totals.
# A test that exits 77 was skipped; its last line says why.
here=$(cd "$(dirname "$0")" && pwd)
passed=0 failed=0 skipped=0
# The tests of what the runtime reports (waits, tasks, chunks, sampling, the
# collector API) run on both runtimes: a GCC build's default, libgomp with the
# libgomp bridge, and LLVM libomp with OMPT (E2E_RUNTIME=omp, lib.sh).
BOTH_RUNTIMES="test_ompt_waits test_ompt_nested test_ompt_control test_constructs_tasks
               test_collector test_sampling test_known_work test_fast_count test_task_numbers
               test_pop_metrics test_nested_shares test_trace_tasks test_overflow_paths
               test_trace_lock_order test_thread_churn test_inst_levels_runtime test_realcode_solver
               test_realcode_octree test_runtime_lock_counts"
run_one() { # TEST-SCRIPT [RUNTIME]
    local t=$1 rt=${2:-} name log rc
    name=$(basename "$t" .sh)${2:+ [$2]}
    log=$(mktemp)
    E2E_RUNTIME=$rt timeout 300 bash "$t" >"$log" 2>&1
    rc=$?
    if [ $rc -eq 0 ]; then
        echo "PASS $name"
        passed=$((passed + 1))
    elif [ $rc -eq 77 ]; then
        echo "SKIP $name: $(tail -1 "$log")"
        skipped=$((skipped + 1))
    else
        echo "FAIL $name"
        sed 's/^/    /' "$log"
        failed=$((failed + 1))
    fi
    rm -f "$log"
}
for t in "$here"/test_*.sh; do
    run_one "$t"
    case " $(echo $BOTH_RUNTIMES) " in
    *" $(basename "$t" .sh) "*) run_one "$t" omp ;;
    esac
done
echo "e2e: $passed passed, $failed failed$([ $skipped -eq 0 ] || echo ", $skipped skipped")"
[ "$failed" -eq 0 ]
