#!/usr/bin/env bash
# make bench: measures pomp's overhead and prints the table (docs/performance.md).
# Every figure is a median over repetitions interleaved with its baseline; the
# raw samples go to build/bench/samples.tsv, the summary to build/bench/bench.json
# and build/bench/bench.txt.
#
# POMP_BENCH_REPS (default 7) sets the number of repetitions; POMP_BENCH_QUICK=1
# runs a short smoke version (3 repetitions, smaller loops); POMP_BENCH_PARTS
# chooses the parts (default: event instructions constructs real compile memory sampling tiny).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
: "${BUILD:?BUILD must point at the build directory}"
OUT=$BUILD/bench
QUICK=${POMP_BENCH_QUICK:-0}
REPS=${POMP_BENCH_REPS:-$([ "$QUICK" = 1 ] && echo 3 || echo 7)}
PARTS=${POMP_BENCH_PARTS:-event instructions constructs real compile memory sampling tiny}
SAMPLES=$OUT/samples.tsv
WORK=$OUT/work
unset MAKEFLAGS MFLAGS MAKELEVEL MAKEOVERRIDES
export POMP_SUMMARY=off
export OMP_NUM_THREADS=${OMP_NUM_THREADS:-2}   # this machine has 2 vCPUs
rm -rf "$WORK" && mkdir -p "$WORK"
: >"$SAMPLES"
started=$(date +%s)
# The construct suite starts no repetition after this (make bench stays under 10 minutes).
CONSTRUCTS_DEADLINE=$((started + ${POMP_BENCH_CONSTRUCTS_BUDGET:-300}))

# build_on_both_runtimes SRC DIR: DIR/plain-libgomp, plain-libomp (gcc -O2 -fopenmp on GCC's
# libgomp and on LLVM libomp), pomp-libgomp (pompcc's default GCC build) and pomp-libomp
# (--pomp-runtime=omp), for the parts that compare pomp on each runtime.
build_on_both_runtimes() {
    local src=$1 d=$2
    mkdir -p "$d"
    cc -O2 -fopenmp "$src" -o "$d/plain-libgomp"
    cc -O2 -fopenmp -c "$src" -o "$d/plain.o"
    cc "$d/plain.o" -o "$d/plain-libomp" -L"$LIBOMP_DIR" -Wl,-rpath,"$LIBOMP_DIR" -lomp -pthread
    (cd "$d" && "$BUILD/bin/pompcc" -O2 -fopenmp "$src" -o "$d/pomp-libgomp")
    (cd "$d" && "$BUILD/bin/pompcc" --pomp-runtime=omp -O2 -fopenmp "$src" -o "$d/pomp-libomp")
}

record() { printf '%s\n' "$*" | tr '|' '\t' >>"$SAMPLES"; }
say() { echo "bench: $*" >&2; }

# ---- the machine ----
record "#machine|cpu|$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//')"
record "#machine|nproc|$(nproc)"
record "#machine|kernel|$(uname -r)"
record "#machine|cc|$(cc --version | head -1)"
record "#machine|libomp|$(dpkg-query -W -f='${Version}' libomp5-19 2>/dev/null || echo unknown)"
record "#machine|load average at start|$(cut -d' ' -f1-3 /proc/loadavg)"
record "#machine|date|$(date -u +%Y-%m-%dT%H:%M:%SZ)"
record "#machine|repetitions|$REPS"

# ---- 1. per-event cost (bench/event_cost.c) ----
# A trace mode is measured when this libpomp accepts its POMP_TRACE value; one
# that rejects it ("is not valid") does not have the feature yet.
trace_mode_built() {
    local err
    err=$(POMP_TRACE=$1 POMP_OUTPUT_DIR="$WORK/probe" "$OUT/event_cost" probe 1 1 2 2>&1 >/dev/null) || return 1
    ! grep -q "POMP_TRACE='$1' is not valid" <<<"$err"
}

event_part() {
    local events=$([ "$QUICK" = 1 ] && echo 100000 || echo 400000)
    # POMP_TRACE=events keeps every event in memory until the end (no flush): the
    # buffer is sized to hold the whole run, so nothing is dropped. The file
    # formats flush a full buffer: a small one makes flushes part of the figure.
    local trace_events=$((events / 4))
    local events_buffer=$(((trace_events * 3 * REPS + 20000) * 16 * 2))
    record "#section|event|ns per event|Cost of one POMP event (a begin/end pair through a user region; 1T, 2T: threads recording at once)"
    record "#baseline|event|clock"
    record "#note|event|clock: one rdtsc; preinit: handle from POMP_Get_handle; lazy: handle set by its first event; siblings: 8 regions in turn under one parent; filtered: event turned down by its group level (POMP_LOOP=EnterExit)"
    record "#note|event|lazy-first: one-time extra cost of the first event of a zero handle (CTC parsed, region created under the registry lock), ns per handle"
    record "#note|event|trace events: POMP_TRACE=events, buffer holds the whole run (no flush; page faults of the fresh buffer included); otf2/chrome: 1 MiB buffer, flushes included"
    local mode label threads
    for mode in none events otf2 chrome; do
        case $mode in
            none) label=profile ;;
            *) label="trace $mode" ;;
        esac
        for threads in 1 2; do
            if [ "$mode" != none ] && ! trace_mode_built "$mode"; then
                for k in clock preinit lazy siblings filtered lazy-first; do
                    record "#na|event|$label ${threads}T|$k|not built"
                done
                continue
            fi
            local env=(POMP_TRACE=$mode POMP_OUTPUT_DIR="$WORK/event-$mode-$threads")
            local n=$events
            case $mode in
                events) env+=(POMP_BUFFER_SIZE=$events_buffer); n=$trace_events ;;
                none) ;;
                *) env+=(POMP_BUFFER_SIZE=1M); n=$trace_events ;;
            esac
            say "event cost: $label, $threads thread(s)"
            env "${env[@]}" "$OUT/event_cost" "$label" "$threads" "$REPS" "$n" >>"$SAMPLES"
            local dropped
            dropped=$(jq '[.threads[].dropped_events // 0] | add' "$WORK/event-$mode-$threads/profile.json" 2>/dev/null ||
                      echo "an unknown number of")
            [ "$dropped" = 0 ] || record "#note|event|$label ${threads}T: $dropped events dropped (buffer full), or no profile.json to tell"
            rm -rf "$WORK/event-$mode-$threads"
        done
    done
}

# ---- 2. construct overheads (bench/constructs/) ----
source "$here/constructs.sh"
# ---- 3. compile time and memory ----
source "$here/compile.sh"
source "$here/memory.sh"
# ---- 5. instructions per event (callgrind) ----
source "$here/instructions.sh"
# ---- 6. sampling overhead ----
source "$here/sampling.sh"
# ---- 7. real task programs, pompcc's GCC build on each runtime ----
source "$here/real.sh"
# ---- 8. a million tiny atomic and critical updates, throttled and not ----
source "$here/tiny.sh"

for part in $PARTS; do
    "${part}_part"
done

# ---- summary ----
record "#machine|load average at end|$(cut -d' ' -f1-3 /proc/loadavg)"
record "#machine|bench wall time (s)|$(($(date +%s) - started))"
"$OUT/summarize" "$SAMPLES" "$OUT/bench.json" | tee "$OUT/bench.txt"
echo
echo "bench: samples in $SAMPLES, summary in $OUT/bench.json and $OUT/bench.txt ($(($(date +%s) - started)) s)"
