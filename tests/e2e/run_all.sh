#!/usr/bin/env bash
# Runs every tests/e2e/test_*.sh; prints one line per test and the totals.
here=$(cd "$(dirname "$0")" && pwd)
passed=0 failed=0
for t in "$here"/test_*.sh; do
    name=$(basename "$t" .sh)
    log=$(mktemp)
    if timeout 300 bash "$t" >"$log" 2>&1; then
        echo "PASS $name"
        passed=$((passed + 1))
    else
        echo "FAIL $name"
        sed 's/^/    /' "$log"
        failed=$((failed + 1))
    fi
    rm -f "$log"
done
echo "e2e: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
