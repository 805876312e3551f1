# make bench, part 7: real programs (bench/real/tasks.c: tasks, a dynamic loop, an MD force loop,
# fine-grained N-queens tasks, a lock-protected histogram): pompcc's GCC
# build against the plain gcc build the user runs today, on libgomp (pompcc's
# default: the libgomp bridge) and, beside it, on LLVM libomp
# (--pomp-runtime=omp), and the plain build under pomprun. Sourced by bench/run.sh (uses OUT, WORK, REPS, LIBOMP_DIR,
# record, say, wait_for_quiet_machine).

real_part() {
    local d=$WORK/real src=$here/real/tasks.c
    say "real programs: building"
    build_on_both_runtimes "$src" "$d"
    record "#section|real|ms|Real programs (bench/real/tasks.c), $OMP_NUM_THREADS threads, kernel time"
    record "#baseline|real|plain libgomp"
    record "#baseline|real|plain libomp"
    record "#note|real|plain libgomp/libomp: gcc -O2 -fopenmp on GCC's libgomp / on LLVM libomp; pomp libgomp: pompcc's default GCC build (libgomp, the libgomp bridge), default levels: its target is 3 % over plain libgomp; pomp libomp: pompcc --pomp-runtime=omp (LLVM libomp, OMPT); pomprun libgomp: the plain gcc build run under pomprun (libgomp, the libgomp bridge alone: what the runtime reports, no instrumentation; beside the target, not under it)"
    local -a cols=("plain libgomp" "pomp libgomp" "pomprun libgomp" "plain libomp" "pomp libomp")
    local rep k c n=${#cols[@]}
    for ((rep = 0; rep < REPS; rep++)); do
        wait_for_quiet_machine
        say "real programs: repetition $((rep + 1))/$REPS"
        for ((k = 0; k < n; k++)); do
            c=${cols[$(((k + rep) % n))]}
            if [ "$c" = "pomprun libgomp" ]; then
                POMP_OUTPUT_DIR="$WORK/real-out" "$BUILD/bin/pomprun" "$d/plain-libgomp" "$c" "$rep" >>"$SAMPLES"
            else
                POMP_OUTPUT_DIR="$WORK/real-out" "$d/${c// /-}" "$c" "$rep" >>"$SAMPLES"
            fi
            rm -rf "$WORK/real-out"
        done
    done
}
