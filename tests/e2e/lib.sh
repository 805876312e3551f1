# Helpers for the end-to-end tests: each test builds real programs with pompcc,
# runs them, and asserts on the program's output and on what pomp recorded.
set -euo pipefail
: "${BUILD:?BUILD must point at the build directory}"
POMPCC="$BUILD/bin/pompcc"
REPORT="$BUILD/bin/pomp-report"
EXAMPLES="$(cd "$(dirname "${BASH_SOURCE[0]}")/../../examples" && pwd)"
LIBOMP_DIR=/usr/lib/llvm-19/lib
E2E_SANITIZE=${E2E_SANITIZE:-}   # set by make sanitize: the sanitizer flags libpomp was built with
export POMP_SUMMARY=off
# The tests run make themselves: nothing of an outer make (-s, variables) leaks in.
unset MAKEFLAGS MFLAGS MAKELEVEL MAKEOVERRIDES

# Under make sanitize: leaks inside LLVM libomp are libomp's, not ours.
[ -n "$E2E_SANITIZE" ] && export LSAN_OPTIONS="suppressions=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/lsan.supp"

WORK=$(mktemp -d /tmp/pomp-e2e-XXXXXX)
[ -n "${E2E_KEEP:-}" ] || trap 'rm -rf "$WORK"' EXIT
cd "$WORK"

fail() { echo "FAIL: $*" >&2; exit 1; }
assert_eq() { [ "$1" = "$2" ] || fail "$3: expected '$2', got '$1'"; }
assert_contains() { grep -qE -- "$2" "$1" || { echo "--- $1:" >&2; cat "$1" >&2; fail "$3: no line matches /$2/"; }; }
assert_not_contains() { ! grep -qE -- "$2" "$1" || { echo "--- $1:" >&2; cat "$1" >&2; fail "$3: a line matches /$2/"; }; }

# line_of FILE TEXT: the first line of FILE containing TEXT
line_of() { grep -nF -- "$2" "$1" | head -1 | cut -d: -f1; }

# Sums over the profile of the regions of a type starting at a line:
#   region_sum DIR TYPE LINE FIELD   (FIELD: visits or begins)
region_sum() {
    jq -r --arg t "$2" --argjson l "$3" --arg f "$4" '
      ([.regions[] | select(.type == $t and .first_line == $l) | .id]) as $ids
      | [.callpath[] | select(.region as $r | $ids | index($r)) | .per_thread[][$f]] | add // 0' \
      "$1/profile.json"
}
# region_threads DIR TYPE LINE: how many threads recorded the region
region_threads() {
    jq -r --arg t "$2" --argjson l "$3" '
      ([.regions[] | select(.type == $t and .first_line == $l) | .id]) as $ids
      | [.callpath[] | select(.region as $r | $ids | index($r)) | .per_thread[].thread] | unique | length' \
      "$1/profile.json"
}
# region_init DIR: the distinct "init" values of the instrumented regions (handle, lazy);
# regions the OMPT bridge made from what the runtime reported ("ompt") are left out
region_init() { jq -r '[.regions[].init | select(. != "ompt")] | unique | join(",")' "$1/profile.json"; }
# pomp_regions DIR: how many regions the instrumentation made (not the OMPT bridge)
pomp_regions() { jq '[.regions[] | select(.init != "ompt")] | length' "$1/profile.json"; }

# The plain build, on the compiler's own runtime: the reference output.
plain_cc() { cc -fopenmp "$@"; }
