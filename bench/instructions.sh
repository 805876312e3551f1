# make bench, part 5: instructions per event, counted by callgrind (exact and
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
}
