# make bench, part 2: the construct-overhead suite (bench/constructs/constructs.c),
# built several ways from one source and run interleaved, repetition by
# repetition. Sourced by bench/run.sh (uses OUT, WORK, REPS, QUICK, record, say).

LIBOMP_DIR=/usr/lib/llvm-19/lib
CONSTRUCTS_SRC=$here/constructs/constructs.c

# Does this libpomp contain the OMPT bridge? (An OMPT tool exports ompt_start_tool.)
ompt_bridge_built() { nm -D --defined-only "$BUILD/lib/libpomp.so" 2>/dev/null | grep -qw ompt_start_tool; }

# The best trace format this libpomp records (otf2 once it is built, else events).
best_trace_mode() {
    local m
    for m in otf2 chrome events; do
        trace_mode_built "$m" && { echo "$m"; return; }
    done
    echo none
}

# build_constructs DIR: the binaries of every variant, from the same source.
build_constructs() {
    local d=$1
    mkdir -p "$d"
    cc -O2 -fopenmp "$CONSTRUCTS_SRC" -o "$d/plain-libgomp"
    cc -O2 -fopenmp -c "$CONSTRUCTS_SRC" -o "$d/plain.o"
    cc "$d/plain.o" -o "$d/plain-libomp" -L"$LIBOMP_DIR" -Wl,-rpath,"$LIBOMP_DIR" -lomp -pthread
    (cd "$d" && "$BUILD/bin/pompcc" -O2 -fopenmp "$CONSTRUCTS_SRC" -o "$d/pomp")
}

constructs_part() {
    local d=$WORK/constructs
    say "construct suite: building"
    build_constructs "$d"
    local delay
    delay=$("$d/plain-libomp" --calibrate)
    local trace
    trace=$(best_trace_mode)
    # variant label -> binary and environment
    local -a labels=("plain libgomp" "plain libomp" "pomp" "pomp max" "pomp trace" "pomp no OMPT")
    local -A bin=(["plain libgomp"]=plain-libgomp ["plain libomp"]=plain-libomp ["pomp"]=pomp
                  ["pomp max"]=pomp ["pomp trace"]=pomp ["pomp no OMPT"]=pomp)
    local max_levels="POMP_PARALLEL=BeginEnd POMP_LOOP=IterBeginEnd POMP_WORKSHARE=BeginEnd POMP_SYNC=BeginEnd"
    max_levels+=" POMP_USER=BeginEnd POMP_RUNTIME=EnterExit POMP_TASK=BeginEnd POMP_TARGET=BeginEnd"
    local -A envs=(["plain libgomp"]="" ["plain libomp"]="" ["pomp"]="" ["pomp max"]="$max_levels"
                   ["pomp trace"]="POMP_TRACE=$trace" ["pomp no OMPT"]="OMP_TOOL=disabled")
    record "#section|construct|ns per execution|EPCC-style construct overhead, $OMP_NUM_THREADS threads (test - reference of the same delays) / executions"
    record "#baseline|construct|plain libomp"
    record "#baseline|construct|plain libgomp"
    record "#section|construct-time|ns per execution|Time per construct execution, body (a ~100 ns delay) included"
    record "#baseline|construct-time|plain libomp"
    record "#note|construct|plain libgomp/libomp: gcc -O2 -fopenmp on GCC's libgomp / on LLVM libomp (what pomp links); pomp: pompcc, default levels; pomp max: every group at its most detailed level; pomp trace: default levels, POMP_TRACE=$trace; pomp no OMPT: OMP_TOOL=disabled"
    record "#note|construct|runtime settings: each runtime's defaults (KMP_BLOCKTIME, OMP_WAIT_POLICY unset); OMP_NUM_THREADS=$OMP_NUM_THREADS; delay body $delay loop trips (~100 ns)"

    local -a run_labels=()
    local l t
    for l in "${labels[@]}"; do
        if { [ "$l" = "pomp no OMPT" ] && ! ompt_bridge_built; } ||
           { [ "$l" = "pomp trace" ] && [ "$trace" = none ]; }; then
            while IFS= read -r t; do
                record "#na|construct|$t|$l|not built"
                record "#na|construct-time|$t|$l|not built"
            done < <("$d/plain-libomp" --list)
            continue
        fi
        run_labels+=("$l")
    done

    local rep k n=${#run_labels[@]}
    for ((rep = 0; rep < REPS; rep++)); do
        say "construct suite: repetition $((rep + 1))/$REPS"
        # rotate the order, so no variant always runs first after a pause
        for ((k = 0; k < n; k++)); do
            l=${run_labels[$(((k + rep) % n))]}
            # shellcheck disable=SC2086
            env ${envs[$l]} POMP_OUTPUT_DIR="$WORK/construct-out" "$d/${bin[$l]}" "$delay" "$l" "$rep" >>"$SAMPLES"
            rm -rf "$WORK/construct-out"
        done
    done
}
