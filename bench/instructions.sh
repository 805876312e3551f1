# make bench, part 5: instructions per event and per construct, counted by callgrind (exact and
# stable where timings on a shared machine are not). Only the event routines
# are counted (--toggle-collect), so the loop around them is not; two runs with
# different numbers of events cancel the warm-up and the first events.
# Sourced by bench/run.sh.

instructions_part() {
    if ! command -v valgrind >/dev/null; then
        record "#note|instructions|not measured: valgrind is not installed (make bench-deps)"
        return
    fi
    record "#section|instructions|instructions per event|Instructions per POMP event inside libpomp (callgrind, 1 thread)"
    record "#note|instructions|the same loops as the event cost above; reading the clock is 1 instruction (rdtsc) of these"
    local mode label kind n1=10000 n2=30000
    for mode in none events otf2 chrome; do
        case $mode in
            none) label=profile ;;
            *) label="trace $mode" ;;
        esac
        for kind in preinit siblings filtered; do
            if [ "$mode" != none ] && ! trace_mode_built "$mode"; then
                record "#na|instructions|$label|$kind|not built"
                continue
            fi
            local ir=() n
            for n in $n1 $n2; do
                rm -f "$WORK/callgrind.out"
                POMP_TRACE=$mode POMP_OUTPUT_DIR="$WORK/callgrind-run" \
                    valgrind --tool=callgrind --collect-atstart=no \
                    --toggle-collect='POMP_User_region_*' --toggle-collect=POMP_Loop_iter_event \
                    --callgrind-out-file="$WORK/callgrind.out" \
                    "$OUT/event_cost" "$label" 1 1 "$n" "$kind" >/dev/null 2>&1
                rm -rf "$WORK/callgrind-run"
                ir+=("$(sed -n 's/^totals: *//p' "$WORK/callgrind.out")")
            done
            record "instructions|$label|$kind|0|$(awk -v a="${ir[0]}" -v b="${ir[1]}" -v n="$((n2 - n1))" 'BEGIN { printf "%.1f", (b - a) / n }')"
        done
    done
    construct_instructions
}

# Instructions per construct execution inside libpomp, split into the POMP
# event routines and the OMPT bridge's callbacks: the construct suite's
# programs (bench/constructs) under callgrind, each test run N1 and N2 times
# (constructs --run), counting only inside POMP_* or bridge_on_* functions.
# Both threads are counted (callgrind runs them one at a time). This shows
# where the construct overhead of the timings comes from, exactly.
construct_instructions() {
    local d=$WORK/constructs-callgrind n1=200 n2=600
    mkdir -p "$d"
    cc -O2 -fopenmp -c "$CONSTRUCTS_SRC" -o "$d/plain.o"
    (cd "$d" && "$BUILD/bin/pompcc" -O2 -fopenmp "$CONSTRUCTS_SRC" -o "$d/pomp")
    cc "$d/plain.o" -o "$d/plain-ompt" -Wl,--no-as-needed -L"$BUILD/lib" -Wl,-rpath,"$BUILD/lib" -lpomp \
        -Wl,--as-needed -L"$LIBOMP_DIR" -Wl,-rpath,"$LIBOMP_DIR" -lomp -pthread
    record "#section|construct-instructions|instructions per execution|Instructions per construct execution inside libpomp, both threads (callgrind; pomp at default levels)"
    record "#note|construct-instructions|POMP events: the POMP_* routines the instrumentation calls; OMPT bridge: the bridge's callbacks (bridge_on_*), in the pompcc build and in the plain program with libpomp loaded (OMPT only)"
    local t col bin fn
    while IFS= read -r t; do
        for col in "POMP events|pomp|POMP_*" "OMPT bridge|pomp|bridge_on_*" "OMPT bridge, OMPT only|plain-ompt|bridge_on_*"; do
            IFS='|' read -r col bin fn <<<"$col"
            local ir=() n
            for n in $n1 $n2; do
                rm -f "$WORK/callgrind.out"
                POMP_OUTPUT_DIR="$WORK/callgrind-run" valgrind --tool=callgrind --collect-atstart=no \
                    --toggle-collect="$fn" --callgrind-out-file="$WORK/callgrind.out" \
                    "$d/$bin" --run "$n" "$t" >/dev/null 2>&1
                rm -rf "$WORK/callgrind-run"
                ir+=("$(sed -n 's/^totals: *//p' "$WORK/callgrind.out")")
            done
            record "construct-instructions|$t|$col|0|$(awk -v a="${ir[0]}" -v b="${ir[1]}" -v n="$((n2 - n1))" 'BEGIN { printf "%.0f", (b - a) / n }')"
        done
    done < <("$d/pomp" --list | grep -v '^for schedule(\(static\|guided\)')
}
