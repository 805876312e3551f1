#!/usr/bin/env bash
# Runs every tests/e2e/test_*.sh; prints one line per test and the totals.
# A test that exits 77 was skipped; its last line says why.
here=$(cd "$(dirname "$0")" && pwd)
passed=0 failed=0 skipped=0
for t in "$here"/test_*.sh; do
    name=$(basename "$t" .sh)
    log=$(mktemp)
    timeout 300 bash "$t" >"$log" 2>&1
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
done
echo "e2e: $passed passed, $failed failed$([ $skipped -eq 0 ] || echo ", $skipped skipped")"
[ "$failed" -eq 0 ]
