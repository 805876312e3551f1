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

opari2_installed() { command -v opari2 >/dev/null && [ -f /usr/include/opari2/pomp2_lib.h ]; }

# The OPARI2 build, as its manual describes it: instrument, compile, generate
# POMP2_Init_regions from the objects with nm and OPARI2's awk script, link with
# the POMP2 library (bench/pomp2_min) and, like pompcc, LLVM libomp.
build_opari2() {
    local d=$1/opari2
    mkdir -p "$d"
    cp "$CONSTRUCTS_SRC" "$d/constructs.c" # OPARI2 writes its .opari.inc beside the source
    (
        cd "$d"
        opari2 constructs.c constructs.mod.c
        # shellcheck disable=SC2046
        cc -O2 -fopenmp $(opari2-config --cflags=gnu) -c constructs.mod.c -o constructs.mod.o
        $(opari2-config --nm) constructs.mod.o | $(opari2-config --region-initialization) >pomp2_init_regions.c
        cc -O2 -c pomp2_init_regions.c -o pomp2_init_regions.o
        cc constructs.mod.o pomp2_init_regions.o -o "$1/opari2-bin" -L"$OUT" -Wl,-rpath,"$OUT" -lpomp2min \
            -L"$LIBOMP_DIR" -Wl,-rpath,"$LIBOMP_DIR" -lomp -pthread
    )
}

# build_constructs DIR: the binaries of every variant, from the same source.
build_constructs() {
    local d=$1
    # plain on each runtime, pompcc's GCC build on libgomp with the libgomp bridge
    # (the default) and on libomp with OMPT (pomp-libomp), where the other variants run
    build_on_both_runtimes "$CONSTRUCTS_SRC" "$d"
    # the plain program with libpomp loaded: only the OMPT bridge (if any) measures
    cc "$d/plain.o" -o "$d/plain-ompt" -Wl,--no-as-needed -L"$BUILD/lib" -Wl,-rpath,"$BUILD/lib" -lpomp \
        -Wl,--as-needed -L"$LIBOMP_DIR" -Wl,-rpath,"$LIBOMP_DIR" -lomp -pthread
    # the plain program with an OMPT tool that registers no callback: libomp's own
    # cost of an active tool, the floor under every OMPT tool (bench/ompt_null)
    cc "$d/plain.o" -o "$d/plain-null-tool" -Wl,--no-as-needed -L"$OUT" -Wl,-rpath,"$OUT" -lompt_null \
        -Wl,--as-needed -L"$LIBOMP_DIR" -Wl,-rpath,"$LIBOMP_DIR" -lomp -pthread
    if opari2_installed; then
        build_opari2 "$d"
    fi
}

# CPU time the whole machine was busy over 0.3 s, in percent of its CPUs.
machine_busy_percent() {
    local a b
    read -r -a a < <(head -1 /proc/stat)
    sleep 0.3
    read -r -a b < <(head -1 /proc/stat)
    local total=0 i
    for ((i = 1; i < ${#a[@]}; i++)); do total=$((total + b[i] - a[i])); done
    local idle=$((b[4] - a[4] + b[5] - a[5]))
    echo $(((total - idle) * 100 / (total > 0 ? total : 1)))
}

# Two threads on two vCPUs: another process running makes libomp's spin-waits
# yield (a barrier then takes ~30 us instead of ~0.2) and preempts lock holders.
# Before each repetition, wait (up to 20 s) until the machine is idle.
QUIET_BUSY_PERCENT=15
busy_repetitions=0
wait_for_quiet_machine() {
    local waited=0 busy
    while busy=$(machine_busy_percent) && ((busy > QUIET_BUSY_PERCENT)); do
        if ((waited >= 20 || $(date +%s) > CONSTRUCTS_DEADLINE)); then
            say "construct suite: machine still ${busy}% busy, measuring anyway"
            busy_repetitions=$((busy_repetitions + 1))
            return
        fi
        ((waited == 0)) && say "construct suite: machine ${busy}% busy, waiting for it to be idle"
        sleep 1
        waited=$((waited + 1))
    done
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
    local -a labels=("plain libgomp" "pomp libgomp" "pomp libgomp, default throttle" "pomp libgomp, EnterExit"
                     "plain libomp" "null tool" "pomp"
                     "pomp max" "pomp trace" "pomp no OMPT" "pomp, empty callbacks" "OMPT only" "opari2")
    local -A bin=(["plain libgomp"]=plain-libgomp ["pomp libgomp"]=pomp-libgomp
                  ["pomp libgomp, default throttle"]=pomp-libgomp
                  ["pomp libgomp, EnterExit"]=pomp-libgomp
                  ["plain libomp"]=plain-libomp ["null tool"]=plain-null-tool
                  ["pomp"]=pomp-libomp ["pomp max"]=pomp-libomp ["pomp trace"]=pomp-libomp
                  ["pomp no OMPT"]=pomp-libomp ["pomp, empty callbacks"]=pomp-libomp
                  ["OMPT only"]=plain-ompt ["opari2"]=opari2-bin)
    local max_levels="POMP_PARALLEL=BeginEnd POMP_LOOP=IterBeginEnd POMP_WORKSHARE=BeginEnd POMP_SYNC=BeginEnd"
    max_levels+=" POMP_USER=BeginEnd POMP_RUNTIME=EnterExit POMP_TASK=BeginEnd POMP_TARGET=BeginEnd"
    # the lever docs/performance.md names for short constructs: no begin/end events
    local lean_levels="POMP_WORKSHARE=EnterExit POMP_SYNC=EnterExit"
    # (the throttle's default setting, docs/environment.md: after the POMP_THROTTLE=off below)
    local -A envs=(["plain libgomp"]="" ["pomp libgomp"]="" ["pomp libgomp, EnterExit"]="$lean_levels"
                   ["pomp libgomp, default throttle"]="POMP_THROTTLE=100000,10us"
                   ["plain libomp"]="" ["null tool"]="" ["pomp"]="" ["pomp max"]="$max_levels"
                   ["pomp trace"]="POMP_TRACE=$trace" ["pomp no OMPT"]="OMP_TOOL=disabled"
                   ["pomp, empty callbacks"]="POMP_OMPT=off OMP_TOOL_LIBRARIES=$OUT/libompt_null.so POMP_BENCH_NULL_CALLBACKS=1"
                   ["OMPT only"]=""
                   ["opari2"]="POMP2_MIN_OUTPUT=$WORK/opari2-events")
    record "#section|construct|ns per execution|EPCC-style construct overhead, $OMP_NUM_THREADS threads (test - reference of the same delays) / executions"
    record "#baseline|construct|plain libomp"
    record "#baseline|construct|plain libgomp"
    record "#section|construct-time|ns per execution|Time per construct execution, body (a ~100 ns delay) included"
    record "#baseline|construct-time|plain libomp"
    record "#baseline|construct-time|plain libgomp"
    record "#note|construct|plain libgomp/libomp: gcc -O2 -fopenmp on GCC's libgomp / on LLVM libomp; pomp libgomp: pompcc's default GCC build, on libgomp with the libgomp bridge, default levels (its target: ratio to plain libgomp); pomp libgomp, default throttle: the same at the default POMP_THROTTLE (a site run over 10,000 times under 1 us each is counted inline from then on, an undeferred task's execution with its creation: what users get); pomp libgomp, EnterExit: the same with $lean_levels (no begin/end events of worksharing and synchronization constructs); pomp: pompcc --pomp-runtime=omp, on LLVM libomp with OMPT, default levels (and the variants below, all on libomp); pomp max: every group at its most detailed level; pomp trace: default levels, POMP_TRACE=$trace; pomp no OMPT: OMP_TOOL=disabled; OMPT only: the plain program with libpomp loaded, so only the OMPT bridge measures; null tool: the plain program with an OMPT tool that registers no callback (libomp's own cost of an active tool); pomp, empty callbacks: the pompcc build with pomp's tool off and that tool registering empty callbacks where the bridge registers its own (the POMP events and libomp's callback calls: pomp less the bridge's work); every other pomp variant with POMP_THROTTLE=off: each execution timed, as a construct run fewer than 10,000 times per thread is by default; atomic at the default settings (counted inline from its first execution where no trace is written; POMP_THROTTLE=off would make every atomic a call)"
    record "#note|construct|opari2: the same source through OPARI2 $(opari2 --version 2>/dev/null | sed -n 's/^opari2 version //p'), linked with bench/pomp2_min (timestamps and libpomp's call-path profile, as pomp records) on LLVM libomp; OPARI2 adds a barrier before each implicit one, and nowait"
    record "#note|construct|runtime settings: each runtime's defaults (KMP_BLOCKTIME, KMP_USE_YIELD, OMP_WAIT_POLICY, GOMP_SPINCOUNT unset); OMP_NUM_THREADS=$OMP_NUM_THREADS; delay body $delay loop trips (~100 ns)"

    local -a run_labels=() na_records=()
    local l t why
    for l in "${labels[@]}"; do
        why=""
        case $l in
            "pomp no OMPT" | "OMPT only" | "pomp, empty callbacks") ompt_bridge_built || why="not built" ;;
            "pomp trace") [ "$trace" != none ] || why="not built" ;;
            opari2) [ -x "$d/opari2-bin" ] || why="OPARI2 not installed: make bench-deps" ;;
        esac
        if [ -n "$why" ]; then # recorded after the samples: columns keep the order above
            while IFS= read -r t; do
                na_records+=("#na|construct|$t|$l|$why" "#na|construct-time|$t|$l|$why")
            done < <("$d/plain-libomp" --list)
            continue
        fi
        run_labels+=("$l")
    done

    # Every variant runs one test right after the others, so the samples of a
    # pair (a variant and its baseline) are tens of milliseconds apart, not
    # seconds: on a shared machine the load changes between seconds.
    local -a tests=()
    while IFS= read -r t; do tests+=("$t"); done < <("$d/plain-libomp" --list)
    local rep k throttle n=${#run_labels[@]}
    for ((rep = 0; rep < REPS; rep++)); do
        # a loaded machine slows every run down: keep make bench within its time
        # budget, with at least 3 repetitions
        if ((rep >= 3 && $(date +%s) > CONSTRUCTS_DEADLINE)); then
            say "construct suite: time budget spent, $rep repetitions"
            record "#note|construct|only $rep of $REPS repetitions: the time budget ran out (a busy machine)"
            break
        fi
        wait_for_quiet_machine
        say "construct suite: repetition $((rep + 1))/$REPS"
        for t in "${tests[@]}"; do
            # rotate the order, so no variant always runs first
            for ((k = 0; k < n; k++)); do
                l=${run_labels[$(((k + rep) % n))]}
                # every execution timed (POMP_THROTTLE=off): the cost of a measured
                # construct; by default a site run over 10,000 times under 1 us
                # each is throttled within one process of this suite, and its
                # later timings would be those of a counted site
                # (atomic excepted: an event without duration is counted
                # inline from its first execution where no trace is written,
                # and POMP_THROTTLE=off turns that off: what users get is the
                # default)
                throttle=POMP_THROTTLE=off
                [ "$t" = atomic ] && throttle=
                # shellcheck disable=SC2086
                env $throttle ${envs[$l]} POMP_OUTPUT_DIR="$WORK/construct-out" \
                    "$d/${bin[$l]}" "$delay" "$l" "$rep" "$t" >>"$SAMPLES"
                rm -rf "$WORK/construct-out"
            done
        done
    done
    for t in "${na_records[@]}"; do record "$t"; done
    ((busy_repetitions == 0)) ||
        record "#note|construct|$busy_repetitions repetition(s) started on a machine busy with other processes (over ${QUIET_BUSY_PERCENT}% CPU)"
    # the POMP2 library must have recorded: a silent one would flatter OPARI2
    if [ -f "$WORK/opari2-events" ] && ! awk '$2 > 0 { ok = 1 } END { exit !ok }' "$WORK/opari2-events"; then
        say "warning: the OPARI2 build recorded no events"
        record "#note|construct|warning: the OPARI2 build recorded no events"
    fi
}
