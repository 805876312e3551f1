# A lock's acquisitions in the OTF2 trace never come before the previous
# holder's release: the clock is read after the acquisition completed
# (pomp_clock_settle). rdtsc alone runs ahead of the load that found the lock
# free, and a run of this program showed, in 1 run in 3, up to 400 acquisitions
# of a critical or lock up to 1,300 ticks (0.5 us) before the release of the
# thread that held it: two threads inside one critical region.
HERE=$(cd "$(dirname "$0")" && pwd)
source "$HERE/lib.sh"
command -v otf2-print > /dev/null || { echo "otf2-print not found"; exit 77; }

"$POMPCC" -fopenmp -O2 "$HERE/programs/lock_handoff.c" -o handoff 2> build.err ||
    { cat build.err >&2; fail "build"; }

# overlaps FILE.otf2: "N MAX", the acquisitions (by their order) that come
# before the release of the acquisition before them, and the largest such gap
overlaps() {
    otf2-print "$1" | awk '
      /^THREAD_(ACQUIRE|RELEASE)_LOCK/ {
        s = $0; sub(/.*Lock: /, "", s); split(s, f, /, Acquisition Order: /)
        key = f[1] SUBSEP f[2]
        if ($1 == "THREAD_ACQUIRE_LOCK") acq[key] = $3; else rel[key] = $3
      }
      END {
        for (key in acq) {
          split(key, f, SUBSEP); prev = f[1] SUBSEP (f[2] - 1)
          if ((prev in rel) && acq[key] < rel[prev]) { n++; d = rel[prev] - acq[key]; if (d > m) m = d }
        }
        printf "%d %d\n", n + 0, m + 0
      }'
}

# The overlap needs the two threads on two CPUs at the moment of a handoff:
# several runs (each about 1.2 million trace records; the critical unthrottled,
# so that each of its acquisitions is in the trace).
for run in 1 2 3 4 5 6 7 8; do
    rm -rf "t$run"
    OMP_NUM_THREADS=2 POMP_THROTTLE=off POMP_TRACE=otf2 POMP_OUTPUT_DIR="t$run" ./handoff > "t$run.out"
    assert_eq "$(cat "t$run.out")" "200000 200000" "run $run: program output while tracing"
    assert_eq "$(otf2_count "t$run/traces.otf2" THREAD_ACQUIRE_LOCK)" 400000 \
        "run $run: every acquisition of the critical and the lock in the trace"
    assert_eq "$(overlaps "t$run/traces.otf2")" "0 0" \
        "run $run: acquisitions before the previous holder's release (count, most ticks)"
    rm -rf "t$run"
done
echo "PASS test_trace_lock_order"
