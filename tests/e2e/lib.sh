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
# The sampling signal and ASan's record of __tls_get_addr blocks do not mix
# (libpomp says so when sampling an ASan build; docs/sampling.md).
[ -n "$E2E_SANITIZE" ] && export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}intercept_tls_get_addr=0"

WORK=$(mktemp -d /tmp/pomp-e2e-XXXXXX)

# nesting_errors_none PROFILE: no thread of the profile counted an end or exit
# that matched no open region. --check does not ask it (a program's own POMP
# calls may be unmatched: the profile says so truly), but in a test's pompcc
# builds and runtime reports every event pairs, so one is pomp's bug. A test
# that makes them on purpose leaves .nesting-errors-expected beside the profile
# (or in $WORK: every profile of the test).
nesting_errors_none() {
    local n
    n=$(python3 -c 'import json,sys; print(sum(t.get("nesting_errors", 0) for t in json.load(open(sys.argv[1])).get("threads", [])))' "$1" 2>/dev/null) || return 0
    [ "$n" = 0 ] && return 0
    echo "FAIL: $1: $n nesting errors (end/exit events that matched no open region)" >&2
    return 1
}

# At the end of a test that passed, every profile its programs wrote must hold
# pomp-report --check's invariants (a directory with a file .broken-on-purpose
# holds one a test damaged itself). A profile that says something impossible
# fails the test that made it.
check_every_profile() {
    local rc=$? f bad=0
    if [ $rc -eq 0 ] && [ -x "$REPORT" ]; then
        while IFS= read -r f; do
            [ -e "$(dirname "$f")/.broken-on-purpose" ] && continue
            "$REPORT" --check "$f" >/dev/null 2>"$WORK/.check.err" || { cat "$WORK/.check.err" >&2; bad=1; }
            [ -e "$(dirname "$f")/.nesting-errors-expected" ] || [ -e "$WORK/.nesting-errors-expected" ] ||
                nesting_errors_none "$f" || bad=1
        done < <(find "$WORK" -name profile.json)
        [ $bad -eq 0 ] || { echo "FAIL: a profile the test wrote breaks pomp-report --check or counts nesting errors" >&2; rc=1; }
    fi
    [ -n "${E2E_KEEP:-}" ] || rm -rf "$WORK"
    exit $rc
}
trap check_every_profile EXIT
cd "$WORK"

# E2E_RUNTIME=omp|gomp: every pompcc build of the test on that runtime
# (run_all.sh runs the tests of runtime events on both; docs/gomp.md)
if [ -n "${E2E_RUNTIME:-}" ]; then
    printf '#!/bin/sh\nexec "%s" --pomp-runtime=%s "$@"\n' "$POMPCC" "$E2E_RUNTIME" > "$WORK/.pompcc"
    chmod +x "$WORK/.pompcc"
    POMPCC="$WORK/.pompcc"
fi

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
# The visits and begins of every call path of DIR's profile (a path named by its
# regions' types and first lines), summed over threads: a line per path. With
# "bound", a task root's name ends with the path of the team it ran in
# ("@" and its binding's name): a construct's executions in two teams apart.
path_counts() { # DIR [bound]
    python3 - "$1/profile.json" "${2:-}" <<'PY'
import json, sys
p = json.load(open(sys.argv[1]))
bound = sys.argv[2] == "bound"
regions = {r["id"]: f'{r["type"]}:{r["first_line"]}' for r in p["regions"]}
nodes = {c["id"]: c for c in p["callpath"]}
def name(c):
    parts = []
    while c:
        part = regions.get(c["region"], "?")
        if bound and c.get("binding") in nodes:
            part += "@" + name(nodes[c["binding"]])
        parts.append(part)
        c = nodes.get(c["parent"])
    return "/".join(reversed(parts))
sums = {}
for c in p["callpath"]:
    v = sums.setdefault(name(c), [0, 0])
    for t in c["per_thread"]:
        v[0] += t["visits"]
        v[1] += t["begins"]
for k in sorted(sums):
    print(k, *sums[k])
PY
}
# same_path_counts COUNTED TIMED WHAT: the two profiles hold the same call
# paths (task roots apart by team) with the same visits and begins (a
# throttled run's inline counts and the timed run's, POMP_THROTTLE=off);
# their path_counts are left in DIR.paths
same_path_counts() {
    path_counts "$1" bound > "$1.paths"
    path_counts "$2" bound > "$2.paths"
    diff "$2.paths" "$1.paths" > "$1.paths.diff" ||
        { cat "$1.paths.diff" >&2; fail "$3: counts differ from the timed ones, path by path"; }
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
# regions_where DIR JQ-CONDITION: how many regions of DIR's profile satisfy it
regions_where() { jq "[.regions[] | select($2)] | length" "$1/profile.json"; }
pomp_regions() { jq '[.regions[] | select(.init != "ompt")] | length' "$1/profile.json"; }

# The plain build, on the compiler's own runtime: the reference output.
plain_cc() { cc -fopenmp "$@"; }

# ---- traces ----
# otf2_nesting FILE.otf2: otf2-print's events, every LEAVE closing the region
# of the innermost open ENTER on its location, nothing left open, and times
# not going back on a location. Prints the number of ENTER events.
otf2_nesting() {
    otf2-print "$1" | awk '
      $1 == "ENTER" || $1 == "LEAVE" {
        loc = $2; t = $3; r = $0; sub(/.*Region: /, "", r)
        if (t < last[loc]) { print "time goes back on location " loc ": " $0; bad = 1 }
        last[loc] = t
        if ($1 == "ENTER") { stack[loc, ++depth[loc]] = r; enters++ }
        else if (depth[loc] == 0 || stack[loc, depth[loc]] != r) { print "bad LEAVE: " $0; bad = 1 }
        else depth[loc]--
      }
      END { for (l in depth) if (depth[l]) { print "location " l " leaves " depth[l] " open"; bad = 1 }
            if (bad) exit 1; print enters + 0 }'
}
# otf2_count FILE.otf2 EVENT [REGION-TEXT]: how many events of a kind (on a region)
otf2_count() {
    otf2-print "$1" | awk -v e="$2" -v r="${3:-}" '$1 == e && index($0, r) { n++ } END { print n + 0 }'
}
# otf2_role FILE.otf2 REGION-NAME: the role of the region definition of that name
otf2_role() {
    otf2-print -G "$1" | awk -v n="\"$2\"" '$1 == "REGION" && index($0, "Name: " n) {
        sub(/.*Role: /, ""); sub(/,.*/, ""); print; exit }'
}
# chrome_check FILE.json: valid JSON, per thread B/E well nested with times
# that never go back, every B named and given a category. Prints the B count.
chrome_check() {
    jq -e -r '
      reduce (.traceEvents[] | select(.ph == "B" or .ph == "E")) as $e
        ({depth: {}, last: {}, ok: true, n: 0};
         ($e.tid | tostring) as $t
         | if ($e.ts < (.last[$t] // 0)) then .ok = false else . end
         | .last[$t] = $e.ts
         | if $e.ph == "B" then
             .depth[$t] = ((.depth[$t] // 0) + 1) | .n += 1
             | if (($e.name // "") == "" or ($e.cat // "") == "") then .ok = false else . end
           else
             .depth[$t] = ((.depth[$t] // 0) - 1)
             | if .depth[$t] < 0 then .ok = false else . end
           end)
      | if .ok and ([.depth[]] | all(. == 0)) then .n else error("B/E not well nested") end' "$1"
}

# ---- HTML ----
# require_chromium WHAT: sets CHROMIUM, or skips the test (exit 77) saying WHAT
# is not checked when Chromium is not installed.
require_chromium() {
    CHROMIUM=$(command -v chromium || command -v chromium-browser || true)
    [ -n "$CHROMIUM" ] && return 0
    echo "chromium is not installed (make deps installs the Debian package): $1 not checked in a browser"
    exit 77
}
# browse PAGE [PNG [HEIGHT]]: the DOM of WORK/PAGE after its scripts ran (headless
# Chromium, 1280 x HEIGHT pixels, default 1400), and a screenshot to PNG if given;
# Chromium's messages go to browser.err.
browse() {
    HOME="$WORK" timeout 60 "$CHROMIUM" --headless --no-sandbox --disable-gpu --hide-scrollbars \
        --no-first-run --disable-extensions --window-size=1280,"${3:-1400}" \
        ${2:+--screenshot="$2"} --dump-dom "file://$WORK/$1" 2> browser.err
}
