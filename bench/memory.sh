# make bench, part 3b: memory of a program that records events on every thread,
# plain and through pompcc, in profile and trace mode, on 1 and 2 threads, for a
# run and one 10 times as long: the peak resident memory of the whole process
# (getrusage maxrss), and the peak of the heap libpomp itself holds (counted by
# the preloaded bench/memory/alloc_count.c). Sourced by bench/run.sh.

memory_part() {
    local d=$WORK/memory
    mkdir -p "$d"
    cc -O2 -fopenmp -c "$here/memory/memprog.c" -o "$d/memprog.o"
    cc "$d/memprog.o" -o "$d/plain" -L"$LIBOMP_DIR" -Wl,-rpath,"$LIBOMP_DIR" -lomp -pthread
    (cd "$d" && "$BUILD/bin/pompcc" -O2 -fopenmp "$here/memory/memprog.c" -o "$d/pomp")
    local trace
    trace=$(best_trace_mode)
    local short=2000 long=20000
    [ "$QUICK" = 1 ] && short=500 long=5000
    record "#section|memory|KiB|Peak memory (maxrss), memprog: $short rounds of parallel { for, critical, single, barrier }"
    record "#section|heap|KiB|Heap held by libpomp at its peak (its own malloc/calloc/realloc), same runs"
    record "#note|memory|pomp: profile mode; pomp trace: POMP_TRACE=$trace (default 16 MiB buffer per thread, touched as it fills); per thread: (pomp - plain at 2 threads) - (pomp - plain at 1 thread); growth: 2 threads, $long rounds against $short"
    local rep col threads rounds
    local -A kib heap
    for ((rep = 0; rep < REPS; rep++)); do
        say "memory: repetition $((rep + 1))/$REPS"
        for col in plain pomp "pomp trace"; do
            local bin=$d/pomp env=()
            [ "$col" = plain ] && bin=$d/plain
            [ "$col" = "pomp trace" ] && env=(POMP_TRACE=$trace)
            for threads in 1 2; do
                for rounds in $short $long; do
                    [ "$threads" = 1 ] && [ "$rounds" = $long ] && continue
                    local stats
                    rm -f "$d/alloc"
                    stats=$(env "${env[@]}" OMP_NUM_THREADS=$threads POMP_OUTPUT_DIR="$d/out" \
                                LD_PRELOAD="$OUT/alloc_count.so" POMP_BENCH_ALLOC_OUT="$d/alloc" \
                                "$OUT/runstat" "$bin" "$rounds")
                    rm -rf "$d/out"
                    kib["$col $threads $rounds"]=${stats##* }
                    heap["$col $threads $rounds"]=$(( $(cat "$d/alloc" 2>/dev/null || echo 0) / 1024 ))
                done
            done
            record "memory|peak, 1 thread|$col|$rep|${kib["$col 1 $short"]}"
            record "memory|peak, 2 threads|$col|$rep|${kib["$col 2 $short"]}"
            record "memory|peak, 2 threads, 10x longer|$col|$rep|${kib["$col 2 $long"]}"
            record "memory|growth with run time (2 threads)|$col|$rep|$((kib["$col 2 $long"] - kib["$col 2 $short"]))"
        done
        for col in pomp "pomp trace"; do
            record "heap|1 thread|$col|$rep|${heap["$col 1 $short"]}"
            record "heap|2 threads|$col|$rep|${heap["$col 2 $short"]}"
            record "heap|per thread (2 threads - 1 thread)|$col|$rep|$((heap["$col 2 $short"] - heap["$col 1 $short"]))"
            record "heap|growth with run time (2 threads, 10x longer)|$col|$rep|$((heap["$col 2 $long"] - heap["$col 2 $short"]))"
            record "memory|added by pomp, 1 thread|$col|$rep|$((kib["$col 1 $short"] - kib["plain 1 $short"]))"
            record "memory|added by pomp per thread|$col|$rep|$((kib["$col 2 $short"] - kib["plain 2 $short"] - kib["$col 1 $short"] + kib["plain 1 $short"]))"
        done
    done
}
