# POMP_SAMPLING in the serial code before a program's first OpenMP construct,
# and the source files that sampled frames name. The initial thread of a
# pompcc build is sampled from POMP_Init at main's start: before, its timer
# started with the runtime's tool (the first parallel region), and 200 ms of
# serial work out of 500 went unseen. The frames name the user's source, not
# the instrumented temporary file (/tmp/pompcc-*/0_x.pomp.c), and the flame
# graph has one node per function and caller.
PROGRAMS="$(cd "$(dirname "$0")/programs" && pwd)"
source "$(dirname "$0")/lib.sh"

"$POMPCC" -fopenmp -g -O2 "$PROGRAMS/sampling_serial.c" -o serial
plain_cc -g -O2 "$PROGRAMS/sampling_serial.c" -o serial_plain
POMP_SAMPLING=1ms POMP_OUTPUT_DIR=s ./serial >out.txt 2>err.txt
# a thread's first samples fill the unwinder's caches: slower, but no reason
# to raise a 1 ms period for the whole run
assert_not_contains err.txt "raised at run time" "1 ms: the period is kept"
./serial_plain >plain.txt
cmp -s out.txt plain.txt || fail "output differs from the plain build"
samples_in() { # FUNCTION: samples whose path holds it
    jq -r --arg f "$1" '.sampling as $s | [$s.paths[] | select([.frames[] | $s.frames[.].function]
           | index($f) != null) | .work + .wait] | add // 0' s/profile.json
}
serial=$(samples_in serial_phase)
par=$(samples_in parallel_phase)
echo "serial_phase $serial samples (expected 200), parallel_phase $par (expected 300)"
[ "$serial" -ge 150 ] || fail "serial_phase: $serial samples, expected about 200"
[ "$par" -ge 225 ] || fail "parallel_phase: $par samples, expected about 300"
# ... in the serial state: before the runtime starts the tool (GCC code starts
# libgomp at its first OpenMP call) the state is not the runtime's to say,
# and a thread in no recorded region is in serial code (it read as work)
serial_state() { # DIR FUNCTION: serial samples whose path holds it
    jq -r --arg f "$2" '.sampling as $s | [$s.paths[] | select([.frames[] | $s.frames[.].function]
           | index($f) != null) | .states.serial // 0] | add // 0' "$1"/profile.json
}
in_serial=$(serial_state s serial_phase)
[ "$in_serial" -ge $((serial * 9 / 10)) ] || fail "serial_phase: $in_serial of its $serial samples in the serial state"
# The same GCC program uninstrumented, under pomprun: its libpomp starts when
# it is loaded, not at libgomp's first call (the 200 ms went unsampled)
[ -n "$E2E_SANITIZE" ] || for rt in gomp omp; do # (a sanitized libpomp cannot be loaded into a plain program)
    POMP_SAMPLING=1ms POMP_OUTPUT_DIR=run_$rt "$BUILD/bin/pomprun" $([ $rt = omp ] && echo --pomp-runtime=omp) ./serial_plain > run.txt 2> run.err
    cmp -s run.txt plain.txt || fail "pomprun ($rt): output differs from the plain build"
    samples=$(jq -r '.sampling as $s | [$s.paths[] | select([.frames[] | $s.frames[.].function]
           | index("serial_phase") != null) | .work + .wait] | add // 0' run_$rt/profile.json)
    echo "pomprun ($rt): serial_phase $samples samples (expected 200), $(serial_state run_$rt serial_phase) serial"
    [ "$samples" -ge 150 ] || fail "pomprun ($rt): serial_phase has $samples samples, expected about 200"
done
# the program's frames name its source, as a plain build's debug information does
jq -r '.sampling.frames[] | select(.module | endswith("/serial")) | .file' s/profile.json >files.txt
if grep -q 'pomp\.c\|pompcc-' files.txt; then
    sort -u files.txt >&2
    fail "a sampled frame names pompcc's temporary file"
fi
grep -q 'sampling_serial\.c$' files.txt || fail "no frame names sampling_serial.c"
# one flame node per function (and its file) under its caller: the samples of
# one function at different lines are one node (two functions of one name in
# two files stay apart, as do two addresses of an inline function that the
# debug information places in two files, which ASan's runtime has)
"$REPORT" --json s | jq -e '[.sampling.flame | recurse(.children[]?) | select(.children)
    | [.children[] | [.name, .file]] | (length != (unique | length))] | any | not' >/dev/null \
    || fail "the flame graph has a function twice under one caller"
# After the last join the worker waits for work: its samples are idle and
# count in no region. Before, they landed on its closing barrier's node (300
# samples of wait on a node of 0 ms), on libomp under <OMP-implicit_barrier>
# too (libomp reports the worker in that barrier until its next region).
for rt in gomp omp; do
    "$POMPCC" --pomp-runtime=$rt -fopenmp -g -O2 "$PROGRAMS/sampling_tail.c" -o tail_$rt
    POMP_SAMPLING=1ms POMP_OUTPUT_DIR=out_tail_$rt ./tail_$rt > /dev/null
    worker_in_regions=$(jq '[.callpath[].per_thread[] | select(.thread == 1) | .samples_work + .samples_wait] | add' out_tail_$rt/profile.json)
    idle=$(jq '.sampling as $s | [$s.paths[] | select([.frames[] | $s.frames[.].function] == ["<OMP-idle>"]) | .states.idle] | add // 0' out_tail_$rt/profile.json)
    echo "$rt: the worker's samples in regions $worker_in_regions (expected about 100), idle $idle (expected about 300)"
    [ "$worker_in_regions" -le 130 ] || fail "$rt: the worker's idle tail counted in a region ($worker_in_regions samples)"
    [ "$idle" -ge 200 ] || fail "$rt: the worker's idle tail is not <OMP-idle> ($idle samples)"
done
echo "PASS"
