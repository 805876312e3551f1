# Helpers for the construct tests (test_constructs_*.sh), on top of lib.sh:
# the event log joined with the regions, and expected event counts per construct.

# The instrumenter's own events, counted exactly: the OMPT bridge's (implicit
# barriers, waits) are tested in test_ompt_*.sh.
export POMP_OMPT=off

# events DIR: one line per event, "thread event type first_line" (blanks in a type become _)
events() {
    awk 'NR == FNR { type[$1] = $2; line[$1] = $3; next }
         /^#/ { next }
         { print $1, $3, type[$4], line[$4] }' \
        <(jq -r '.regions[] | "\(.id) \(.type | gsub(" "; "_")) \(.first_line)"' "$1/profile.json") \
        "$1/events.log"
}

# expect_events DIR SOURCE THREADS < spec
# Each spec line is "COUNT EVENT TYPE MARKER": COUNT events EVENT of the region
# of TYPE on the line of SOURCE that holds MARKER (a comment at the pragma).
# COUNT may use T, the number of threads ("2*T"). Every event of the log must be
# expected: the total must match too, so nothing is recorded where it should not be.
expect_events() {
    local dir=$1 src=$2 T=$3 total=0 count event type marker line got
    events "$dir" > "$dir/events.txt"
    while read -r count event type marker; do
        [ -n "$count" ] && [ "${count:0:1}" != "#" ] || continue
        count=$(( ${count//T/$T} ))
        line=$(line_of "$src" "$marker")
        [ -n "$line" ] || fail "no line with $marker in $src"
        got=$(awk -v e="$event" -v t="$type" -v l="$line" '$2 == e && $3 == t && $4 == l' "$dir/events.txt" | wc -l)
        assert_eq "$got" "$count" "$dir: $event of $type at $src:$line ($marker)"
        total=$((total + count))
    done
    assert_eq "$(wc -l < "$dir/events.txt")" "$total" "$dir: events in all (unexpected events recorded)"
    assert_eq "$(jq '[.threads[].nesting_errors] | add' "$dir/profile.json")" 0 "$dir: nesting errors"
}

# thread_events DIR THREAD: the events of one thread, "event:type" separated by blanks
thread_events() {
    awk -v t="$2" '$1 == t { printf "%s:%s ", $2, $3 }' "$1/events.txt"
}

# build_and_compare SOURCE BINARY [pompcc flags]: the instrumented program and the
# plain one (cc -fopenmp on libgomp) print the same with 1 and 4 threads; the
# instrumented runs write their event logs to BINARY.1 and BINARY.4.
build_and_compare() {
    local src=$1 bin=$2 n
    shift 2
    "$POMPCC" -fopenmp "$@" "$src" -o "$bin" 2> "$bin.build" || { cat "$bin.build"; fail "pompcc $src"; }
    ! grep -q "without instrumentation" "$bin.build" || { cat "$bin.build"; fail "$src was not instrumented"; }
    plain_cc "$src" -o "$bin.plain"
    for n in 1 4; do
        OMP_NUM_THREADS=$n POMP_TRACE=events POMP_OUTPUT_DIR="$bin.$n" "./$bin" > "$bin.out$n"
        OMP_NUM_THREADS=$n "./$bin.plain" > "$bin.plain$n"
        diff -u "$bin.plain$n" "$bin.out$n" || fail "$src: output with $n threads differs from the plain build"
    done
}
