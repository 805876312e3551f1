# make bench, part 8: ten million tiny atomic or critical updates per thread in
# one parallel region (tests/e2e/numbers/tiny.c, the shape of a molecular
# dynamics force loop): pompcc's default build (the critical throttled after
# 10,000 executions under 1 us each or 100,000 under 10 us, POMP_THROTTLE, the atomic counted inline
# from its first execution) and with throttling off, against
# the plain build, on libgomp (pompcc's default for GCC) and on LLVM libomp
# (--pomp-runtime=omp). Whole-process wall time: pomp's start and end included.
# Sourced by bench/run.sh (uses OUT, WORK, REPS, QUICK, LIBOMP_DIR, record, say).

tiny_part() {
    local d=$WORK/tiny src=$here/../tests/e2e/numbers/tiny.c
    mkdir -p "$d"
    local n=10000000
    [ "$QUICK" = 1 ] && n=2000000
    build_on_both_runtimes "$src" "$d"
    record "#section|tiny|ms wall time|$n tiny updates per thread, $OMP_NUM_THREADS threads (tests/e2e/numbers/tiny.c), whole process"
    record "#baseline|tiny|plain libgomp"
    record "#baseline|tiny|plain libomp"
    record "#note|tiny|pomp: pompcc's default build, default levels: critical throttled after 10,000 executions under 1 us each or 100,000 under 10 us (POMP_THROTTLE), atomic counted inline from its first execution (no trace), both counted inline once so; not throttled: POMP_THROTTLE=off (every event through the calls); libomp columns: --pomp-runtime=omp against the plain program on LLVM libomp"
    local -a columns=("plain libgomp" "pomp libgomp" "pomp libgomp, not throttled" "plain libomp"
                      "pomp libomp" "pomp libomp, not throttled")
    local rep k col kind bin stats nc=${#columns[@]}
    for ((rep = 0; rep < REPS; rep++)); do
        say "tiny updates: repetition $((rep + 1))/$REPS"
        for kind in atomic critical; do
            for ((k = 0; k < nc; k++)); do # rotated, so no column always runs first
                col=${columns[$(((k + rep) % nc))]}
                bin=${col%%,*}
                local throttle=""
                [ "$col" != "$bin" ] && throttle=POMP_THROTTLE=off
                # shellcheck disable=SC2086
                stats=$(env $throttle POMP_OUTPUT_DIR="$d/out" "$OUT/runstat" "$d/${bin// /-}" $kind $n)
                rm -rf "$d/out"
                record "tiny|$kind|$col|$rep|${stats%% *}"
            done
        done
    done
}
