# make bench, part 7: task-heavy programs of the project's own (the recursive
# fib with a taskwait and a cutoff, the task merge sort) and a million tiny
# atomic and critical updates per thread (tests/e2e/numbers/),
# pompcc's build against the plain program on LLVM libomp (what pompcc links)
# and on GCC's libgomp. Sourced by bench/run.sh (uses OUT, WORK, REPS, QUICK,
# LIBOMP_DIR, record, say).

tasks_part() {
    local d=$WORK/tasks src=$here/../tests/e2e/numbers
    mkdir -p "$d"
    local fib_n=36 sort_n=4000000
    [ "$QUICK" = 1 ] && fib_n=30 && sort_n=1000000
    local prog flags=(-O2 -fopenmp -DCUTOFF=10) # fib: ~2 x fib(n - 9) tasks (~100,000 for fib(36))
    for prog in fib msort tiny; do
        cc "${flags[@]}" "$src/$prog.c" -o "$d/$prog-libgomp"
        cc "${flags[@]}" -c "$src/$prog.c" -o "$d/$prog.o"
        cc "$d/$prog.o" -o "$d/$prog-libomp" -L"$LIBOMP_DIR" -Wl,-rpath,"$LIBOMP_DIR" -lomp -pthread
        (cd "$d" && "$BUILD/bin/pompcc" "${flags[@]}" "$src/$prog.c" -o "$d/$prog-pomp")
    done
    record "#section|tasks|ms wall time|Task programs, $OMP_NUM_THREADS threads: fib($fib_n) with taskwait and a cutoff of 10, task merge sort of $sort_n numbers (tests/e2e/numbers)"
    record "#baseline|tasks|plain libomp"
    record "#note|tasks|plain libomp: gcc -O2 -fopenmp linked to LLVM libomp (what pompcc links); plain libgomp: the same on GCC's libgomp; pomp: the pompcc build, default levels (tasks recorded as task roots; atomic and critical throttled after 100,000 executions); pomp, not throttled: POMP_THROTTLE=off"
    local -a columns=("plain libomp" "plain libgomp" "pomp" "pomp, not throttled")
    local -A suffix=(["plain libomp"]=libomp ["plain libgomp"]=libgomp ["pomp"]=pomp
                     ["pomp, not throttled"]=pomp)
    local -A env=(["plain libomp"]="" ["plain libgomp"]="" ["pomp"]="" ["pomp, not throttled"]="POMP_THROTTLE=off")
    local tiny_n=10000000
    [ "$QUICK" = 1 ] && tiny_n=2000000
    local -A args=(["fib"]=$fib_n ["msort"]=$sort_n ["atomic"]="atomic $tiny_n" ["critical"]="critical $tiny_n")
    local -A prog_of=(["fib"]=fib ["msort"]=msort ["atomic"]=tiny ["critical"]=tiny)
    local -A row=(["fib"]="fib($fib_n)" ["msort"]="merge sort" ["atomic"]="atomic x $tiny_n"
                  ["critical"]="critical x $tiny_n")
    local rep k col n=${#columns[@]} stats
    for ((rep = 0; rep < REPS; rep++)); do
        say "task programs: repetition $((rep + 1))/$REPS"
        for prog in fib msort atomic critical; do
            for ((k = 0; k < n; k++)); do # rotated, so no column always runs first
                col=${columns[$(((k + rep) % n))]}
                # shellcheck disable=SC2086
                stats=$(env ${env[$col]} POMP_OUTPUT_DIR="$d/out" "$OUT/runstat" \
                        "$d/${prog_of[$prog]}-${suffix[$col]}" ${args[$prog]})
                rm -rf "$d/out"
                record "tasks|${row[$prog]}|$col|$rep|${stats%% *}"
            done
        done
    done
}
