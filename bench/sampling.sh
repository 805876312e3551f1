# make bench, part 6: what POMP_SAMPLING costs a compute-bound OpenMP program
# (bench/sampling/compute.c) at a 1 ms period, with the wall and the CPU timer,
# against the same program with sampling off; once built by pompcc, once plain
# under pomprun. The "signals only" columns run the plain program with the same
# per-thread 1 ms timers and a handler that only counts: the kernel's share.
# Sourced by bench/run.sh (uses OUT, WORK, REPS, QUICK, LIBOMP_DIR, record, say).

sampling_part() {
    local d=$WORK/sampling
    mkdir -p "$d"
    cc -O2 -g -fopenmp -c "$here/sampling/compute.c" -o "$d/compute.o"
    cc "$d/compute.o" -o "$d/plain" -L"$LIBOMP_DIR" -Wl,-rpath,"$LIBOMP_DIR" -lomp -lm -pthread
    # on LLVM libomp, as the plain program (pompcc's GCC default would be libgomp)
    (cd "$d" && "$BUILD/bin/pompcc" --pomp-runtime=omp -O2 -g -fopenmp "$here/sampling/compute.c" -o "$d/pomp" -lm)
    local chunks=40
    [ "$QUICK" = 1 ] && chunks=15
    local what="compute-bound kernel (bench/sampling/compute.c), $OMP_NUM_THREADS threads, fastest of $chunks chunks of 8 parallel loops"
    record "#section|sampling|ms|POMP_SAMPLING=1ms, program built by pompcc: $what"
    record "#section|sampling-pomprun|ms|POMP_SAMPLING=1ms, plain program under pomprun: $what"
    local s
    for s in sampling sampling-pomprun; do
        record "#baseline|$s|sampling off"
        record "#baseline|$s|no pomp"
    done
    record "#note|sampling|no pomp: the plain program on LLVM libomp; signals only (wall, cpu): the plain program with a 1 ms timer per thread (CLOCK_MONOTONIC, CLOCK_THREAD_CPUTIME_ID) whose SIGPROF handler only counts, the kernel's cost of the signals; sampling off: libpomp without POMP_SAMPLING; 1ms wall, 1ms cpu: POMP_SAMPLING=1ms with POMP_SAMPLING_TIMER=wall, cpu"
    record "#note|sampling|CPU time of the loops: the threads' CPU time in their share of the loops, summed (steady on a busy machine, where the wall time is not); the target (< 2 %) is the ratio to sampling off"
    record "#note|sampling-pomprun|the same columns; pomprun preloads libpomp into the plain program (no POMP events, the OMPT bridge and the sampler only)"
    # column -> what runs: "plain ARGS" runs the plain program once for both
    # sections; "pomp ENV" the pompcc build and pomprun with the plain program
    local -a columns=("no pomp" "signals only, wall" "signals only, cpu" "sampling off" "1ms wall" "1ms cpu")
    local -A how=(["no pomp"]="plain" ["signals only, wall"]="plain wall" ["signals only, cpu"]="plain cpu"
                  ["sampling off"]="pomp" ["1ms wall"]="pomp POMP_SAMPLING=1ms"
                  ["1ms cpu"]="pomp POMP_SAMPLING=1ms POMP_SAMPLING_TIMER=cpu")
    local rep k col n=${#columns[@]} out=$WORK/sampling-out
    local -a args
    for ((rep = 0; rep < REPS; rep++)); do
        say "sampling: repetition $((rep + 1))/$REPS"
        for ((k = 0; k < n; k++)); do # rotated, so no column always runs first
            col=${columns[$(((k + rep) % n))]}
            read -r -a args <<<"${how[$col]}"
            if [ "${args[0]}" = plain ]; then
                "$d/plain" "$chunks" sampling "$col" "$rep" "${args[@]:1}" |
                    sed 'p; s/^sampling\t/sampling-pomprun\t/' >>"$SAMPLES"
            else
                env "${args[@]:1}" POMP_OUTPUT_DIR="$out" "$d/pomp" "$chunks" sampling "$col" "$rep" >>"$SAMPLES"
                rm -rf "$out"
                env "${args[@]:1}" POMP_OUTPUT_DIR="$out" "$BUILD/bin/pomprun" --pomp-runtime=omp "$d/plain" "$chunks" \
                    sampling-pomprun "$col" "$rep" >>"$SAMPLES"
                rm -rf "$out"
            fi
        done
    done
}
